package jinja2

import "strings"

// The dunder attributes Python's values have, by type, beyond object's
// (pyObjectDunders), as CPython 3 and markupsafe list them:
//
//	python3 -c 'print([n for n in dir(T) if n.startswith("__") and n not in dir(object)])'
//
// Without the sandbox, Jinja2's getattr reads them ('ab'.__len__() is 2);
// the package implements __class__, __mro__ and a few methods (below), and
// refuses the others rather than print an Undefined where Python has a
// value (GetAttr).
var pyTypeDunders = map[string]string{
	"str":      "__add__ __contains__ __getitem__ __getnewargs__ __iter__ __len__ __mod__ __mul__ __rmod__ __rmul__",
	"Markup":   "__add__ __contains__ __getitem__ __getnewargs__ __html__ __html_format__ __iter__ __len__ __mod__ __module__ __mul__ __radd__ __rmod__ __rmul__ __slots__",
	"int":      "__abs__ __add__ __and__ __bool__ __ceil__ __divmod__ __float__ __floor__ __floordiv__ __getnewargs__ __index__ __int__ __invert__ __lshift__ __mod__ __mul__ __neg__ __or__ __pos__ __pow__ __radd__ __rand__ __rdivmod__ __rfloordiv__ __rlshift__ __rmod__ __rmul__ __ror__ __round__ __rpow__ __rrshift__ __rshift__ __rsub__ __rtruediv__ __rxor__ __sub__ __truediv__ __trunc__ __xor__",
	"bool":     "__abs__ __add__ __and__ __bool__ __ceil__ __divmod__ __float__ __floor__ __floordiv__ __getnewargs__ __index__ __int__ __invert__ __lshift__ __mod__ __mul__ __neg__ __or__ __pos__ __pow__ __radd__ __rand__ __rdivmod__ __rfloordiv__ __rlshift__ __rmod__ __rmul__ __ror__ __round__ __rpow__ __rrshift__ __rshift__ __rsub__ __rtruediv__ __rxor__ __sub__ __truediv__ __trunc__ __xor__",
	"float":    "__abs__ __add__ __bool__ __ceil__ __divmod__ __float__ __floor__ __floordiv__ __getformat__ __getnewargs__ __int__ __mod__ __mul__ __neg__ __pos__ __pow__ __radd__ __rdivmod__ __rfloordiv__ __rmod__ __rmul__ __round__ __rpow__ __rsub__ __rtruediv__ __sub__ __truediv__ __trunc__",
	"NoneType": "__bool__",
	"list":     "__add__ __class_getitem__ __contains__ __delitem__ __getitem__ __iadd__ __imul__ __iter__ __len__ __mul__ __reversed__ __rmul__ __setitem__",
	"tuple":    "__add__ __class_getitem__ __contains__ __getitem__ __getnewargs__ __iter__ __len__ __mul__ __rmul__",
	"type":     "__abstractmethods__ __annotations__ __base__ __bases__ __basicsize__ __call__ __dict__ __dictoffset__ __flags__ __instancecheck__ __itemsize__ __module__ __mro__ __name__ __or__ __prepare__ __qualname__ __ror__ __subclasscheck__ __subclasses__ __text_signature__ __weakrefoffset__",
	// a Python function or built-in method: what either has
	"function": "__annotations__ __builtins__ __call__ __closure__ __code__ __defaults__ __dict__ __get__ __globals__ __kwdefaults__ __module__ __name__ __qualname__ __self__ __text_signature__",
	"dict":     "__class_getitem__ __contains__ __delitem__ __getitem__ __ior__ __iter__ __len__ __or__ __reversed__ __ror__ __setitem__",
	"range":    "__bool__ __contains__ __getitem__ __iter__ __len__ __reversed__",
	"bytes":    "__add__ __bytes__ __contains__ __getitem__ __getnewargs__ __iter__ __len__ __mod__ __mul__ __rmod__ __rmul__",
	// dict views, sets, generators and complex numbers (FuzzPython found
	// dict_items' missing: the sandbox refuses what a value has)
	"dict_keys":    "__and__ __contains__ __iter__ __len__ __or__ __rand__ __reversed__ __ror__ __rsub__ __rxor__ __sub__ __xor__",
	"dict_values":  "__iter__ __len__ __reversed__",
	"mappingproxy": "__class_getitem__ __contains__ __getitem__ __ior__ __iter__ __len__ __or__ __reversed__ __ror__",
	"dict_items":   "__and__ __contains__ __iter__ __len__ __or__ __rand__ __reversed__ __ror__ __rsub__ __rxor__ __sub__ __xor__",
	"set":          "__and__ __class_getitem__ __contains__ __iand__ __ior__ __isub__ __iter__ __ixor__ __len__ __or__ __rand__ __ror__ __rsub__ __rxor__ __sub__ __xor__",
	"generator":    "__del__ __iter__ __name__ __next__ __qualname__",
	"complex":      "__abs__ __add__ __bool__ __complex__ __getnewargs__ __mul__ __neg__ __pos__ __pow__ __radd__ __rmul__ __rpow__ __rsub__ __rtruediv__ __sub__ __truediv__",
	// Jinja2's objects (the package implements __call__ of a Joiner)
	"Joiner":            "__call__ __dict__ __module__ __weakref__",
	"Cycler":            "__dict__ __module__ __next__ __weakref__",
	"LoopContext":       "__annotations__ __call__ __dict__ __iter__ __len__ __module__ __next__ __weakref__",
	"TemplateReference": "__dict__ __getitem__ __module__ __weakref__",
	"BlockReference":    "__call__ __dict__ __module__ __weakref__",
	"TemplateModule":    "__dict__ __html__ __module__ __weakref__",
	"_GroupTuple":       "__add__ __annotations__ __class_getitem__ __contains__ __getitem__ __getnewargs__ __iter__ __len__ __match_args__ __module__ __mul__ __orig_bases__ __rmul__ __slots__",
}

// pyObjectDunders are object's, which every value has.
const pyObjectDunders = "__class__ __delattr__ __dir__ __doc__ __eq__ __format__ __ge__ __getattribute__ __getstate__ __gt__ __hash__ __init__ __init_subclass__ __le__ __lt__ __ne__ __new__ __reduce__ __reduce_ex__ __repr__ __setattr__ __sizeof__ __str__ __subclasshook__"

// pyHasDunder reports whether Python's value of v's type has the dunder
// attribute name. Values the table does not list (Jinja2's objects,
// functions) are taken to have object's, and __dict__ and __module__.
func pyHasDunder(v Value, name string) bool {
	t := TypeName(v)
	if t == "Namespace" {
		// its __getattribute__ answers __class__ alone
		return name == "__class__"
	}
	if strings.Contains(" "+pyObjectDunders+" ", " "+name+" ") {
		return true
	}
	if v.kind == KindFunc {
		t = "function"
	}
	if k, ok := v.ref.(*pyClass); ok && v.kind == KindObject {
		// a class has its instances' methods too (dict.__len__)
		if k == classUndefined && undefinedDunders[name] {
			return true
		}
		if ds, ok := pyTypeDunders[k.name]; ok && strings.Contains(" "+ds+" ", " "+name+" ") {
			return true
		}
	}
	if ds, ok := pyTypeDunders[t]; ok {
		return strings.Contains(" "+ds+" ", " "+name+" ")
	}
	return name == "__dict__" || name == "__module__"
}

// pyPrivateAttrs are the private attributes that are no dunders which
// Jinja2's objects have, by type (dir() of an instance); builtin values
// have none.
var pyPrivateAttrs = map[string]string{
	"LoopContext":       "_after _before _current _iterable _iterator _last_changed_value _length _peek_next _recurse _to_iterator _undefined",
	"Macro":             "_argument_count _async_invoke _default_autoescape _environment _func _invoke",
	"TemplateReference": "_TemplateReference__context",
	"TemplateModule":    "_body_stream",
	"Namespace":         "_Namespace__attrs",
	"_GroupTuple":       "_asdict _field_defaults _fields _make _replace",
}

// pyHasPrivate reports whether Python's value of v's type has the private
// attribute name, which is no dunder (the sandbox refuses those it has).
func pyHasPrivate(v Value, name string) bool {
	if _, ok := v.ref.(*goStruct); ok && v.kind == KindObject {
		// a Go struct's field named by a json tag such as "_id" is an
		// attribute: the sandbox refuses every private name of one
		return true
	}
	if n, ok := v.ref.(*namespace); ok && v.kind == KindObject {
		// a namespace's names are its attributes (Namespace.__getattribute__)
		if _, has := n.Attr(name); has {
			return true
		}
	}
	t := TypeName(v)
	if v.kind == KindFunc {
		if v.ref.(*Func).mac == nil {
			return false
		}
		t = "Macro"
	}
	ds, ok := pyPrivateAttrs[t]
	return ok && strings.Contains(" "+ds+" ", " "+name+" ")
}

// The dunder methods the package implements outside the sandbox, for the
// builtin types that have them: __len__, __contains__, __str__ and
// __repr__ of str, Markup, list, tuple, dict and range ('ab'.__len__() is
// 2), bound to the value or unbound on the class (dict.__len__(d)), and
// an Undefined's __len__, __str__ and __repr__. Another dunder the type
// has stays Unsupported (GetAttr).

// dunderTypes are the types whose dunder methods are implemented.
func dunderType(t string) bool {
	switch t {
	case "str", "Markup", "list", "tuple", "dict", "range", "int", "float", "bool", "NoneType", "_GroupTuple", "bytes",
		"dict_keys", "dict_values", "dict_items", "set", "mappingproxy":
		return true
	}
	return false
}

// typeHasDunder reports whether the builtin type t has the dunder name,
// its own or object's.
func typeHasDunder(t, name string) bool {
	return strings.Contains(" "+pyObjectDunders+" "+pyTypeDunders[t]+" ", " "+name+" ")
}

// dunderName reports whether name is one of the implemented methods.
func dunderName(name string) bool {
	switch name {
	case "__len__", "__contains__", "__str__", "__repr__":
		return true
	}
	return false
}

// builtinDunder reports whether CPython gives t's method name as a
// built-in method (defined in the type's method table) rather than a
// method-wrapper (a slot): dict.__contains__ of those here.
func builtinDunder(t, name string) bool { return t == "dict" && name == "__contains__" }

// dunderMethod is v.name, bound to v, for the implemented dunder methods.
func dunderMethod(v Value, name string) (Value, bool) {
	if r, ok := markupDunderMethod(v, name); ok {
		return r, true
	}
	if r, ok := numDunderMethod(v, name); ok {
		return r, true
	}
	if r, ok := cmpDunderMethod(v, name); ok {
		return r, true
	}
	if r, ok := seqDunderMethod(v, name); ok {
		return r, true
	}
	if r, ok := formatDunderMethod(v, name); ok {
		return r, true
	}
	t := TypeName(v)
	if !dunderType(t) || !dunderName(name) {
		return Value{}, false
	}
	f := &Func{Name: t + "." + name, Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		return callDunder(c, t, name, v, args, kw)
	}}
	if builtinDunder(t, name) {
		f.Repr = "<built-in method " + name + " of " + t + " object at " + addr(f) + ">"
	} else {
		f.Repr = "<method-wrapper '" + name + "' of " + t + " object at " + addr(f) + ">"
	}
	return FuncV(f), true
}

// unboundDunder is cls.name for the implemented dunder methods of the
// builtin class owner: a slot wrapper, or a method descriptor.
func unboundDunder(owner, name string) (Value, bool) {
	if owner == "Markup" || !dunderType(owner) || !dunderName(name) || !typeHasDunder(owner, name) {
		// Markup's __repr__ is a Python function of markupsafe's
		return Value{}, false
	}
	if name == "__str__" && owner != "str" {
		// object's slot, which every builtin but str inherits:
		// object.__str__(x) is type(x).__repr__(x), for any x
		return FuncV(&Func{Name: "object.__str__", Repr: "<slot wrapper '__str__' of 'object' objects>", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			switch {
			case len(args) == 0:
				return Value{}, typeErr("descriptor '__str__' of 'object' object needs an argument")
			case len(kw) > 0:
				return Value{}, typeErr("wrapper __str__() takes no keyword arguments")
			case len(args) > 1:
				return Value{}, typeErr("expected 0 arguments, got %d", len(args)-1)
			}
			return StrV(reprOf(c, args[0])), nil
		}}), true
	}
	builtin := builtinDunder(owner, name)
	repr := "<slot wrapper '" + name + "' of '" + owner + "' objects>"
	if builtin {
		repr = "<method '" + name + "' of '" + owner + "' objects>"
	}
	return FuncV(&Func{Name: owner + "." + name, Repr: repr, Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		switch {
		case len(args) == 0 && builtin:
			return Value{}, typeErr("unbound method %s.%s() needs an argument", owner, name)
		case len(args) == 0:
			return Value{}, typeErr("descriptor '%s' of '%s' object needs an argument", name, owner)
		case !isInstance(args[0], owner) && builtin:
			return Value{}, typeErr("descriptor '%s' for '%s' objects doesn't apply to a '%s' object", name, owner, TypeName(args[0]))
		case !isInstance(args[0], owner):
			return Value{}, typeErr("descriptor '%s' requires a '%s' object but received a '%s'", name, owner, TypeName(args[0]))
		}
		return callDunder(c, owner, name, args[0], args[1:], kw)
	}}), true
}

// callDunder calls the dunder method name of type t on recv.
func callDunder(c *Ctx, t, name string, recv Value, args []Value, kw []Kwarg) (Value, error) {
	want := 0
	if name == "__contains__" {
		want = 1
	}
	if builtinDunder(t, name) {
		if len(kw) > 0 {
			return Value{}, typeErr("%s.%s() takes no keyword arguments", t, name)
		}
		if len(args) != want {
			return Value{}, typeErr("%s.%s() takes exactly one argument (%d given)", t, name, len(args))
		}
	} else {
		if err := wrapperArgs(name, args, kw, want); err != nil {
			return Value{}, err
		}
	}
	switch name {
	case "__len__":
		n, err := Len(recv)
		return IntV(int64(n)), err
	case "__contains__":
		ok, err := Contains(c, recv, args[0])
		return BoolV(ok), err
	case "__str__":
		// str.__str__ of a Markup is an exact str
		s, err := ToStr(c, recv)
		return StrV(s), err
	}
	if t == "int" && recv.kind == KindBool {
		// int.__repr__(True) is '1'
		return StrV(Repr(IntV(recv.n))), nil
	}
	return StrV(reprOf(c, recv)), nil
}

// undefinedDunderResult is what Undefined's Python method name returns,
// whatever self is: __len__ 0, __str__ the empty str and __repr__
// 'Undefined'; not ok for any other name.
func undefinedDunderResult(name string) (Value, bool) {
	switch name {
	case "__len__":
		return IntV(0), true
	case "__str__":
		return StrV(""), true
	case "__repr__":
		return StrV("Undefined"), true
	}
	return Value{}, false
}

// undefinedFails are the dunders Jinja2's Undefined sets to
// _fail_with_undefined_error: a call, with any arguments, raises the
// Undefined's error.
var undefinedFails = map[string]bool{
	"__add__": true, "__radd__": true, "__sub__": true, "__rsub__": true, "__mul__": true, "__rmul__": true,
	"__div__": true, "__rdiv__": true, "__truediv__": true, "__rtruediv__": true, "__floordiv__": true,
	"__rfloordiv__": true, "__mod__": true, "__rmod__": true, "__pos__": true, "__neg__": true,
	"__call__": true, "__getitem__": true, "__lt__": true, "__le__": true, "__gt__": true, "__ge__": true,
	"__int__": true, "__float__": true, "__complex__": true, "__pow__": true, "__rpow__": true,
}

// undefinedDunder is the Undefined u's Python method name, bound: __len__,
// __str__, __repr__ and __bool__ (no argument), __eq__ and __ne__ (other:
// true when other is an Undefined too) and the ones that raise u's error.
func undefinedDunder(u Value, name string) (Value, bool) {
	if name == "__module__" {
		return StrV("jinja2.runtime"), true
	}
	if name == "__format__" {
		return formatDunderMethod(u, name)
	}
	if undefinedFails[name] {
		return FuncV(&Func{Name: "Undefined._fail_with_undefined_error", bound: reprText("Undefined"), Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			return Value{}, u.undefErr()
		}}), true
	}
	if name == "__eq__" || name == "__ne__" {
		return FuncV(&Func{Name: "Undefined." + name, bound: reprText("Undefined"), Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			var other Value
			set := len(args) > 0
			if len(args) > 1 {
				return Value{}, typeErr("Undefined.%s() takes 2 positional arguments but %d were given", name, len(args)+1)
			}
			if set {
				other = args[0]
			}
			for _, k := range kw {
				if k.Name != "other" {
					return Value{}, typeErr("Undefined.%s() got an unexpected keyword argument '%s'", name, k.Name)
				}
				if set {
					return Value{}, typeErr("Undefined.%s() got multiple values for argument 'other'", name)
				}
				other, set = k.Value, true
			}
			if !set {
				return Value{}, typeErr("Undefined.%s() missing 1 required positional argument: 'other'", name)
			}
			// type(self) is type(other): the package has one Undefined class
			return BoolV((other.kind == KindUndefined) == (name == "__eq__")), nil
		}}), true
	}
	r, ok := undefinedDunderResult(name)
	if name == "__bool__" {
		r, ok = BoolV(false), true
	}
	if !ok {
		return Value{}, false
	}
	return FuncV(&Func{Name: "Undefined." + name, bound: reprText("Undefined"), Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		if len(kw) > 0 {
			return Value{}, typeErr("Undefined.%s() got an unexpected keyword argument '%s'", name, kw[0].Name)
		}
		if len(args) > 0 {
			return Value{}, typeErr("Undefined.%s() takes 1 positional argument but %d were given", name, len(args)+1)
		}
		return r, nil
	}}), true
}

// jinja2Modules are the modules of the classes of Jinja2's and
// markupsafe's objects, their __module__.
var jinja2Modules = map[string]string{
	"Cycler": "jinja2.utils", "Joiner": "jinja2.utils", "_GroupTuple": "jinja2.filters", "Markup": "markupsafe",
	"LoopContext": "jinja2.runtime", "TemplateReference": "jinja2.runtime", "BlockReference": "jinja2.runtime",
}

// moduleAttr is v.__module__ of a class or of one of Jinja2's objects,
// when the package knows it.
func moduleAttr(v Value) (Value, bool) {
	if k, ok := v.ref.(*pyClass); ok && v.kind == KindObject {
		if k.module == "" {
			return StrV("builtins"), true
		}
		return StrV(k.module), true
	}
	if m, ok := jinja2Modules[TypeName(v)]; ok && v.kind != KindFunc {
		return StrV(m), true
	}
	return Value{}, false
}
