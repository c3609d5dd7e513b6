package roleparse

import "fmt"

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
