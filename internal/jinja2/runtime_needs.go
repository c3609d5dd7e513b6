package jinja2

// What the runtime needs of values that ops.go does not offer (yet).
// Each is small and reads a Value's fields directly; the values side may
// replace any of them with its own, keeping the signature.

// objectCaller is an Object that can be called: loop(…) of a recursive
// loop. (cycler, joiner and namespace's callables are Funcs.)
type objectCaller interface {
	CallValue(c *Ctx, args []Value, kw []Kwarg) (Value, error)
}

// attrSetter is an Object whose attributes {% set obj.attr = v %} may set:
// namespace(). Other objects raise TemplateRuntimeError, as Jinja2 does.
type attrSetter interface {
	SetAttr(name string, v Value) error
}

// typeName is Python's type(v).__name__, for messages.
func typeName(v Value) string {
	switch v.kind {
	case KindUndefined:
		return "Undefined"
	case KindNone:
		return "NoneType"
	case KindBool:
		return "bool"
	case KindInt:
		return "int"
	case KindFloat:
		return "float"
	case KindStr:
		if v.IsSafe() {
			return "Markup"
		}
		return "str"
	case KindList:
		return "list"
	case KindTuple:
		return "tuple"
	case KindDict:
		return "dict"
	case KindFunc:
		return "function"
	case KindObject:
		if o, ok := v.ref.(Object); ok {
			return o.TypeName()
		}
	}
	return "object"
}

// undefinedError is the error using an Undefined raises: an UndefinedError
// with its hint, or the error it carries (the sandbox's SecurityError).
func undefinedError(v Value) error {
	if e, ok := v.ref.(*Error); ok {
		cp := *e
		return &cp
	}
	msg := v.s
	if msg == "" {
		msg = "undefined value"
	}
	return &Error{Kind: "UndefinedError", Msg: msg}
}

// unsafeUndefined is sandbox.unsafe_undefined: an Undefined that raises
// SecurityError when called (and prints as "", as Jinja2's does).
func unsafeUndefined(o Value, name string) Value {
	msg := "access to attribute " + pyQuote(name) + " of " + pyQuote(typeName(o)) + " object is unsafe."
	return Value{kind: KindUndefined, s: msg, ref: &Error{Kind: "SecurityError", Msg: msg}}
}

// dictKwargs turns the value of **kwargs into keyword arguments.
func dictKwargs(v Value) ([]Kwarg, error) {
	if v.kind != KindDict {
		return nil, &Error{Kind: "TypeError", Msg: "argument after ** must be a mapping, not " + typeName(v)}
	}
	d := v.ref.(*Dict)
	kw := make([]Kwarg, 0, len(d.keys))
	for i, k := range d.keys {
		if k.kind != KindStr {
			return nil, &Error{Kind: "TypeError", Msg: "keywords must be strings"}
		}
		kw = append(kw, Kwarg{Name: k.s, Value: d.vals[i]})
	}
	return kw, nil
}

// checkHashable raises Python's TypeError for a dict key that is not hashable.
func checkHashable(k Value) error {
	switch k.kind {
	case KindList, KindDict:
		return &Error{Kind: "TypeError", Msg: "unhashable type: " + pyQuote(typeName(k))}
	case KindTuple:
		for _, it := range k.ref.(*List).Items {
			if err := checkHashable(it); err != nil {
				return err
			}
		}
	}
	return nil
}

// setNamespaceAttr is {% set ns.attr = v %}.
func setNamespaceAttr(o Value, attr string, v Value) error {
	if o.kind == KindObject {
		if s, ok := o.ref.(attrSetter); ok {
			return s.SetAttr(attr, v)
		}
	}
	return &Error{Kind: "TemplateRuntimeError", Msg: "cannot assign attribute on non-namespace object"}
}
