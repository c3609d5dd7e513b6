package jinja2

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/internal/fixture/scan"
)

// TestReprStrReference: repr of a str, which copies runs of plain bytes
// eight at a time, writes what a rune-at-a-time reading of Python's rules
// writes, for every byte at every offset of the eight-byte scan and for
// random mixes of ASCII, quotes, escapes, non-ASCII and invalid bytes.
func TestReprStrReference(t *testing.T) {
	ref := func(s string) string {
		quote := '\''
		if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
			quote = '"'
		}
		var b strings.Builder
		b.WriteRune(quote)
		for _, r := range s { // an invalid byte is U+FFFD
			switch {
			case r == quote || r == '\\':
				b.WriteString(`\` + string(r))
			case r == '\n':
				b.WriteString(`\n`)
			case r == '\r':
				b.WriteString(`\r`)
			case r == '\t':
				b.WriteString(`\t`)
			case r < 0x20 || r == 0x7f || (r < 0x100 && !pyIsPrintable(r)):
				fmt.Fprintf(&b, `\x%02x`, r)
			case pyIsPrintable(r):
				b.WriteRune(r)
			case r <= 0xffff:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		}
		b.WriteRune(quote)
		return b.String()
	}
	check := func(s string) {
		t.Helper()
		require.Equal(t, ref(s), reprStr(s), "%q", s)
	}
	pieces := []string{"abc", " ", "\n", "\t", "\"", "'", "\\", "\x00", "\x1f", "\x7f", "\x80", "\u00a0",
		"é", "€", "\u200b", "😀", "\U000e0001", "\ufffd", "\xff", "\xe2\x82", "it's", "abcdefghijklmnop"}
	scan.Strings(pieces, check)
	require.True(t, utf8.ValidString(reprStr("\xff")))
}

// TestCapitalizeASCII: str.capitalize of an ASCII str gives what the rune
// by rune path gives, for every byte first, in the middle and last, and
// returns a capitalized str itself without allocating.
func TestCapitalizeASCII(t *testing.T) {
	for c := range 128 {
		for _, s := range []string{string(rune(c)), string(rune(c)) + "bC", "aB" + string(rune(c)), "Ab" + string(rune(c)) + "d"} {
			require.Equal(t, runesCapitalize(s), pyCapitalize(s), "%q", s)
		}
	}
	for _, s := range []string{"", "user", "ASSISTANT", "Tool", "hello World", "1st Place", " x"} {
		require.Equal(t, runesCapitalize(s), pyCapitalize(s), "%q", s)
	}
	for _, s := range []string{"", "User", "Assistant", "1st place", " x"} {
		require.Zero(t, testing.AllocsPerRun(10, func() { _ = pyCapitalize(s) }), "%q", s)
	}
}
