package jinja2

// What the runtime needs of values that ops.go does not offer (yet).
// Each is small and reads a Value's fields directly; the values side may
// replace any of them with its own, keeping the signature.

// objectCaller is an Object that can be called: loop(…) of a recursive
// loop. (cycler, joiner and namespace's callables are Funcs.)
type objectCaller interface {
	CallValue(c *Ctx, args []Value, kw []Kwarg) (Value, error)
}

// dictKwargs turns the value of **kwargs into keyword arguments; ca
// names the function in Python's error.
func dictKwargs(c *Ctx, v Value, ca *compiledArgs) ([]Kwarg, error) {
	if v.kind == KindUndefined {
		// ** looks up v.keys first, which an Undefined raises for
		return nil, v.undefErr()
	}
	if v.kind != KindDict {
		return nil, &Error{Kind: "TypeError", Msg: ca.fnStr(c) + " argument after ** must be a mapping, not " + TypeName(v)}
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

// starItems are the items of *v in a call's arguments: Python's LIST_EXTEND
// names a value it cannot iterate in its own words.
func starItems(c *Ctx, v Value) ([]Value, error) {
	items, err := Iterate(c, v)
	if err != nil && !isIterable(v) {
		return nil, typeErr("Value after * must be an iterable, not %s", TypeName(v))
	}
	return items, err
}

// checkHashable raises Python's TypeError for a dict key that is not hashable.
func checkHashable(k Value) error {
	switch k.kind {
	case KindList, KindDict:
		return &Error{Kind: "TypeError", Msg: "unhashable type: " + pyQuote(TypeName(k))}
	case KindTuple:
		for _, it := range k.ref.(*List).Items {
			if err := checkHashable(it); err != nil {
				return err
			}
		}
	case KindObject:
		switch o := k.ref.(type) {
		case *genericAlias:
			// hash(dict[x]) hashes x
			return checkHashable(o.args)
		case *sliceObj, *dictView, *pySet:
			// a slice is unhashable before Python 3.12, a dict view and a
			// set always
			return &Error{Kind: "TypeError", Msg: "unhashable type: " + pyQuote(TypeName(k))}
		}
	}
	return nil
}

// setNamespaceAttr is {% set ns.attr = v %}.
func setNamespaceAttr(o Value, attr string, v Value) error {
	if o.kind == KindObject {
		if s, ok := o.ref.(Setter); ok {
			return s.SetAttr(attr, v)
		}
	}
	return errNotNamespace()
}

func errNotNamespace() error {
	return &Error{Kind: "TemplateRuntimeError", Msg: "cannot assign attribute on non-namespace object"}
}
