package jinja2

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
)

// Templates as a whole: the top level, blocks and inheritance, include,
// import and from-import.

// program is a compiled template.
type program struct {
	// shares: the template has a block, include, import with context or
	// extends, which read its top-level assignments from its context.
	shares bool
	fn     *fnScope
	init   func(f *frame) error
	body   execFn
	blocks map[string]*blockCode
	// name is the template's name, which self's repr shows
	name string
	// frozenDicts: nothing in the template can change a dict literal
	// (dictsFrozen); a render with it as its root shares them.
	frozenDicts bool
	// locals are the slots of fn that are not free names' (a Renderer's
	// root frame keeps the others from render to render: Ctx.boundProg)
	locals []int
	// countItems: the template's output counts its items (compiler's)
	countItems bool
}

// blockCode is a compiled {% block %}.
type blockCode struct {
	name   string
	fn     *fnScope
	init   func(f *frame) error
	body   execFn
	scoped bool
	// counted: the block's output counts its items (countItems)
	counted bool
}

// blockRun is a block being rendered: which one of its chain.
type blockRun struct {
	name string
	idx  int
}

func hasExtends(body []Stmt) bool {
	return anyNode(func(n Node) bool {
		_, ok := n.(*Extends)
		return ok
	}, func(n Node) bool {
		switch n.(type) {
		case *If, *For, *Block, *With, *AutoescapeBlock:
			return true
		}
		return false
	}, body)
}

// sharesContext reports whether the statements hold a block, include,
// import with context or extends anywhere. An import without context
// reads only the Env's globals.
func sharesContext(body []Stmt) bool {
	return anyNode(func(n Node) bool {
		switch n := n.(type) {
		case *Block, *Include, *Extends:
			return true
		case *Import:
			return n.WithContext
		case *FromImport:
			return n.WithContext
		}
		return false
	}, nil, body)
}

// compileProgram compiles a parsed template.
func compileProgram(env *Env, src *source, tree *Tree) (*program, error) {
	fs := &fnScope{qual: "root", selfDecl: undeclared(tree.Body, "self")["self"]}
	top := &scope{fn: fs, vars: map[string]int{}, top: true, syms: symsBody(tree.Body)}
	for _, n := range assigned(tree.Body) {
		top.declare(n)
	}
	c := &compiler{env: env, src: src, sc: top, blocks: map[string]*blockCode{}, hasExtends: hasExtends(tree.Body), frozenDicts: dictsFrozen(tree.Body), escOn: env.autoescape,
		arena: arenaNames(env, tree.Body)}
	// a template that extends another writes its output only before the
	// extends tag: not counted
	c.countItems = !c.hasExtends && canFailJoin(tree.Body)
	c.rootBody = tree.Body
	body, err := c.compileStmts(tree.Body)
	if tree.dupParams && (err == nil || isPyCompileErr(err)) {
		// Python's compiler reads the symbols (duplicate arguments)
		// before it compiles the code ('break' outside loop)
		if dup := c.duplicateParam(tree.Body); dup != nil {
			return nil, dup
		}
	}
	if err == nil {
		// then Python's compiler compiles the code: a keyword repeated
		if rep := c.repeatedKwargErr(tree.Body); rep != nil {
			return nil, rep
		}
	}
	if err != nil {
		return nil, err
	}
	return &program{frozenDicts: c.frozenDicts, shares: sharesContext(tree.Body), fn: fs, init: c.scopeInit(top, nil), body: body, blocks: c.blocks, name: src.name, locals: localSlots(fs),
		countItems: c.countItems}, nil
}

// localSlots returns the slots of fn that are not its free names'.
func localSlots(fn *fnScope) []int {
	free := make([]bool, fn.nslots)
	for _, i := range fn.freeSlots {
		free[i] = true
	}
	var locals []int
	for i, f := range free {
		if !f {
			locals = append(locals, i)
		}
	}
	return locals
}

// isPyCompileErr reports whether err is one Jinja2 leaves to Python's
// compiler of the code it generated, which runs after Jinja2's own checks.
func isPyCompileErr(err error) bool {
	e, ok := err.(*Error)
	return ok && e.Kind == "TemplateSyntaxError" && (e.Msg == "'break' outside loop" || e.Msg == "'continue' not properly in loop")
}

// duplicateParam is the SyntaxError Python's compiler raises for the
// first macro or call block (in the generated module's order: the top
// level, then each block's body in the order the blocks start) that
// names a parameter twice: "duplicate argument 'l_1_a' in function
// definition", where 1 is the depth of the macro's frame in Jinja2's
// code generator (the top level and a block's body are 0; a macro, call
// block, for loop, with, filter block, set block and autoescape tag each
// open one; an if does not). The message leaves out Python's
// "(<template>, line N)", a line of the generated code.
func (c *compiler) duplicateParam(body []Stmt) error {
	var blocks []*Block
	var dup error
	var visit func(ss []Stmt, depth int)
	check := func(n Node, params []Param, depth int) {
		for i, p := range params {
			for _, q := range params[:i] {
				if dup == nil && q.Name == p.Name {
					dup = c.errAt(n, "SyntaxError", "duplicate argument 'l_"+strconv.Itoa(depth)+"_"+p.Name+"' in function definition")
				}
			}
		}
	}
	visit = func(ss []Stmt, depth int) {
		for _, s := range ss {
			if dup != nil {
				return
			}
			switch n := s.(type) {
			case *If:
				for _, b := range n.Bodies {
					visit(b, depth)
				}
				visit(n.Else, depth)
			case *For:
				visit(n.Body, depth+1)
				visit(n.Else, depth+1)
			case *Macro:
				check(n, n.Params, depth+1)
				visit(n.Body, depth+1)
			case *CallBlock:
				check(n, n.Params, depth+1)
				visit(n.Body, depth+1)
			case *SetBlock:
				visit(n.Body, depth+1)
			case *FilterBlock:
				visit(n.Body, depth+1)
			case *With:
				visit(n.Body, depth+1)
			case *AutoescapeBlock:
				visit(n.Body, depth+1)
			case *Generation:
				visit(n.Body, depth+1)
			}
		}
	}
	visit(body, 0)
	Walk(body, func(n Node) bool {
		if b, ok := n.(*Block); ok {
			blocks = append(blocks, b)
		}
		return true
	})
	for i := 0; dup == nil && i < len(blocks); i++ {
		visit(blocks[i].Body, 0)
	}
	return dup
}

// run renders the template's top level in tc, then its parent's if it
// extends one.
func (p *program) run(c *Ctx, tc *tctx) error {
	tc.exporting = tc.exporting || p.shares
	if !tc.named {
		// the context is the first template's: a parent it extends
		// renders in it under the child's name (a Renderer's root
		// context keeps the name between renders: resetRootTC)
		tc.named = true
		if !eqStr(tc.name, p.name) {
			tc.name = p.name
		}
	}
	if len(p.blocks) > 0 { // ranging over an empty map is not free
		if tc.inh.blocks == nil {
			tc.inh.blocks = map[string][]*blockCode{}
		}
		for name, b := range p.blocks {
			tc.inh.blocks[name] = append(tc.inh.blocks[name], b)
		}
	}
	var f *frame
	if tc == &c.rootTC && c.keepsBound && !c.rootUsed && tc.spare == nil && tc.bind != nil && tc.bind.prog == p && tc.vars == nil {
		// a Renderer's render of a template bound to its Layout: the
		// root frame, whose free names' slots may hold the values
		// runTop is about to store (Ctx.boundProg)
		f = c.boundRootFrame(p)
	} else if sp, n := tc.spare, p.fn.nslots; sp != nil {
		tc.spare = nil
		slots := sp.slots
		if cap(slots) < n {
			slots = make([]Value, n)
		}
		*sp = frame{c: c, tc: tc, slots: slots[:n]}
		f = sp
	} else {
		f = c.newFrame(tc, n)
	}
	if !tc.topSet {
		// the root context keeps its root frame in top between renders
		// (resetRootTC): a pointer written only when it changes
		tc.topSet = true
		if tc.top != f {
			tc.top = f
		}
	}
	// the top level is compiled with the Env's autoescape; no defer:
	// a panic ends the render, and the Ctx is reset before its next
	// (Env.resetCtx)
	saved := c.enterCode(c.env.autoescape, false, tc.inh)
	if !p.countItems {
		// its items are not counted: the output's count is lost
		c.items = itemsLost
	} else {
		c.counting = true
	}
	err := p.runTop(c, tc, f)
	c.leaveCode(saved)
	return err
}

// runTop is run in the frame f of the template's top level, its
// escaping entered.
func (p *program) runTop(c *Ctx, tc *tctx, f *frame) error {
	if b := tc.bind; b != nil && b.prog == p && tc.vars == nil {
		if f == &c.rootFrame && c.boundProg == p {
			f.putBound(p.fn, b, tc.vals)
		} else {
			f.initBound(p.fn, b, tc.vals)
		}
	} else {
		f.initFree(p.fn)
	}
	if p.init != nil {
		_ = p.init(f)
	}
	if err := p.body(f); err != nil {
		return err
	}
	if parent := tc.inh.parent; parent != nil {
		tc.inh.parent = nil
		if err := c.enter(); err != nil {
			return err
		}
		defer c.leave()
		return parent.prog.run(c, tc)
	}
	return nil
}

// compileBlockRef compiles a block's definition and its rendering in place.
func (c *compiler) compileBlockRef(n *Block) (execFn, error) {
	if _, dup := c.blocks[n.Name]; dup {
		return nil, c.errAt(n, "TemplateAssertionError", "block "+pyQuote(n.Name)+" defined twice")
	}
	// a block of the same name inside this one is the second definition
	// (Jinja2 meets the blocks in document order), and would otherwise
	// render itself without end
	var inner *Block
	Walk(n.Body, func(x Node) bool {
		if b, ok := x.(*Block); ok && b.Name == n.Name && inner == nil {
			inner = b
		}
		return inner == nil
	})
	if inner != nil {
		return nil, c.errAt(inner, "TemplateAssertionError", "block "+pyQuote(n.Name)+" defined twice")
	}
	decl := undeclared(n.Body, "self", "super")
	fs := &fnScope{block: n, scoped: n.Scoped, qual: "block_" + n.Name, selfDecl: decl["self"], superDecl: decl["super"]}
	s := &scope{fn: fs, vars: map[string]int{}, syms: symsBody(n.Body)}
	for _, nm := range assigned(n.Body) {
		s.declare(nm)
	}
	saved := *c
	// a block's function starts from the Environment's eval context,
	// whatever autoescape tag encloses the block
	c.sc, c.soft, c.loops, c.recursive, c.bufDepth = s, 0, 0, nil, 0
	c.escOn, c.escVolatile = c.env.autoescape, false
	body, err := c.compileStmts(n.Body)
	c.sc, c.soft, c.loops, c.recursive, c.bufDepth = saved.sc, saved.soft, saved.loops, saved.recursive, saved.bufDepth
	c.escOn, c.escVolatile = saved.escOn, saved.escVolatile
	if err != nil {
		return nil, err
	}
	bc := &blockCode{name: n.Name, fn: fs, init: c.scopeInit(s, nil), body: body, scoped: n.Scoped, counted: c.countItems}
	c.blocks[n.Name] = bc
	// Jinja2 checks for a parent template only before a block at the top
	// level (an if keeps it there); a block inside a for, with,
	// autoescape or filter tag renders where it stands even in a template
	// that extends another
	guard := c.outputCheck() && c.sc.top
	var locals func(f *frame) map[string]Value
	if n.Scoped {
		locals = c.localsCollector()
	}
	name, required := n.Name, n.Required
	return guardOutput(guard, func(f *frame) error {
		// Jinja2 checks a required block where its {% block %} statement
		// runs: the chain must hold an override; the block it then renders
		// may itself be marked required (an intermediate template's).
		if required && len(f.tc.inh.blocks[name]) <= 1 {
			return &Error{Kind: "TemplateRuntimeError", Msg: "Required block " + pyQuote(name) + " not found"}
		}
		tc := f.tc
		if locals != nil {
			tc = &tctx{locals: locals(f), next: f.tc, inh: f.tc.inh}
		}
		return renderBlock(f.c, tc, name, 0)
	}), nil
}

// renderBlock renders the idx-th block of the chain called name.
func renderBlock(c *Ctx, tc *tctx, name string, idx int) error {
	chain := tc.inh.blocks[name]
	if idx >= len(chain) {
		return nil
	}
	b := chain[idx]
	f := &frame{c: c, tc: tc, slots: make([]Value, b.fn.nslots), blk: &blockRun{name: name, idx: idx}}
	defer c.leaveCode(c.enterCode(c.env.autoescape, false, tc.inh))
	f.initFree(b.fn)
	if b.init != nil {
		_ = b.init(f)
	}
	if !b.counted {
		c.items = itemsLost
	}
	return b.body(f)
}

// captureBlock renders a block into a str, Markup when the eval context
// autoescapes (BlockReference.__call__).
func captureBlock(c *Ctx, tc *tctx, name string, idx int) (Value, error) {
	// self.b() inside block b calls itself: as deep as a macro may
	if err := c.enter(); err != nil {
		return Value{}, err
	}
	defer c.leave()
	start := len(c.out)
	outer := c.captureEnter(start)
	err := renderBlock(c, tc, name, idx)
	return c.capturedAs(start, outer, err, c.Autoescape())
}

// superFunc is super() inside a block: the next block of the chain.
func (f *frame) superFunc() Value {
	b := f.blk
	for g := f; b == nil && g != nil; g = g.up {
		b = g.blk
	}
	if b == nil {
		return Undef("'super' is undefined")
	}
	if b.idx+1 >= len(f.tc.inh.blocks[b.name]) {
		return Undef("there is no parent block called " + pyQuote(b.name) + ".")
	}
	return ObjectV(&blockRef{tc: f.tc, name: b.name, idx: b.idx + 1})
}

// blockRef is Jinja2's BlockReference: self.b, super, and a reference's
// super. Calling it renders the block.
type blockRef struct {
	tc   *tctx
	name string
	idx  int // the block's place in the chain of blocks called name
}

func (b *blockRef) TypeName() string { return "BlockReference" }

func (b *blockRef) Repr() string { return "<jinja2.runtime.BlockReference object at " + addr(b) + ">" }

func (b *blockRef) Attr(name string) (Value, bool) {
	switch name {
	case "name":
		return StrV(b.name), true
	case "super":
		if b.idx+1 >= len(b.tc.inh.blocks[b.name]) {
			return Undef("there is no parent block called " + pyQuote(b.name) + "."), true
		}
		return ObjectV(&blockRef{tc: b.tc, name: b.name, idx: b.idx + 1}), true
	}
	return Value{}, false
}

// CallValue is BlockReference.__call__(self), which takes no arguments.
func (b *blockRef) CallValue(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	if len(kw) > 0 {
		return Value{}, typeErr("BlockReference.__call__() got an unexpected keyword argument '%s'", kw[0].Name)
	}
	if len(args) > 0 {
		return Value{}, typeErr("BlockReference.__call__() takes 1 positional argument but %d were given", len(args)+1)
	}
	return captureBlock(c, b.tc, b.name, b.idx)
}

// selfObj is self: its attributes render the template's blocks.
type selfObj struct{ tc *tctx }

func (s *selfObj) TypeName() string { return "TemplateReference" }

// Iter is iter(self): TemplateReference has __getitem__ and no __iter__,
// so Python iterates it by index, and self[0] is a KeyError.
func (s *selfObj) Iter(*Ctx) ([]Value, error) { return nil, pyErr("KeyError", "0") }

// Repr is <TemplateReference 'name'>, the name of the template whose
// context this is; None for a template made from a string.
func (s *selfObj) Repr() string {
	for tc := s.tc; tc != nil; tc = tc.next {
		if tc.named {
			if tc.name == "" || tc.name == "<template>" {
				break
			}
			return "<TemplateReference " + pyQuote(tc.name) + ">"
		}
	}
	return "<TemplateReference None>"
}

func (s *selfObj) Attr(name string) (Value, bool) {
	if _, ok := s.tc.inh.blocks[name]; !ok {
		return Value{}, false
	}
	return ObjectV(&blockRef{tc: s.tc, name: name}), true
}

// localsCollector compiles the gathering of every variable visible in the
// current scope, as an include or a scoped block passes them: all but
// those still missing (Jinja2's new_context filters only missing), so an
// Undefined stored in a frame hides the context's value of its name.
func (c *compiler) localsCollector() func(f *frame) map[string]Value {
	type loc struct {
		name string
		ld   evalFn
	}
	var locs []loc
	seen := map[string]bool{}
	for s := c.sc; s != nil; s = s.parent {
		for _, n := range s.order {
			if seen[n] {
				continue
			}
			seen[n] = true
			l, _ := resolveFrom(c.sc, c.sc.fn, n)
			locs = append(locs, loc{n, loadLoc(l)})
		}
	}
	if len(locs) == 0 {
		return func(*frame) map[string]Value { return nil }
	}
	return func(f *frame) map[string]Value {
		m := make(map[string]Value, len(locs))
		for _, l := range locs {
			v, _ := l.ld(f)
			if v.flags&flagMissing == 0 {
				m[l.name] = v
			}
		}
		return m
	}
}

func (c *compiler) compileExtends(n *Extends) (execFn, error) {
	if !c.sc.top {
		return nil, c.errAt(n, "TemplateAssertionError", "cannot use extend from a non top-level scope")
	}
	x, err := c.compileExpr(n.Template)
	if err != nil {
		return nil, err
	}
	name, pos := c.src.name, n.P
	return func(f *frame) error {
		// Jinja2 tests the parent before it evaluates the name
		// (visit_Extends): a second extends whose name raises has
		// extended multiple times
		if f.tc.inh.parent != nil {
			return place(&Error{Kind: "TemplateRuntimeError", Msg: "extended multiple times"}, name, pos)
		}
		v, err := x(f)
		if err != nil {
			return err
		}
		t, err := f.c.env.loadValue(f.c, v)
		if err != nil {
			return place(err, name, pos)
		}
		f.tc.inh.parent = t
		return nil
	}, nil
}

func (c *compiler) compileInclude(n *Include) (execFn, error) {
	x, err := c.compileExpr(n.Template)
	if err != nil {
		return nil, err
	}
	var locals func(f *frame) map[string]Value
	if n.WithContext {
		locals = c.localsCollector()
	}
	name, pos, ignore := c.src.name, n.P, n.IgnoreMissing
	if !n.WithContext && c.bufDepth > 0 {
		return deferredInclude(includeFn(x, locals, ignore, name, pos)), nil
	}
	// Jinja2 writes an include's events with no check of a parent
	// template: an include prints even once {% extends %} has run
	return includeFn(x, locals, ignore, name, pos), nil
}

// includeFn runs the template x names with a context of its own and the
// caller's locals if any (locals nil: an include without context); a
// missing one when ignore is set writes nothing. Not inlined, so that its
// closure is compiled as if written in compileInclude (see boolValue).
//
//go:noinline
func includeFn(x evalFn, locals func(f *frame) map[string]Value, ignore bool, name string, pos Pos) execFn {
	return func(f *frame) error {
		v, err := x(f)
		if err != nil {
			return err
		}
		t, err := f.c.env.selectValue(f.c, v)
		if err != nil {
			var e *Error
			if ignore && errors.As(err, &e) && (e.Kind == "TemplateNotFound" || e.Kind == "TemplatesNotFound") {
				return nil
			}
			return place(err, name, pos)
		}
		tc := f.c.newInclude()
		if locals != nil {
			tc.locals = locals(f)
			tc.next = f.tc
		}
		if err := f.c.enter(); err != nil {
			return place(err, name, pos)
		}
		defer f.c.leave()
		return t.prog.run(f.c, tc)
	}
}

// moduleObj is an imported template: its exported names, and the text its
// body wrote, which is what it prints as (TemplateModule.__str__, and
// __html__ under autoescape).
type moduleObj struct {
	name string
	vars map[string]Value
	body string
}

func (m *moduleObj) TypeName() string { return "TemplateModule" }

// Str is the module's body text.
func (m *moduleObj) Str() string { return m.body }

// Repr is TemplateModule.__repr__.
func (m *moduleObj) Repr() string { return "<TemplateModule " + Repr(StrV(m.name)) + ">" }

func (m *moduleObj) Attr(name string) (Value, bool) {
	if strings.HasPrefix(name, "_") {
		// Jinja2 exports no name that starts with an underscore
		// (context.exported_vars), though the template's context has it
		return Value{}, false
	}
	v, ok := m.vars[name]
	return v, ok
}

// importer compiles the loading of the module of the template x names:
// the template rendered, and what it exports.
//
// The module of a template imported without context is kept on the
// compiled template and shared by later renders, as Jinja2 keeps it on
// its Template (cachedModule): such a module sees only the Env's globals,
// so every render would build the same one. It is kept only when nothing
// in it can change once built (moduleShareable), so that renders running
// at once may share it.
func (c *compiler) importer(x evalFn, withContext bool) func(f *frame) (*moduleObj, error) {
	// with context, the module sees the importing frame's locals too, as
	// an include does (make_module(context.get_all(), True, locals))
	var locals func(f *frame) map[string]Value
	if withContext {
		locals = c.localsCollector()
	}
	return func(f *frame) (*moduleObj, error) {
		v, err := x(f)
		if err != nil {
			return nil, err
		}
		t, err := f.c.env.loadValue(f.c, v)
		if err != nil {
			return nil, err
		}
		if err := f.c.enter(); err != nil {
			return nil, err
		}
		defer f.c.leave()
		// Shared only where the module is what a render of its own would
		// make: same Env, the Env's autoescape, no generation spans.
		share := !withContext && t.env == f.c.env && f.c.gen == nil
		if share {
			if cm := t.module.Load(); cm != nil {
				// the module's loops count against this render's limits as
				// if it had run
				f.c.iters += cm.iters
				if l := f.c.env.limits.Iterations; l > 0 && f.c.iters > l {
					return nil, limitErr("the loops passed the limit of " + istr(l) + " iterations")
				}
				return cm.m, nil
			}
		}
		tc := &tctx{inh: newInheritance(), exporting: true}
		if withContext {
			tc.locals = locals(f)
			tc.next = snapshotCtx(f.tc)
		}
		iters := f.c.iters
		start := len(f.c.out)
		outer := f.c.captureEnter(start)
		err = t.prog.run(f.c, tc)
		// the module's body is joined only when it is printed
		_ = f.c.captureLeave(outer, nil)
		body := string(f.c.out[start:])
		f.c.cutOut(start)
		if err != nil {
			return nil, err
		}
		m := &moduleObj{name: t.name, vars: tc.vars, body: body}
		if share && moduleShareable(f.c, t.prog, tc) {
			t.module.CompareAndSwap(nil, &cachedModule{m: m, iters: f.c.iters - iters})
		}
		return m, nil
	}
}

// snapshotCtx is the chain of contexts as Jinja2's context.get_all()
// hands it to a module imported with context: each context's vars as
// they are at the import, so what the importer sets after it is not the
// module's (its macros read the names of that moment when called later).
func snapshotCtx(tc *tctx) *tctx {
	if tc == nil {
		return nil
	}
	cp := *tc
	if tc.vars != nil {
		cp.vars = make(map[string]Value, len(tc.vars))
		for k, v := range tc.vars {
			cp.vars[k] = v
		}
	}
	cp.next = snapshotCtx(tc.next)
	return &cp
}

// cachedModule is the module of a template imported without context,
// kept for later renders: its exports and the loop iterations building it
// took.
type cachedModule struct {
	m     *moduleObj
	iters int
}

// moduleShareable reports whether the module a render of p in tc just
// built can be shared by renders running at once and later: every value
// of its top level (its frame, which its macros read at call time, and
// its exports) is one no render can change — None, bools, numbers, str,
// Undefined, tuples of such, lists of such under the sandbox (where no
// method may mutate them), and macros defined by the module itself — or,
// for a name it reads from outside, the Env's global. Namespaces,
// cyclers, joiners, other objects, lists without the sandbox and dicts
// are not (even the immutable sandbox lets {% set d.k %}…{% endset %}
// and dict.update(d, …) through the class change a dict): Jinja2 shares
// them and lets one render change what the next one sees, which renders
// running at once cannot share; such a module is built again at every
// render, as a fresh Jinja2 Environment would build it.
func moduleShareable(c *Ctx, p *program, tc *tctx) bool {
	top := tc.top
	if !tc.topSet || top == nil || top == &c.rootFrame {
		return false
	}
	sandbox := c.env.sandbox
	free := p.fn.freeSlots
	for i, v := range top.slots {
		if shareableValue(v, top, sandbox) {
			continue
		}
		global := false
		for j, s := range free {
			if s == i && sameValue(v, p.fn.freeElse[j]) {
				global = true
				break
			}
		}
		if !global {
			return false
		}
	}
	for _, v := range tc.vars {
		if !shareableValue(v, top, sandbox) {
			return false
		}
	}
	return true
}

// shareableValue reports whether no render can change v (moduleShareable).
func shareableValue(v Value, top *frame, sandbox bool) bool {
	switch v.kind {
	case KindUndefined, KindNone, KindBool, KindInt, KindFloat, KindStr:
		return true
	case KindTuple:
		return shareableItems(v.ref.(*List).Items, top, sandbox)
	case KindList:
		return sandbox && shareableItems(v.ref.(*List).Items, top, sandbox)
	case KindFunc:
		fn := v.ref.(*Func)
		return fn.mac != nil && fn.def == top
	}
	return false
}

func shareableItems(items []Value, top *frame, sandbox bool) bool {
	for _, it := range items {
		if !shareableValue(it, top, sandbox) {
			return false
		}
	}
	return true
}

// sameValue reports whether a and b are the same value: equal scalars,
// or the same object.
func sameValue(a, b Value) bool {
	return a.kind == b.kind && a.flags == b.flags && a.n == b.n && a.s == b.s && a.ref == b.ref
}

func (c *compiler) compileImport(n *Import) (execFn, error) {
	x, err := c.compileExpr(n.Template)
	if err != nil {
		return nil, err
	}
	imp := c.importer(x, n.WithContext)
	st := c.storeName(n.Target)
	name, pos := c.src.name, n.P
	return func(f *frame) error {
		m, err := imp(f)
		if err != nil {
			return place(err, name, pos)
		}
		st(f, ObjectV(m))
		return nil
	}, nil
}

func (c *compiler) compileFromImport(n *FromImport) (execFn, error) {
	x, err := c.compileExpr(n.Template)
	if err != nil {
		return nil, err
	}
	imp := c.importer(x, n.WithContext)
	stores := make([]func(*frame, Value), len(n.Names))
	for i, in := range n.Names {
		stores[i] = c.storeName(in.Alias)
	}
	names := n.Names
	name, pos := c.src.name, n.P
	return func(f *frame) error {
		m, err := imp(f)
		if err != nil {
			return place(err, name, pos)
		}
		for i, in := range names {
			v, ok := m.vars[in.Name]
			if !ok {
				v = Undef("the template " + pyQuote(m.name) + " (imported on line " + istr(pos.Line) + ") does not export the requested name " + pyQuote(in.Name))
			}
			stores[i](f, v)
		}
		return nil
	}, nil
}

// loadValue loads the template a value names, as Jinja2's
// Environment.get_template does for extends and import: a str through the
// loader; any other value is looked up as it is, so it is unhashable
// (TypeError) or not found (TemplateNotFound naming str(v)).
func (e *Env) loadValue(c *Ctx, v Value) (*Template, error) {
	switch v.Kind() {
	case KindStr:
		return e.load(v.s)
	case KindUndefined:
		if e.loader == nil {
			return nil, errNoLoader() // _load_template checks the loader first
		}
		return nil, v.undefErr()
	}
	if e.loader == nil {
		return nil, errNoLoader()
	}
	// the cache key (loader, name) is hashed before the loader looks
	if err := checkHashable(v); err != nil {
		return nil, err
	}
	s, err := ToStr(c, v)
	if err != nil {
		return nil, err
	}
	return nil, &Error{Kind: "TemplateNotFound", Msg: s}
}

// selectValue loads the template an include names, as Jinja2's
// Environment.get_or_select_template does: a str or an Undefined as
// loadValue; anything else is a sequence of names of which the first that
// exists is taken (Environment.select_template).
func (e *Env) selectValue(c *Ctx, v Value) (*Template, error) {
	switch v.Kind() {
	case KindStr, KindUndefined:
		return e.loadValue(c, v)
	}
	if !v.Truth() {
		return nil, &Error{Kind: "TemplatesNotFound", Msg: notFoundList(nil)}
	}
	items, err := Iterate(c, v)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, it := range items {
		if it.kind == KindUndefined && e.loader != nil {
			// its UndefinedError is caught, and its message named
			names = append(names, it.UndefinedMessage())
			continue
		}
		t, err := e.loadValue(c, it)
		if err == nil {
			return t, nil
		}
		var te *Error
		if !errors.As(err, &te) || te.Kind != "TemplateNotFound" {
			return nil, err
		}
		s, err := ToStr(c, it)
		if err != nil {
			return nil, err
		}
		names = append(names, s)
	}
	// TemplatesNotFound(names) reads names[-1]: a dict without the key -1
	// is a KeyError, an iterator or a view no sequence
	switch v.kind {
	case KindDict:
		if _, ok, _ := item(v, IntV(-1)); !ok {
			return nil, pyErr("KeyError", "-1")
		}
	case KindObject:
		switch v.ref.(type) {
		case *rangeObj, *lazyRange, *bytesObj:
		default:
			if _, ok, _ := item(v, IntV(-1)); !ok {
				return nil, typeErr("'%s' object is not subscriptable", TypeName(v))
			}
		}
	}
	return nil, &Error{Kind: "TemplatesNotFound", Msg: notFoundList(names)}
}

// errNoLoader is what Jinja2's Environment._load_template raises before
// anything else when the environment has no loader (transformers' chat
// template environment has none): include, import and extends fail so.
func errNoLoader() error {
	return &Error{Kind: "TypeError", Msg: "no loader for this environment specified"}
}

func notFoundList(names []string) string {
	if len(names) == 0 {
		return "Tried to select from an empty list of templates."
	}
	return "none of the templates given were found: " + strings.Join(names, ", ")
}

// load returns the compiled template called name, through the loader.
func (e *Env) load(name string) (*Template, error) {
	if t, ok := e.cache.Load(name); ok {
		return t.(*Template), nil
	}
	if e.loader == nil {
		return nil, errNoLoader()
	}
	src, err := e.loader(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &Error{Kind: "TemplateNotFound", Msg: name, Err: err}
		}
		return nil, &Error{Kind: "TemplateNotFound", Msg: name + ": " + err.Error(), Err: err}
	}
	t, err := e.Parse(name, src)
	if err != nil {
		return nil, err
	}
	actual, _ := e.cache.LoadOrStore(name, t)
	return actual.(*Template), nil
}
