package jinja2

// The methods of str, list, dict, int and float that templates call,
// bound to their receiver by GetAttr or called at once by CallMethod.

type methodFn func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error)

// methodTable returns the methods of v's type.
func methodTable(v Value) map[string]methodFn {
	switch v.kind {
	case KindStr:
		return strMethods
	case KindList:
		return listMethods
	case KindTuple:
		return tupleMethods
	case KindDict:
		return dictMethods
	case KindInt, KindBool:
		return intMethods
	case KindFloat:
		return floatMethods
	}
	return nil
}

func hasMethod(v Value, name string) bool {
	_, ok := methodTable(v)[name]
	return ok
}

// boundMethod is v.name as a callable.
func boundMethod(v Value, name string) Value {
	fn := methodTable(v)[name]
	return FuncV(&Func{
		Name: "built-in method " + name + " of " + TypeName(v) + " object",
		Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) { return fn(c, v, args, kw) },
	})
}

// CallMethod is recv.name(args…, kw…): what GetAttr then Ctx.Call give,
// without building the bound method for the methods of builtin types.
func CallMethod(c *Ctx, recv Value, name string, args []Value, kw []Kwarg) (Value, error) {
	if recv.kind == KindUndefined {
		return Value{}, recv.undefErr()
	}
	if sandboxed(c) {
		if u, unsafe := unsafeAttr(recv, name); unsafe {
			return Value{}, u.undefErr()
		}
	}
	if fn, ok := methodTable(recv)[name]; ok {
		if recv.kind == KindDict {
			// a dict's key named like a method does not shadow the method
			return fn(c, recv, args, kw)
		}
		return fn(c, recv, args, kw)
	}
	f, err := GetAttr(c, recv, name)
	if err != nil {
		return Value{}, err
	}
	return callValue(c, f, args, kw)
}

// callValue calls f, through the Ctx when there is one.
func callValue(c *Ctx, f Value, args []Value, kw []Kwarg) (Value, error) {
	switch f.kind {
	case KindUndefined:
		return Value{}, f.undefErr()
	case KindFunc:
		if c == nil {
			return f.ref.(*Func).Call(c, args, kw)
		}
	}
	if c == nil {
		return Value{}, typeErr("'%s' object is not callable", TypeName(f))
	}
	return c.Call(f, args, kw)
}
