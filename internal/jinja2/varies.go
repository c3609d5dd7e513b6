package jinja2

import "sync/atomic"

// varies counts the reads of anything that may differ from render to
// render of the same template with the same variables: a random number
// (the random filter, lipsum), an object's address (addr, in the repr
// of a function, a method, a cycler, …), and what a caller's function
// reports with Varies (a clock). Every other value a render reads is a
// variable's or the template's, so two renders of one template with the
// same variables that read none of these run the same way: the same
// output, the same spans of the template's own text.
var varies atomic.Uint64

// Varies records that a render read something that may differ at the
// next render with the same variables (a global or filter of the
// caller's that reads a clock calls it).
func Varies() { varies.Add(1) }

// VaryCount is how many times renders of any template have read
// something that may differ from render to render (Varies). A caller
// that reads it before and after a render and finds the same count
// knows the render read none (a render elsewhere moving it in between
// only makes it think one did): another render of the same template
// with the same variables writes the same output, with the same spans
// of the template's own text (Renderer.OwnSpans).
func VaryCount() uint64 { return varies.Load() }
