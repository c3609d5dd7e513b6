package jinja2

import (
	"fmt"
	"math/big"
	"reflect"
	"strings"
)

// Errors as Python raises them.

func typeErr(format string, a ...any) error {
	return &Error{Kind: "TypeError", Msg: fmt.Sprintf(format, a...)}
}

func valueErr(format string, a ...any) error {
	return &Error{Kind: "ValueError", Msg: fmt.Sprintf(format, a...)}
}

func pyErr(kind, format string, a ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, a...)}
}

// UndefName is the Undefined a name that is not defined gives:
// "'x' is undefined".
func UndefName(name string) Value { return Undef(reprStr(name) + " is undefined") }

// undefAttr is the Undefined of obj.name when obj has neither the
// attribute nor the item: "'dict object' has no attribute 'y'".
// The message is made when the Undefined is used (undefErr), not here:
// templates test for missing attributes at every turn
// ({% if message.tool_calls %}), and most such Undefineds are never used.
//
// An object's Undefined keeps the object (ref) for its type's name, only
// for the objects whose type name never changes (a namespace, the loop
// variable); for others, which a caller may implement, the message is
// made here.
func undefAttr(obj Value, name string) Value {
	var ref any
	if obj.kind == KindObject {
		switch obj.ref.(type) {
		case *namespace, *loopObj:
			ref = obj.ref
		}
	}
	if obj.kind == KindObject && ref == nil || obj.kind == KindFunc || name == "" {
		return Undef(reprStr(objectTypeRepr(obj)) + " has no attribute " + reprStr(name))
	}
	return Value{kind: KindUndefined, s: name, n: int64(obj.kind) | int64(obj.flags&flagSafe)<<8, flags: flagLazyAttr, ref: ref}
}

// lazyAttrMsg is the message of an Undefined undefAttr made lazily.
func (v Value) lazyAttrMsg() string {
	obj := Value{kind: Kind(v.n & 0xff), flags: uint8(v.n>>8) & flagSafe, ref: v.ref}
	return reprStr(objectTypeRepr(obj)) + " has no attribute " + reprStr(v.s)
}

// undefItem is the Undefined of obj[key] for a key that is not a str:
// "list object has no element 3".
func undefItem(obj Value, key Value) Value {
	return Undef(objectTypeRepr(obj) + " has no element " + Repr(key))
}

// objectTypeRepr is jinja2.utils.object_type_repr: the type's name, after
// its module's unless that is builtins.
func objectTypeRepr(v Value) string {
	if v.kind == KindNone {
		return "None"
	}
	t := TypeName(v)
	if f, ok := v.ref.(*Func); ok && v.kind == KindFunc {
		switch {
		case f.mac != nil:
			t = "Macro"
		case f.builtinOf || strings.HasPrefix(f.Repr, "<built-in "):
			t = "builtin_function_or_method"
		}
	}
	if m := typeModules[t]; m != "" {
		return m + "." + t + " object"
	}
	return t + " object"
}

// typeModules are the modules of the types objectTypeRepr names that are
// not builtins.
var typeModules = map[string]string{
	"Markup": "markupsafe", "Namespace": "jinja2.utils", "Cycler": "jinja2.utils", "Joiner": "jinja2.utils",
	"Macro": "jinja2.runtime", "LoopContext": "jinja2.runtime", "TemplateReference": "jinja2.runtime",
	"BlockReference": "jinja2.runtime", "TemplateModule": "jinja2.environment", "_GroupTuple": "jinja2.filters",
}

// TypeName is the name of v's Python type, as messages give it.
func TypeName(v Value) string {
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
		if v.flags&flagSafe != 0 {
			return "Markup"
		}
		return "str"
	case KindList:
		return "list"
	case KindTuple:
		return "tuple"
	case KindDict:
		if v.flags&flagProxy != 0 {
			return "mappingproxy"
		}
		return "dict"
	case KindFunc:
		// a macro is a Macro, a builtin's method a
		// builtin_function_or_method, a bound method a method
		t, _ := funcClass(v.ref.(*Func))
		return t
	case KindObject:
		return v.ref.(Object).TypeName()
	}
	return "object"
}

// grow is c.Grow for a Ctx that may be nil (direct calls in tests), with
// a hard ceiling that stands for Python's MemoryError when no limit is
// set.
func grow(c *Ctx, n int) error {
	if n > maxAlloc || n < 0 {
		return &Error{Kind: "MemoryError", Msg: ""}
	}
	if c == nil {
		return nil
	}
	return c.Grow(n)
}

// growLimited is grow with the render's size limit asked first, so that
// a configured limit is what a huge size reports.
func growLimited(c *Ctx, n int) error {
	if c != nil && n >= 0 {
		if err := c.Grow(n); err != nil {
			return err
		}
	}
	return grow(nil, n)
}

// maxAlloc is the largest string or list a template may build when no
// limit is set (1 GiB): Python raises MemoryError a little beyond.
const maxAlloc = 1 << 30

func envOf(c *Ctx) *Env {
	if c == nil {
		return nil
	}
	return c.Env()
}

func sandboxed(c *Ctx) bool {
	e := envOf(c)
	return e != nil && e.sandbox
}

func autoescaping(c *Ctx) bool { return c != nil && c.Autoescape() }

// escapeFn is the escaping Markup operations use.
func escapeFn(c *Ctx) func(string) string {
	if e := envOf(c); e != nil && e.escape != nil &&
		reflect.ValueOf(e.escape).Pointer() != reflect.ValueOf(htmlEscape).Pointer() {
		return e.escape
	}
	// api.go's htmlEscape is still a stub (values_needs.go)
	return htmlEscapeStr
}

// bigOf returns an int or bool as a *big.Int (a new one for small ints).
func bigOf(v Value) *big.Int {
	if v.ref != nil {
		if b, ok := v.ref.(*big.Int); ok {
			return b
		}
	}
	return big.NewInt(v.n)
}
