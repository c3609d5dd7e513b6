package jinja2

import (
	"math"
	"math/big"
)

// The dunder methods of int, bool and float a template reaches without
// the sandbox ((1).__add__(2) is 3): CPython's slot wrappers (a
// method-wrapper: the operators, comparisons, conversions, __hash__) and
// the methods of the types' tables (a built-in method: __trunc__,
// __floor__, __ceil__, __round__, __getnewargs__, __format__). A binary
// one given an operand its type does not take returns NotImplemented,
// which the template prints.

// notImplementedObj is Python's NotImplemented.
type notImplementedObj struct{}

func (notImplementedObj) TypeName() string          { return "NotImplementedType" }
func (notImplementedObj) Attr(string) (Value, bool) { return Value{}, false }
func (notImplementedObj) Repr() string              { return "NotImplemented" }

var notImplemented = ObjectV(notImplementedObj{})

// numBinaryOps are the binary slots of int and float, by the operator
// the package computes them with; "__r…__" swaps the operands.
var numBinaryOps = map[string]string{
	"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%",
	"pow": "**", "divmod": "divmod", "lshift": "<<", "rshift": ">>", "and": "&", "or": "|", "xor": "^",
}

var numCompareOps = map[string]string{"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}

// numDunderKind says how the dunder name of a number is called: "binary",
// "pow" (a ternary slot), "compare", "unary" (a slot of no argument),
// "noargs" (a method of no argument), "round", "format"; "" for one the
// package does not implement.
func numDunderKind(name string) (kind, op string, reflected bool) {
	if len(name) < 5 || !isDunder(name) {
		return "", "", false
	}
	base := name[2 : len(name)-2]
	if op, ok := numCompareOps[base]; ok {
		return "compare", op, false
	}
	if len(base) > 1 && base[0] == 'r' {
		if op, ok := numBinaryOps[base[1:]]; ok {
			if op == "**" {
				return "pow", op, true
			}
			return "binary", op, true
		}
	}
	if op, ok := numBinaryOps[base]; ok {
		if op == "**" {
			return "pow", op, false
		}
		return "binary", op, false
	}
	switch base {
	case "neg", "pos", "abs", "invert", "bool", "int", "float", "index", "hash":
		return "unary", base, false
	case "trunc", "floor", "ceil", "getnewargs":
		return "noargs", base, false
	case "round", "format":
		return base, base, false
	}
	return "", "", false
}

// wrapperArgs checks the arguments of a method-wrapper (a slot's bound
// dunder) that takes want of them, positional only, with CPython's
// messages.
func wrapperArgs(name string, args []Value, kw []Kwarg, want int) error {
	if len(kw) > 0 {
		return typeErr("wrapper %s() takes no keyword arguments", name)
	}
	if len(args) != want {
		return typeErr("expected %d argument%s, got %d", want, plural(want), len(args))
	}
	return nil
}

// numDunderMethod is the bound dunder name of an int, bool or float, if
// the package implements it.
func numDunderMethod(v Value, name string) (Value, bool) {
	kind, op, reflected := numDunderKind(name)
	if kind == "" || !isNum(v) {
		return Value{}, false
	}
	t := TypeName(v)
	// a call through Jinja2's context.call (CALL_FUNCTION_EX) names the
	// method by the receiver's type: bool.__trunc__, not int's
	owner := t
	f := &Func{Name: t + "." + name}
	switch kind {
	case "noargs", "round", "format":
		f.Repr = "<built-in method " + name + " of " + t + " object at " + addr(f) + ">"
	default:
		f.Repr = "<method-wrapper '" + name + "' of " + t + " object at " + addr(f) + ">"
	}
	f.Call = func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		switch kind {
		case "binary", "compare", "unary":
			want := 1
			if kind == "unary" {
				want = 0
			}
			if err := wrapperArgs(name, args, kw, want); err != nil {
				return Value{}, err
			}
		case "pow":
			if len(kw) > 0 {
				return Value{}, typeErr("wrapper %s() takes no keyword arguments", name)
			}
			if len(args) < 1 {
				return Value{}, typeErr(" expected at least 1 argument, got %d", len(args))
			}
			if len(args) > 2 {
				return Value{}, typeErr(" expected at most 2 arguments, got %d", len(args))
			}
		default:
			if len(kw) > 0 {
				return Value{}, typeErr("%s.%s() takes no keyword arguments", owner, name)
			}
		}
		switch kind {
		case "binary":
			return numBinaryDunder(c, op, v, args[0], reflected)
		case "pow":
			mod := NoneV()
			if len(args) == 2 {
				mod = args[1]
			}
			return numPowDunder(c, v, args[0], mod, reflected)
		case "compare":
			return numCompareDunder(op, v, args[0])
		case "unary":
			return numUnaryDunder(op, v)
		case "noargs":
			if len(args) > 0 {
				return Value{}, typeErr("%s.%s() takes no arguments (%d given)", owner, name, len(args))
			}
			return numNoArgsDunder(op, v)
		case "round":
			if len(args) > 1 {
				return Value{}, typeErr("__round__ expected at most 1 argument, got %d", len(args))
			}
			return numRoundDunder(v, args)
		}
		// __format__
		if len(args) != 1 {
			return Value{}, typeErr("%s.__format__() takes exactly one argument (%d given)", owner, len(args))
		}
		if args[0].kind != KindStr {
			return Value{}, typeErr("__format__() argument must be str, not %s", badArgName(args[0]))
		}
		s, err := FormatValue(c, v, args[0].s)
		return StrV(s), err
	}
	return FuncV(f), true
}

// takesOperand reports whether the binary slot of recv's type computes
// with other: an int's only with an int or bool, a float's with any of
// the three.
func takesOperand(recv, other Value) bool {
	if recv.kind == KindFloat {
		return isNum(other)
	}
	return isIntLike(other)
}

func numBinaryDunder(c *Ctx, op string, recv, other Value, reflected bool) (Value, error) {
	if !takesOperand(recv, other) {
		return notImplemented, nil
	}
	a, b := recv, other
	if reflected {
		a, b = other, recv
	}
	switch op {
	case "divmod":
		if b.kind == KindFloat || a.kind == KindFloat {
			if y, _ := toFloat(b); y == 0 {
				if _, err := toFloat(a); err != nil {
					return Value{}, err
				}
				return Value{}, pyErr("ZeroDivisionError", "float divmod()")
			}
		}
		q, err := BinOp(c, "//", a, b)
		if err != nil {
			return Value{}, err
		}
		m, err := BinOp(c, "%", a, b)
		if err != nil {
			return Value{}, err
		}
		return TupleV([]Value{q, m}), nil
	case "<<", ">>", "&", "|", "^":
		return intBitOp(op, a, b)
	}
	return BinOp(c, op, a, b)
}

// intBitOp is a << b, a >> b, a & b, a | b or a ^ b of ints or bools: a
// bool of two bools for the last three.
func intBitOp(op string, a, b Value) (Value, error) {
	x, y := bigOf(a), bigOf(b)
	switch op {
	case "<<", ">>":
		if y.Sign() < 0 {
			return Value{}, valueErr("negative shift count")
		}
		if x.Sign() == 0 {
			return IntV(0), nil
		}
		if op == ">>" {
			if !y.IsInt64() || y.Int64() > int64(x.BitLen()) {
				if x.Sign() < 0 {
					return IntV(-1), nil
				}
				return IntV(0), nil
			}
			return normBig(new(big.Int).Rsh(x, uint(y.Int64()))), nil
		}
		if !y.IsInt64() {
			return Value{}, pyErr("OverflowError", "too many digits in integer")
		}
		if int64(x.BitLen())+y.Int64() > maxIntBits {
			return Value{}, pyErr("MemoryError", "")
		}
		return normBig(new(big.Int).Lsh(x, uint(y.Int64()))), nil
	}
	r := new(big.Int)
	switch op {
	case "&":
		r.And(x, y)
	case "|":
		r.Or(x, y)
	default:
		r.Xor(x, y)
	}
	if a.kind == KindBool && b.kind == KindBool {
		return BoolV(r.Sign() != 0), nil
	}
	return normBig(r), nil
}

// numPowDunder is recv.__pow__(other, mod) (or __rpow__): pow(a, b,
// mod) of ints, a float's refusing any mod but None.
func numPowDunder(c *Ctx, recv, other, mod Value, reflected bool) (Value, error) {
	if recv.kind == KindFloat && mod.kind != KindNone {
		return Value{}, typeErr("pow() 3rd argument not allowed unless all arguments are integers")
	}
	if !takesOperand(recv, other) {
		return notImplemented, nil
	}
	a, b := recv, other
	if reflected {
		a, b = other, recv
	}
	if mod.kind == KindNone {
		return BinOp(c, "**", a, b)
	}
	if !isIntLike(mod) {
		return notImplemented, nil
	}
	m := bigOf(mod)
	if m.Sign() == 0 {
		return Value{}, valueErr("pow() 3rd argument cannot be 0")
	}
	abs := new(big.Int).Abs(m)
	x := new(big.Int).Mod(bigOf(a), abs)
	e := bigOf(b)
	if e.Sign() < 0 {
		inv := new(big.Int).ModInverse(x, abs)
		if inv == nil {
			return Value{}, valueErr("base is not invertible for the given modulus")
		}
		x, e = inv, new(big.Int).Neg(e)
	}
	r := new(big.Int).Exp(x, e, abs)
	if m.Sign() < 0 && r.Sign() != 0 {
		r.Add(r, m)
	}
	return normBig(r), nil
}

func numCompareDunder(op string, recv, other Value) (Value, error) {
	if !takesOperand(recv, other) {
		return notImplemented, nil
	}
	cmp, ok := numCmp(recv, other)
	if !ok {
		// a nan: only != holds
		return BoolV(op == "!="), nil
	}
	switch op {
	case "==":
		return BoolV(cmp == 0), nil
	case "!=":
		return BoolV(cmp != 0), nil
	case "<":
		return BoolV(cmp < 0), nil
	case "<=":
		return BoolV(cmp <= 0), nil
	case ">":
		return BoolV(cmp > 0), nil
	}
	return BoolV(cmp >= 0), nil
}

// asInt is int(v) of an int or bool: a bool's int.
func asInt(v Value) Value {
	if v.kind == KindBool {
		return IntV(v.n)
	}
	return v
}

func numUnaryDunder(op string, v Value) (Value, error) {
	switch op {
	case "neg":
		return numNeg(v), nil
	case "pos", "index":
		return asInt(v), nil
	case "abs":
		if v.kind == KindFloat {
			return FloatV(math.Abs(v.f())), nil
		}
		if x := bigOf(v); x.Sign() < 0 {
			return normBig(new(big.Int).Neg(x)), nil
		}
		return asInt(v), nil
	case "invert":
		return normBig(new(big.Int).Not(bigOf(v))), nil
	case "bool":
		return BoolV(v.Truth()), nil
	case "int":
		if v.kind == KindFloat {
			return floatToInt(v.f())
		}
		return asInt(v), nil
	case "float":
		f, err := toFloat(v)
		return FloatV(f), err
	}
	// hash
	h, ok := pyHash(v)
	if !ok {
		// a nan's is its address
		return Value{}, &Error{Kind: "Unsupported", Msg: "the hash of a float nan (its address in Python) is not supported"}
	}
	return IntV(h), nil
}

// floatToInt is int(f): truncated, an error for inf and nan.
func floatToInt(f float64) (Value, error) {
	switch {
	case math.IsInf(f, 0):
		return Value{}, pyErr("OverflowError", "cannot convert float infinity to integer")
	case math.IsNaN(f):
		return Value{}, valueErr("cannot convert float NaN to integer")
	}
	return bigFloatInt(f), nil
}

func numNoArgsDunder(op string, v Value) (Value, error) {
	if op == "getnewargs" {
		return TupleV([]Value{asInt(v)}), nil
	}
	if v.kind != KindFloat {
		return asInt(v), nil
	}
	switch op {
	case "floor":
		return mathFloorCeil(v, false)
	case "ceil":
		return mathFloorCeil(v, true)
	}
	return floatToInt(v.f())
}

// numRoundDunder is v.__round__() or v.__round__(ndigits): an int's
// takes an index, a float's an index or None.
func numRoundDunder(v Value, args []Value) (Value, error) {
	if len(args) == 0 || args[0].kind == KindNone && v.kind == KindFloat {
		if v.kind != KindFloat {
			return asInt(v), nil
		}
		return pyRoundInt(v)
	}
	n := args[0]
	if !isIntLike(n) {
		return Value{}, typeErr("'%s' object cannot be interpreted as an integer", TypeName(n))
	}
	prec := n.n
	if n.isBig() {
		prec = math.MaxInt64
		if n.big().Sign() < 0 {
			prec = math.MinInt64
		}
	}
	return pyRound(v, prec)
}

// cmpDunderMethod is the bound rich comparison (__eq__, __lt__…) of a
// str, Markup, list, tuple, dict or None: a value of the same kind is
// compared as the operator compares it, another gives NotImplemented; a
// dict has no order and None only object's identity.
func cmpDunderMethod(v Value, name string) (Value, bool) {
	kind, op, _ := numDunderKind(name)
	if kind != "compare" {
		return Value{}, false
	}
	switch v.kind {
	case KindStr, KindList, KindTuple, KindDict, KindNone:
	default:
		return Value{}, false
	}
	f := &Func{Name: TypeName(v) + "." + name}
	f.Repr = "<method-wrapper '" + name + "' of " + TypeName(v) + " object at " + addr(f) + ">"
	f.Call = func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		if err := wrapperArgs(name, args, kw, 1); err != nil {
			return Value{}, err
		}
		other := args[0]
		if other.kind != v.kind {
			return notImplemented, nil
		}
		switch v.kind {
		case KindNone:
			// object's: identity for ==, its negation for !=
			switch op {
			case "==":
				return BoolV(true), nil
			case "!=":
				return BoolV(false), nil
			}
			return notImplemented, nil
		case KindDict:
			if op != "==" && op != "!=" {
				return notImplemented, nil
			}
		}
		r, err := Compare(c, op, v, other)
		return BoolV(r), err
	}
	return FuncV(f), true
}

// seqDunderMethod is the bound __add__, __mul__, __rmul__, __mod__ or
// __rmod__ of a str (not a Markup, whose are markupsafe's Python
// methods), list or tuple, and None's __bool__: CPython's sequence slots,
// which raise where the number slots give NotImplemented.
func seqDunderMethod(v Value, name string) (Value, bool) {
	t := TypeName(v)
	switch {
	case v.kind == KindNone && name == "__bool__":
	case t == "str" && (name == "__add__" || name == "__mul__" || name == "__rmul__" || name == "__mod__" || name == "__rmod__" || name == "__getitem__"):
	case t == "Markup" && name == "__rmod__": // str's slot: markupsafe defines no __rmod__
	case (t == "list" || t == "tuple") && (name == "__add__" || name == "__mul__" || name == "__rmul__"):
	default:
		return Value{}, false
	}
	f := &Func{Name: t + "." + name}
	f.Repr = "<method-wrapper '" + name + "' of " + t + " object at " + addr(f) + ">"
	f.Call = func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		want := 1
		if name == "__bool__" {
			want = 0
		}
		if err := wrapperArgs(name, args, kw, want); err != nil {
			return Value{}, err
		}
		if name == "__bool__" {
			return BoolV(false), nil
		}
		other := args[0]
		switch name {
		case "__getitem__":
			return strIndex(v, other)
		case "__add__":
			if other.kind != v.kind {
				return Value{}, typeErr("can only concatenate %s (not \"%s\") to %s", t, TypeName(other), t)
			}
			if v.kind == KindStr {
				// str's concatenation, a Markup operand too: a plain str
				return catStr(c, v.s, other.s, 0)
			}
			return BinOp(c, "+", v, other)
		case "__mul__", "__rmul__":
			return repeatIndex(c, v, other)
		case "__mod__":
			return percentFormat(c, v, other)
		}
		// __rmod__: other % v as str's slot computes it, for a str only
		if other.kind != KindStr {
			return notImplemented, nil
		}
		return percentFormat(c, StrV(other.s), v)
	}
	return FuncV(f), true
}

// formatDunderMethod is the bound __format__ of a str or Markup (str's:
// format(s, spec), a plain str) or of a list, tuple, dict, None,
// Undefined, function or Jinja2's and Python's other objects (object's:
// str(v) for an empty spec, else a TypeError); not of a class (an unbound
// method) or a complex number (its own format).
func formatDunderMethod(v Value, name string) (Value, bool) {
	if name != "__format__" {
		return Value{}, false
	}
	t := TypeName(v)
	switch v.kind {
	case KindStr, KindList, KindTuple, KindDict, KindNone, KindUndefined:
	case KindObject, KindFunc:
		if _, ok := v.ref.(*pyClass); ok || t == "complex" || t == "Namespace" {
			return Value{}, false
		}
	default:
		return Value{}, false
	}
	f := &Func{Name: t + ".__format__"}
	f.Repr = "<built-in method __format__ of " + t + " object at " + addr(f) + ">"
	f.Call = func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		if len(kw) > 0 {
			return Value{}, typeErr("%s.__format__() takes no keyword arguments", t)
		}
		if len(args) != 1 {
			return Value{}, typeErr("%s.__format__() takes exactly one argument (%d given)", t, len(args))
		}
		if args[0].kind != KindStr {
			return Value{}, typeErr("__format__() argument must be str, not %s", badArgName(args[0]))
		}
		spec := args[0].s
		switch {
		case v.kind == KindStr:
			s, err := FormatValue(c, v, spec)
			if err == nil && unformattedMarkup(v, spec, s) {
				return v, nil
			}
			return StrV(s), err
		case spec != "":
			return Value{}, typeErr("unsupported format string passed to %s.__format__", t)
		case v.kind == KindUndefined:
			return StrV(""), nil
		}
		s, err := ToStr(c, v)
		return StrV(s), err
	}
	return FuncV(f), true
}

// repeatIndex is str.__mul__ (list's, tuple's, Markup's): the count read
// as an index, whatever it is.
func repeatIndex(c *Ctx, seq, n Value) (Value, error) {
	if !isIntLike(n) {
		return Value{}, typeErr("'%s' object cannot be interpreted as an integer", TypeName(n))
	}
	return repeat(c, seq, n)
}
