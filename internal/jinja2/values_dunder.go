package jinja2

import "strings"

// The dunder attributes Python's values have, by type, beyond object's
// (pyObjectDunders), as CPython 3 and markupsafe list them:
//
//	python3 -c 'print([n for n in dir(T) if n.startswith("__") and n not in dir(object)])'
//
// Without the sandbox, Jinja2's getattr reads them ('ab'.__len__() is 2);
// the package implements __class__ only, and refuses the others rather
// than print an Undefined where Python has a value (pyDunder).
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
