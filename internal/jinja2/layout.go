package jinja2

import (
	"context"
	"errors"
)

// Variables passed by position. A caller that renders with the same
// variable names every time (a chat template's messages, tools,
// add_generation_prompt and special tokens) names them once in a Layout
// and passes each render's values in a slice: the template binds the names
// it reads to positions of the Layout once, instead of looking each one up
// in a map at every render.

// Layout is an ordered list of variable names whose values a render takes
// by position (Template.RenderVars). It is immutable and safe for
// concurrent use; make one and use it for many renders.
type Layout struct {
	names []string
	index map[string]int
}

// NewLayout returns the Layout of names, in order. A name given twice
// takes its first position.
func NewLayout(names ...string) *Layout {
	l := &Layout{names: append([]string(nil), names...), index: make(map[string]int, len(names))}
	for i, n := range l.names {
		if _, dup := l.index[n]; !dup {
			l.index[n] = i
		}
	}
	return l
}

// Names returns the Layout's names, in order.
func (l *Layout) Names() []string { return append([]string(nil), l.names...) }

// Index returns the position of name, and false when the Layout lacks it.
func (l *Layout) Index(name string) (int, bool) {
	i, ok := l.index[name]
	return i, ok
}

// Len is the number of the Layout's names.
func (l *Layout) Len() int { return len(l.names) }

// binding is where each free name a template's top level reads is in a
// Layout: idx[i] is the position of prog.fn.freeNames[i], or -1.
type binding struct {
	lay  *Layout
	prog *program
	idx  []int
}

// bindingFor returns t's binding to l, made once for the last Layout t
// was rendered with.
func (t *Template) bindingFor(l *Layout) *binding {
	if b := t.bound.Load(); b != nil && b.lay == l {
		return b
	}
	fn := t.prog.fn
	b := &binding{lay: l, prog: t.prog, idx: make([]int, len(fn.freeNames))}
	for i, name := range fn.freeNames {
		j, ok := l.index[name]
		if !ok {
			j = -1
		}
		b.idx[i] = j
	}
	t.bound.Store(b)
	return b
}

// initBound sets the free names' slots of fn, a template's top level,
// from the values of b's Layout: what initFree finds in the render's
// context when nothing else in it is set.
func (f *frame) initBound(fn *fnScope, b *binding, vals []Value) {
	// each value copied once, from where it lies into its slot, not
	// through a local
	slots, free := f.slots, fn.freeSlots[:len(b.idx)]
	for i, j := range b.idx {
		if dst := &slots[free[i]]; j >= 0 {
			*dst = vals[j]
		} else {
			*dst = fn.freeElse[i]
		}
	}
}

// putBound is initBound for a frame whose free names' slots hold what
// an earlier render stored (Ctx.boundRootFrame): a pointer word that
// holds what it would be given is not written (Value.put).
func (f *frame) putBound(fn *fnScope, b *binding, vals []Value) {
	slots, free := f.slots, fn.freeSlots[:len(b.idx)]
	for i, j := range b.idx {
		if dst := &slots[free[i]]; j >= 0 {
			dst.put(&vals[j])
		} else {
			dst.put(&fn.freeElse[i])
		}
	}
}

// errLayoutVals is RenderVars given values that do not match the Layout.
var errLayoutVals = errors.New("jinja2: the values do not match the layout")

// RenderVars renders t as Render does, with vals[i] as the variable
// l.Names()[i]; vals must have l.Len() values. Rendering with the same
// Layout again and again spares the lookups by name of the variables the
// template reads.
func (t *Template) RenderVars(ctx context.Context, l *Layout, vals []Value) (string, error) {
	if len(vals) != len(l.names) {
		return "", errLayoutVals
	}
	c := t.env.getCtx(ctx)
	err := t.runBound(c, l, vals)
	var out string
	if err == nil {
		out = string(c.out)
	}
	t.env.putCtx(c)
	return out, err
}

// AppendRenderVars is AppendRender with the variables of RenderVars.
func (t *Template) AppendRenderVars(ctx context.Context, dst []byte, l *Layout, vals []Value) ([]byte, error) {
	if len(vals) != len(l.names) {
		return dst, errLayoutVals
	}
	c, pooled := t.appendStart(ctx, dst)
	return t.appendEnd(c, pooled, dst, t.runBound(c, l, vals))
}

// runBound is run with variables by position.
func (t *Template) runBound(c *Ctx, l *Layout, vals []Value) error {
	// the root context is zero between renders (resetCtx): its fields
	// are set one by one, rather than a whole tctx copied over it
	tc := &c.rootTC
	b := t.bindingFor(l)
	if !c.keepsBound {
		tc.lay, tc.vals, tc.bind, tc.inh = l, vals, b, &c.rootInh
		return t.runRoot(c)
	}
	// a Renderer's context keeps these four from render to render
	// (resetRootTC): each is written only when it changes, sparing the
	// write barrier its stores take while the collector marks
	if tc.lay != l {
		tc.lay = l
	}
	if len(tc.vals) != len(vals) || len(vals) > 0 && &tc.vals[0] != &vals[0] {
		tc.vals = vals
	}
	if tc.bind != b {
		tc.bind = b
	}
	if tc.inh != &c.rootInh {
		tc.inh = &c.rootInh
	}
	return t.runRoot(c)
}
