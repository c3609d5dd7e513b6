package jinja2

import "strings"

// A render varies when it reads something that may differ from render
// to render of the same template with the same variables: a random
// number (the random filter, lipsum), an object's address (addr, in the
// repr of a function, a method, a cycler, …, or the id pprint writes of
// a recursive container), and what a caller's function reports with
// Ctx.Varies (a clock). Every other value a render reads is a
// variable's or the template's, so two renders of one template with the
// same variables that read none of these run the same way: the same
// output, the same spans of the template's own text. The render's Ctx
// records it (Ctx.varied, cleared as a Renderer's render starts); a
// Renderer reports it after each render (Renderer.Varied). Nothing outside the render is
// written: renders in other goroutines neither see nor move it.

// Varies records that the render of c read something that may differ at
// the next render with the same variables: a global or filter of the
// caller's that reads a clock calls it with the Ctx it is given.
func (c *Ctx) Varies() {
	if c != nil {
		c.varied = true
	}
}

// addrMark is what precedes every address a repr writes (" at " +
// addr(…)); pprint's id of a recursive container is marked by idMark.
const (
	addrMark = " at 0x7f"
	idMark   = " with id="
)

// variesIfAddr records that the render of c varies when s, a repr made
// where no Ctx was at hand (a Reprer's, a Func's Repr), holds an object's
// address. Text of the data holding the same characters only makes the
// render look varying.
func (c *Ctx) variesIfAddr(s string) {
	if c != nil && !c.varied && strings.Contains(s, addrMark) {
		c.varied = true
	}
}

// Varied reports whether the last render with r read something that may
// differ at another render with the same variables (Ctx.Varies): when it
// did not, another render of the same template with the same variables
// writes the same output, with the same spans of the template's own text
// (OwnSpans). False before r's first render.
func (r *Renderer) Varied() bool { return r.c.varied }
