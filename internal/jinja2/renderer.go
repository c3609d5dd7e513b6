package jinja2

import (
	"context"
	"errors"
	"unsafe"
)

// A Renderer is the reusable state of one render at a time of an Env's
// templates (the frames, loop states and output buffer that Render takes
// from the Env's pool and gives back). A caller that already keeps a
// pooled object per render holds a Renderer in it and renders with
// RenderVarsWith, sparing the Env's pool at every render. A Renderer is
// not safe for concurrent use.
type Renderer struct {
	c     *Ctx
	own   *ownTrack // TrackOwn's record, kept from render to render
	track bool      // TrackOwn(true)
}

// NewRenderer returns a Renderer for the templates of e.
func (e *Env) NewRenderer() *Renderer { return &Renderer{c: idleCtx(e)} }

// idleCtx is a render state of e before its first render.
func idleCtx(e *Env) *Ctx {
	c := &Ctx{env: e, autoescape: e.autoescape, evalAuto: e.autoescape, keepsBound: true}
	c.inh = &c.rootInh
	return c
}

// errRendererEnv is RenderVarsWith given a Renderer of another Env.
var errRendererEnv = errors.New("jinja2: the Renderer is of another Env")

// RenderVarsWith is RenderVars in r's memory; r must be of t's Env and
// not in use by another render. r keeps ctx, l and vals (the slice,
// which the caller keeps as well) until its next render.
func (t *Template) RenderVarsWith(ctx context.Context, r *Renderer, l *Layout, vals []Value) (string, error) {
	c := r.c
	if c.env != t.env || len(vals) != len(l.names) {
		return "", misfit(c, t)
	}
	r.start(c, ctx)
	err := t.runBound(c, l, vals)
	var out string
	if err == nil {
		out = string(c.out)
	}
	if !t.env.resetCtx(c) {
		r.c = idleCtx(t.env) // let a large output buffer go
		r.c.varied = c.varied
	}
	return out, err
}

// misfit is the error of a render of t in c whose Env is another or
// whose values do not fill the layout.
func misfit(c *Ctx, t *Template) error {
	if c.env != t.env {
		return errRendererEnv
	}
	return errLayoutVals
}

// start readies r's context c for a render with ctx.
func (r *Renderer) start(c *Ctx, ctx context.Context) {
	// the context stays from the last render (resetCtx): written when
	// it changes, its two words compared as they are (== on an interface
	// compares the values, and panics on an uncomparable one)
	if a, b := (*[2]unsafe.Pointer)(unsafe.Pointer(&c.ctx)), (*[2]unsafe.Pointer)(unsafe.Pointer(&ctx)); a[0] != b[0] || a[1] != b[1] {
		c.ctx = ctx
	}
	if r.track {
		r.own.spans = r.own.spans[:0]
		c.own = r.own
	}
	c.varied = false
}

// AppendRenderVarsWith is RenderVarsWith appending the output to dst and
// returning the extended slice, as AppendRenderVars does: on an error it
// returns dst as it was, and either way the spare capacity past what it
// returns may have been written (AppendRender). The output goes straight
// into dst; r's own buffer is not used.
func (t *Template) AppendRenderVarsWith(ctx context.Context, r *Renderer, dst []byte, l *Layout, vals []Value) ([]byte, error) {
	c := r.c
	if c.env != t.env || len(vals) != len(l.names) {
		return dst, misfit(c, t)
	}
	r.start(c, ctx)
	own := c.out
	c.out, c.outBase = dst, len(dst)
	err := t.runBound(c, l, vals)
	out := c.out
	c.out = own
	if !t.env.resetCtx(c) {
		r.c = idleCtx(t.env)
		r.c.varied = c.varied
	}
	if err != nil {
		return dst, err
	}
	return out, nil
}

// TrackOwn makes the renders of r record (on) or not record where the
// template's own text wrote (OwnSpans); either way it forgets what an
// earlier render recorded.
func (r *Renderer) TrackOwn(on bool) {
	if on && r.own == nil {
		r.own = &ownTrack{}
	}
	if r.own != nil {
		r.own.spans = r.own.spans[:0]
	}
	r.track = on
}

// OwnSpans returns, after a render with r that TrackOwn asked to track,
// the spans of its output that the template's own constant text wrote and
// nothing cut back: the text between its tags, the constants it prints,
// the constant operands of a printed + or ~ chain (each in the simple
// paths of the compiled program; other constant writes are not
// recorded). They are in order, adjacent ones merged. A byte outside them
// may still be the template's; a byte inside is never copied from the
// render's variables. Nil when r does not track them; empty when no
// render with r has run since TrackOwn. The slice is r's, valid until
// its next render or TrackOwn.
func (r *Renderer) OwnSpans() []Span {
	if !r.track {
		return nil
	}
	return r.own.spans
}
