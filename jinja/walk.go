package jinja

import "github.com/rolemark/rolemark/internal/jinja2"

// walkStmts calls fn for every statement of body and of the bodies nested
// in it, in source order; fn returns false to skip a statement's bodies.
// The bodies are those jinja2.Walk knows, the parser's own list.
func walkStmts(body []jinja2.Stmt, fn func(jinja2.Stmt) bool) {
	jinja2.Walk(body, func(n jinja2.Node) bool {
		s, ok := n.(jinja2.Stmt)
		return ok && fn(s)
	})
}

// stmtExprs returns the expressions s itself holds (not those of its
// bodies), in source order: the ones jinja2.Walk visits first below s,
// targets among them.
func stmtExprs(s jinja2.Stmt) []jinja2.Expr {
	var out []jinja2.Expr
	jinja2.Walk([]jinja2.Stmt{s}, func(n jinja2.Node) bool {
		if x, ok := n.(jinja2.Expr); ok {
			out = append(out, x)
			return false
		}
		return n == jinja2.Node(s)
	})
	return out
}

// subExprs returns the expressions nested directly in x, in source order:
// the ones jinja2.Walk visits first below x.
func subExprs(x jinja2.Expr) []jinja2.Expr {
	var out []jinja2.Expr
	jinja2.Walk([]jinja2.Stmt{&jinja2.Print{X: x}}, func(n jinja2.Node) bool {
		if c, ok := n.(jinja2.Expr); ok && c != x {
			out = append(out, c)
			return false
		}
		return true // the Print around x, and x
	})
	return out
}

func argExprs(a jinja2.CallArgs) []jinja2.Expr {
	out := append([]jinja2.Expr{}, a.Args...)
	for _, k := range a.Kwargs {
		out = append(out, k.Value)
	}
	return append(out, a.DynArgs, a.DynKwargs)
}
