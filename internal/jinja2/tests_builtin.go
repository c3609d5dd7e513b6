package jinja2

import (
	"math"
	"unicode/utf8"
	"unsafe"
)

// Jinja2 3.1's builtin tests (jinja2/tests.py).

// bind1 is bind for one parameter, without allocating when the call
// passes one argument by position (x is in(seq), select("eq", 1)).
func bind1(name string, args []Value, kw []Kwarg, param string) (Value, bool, error) {
	if len(args) == 1 && len(kw) == 0 {
		return args[0], true, nil
	}
	var bd bound
	a, set, err := bd.bind(name, args, kw, param)
	if err != nil {
		return Value{}, false, err
	}
	return a[0], set[0], nil
}

// arg1 binds the one argument, param, that the test name requires. A
// call that passes it by position costs the test one call, as bind1 did.
func arg1(name string, args []Value, kw []Kwarg, param string) (Value, error) {
	if len(args) == 1 && len(kw) == 0 {
		return args[0], nil
	}
	a, set, err := bind1("test_"+name, args, kw, param)
	if err == nil && !set {
		err = typeErr("test_%s() missing 1 required positional argument: '%s'", name, param)
	}
	return a, err
}

func test1(f func(v Value) bool) Test {
	return func(c *Ctx, v Value, args []Value, kw []Kwarg) (bool, error) { return f(v), nil }
}

func cmpTest(op string) Test {
	return func(c *Ctx, v Value, args []Value, kw []Kwarg) (bool, error) {
		// operator.eq and the like: builtins of two positional arguments
		if len(kw) > 0 {
			return false, typeErr("_operator.%s() takes no keyword arguments", opFuncs[op])
		}
		if len(args) != 1 {
			return false, typeErr("%s expected 2 arguments, got %d", opFuncs[op], len(args)+1)
		}
		return Compare(c, op, v, args[0])
	}
}

// opFuncs names the functions of Python's operator module that the
// comparison tests are.
var opFuncs = map[string]string{"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}

func isStrV(v Value) bool { return v.kind == KindStr }

func builtinTests() map[string]Test {
	cmp := map[string]Test{}
	for name, op := range map[string]string{"eq": "==", "equalto": "==", "==": "==", "ne": "!=", "!=": "!=",
		"lt": "<", "lessthan": "<", "<": "<", "le": "<=", "<=": "<=", "gt": ">", "greaterthan": ">", ">": ">", "ge": ">=", ">=": ">="} {
		cmp[name] = cmpTest(op)
	}
	t := map[string]Test{
		"odd": func(c *Ctx, v Value, args []Value, kw []Kwarg) (bool, error) {
			r, err := BinOp(c, "%", v, IntV(2))
			return err == nil && Equal(r, IntV(1)), err
		},
		"even": func(c *Ctx, v Value, args []Value, kw []Kwarg) (bool, error) {
			r, err := BinOp(c, "%", v, IntV(2))
			return err == nil && Equal(r, IntV(0)), err
		},
		"divisibleby": func(c *Ctx, v Value, args []Value, kw []Kwarg) (bool, error) {
			a, err := arg1("divisibleby", args, kw, "num")
			if err != nil {
				return false, err
			}
			r, err := BinOp(c, "%", v, a)
			return err == nil && Equal(r, IntV(0)), err
		},
		"defined":   test1(func(v Value) bool { return v.kind != KindUndefined }),
		"undefined": test1(func(v Value) bool { return v.kind == KindUndefined }),
		"none":      test1(func(v Value) bool { return v.kind == KindNone }),
		"boolean":   test1(func(v Value) bool { return v.kind == KindBool }),
		"false":     test1(func(v Value) bool { return v.kind == KindBool && v.n == 0 }),
		"true":      test1(func(v Value) bool { return v.kind == KindBool && v.n == 1 }),
		"integer":   test1(func(v Value) bool { return v.kind == KindInt }),
		"float":     test1(func(v Value) bool { return v.kind == KindFloat }),
		"number":    test1(func(v Value) bool { return isNum(v) || isComplex(v) }),
		"string":    test1(isStrV),
		// lower and upper test str(value): a number, a list or a
		// generator's repr too
		"lower":   strTest(pyIsLower),
		"upper":   strTest(pyIsUpper),
		"mapping": test1(func(v Value) bool { return v.kind == KindDict }),
		"sequence": test1(func(v Value) bool {
			if _, err := Len(v); err != nil {
				return false
			}
			switch v.kind {
			case KindStr, KindList, KindTuple, KindDict, KindUndefined:
				return true
			case KindObject:
				if _, view := v.ref.(*dictView); view {
					// a dict view has a length and no __getitem__
					return false
				}
				_, ok := v.ref.(Indexable)
				return ok
			}
			return false
		}),
		"iterable": test1(isIterable),
		"callable": test1(func(v Value) bool {
			if v.kind == KindFunc || v.kind == KindUndefined {
				return true // Undefined has __call__ (which raises)
			}
			if v.kind == KindObject {
				_, ok := v.ref.(interface {
					CallValue(*Ctx, []Value, []Kwarg) (Value, error)
				})
				return ok
			}
			return false
		}),
		"sameas": func(c *Ctx, v Value, args []Value, kw []Kwarg) (bool, error) {
			o, err := arg1("sameas", args, kw, "other")
			if err != nil {
				return false, err
			}
			return sameAs(c, v, o)
		},
		"escaped": test1(func(v Value) bool { return v.IsSafe() }),
		"in": func(c *Ctx, v Value, args []Value, kw []Kwarg) (bool, error) {
			a, err := arg1("in", args, kw, "seq")
			if err != nil {
				return false, err
			}
			return Contains(c, a, v)
		},
		// value in env.filters: an unhashable value is a TypeError
		"filter": func(c *Ctx, v Value, args []Value, kw []Kwarg) (bool, error) {
			if err := checkHashable(v); err != nil {
				return false, err
			}
			return v.kind == KindStr && c != nil && c.Env().filter(v.s) != nil, nil
		},
		"test": func(c *Ctx, v Value, args []Value, kw []Kwarg) (bool, error) {
			if err := checkHashable(v); err != nil {
				return false, err
			}
			return v.kind == KindStr && c != nil && c.Env().test(v.s) != nil, nil
		},
	}
	for k, f := range cmp {
		t[k] = f
	}
	// the tests whose Python function takes the value alone (filter and
	// test take the environment before it): an argument is a TypeError
	for _, name := range []string{"odd", "even", "defined", "undefined", "none", "boolean", "false", "true", "integer",
		"float", "number", "string", "lower", "upper", "mapping", "sequence", "iterable", "escaped"} {
		t[name] = valueOnlyTest("test_"+name, 1, t[name])
	}
	t["filter"] = valueOnlyTest("test_filter", 2, t["filter"])
	t["test"] = valueOnlyTest("test_test", 2, t["test"])
	callable := t["callable"]
	t["callable"] = func(c *Ctx, v Value, args []Value, kw []Kwarg) (bool, error) {
		// Python's builtin callable(obj)
		if len(kw) > 0 {
			return false, typeErr("callable() takes no keyword arguments")
		}
		if len(args) > 0 {
			return false, typeErr("callable() takes exactly one argument (%d given)", len(args)+1)
		}
		return callable(c, v, args, kw)
	}
	return t
}

// valueOnlyTest is a test whose Python function, name, takes params
// positional parameters, all given by the call before the arguments
// (the value, and the environment where it is passed): any argument is
// the TypeError Python raises, a keyword one first.
func valueOnlyTest(name string, params int, f Test) Test {
	return func(c *Ctx, v Value, args []Value, kw []Kwarg) (bool, error) {
		if len(kw) > 0 {
			return false, typeErr("%s() got an unexpected keyword argument '%s'", name, kw[0].Name)
		}
		if len(args) > 0 {
			plural := "s"
			if params == 1 {
				plural = ""
			}
			return false, typeErr("%s() takes %d positional argument%s but %d were given", name, params, plural, len(args)+params)
		}
		return f(c, v, args, kw)
	}
}

var _ = math.NaN

// strTest is a test of str(value).
func strTest(pred func(string) bool) Test {
	return func(c *Ctx, v Value, args []Value, kw []Kwarg) (bool, error) {
		s, err := ToStr(c, v)
		if err != nil {
			return false, err
		}
		return pred(s), nil
	}
}

// isIterable is isinstance(v, abc.Iterable)-ish: whether iter(v) works.
func isIterable(v Value) bool {
	switch v.kind {
	case KindStr, KindList, KindTuple, KindDict, KindUndefined:
		return true
	case KindObject:
		_, ok := v.ref.(Iterable)
		return ok
	}
	return false
}

// sameStr is CPython's a is b for two strs, as far as the package can
// tell: the empty str and a one-character str below U+0100 are
// singletons (what indexing, slicing and the template's literals give);
// any other str is the same object only where it is the same value passed
// along, which the package sees as the same bytes in memory (a variable
// compared with itself, x[:], a filter that returns its operand).
// docs/FUZZING.md lists where CPython's identity differs from this.
func sameStr(a, b string) bool {
	if a != b {
		return false
	}
	if r, n := utf8.DecodeRuneInString(a); len(a) == 0 || n == len(a) && r < 0x100 {
		return true
	}
	return unsafe.StringData(a) == unsafe.StringData(b)
}

// sameAs is the sameas test: Python's is.
func sameAs(_ *Ctx, v, o Value) (bool, error) {
	if v.kind != o.kind {
		return false, nil
	}
	switch v.kind {
	case KindNone:
		return true, nil
	case KindBool:
		return v.n == o.n, nil
	case KindInt:
		// CPython caches -5..256
		return v.ref == nil && o.ref == nil && v.n == o.n && v.n >= -5 && v.n <= 256, nil
	case KindFloat:
		return false, nil
	case KindStr:
		return sameStr(v.s, o.s), nil
	case KindUndefined:
		return false, nil
	case KindDict:
		// a mappingproxy is not its dict
		return v.ref == o.ref && v.flags&flagProxy == o.flags&flagProxy, nil
	}
	return v.ref == o.ref, nil
}

// oneArgTest returns the builtin test called name as a function of the
// value and one argument, for a call site that passes exactly one
// argument by position: it binds nothing and allocates nothing. It is
// nil for the other tests.
func oneArgTest(name string) func(c *Ctx, v, a Value) (bool, error) {
	switch name {
	case "eq", "equalto", "==", "ne", "!=", "lt", "lessthan", "<", "le", "<=", "gt", "greaterthan", ">", "ge", ">=":
		op := map[string]string{"eq": "==", "equalto": "==", "ne": "!=", "lt": "<", "lessthan": "<", "le": "<=",
			"gt": ">", "greaterthan": ">", "ge": ">="}[name]
		if op == "" {
			op = name
		}
		return func(c *Ctx, v, a Value) (bool, error) { return Compare(c, op, v, a) }
	case "in":
		return func(c *Ctx, v, a Value) (bool, error) { return Contains(c, a, v) }
	case "sameas":
		return sameAs
	case "divisibleby":
		return func(c *Ctx, v, a Value) (bool, error) {
			r, err := BinOp(c, "%", v, a)
			return err == nil && Equal(r, IntV(0)), err
		}
	}
	return nil
}
