package jinja2

// The methods of str, list, dict, int and float that templates call,
// bound to their receiver by GetAttr or called at once by CallMethod.

type methodFn func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error)

// methodOf returns the method called name of v's type, or nil.
func methodOf(v Value, name string) methodFn {
	k := methodKind(v, name)
	if k < 0 {
		return nil
	}
	return methodLookup(k, name)
}

// The receivers' kinds that have methods, as methodKind numbers them.
const (
	mStr = iota
	mList
	mTuple
	mDict
	mInt
	mFloat
	mKinds
)

// methodKind is the kind of v's methods, or -1 when name can be none
// of them (a str's unescape, striptags and escape are Markup's).
func methodKind(v Value, name string) int {
	switch v.kind {
	case KindStr:
		if (name == "unescape" || name == "striptags" || name == "escape") && !v.IsSafe() {
			return -1
		}
		return mStr
	case KindList:
		return mList
	case KindTuple:
		return mTuple
	case KindDict:
		if v.flags&flagProxy != 0 && !proxyMethod(name) {
			return -1
		}
		return mDict
	case KindInt, KindBool:
		return mInt
	case KindFloat:
		return mFloat
	}
	return -1
}

// methodLookup is the method called name of the kind k.
func methodLookup(k int, name string) methodFn {
	switch k {
	case mStr:
		return strMethod(name)
	case mList:
		return listMethod(name)
	case mTuple:
		return tupleMethod(name)
	case mDict:
		return dictMethod(name)
	case mInt:
		return intMethod(name)
	case mFloat:
		return floatMethod(name)
	}
	return nil
}

func hasMethod(v Value, name string) bool { return methodOf(v, name) != nil }

// markupWraps reports whether markupsafe's Markup defines the str method
// name as a Python function (which escapes or returns Markup); the others
// are str's built-in methods.
func markupWraps(name string) bool {
	switch name {
	case "capitalize", "casefold", "center", "expandtabs", "format", "format_map", "join", "ljust", "lower", "lstrip", "partition",
		"removeprefix", "removesuffix", "replace", "rjust", "rpartition", "rsplit", "rstrip", "split", "splitlines", "strip", "swapcase",
		"title", "translate", "upper", "zfill", "unescape", "striptags", "escape":
		return true
	}
	return false
}

// boundMethod is v.name as a callable.
func boundMethod(v Value, name string) Value {
	fn := methodOf(v, name)
	f := &Func{
		Name: name,
		Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) { return fn(c, v, args, kw) },
	}
	if v.IsSafe() && name == "escape" {
		// a classmethod, bound to the class
		f.Repr = "<bound method Markup.escape of <class 'markupsafe.Markup'>>"
	} else if v.IsSafe() && markupWraps(name) {
		f.Repr = "<bound method Markup." + name + " of " + Repr(v) + ">"
	} else if name == "fromhex" || name == "from_bytes" || name == "fromkeys" || name == "maketrans" {
		// classmethods of float, int and dict and str's static
		// maketrans, bound to the class
		f.Repr, f.builtinOf = "type", true
	} else {
		f.Repr, f.builtinOf = TypeName(v), true
	}
	return FuncV(f)
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
	if fn := methodOf(recv, name); fn != nil {
		return fn(c, recv, args, kw)
	}
	f, err := GetAttr(c, recv, name)
	if err != nil {
		return Value{}, err
	}
	return callValue(c, f, args, kw)
}

// methodSet is methodOf's answers for one name, by the kind of the
// receiver, looked up once where a template calls x.name(…): building
// some of the methods allocates.
type methodSet [mKinds]methodFn

func methodsNamed(name string) *methodSet {
	var ms methodSet
	for k := range ms {
		ms[k] = methodLookup(k, name)
	}
	return &ms
}

// none reports whether no kind has a method of the name.
func (ms *methodSet) none() bool {
	for _, m := range ms {
		if m != nil {
			return false
		}
	}
	return true
}

// of is methodOf(v, name).
func (ms *methodSet) of(v Value, name string) methodFn {
	k := methodKind(v, name)
	if k < 0 {
		return nil
	}
	return ms[k]
}

// directMethod returns the method that GetAttr(c, recv, name) would bind
// and return, for a str, list, tuple, dict or number whose attribute name
// is that method; nil otherwise (another kind, an attribute that is not a
// method, or one the sandbox refuses). ms holds the methods of name.
func directMethod(c *Ctx, recv Value, name string, ms *methodSet) methodFn {
	switch recv.kind {
	case KindUndefined, KindObject, KindFunc, KindNone:
		return nil
	case KindInt, KindBool, KindFloat:
		switch name {
		case "real", "imag", "numerator", "denominator":
			return nil // attribute() answers these first
		}
	}
	if sandboxed(c) {
		if _, unsafe := unsafeAttr(recv, name); unsafe {
			return nil
		}
	}
	return ms.of(recv, name)
}

// callValue calls f, through the Ctx when there is one.
func callValue(c *Ctx, f Value, args []Value, kw []Kwarg) (Value, error) {
	switch f.kind {
	case KindUndefined:
		return Value{}, f.undefErr()
	case KindFunc:
		if c == nil {
			return f.ref.(*Func).call(c, args, kw)
		}
	}
	if c == nil {
		return Value{}, typeErr("'%s' object is not callable", TypeName(f))
	}
	return c.Call(f, args, kw)
}
