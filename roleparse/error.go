package roleparse

import (
	"fmt"
	"unicode/utf8"

	"github.com/rolemark/rolemark/internal/textpos"
)

// Error is a problem in markup. Line and Col are 1-based; Col counts runes.
type Error struct {
	Line int
	Col  int
	// Offset is the byte offset of the problem in the input.
	Offset int
	// Msg says what was found and what was expected.
	Msg string
}

func (e *Error) Error() string {
	return fmt.Sprintf("line %d, col %d: %s", e.Line, e.Col, e.Msg)
}

func (p *parser) errAt(off int, format string, args ...any) *Error {
	line, col := textpos.LineCol(p.src, off)
	return &Error{Line: line, Col: col, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) at(off int) string {
	line, col := textpos.LineCol(p.src, off)
	return fmt.Sprintf("line %d, col %d", line, col)
}

func quoteSnippet(s string) string {
	if len(s) > 40 {
		cut := 40
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return fmt.Sprintf("%q", s)
}
