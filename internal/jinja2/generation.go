package jinja2

import "context"

// Span is a stretch of a render's output, in bytes: [Start, End).
type Span struct {
	Start, End int
}

// genTrack records where {% generation %} blocks wrote, for
// RenderGeneration. Python's Jinja2 yields the output of the top level
// (loops, conditions, includes, blocks) as it goes, and buffers the output
// of a macro, a call block, a filter block, a set block and a recursive
// loop; transformers' AssistantTracker takes a generation block's start to
// be the length of what was yielded when the block returns. Inside a
// buffered construct that is where the outermost one began. depth counts
// the captures open around the current point and base is where the
// outermost began.
type genTrack struct {
	spans       []Span
	depth, base int
}

// captureEnter notes that output from start on is being captured (a
// macro's, a filter block's, …), and returns the join error pending
// outside the capture (Ctx.joinErr), which it sets aside.
func (c *Ctx) captureEnter(start int) (outer error) {
	if g := c.gen; g != nil {
		if g.depth == 0 {
			g.base = start
		}
		g.depth++
	}
	outer, c.joinErr = c.joinErr, nil
	return outer
}

// captured ends a capture that captureEnter(start) began, err being what
// the captured rendering returned, and returns its output, taken off the
// buffer: Markup under autoescape, a str otherwise (Jinja2's concat of a
// buffer).
func (c *Ctx) captured(start int, outer, err error) (Value, error) {
	return c.capturedAs(start, outer, err, c.autoescape)
}

// capturedAs is captured giving Markup when safe.
func (c *Ctx) capturedAs(start int, outer, err error, safe bool) (Value, error) {
	err = c.captureLeave(outer, err)
	out := string(c.out[start:])
	c.out = c.out[:start]
	if err != nil {
		return Value{}, err
	}
	if safe {
		return SafeV(out), nil
	}
	return StrV(out), nil
}

// captureLeave notes that the capture ended: Python joins its output
// then, so it returns err, the capture's own error, or else the join error
// of a filter block inside it; the outer join error is pending again.
func (c *Ctx) captureLeave(outer, err error) error {
	if g := c.gen; g != nil {
		g.depth--
	}
	pending := c.joinErr
	c.joinErr = outer
	if err != nil {
		return err
	}
	return pending
}

// writeGeneration writes v, the output of a generation block's body, and
// records its span when the render tracks them.
func (c *Ctx) writeGeneration(v Value) error {
	g := c.gen
	if g == nil {
		return c.writeValue(v)
	}
	before := len(c.out)
	if err := c.writeValue(v); err != nil {
		return err
	}
	start := before
	if g.depth > 0 {
		start = g.base
	}
	start -= c.outBase
	g.spans = append(g.spans, Span{Start: start, End: start + len(c.out) - before})
	return nil
}

// RenderGeneration renders t as Render does and returns the spans of the
// output each {% generation %} block wrote (the Env needs GenerationTag),
// in the order the blocks finished, as transformers' AssistantTracker
// records them, in bytes where it counts characters: a span starts where
// the output the top level had written ended when the block returned, so a
// block inside a macro, a call block, a filter or set block or a recursive
// loop starts where the outermost of those began (its span need not lie
// within the output), and a block inside another ends before it is
// recorded. AssistantTracker records nothing until some output was
// yielded or a span recorded; RenderGeneration records every block and
// leaves that rule to its caller.
func (t *Template) RenderGeneration(ctx context.Context, vars map[string]Value) (string, []Span, error) {
	c := t.env.getCtx(ctx)
	defer t.env.putCtx(c)
	g := &genTrack{}
	c.gen = g
	err := t.run(c, vars)
	c.gen = nil
	if err != nil {
		return "", nil, err
	}
	return string(c.out), g.spans, nil
}
