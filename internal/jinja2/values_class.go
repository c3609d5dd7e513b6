package jinja2

import "strings"

// Python's classes as values: the globals range, dict, cycler, joiner and
// namespace are classes in Jinja2, and x.__class__ (outside the sandbox)
// is one. A class prints as <class '…'>, is called to make an instance,
// gives its methods unbound (<method 'upper' of 'str' objects>), and
// list, tuple, dict and type give a types.GenericAlias when subscripted
// (dict['a'] prints dict['a']).

// pyClass is one Python class.
type pyClass struct {
	name    string // __qualname__: "dict", "Cycler"
	module  string // "" for builtins, else "jinja2.utils"
	call    func(c *Ctx, args []Value, kw []Kwarg) (Value, error)
	generic bool     // cls[x] is a types.GenericAlias
	sample  Value    // an instance, whose methods are the class's; KindUndefined when none
	owner   string   // the class that defines the methods (int for bool)
	bases   []string // the mro after the class, without object
}

func (k *pyClass) TypeName() string { return "type" }

// qualified is the class's name as a GenericAlias argument: module.name.
func (k *pyClass) qualified() string {
	if k.module == "" {
		return k.name
	}
	return k.module + "." + k.name
}

func (k *pyClass) Repr() string { return "<class '" + k.qualified() + "'>" }

func (k *pyClass) CallValue(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	if k.call != nil {
		return k.call(c, args, kw)
	}
	if k.module == "" {
		if r, ok, err := callBuiltinClass(c, k.name, args, kw); ok {
			return r, err
		}
	}
	return Value{}, &Error{Kind: "Unsupported", Msg: "calling the class " + k.qualified() + " is not supported"}
}

// callBuiltinClass is list(x), tuple(x), str(x), int(x[, base]),
// float(x) or bool(x), as x.__class__ gives these classes outside the
// sandbox; ok is false for another class, or for a call the package does
// not implement (str(b, encoding)).
func callBuiltinClass(c *Ctx, name string, args []Value, kw []Kwarg) (Value, bool, error) {
	one := func() (Value, bool, error) {
		if len(kw) > 0 {
			return Value{}, true, typeErr("%s() takes no keyword arguments", name)
		}
		if len(args) > 1 {
			return Value{}, true, typeErr("%s expected at most 1 argument, got %d", name, len(args))
		}
		return Value{}, false, nil
	}
	switch name {
	case "type":
		// type(x) is x's class; type(name, bases, dict) makes a class,
		// which the package does not
		switch {
		case len(args) == 1 && len(kw) > 0:
			return Value{}, true, typeErr("type() takes no keyword arguments")
		case len(args) == 1:
			return classOf(args[0]), true, nil
		case len(args) != 3:
			return Value{}, true, typeErr("type() takes 1 or 3 arguments")
		}
	case "list", "tuple":
		if r, ok, err := one(); ok {
			return r, ok, err
		}
		var items []Value
		if len(args) == 1 {
			it, err := Iterate(c, args[0])
			if err != nil {
				return Value{}, true, err
			}
			items = append(make([]Value, 0, len(it)), it...)
		}
		if name == "tuple" {
			return TupleV(items), true, nil
		}
		return ListV(items), true, nil
	case "float":
		if r, ok, err := one(); ok {
			return r, ok, err
		}
		if len(args) == 0 {
			return FloatV(0), true, nil
		}
		f, err := pyFloat(args[0])
		return FloatV(f), true, err
	case "bool":
		if r, ok, err := one(); ok {
			return r, ok, err
		}
		return BoolV(len(args) == 1 && args[0].Truth()), true, nil
	case "str":
		if len(kw) > 0 || len(args) > 1 {
			return Value{}, false, nil
		}
		if len(args) == 0 {
			return StrV(""), true, nil
		}
		r, err := ToStr(c, args[0])
		return StrV(r), true, err
	case "int":
		if len(kw) > 0 || len(args) > 2 {
			return Value{}, false, nil
		}
		if len(args) == 0 {
			return IntV(0), true, nil
		}
		if len(args) == 1 {
			r, err := pyInt(args[0], 10)
			return r, true, err
		}
		if args[0].kind != KindStr {
			return Value{}, true, typeErr("int() can't convert non-string with explicit base")
		}
		base, err := intArg(args[1])
		if err != nil {
			return Value{}, true, err
		}
		if base != 0 && (base < 2 || base > 36) {
			return Value{}, true, valueErr("int() base must be >= 2 and <= 36, or 0")
		}
		r, err := pyInt(args[0], int(base))
		return r, true, err
	}
	return Value{}, false, nil
}

// Attr is getattr(cls, name): mro(), the unbound methods and the
// attributes of the instances' type.
func (k *pyClass) Attr(name string) (Value, bool) {
	if name == "mro" {
		mro := &Func{Name: "mro", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			if len(args)+len(kw) > 0 {
				return Value{}, typeErr("type.mro() takes no arguments (%d given)", len(args)+len(kw))
			}
			out := []Value{ObjectV(k)}
			for _, b := range k.bases {
				out = append(out, ObjectV(classNamed(b)))
			}
			if k == classObject {
				return ListV(out), nil
			}
			return ListV(append(out, ObjectV(classNamed("object")))), nil
		}}
		mro.Repr = "<built-in method mro of type object at " + addr(mro) + ">"
		return FuncV(mro), true
	}
	if name == "__class__" {
		return ObjectV(classNamed("type")), true
	}
	switch name {
	case "__name__", "__qualname__":
		// types.GenericAlias is named with its module
		return StrV(k.name[strings.LastIndexByte(k.name, '.')+1:]), true
	case "__module__":
		if k.module != "" {
			return StrV(k.module), true
		}
		if i := strings.LastIndexByte(k.name, '.'); i >= 0 {
			return StrV(k.name[:i]), true
		}
		if builtinClassNames[k.name] {
			return StrV("builtins"), true
		}
		return Value{}, false
	}
	if name == "__mro__" {
		out := []Value{ObjectV(k)}
		for _, b := range k.bases {
			out = append(out, ObjectV(classNamed(b)))
		}
		if k != classObject {
			out = append(out, ObjectV(classObject))
		}
		return TupleV(out), true
	}
	if r, ok := unboundDunder(k.name, name); ok && k.module == "" {
		return r, true
	}
	owner := k.owner
	if owner == "" {
		owner = k.name
	}
	switch {
	case k.name == "range":
		switch name {
		case "start", "stop", "step":
			return FuncV(&Func{Name: name, Repr: "<member '" + name + "' of 'range' objects>", Call: func(*Ctx, []Value, []Kwarg) (Value, error) {
				return Value{}, typeErr("'member_descriptor' object is not callable")
			}}), true
		case "count", "index":
			return k.unbound(name, "range", func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
				return c.Call(mustAttr(c, recv, name), args, kw)
			}), true
		}
		return Value{}, false
	case k == classUndefined:
		return undefinedClassDunder(name)
	case k.sample.kind == KindUndefined:
		return Value{}, false
	}
	if (k.sample.kind == KindInt || k.sample.kind == KindBool || k.sample.kind == KindFloat) && (name == "real" || name == "imag" || (k.sample.kind != KindFloat && (name == "numerator" || name == "denominator"))) {
		return FuncV(&Func{Name: name, Repr: "<attribute '" + name + "' of '" + owner + "' objects>", Call: func(*Ctx, []Value, []Kwarg) (Value, error) {
			return Value{}, typeErr("'getset_descriptor' object is not callable")
		}}), true
	}
	if k.name == "dict" && name == "fromkeys" {
		// a classmethod: bound to the class
		fn := &Func{Name: "dict.fromkeys", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			return dictMethod(name)(c, DictV(NewDict(0)), args, kw)
		}}
		fn.Repr = "<built-in method fromkeys of type object at " + addr(fn) + ">"
		return FuncV(fn), true
	}
	if fn := methodOf(k.sample, name); fn != nil {
		return k.unbound(name, owner, fn), true
	}
	return Value{}, false
}

// unbound is the method name of the class's instances, unbound: called
// with the instance first.
func (k *pyClass) unbound(name, owner string, fn methodFn) Value {
	return FuncV(&Func{Name: owner + "." + name, Repr: "<method '" + name + "' of '" + owner + "' objects>", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		if len(args) == 0 {
			return Value{}, typeErr("unbound method %s.%s() needs an argument", owner, name)
		}
		if !isInstance(args[0], owner) {
			return Value{}, typeErr("descriptor '%s' for '%s' objects doesn't apply to a '%s' object", name, owner, TypeName(args[0]))
		}
		// no sandbox check: Jinja2's immutable sandbox looks at the
		// attribute's owner, the class, which is no dict, so
		// dict.update(d, x) changes d there too
		return fn(c, args[0], args[1:], kw)
	}})
}

// isInstance reports whether v is an instance of the builtin class named.
func isInstance(v Value, class string) bool {
	t := TypeName(v)
	switch class {
	case "int":
		return v.kind == KindInt || v.kind == KindBool
	case "str":
		return v.kind == KindStr
	}
	return t == class
}

func mustAttr(c *Ctx, v Value, name string) Value {
	r, err := GetAttr(c, v, name)
	if err != nil {
		return Undef(err.Error())
	}
	return r
}

// Item is cls[key]: a types.GenericAlias for list, tuple, dict and type.
func (k *pyClass) Item(key Value) (Value, bool) {
	if !k.generic {
		return Value{}, false
	}
	return ObjectV(&genericAlias{origin: k, args: key}), true
}

// genericAlias is types.GenericAlias: dict['a'].
type genericAlias struct {
	origin   *pyClass
	args     Value
	unpacked bool
}

func (g *genericAlias) TypeName() string { return "types.GenericAlias" }

func (g *genericAlias) Repr() string {
	var b strings.Builder
	if g.unpacked {
		b.WriteByte('*')
	}
	b.WriteString(g.origin.qualified())
	b.WriteByte('[')
	if g.args.kind == KindTuple {
		items := g.args.list().Items
		if len(items) == 0 {
			b.WriteString("()")
		}
		for i, it := range items {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(aliasArgRepr(it))
		}
	} else {
		b.WriteString(aliasArgRepr(g.args))
	}
	b.WriteByte(']')
	return b.String()
}

// aliasArgRepr is how a GenericAlias writes one argument: a class by its
// qualified name, anything else by its repr.
func aliasArgRepr(v Value) string {
	if v.kind == KindObject {
		if k, ok := v.ref.(*pyClass); ok {
			return k.qualified()
		}
	}
	return Repr(v)
}

// Attr is the origin class's attribute.
func (g *genericAlias) Attr(name string) (Value, bool) {
	// ga_getattro: the alias's own attributes, and everything else the
	// origin's (dict['a'].__len__ is dict.__len__)
	switch name {
	case "__origin__":
		return ObjectV(g.origin), true
	case "__args__":
		if g.args.kind == KindTuple {
			return g.args, true
		}
		return TupleV([]Value{g.args}), true
	case "__unpacked__":
		return BoolV(g.unpacked), true
	case "__parameters__":
		return TupleV(nil), true
	case "__class__", "__typing_unpacked_tuple_args__", "__mro_entries__", "__reduce_ex__", "__reduce__", "__copy__", "__deepcopy__":
		return Value{}, false
	}
	return g.origin.Attr(name)
}

func (g *genericAlias) CallValue(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	return g.origin.CallValue(c, args, kw)
}

// Iter is iter(alias): the alias unpacked (*dict['a']).
func (g *genericAlias) Iter(*Ctx) ([]Value, error) {
	return []Value{ObjectV(&genericAlias{origin: g.origin, args: g.args, unpacked: true})}, nil
}

func (g *genericAlias) Equal(o Value) bool {
	if o.kind != KindObject {
		return false
	}
	h, ok := o.ref.(*genericAlias)
	return ok && h.origin == g.origin && h.unpacked == g.unpacked && Equal(g.args, h.args)
}

// The classes, one value each (so that dict == dict).
var (
	classObject    = &pyClass{name: "object", sample: Value{}}
	classType      = &pyClass{name: "type", generic: true}
	classNoneType  = &pyClass{name: "NoneType", sample: Value{}, call: func(*Ctx, []Value, []Kwarg) (Value, error) { return NoneV(), nil }}
	classBool      = &pyClass{name: "bool", sample: BoolV(false), owner: "int", bases: []string{"int"}}
	classInt       = &pyClass{name: "int", sample: IntV(0)}
	classFloat     = &pyClass{name: "float", sample: FloatV(0)}
	classStr       = &pyClass{name: "str", sample: StrV("")}
	classMarkup    = &pyClass{name: "Markup", module: "markupsafe", bases: []string{"str"}}
	classList      = &pyClass{name: "list", sample: ListV(nil), generic: true}
	classTuple     = &pyClass{name: "tuple", sample: TupleV(nil), generic: true}
	classDict      = &pyClass{name: "dict", sample: DictV(NewDict(0)), generic: true, call: gDict}
	classRange     = &pyClass{name: "range", call: gRange}
	classUndefined = &pyClass{name: "Undefined", module: "jinja2.runtime", call: newUndefined}
	classCycler    = &pyClass{name: "Cycler", module: "jinja2.utils", call: newCycler}
	classJoiner    = &pyClass{name: "Joiner", module: "jinja2.utils", call: newJoiner}
	classNamespace = &pyClass{name: "Namespace", module: "jinja2.utils", call: newNamespace}
)

// builtinClassNames are the classes without a module whose __module__
// is builtins (another's is not known: GenericAlias's is types).
var builtinClassNames = map[string]bool{
	"object": true, "type": true, "NoneType": true, "bool": true, "int": true, "float": true, "str": true, "list": true, "tuple": true,
	"dict": true, "range": true, "bytes": true, "generator": true, "dict_keys": true, "dict_values": true, "dict_items": true,
	"function": true, "builtin_function_or_method": true, "method": true, "method-wrapper": true, "wrapper_descriptor": true,
	"method_descriptor": true, "member_descriptor": true, "getset_descriptor": true,
}

// classNamed is the class of a builtin type's name.
func classNamed(name string) *pyClass {
	switch name {
	case "object":
		return classObject
	case "type":
		return classType
	case "NoneType":
		return classNoneType
	case "bool":
		return classBool
	case "int":
		return classInt
	case "float":
		return classFloat
	case "str":
		return classStr
	case "Markup":
		return classMarkup
	case "list":
		return classList
	case "tuple":
		return classTuple
	case "dict":
		return classDict
	case "range":
		return classRange
	case "Undefined":
		return classUndefined
	case "Cycler":
		return classCycler
	case "Joiner":
		return classJoiner
	case "Namespace":
		return classNamespace
	}
	return nil
}

// classOf is v.__class__.
func classOf(v Value) Value {
	t := TypeName(v)
	if k := classNamed(t); k != nil {
		return ObjectV(k)
	}
	module := typeModules[t]
	switch t {
	case "function":
		t, module = funcClass(v.ref.(*Func))
	}
	return ObjectV(&pyClass{name: t, module: module})
}

// newUndefined is Undefined(hint, obj, name, exc): an undefined value
// whose message is the hint, else the name's.
func newUndefined(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("Undefined.__init__", args, kw, "hint", "obj", "name", "exc")
	if err != nil {
		return Value{}, err
	}
	if set[0] && a[0].kind != KindNone {
		hint, err := ToStr(c, a[0])
		return Undef(hint), err
	}
	name := NoneV()
	if set[2] {
		name = a[2]
	}
	return Undef(Repr(name) + " is undefined"), nil
}

// funcClass is the class of a callable, as its repr shows it: a macro
// (or caller), a bound method of a Python object, a C method bound or
// not, a descriptor, or a Python function.
func funcClass(f *Func) (name, module string) {
	r := f.repr()
	switch {
	case f.mac != nil || strings.HasPrefix(r, "<Macro "):
		return "Macro", "jinja2.runtime"
	case strings.HasPrefix(r, "<built-in method "):
		return "builtin_function_or_method", ""
	case strings.HasPrefix(r, "<bound method "):
		return "method", ""
	case strings.HasPrefix(r, "<method '"):
		return "method_descriptor", ""
	case strings.HasPrefix(r, "<method-wrapper '"):
		return "method-wrapper", ""
	case strings.HasPrefix(r, "<slot wrapper '"):
		return "wrapper_descriptor", ""
	case f.bound != nil:
		return "method", ""
	case strings.HasPrefix(r, "<member '"):
		return "member_descriptor", ""
	case strings.HasPrefix(r, "<attribute '"):
		return "getset_descriptor", ""
	}
	return "function", ""
}

// sliceValue stands for slice(start, stop, step) as a GenericAlias's
// argument, which prints it.
func sliceValue(start, stop, step Value) Value {
	part := func(v Value) string {
		if v.kind == KindUndefined && v.s == "" && v.flags == 0 {
			return "None"
		}
		return Repr(v)
	}
	return ObjectV(&sliceObj{repr: "slice(" + part(start) + ", " + part(stop) + ", " + part(step) + ")"})
}

// sliceObj is a slice object, which only prints.
type sliceObj struct{ repr string }

func (s *sliceObj) TypeName() string          { return "slice" }
func (s *sliceObj) Attr(string) (Value, bool) { return Value{}, false }
func (s *sliceObj) Repr() string              { return s.repr }

// undefinedClassDunder is Undefined.name for the Python methods of the
// class Undefined whose result does not depend on self: __len__, __str__
// and __repr__, functions taking any self.
func undefinedClassDunder(name string) (Value, bool) {
	r, ok := undefinedDunderResult(name)
	if !ok {
		return Value{}, false
	}
	f := &Func{Name: "Undefined." + name}
	f.Call = func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		for _, k := range kw {
			if k.Name != "self" {
				return Value{}, typeErr("Undefined.%s() got an unexpected keyword argument '%s'", name, k.Name)
			}
		}
		switch n := len(args) + len(kw); {
		case len(args) > 0 && len(kw) > 0:
			return Value{}, typeErr("Undefined.%s() got multiple values for argument 'self'", name)
		case n == 0:
			return Value{}, typeErr("Undefined.%s() missing 1 required positional argument: 'self'", name)
		case n > 1:
			return Value{}, typeErr("Undefined.%s() takes 1 positional argument but %d were given", name, n)
		}
		return r, nil
	}
	f.Repr = "<function Undefined." + name + " at " + addr(f) + ">"
	return FuncV(f), true
}

// callNamespace is namespace(…) called with args, evaluated into memory of
// its own frame (constants as compiled): newNamespace copies them into the
// namespace's dict and keeps neither slice (a call of Qwen3's namespace(multi_step_tool=true,
// last_query_index=messages|length - 1) allocated its keywords).
func callNamespace(f *frame, args *compiledArgs, name string, pos Pos) (Value, error) {
	if args.consts {
		v, err := newNamespace(f.c, args.constArgs, args.constKw)
		if err != nil {
			return Value{}, place(err, name, pos)
		}
		return v, nil
	}
	var argBuf [2]Value
	var kwBuf [8]Kwarg
	as, kw, err := args.evalTo(f, nil, argBuf[:0], kwBuf[:0])
	if err != nil {
		return Value{}, place(err, name, pos)
	}
	v, err := newNamespace(f.c, as, kw)
	if err != nil {
		return Value{}, place(err, name, pos)
	}
	return v, nil
}
