package jinja2

// Jinja2's symbol analysis (jinja2/idtracking.py), for the one thing the
// compiler's scopes (compile.go) do not model by themselves: where a frame
// stores a name before it references it in any other way, Jinja2 starts
// the name as missing in that frame (VAR_LOAD_UNDEFINED, `l_0_x =
// missing`), not as the context's value. Nothing in the frame itself can
// read it before the store, but a nested frame can, since Jinja2 analyses
// a nested frame's body only when it compiles it: a set block, filter
// block, loop body, with block, macro or call block that reads the name
// before the store runs reads an Undefined, even when the context has the
// name:
//
//	{% set v %}{{ b }}{% endset %}{% set b = 2 %}   v is '' with b=1 in the context
//
// The frame's own analysis visits, in order, the expressions it evaluates
// and the targets it stores (a set's value before its target; of a for,
// call block, filter block or with only the iterable, call, filter or
// values; a macro's or set block's name as a store; nothing of a block or
// an autoescape tag). A name referenced first by a load, or inside an if
// (whose branches Symbols.branch_update turns to VAR_LOAD_RESOLVE), starts
// as the context's value. A name an enclosing frame references at all is
// the enclosing frame's variable (VAR_LOAD_ALIAS), so it starts as that
// frame's value instead. The analysis is compile-time work: a frame whose
// name starts missing has its slot set to an Undefined on entry, marked
// flagMissing: an include, a with-context import and a scoped block are
// given every local of the frames around them but the missing ones
// (dump_local_context, new_context), so an Undefined a frame stored hides
// the context's value and a missing one does not. A read that can see the
// mark drops it (readsMissing), as Jinja2's load turns missing into
// undefined(name=…).

// frameSyms is what the analysis finds in one frame.
type frameSyms struct {
	// refs: every name the frame loads, stores or takes as a parameter
	// (Symbols.refs).
	refs map[string]bool
	// undef: the names the frame stores before any other reference,
	// outside an if (VAR_LOAD_UNDEFINED).
	undef map[string]bool
}

// symVisitor is FrameSymbolVisitor: it visits one frame's nodes.
type symVisitor struct {
	fs   *frameSyms
	inIf int
}

func newSymVisitor() *symVisitor {
	return &symVisitor{fs: &frameSyms{refs: map[string]bool{}}}
}

func (v *symVisitor) load(name string) {
	v.fs.refs[name] = true
}

func (v *symVisitor) param(name string) {
	v.fs.refs[name] = true
}

func (v *symVisitor) store(name string) {
	if v.fs.refs[name] {
		return
	}
	v.fs.refs[name] = true
	if v.inIf == 0 {
		if v.fs.undef == nil {
			v.fs.undef = map[string]bool{}
		}
		v.fs.undef[name] = true
	}
}

// loads visits expressions: every name in them is a load.
func (v *symVisitor) loads(xs ...Expr) {
	walkExprs(func(n Node) bool {
		switch n := n.(type) {
		case *Name:
			v.load(n.Name)
		case *NSRef:
			v.load(n.Name)
		}
		return true
	}, xs...)
}

// target visits an assignment target: names store, a namespace
// reference loads the namespace.
func (v *symVisitor) target(x Expr) {
	switch t := x.(type) {
	case *Name:
		v.store(t.Name)
	case *NSRef:
		v.load(t.Name)
	case *TupleLit:
		for _, it := range t.Items {
			v.target(it)
		}
	default:
		v.loads(x)
	}
}

func (v *symVisitor) stmts(body []Stmt) {
	for _, s := range body {
		v.stmt(s)
	}
}

func (v *symVisitor) stmt(s Stmt) {
	switch n := s.(type) {
	case *Print:
		v.loads(n.X)
	case *If:
		if len(n.Tests) > 0 {
			v.loads(n.Tests[0])
		}
		v.inIf++
		for i := range n.Tests {
			if i > 0 {
				v.loads(n.Tests[i])
			}
			v.stmts(n.Bodies[i])
		}
		v.stmts(n.Else)
		v.inIf--
	case *For:
		v.loads(n.Iter)
	case *Set:
		v.loads(n.Value)
		v.target(n.Target)
	case *SetBlock:
		v.target(n.Target)
	case *Macro:
		v.store(n.Name)
	case *CallBlock:
		if n.Call != nil {
			v.loads(n.Call)
		}
	case *FilterBlock:
		v.loads(n.Filter)
	case *With:
		v.loads(n.Values...)
	case *Include:
		v.loads(n.Template)
	case *Import:
		v.loads(n.Template)
		v.store(n.Target)
	case *FromImport:
		v.loads(n.Template)
		for _, in := range n.Names {
			v.store(in.Alias)
		}
	case *Extends:
		v.loads(n.Template)
	case *Do:
		v.loads(n.X)
	}
	// Text, Break, Continue: nothing; Block, AutoescapeBlock (a Scope)
	// and Generation (a call block with no names in its call): frames of
	// their own, with nothing in this one.
}

// params visits a macro's or call block's parameters, then their defaults
// (the Macro node's fields in order).
func (v *symVisitor) params(ps []Param) {
	for _, p := range ps {
		v.param(p.Name)
	}
	for _, p := range ps {
		if p.Default != nil {
			v.loads(p.Default)
		}
	}
}

// symsBody analyses a frame that is a list of statements: the template's
// root, a block, a set block's body, a for loop's else.
func symsBody(body []Stmt) *frameSyms {
	v := newSymVisitor()
	v.stmts(body)
	return v.fs
}

// symsMacro analyses a macro's or call block's frame, with the special
// parameters (caller, kwargs, varargs) it takes.
func symsMacro(params []Param, specials []string, body []Stmt) *frameSyms {
	v := newSymVisitor()
	for _, s := range specials {
		v.param(s)
	}
	v.params(params)
	v.stmts(body)
	return v.fs
}

// symsFor analyses a for loop's body frame: its targets are parameters.
func symsFor(n *For, usesLoop bool) *frameSyms {
	v := newSymVisitor()
	if usesLoop {
		v.param("loop")
	}
	forTargets(n.Target, func(t *Name) { v.param(t.Name) })
	v.stmts(n.Body)
	return v.fs
}

// symsWith analyses a with block's frame: its targets, then its body.
func symsWith(n *With) *frameSyms {
	v := newSymVisitor()
	for _, t := range n.Targets {
		v.target(t)
	}
	v.stmts(n.Body)
	return v.fs
}

// symsFilterBlock analyses a filter block's frame: its body, then its
// filter's arguments.
func symsFilterBlock(n *FilterBlock) *frameSyms {
	v := newSymVisitor()
	v.stmts(n.Body)
	v.loads(n.Filter)
	return v.fs
}

// symsAutoescape analyses an autoescape tag's frame (a Scope): its value,
// then its body.
func symsAutoescape(n *AutoescapeBlock) *frameSyms {
	v := newSymVisitor()
	v.loads(n.X)
	v.stmts(n.Body)
	return v.fs
}

// startsMissing reports whether scope s's variable name starts as missing
// on entry: s stores it first and no enclosing frame references it.
func startsMissing(s *scope, name string) bool {
	if s.syms == nil || !s.syms.undef[name] {
		return false
	}
	for p := s.parent; p != nil; p = p.parent {
		if p.syms == nil {
			if _, ok := p.vars[name]; ok {
				return false
			}
			continue
		}
		if p.syms.refs[name] {
			return false
		}
	}
	return true
}

// readsMissing reports whether a read of name in scope s can see Jinja2's
// missing: the value s reads descends from an enclosing scope that starts
// name missing. A scope's own reads of a name it starts missing follow its
// store, so they cannot.
func readsMissing(s *scope, name string) bool {
	for p := s; p != nil; p = p.parent {
		if _, ok := p.vars[name]; !ok {
			continue
		}
		if startsMissing(p, name) {
			return p != s
		}
	}
	return false
}
