package jinja2

// A field read into a name at the start of a loop's body,
//
//	{% for message in messages %}{% set content = message['content'] %}…
//
// is the same value wherever the body reads the name, when nothing in the
// body can change the loop's item, the dict it is or the name: the body
// then reads message['content'] where it reads content, and the set only
// evaluates the field (so that what raises there still raises there),
// storing nothing. Storing it took a field at a time copy into the slot
// whose str pointer changes at every message, a write barrier while the
// collector marks.
//
// What the body may hold is narrow, so that no path can change the item or
// the name: text, prints, if, break, continue and sets of other plain
// names, with expressions of the parser's kinds that call nothing (no
// call: a method could change the dict, a macro could be given it) and
// apply only built-in filters and tests.

// aliasedBody returns the body of a loop over target with the first set
// of a name to target[str] made an evaluation only and the name's reads
// made that field's; ok is false when the body does not qualify.
func (c *compiler) aliasedBody(target Expr, body []Stmt) (out []Stmt, ok bool) {
	item, isName := target.(*Name)
	if !isName {
		return nil, false
	}
	k := -1
	var alias string
	var field *ItemExpr
	for i, st := range body {
		if _, text := st.(*Text); text {
			continue
		}
		set, isSet := st.(*Set)
		if !isSet {
			return nil, false
		}
		t, isName := set.Target.(*Name)
		x, isItem := set.Value.(*ItemExpr)
		if !isName || !isItem {
			return nil, false
		}
		m, isName := x.X.(*Name)
		key, isConst := x.Key.(*Const)
		if !isName || m.Name != item.Name || !isConst || key.Value.kind != KindStr || t.Name == item.Name || t.Name == "loop" {
			return nil, false
		}
		k, alias, field = i, t.Name, x
		break
	}
	if k < 0 {
		return nil, false
	}
	a := aliaser{c: c, name: alias, item: item.Name, field: field}
	out = make([]Stmt, len(body))
	copy(out, body)
	out[k] = &Do{At: body[k].(*Set).At, X: field}
	for i := k + 1; i < len(out); i++ {
		st, ok := a.stmt(out[i])
		if !ok {
			return nil, false
		}
		out[i] = st
	}
	return out, true
}

// aliaser rewrites a loop body's reads of name as field's.
type aliaser struct {
	c          *compiler
	name, item string
	field      *ItemExpr
}

func (a *aliaser) stmts(body []Stmt) ([]Stmt, bool) { return rewriteAll(body, a.stmt) }

func (a *aliaser) stmt(st Stmt) (Stmt, bool) {
	switch n := st.(type) {
	case *Text, *Break, *Continue:
		return st, true
	case *Print:
		x, ok := a.expr(n.X)
		if !ok {
			return nil, false
		}
		if x == n.X {
			return st, true
		}
		return &Print{At: n.At, X: x}, true
	case *Set:
		t, isName := n.Target.(*Name)
		if !isName || t.Name == a.name || t.Name == a.item || t.Name == "loop" {
			return nil, false
		}
		x, ok := a.expr(n.Value)
		if !ok {
			return nil, false
		}
		if x == n.Value {
			return st, true
		}
		return &Set{At: n.At, Target: n.Target, Value: x}, true
	case *If:
		cp := *n
		changed := false
		cp.Tests = make([]Expr, len(n.Tests))
		for i, t := range n.Tests {
			x, ok := a.expr(t)
			if !ok {
				return nil, false
			}
			cp.Tests[i], changed = x, changed || x != t
		}
		cp.Bodies = make([][]Stmt, len(n.Bodies))
		for i, b := range n.Bodies {
			nb, ok := a.stmts(b)
			if !ok {
				return nil, false
			}
			cp.Bodies[i], changed = nb, changed || len(b) > 0 && &nb[0] != &b[0]
		}
		if n.Else != nil {
			nb, ok := a.stmts(n.Else)
			if !ok {
				return nil, false
			}
			cp.Else, changed = nb, changed || len(nb) > 0 && &nb[0] != &n.Else[0]
		}
		if !changed {
			return st, true
		}
		return &cp, true
	}
	return nil, false
}

// exprs rewrites xs, returning xs itself when nothing in it changed.
func (a *aliaser) exprs(xs []Expr) ([]Expr, bool) { return rewriteAll(xs, a.expr) }

// rewriteAll is xs with each item rewritten by f, xs itself when f
// changed none, or false when f refuses one.
func rewriteAll[T comparable](xs []T, f func(T) (T, bool)) ([]T, bool) {
	var out []T
	for i, x := range xs {
		n, ok := f(x)
		if !ok {
			return nil, false
		}
		if n != x && out == nil {
			out = make([]T, len(xs))
			copy(out, xs)
		}
		if out != nil {
			out[i] = n
		}
	}
	if out == nil {
		return xs, true
	}
	return out, true
}

// args rewrites a filter's or a test's arguments.
func (a *aliaser) args(ca CallArgs) (CallArgs, bool, bool) {
	args, ok := a.exprs(ca.Args)
	if !ok {
		return ca, false, false
	}
	changed := len(args) > 0 && &args[0] != &ca.Args[0]
	out := ca
	out.Args = args
	if len(ca.Kwargs) > 0 {
		out.Kwargs = make([]KwargExpr, len(ca.Kwargs))
		for i, kw := range ca.Kwargs {
			x, ok := a.expr(kw.Value)
			if !ok {
				return ca, false, false
			}
			out.Kwargs[i] = KwargExpr{Name: kw.Name, Value: x}
			changed = changed || x != kw.Value
		}
	}
	for _, d := range []*Expr{&out.DynArgs, &out.DynKwargs} {
		if *d != nil {
			x, ok := a.expr(*d)
			if !ok {
				return ca, false, false
			}
			changed = changed || x != *d
			*d = x
		}
	}
	return out, changed, true
}

// list rewrites x, a node made of items (its operands, or the items of a
// tuple, a list or a concatenation): x itself when none of them changed,
// else what build makes of the rewritten ones.
func (a *aliaser) list(x Expr, items []Expr, build func([]Expr) Expr) (Expr, bool) {
	out, ok := a.exprs(items)
	if !ok {
		return nil, false
	}
	if len(out) > 0 && &out[0] != &items[0] {
		return build(out), true
	}
	return x, true
}

// applied rewrites x, a filter or a test applied to operand with args:
// x itself when neither changed, else what build makes of the rewritten
// ones.
func (a *aliaser) applied(x, operand Expr, ca CallArgs, build func(Expr, CallArgs) Expr) (Expr, bool) {
	o, ok := a.expr(operand)
	if !ok {
		return nil, false
	}
	args, changed, ok := a.args(ca)
	if !ok {
		return nil, false
	}
	if o != operand || changed {
		return build(o, args), true
	}
	return x, true
}

// expr rewrites x; it returns x itself when nothing in it changed, and ok
// false for what the body may not hold.
func (a *aliaser) expr(x Expr) (Expr, bool) {
	if x == nil {
		return nil, true
	}
	switch n := x.(type) {
	case *Const:
		return x, true
	case *Name:
		if n.Name != a.name {
			return x, true
		}
		// a node of its own at each read: the compiler keys some of its
		// choices by node
		return &ItemExpr{At: n.At, X: &Name{At: n.At, Name: a.item}, Key: a.field.Key}, true
	case *TupleLit:
		return a.list(x, n.Items, func(items []Expr) Expr { return &TupleLit{At: n.At, Items: items} })
	case *ListLit:
		return a.list(x, n.Items, func(items []Expr) Expr { return &ListLit{At: n.At, Items: items} })
	case *DictLit:
		keys, ok1 := a.exprs(n.Keys)
		vals, ok2 := a.exprs(n.Values)
		if !ok1 || !ok2 {
			return nil, false
		}
		if len(keys) > 0 && (&keys[0] != &n.Keys[0] || &vals[0] != &n.Values[0]) {
			return &DictLit{At: n.At, Keys: keys, Values: vals}, true
		}
		return x, true
	case *CondExpr:
		return a.list(x, []Expr{n.Test, n.Then, n.Else}, func(o []Expr) Expr {
			return &CondExpr{At: n.At, Test: o[0], Then: o[1], Else: o[2]}
		})
	case *BinExpr:
		return a.list(x, []Expr{n.Left, n.Right}, func(o []Expr) Expr {
			return &BinExpr{At: n.At, Op: n.Op, Left: o[0], Right: o[1]}
		})
	case *UnaryExpr:
		return a.list(x, []Expr{n.X}, func(o []Expr) Expr { return &UnaryExpr{At: n.At, Op: n.Op, X: o[0]} })
	case *CompareExpr:
		l, ok1 := a.expr(n.Left)
		rs, ok2 := a.exprs(n.Rights)
		if !ok1 || !ok2 {
			return nil, false
		}
		if l != n.Left || len(rs) > 0 && &rs[0] != &n.Rights[0] {
			return &CompareExpr{At: n.At, Left: l, Ops: n.Ops, Rights: rs}, true
		}
		return x, true
	case *Concat:
		return a.list(x, n.Items, func(items []Expr) Expr { return &Concat{At: n.At, Items: items} })
	case *FilterExpr:
		if _, own := a.c.env.filters[n.Name]; own || n.X == nil {
			return nil, false
		}
		return a.applied(x, n.X, n.Args, func(o Expr, args CallArgs) Expr {
			return &FilterExpr{At: n.At, X: o, Name: n.Name, Args: args}
		})
	case *TestExpr:
		if _, own := a.c.env.tests[n.Name]; own {
			return nil, false
		}
		return a.applied(x, n.X, n.Args, func(o Expr, args CallArgs) Expr {
			return &TestExpr{At: n.At, X: o, Name: n.Name, Args: args}
		})
	case *AttrExpr:
		return a.list(x, []Expr{n.X}, func(o []Expr) Expr { return &AttrExpr{At: n.At, X: o[0], Name: n.Name, NameP: n.NameP} })
	case *ItemExpr:
		return a.list(x, []Expr{n.X, n.Key}, func(o []Expr) Expr { return &ItemExpr{At: n.At, X: o[0], Key: o[1]} })
	case *SliceExpr:
		return a.list(x, []Expr{n.Start, n.Stop, n.Step}, func(o []Expr) Expr {
			return &SliceExpr{At: n.At, Start: o[0], Stop: o[1], Step: o[2]}
		})
	}
	// a call, or a kind this file does not know
	return nil, false
}
