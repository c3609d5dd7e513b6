package jinja2

import (
	"strings"
	"sync/atomic"
)

// The expressions' compilation. Every error an expression raises carries
// the place of the node that raised it.

func (c *compiler) compileExpr(x Expr) (evalFn, error) {
	return c.expr(x, false)
}

// expr compiles x; lenient marks the operand of a test or filter that
// accepts a missing name under StrictNames (defined, undefined, default).
func (c *compiler) expr(x Expr, lenient bool) (evalFn, error) {
	if fn, ok, err := c.maybeFold(x, lenient); ok {
		return fn, err
	}
	if c.constMode > 0 {
		switch x.(type) {
		case *Name, *CallExpr:
			return func(*frame) (Value, error) { return Value{}, errImpossible }, nil
		case *FilterExpr, *TestExpr:
			// a filter's or test's as_const raises Impossible in a volatile
			// eval context: {{ 1[1:5]|length }} under {% autoescape x %}
			// runs the slice (TypeError) where it would fold to 0
			if c.escVolatile {
				return func(*frame) (Value, error) { return Value{}, errImpossible }, nil
			}
		}
	}
	if c.constMode == 0 && !lenient && c.placing != x {
		if place := c.deepPlace(x); place != nil {
			return c.placedExpr(x, place)
		}
	}
	if c.constMode == 0 {
		if fn, err := c.fastExpr(x); fn != nil || err != nil {
			return fn, err
		}
	}
	switch n := x.(type) {
	case *Const:
		v := n.Value
		if v.kind == KindStr && !v.IsSafe() {
			v = strVScan(v.s) // a literal's ASCII-ness is read once, here
		}
		return func(*frame) (Value, error) { return v, nil }, nil
	case *Name:
		return c.compileName(n, lenient), nil
	case *TupleLit:
		items, err := c.exprs(n.Items)
		if err != nil {
			return nil, err
		}
		return sequenceDisplay(KindTuple, items), nil
	case *ListLit:
		items, err := c.exprs(n.Items)
		if err != nil {
			return nil, err
		}
		return sequenceDisplay(KindList, items), nil
	case *DictLit:
		return c.compileDictLit(n)
	case *CondExpr:
		return c.compileCondExpr(n)
	case *BinExpr:
		return c.compileBin(n)
	case *UnaryExpr:
		return c.compileUnary(n)
	case *CompareExpr:
		return c.compileCompare(n)
	case *Concat:
		return c.compileConcat(n)
	case *FilterExpr:
		return c.compileFilterExpr(n)
	case *TestExpr:
		return c.compileTest(n)
	case *CallExpr:
		return c.compileCall(n)
	case *AttrExpr:
		return c.compileAttr(n)
	case *ItemExpr:
		return c.compileGetItem(n)
	case *NSRef:
		return nil, c.errAt(n, "TemplateSyntaxError", "unexpected '.'")
	case *SliceExpr:
		return nil, c.errAt(n, "TemplateSyntaxError", "unexpected ':'")
	}
	return nil, c.errAt(x, "Unsupported", "this expression is not supported")
}

// compileConcat compiles a ~ b ~ …: each operand's str, joined.
func (c *compiler) compileConcat(n *Concat) (evalFn, error) {
	items, err := c.exprs(n.Items)
	if err != nil {
		return nil, err
	}
	if c.constMode > 0 {
		return constConcat(items), nil
	}
	return c.concatOf(items, n.P, false), nil
}

// compileFilterExpr compiles x|name(…): a filter without arguments of
// its own by compileBareFilter, any other by compileFilter, applied to
// what x gives.
func (c *compiler) compileFilterExpr(n *FilterExpr) (evalFn, error) {
	if fn, err := c.compileBareFilter(n); fn != nil || err != nil {
		return fn, err
	}
	fn, err := c.compileFilter(n, nil)
	if err != nil {
		return nil, err
	}
	return func(f *frame) (Value, error) { return fn(f, Value{}) }, nil
}

// compileDictLit compiles a dict display: every key and value is
// evaluated, in order, before the keys are hashed.
func (c *compiler) compileDictLit(n *DictLit) (evalFn, error) {
	name := c.src.name
	keys, err := c.exprs(n.Keys)
	if err != nil {
		return nil, err
	}
	vals, err := c.exprs(n.Values)
	if err != nil {
		return nil, err
	}
	pos := n.P
	return func(f *frame) (Value, error) {
		// a dict display evaluates every key and value, in order,
		// before BUILD_MAP hashes the keys
		var buf [8]Value
		kv := buf[:0]
		if 2*len(keys) > len(buf) {
			kv = make([]Value, 0, 2*len(keys))
		}
		for i := range keys {
			k, err := keys[i](f)
			if err != nil {
				return Value{}, err
			}
			v, err := vals[i](f)
			if err != nil {
				return Value{}, err
			}
			kv = append(kv, k, v)
		}
		d := NewDict(len(keys))
		for i := 0; i < len(kv); i += 2 {
			if err := checkHashable(kv[i]); err != nil {
				return Value{}, place(err, name, pos)
			}
			d.Set(kv[i], kv[i+1])
		}
		return DictV(d), nil
	}, nil
}

// compileCondExpr compiles x if test else y; without an else, a false
// test gives an Undefined that names the line (or, folding a constant,
// raises Impossible as CondExpr.as_const does).
func (c *compiler) compileCondExpr(n *CondExpr) (evalFn, error) {
	c.soft++
	defer func() { c.soft-- }()
	test, err := c.compileExpr(n.Test)
	if err != nil {
		return nil, err
	}
	then, err := c.compileExpr(n.Then)
	if err != nil {
		return nil, err
	}
	var els evalFn
	if n.Else != nil {
		if els, err = c.compileExpr(n.Else); err != nil {
			return nil, err
		}
	} else if c.constMode > 0 {
		// CondExpr.as_const: "if we evaluate to an undefined
		// object, we better do that at runtime"
		els = func(*frame) (Value, error) { return Value{}, errImpossible }
	} else {
		u := Undef("the inline if-expression on line " + istr(n.P.Line) + " evaluated to false and no else section was defined.")
		els = func(*frame) (Value, error) { return u, nil }
	}
	return func(f *frame) (Value, error) {
		t, err := test(f)
		if err != nil {
			return Value{}, err
		}
		if t.Truth() {
			return then(f)
		}
		return els(f)
	}, nil
}

// compileUnary compiles not x, -x and +x.
func (c *compiler) compileUnary(n *UnaryExpr) (evalFn, error) {
	name := c.src.name
	a, err := c.compileExpr(n.X)
	if err != nil {
		return nil, err
	}
	if n.Op == "not" {
		return func(f *frame) (Value, error) {
			v, err := a(f)
			if err != nil {
				return Value{}, err
			}
			return BoolV(!v.Truth()), nil
		}, nil
	}
	op, pos := n.Op, n.P
	return func(f *frame) (Value, error) {
		v, err := a(f)
		if err != nil {
			return Value{}, err
		}
		r, err := UnaryOp(f.c, op, v)
		if err != nil {
			return Value{}, place(err, name, pos)
		}
		return r, nil
	}, nil
}

// compileAttr compiles x.name (attrRef: an attribute, else the item).
func (c *compiler) compileAttr(n *AttrExpr) (evalFn, error) {
	name := c.src.name
	obj, err := c.compileExpr(n.X)
	if err != nil {
		return nil, err
	}
	a := attrRef{name: n.Name, fromDict: dictAttrIsItem(n.Name), tmpl: name, pos: n.P}
	return func(f *frame) (Value, error) {
		o, err := obj(f)
		if err != nil {
			return Value{}, err
		}
		return a.of(f, o)
	}, nil
}

func (c *compiler) exprs(xs []Expr) ([]evalFn, error) {
	out := make([]evalFn, len(xs))
	for i, x := range xs {
		var err error
		if out[i], err = c.compileExpr(x); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// sequenceDisplay makes a tuple or list display an expression: its items
// evaluated in order into a new value of kind, KindTuple or KindList (an
// empty list's items not nil). Not inlined, as boolValue.
//
//go:noinline
func sequenceDisplay(kind Kind, items []evalFn) evalFn {
	return func(f *frame) (Value, error) {
		vs, err := evalAll(f, items)
		if err != nil {
			return Value{}, err
		}
		if vs == nil && kind == KindList {
			vs = []Value{}
		}
		return Value{kind: kind, ref: &List{Items: vs}}, nil
	}
}

func evalAll(f *frame, fns []evalFn) ([]Value, error) {
	if len(fns) == 0 {
		return nil, nil
	}
	vs := make([]Value, len(fns))
	for i, fn := range fns {
		v, err := fn(f)
		if err != nil {
			return nil, err
		}
		vs[i] = v
	}
	return vs, nil
}

func (c *compiler) compileName(n *Name, lenient bool) evalFn {
	ld := c.loadName(n.Name)
	if _, local := resolveFrom(c.sc, c.sc.fn, n.Name); local || !c.env.strictName(n.Name) || lenient || (n.Name == "super" || n.Name == "self") && c.sc.fn.declares(n.Name) {
		return ld
	}
	err := c.errAt(n, "UndefinedError", pyQuote(n.Name)+" is undefined")
	return func(f *frame) (Value, error) {
		v, _ := ld(f)
		if v.Kind() == KindUndefined {
			return Value{}, err
		}
		return v, nil
	}
}

func (c *compiler) compileBin(n *BinExpr) (evalFn, error) {
	a, err := c.compileExpr(n.Left)
	if err != nil {
		return nil, err
	}
	if c.deadRight(n) {
		return a, nil
	}
	b, err := c.compileExpr(n.Right)
	if err != nil {
		return nil, err
	}
	switch n.Op {
	case "and":
		return func(f *frame) (Value, error) {
			x, err := a(f)
			if err != nil || !x.Truth() {
				return x, err
			}
			return b(f)
		}, nil
	case "or":
		return func(f *frame) (Value, error) {
			x, err := a(f)
			if err != nil || x.Truth() {
				return x, err
			}
			return b(f)
		}, nil
	}
	op, name, pos := n.Op, c.src.name, n.P
	if base, ok := c.powNegBase(n); ok {
		// Python reads Jinja2's "(-2 ** y)" as -(2 ** y): the power of
		// the base without its sign, negated
		pow := binOp(func(*frame) (Value, error) { return base, nil }, b, op, name, pos)
		return func(f *frame) (Value, error) {
			r, err := pow(f)
			if err == nil {
				if r, err = UnaryOp(f.c, "-", r); err != nil {
					return Value{}, place(err, name, pos)
				}
			}
			return r, err
		}, nil
	}
	return binOp(a, b, op, name, pos), nil
}

// binOp is a op b, its error placed at name and pos. Not inlined, so that
// its closure is compiled as if written in compileBin (see boolValue).
//
//go:noinline
func binOp(a, b evalFn, op, name string, pos Pos) evalFn {
	return func(f *frame) (Value, error) {
		x, err := a(f)
		if err != nil {
			return Value{}, err
		}
		y, err := b(f)
		if err != nil {
			return Value{}, err
		}
		r, err := BinOp(f.c, op, x, y)
		if err != nil {
			return Value{}, place(err, name, pos)
		}
		return r, nil
	}
}

func (c *compiler) compileCompare(n *CompareExpr) (evalFn, error) {
	if fn, ok := c.deadCompare(n); ok {
		return fn, nil
	}
	left, err := c.compileExpr(n.Left)
	if err != nil {
		return nil, err
	}
	rights, err := c.exprs(n.Rights)
	if err != nil {
		return nil, err
	}
	ops := make([]string, len(n.Ops))
	for i, op := range n.Ops {
		if op == "notin" {
			op = "not in"
		}
		ops[i] = op
	}
	name, pos := c.src.name, n.P
	return func(f *frame) (Value, error) {
		a, err := left(f)
		if err != nil {
			return Value{}, err
		}
		for i, r := range rights {
			b, err := r(f)
			if err != nil {
				return Value{}, err
			}
			if eq, fast := strEqual(ops[i], a, b); fast {
				if !eq {
					return BoolV(false), nil
				}
				a = b
				continue
			}
			ok, err := Compare(f.c, ops[i], a, b)
			if err != nil {
				return Value{}, place(err, name, pos)
			}
			if !ok {
				return BoolV(false), nil
			}
			a = b
		}
		return BoolV(true), nil
	}, nil
}

// compiledArgs are a call's compiled arguments.
type compiledArgs struct {
	args      []evalFn
	kwNames   []string
	kwVals    []evalFn
	dynArgs   evalFn
	dynKwargs evalFn
	// consts is set when every argument is a constant (a str, number,
	// bool or none literal): constArgs and constKw are their values,
	// made once and handed to every call, which must change neither
	// (Filter's rule); their capacity is their length, so that a callee
	// appending to them copies
	consts    bool
	constArgs []Value
	constKw   []Kwarg
	// fn is how Python names the function the arguments go to in an
	// error of its ** (fnStr): empty for a call, which Jinja2 writes as
	// context.call(…); a filter's or test's function otherwise
	fn string
	// folded: compiled as Jinja2's as_const evaluates a filter or test,
	// which updates a dict of the keywords with the ** mapping's (the
	// mapping's value of a name given twice wins)
	folded bool
}

// fnStr is the name Python's errors of a call's ** give its function
// (_PyObject_FunctionStr): in the sandbox, Jinja2 writes a call as
// environment.call(context, …).
func (ca *compiledArgs) fnStr(c *Ctx) string {
	if ca.fn == "" {
		if sandboxed(c) {
			return "jinja2.sandbox.SandboxedEnvironment.call()"
		}
		return "jinja2.runtime.Context.call()"
	}
	return ca.fn
}

func (c *compiler) compileArgs(a CallArgs) (*compiledArgs, error) {
	ca := &compiledArgs{folded: c.constMode > 0}
	var err error
	var all []KwargExpr
	if repeatedKwarg(a.Kwargs) >= 0 {
		// as_const gathers the keywords in a dict: every value is
		// evaluated, the last of a name given twice is the one passed.
		// Such a call runs only as Jinja2 folds it: the code Jinja2
		// generates for it is Python's SyntaxError (repeatedKwargErr)
		all, a.Kwargs = a.Kwargs, lastKwargs(a.Kwargs)
	}
	if ca.args, err = c.exprs(a.Args); err != nil {
		return nil, err
	}
	for _, k := range a.Kwargs {
		v, err := c.compileExpr(k.Value)
		if err != nil {
			return nil, err
		}
		if all != nil {
			if v, err = c.kwargValues(all, k.Name); err != nil {
				return nil, err
			}
		}
		ca.kwNames = append(ca.kwNames, k.Name)
		ca.kwVals = append(ca.kwVals, v)
	}
	if a.DynArgs != nil {
		if ca.dynArgs, err = c.compileExpr(a.DynArgs); err != nil {
			return nil, err
		}
	}
	if a.DynKwargs != nil {
		if ca.dynKwargs, err = c.compileExpr(a.DynKwargs); err != nil {
			return nil, err
		}
	}
	if all == nil {
		// (a name given twice evaluates its every value: no constants)
		ca.constArgs, ca.constKw, ca.consts = constCallArgs(a)
	}
	return ca, nil
}

// constCallArgs returns the values of a call's arguments when every one
// is a scalar constant or a number's sign (what each evaluation of them
// gives), ok false otherwise.
func constCallArgs(a CallArgs) (args []Value, kw []Kwarg, ok bool) {
	if a.DynArgs != nil || a.DynKwargs != nil {
		return nil, nil, false
	}
	scalar := func(x Expr) (Value, bool) {
		if u, ok := x.(*UnaryExpr); ok && (u.Op == "-" || u.Op == "+") {
			// -3: a number's sign, as UnaryOp gives it
			if k, ok := u.X.(*Const); ok && (k.Value.kind == KindInt || k.Value.kind == KindFloat) {
				v, err := UnaryOp(nil, u.Op, k.Value)
				return v, err == nil
			}
			return Value{}, false
		}
		k, isConst := x.(*Const)
		if !isConst {
			return Value{}, false
		}
		v := k.Value
		switch v.kind {
		case KindStr:
			if !v.IsSafe() {
				v = strVScan(v.s) // as the literal compiles
			}
		case KindInt, KindFloat, KindBool, KindNone:
		default:
			return Value{}, false
		}
		return v, true
	}
	for _, x := range a.Args {
		v, ok := scalar(x)
		if !ok {
			return nil, nil, false
		}
		args = append(args, v)
	}
	for _, k := range a.Kwargs {
		v, ok := scalar(k.Value)
		if !ok {
			return nil, nil, false
		}
		kw = append(kw, Kwarg{Name: k.Name, Value: v})
	}
	return args[:len(args):len(args)], kw[:len(kw):len(kw)], true
}

// eval evaluates the arguments; first, when given, is put before them
// (a filter's or a test's operand).
// none reports whether the call has no arguments.
func (ca *compiledArgs) none() bool {
	return len(ca.args) == 0 && len(ca.kwNames) == 0 && ca.dynArgs == nil && ca.dynKwargs == nil
}

func (ca *compiledArgs) eval(f *frame, first *Value) ([]Value, []Kwarg, error) {
	if ca.consts && first == nil {
		return ca.constArgs, ca.constKw, nil
	}
	n := len(ca.args)
	if first != nil {
		n++
	}
	var args []Value
	if n > 0 || ca.dynArgs != nil {
		args = make([]Value, 0, n)
	}
	return ca.evalTo(f, first, args, nil)
}

// evalTo is eval appending to args and kw (memory of the caller's that
// a callee which keeps neither, a macro, can take).
func (ca *compiledArgs) evalTo(f *frame, first *Value, args []Value, kw []Kwarg) ([]Value, []Kwarg, error) {
	if first != nil {
		args = append(args, *first)
	}
	for _, a := range ca.args {
		v, err := a(f)
		if err != nil {
			return nil, nil, err
		}
		args = append(args, v)
	}
	if ca.dynArgs != nil {
		v, err := ca.dynArgs(f)
		if err != nil {
			return nil, nil, err
		}
		items, err := starItems(f.c, v)
		if err != nil {
			return nil, nil, err
		}
		args = append(args, items...)
	}
	if len(ca.kwNames) > 0 {
		if kw == nil {
			kw = make([]Kwarg, 0, len(ca.kwNames))
		}
		for i, k := range ca.kwNames {
			v, err := ca.kwVals[i](f)
			if err != nil {
				return nil, nil, err
			}
			kw = append(kw, Kwarg{Name: k, Value: v})
		}
	}
	if ca.dynKwargs != nil {
		v, err := ca.dynKwargs(f)
		if err != nil {
			return nil, nil, err
		}
		more, err := dictKwargs(f.c, v, ca)
		if err != nil {
			return nil, nil, err
		}
		if kw, err = ca.mergeKwargs(f.c, kw, more); err != nil {
			return nil, nil, err
		}
	}
	return args, kw, nil
}

// mergeKwargs adds the keywords of a call's ** mapping to its named ones
// (kw, which it may append to): Python's DICT_MERGE refuses a name given
// both ways; folded, the mapping's value replaces the named one.
func (ca *compiledArgs) mergeKwargs(c *Ctx, kw, more []Kwarg) ([]Kwarg, error) {
	n := len(kw)
	for _, m := range more {
		dup := -1
		for i := range kw[:n] {
			if kw[i].Name == m.Name {
				dup = i
				break
			}
		}
		switch {
		case dup < 0:
			kw = append(kw, m)
		case ca.folded:
			kw[dup].Value = m.Value
		default:
			return nil, typeErr("%s got multiple values for keyword argument '%s'", ca.fnStr(c), m.Name)
		}
	}
	return kw, nil
}

// attrRef is a compiled x.name.
type attrRef struct {
	name     string
	fromDict bool // dictAttrIsItem(name)
	tmpl     string
	pos      Pos
}

// of is o.name.
func (a *attrRef) of(f *frame, o Value) (Value, error) {
	if a.fromDict && o.kind == KindDict {
		if i := o.dict().findStr(a.name); i >= 0 {
			return o.dict().vals[i], nil
		}
	}
	v, err := f.c.getattr(o, a.name)
	if err != nil {
		return Value{}, place(err, a.tmpl, a.pos)
	}
	return v, nil
}

// compileCallee compiles a call's arguments, then what it calls: the
// order in which compileCall compiles them, so a template wrong in both
// gets the same error whichever way its call is compiled.
func (c *compiler) compileCallee(call *CallExpr) (evalFn, *compiledArgs, error) {
	args, err := c.compileArgs(call.Args)
	if err != nil {
		return nil, nil, err
	}
	fn, err := c.compileExpr(call.Fn)
	if err != nil {
		return nil, nil, err
	}
	return fn, args, nil
}

func (c *compiler) compileCall(n *CallExpr) (evalFn, error) {
	args, err := c.compileArgs(n.Args)
	if err != nil {
		return nil, err
	}
	name, pos, fnAt := c.src.name, n.P, calleeAt(n)
	if ax, ok := n.Fn.(*AttrExpr); ok {
		obj, on, err := c.compileMethodCall(n, ax, args)
		if err != nil {
			return nil, err
		}
		if slot, ok := c.slotOf(ax.X); ok && args.consts && dictAttrIsItem(ax.Name) && methodsNamed(ax.Name).none() {
			// x.name(…) of a dict x in a slot that holds a Go function at
			// name (tool.to_code_prompt() for each tool), read and called
			// in place; anything else as below
			key, as, kw := ax.Name, args.constArgs, args.constKw
			return func(f *frame) (Value, error) {
				if o := &f.slots[slot]; o.kind == KindDict {
					d := o.dict()
					if i := d.findStr(key); i >= 0 && d.vals[i].kind == KindFunc {
						if fn := d.vals[i].ref.(*Func); fn.mac == nil {
							v, err := fn.Call(f.c, as, kw)
							if err != nil {
								return Value{}, placeCall(err, name, pos, fnAt)
							}
							return v, nil
						}
					}
				}
				o, err := obj(f)
				if err != nil {
					return Value{}, err
				}
				return on(f, o)
			}, nil
		}
		return func(f *frame) (Value, error) {
			o, err := obj(f)
			if err != nil {
				return Value{}, err
			}
			return on(f, o)
		}, nil
	}
	fn, err := c.compileExpr(n.Fn)
	if err != nil {
		return nil, err
	}
	return func(f *frame) (Value, error) {
		callee, err := fn(f)
		if err != nil {
			return Value{}, err
		}
		if k, ok := callee.ref.(*pyClass); ok && k == classNamespace && callee.kind == KindObject {
			return callNamespace(f, args, name, pos)
		}
		as, kw, err := args.eval(f, nil)
		if err != nil {
			return Value{}, place(err, name, pos)
		}
		v, err := f.c.Call(callee, as, kw)
		if err != nil {
			return Value{}, placeCall(err, name, pos, fnAt)
		}
		return v, nil
	}, nil
}

// compileMethodCall compiles x.name(…) as the object x and the call on
// its value: a method of a str, list, dict or number is called without
// building the bound method GetAttr would give; in the same order, with
// the same errors.
func (c *compiler) compileMethodCall(n *CallExpr, ax *AttrExpr, args *compiledArgs) (evalFn, func(f *frame, o Value) (Value, error), error) {
	obj, err := c.compileExpr(ax.X)
	if err != nil {
		return nil, nil, err
	}
	name, pos, fnAt := c.src.name, n.P, calleeAt(n)
	a := attrRef{name: ax.Name, fromDict: dictAttrIsItem(ax.Name), tmpl: name, pos: ax.P}
	// the attribute, called as Ctx.Call calls it
	viaAttr := func(f *frame, o Value) (Value, error) {
		callee, err := a.of(f, o)
		if err != nil {
			return Value{}, err
		}
		as, kw, err := args.eval(f, nil)
		if err != nil {
			return Value{}, place(err, name, pos)
		}
		var v Value
		if fn, ok := callee.ref.(*Func); ok && callee.kind == KindFunc && fn.mac == nil {
			v, err = fn.Call(f.c, as, kw)
		} else {
			v, err = f.c.Call(callee, as, kw)
		}
		if err != nil {
			return Value{}, placeCall(err, name, pos, fnAt)
		}
		return v, nil
	}
	ms := methodsNamed(ax.Name)
	if ms.none() {
		// no builtin type has a method of that name (a callable of the
		// data: tool.to_code_prompt())
		return obj, viaAttr, nil
	}
	return obj, func(f *frame, o Value) (Value, error) {
		if m := directMethod(f.c, o, a.name, ms); m != nil {
			as, kw, err := args.eval(f, nil)
			if err != nil {
				return Value{}, place(err, name, pos)
			}
			v, err := m(f.c, o, as, kw)
			if err != nil {
				return Value{}, placeCall(err, name, pos, fnAt)
			}
			return v, nil
		}
		return viaAttr(f, o)
	}, nil
}

// constStrSlice compiles x[a:b] whose bounds are int constants (or
// omitted) and whose step is omitted: of an ASCII str, the substring
// between the two offsets, computed without Slice's general path (three
// bound Values, the kind switches); of anything else, Slice. Not ok when
// the slice is not of that form. mini-swe-agent prints
// {{ output.output[:5000] }} and {{ output.output[-5000:] }}.
func (c *compiler) constStrSlice(obj evalFn, sl *SliceExpr, name string, pos Pos) (evalFn, bool) {
	if sl.Step != nil || c.constMode > 0 {
		return nil, false
	}
	var b [2]Value // zero: omitted
	var lo, hi int64
	hasLo, hasHi := sl.Start != nil, sl.Stop != nil
	for i, x := range []Expr{sl.Start, sl.Stop} {
		if x == nil {
			continue
		}
		if !isConstExpr(x) {
			return nil, false
		}
		v, ok := c.constValue(x)
		if !ok || v.kind != KindInt || v.ref != nil {
			return nil, false
		}
		b[i] = v
	}
	lo, hi = b[0].n, b[1].n
	// In the sandbox, where nothing changes a list, the slice of a list
	// or tuple shares its items (Slice); the List holding them is kept
	// (memo) for the next evaluation on the same items, so that a chat
	// template's loop_messages = messages[1:] takes no allocation when
	// it renders the conversation of the render before (a Template keeps
	// it). Python makes a new list at each evaluation, which only the
	// sameas test can tell apart: a template that names it does too.
	var memo *atomic.Pointer[sliceMemo]
	if c.env.sandbox && !strings.Contains(c.src.text, "sameas") {
		memo = new(atomic.Pointer[sliceMemo])
	}
	return func(f *frame) (Value, error) {
		o, err := obj(f)
		if err != nil {
			return Value{}, err
		}
		if o.kind == KindStr && strASCII(o) {
			from, to := sliceBounds(len(o.s), lo, hasLo, hi, hasHi, 1)
			if to < from {
				to = from
			}
			r := markupOr(o, o.s[from:to])
			r.flags |= flagASCII
			return r, nil
		}
		if memo != nil && (o.kind == KindList || o.kind == KindTuple) {
			if items := o.list().Items; len(items) > 0 {
				if m := memo.Load(); m != nil && m.kind == o.kind && m.n == len(items) && m.base == &items[0] {
					return Value{kind: m.kind, ref: &m.list}, nil
				}
				if from, to := sliceBounds(len(items), lo, hasLo, hi, hasHi, 1); to > from {
					m := &sliceMemo{kind: o.kind, n: len(items), base: &items[0], list: List{Items: items[from:to:to]}}
					memo.Store(m)
					return Value{kind: m.kind, ref: &m.list}, nil
				}
			}
		}
		v, err := Slice(f.c, o, b[0], b[1], Value{})
		if err != nil {
			return Value{}, place(err, name, pos)
		}
		return v, nil
	}, true
}

// sliceMemo is a slice of a list or tuple kept by the expression that
// made it (constStrSlice): list, the slice of the n items at base, of
// kind kind. It never changes once made.
type sliceMemo struct {
	kind Kind
	n    int
	base *Value
	list List
}

func (c *compiler) compileGetItem(n *ItemExpr) (evalFn, error) {
	obj, err := c.compileExpr(n.X)
	if err != nil {
		return nil, err
	}
	name, pos := c.src.name, n.P
	if sl, ok := n.Key.(*SliceExpr); ok {
		if fn, ok := c.constStrSlice(obj, sl, name, pos); ok {
			return fn, nil
		}
		constMode := c.constMode > 0
		var parts [3]evalFn
		for i, p := range []Expr{sl.Start, sl.Stop, sl.Step} {
			if p != nil {
				if parts[i], err = c.compileExpr(p); err != nil {
					return nil, err
				}
			}
		}
		return func(f *frame) (Value, error) {
			o, err := obj(f)
			if err != nil {
				return Value{}, err
			}
			var b [3]Value
			for i, p := range parts {
				if p != nil {
					if b[i], err = p(f); err != nil {
						return Value{}, err
					}
				}
			}
			v, err := Slice(f.c, o, b[0], b[1], b[2])
			if err != nil && constMode && isKind(err, "TypeError") {
				return constSliceUndefined(o), nil
			}
			if err != nil {
				return Value{}, place(err, name, pos)
			}
			return v, nil
		}, nil
	}
	key, err := c.compileExpr(n.Key)
	if err != nil {
		return nil, err
	}
	if k, ok := n.Key.(*Const); ok && k.Value.kind == KindStr {
		// x['name']: getitem looks at the item first.
		ks := k.Value.s
		return func(f *frame) (Value, error) {
			o, err := obj(f)
			if err != nil {
				return Value{}, err
			}
			if o.kind == KindDict {
				if i := o.dict().findStr(ks); i >= 0 {
					return o.dict().vals[i], nil
				}
			}
			v, err := GetItem(f.c, o, k.Value)
			if err != nil {
				return Value{}, place(err, name, pos)
			}
			return v, nil
		}, nil
	}
	// x[k] folded (constMode; fastExpr compiles it otherwise)
	return itemOf(obj, key, name, pos), nil
}

// isLenientFilter reports whether a filter accepts an undefined name
// under StrictNames.
func isLenientFilter(name string) bool { return name == "default" || name == "d" }

// compileFilter compiles a filter; when n.X is nil the operand is the
// input given to the returned function (a filter block's body).
func (c *compiler) compileFilter(n *FilterExpr, _ any) (func(f *frame, in Value) (Value, error), error) {
	if c.constMode > 0 && (n.X == nil || contextFilters[n.Name]) {
		return func(*frame, Value) (Value, error) { return Value{}, errImpossible }, nil
	}
	// Jinja2's code generator looks the filter up before it visits the
	// operand and the arguments: of two unknown filters, the outer one is
	// named.
	fl := c.env.filter(n.Name)
	if fl == nil && c.soft == 0 {
		return nil, c.errAt(n, "TemplateAssertionError", "No filter named "+pyQuote(n.Name)+".")
	}
	var operand func(f *frame, in Value) (Value, error)
	switch x := n.X.(type) {
	case *FilterExpr:
		if c.constMode == 0 && !blockInput(x) && c.foldMatters(x) {
			ev, err := c.expr(x, false)
			if err != nil {
				return nil, err
			}
			operand = func(f *frame, _ Value) (Value, error) { return ev(f) }
			break
		}
		inner, err := c.compileFilter(x, nil)
		if err != nil {
			return nil, err
		}
		operand = inner
	case nil:
		operand = func(_ *frame, in Value) (Value, error) { return in, nil }
	default:
		ev, err := c.expr(x, isLenientFilter(n.Name))
		if err != nil {
			return nil, err
		}
		operand = func(f *frame, _ Value) (Value, error) { return ev(f) }
	}
	args, err := c.compileArgs(n.Args)
	if err != nil {
		return nil, err
	}
	if _, own := c.env.filters[n.Name]; !own {
		args.fn = pyFilterFuncs[n.Name]
	}
	name, pos := c.src.name, n.P
	if sel := c.constSelect(n, args); sel != nil {
		if c.selectSites == nil {
			c.selectSites = map[*FilterExpr]*selectSite{}
		}
		c.selectSites[n] = &selectSite{sel: sel, operand: operand}
		return func(f *frame, in Value) (Value, error) {
			v, err := operand(f, in)
			if err != nil {
				return Value{}, err
			}
			return sel.filter(f.c, v), nil
		}, nil
	}
	if fn := c.selectList(n, fl); fn != nil {
		return fn, nil
	}
	if fl == nil {
		// Jinja2 calls a stand-in that raises: the operand and the
		// arguments are evaluated first.
		missing := c.errAt(n, "TemplateRuntimeError", "No filter named "+pyQuote(n.Name)+" found.")
		fl = func(_ *Ctx, _ Value, _ []Value, kw []Kwarg) (Value, error) {
			return Value{}, missingCallErr("filter", n.Name, kw, missing)
		}
	}
	return func(f *frame, in Value) (Value, error) {
		v, err := operand(f, in)
		if err != nil {
			return Value{}, err
		}
		as, kw, err := args.eval(f, nil)
		if err != nil {
			return Value{}, place(err, name, pos)
		}
		r, err := fl(f.c, v, as, kw)
		if err != nil {
			return Value{}, place(err, name, pos)
		}
		return r, nil
	}, nil
}

// compileBareFilter compiles x|name without arguments, x no filter, as
// one function calling the filter with nothing to bind; x|trim of a str
// strips it in place. Nil for any other filter expression, and when no
// filter is called name (compileFilter's error or stand-in).
func (c *compiler) compileBareFilter(n *FilterExpr) (evalFn, error) {
	if c.constMode > 0 || n.X == nil || !noArgs(n.Args) {
		return nil, nil
	}
	if _, ok := n.X.(*FilterExpr); ok {
		return nil, nil
	}
	fl := c.env.filter(n.Name)
	if fl == nil {
		return nil, nil
	}
	_, own := c.env.filters[n.Name]
	trim := n.Name == "trim" && !own
	// length (count) of a str known to be ASCII, a list, tuple or dict:
	// fLength's answer without the call
	length := (n.Name == "length" || n.Name == "count") && !own
	name, pos := c.src.name, n.P
	xr, err := c.nativeRefL(n.X, isLenientFilter(n.Name))
	if err != nil {
		return nil, err
	}
	if xr != nil {
		// the operand is read where it lies
		return func(f *frame) (Value, error) {
			v, err := xr(f)
			if err != nil {
				return Value{}, err
			}
			if trim && v.kind == KindStr {
				return markupOr(*v, pyStripSpace(v.s)), nil
			}
			if length {
				switch {
				case v.kind == KindList || v.kind == KindTuple:
					return IntV(int64(len(v.list().Items))), nil
				case v.kind == KindDict:
					return IntV(int64(len(v.dict().keys))), nil
				case v.kind == KindStr && v.flags&flagASCII != 0:
					return IntV(int64(len(v.s))), nil
				}
			}
			r, err := fl(f.c, *v, nil, nil)
			if err != nil {
				return Value{}, place(err, name, pos)
			}
			return r, nil
		}, nil
	}
	ev, err := c.expr(n.X, isLenientFilter(n.Name))
	if err != nil {
		return nil, err
	}
	return func(f *frame) (Value, error) {
		v, err := ev(f)
		if err != nil {
			return Value{}, err
		}
		if trim && v.kind == KindStr {
			// fTrim's answer
			return markupOr(v, pyStripSpace(v.s)), nil
		}
		r, err := fl(f.c, v, nil, nil)
		if err != nil {
			return Value{}, place(err, name, pos)
		}
		return r, nil
	}, nil
}

// missingCallErr is what calling Jinja2's stand-in for an unknown filter
// or test raises: it is `def t_N(*unused)`, so a keyword argument is a
// TypeError of the call before its body raises the runtime error.
func missingCallErr(kind, name string, kw []Kwarg, missing error) error {
	if len(kw) > 0 {
		return typeErr("the stand-in for the unknown %s %s got an unexpected keyword argument %s", kind, pyQuote(name), pyQuote(kw[0].Name))
	}
	return missing
}

// blockInput reports whether a chain of filters starts from a block's
// body (the innermost filter has no operand), so it is not an expression
// of its own.
func blockInput(x *FilterExpr) bool {
	for {
		inner, ok := x.X.(*FilterExpr)
		if !ok {
			return x.X == nil
		}
		x = inner
	}
}

// compileFilterChain compiles the filters of a filter block or block set.
func (c *compiler) compileFilterChain(x Expr) (func(f *frame, in Value) (Value, error), error) {
	fe, ok := x.(*FilterExpr)
	if !ok {
		return nil, c.errAt(x, "TemplateSyntaxError", "expected a filter")
	}
	return c.compileFilter(fe, nil)
}

func (c *compiler) compileTest(n *TestExpr) (evalFn, error) {
	cond, err := c.compileTestCond(n)
	if err != nil {
		return nil, err
	}
	return boolValue(cond), nil
}

// boolValue makes a condition an expression: its bool as a Value. Not
// inlined: a closure copied into an inlined call is compiled without
// inlining BoolV (Go 1.26), a call on every render of the expression.
//
//go:noinline
func boolValue(cond condFn) evalFn {
	return func(f *frame) (Value, error) {
		ok, err := cond(f)
		if err != nil {
			return Value{}, err
		}
		return BoolV(ok), nil
	}
}

// compileTestCond compiles a test for its bool, which compileTest makes a
// Value and a condition reads as it is. An operand nativeRef reads is
// tested where it lies.
func (c *compiler) compileTestCond(n *TestExpr) (condFn, error) {
	lenient := n.Name == "defined" || n.Name == "undefined"
	tst := c.env.test(n.Name) // looked up first, as compileFilter does
	if tst == nil && c.soft == 0 {
		return nil, c.errAt(n, "TemplateAssertionError", "No test named "+pyQuote(n.Name)+".")
	}
	xr, err := c.nativeRefL(n.X, lenient)
	if err != nil {
		return nil, err
	}
	var x evalFn
	if xr == nil {
		if x, err = c.expr(n.X, lenient); err != nil {
			return nil, err
		}
	}
	args, err := c.compileArgs(n.Args)
	if err != nil {
		return nil, err
	}
	if _, own := c.env.tests[n.Name]; !own {
		args.fn = pyTestFuncs[n.Name]
	}
	name, pos := c.src.name, n.P
	if tst == nil {
		missing := c.errAt(n, "TemplateRuntimeError", "No test named "+pyQuote(n.Name)+" found.")
		tst = func(_ *Ctx, _ Value, _ []Value, kw []Kwarg) (bool, error) {
			return false, missingCallErr("test", n.Name, kw, missing)
		}
	}
	if _, own := c.env.tests[n.Name]; !own && len(args.args) == 1 && len(args.kwNames) == 0 && args.dynArgs == nil && args.dynKwargs == nil {
		if one := oneArgTest(n.Name); one != nil {
			// one argument by position: nothing to bind, no slice
			if x == nil {
				x = evalRef(xr) // the argument may change what xr reads
			}
			arg := args.args[0]
			return func(f *frame) (bool, error) {
				v, err := x(f)
				if err != nil {
					return false, err
				}
				a, err := arg(f)
				if err != nil {
					return false, place(err, name, pos)
				}
				ok, err := one(f.c, v, a)
				if err != nil {
					return false, place(err, name, pos)
				}
				return ok, nil
			}, nil
		}
	}
	if xr != nil && args.none() {
		return func(f *frame) (bool, error) {
			v, err := xr(f)
			if err != nil {
				return false, err
			}
			ok, err := tst(f.c, *v, nil, nil)
			if err != nil {
				return false, place(err, name, pos)
			}
			return ok, nil
		}, nil
	}
	if x == nil {
		x = evalRef(xr)
	}
	return func(f *frame) (bool, error) {
		v, err := x(f)
		if err != nil {
			return false, err
		}
		as, kw, err := args.eval(f, nil)
		if err != nil {
			return false, place(err, name, pos)
		}
		ok, err := tst(f.c, v, as, kw)
		if err != nil {
			return false, place(err, name, pos)
		}
		return ok, nil
	}, nil
}
