package jinja

import (
	"slices"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/jinja2"
)

// jinjaGlobals are the names Jinja2 itself defines for every template, and
// specials a template reads without defining them.
var jinjaGlobals = []string{"range", "dict", "lipsum", "cycler", "joiner", "namespace",
	"loop", "caller", "varargs", "kwargs", "self", "super"}

// lenientTests and lenientFilters accept a name that nothing defines as
// their operand, even with the engine's strict names.
var (
	lenientTests   = map[string]bool{"defined": true, "undefined": true}
	lenientFilters = map[string]bool{"default": true, "d": true}
)

// varWalker lists the variables a template and its partials read from the
// data, reading the syntax tree.
type varWalker struct {
	c       *compiled
	bound   map[string]bool
	seen    map[string]bool
	visited map[*jinja2.Tree]bool
	out     []driver.Var
	// all lists the operands of lenient tests and filters too, and records
	// no call places (readVars, at render time).
	all bool
}

// listVars returns the top-level variables the template and the partials
// it names with a literal read and do not bind themselves, in order of
// first use: every name that is not assigned anywhere in them (set, for,
// macro names and parameters, with, import, call block parameters), not a
// global of Jinja2's or of funcs, and not only the operand of the tests
// defined/undefined or the filter default. It records the places of the
// names they call too.
func (c *compiled) listVars(funcs map[string]any) []driver.Var {
	return c.walkVars(funcs, false)
}

// readVars lists, as listVars does, every top-level variable the template
// reads, those only tested with defined or given a default too: the place
// of a deep value's error when Vars has none.
func (c *compiled) readVars() []driver.Var { return c.walkVars(nil, true) }

func (c *compiled) walkVars(funcs map[string]any, all bool) []driver.Var {
	w := &varWalker{c: c, bound: map[string]bool{}, seen: map[string]bool{}, visited: map[*jinja2.Tree]bool{}, all: all}
	for _, n := range jinjaGlobals {
		w.bound[n] = true
	}
	for n := range funcs {
		w.bound[n] = true
	}
	trees := []*jinja2.Tree{c.tpl.Tree()}
	for _, p := range c.partials {
		trees = append(trees, p.Tree())
	}
	for _, t := range trees {
		walkStmts(t.Body, func(s jinja2.Stmt) bool {
			w.bind(s)
			return true
		})
	}
	w.tree(c.tpl.Tree())
	return w.out
}

// bind records the names s assigns.
func (w *varWalker) bind(s jinja2.Stmt) {
	switch s := s.(type) {
	case *jinja2.For:
		w.target(s.Target)
	case *jinja2.Set:
		w.target(s.Target)
	case *jinja2.SetBlock:
		w.target(s.Target)
	case *jinja2.Macro:
		w.bound[s.Name] = true
		w.params(s.Params)
	case *jinja2.CallBlock:
		w.params(s.Params)
	case *jinja2.With:
		for _, t := range s.Targets {
			w.target(t)
		}
	case *jinja2.Import:
		w.bound[s.Target] = true
	case *jinja2.FromImport:
		for _, n := range s.Names {
			w.bound[n.Alias] = true
		}
	}
}

func (w *varWalker) target(x jinja2.Expr) {
	switch x := x.(type) {
	case *jinja2.Name:
		w.bound[x.Name] = true
	case *jinja2.TupleLit:
		for _, it := range x.Items {
			w.target(it)
		}
	}
}

func (w *varWalker) params(ps []jinja2.Param) {
	for _, p := range ps {
		w.bound[p.Name] = true
	}
}

// tree walks a template's statements, and the partials it names with a
// literal where it names them.
func (w *varWalker) tree(t *jinja2.Tree) {
	if w.visited[t] {
		return
	}
	w.visited[t] = true
	file := w.c.file(t.Name)
	if t == w.c.tpl.Tree() {
		file = w.c.name
	}
	walkStmts(t.Body, func(s jinja2.Stmt) bool {
		for _, x := range stmtExprs(s) {
			if set, ok := s.(*jinja2.Set); ok && x == set.Target {
				if ns, ok := x.(*jinja2.NSRef); ok {
					w.read(file, ns.Name, ns.Position(), false)
				}
				continue
			}
			if assigns(s, x) {
				continue
			}
			w.expr(file, x, false)
		}
		if x, _ := partialName(s); x != nil {
			if k, ok := x.(*jinja2.Const); ok && k.Value.Kind() == jinja2.KindStr {
				if p := w.c.partials[k.Value.Str()]; p != nil {
					w.tree(p.Tree())
				}
			}
		}
		return true
	})
}

// assigns reports whether x is a target s assigns to, which it does not
// read: a block set's, a for loop's, a with's.
func assigns(s jinja2.Stmt, x jinja2.Expr) bool {
	switch s := s.(type) {
	case *jinja2.SetBlock:
		return x == s.Target
	case *jinja2.For:
		return x == s.Target
	case *jinja2.With:
		return slices.Contains(s.Targets, x)
	}
	return false
}

// expr walks an expression; lenient marks the operand of a lenient test or
// filter.
func (w *varWalker) expr(file string, x jinja2.Expr, lenient bool) {
	switch x := x.(type) {
	case nil:
		return
	case *jinja2.Name:
		if !lenient || w.all {
			w.read(file, x.Name, x.Position(), false)
		}
		return
	case *jinja2.CallExpr:
		if n, ok := x.Fn.(*jinja2.Name); ok {
			// A strict name fails where it is read, an Undefined
			// where it is called.
			if !w.all {
				w.c.calls[place{file: file, line: n.P.Line, col: n.P.Col}] = true
				w.c.calls[place{file: file, line: x.P.Line, col: x.P.Col}] = true
			}
			w.read(file, n.Name, n.Position(), true)
			for _, a := range argExprs(x.Args) {
				w.expr(file, a, false)
			}
			return
		}
	case *jinja2.TestExpr:
		w.expr(file, x.X, lenientTests[x.Name])
		for _, a := range argExprs(x.Args) {
			w.expr(file, a, false)
		}
		return
	case *jinja2.FilterExpr:
		w.expr(file, x.X, lenientFilters[x.Name])
		for _, a := range argExprs(x.Args) {
			w.expr(file, a, false)
		}
		return
	}
	for _, s := range subExprs(x) {
		w.expr(file, s, false)
	}
}

func (w *varWalker) read(file, name string, at jinja2.Pos, call bool) {
	if w.bound[name] || w.seen[name] {
		return
	}
	w.seen[name] = true
	w.out = append(w.out, driver.Var{Name: name, Template: file, Line: at.Line, Col: at.Col, Call: call})
}

// ReadVars lists every top-level variable the template reads, those only
// tested with defined or given a default included (readVars), less the
// names it calls.
func (c *compiled) ReadVars() []driver.Var {
	var out []driver.Var
	for _, v := range c.readVars() {
		if !v.Call {
			out = append(out, v)
		}
	}
	return out
}
