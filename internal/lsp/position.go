package lsp

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/rolemark/rolemark/internal/textpos"
)

// position is an LSP position: a 0-based line and a 0-based character
// offset in UTF-16 code units, as LSP counts by default.
type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

// lineText returns line n (0-based) of text without its line ending, and
// whether the text has that line. Lines end with LF, CRLF or a lone CR, as
// LSP says (and as the engines count lines in their errors).
func lineText(text string, n int) (string, bool) {
	for i := 0; i < n; i++ {
		_, next, ok := textpos.LineBreak(text)
		if !ok {
			return "", false
		}
		text = text[next:]
	}
	end, _, _ := textpos.LineBreak(text)
	return text[:end], true
}

// utf16Len is the number of UTF-16 code units of s.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// runeColToUTF16 converts a 1-based column in runes (as rolemark's errors
// give it) on line to a 0-based LSP character offset. A column past the
// end of the line is its end.
func runeColToUTF16(line string, col int) int {
	n := 0
	for _, r := range line {
		if col <= 1 {
			break
		}
		col--
		n += utf16.RuneLen(r)
	}
	return n
}

// byteOffset converts an LSP character offset on line to a byte offset in
// line. An offset inside a surrogate pair is the character's start; one
// past the end is the end.
func byteOffset(line string, char int) int {
	n := 0
	for i, r := range line {
		w := utf16.RuneLen(r)
		if n+w > char {
			return i
		}
		n += w
	}
	return len(line)
}

// utf16Col converts a byte offset in line to an LSP character offset.
func utf16Col(line string, off int) int {
	off = max(0, min(off, len(line)))
	for off > 0 && off < len(line) && !utf8.RuneStart(line[off]) {
		off--
	}
	return utf16Len(line[:off])
}
