// Package textpos turns a byte offset into a line and column, the one
// helper every error position in rolemark is computed with.
package textpos

import (
	"strings"
	"unicode/utf8"
)

// LineCol returns the 1-based line and column of byte offset off in s. The
// column counts runes (a tab is one), as every rolemark error does. An
// offset past the end is the end; a negative one is the start.
func LineCol(s string, off int) (line, col int) {
	off = max(0, min(off, len(s)))
	before := s[:off]
	line = 1 + strings.Count(before, "\n")
	col = 1 + utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:])
	return line, col
}
