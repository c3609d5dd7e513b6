package jinja2

import "strings"

// The private attributes of Jinja2's LoopContext and Macro that no
// sandbox refuses outside the immutable one (loop._length, m._func). The
// package answers those whose value it knows as Python would print it;
// for the others (loop._iterator, m._environment, what loop._after was
// peeked), GetAttr raises Unsupported instead of giving an Undefined where
// Python has a value (privateUnsupported).

// missingObj is jinja2.utils.missing, the marker LoopContext keeps where
// it has no value yet (loop._before in the first iteration).
type missingObj struct{}

// TypeName is Python's.
func (missingObj) TypeName() string { return "_MissingType" }

// Attr: missing has no attributes templates read.
func (missingObj) Attr(string) (Value, bool) { return Value{}, false }

// Repr is missing's.
func (missingObj) Repr() string { return "missing" }

// reprText is a fixed repr, of the object a bound method is bound to.
type reprText string

// Repr returns r.
func (r reprText) Repr() string { return string(r) }

func missingV() Value { return ObjectV(missingObj{}) }

// notModelled is the error of calling what Python calls and the package
// does not model.
func notModelled(what string) (Value, error) {
	return Value{}, &Error{Kind: "Unsupported", Msg: what + " is not supported"}
}

// private is LoopContext's private attribute name, when the package knows
// its value.
func (l *loopObj) private(name string) (Value, bool) {
	switch name {
	case "_length":
		// None until the length was taken (length, revindex, len, repr)
		if !l.lenRead {
			return NoneV(), true
		}
		return IntV(int64(l.length())), true
	case "_current":
		if l.live != nil && l.cur.kind != KindUndefined {
			return l.cur, true
		}
		if l.i >= len(l.items) {
			// a loop a Go callback kept past its render (reset)
			return missingV(), true
		}
		return l.items[l.i], true
	case "_before":
		if l.i == 0 || l.i > len(l.items) {
			return missingV(), true
		}
		if l.live != nil {
			return l.prev, true
		}
		return l.items[l.i-1], true
	case "_last_changed_value":
		if !l.changedSet {
			return missingV(), true
		}
		return TupleV(append([]Value(nil), l.lastChanged...)), true
	case "_recurse":
		if l.rec == nil {
			return NoneV(), true
		}
	case "_peek_next":
		return FuncV(&Func{Name: "LoopContext._peek_next", bound: l, Call: func(*Ctx, []Value, []Kwarg) (Value, error) {
			return notModelled("calling loop._peek_next")
		}}), true
	}
	return Value{}, false
}

// private is Macro's private attribute name (and explicit_caller), when
// the package knows its value.
func (m *macroCode) private(name string) (Value, bool) {
	switch name {
	case "explicit_caller":
		return BoolV(m.explicitCaller), true
	case "_argument_count":
		return IntV(int64(len(m.params))), true
	case "_default_autoescape":
		// the eval context's autoescape where the macro is defined,
		// known at compile time unless an autoescape tag decides it
		if !m.escVolatile {
			return BoolV(m.escOn), true
		}
	case "_func":
		// the Python function Jinja2 compiled the body to; printed as
		// <function root.<locals>.macro at 0x…>
		return FuncV(&Func{Name: m.fn.qual, Call: func(*Ctx, []Value, []Kwarg) (Value, error) {
			return notModelled("calling a macro's _func")
		}}), true
	case "_invoke", "_async_invoke":
		return FuncV(&Func{Name: "Macro." + name, bound: reprText(m.repr), Call: func(*Ctx, []Value, []Kwarg) (Value, error) {
			return notModelled("calling a macro's " + name)
		}}), true
	}
	return Value{}, false
}

// macroQual is the __qualname__ of the function Jinja2 compiles a macro
// defined in the function parent to, inside loops recursive loops (each
// a nested function named loop).
func macroQual(parent string, loops int) string {
	return parent + strings.Repeat(".<locals>.loop", loops) + ".<locals>.macro"
}

// privateUnsupported is the error of v.name outside the sandbox when
// Python's value of v's type has the private attribute name (a
// LoopContext's, a Macro's, pyPrivateAttrs) that the package does not
// model; nil otherwise (the lookup goes on to the item).
func privateUnsupported(v Value, name string) error {
	if len(name) < 2 || name[0] != '_' || isDunder(name) {
		return nil
	}
	t := TypeName(v)
	switch {
	case v.kind == KindFunc && v.ref.(*Func).mac != nil:
		t = "Macro"
	case v.kind == KindObject:
	default:
		return nil
	}
	ds, ok := pyPrivateAttrs[t]
	if !ok || !strings.Contains(" "+ds+" ", " "+name+" ") {
		return nil
	}
	return &Error{Kind: "Unsupported", Msg: "the attribute " + name + " of " + pyQuote(t) + " objects is not supported"}
}
