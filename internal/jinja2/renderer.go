package jinja2

import (
	"context"
	"errors"
)

// A Renderer is the reusable state of one render at a time of an Env's
// templates (the frames, loop states and output buffer that Render takes
// from the Env's pool and gives back). A caller that already keeps a
// pooled object per render holds a Renderer in it and renders with
// RenderVarsWith, sparing the Env's pool at every render. A Renderer is
// not safe for concurrent use.
type Renderer struct {
	c *Ctx
}

// NewRenderer returns a Renderer for the templates of e.
func (e *Env) NewRenderer() *Renderer { return &Renderer{c: idleCtx(e)} }

// idleCtx is a render state of e between renders (no context.Context).
func idleCtx(e *Env) *Ctx { return &Ctx{env: e, autoescape: e.autoescape} }

// errRendererEnv is RenderVarsWith given a Renderer of another Env.
var errRendererEnv = errors.New("jinja2: the Renderer is of another Env")

// RenderVarsWith is RenderVars in r's memory; r must be of t's Env and
// not in use by another render.
func (t *Template) RenderVarsWith(ctx context.Context, r *Renderer, l *Layout, vals []Value) (string, error) {
	c := r.c
	if c.env != t.env {
		return "", errRendererEnv
	}
	if len(vals) != len(l.names) {
		return "", errLayoutVals
	}
	c.ctx = ctx
	err := t.runBound(c, l, vals)
	var out string
	if err == nil {
		out = string(c.out)
	}
	if !t.env.resetCtx(c) {
		r.c = idleCtx(t.env) // let a large output buffer go
	}
	return out, err
}
