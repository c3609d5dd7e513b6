package jinja2

// Walk calls visit for every node of body, statements and the
// expressions inside them, each node before its children and the children
// in the order of the source (a call's keyword arguments before *args and
// **kwargs); when visit returns false for a node, Walk skips its children.
func Walk(body []Stmt, visit func(Node) bool) {
	w := walker{visit: visit}
	w.stmts(body)
}

// walkExprs is Walk for expressions.
func walkExprs(visit func(Node) bool, xs ...Expr) {
	w := walker{visit: visit}
	w.exprs(xs)
}

// anyNode reports whether match holds for a node of body or of xs, which
// it asks in Walk's order, body first, until one does. When into is not
// nil, it looks below only the nodes into holds for.
func anyNode(match, into func(Node) bool, body []Stmt, xs ...Expr) bool {
	found := false
	w := walker{visit: func(n Node) bool {
		found = found || match(n)
		return !found && (into == nil || into(n))
	}}
	w.stmts(body)
	w.exprs(xs)
	return found
}

type walker struct {
	visit func(Node) bool
}

func (w *walker) stmts(ss []Stmt) {
	for _, s := range ss {
		w.stmt(s)
	}
}

func (w *walker) params(ps []Param) {
	for _, p := range ps {
		w.expr(p.Default)
	}
}

func (w *walker) stmt(s Stmt) {
	if s == nil || !w.visit(s) {
		return
	}
	switch n := s.(type) {
	case *Print:
		w.expr(n.X)
	case *If:
		for i := range n.Tests {
			w.expr(n.Tests[i])
			w.stmts(n.Bodies[i])
		}
		w.stmts(n.Else)
	case *For:
		w.expr(n.Target)
		w.expr(n.Iter)
		w.expr(n.Filter)
		w.stmts(n.Body)
		w.stmts(n.Else)
	case *Set:
		w.expr(n.Target)
		w.expr(n.Value)
	case *SetBlock:
		w.expr(n.Target)
		w.expr(n.Filter)
		w.stmts(n.Body)
	case *Macro:
		w.params(n.Params)
		w.stmts(n.Body)
	case *CallBlock:
		w.params(n.Params)
		if n.Call != nil {
			w.expr(n.Call)
		}
		w.stmts(n.Body)
	case *FilterBlock:
		w.expr(n.Filter)
		w.stmts(n.Body)
	case *With:
		for i := range n.Targets {
			w.expr(n.Targets[i])
			if i < len(n.Values) {
				w.expr(n.Values[i])
			}
		}
		w.stmts(n.Body)
	case *Include:
		w.expr(n.Template)
	case *Import:
		w.expr(n.Template)
	case *FromImport:
		w.expr(n.Template)
	case *Extends:
		w.expr(n.Template)
	case *Block:
		w.stmts(n.Body)
	case *Do:
		w.expr(n.X)
	case *Generation:
		w.stmts(n.Body)
	case *AutoescapeBlock:
		w.expr(n.X)
		w.stmts(n.Body)
	}
}

func (w *walker) args(a CallArgs) {
	for _, x := range a.Args {
		w.expr(x)
	}
	for _, k := range a.Kwargs {
		w.expr(k.Value)
	}
	w.expr(a.DynArgs)
	w.expr(a.DynKwargs)
}

func (w *walker) exprs(xs []Expr) {
	for _, x := range xs {
		w.expr(x)
	}
}

func (w *walker) expr(x Expr) {
	if x == nil || !w.visit(x) {
		return
	}
	switch n := x.(type) {
	case *TupleLit:
		w.exprs(n.Items)
	case *ListLit:
		w.exprs(n.Items)
	case *DictLit:
		for i := range n.Keys {
			w.expr(n.Keys[i])
			w.expr(n.Values[i])
		}
	case *CondExpr:
		w.expr(n.Then)
		w.expr(n.Test)
		w.expr(n.Else)
	case *BinExpr:
		w.expr(n.Left)
		w.expr(n.Right)
	case *UnaryExpr:
		w.expr(n.X)
	case *CompareExpr:
		w.expr(n.Left)
		w.exprs(n.Rights)
	case *Concat:
		w.exprs(n.Items)
	case *FilterExpr:
		w.expr(n.X)
		w.args(n.Args)
	case *TestExpr:
		w.expr(n.X)
		w.args(n.Args)
	case *CallExpr:
		w.expr(n.Fn)
		w.args(n.Args)
	case *AttrExpr:
		w.expr(n.X)
	case *ItemExpr:
		w.expr(n.X)
		w.expr(n.Key)
	case *SliceExpr:
		w.expr(n.Start)
		w.expr(n.Stop)
		w.expr(n.Step)
	}
}
