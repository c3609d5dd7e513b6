package jinja2

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPyStripSpace holds pyStripSpace, the byte-at-a-time str.strip(), to
// trimming by pyIsSpace a rune at a time, at ASCII, Unicode and invalid
// UTF-8 ends.
func TestPyStripSpace(t *testing.T) {
	for _, s := range []string{
		"", " ", "a", " a ", "\t\n\v\f\r\x1c\x1d\x1e\x1f a b \x1f\r",
		"\u0085\u00a0a\u3000\u2028", "\u200b a \u200b", " \xff ", "\xe3\x80", " é ", "😀 ",
		"\u2029", "  \u00a0  ", "a\x00", "\x00a ",
	} {
		assert.Equal(t, strings.TrimFunc(s, pyIsSpace), pyStripSpace(s), "%q", s)
		assert.Equal(t, strings.TrimFunc(s, pyIsSpace), pyStrip(s, nil, true, true), "%q", s)
	}
}
