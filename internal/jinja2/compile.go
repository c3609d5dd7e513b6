package jinja2

import (
	"strconv"
)

// The compiler turns the syntax tree into closures over slots.
//
// Scoping follows jinja2/idtracking.py: a template's top level, a for
// loop's body, a with block, a block set's body, a filter block, a macro
// and a call block's body each are a scope; an if is not. A name a scope
// assigns anywhere is that scope's own variable, with a slot of its own in
// the frame of the function (template, macro, block) that holds the scope;
// on entering the scope (and at every iteration of a loop) it starts as
// the value the name had outside, so a read before the assignment sees the
// outer value, and nothing leaks out. A name no enclosing scope assigns is
// read from the template's context (render variables, the top-level
// assignments of the template, globals). A macro reads its enclosing
// function's slots through its frame's up pointer, so it sees their values
// at call time, as Python's closures do.

type evalFn func(f *frame) (Value, error)
type execFn func(f *frame) error

// fnScope is a function being compiled: the template's root, a macro, a
// call block's caller, a block.
type fnScope struct {
	parent *fnScope
	nslots int
	// free names read from the context, each with a slot set at entry.
	free      map[string]int
	freeNames []string
	freeSlots []int
	freeUndef []Value // the Undefined each free name is when the context lacks it
	block     *Block  // the block this function renders, if it is one
	scoped    bool    // a scoped block: it reads its caller's locals
}

func (fs *fnScope) newSlot() int {
	fs.nslots++
	return fs.nslots - 1
}

// scope is a scope being compiled.
type scope struct {
	fn     *fnScope
	parent *scope
	vars   map[string]int
	order  []string
	top    bool // the template's top level: assignments are exported
}

func (s *scope) declare(name string) int {
	if i, ok := s.vars[name]; ok {
		return i
	}
	i := s.fn.newSlot()
	s.vars[name] = i
	s.order = append(s.order, name)
	return i
}

type compiler struct {
	env    *Env
	src    *source
	sc     *scope
	soft   int // inside if or a conditional expression: unknown filters fail at run time
	loops  int // enclosing for loops of the current function
	blocks map[string]*blockCode
	// hasExtends: the template has an extends tag.
	hasExtends bool
	recursive  []*loopCode // enclosing recursive loops
	// noOutputCheck: inside a block set, whose output is captured, which
	// Jinja2 lets run at the top level of a template that extends another.
	noOutputCheck bool
	// constMode: compiling an expression as Jinja2 folds it
	// (compile_fold.go); foldSkip: the node whose folding was just tried;
	// foldMemo: foldMatters' answers; optimizing: inside the operands of
	// a node whose folding failed, which Jinja2's optimizer folds,
	// literals too.
	constMode  int
	foldSkip   Expr
	foldMemo   map[Expr]bool
	optimizing int
}

// outputCheck reports whether output here is dropped once the template
// has extended another (Jinja2's require_output_check).
func (c *compiler) outputCheck() bool {
	return c.hasExtends && !c.noOutputCheck && c.sc.fn.parent == nil && c.sc.fn.block == nil
}

func (c *compiler) errAt(n Node, kind, msg string) error {
	p := n.Position()
	return &Error{Kind: kind, Msg: msg, Name: c.src.name, Line: p.Line, Col: p.Col}
}

// newScope opens a scope in the current function that assigns names.
func (c *compiler) newScope(names []string) *scope {
	s := &scope{fn: c.sc.fn, parent: c.sc, vars: map[string]int{}}
	for _, n := range names {
		s.declare(n)
	}
	return s
}

// varLoc is where a name lives: hops up the frames, then a slot; or free.
type varLoc struct {
	hops, slot int
}

// resolveFrom finds name from scope s outward; ok is false when no scope
// assigns it. hops counts the function boundaries crossed from fn.
func resolveFrom(s *scope, fn *fnScope, name string) (varLoc, bool) {
	for ; s != nil; s = s.parent {
		if i, ok := s.vars[name]; ok {
			hops := 0
			for f := fn; f != s.fn; f = f.parent {
				hops++
			}
			return varLoc{hops, i}, true
		}
	}
	return varLoc{}, false
}

// loadName compiles a read of name in the current scope.
func (c *compiler) loadName(name string) evalFn {
	if loc, ok := resolveFrom(c.sc, c.sc.fn, name); ok {
		return loadLoc(loc)
	}
	fn := c.sc.fn
	// super and self inside a block, and special names.
	if name == "super" && fn.block != nil {
		return func(f *frame) (Value, error) { return f.superFunc(), nil }
	}
	if name == "self" {
		return func(f *frame) (Value, error) { return ObjectV(&selfObj{tc: f.tc}), nil }
	}
	return loadLoc(varLoc{hops: 0, slot: c.freeSlot(fn, name)})
}

func (c *compiler) freeSlot(fn *fnScope, name string) int {
	if fn.free == nil {
		fn.free = map[string]int{}
	}
	i, ok := fn.free[name]
	if !ok {
		i = fn.newSlot()
		fn.free[name] = i
		fn.freeNames = append(fn.freeNames, name)
		fn.freeSlots = append(fn.freeSlots, i)
		fn.freeUndef = append(fn.freeUndef, Undef(pyQuote(name)+" is undefined"))
	}
	return i
}

func loadLoc(loc varLoc) evalFn {
	slot := loc.slot
	switch loc.hops {
	case 0:
		return func(f *frame) (Value, error) { return f.slots[slot], nil }
	case 1:
		return func(f *frame) (Value, error) { return f.up.slots[slot], nil }
	}
	hops := loc.hops
	return func(f *frame) (Value, error) {
		for i := 0; i < hops; i++ {
			f = f.up
		}
		return f.slots[slot], nil
	}
}

// outerInit compiles how scope s's variable name starts: its value in the
// scopes outside s, or the context's.
func (c *compiler) outerInit(s *scope, name string) evalFn {
	if loc, ok := resolveFrom(s.parent, s.fn, name); ok {
		return loadLoc(loc)
	}
	return loadLoc(varLoc{hops: 0, slot: c.freeSlot(s.fn, name)})
}

// scopeInit compiles the start of scope s: every variable but those in
// skip takes its outer value.
func (c *compiler) scopeInit(s *scope, skip map[string]bool) func(f *frame) error {
	type init struct {
		slot int
		from evalFn
	}
	var inits []init
	for _, n := range s.order {
		if skip[n] {
			continue
		}
		inits = append(inits, init{s.vars[n], c.outerInit(s, n)})
	}
	if len(inits) == 0 {
		return nil
	}
	return func(f *frame) error {
		for _, in := range inits {
			v, _ := in.from(f)
			f.slots[in.slot] = v
		}
		return nil
	}
}

// storeName compiles an assignment to name in the current scope.
func (c *compiler) storeName(name string) func(f *frame, v Value) {
	s := c.sc
	slot, ok := s.vars[name]
	if !ok {
		slot = s.declare(name)
	}
	if s.top {
		return func(f *frame, v Value) {
			f.slots[slot] = v
			if f.tc.exporting {
				f.tc.export(name, v)
			}
		}
	}
	return func(f *frame, v Value) { f.slots[slot] = v }
}

// assigned returns the names the statements assign in their own scope
// (not inside nested scopes), in order.
func assigned(body []Stmt) []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	var target func(x Expr)
	target = func(x Expr) {
		switch t := x.(type) {
		case *Name:
			add(t.Name)
		case *TupleLit:
			for _, it := range t.Items {
				target(it)
			}
		}
	}
	var walk func(ss []Stmt)
	walk = func(ss []Stmt) {
		for _, s := range ss {
			switch n := s.(type) {
			case *Set:
				target(n.Target)
			case *SetBlock:
				target(n.Target)
			case *Macro:
				add(n.Name)
			case *Import:
				add(n.Target)
			case *FromImport:
				for _, in := range n.Names {
					add(in.Alias)
				}
			case *If:
				for _, b := range n.Bodies {
					walk(b)
				}
				walk(n.Else)
			case *AutoescapeBlock:
				walk(n.Body)
			}
		}
	}
	walk(body)
	return names
}

// readsName reports whether the statements read name anywhere, blocks
// excepted (Jinja2's find_undeclared).
func readsName(body []Stmt, name string) bool {
	found := false
	var ex func(x Expr)
	var st func(ss []Stmt)
	args := func(a CallArgs) {
		for _, x := range a.Args {
			ex(x)
		}
		for _, k := range a.Kwargs {
			ex(k.Value)
		}
		ex(a.DynArgs)
		ex(a.DynKwargs)
	}
	ex = func(x Expr) {
		if found || x == nil {
			return
		}
		switch n := x.(type) {
		case *Name:
			if n.Name == name {
				found = true
			}
		case *NSRef:
			if n.Name == name {
				found = true
			}
		case *TupleLit:
			for _, it := range n.Items {
				ex(it)
			}
		case *ListLit:
			for _, it := range n.Items {
				ex(it)
			}
		case *DictLit:
			for i := range n.Keys {
				ex(n.Keys[i])
				ex(n.Values[i])
			}
		case *CondExpr:
			ex(n.Test)
			ex(n.Then)
			ex(n.Else)
		case *BinExpr:
			ex(n.Left)
			ex(n.Right)
		case *UnaryExpr:
			ex(n.X)
		case *CompareExpr:
			ex(n.Left)
			for _, r := range n.Rights {
				ex(r)
			}
		case *Concat:
			for _, it := range n.Items {
				ex(it)
			}
		case *FilterExpr:
			ex(n.X)
			args(n.Args)
		case *TestExpr:
			ex(n.X)
			args(n.Args)
		case *CallExpr:
			ex(n.Fn)
			args(n.Args)
		case *AttrExpr:
			ex(n.X)
		case *ItemExpr:
			ex(n.X)
			ex(n.Key)
		case *SliceExpr:
			ex(n.Start)
			ex(n.Stop)
			ex(n.Step)
		}
	}
	st = func(ss []Stmt) {
		for _, s := range ss {
			if found {
				return
			}
			switch n := s.(type) {
			case *Print:
				ex(n.X)
			case *If:
				for i := range n.Tests {
					ex(n.Tests[i])
					st(n.Bodies[i])
				}
				st(n.Else)
			case *For:
				ex(n.Iter)
				ex(n.Filter)
				st(n.Body)
				st(n.Else)
			case *Set:
				ex(n.Value)
				ex(n.Target)
			case *SetBlock:
				ex(n.Filter)
				st(n.Body)
			case *Macro:
				for _, p := range n.Params {
					ex(p.Default)
				}
				st(n.Body)
			case *CallBlock:
				ex(n.Call)
				for _, p := range n.Params {
					ex(p.Default)
				}
				st(n.Body)
			case *FilterBlock:
				ex(n.Filter)
				st(n.Body)
			case *With:
				for _, v := range n.Values {
					ex(v)
				}
				st(n.Body)
			case *Include:
				ex(n.Template)
			case *Import:
				ex(n.Template)
			case *FromImport:
				ex(n.Template)
			case *Extends:
				ex(n.Template)
			case *Do:
				ex(n.X)
			case *AutoescapeBlock:
				ex(n.X)
				st(n.Body)
			case *Block:
				if n.Scoped {
					st(n.Body)
				}
			case *Generation:
				st(n.Body)
			}
		}
	}
	st(body)
	return found
}

func targetNames(x Expr) []string {
	switch t := x.(type) {
	case *Name:
		return []string{t.Name}
	case *TupleLit:
		var out []string
		for _, it := range t.Items {
			out = append(out, targetNames(it)...)
		}
		return out
	}
	return nil
}

// compileStmts compiles a list of statements into one.
func (c *compiler) compileStmts(body []Stmt) (execFn, error) {
	var fns []execFn
	var text []byte
	textStart := -1
	flush := func() {
		if textStart >= 0 {
			s := string(text)
			fns = append(fns, func(f *frame) error { return f.c.writeRaw(s) })
			text = text[:0]
			textStart = -1
		}
	}
	for _, s := range body {
		if t, ok := s.(*Text); ok && !c.hasExtends {
			if textStart < 0 {
				textStart = 0
			}
			text = append(text, t.Text...)
			continue
		}
		flush()
		fn, err := c.compileStmt(s)
		if err != nil {
			return nil, err
		}
		if fn != nil {
			fns = append(fns, fn)
		}
	}
	flush()
	switch len(fns) {
	case 0:
		return func(*frame) error { return nil }, nil
	case 1:
		return fns[0], nil
	case 2:
		a, b := fns[0], fns[1]
		return func(f *frame) error {
			if err := a(f); err != nil {
				return err
			}
			return b(f)
		}, nil
	}
	return func(f *frame) error {
		for _, fn := range fns {
			if err := fn(f); err != nil {
				return err
			}
		}
		return nil
	}, nil
}

// unsupported is an error raised when a render reaches a construct the
// implementation does not have.
func (c *compiler) unsupported(n Node, what string) execFn {
	err := c.errAt(n, "Unsupported", what+" is not supported")
	return func(*frame) error { return err }
}

func istr(n int) string { return strconv.Itoa(n) }
