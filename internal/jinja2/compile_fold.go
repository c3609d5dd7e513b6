package jinja2

import (
	"context"
	"errors"
	"math"
)

// Constant folding, where Jinja2's changes what a template prints.
//
// Jinja2's compiler folds an expression made only of constants into its
// value at compile time (the optimizer, and the children of an output
// node), and that evaluation is not the one the generated code does:
//
//   - a slice goes through environment.getitem, which turns a TypeError
//     into an Undefined (3[:2] is Undefined), where the generated code
//     subscripts directly (3[:2] raises TypeError);
//   - ~ joins the str of its operands, where the generated code, under
//     autoescape, escapes them unless they are Markup.
//
// The folded value replaces the expression when it has a "safe repr"
// (None, bools, numbers, str, and tuples, lists and dicts of those); an
// output node's child is replaced by any folded value. Otherwise, or when
// the folding raises, the expression runs as compiled, its children folded
// on their own.
//
// The package folds only the expressions whose value can differ (those
// holding a constant slice or ~ of constants), at run time: a constant
// expression gives the same value in every render, and evaluating it when
// it runs keeps its errors on the path the render takes.

// errImpossible is nodes.Impossible: the expression is not constant.
var errImpossible = &Error{Kind: "Impossible", Msg: "not a constant"}

// contextFilters are the built-in filters Jinja2 marks pass_context,
// which it never folds.
var contextFilters = map[string]bool{
	"map": true, "select": true, "reject": true, "selectattr": true, "rejectattr": true, "random": true,
}

// isConstExpr reports whether x may be constant: made of constants, but
// for the operands of and, or and if-else that Jinja2's as_const may not
// evaluate.
func isConstExpr(x Expr) bool {
	switch n := x.(type) {
	case nil:
		return true
	case *Const:
		return true
	case *TupleLit:
		return allConst(n.Items)
	case *ListLit:
		return allConst(n.Items)
	case *DictLit:
		return allConst(n.Keys) && allConst(n.Values)
	case *CondExpr:
		// only the branch taken is folded
		return isConstExpr(n.Test) && (isConstExpr(n.Then) || n.Else == nil || isConstExpr(n.Else))
	case *BinExpr:
		if n.Op == "and" || n.Op == "or" {
			// the right operand may not be evaluated
			return isConstExpr(n.Left)
		}
		return isConstExpr(n.Left) && isConstExpr(n.Right)
	case *UnaryExpr:
		return isConstExpr(n.X)
	case *CompareExpr:
		// Compare.as_const stops at the first comparison that is false:
		// the operands after it may not be evaluated
		return isConstExpr(n.Left) && (len(n.Rights) == 0 || isConstExpr(n.Rights[0]))
	case *Concat:
		return allConst(n.Items)
	case *FilterExpr:
		return n.X != nil && !contextFilters[n.Name] && isConstExpr(n.X) && constArgs(n.Args)
	case *TestExpr:
		return isConstExpr(n.X) && constArgs(n.Args)
	case *AttrExpr:
		return isConstExpr(n.X)
	case *ItemExpr:
		return isConstExpr(n.X) && isConstExpr(n.Key)
	case *SliceExpr:
		return isConstExpr(n.Start) && isConstExpr(n.Stop) && isConstExpr(n.Step)
	}
	return false
}

func allConst(xs []Expr) bool {
	for _, x := range xs {
		if !isConstExpr(x) {
			return false
		}
	}
	return true
}

func constArgs(a CallArgs) bool {
	if !allConst(a.Args) || !isConstExpr(a.DynArgs) || !isConstExpr(a.DynKwargs) {
		return false
	}
	for _, kw := range a.Kwargs {
		if !isConstExpr(kw.Value) {
			return false
		}
	}
	return true
}

// foldMatters reports whether x holds a constant expression whose folded
// value can differ from its compiled one: a constant slice, or ~ of
// constants. The answers are kept per node, so a template's expressions
// are walked once.
func (c *compiler) foldMatters(x Expr) bool {
	if x == nil {
		return false
	}
	if r, ok := c.foldMemo[x]; ok {
		return r
	}
	r := false
	anyOf := func(xs ...Expr) bool {
		for _, e := range xs {
			if c.foldMatters(e) {
				return true
			}
		}
		return false
	}
	args := func(a CallArgs) bool {
		if anyOf(a.Args...) || anyOf(a.DynArgs, a.DynKwargs) {
			return true
		}
		for _, kw := range a.Kwargs {
			if c.foldMatters(kw.Value) {
				return true
			}
		}
		return false
	}
	switch n := x.(type) {
	case *TupleLit:
		r = anyOf(n.Items...)
	case *ListLit:
		r = anyOf(n.Items...)
	case *DictLit:
		r = anyOf(n.Keys...) || anyOf(n.Values...)
	case *CondExpr:
		r = anyOf(n.Test, n.Then, n.Else)
	case *BinExpr:
		r = anyOf(n.Left, n.Right)
	case *UnaryExpr:
		r = anyOf(n.X)
	case *CompareExpr:
		r = anyOf(n.Left) || anyOf(n.Rights...)
	case *Concat:
		r = allConst(n.Items) || anyOf(n.Items...)
	case *FilterExpr:
		r = anyOf(n.X) || args(n.Args) || kwargsOverlap(n.Args) && isConstExpr(n)
	case *TestExpr:
		r = anyOf(n.X) || args(n.Args) || kwargsOverlap(n.Args) && isConstExpr(n)
	case *CallExpr:
		r = anyOf(n.Fn) || args(n.Args)
	case *AttrExpr:
		r = anyOf(n.X)
	case *ItemExpr:
		_, slice := n.Key.(*SliceExpr)
		r = slice && isConstExpr(n) || anyOf(n.X, n.Key)
	case *SliceExpr:
		r = anyOf(n.Start, n.Stop, n.Step)
	}
	if c.foldMemo == nil {
		c.foldMemo = map[Expr]bool{}
	}
	c.foldMemo[x] = r
	return r
}

// kwargsOverlap reports whether a call's ** is a dict literal naming a
// keyword the call names too: as_const lets the dict's value win, where
// the call raises.
func kwargsOverlap(a CallArgs) bool {
	d, ok := a.DynKwargs.(*DictLit)
	if !ok {
		return false
	}
	for _, k := range d.Keys {
		if kc, ok := k.(*Const); ok && kc.Value.kind == KindStr {
			for _, kw := range a.Kwargs {
				if kw.Name == kc.Value.s {
					return true
				}
			}
		}
	}
	return false
}

// foldedKind reports whether Jinja2's code generator tries to fold a
// node of x's kind (its visitor is decorated with optimizeconst).
func foldedKind(x Expr) bool {
	switch x.(type) {
	case *BinExpr, *UnaryExpr, *Concat, *CompareExpr, *AttrExpr, *ItemExpr, *FilterExpr, *TestExpr, *CondExpr:
		return true
	}
	return false
}

// isLiteral reports whether x is a list, tuple or dict literal: the
// optimizer, run over the operands of a node of a folded kind, folds
// those too ((x and {'b': 2[:1], 'b': 0}) never runs the slice), where a
// literal elsewhere ({% set v = {'b': 2[:1], 'b': 0} %}) runs as written.
func isLiteral(x Expr) bool {
	switch x.(type) {
	case *DictLit, *ListLit, *TupleLit:
		return true
	}
	return false
}

// maybeFold compiles x as Jinja2 would fold it, when that matters;
// ok is false when x compiles as usual.
func (c *compiler) maybeFold(x Expr, lenient bool) (evalFn, bool, error) {
	// in a volatile eval context (an autoescape tag whose value is known
	// only at render time) Jinja2's optimizer folds nothing
	if c.constMode > 0 || c.escVolatile || !foldedKind(x) && !(c.optimizing > 0 && isLiteral(x)) {
		return nil, false, nil
	}
	if c.foldSkip == x {
		c.foldSkip = nil
		return nil, false, nil
	}
	if !c.foldMatters(x) {
		return nil, false, nil
	}
	fn, err := c.compileFolded(x, lenient, false)
	return fn, true, err
}

// compileFolded compiles x twice: as Jinja2 folds it and as it runs. At
// run time the folded value is used when the folding does not raise and
// the value may replace x: it has a safe repr, or x is an output node's
// child (anyOK). Otherwise x runs as compiled, its children folded on
// their own.
func (c *compiler) compileFolded(x Expr, lenient, anyOK bool) (evalFn, error) {
	c.constMode++
	folded, ferr := c.expr(x, lenient)
	c.constMode--
	if !anyOK {
		c.foldSkip = x // x itself was just tried
		c.optimizing++
	}
	plain, err := c.expr(x, lenient)
	if !anyOK {
		c.optimizing--
	}
	c.foldSkip = nil
	if err != nil || ferr != nil {
		// a compile error is the compiled code's to report
		return plain, err
	}
	return func(f *frame) (Value, error) {
		v, err := folded(f)
		if err == nil && (anyOK || hasSafeRepr(v)) {
			return v, nil
		}
		if isKind(err, "Unsupported") {
			// Jinja2's folding may succeed where the package cannot
			// follow it (a complex number is truthy): refuse rather
			// than run the expression as compiled and raise another
			// error than Jinja2, or none
			return Value{}, err
		}
		return plain(f)
	}, nil
}

// hasSafeRepr is Jinja2's has_safe_repr: whether a folded value may replace
// its expression.
func hasSafeRepr(v Value) bool {
	switch v.kind {
	case KindNone, KindBool, KindInt, KindFloat, KindStr:
		return true
	case KindList, KindTuple:
		for _, it := range v.list().Items {
			if !hasSafeRepr(it) {
				return false
			}
		}
		return true
	case KindDict:
		d := v.dict()
		for i := range d.keys {
			if !hasSafeRepr(d.keys[i]) || !hasSafeRepr(d.vals[i]) {
				return false
			}
		}
		return true
	case KindObject:
		switch v.ref.(type) {
		case *rangeObj, *complexObj:
			return true
		}
	}
	return false
}

// constSliceUndefined is environment.getitem's answer to a slice Python
// refuses with a TypeError.
func constSliceUndefined(obj Value) Value {
	return Undef(reprStr(objectTypeRepr(obj)) + " has no element slice")
}

// constConcat is Concat.as_const: the str of each operand, joined, never
// Markup.
func constConcat(items []evalFn) evalFn {
	return func(f *frame) (Value, error) {
		var b []byte
		for _, it := range items {
			v, err := it(f)
			if err != nil {
				return Value{}, err
			}
			s, err := ToStr(f.c, v)
			if err != nil {
				return Value{}, err
			}
			b = append(b, s...)
		}
		return StrV(string(b)), nil
	}
}

// isKind reports whether err is an *Error of the given kind.
func isKind(err error, kind string) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == kind
}

// deadRight reports whether Jinja2's optimizer drops the right operand of
// the and/or n before code generation: the left operand is constant and
// folds, at compile time, to a value with a safe repr that decides the
// result ({{ 0 and x|nofilter }} is Const(0)). The package folds at run
// time, which gives the same value; what differs is that the dropped
// operand's unknown filter or test is no compile error. So it is asked
// only when the right operand names one.
func (c *compiler) deadRight(n *BinExpr) bool {
	if n.Op != "and" && n.Op != "or" || c.constMode > 0 || !isConstExpr(n.Left) || !c.namesUnknown(n.Right) {
		return false
	}
	v, ok := c.constValue(n.Left)
	return ok && hasSafeRepr(v) && v.Truth() == (n.Op == "or")
}

// foldedPrint is the child of a print as Jinja2 folds it at compile time,
// whatever its value, when that matters: the child names an unknown
// filter or test on a path the folding does not take ({{ 3[:2] and
// x|nofilter }} prints ”). ok is false otherwise.
func (c *compiler) foldedPrint(x Expr) (fn evalFn, ok bool) {
	if c.constMode > 0 || !isConstExpr(x) || !c.namesUnknown(x) {
		return nil, false
	}
	v, ok := c.constValue(x)
	if !ok {
		return nil, false
	}
	return func(*frame) (Value, error) { return v, nil }, true
}

// constValue evaluates the constant expression x at compile time, as
// Jinja2's as_const does; ok is false when that raises.
func (c *compiler) constValue(x Expr) (v Value, ok bool) {
	// an unknown filter or test makes as_const raise when it is reached
	c.constMode++
	c.soft++
	fn, err := c.expr(x, false)
	c.soft--
	c.constMode--
	if err != nil {
		return Value{}, false
	}
	rc := newCtx(context.Background(), c.env)
	v, err = fn(&frame{c: rc, tc: &tctx{}})
	return v, err == nil
}

// powNegBase is the base of x ** y as Python runs Jinja2's code for it,
// negated, when that is not x: Jinja2's optimizer folds a constant base
// into its value, and its code generator writes a folded value as its
// repr, unparenthesized, so a negative base -2 becomes "(-2 ** y)",
// which Python reads as -(2 ** y) ((-2) ** x is -4 for x = 2). That code
// runs where the power itself does not fold: y is not constant, or
// folding it raises. Not in a volatile eval context, where the optimizer
// folds nothing.
func (c *compiler) powNegBase(n *BinExpr) (Value, bool) {
	if n.Op != "**" || c.constMode > 0 || c.escVolatile || !isConstExpr(n.Left) || c.namesUnknown(n.Left) {
		return Value{}, false
	}
	x, ok := c.constValue(n.Left)
	if !ok || !(x.kind == KindInt && (x.n < 0 || x.ref != nil && bigOf(x).Sign() < 0) ||
		x.kind == KindFloat && math.Signbit(x.f()) && !math.IsInf(x.f(), 0) && !math.IsNaN(x.f())) {
		return Value{}, false
	}
	if isConstExpr(n.Right) && !c.namesUnknown(n.Right) {
		if y, ok := c.constValue(n.Right); ok {
			_, err := BinOp(newCtx(context.Background(), c.env), "**", x, y)
			if err == nil || isKind(err, "Unsupported") {
				return Value{}, false // the power folds
			}
		}
	}
	return numNeg(x), true
}

// namesUnknown reports whether x applies a filter or a test the
// environment does not have.
func (c *compiler) namesUnknown(x Expr) bool {
	return anyNode(func(nd Node) bool {
		switch n := nd.(type) {
		case *FilterExpr:
			return c.env.filter(n.Name) == nil
		case *TestExpr:
			return c.env.test(n.Name) == nil
		}
		return false
	}, nil, nil, x)
}

// unknownIn is the error Jinja2's code generator raises for x outside a
// conditional: the first filter or test the environment does not have, an
// outer one before its operand and arguments, nothing inside a conditional
// expression (where an unknown name fails only when it runs) and nothing
// in what Jinja2's optimizer drops (deadRight, deadCompare).
func (c *compiler) unknownIn(x Expr) error {
	var err error
	walkExprs(func(nd Node) bool {
		if err != nil {
			return false
		}
		switch n := nd.(type) {
		case *CondExpr:
			return false
		case *BinExpr:
			if c.deadRight(n) {
				// the optimizer dropped the right operand
				err = c.unknownIn(n.Left)
				return false
			}
		case *CompareExpr:
			if _, ok := c.deadCompare(n); ok {
				// folded to False, its operands constants
				return false
			}
		case *FilterExpr:
			if c.env.filter(n.Name) == nil {
				err = c.errAt(n, "TemplateAssertionError", "No filter named "+pyQuote(n.Name)+".")
			}
		case *TestExpr:
			if c.env.test(n.Name) == nil {
				err = c.errAt(n, "TemplateAssertionError", "No test named "+pyQuote(n.Name)+".")
			}
		}
		return err == nil
	}, x)
	return err
}

// deadCompare is a comparison chain that Jinja2's optimizer folds to
// False before code generation: Compare.as_const evaluates the operands
// one at a time and stops at the first comparison that is false, so the
// operands after it, which need not be constant, are never compiled. As
// deadRight does for and/or, the package asks only when the chain names
// an unknown filter or test, which would otherwise fail the template.
func (c *compiler) deadCompare(n *CompareExpr) (evalFn, bool) {
	if c.constMode > 0 || !isConstExpr(n.Left) || !c.namesUnknown(n) {
		return nil, false
	}
	for i := range n.Rights {
		if !isConstExpr(n.Rights[i]) {
			return nil, false
		}
		v, ok := c.constValue(&CompareExpr{At: n.At, Left: n.Left, Ops: n.Ops[:i+1], Rights: n.Rights[:i+1]})
		if !ok {
			return nil, false
		}
		if !v.Truth() {
			return func(*frame) (Value, error) { return BoolV(false), nil }, true
		}
	}
	return nil, false
}

// optimizedKind reports whether Jinja2's code generator runs its
// optimizer over a node of x's kind (an optimizeconst visitor): the
// folded kinds and calls.
func optimizedKind(x Expr) bool {
	if _, call := x.(*CallExpr); call {
		return true
	}
	return foldedKind(x)
}

// stmtOptimizerError is the error Jinja2's optimizer raises at compile
// time over the expressions of s (not of the statements inside it): each
// outermost node of an optimized kind is handed to it whole; the literals
// above such nodes are compiled as written. Nothing is folded in a
// volatile eval context.
//
// Jinja2's code generator reaches some of a statement's expressions
// after its body or in another order than they are written: a call
// block's call after its body (compileCallBlock asks), a filter block's
// and a set block's filter after the body (compileCaptured asks), a for
// loop's condition before its iterable.
func (c *compiler) stmtOptimizerError(s Stmt) error {
	switch n := s.(type) {
	case *CallBlock:
		var err error
		for i := 0; i < len(n.Params) && err == nil; i++ {
			err = c.exprOptimizerError(n.Params[i].Default)
		}
		return err
	case *FilterBlock, *SetBlock:
		return nil
	case *For:
		if err := c.exprOptimizerError(n.Filter); err != nil {
			return err
		}
		return c.exprOptimizerError(n.Iter)
	}
	return c.nodeOptimizerError(s, func(w *walker) { w.stmt(s) })
}

// exprOptimizerError is stmtOptimizerError for one expression, nil or
// not, of a statement.
func (c *compiler) exprOptimizerError(x Expr) error {
	if x == nil {
		return nil
	}
	return c.nodeOptimizerError(nil, func(w *walker) { w.expr(x) })
}

// nodeOptimizerError runs Jinja2's optimizer over the outermost nodes of
// an optimized kind that walk reaches, without entering a statement
// other than own.
func (c *compiler) nodeOptimizerError(own Stmt, walk func(*walker)) error {
	if c.escVolatile || c.constMode > 0 {
		return nil
	}
	var err error
	w := walker{visit: func(nd Node) bool {
		if err != nil {
			return false
		}
		if st, ok := nd.(Stmt); ok {
			return st == own
		}
		if x, ok := nd.(Expr); ok && optimizedKind(x) {
			err = c.optimizerError(x)
			return false
		}
		return true
	}}
	walk(&w)
	return err
}

// optimizerError is the error Jinja2's optimizer raises at compile time
// over x, a node it is handed: it folds every node below x, and
// Dict.as_const, unlike the other nodes' as_const, lets the TypeError of
// an unhashable constant key through ({{ ({[]: 1}).a }} fails the
// template, even in a branch never taken; {% set v = {[]: 1} %} and
// {{ {[]: 1} }} raise only when they run). The pairs are folded in
// order, each key and value before the key is hashed; a pair that is
// not constant stops the folding (nodes.Impossible).
func (c *compiler) optimizerError(x Expr) error {
	var err error
	walkExprs(func(nd Node) bool {
		if err != nil {
			return false
		}
		d, ok := nd.(*DictLit)
		if !ok {
			return true
		}
		for i := range d.Keys {
			if !isConstExpr(d.Keys[i]) || !isConstExpr(d.Values[i]) {
				break
			}
			k, ok := c.constValue(d.Keys[i])
			if !ok {
				break
			}
			if _, ok := c.constValue(d.Values[i]); !ok {
				break
			}
			if herr := checkHashable(k); herr != nil {
				err = place(herr, c.src.name, d.P)
				return false
			}
		}
		return true
	}, x)
	return err
}
