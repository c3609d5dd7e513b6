package gotmpl

import "github.com/rolemark/rolemark/engine/driver"

// NewUnexpanded returns an engine that expands no markup function call at
// compile time, so that tests run every template through the function
// path as well as through the expanded one.
func NewUnexpanded(opts ...Option) *Engine {
	e := New(opts...)
	e.noExpand = true
	return e
}

// NewGeneral returns the engine with the fast path off: every template
// renders through markup and roleparse.
func NewGeneral(opts ...Option) *Engine {
	e := New(opts...)
	e.noFast = true
	return e
}

// Fast reports whether a compiled template has a skeleton, which renders
// it without text/template when its values are strings.
func Fast(c driver.Compiled) bool { return c.(*compiled).prog != nil }

// PlaceParseError is placeParseError.
func PlaceParseError(msg string, line int, src string, parse func(string) error) (l, col int, newMsg string, ok bool) {
	return placeParseError(msg, line, src, parse)
}
