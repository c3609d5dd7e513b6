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
	if c.counting {
		c.itemsOuter = append(c.itemsOuter, c.items)
		c.items = 0
	}
	return outer
}

// itemsLost is Ctx.items once an output's count is lost: far enough
// below 0 that no count reaches 0 again.
const itemsLost = -1 << 50

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
	c.cutOut(start)
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
	if n := len(c.itemsOuter); c.counting && n > 0 {
		c.items = c.itemsOuter[n-1]
		c.itemsOuter = c.itemsOuter[:n-1]
	}
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

// ownTrack records the spans of a render's output that the template's
// own constant text wrote (Renderer.TrackOwn): its text between tags,
// the constants it prints and the constant operands of a printed + or ~
// chain. Spans are in output order, adjacent ones merged; every place
// that cuts the output back (a capture, a chain that falls back to its
// general path) cuts them back too (Ctx.cutOut), so bytes that a later
// write puts where a recorded span was are never taken for the
// template's.
type ownTrack struct {
	spans []Span
}

// add records that the template's own text wrote n bytes at start.
func (o *ownTrack) add(start, n int) {
	if n == 0 {
		return
	}
	if k := len(o.spans) - 1; k >= 0 && o.spans[k].End >= start {
		// adjacent, or the same write recorded twice (a constant print
		// written by writeOwn)
		o.spans[k].End = max(o.spans[k].End, start+n)
		return
	}
	o.spans = append(o.spans, Span{Start: start, End: start + n})
}

// cut forgets what was recorded at end or after.
func (o *ownTrack) cut(end int) {
	k := len(o.spans)
	for k > 0 && o.spans[k-1].Start >= end {
		k--
	}
	o.spans = o.spans[:k]
	if k > 0 && o.spans[k-1].End > end {
		o.spans[k-1].End = end
	}
}

// writeOwn writes s, text of the template's own, recording its span when
// the render tracks them.
func (c *Ctx) writeOwn(s string) error {
	if c.own != nil {
		c.own.add(len(c.out)-c.outBase, len(s))
	}
	c.out = append(c.out, s...)
	return c.checkOutput()
}

// ownSince records that the template's own text wrote the output from
// start (an index of c.out) on, when the render tracks it.
func (c *Ctx) ownSince(start int) {
	if c.own != nil {
		c.own.add(start-c.outBase, len(c.out)-start)
	}
}

// setOut makes out, c.out with bytes appended to it, the output. When
// the appends did not move it (the capacity is the same) only its length
// is written: a store of the slice's pointer takes the write barrier
// while the collector marks, and a print writes its output at each
// message of a chat template's loop.
func (c *Ctx) setOut(out []byte) {
	if cap(out) == cap(c.out) {
		c.out = c.out[:len(out)]
		return
	}
	c.out = out
}

// cutOut cuts the output back to its first n bytes (an index of c.out),
// and the spans of the template's own text with it.
func (c *Ctx) cutOut(n int) {
	c.out = c.out[:n]
	if c.own != nil {
		c.own.cut(n - c.outBase)
	}
}
