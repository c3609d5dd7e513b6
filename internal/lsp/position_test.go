package lsp

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPositions converts between rolemark's columns (runes, from 1), byte
// offsets and LSP's characters (UTF-16 code units, from 0) on a line with
// one-, two-, three- and four-byte characters; 😀 is two code units.
func TestPositions(t *testing.T) {
	const line = "aé✓😀b"
	tests := []struct {
		col, char, byteOff int
	}{
		{1, 0, 0},  // a
		{2, 1, 1},  // é
		{3, 2, 3},  // ✓
		{4, 3, 6},  // 😀
		{5, 5, 10}, // b
		{6, 6, 11}, // the end
	}
	for _, tc := range tests {
		assert.Equal(t, tc.char, runeColToUTF16(line, tc.col), "column %d", tc.col)
		assert.Equal(t, tc.byteOff, byteOffset(line, tc.char), "character %d", tc.char)
		assert.Equal(t, tc.char, utf16Col(line, tc.byteOff), "byte %d", tc.byteOff)
	}
	assert.Equal(t, 6, runeColToUTF16(line, 40), "a column past the end is the end")
	assert.Equal(t, 11, byteOffset(line, 40), "a character past the end is the end")
	assert.Equal(t, 6, byteOffset(line, 4), "inside the surrogate pair: the emoji's start")
	assert.Equal(t, 3, utf16Col(line, 8), "inside the emoji's bytes: its start")
}

func TestLineTextAndOffsets(t *testing.T) {
	const text = "one\r\ntwö\nthree"
	l, ok := lineText(text, 1)
	assert.True(t, ok)
	assert.Equal(t, "twö", l)
	l, ok = lineText(text, 0)
	assert.True(t, ok)
	assert.Equal(t, "one", l, "CR LF ends a line")
	_, ok = lineText(text, 3)
	assert.False(t, ok)
	assert.Equal(t, 9, offsetOf(text, position{1, 3}))
	assert.Equal(t, len(text), offsetOf(text, position{7, 0}))
	// Incremental sync: replace "wö" with "wo", then insert at the end.
	text2 := applyEdit(text, lspRange{position{1, 1}, position{1, 3}}, "wo")
	assert.Equal(t, "one\r\ntwo\nthree", text2)
	assert.Equal(t, "one\r\ntwo\nthree!", applyEdit(text2, lspRange{position{2, 5}, position{2, 5}}, "!"))
}

// TestLoneCR: LSP ends a line at LF, CRLF or a lone CR, and so do the
// engines, whose errors count a lone CR as a line break: a line after a
// lone CR is found, a position on it is its offset, and an edit there
// lands there.
func TestLoneCR(t *testing.T) {
	const text = "a\rbé\r\nc\rd"
	for n, want := range []string{"a", "bé", "c", "d"} {
		l, ok := lineText(text, n)
		assert.True(t, ok, "line %d", n)
		assert.Equal(t, want, l, "line %d", n)
	}
	_, ok := lineText(text, 4)
	assert.False(t, ok)
	assert.Equal(t, 2, offsetOf(text, position{1, 0}))
	assert.Equal(t, 9, offsetOf(text, position{3, 0}))
	assert.Equal(t, "a\rbe\r\nc\rd!", applyEdit(applyEdit(text, lspRange{position{1, 1}, position{1, 2}}, "e"), lspRange{position{3, 1}, position{3, 1}}, "!"))
	assert.Equal(t, lspRange{position{1, 2}, position{1, 3}}, rangeAt("a\rb {{x", 2, 3))
}

func TestURIs(t *testing.T) {
	const p = "/tmp/a dir/ü#1.hbs"
	u := pathToURI(p)
	assert.Equal(t, "file:///tmp/a%20dir/%C3%BC%231.hbs", u)
	assert.Equal(t, p, uriToPath(u))
	assert.Equal(t, "", uriToPath("untitled:Untitled-1"))
}
