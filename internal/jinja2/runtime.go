package jinja2

import (
	"context"
	"errors"
	"strconv"
	"unsafe"
)

// The state of one render: the output, the counters the limits bound,
// and the frames of the running functions.

// defaultMaxDepth bounds nested macro calls, includes and recursive loops
// when Limits.Depth is zero, where Python raises RecursionError.
const defaultMaxDepth = 1000

// frame is one running function: a template's top level, a macro, a
// block. Its slots hold the variables of its scopes; up is the frame a
// macro was defined in.
type frame struct {
	c     *Ctx
	tc    *tctx
	slots []Value
	up    *frame
	blk   *blockRun // the block being rendered, for super()
}

// tctx is a template's context (jinja2.runtime.Context): the top-level
// assignments of the template (vars), locals passed by an include or a
// scoped block, then the context it derives from; at the bottom, the
// render's variables, then the globals.
type tctx struct {
	vars   map[string]Value
	locals map[string]Value
	base   map[string]Value
	// lay and vals are the render's variables by position (RenderVars),
	// where base is nil; bind is the outermost template's binding to lay.
	lay  *Layout
	vals []Value
	bind *binding
	next *tctx
	inh  *inheritance
	// exporting: the template's top-level assignments go to vars, for
	// its blocks, includes, parent or importer to read.
	exporting bool
	// top is the frame of the template's top level (the first, for a
	// template that extends another): what an importer looks at to share
	// the module (moduleShareable); set when topSet is (a root context
	// keeps its root frame there between renders: resetRootTC).
	top    *frame
	topSet bool
	// spare, when not nil, is an unused frame, whose slots (of length 0)
	// program.run uses for the top level when they have room.
	spare *frame
	// name is the name of the template the context was made for (named
	// once set), which self's repr shows.
	name  string
	named bool
}

// inheritance is what extends and block share across derived contexts.
type inheritance struct {
	blocks map[string][]*blockCode
	parent *Template // set by extends
}

func newInheritance() *inheritance { return &inheritance{blocks: map[string][]*blockCode{}} }

// lookupCtx resolves a name the template does not assign in the
// contexts; the Env's globals come after them (Env.global).
func (tc *tctx) lookupCtx(name string) (Value, bool) {
	for t := tc; t != nil; t = t.next {
		if v, ok := t.vars[name]; ok {
			return v, true
		}
		if v, ok := t.locals[name]; ok {
			return v, true
		}
		if v, ok := t.base[name]; ok {
			return v, true
		}
		if t.lay != nil {
			if i, ok := t.lay.index[name]; ok {
				return t.vals[i], true
			}
		}
	}
	return Value{}, false
}

// global returns the Env's global called name: its own, then Jinja2's.
func (e *Env) global(name string) (Value, bool) {
	if v, ok := e.globals[name]; ok {
		return v, true
	}
	if v, ok := e.builtinGlobals[name]; ok {
		return v, true
	}
	return Value{}, false
}

func (tc *tctx) export(name string, v Value) {
	if tc.vars == nil {
		tc.vars = map[string]Value{}
	}
	tc.vars[name] = v
}

// initFree sets the free names' slots of fn from the context.
func (f *frame) initFree(fn *fnScope) {
	if tc := f.tc; tc.next == nil && tc.vars == nil && tc.locals == nil && tc.lay == nil {
		// The outermost context of a render: only its variables, one
		// map read a name (lookupCtx reads three maps a name).
		base, slots, free, els := tc.base, f.slots, fn.freeSlots, fn.freeElse
		for i, name := range fn.freeNames {
			v, ok := base[name]
			if !ok {
				v = els[i]
			}
			slots[free[i]] = v
		}
		return
	}
	for i, name := range fn.freeNames {
		v, ok := f.tc.lookupCtx(name)
		if !ok {
			v = fn.freeElse[i]
		}
		f.slots[fn.freeSlots[i]] = v
	}
}

// place gives err the place of the node that raised it, unless it has one.
// Inlined: a nil err (a print or a check of the output that passed) costs
// no call.
func place(err error, name string, p Pos) error {
	if err == nil {
		return nil
	}
	return placeErr(err, name, p)
}

// placeErr is place of an err that is not nil.
func placeErr(err error, name string, p Pos) error {
	if err == errBreak || err == errContinue {
		return err
	}
	var e *Error
	if !errors.As(err, &e) {
		return &Error{Kind: "TemplateRuntimeError", Msg: err.Error(), Name: name, Line: p.Line, Col: p.Col, Err: err}
	}
	if e.Line > 0 && e.Name != "" {
		return err
	}
	cp := *e
	if cp.Name == "" {
		cp.Name = name
	}
	if cp.Line == 0 {
		cp.Line, cp.Col = p.Line, p.Col
	}
	return &cp
}

// placeCall places err, which calling a callee returned: a TypeError
// without a place (the arguments do not fit: too few, too many, an
// unknown keyword) is about the call itself and goes at the callee's
// name, at, as the other engines place theirs; any other error (raised
// inside the callee) at the call's (, paren. Jinja2 reports only a line.
func placeCall(err error, name string, paren, at Pos) error {
	if e, ok := err.(*Error); ok && e.Kind == "TypeError" && e.Line == 0 {
		return place(err, name, at)
	}
	return place(err, name, paren)
}

// calleeAt is where a call's errors about the call itself go: the name
// it calls (a plain name, or one WithCallName declared, which the parser
// made a Const at the name, or a method's name after its dot) when that
// is on the call's line, else its (.
func calleeAt(n *CallExpr) Pos {
	var p Pos
	switch x := n.Fn.(type) {
	case *Name, *Const:
		p = x.Position()
	case *AttrExpr:
		p = x.NameP
	}
	if p.Line == n.P.Line {
		return p
	}
	return n.P
}

func limitErr(msg string) error { return &Error{Kind: "LimitError", Msg: msg} }

func (c *Ctx) checkOutput() error {
	if l := c.env.limits.Output; l > 0 && len(c.out)-c.outBase > l {
		return limitErr("the output passed the limit of " + istr(l) + " bytes")
	}
	return nil
}

func (c *Ctx) writeRaw(s string) error {
	c.out = append(c.out, s...)
	return c.checkOutput()
}

// finalize makes *v what a print writes: what the Env's finalize hook
// makes of it, where there is one. Inlined at each print.
func (c *Ctx) finalize(v *Value) {
	if fin := c.env.ext.finalize; fin != nil {
		*v = fin(*v)
	}
}

// writeValue prints v as {{ v }} does: str(v), escaped under autoescape
// unless it is Markup.
func (c *Ctx) writeValue(v Value) error {
	var s string
	switch v.kind {
	case KindStr:
		s = v.s
	case KindInt:
		if v.ref == nil {
			c.out = strconv.AppendInt(c.out, v.n, 10)
			return c.checkOutput()
		}
		fallthrough
	case KindFloat, KindList, KindTuple, KindDict:
		// str() of these is their repr: written straight into the
		// output unless it is to be escaped
		if !c.autoescape {
			var err error
			v.flags &^= flagProxy // str of a mappingproxy is its dict's
			if c.out, err = appendRepr(c, c.out, v, nil); err != nil {
				return err
			}
			return c.checkOutput()
		}
		fallthrough
	default:
		var err error
		if s, err = ToStr(c, v); err != nil {
			return err
		}
	}
	if c.autoescape && !v.IsSafe() && !hasHTML(v) {
		if err := classHTMLErr(v); err != nil {
			return err
		}
		s = c.env.escape(s)
	}
	c.out = append(c.out, s...)
	return c.checkOutput()
}

// classHTMLErr is the error of escaping the class Markup: escape finds
// its __html__, a function, and calls it without an instance.
func classHTMLErr(v Value) error {
	if k, ok := v.ref.(*pyClass); ok && v.kind == KindObject && k == classMarkup {
		return typeErr("Markup.__html__() missing 1 required positional argument: 'self'")
	}
	return nil
}

// hasHTML reports whether v is an object with Python's __html__ (an
// imported module), which escaping leaves as it prints.
func hasHTML(v Value) bool {
	_, ok := v.ref.(*moduleObj)
	return ok && v.kind == KindObject
}

// tick counts a loop iteration against the limits and looks at the
// render's context now and then. It is inlined in the loops, which run
// it at each item: what it checks is done by tickMore, at the count
// iterNext names.
func (c *Ctx) tick() error {
	c.iters++
	if c.iters < c.iterNext {
		return nil
	}
	return c.tickMore()
}

// tickMore is tick at the count iterNext names (0 at a render's start:
// its first iteration): past the limit of iterations it fails, at each
// 64th count it looks at the context, and it names the next count that
// is either.
func (c *Ctx) tickMore() error {
	l := c.env.limits.Iterations
	if l > 0 && c.iters > l {
		return limitErr("the loops passed the limit of " + istr(l) + " iterations")
	}
	c.iterNext = c.iters | 63 + 1
	if l > 0 && l < c.iterNext-1 {
		c.iterNext = l + 1
	}
	if c.iters&63 == 0 {
		return c.done()
	}
	return nil
}

func (c *Ctx) done() error {
	if c.ctx == nil {
		return nil
	}
	if err := c.ctx.Err(); err != nil {
		return &Error{Kind: "LimitError", Msg: "the render was cancelled: " + err.Error(), Err: err}
	}
	return nil
}

// enter counts a nested macro call, include or recursive loop.
func (c *Ctx) enter() error {
	c.depth++
	if l := c.env.limits.Depth; l > 0 && c.depth > l {
		c.depth--
		return limitErr("calls nest deeper than the limit of " + istr(l))
	}
	if c.depth > defaultMaxDepth {
		c.depth--
		return &Error{Kind: "RecursionError", Msg: "maximum recursion depth exceeded"}
	}
	return c.done()
}

func (c *Ctx) leave() { c.depth-- }

// getattr is x.name (GetAttr applies the sandbox's rules).
func (c *Ctx) getattr(o Value, name string) (Value, error) { return GetAttr(c, o, name) }

func newCtx(ctx context.Context, e *Env) *Ctx {
	c := &Ctx{ctx: ctx, env: e, autoescape: e.autoescape, evalAuto: e.autoescape}
	c.inh = &c.rootInh
	return c
}

// maxPooledOutput is the largest output buffer a finished render keeps
// for the next one.
const maxPooledOutput = 1 << 16

// getCtx returns a render's state, reused when one is free.
func (e *Env) getCtx(ctx context.Context) *Ctx {
	c, _ := e.renders.Get().(*Ctx)
	if c == nil {
		return newCtx(ctx, e)
	}
	c.ctx = ctx
	return c
}

// putCtx keeps c for another render, dropping what it refers to. It
// resets only what a render may have set, field by field: writing the
// whole Ctx over would write every pointer field, through the write
// barrier when the collector runs, at every render.
func (e *Env) putCtx(c *Ctx) {
	if e.resetCtx(c) {
		e.renders.Put(c)
	}
}

// resetCtx readies c for another render, as putCtx describes; false when
// its output buffer is too large to keep, and c is left as it is.
func (e *Env) resetCtx(c *Ctx) bool {
	if cap(c.out) > maxPooledOutput {
		return false
	}
	c.freshDicts = false
	if c.rootUsed {
		// field by field, as newFrame sets it; c and the root context
		// stay (the Ctx's own memory, the same at every render)
		f := &c.rootFrame
		if p := c.boundProg; p != nil {
			// the free names' slots stay (boundRootFrame)
			slots := f.slots
			for _, i := range p.locals {
				clearValue(&slots[i])
			}
		} else {
			clearValues(f.slots)
		}
		f.slots = f.slots[:0]
		if f.tc != &c.rootTC {
			f.tc = nil
		}
		if f.up != nil || f.blk != nil {
			f.up, f.blk = nil, nil
		}
		c.rootUsed = false
	}
	// the kept states, each only when used (most renders use loop
	// states alone)
	if c.loops.n > 0 {
		clear(c.loops.used())
		c.loops.n = 0
	}
	if c.filters.n > 0 {
		for i := range c.filters.used() {
			lf := &c.filters.all[i]
			saved, room := lf.saved[:0], lf.room[:0]
			clear(saved[:cap(saved)])
			clear(room[:cap(room)])
			*lf = loopFilter{saved: saved, room: room}
		}
		c.filters.n = 0
	}
	if c.includes.n > 0 {
		for i := range c.includes.used() {
			r := &c.includes.all[i]
			clear(r.f.slots)
			r.f = frame{slots: r.f.slots[:0]}
			r.tc, r.inh = tctx{}, inheritance{}
		}
		c.includes.n = 0
	}
	if c.spaces.n > 0 {
		for i := range c.spaces.used() {
			c.spaces.all[i].reset()
		}
		c.spaces.n = 0
	}
	for i := range c.stack[:c.stackHigh] {
		clear(c.stack[i].slots)
		c.stack[i].f = frame{}
	}
	c.stackTop, c.stackHigh = 0, 0
	c.resetRootTC()
	if c.rootInh.blocks != nil || c.rootInh.parent != nil {
		c.rootInh = inheritance{}
	}
	if !c.keepsBound {
		c.ctx = nil // a Renderer's stays until its next render
	}
	if c.gen != nil || c.own != nil || c.joinErr != nil {
		c.gen, c.own, c.joinErr = nil, nil, nil
	}
	if len(c.deferred) > 0 {
		c.deferred = c.deferred[:0] // a render that failed inside a set block
	}
	c.items, c.itemsOuter, c.counting = 0, c.itemsOuter[:0], false
	c.out, c.outBase, c.scratch = c.out[:0], 0, c.scratch[:0]
	c.resetArena()
	c.autoescape, c.escVolatile, c.evalAuto, c.depth, c.iters, c.iterNext = e.autoescape, false, e.autoescape, 0, 0, 0
	if c.inh != &c.rootInh {
		c.inh = &c.rootInh
	}
	if len(c.suspended) > 0 {
		clear(c.suspended)
		c.suspended = c.suspended[:0]
	}
	return true
}

// clearValues zeroes vs a field at a time, writing only the pointer
// words that are set: clear(vs) is a bulk write barrier over every
// pointer word of vs while the collector marks.
func clearValues(vs []Value) {
	for i := range vs {
		clearValue(&vs[i])
	}
}

// clearValue is clearValues of one Value.
func clearValue(v *Value) {
	v.kind, v.flags, v.n = 0, 0, 0
	if unsafe.StringData(v.s) != nil {
		v.s = ""
	}
	if w := (*[2]unsafe.Pointer)(unsafe.Pointer(&v.ref)); w[0] != nil || w[1] != nil {
		v.ref = nil
	}
}

// resetRootTC zeroes c.rootTC, as the render's entry expects it, field
// by field and only those set: a tctx written whole is cleared with a
// bulk write barrier while the collector runs.
func (c *Ctx) resetRootTC() {
	tc := &c.rootTC
	if !c.keepsBound {
		tc.lay, tc.vals, tc.bind, tc.inh = nil, nil, nil, nil
	}
	// top and name stay when they are the Ctx's own root frame and a
	// template's name (topSet and named tell whether they are set), so
	// that the next render writes neither
	if tc.top != nil && tc.top != &c.rootFrame {
		tc.top = nil
	}
	if tc.spare != nil {
		tc.spare = nil
	}
	if tc.vars != nil || tc.locals != nil || tc.base != nil || tc.next != nil {
		tc.vars, tc.locals, tc.base, tc.next = nil, nil, nil, nil
	}
	tc.exporting, tc.named, tc.topSet = false, false, false
}

// stackFrame is a frame and its slots on the render's stack.
type stackFrame struct {
	f     frame
	slots []Value
}

// pushFrame returns a frame of n slots, all Undefined, for a call whose
// frame nothing keeps after it returns; release gives it back.
func (c *Ctx) pushFrame(up *frame, n int) *frame {
	if c.stackTop == len(c.stack) {
		// Frames in use stay where they are: a new array.
		c.stack = make([]stackFrame, max(8, 2*len(c.stack)))
		c.stackTop = 0
	}
	sf := &c.stack[c.stackTop]
	c.stackTop++
	c.stackHigh = max(c.stackHigh, c.stackTop)
	if cap(sf.slots) < n {
		sf.slots = make([]Value, n)
	}
	slots := sf.slots[:n]
	clear(slots)
	sf.f = frame{c: c, tc: up.tc, up: up, slots: slots}
	return &sf.f
}

// release pops the frames pushed since mark.
func (c *Ctx) release(mark int) {
	if c.stackTop >= mark {
		c.stackTop = mark
	}
}

// kept is an array of what a render hands out one at a time and keeps
// until it ends (loop states, includes' contexts, namespaces): resetCtx
// clears the ones used and starts again at the first, so that a Ctx
// reuses the array from render to render.
type kept[T any] struct {
	all []T
	n   int // all[:n] are in use
}

// next returns the next unused element. When all are in use it makes a
// new array, of at least least elements and twice as many as the last:
// the elements in use stay where they are.
func (k *kept[T]) next(least int) *T {
	if k.n == len(k.all) {
		k.all = make([]T, max(least, 2*len(k.all)))
		k.n = 0
	}
	p := &k.all[k.n]
	k.n++
	return p
}

// used returns the elements of the current array in use.
func (k *kept[T]) used() []T { return k.all[:k.n] }

// newLoop returns a loop variable's state for this render.
func (c *Ctx) newLoop() *loopObj { return c.loops.next(4) }

// pushArgs returns room for n arguments on the Ctx's stack of them, for
// a call whose callee keeps none (a builtin test a loop's select runs
// per item): the caller evaluates into it and pops it when done, so
// nested loops take the room above. A larger stack is a new array: the
// rooms taken before keep the old one.
func (c *Ctx) pushArgs(n int) []Value {
	base := len(c.argStack)
	if cap(c.argStack)-base < n {
		grown := make([]Value, base, max(8, 2*(base+n)))
		copy(grown, c.argStack)
		c.argStack = grown
	}
	c.argStack = c.argStack[:base+n]
	return c.argStack[base : base : base+n]
}

// popArgs drops the n arguments pushArgs made room for last.
func (c *Ctx) popArgs(n int) {
	top := len(c.argStack)
	clear(c.argStack[top-n : top])
	c.argStack = c.argStack[:top-n]
}

// newLoopFilter returns the filter state of a loop with a filter, which
// lives until the render ends, as newLoop's loop states do: resetCtx
// clears it, keeping the room of its saved slots.
func (c *Ctx) newLoopFilter() *loopFilter { return c.filters.next(2) }

// includeRun is what an include runs its template in: a context with an
// inheritance of its own, and the frame of its top level.
type includeRun struct {
	tc  tctx
	inh inheritance
	f   frame
}

// newInclude returns a fresh context for an include, whose parts live
// until the render ends, as loop variables do (newLoop): Ctx keeps them
// from render to render, so that an include allocates nothing (it made
// five objects, and the bytes of them pace the collector). Nothing an
// include makes outlives the render: only an import's module is kept on
// its Template (Template.module), and an include exports nothing.
func (c *Ctx) newInclude() *tctx {
	r := c.includes.next(2)
	r.tc.inh, r.tc.spare = &r.inh, &r.f
	return &r.tc
}

// newSpace returns a namespace() object for this render, empty, living
// until the render ends as loop variables do (newLoop): its item arrays
// are kept from render to render, so that a namespace set attribute by
// attribute allocates nothing once its Ctx has seen one as large.
// Nothing keeps a namespace past its render: a module that holds one is
// never shared (moduleShareable).
func (c *Ctx) newSpace() *namespace {
	ns := c.spaces.next(2)
	ns.d = &ns.own
	return ns
}

// newFrame returns a frame for a template's top level: the render's own
// for the outermost one.
func (c *Ctx) newFrame(tc *tctx, n int) *frame {
	if !c.rootUsed && c.boundProg != nil {
		// the root frame for another use than boundRootFrame's: the
		// values the last render's free names left go
		c.dropBound()
	}
	if !c.rootUsed {
		// field by field: a frame written whole is copied with a bulk
		// write barrier while the collector runs; up and blk are nil
		// between renders (resetCtx)
		c.rootUsed = true
		f := &c.rootFrame
		if cap(f.slots) < n {
			f.slots = make([]Value, n)
		}
		// c and tc are written only when they change (a pointer store
		// takes the write barrier while the collector marks)
		if f.c != c {
			f.c = c
		}
		if f.tc != tc {
			f.tc = tc
		}
		f.slots = f.slots[:n]
		return f
	}
	return &frame{c: c, tc: tc, slots: make([]Value, n)}
}

// boundRootFrame is newFrame for the top level of p in a Renderer's
// root context bound to its Layout (program.run). The free names' slots
// of the root frame are not cleared between such renders (resetCtx
// clears p.locals), so that runTop's putBound writes no word a slot
// holds already: the same conversation's list, tools and tokens at
// every render of a chat template, each value's pointer words stored
// through the write barrier while the collector marks, then cleared,
// when written whole. Another program's slots are cleared first.
func (c *Ctx) boundRootFrame(p *program) *frame {
	if c.boundProg != p {
		if c.boundProg != nil {
			c.dropBound()
		}
		c.boundProg = p
	}
	// newFrame's root frame, written as it writes it
	c.rootUsed = true
	f, n := &c.rootFrame, p.fn.nslots
	if cap(f.slots) < n {
		f.slots = make([]Value, n)
	}
	if f.c != c {
		f.c = c
	}
	if f.tc != &c.rootTC {
		f.tc = &c.rootTC
	}
	f.slots = f.slots[:n]
	return f
}

// dropBound clears the root frame's slots that boundRootFrame left
// set, and forgets its program.
func (c *Ctx) dropBound() {
	f := &c.rootFrame
	clearValues(f.slots[:cap(f.slots)])
	c.boundProg = nil
}
