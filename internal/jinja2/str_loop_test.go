package jinja2

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// A loop over a str sees the characters Iterate gives (a surrogate's
// three bytes as one, a byte that is not UTF-8 as U+FFFD), whether it
// steps through them in place (runStr: no loop, no filter) or over their
// list (with loop); and Iterate gives what it gave before strItemAt, a
// character at a time of Go's range over the str.
func TestStrLoopCharacters(t *testing.T) {
	rangeItems := func(s string) []string {
		var out []string
		for i, r := range s {
			switch {
			case r < utf8.RuneSelf:
				out = append(out, s[i:i+1])
			case r == utf8.RuneError && isSurrogateAt(s, i):
				out = append(out, s[i:i+3])
			case r == utf8.RuneError && i > 0 && (isSurrogateAt(s, i-1) || i > 1 && isSurrogateAt(s, i-2)):
			default:
				out = append(out, string(r))
			}
		}
		return out
	}
	strs := []string{"", "a", "aé中😀z\uFFFD!", "\xed\xa0\x80", "x\xed\xa0\x80\xed\xbf\xbfy", "\xff\xfe", "a\xed\xa0", "\xed\xa0\x80\xff", "\xe4\xb8", "\xef\xbf\xbd\xed\xa0\x80"}
	inPlace, err := New().Parse("t", "{% for c in s %}{{ c }}\x00{% endfor %}")
	require.NoError(t, err)
	listed, err := New().Parse("t", "{% for c in s %}{{ c }}\x00{{ loop.length * 0 }}{% endfor %}")
	require.NoError(t, err)
	for _, s := range strs {
		want := rangeItems(s)
		items, err := Iterate(nil, StrV(s))
		require.NoError(t, err)
		var got []string
		for _, it := range items {
			got = append(got, it.s)
		}
		require.Equal(t, want, got, "%q", s)
		joined := ""
		for _, w := range want {
			joined += w + "\x00"
		}
		out, err := inPlace.Render(context.Background(), map[string]Value{"s": StrV(s)})
		require.NoError(t, err)
		require.Equal(t, joined, out, "%q", s)
		out, err = listed.Render(context.Background(), map[string]Value{"s": StrV(s)})
		require.NoError(t, err)
		require.Equal(t, joined, strings.ReplaceAll(out, "\x000", "\x00"), "%q", s)
	}
}
