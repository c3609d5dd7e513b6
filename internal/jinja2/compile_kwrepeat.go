package jinja2

// A call, filter or test that names a keyword twice ({{ x|f(a=1, a=2) }})
// parses in Jinja2, and its code generator writes the keywords as they
// are: Python's compiler refuses the module, "keyword argument repeated:
// a". Where Jinja2 folds the expression instead (its as_const gathers
// the keywords in a dict, the last value winning), no code is written
// and the template renders.

// repeatedKwarg returns the index of the first keyword whose name an
// earlier one has, -1 when none has.
func repeatedKwarg(kw []KwargExpr) int {
	for i := range kw {
		for j := 0; j < i; j++ {
			if kw[j].Name == kw[i].Name {
				return i
			}
		}
	}
	return -1
}

// lastKwargs returns kw with each name once, where it first appears, with
// the value it is given last.
func lastKwargs(kw []KwargExpr) []KwargExpr {
	out := make([]KwargExpr, 0, len(kw))
	for i, k := range kw {
		first := true
		for j := 0; j < i; j++ {
			if kw[j].Name == k.Name {
				first = false
			}
		}
		if !first {
			continue
		}
		for j := len(kw) - 1; j > i; j-- {
			if kw[j].Name == k.Name {
				k.Value = kw[j].Value
				break
			}
		}
		out = append(out, k)
	}
	return out
}

// kwargValues compiles the values kw gives the keyword name, evaluated in
// order, the last one's value the result: as_const's dict of a name given
// twice, whose earlier value's error is the folding's too.
func (c *compiler) kwargValues(kw []KwargExpr, name string) (evalFn, error) {
	var fns []evalFn
	for _, k := range kw {
		if k.Name != name {
			continue
		}
		fn, err := c.compileExpr(k.Value)
		if err != nil {
			return nil, err
		}
		fns = append(fns, fn)
	}
	return func(f *frame) (Value, error) {
		var v Value
		for _, fn := range fns {
			var err error
			if v, err = fn(f); err != nil {
				return Value{}, err
			}
		}
		return v, nil
	}, nil
}

// callArgsOf returns the arguments of a call, filter or test, ok false
// for any other node.
func callArgsOf(x Expr) (CallArgs, bool) {
	switch n := x.(type) {
	case *CallExpr:
		return n.Args, true
	case *FilterExpr:
		return n.Args, true
	case *TestExpr:
		return n.Args, true
	}
	return CallArgs{}, false
}

// hasRepeatedKwarg reports whether x holds a call, filter or test
// naming a keyword twice.
func hasRepeatedKwarg(x Expr) bool { return anyNode(repeatsKwarg, nil, nil, x) }

// repeatsKwarg reports whether n is a call, filter or test naming a
// keyword twice.
func repeatsKwarg(n Node) bool {
	if cb, ok := n.(*CallBlock); ok && callerKwarg(cb) {
		return true
	}
	e, ok := n.(Expr)
	if !ok {
		return false
	}
	a, ok := callArgsOf(e)
	return ok && repeatedKwarg(a.Kwargs) >= 0
}

// repeatedKwargErr is the SyntaxError of the first call, filter or test
// (in the order of the code Jinja2 generates, as duplicateParam orders
// the blocks) naming a keyword twice whose code is generated: not folded
// as a print's constant value (as_const, in any eval context) nor by the
// optimizer (a value with a safe repr, not in a volatile eval context).
// Nil when there is none. The message leaves out Python's
// "(<template>, line N)".
func (c *compiler) repeatedKwargErr(body []Stmt) error {
	if !hasRepeatedKwargStmts(body) {
		return nil
	}
	savedOn, savedVolatile := c.escOn, c.escVolatile
	defer func() { c.escOn, c.escVolatile = savedOn, savedVolatile }()
	w := kwRepeatWalk{c: c}
	w.stmts(body)
	if w.found == nil {
		var blocks []*Block
		Walk(body, func(n Node) bool {
			if b, ok := n.(*Block); ok {
				blocks = append(blocks, b)
			}
			return true
		})
		for i := 0; w.found == nil && i < len(blocks); i++ {
			c.escOn, c.escVolatile = savedOn, savedVolatile
			w.stmts(blocks[i].Body)
		}
	}
	if w.found == nil {
		return nil
	}
	a, _ := callArgsOf(w.found)
	name := "caller" // a call block's call given caller=, which Jinja2 writes again
	if i := repeatedKwarg(a.Kwargs); i >= 0 {
		name = a.Kwargs[i].Name
	}
	return c.errAt(w.found, "SyntaxError", "keyword argument repeated: "+name)
}

// kwRepeatWalk is repeatedKwargErr's walk of statements in the order
// of Jinja2's code, the autoescape setting of each place in the
// compiler's escOn and escVolatile; found is the first expression whose
// generated code names a keyword twice.
type kwRepeatWalk struct {
	c     *compiler
	found Expr
}

// stmts walks ss up to the first expression found.
func (w *kwRepeatWalk) stmts(ss []Stmt) {
	c := w.c
	for _, s := range ss {
		if w.found != nil {
			return
		}
		switch n := s.(type) {
		case *AutoescapeBlock:
			w.autoescape(n)
		case *Print:
			if !c.skipped[n] {
				w.found = c.generatedRepeat(n.X, true)
			}
		case *Block:
			// compiled after the top level
		default:
			w.inner(s)
		}
	}
}

// autoescape walks an autoescape block: its expression, then its body
// with the setting it gives.
func (w *kwRepeatWalk) autoescape(n *AutoescapeBlock) {
	c := w.c
	if w.found = c.generatedRepeat(n.X, false); w.found != nil {
		return
	}
	on, volatile := c.escOn, c.escVolatile
	if v, ok := c.autoescapeConst(n.X); ok {
		c.escOn = v
	} else {
		c.escVolatile = true
	}
	w.stmts(n.Body)
	c.escOn, c.escVolatile = on, volatile
}

// inner walks any other statement s: its expressions, a call block's
// caller before its call, and the autoescape blocks, prints and blocks
// in it as stmts does.
func (w *kwRepeatWalk) inner(s Stmt) {
	Walk([]Stmt{s}, func(n Node) bool {
		if w.found != nil {
			return false
		}
		switch n := n.(type) {
		case *CallBlock:
			if callerKwarg(n) {
				// the caller's code is written before the call
				w.stmts(n.Body)
				if w.found == nil {
					w.found = n.Call
				}
				return false
			}
		case *AutoescapeBlock, *Print, *Block:
			if n != s {
				w.stmts([]Stmt{n.(Stmt)})
				return false
			}
		case Expr:
			w.found = w.c.generatedRepeat(n, false)
			return false
		}
		return true
	})
}

// callerKwarg reports whether a call block's call names the keyword
// caller, which Jinja2's code generator writes once more after the
// call's own keywords (caller=caller): Python's compiler refuses it.
func callerKwarg(cb *CallBlock) bool {
	if cb.Call == nil {
		return false
	}
	for _, k := range cb.Call.Args.Kwargs {
		if k.Name == "caller" {
			return true
		}
	}
	return false
}

// hasRepeatedKwargStmts reports whether any expression of body names a
// keyword twice.
func hasRepeatedKwargStmts(body []Stmt) bool { return anyNode(repeatsKwarg, nil, body) }

// generatedRepeat returns the first node of x naming a keyword twice
// whose code Jinja2 generates, nil when none is. output marks a print's
// expression, which Jinja2 folds whatever its value.
func (c *compiler) generatedRepeat(x Expr, output bool) Expr {
	if x == nil || !hasRepeatedKwarg(x) {
		return nil
	}
	if output && isConstExpr(x) {
		if _, ok := c.constValue(x); ok {
			return nil
		}
	}
	return c.repeatIn(x)
}

// repeatIn is generatedRepeat below a node whose code is generated: a
// node the optimizer folds into a value with a safe repr has none.
func (c *compiler) repeatIn(x Expr) Expr {
	if x == nil || !hasRepeatedKwarg(x) {
		return nil
	}
	if !c.escVolatile && isConstExpr(x) {
		if v, ok := c.constValue(x); ok && hasSafeRepr(v) {
			return nil
		}
	}
	if a, ok := callArgsOf(x); ok && repeatedKwarg(a.Kwargs) >= 0 {
		// Python's compiler checks a call's keywords before its arguments
		return x
	}
	var found Expr
	walkExprs(func(n Node) bool {
		if n == Node(x) {
			return true
		}
		if found == nil {
			found = c.repeatIn(n.(Expr))
		}
		return false
	}, x)
	return found
}
