package jinja2

import (
	"math"
	"math/big"
	"unsafe"
)

// Kind is a Value's Python type.
type Kind uint8

// The kinds of Value.
const (
	KindUndefined Kind = iota // jinja2.Undefined (ref: *undefinedInfo, or nil)
	KindNone                  // None
	KindBool                  // bool: n is 0 or 1
	KindInt                   // int: n, or ref *big.Int when it does not fit in an int64
	KindFloat                 // float: math.Float64bits in n
	KindStr                   // str: s; flagSafe marks markupsafe.Markup
	KindList                  // list: ref *List
	KindTuple                 // tuple: ref *List
	KindDict                  // dict: ref *Dict
	KindFunc                  // a callable: ref *Func (macros, globals, bound methods)
	KindObject                // anything else: ref Object (loop, namespace, cycler, joiner, Go values)
)

// Value is one template value. The zero Value is Undefined.
type Value struct {
	kind  Kind
	flags uint8
	n     int64
	s     string
	ref   any
}

const (
	flagSafe     uint8 = 1 << iota // KindStr: a markupsafe.Markup
	flagSecurity                   // KindUndefined: using it raises SecurityError (an unsafe attribute in the sandbox)
	flagLazyAttr                   // KindUndefined: a missing attribute, s its name and n its object's kind (undefAttr)
	flagASCII                      // KindStr: s is known to be ASCII, so its length is len(s) (strVScan)
	flagMissing                    // KindUndefined: Jinja2's missing, a frame's name before its first store (symbols.go)
	flagOwn                        // KindStr: s is the template's own text, not data (OwnStrV)
	flagProxy                      // KindDict: a mappingproxy of the dict (a dict view's mapping), read-only
)

// List is a list or a tuple.
type List struct {
	Items []Value
}

// Dict is Python's insertion-ordered dict. Keys are hashable Values (str,
// int, float, bool, None, tuples of those); 1, 1.0 and True are one key,
// as in Python.
type Dict struct {
	keys []Value
	vals []Value
	// sidx and idx are built once the dict grows past a few entries:
	// sidx holds its str keys, idx the others (a map keyed by a string
	// hashes and compares a few times faster than one keyed by dictKey)
	sidx map[string]int
	idx  map[dictKey]int
}

// dictKey is the hashable form of a key.
type dictKey struct {
	kind Kind
	n    int64
	s    string
}

// Kwarg is a keyword argument of a call.
type Kwarg struct {
	Name  string
	Value Value
}

// Func is a callable value: a macro, a global function, a bound method.
type Func struct {
	// Name is how Python names it in messages ("range", "macro 'm'",
	// "method 'upper' of 'str' object").
	Name string
	// Call calls it; like a Filter, it must change neither args nor kw.
	Call func(c *Ctx, args []Value, kw []Kwarg) (Value, error)
	// Repr is Python's repr of the callable ("<Macro 'm'>"); when empty
	// it is "<function Name at 0x…>". Read it with repr: a builtin
	// method's is made only when it is read (builtinOf).
	Repr string
	// bound, when set, is the object whose method this is: the repr is
	// then "<bound method Type.Name of repr(bound)>", as it is when
	// printed (LoopContext.cycle).
	bound Reprer
	// mac and def are a macro and the frame it was defined in (its
	// attributes are macroCode.attr); Call is nil then (Ctx.Call calls
	// any Func).
	mac *macroCode
	def *frame
	// builtinOf, when set, says Repr holds only the type name of the
	// object the builtin method is bound to: its repr is
	// "<built-in method Name of Repr object at 0x…>", made when read
	// (addr is a Sprintf and an Sscanf, and few bound methods print).
	builtinOf bool
}

// repr is f.Repr, made now for a builtin method bound to an object.
func (f *Func) repr() string {
	if f.builtinOf {
		return "<built-in method " + f.Name + " of " + f.Repr + " object at " + addr(f) + ">"
	}
	return f.Repr
}

// call calls f: its macro, or Call.
func (f *Func) call(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	if f.mac != nil {
		return f.mac.call(c, f.def, args, kw)
	}
	return f.Call(c, args, kw)
}

// Object is a value with attributes that is none of Python's builtin
// types: the loop variable, namespace(), cycler(), joiner(), a Go struct.
// It may also implement Iterable, Indexable, Lengther, Setter.
type Object interface {
	// TypeName is the Python type name used in messages, e.g. "LoopContext".
	TypeName() string
	// Attr returns the attribute name, or false when there is none.
	Attr(name string) (Value, bool)
}

// Iterable is an Object a for loop can walk.
type Iterable interface {
	Iter(c *Ctx) ([]Value, error)
}

// Indexable is an Object with items: obj[key].
type Indexable interface {
	Item(key Value) (Value, bool)
}

// Lengther is an Object with a length: len(obj).
type Lengther interface {
	Len() int
}

// Setter is an Object whose attributes a template may assign
// ({% set ns.x = 1 %}): namespace().
type Setter interface {
	SetAttr(name string, v Value) error
}

// Reprer is an Object with its own Python repr (and str, unless it is
// also a fmt.Stringer-like Strer).
type Reprer interface {
	Repr() string
}

// Strer is an Object with its own Python str.
type Strer interface {
	Str() string
}

// Constructors of values.

// Undef returns an Undefined value; hint says what was undefined, for
// the message of UndefinedError ("'x' is undefined", "'dict object' has no
// attribute 'y'").
func Undef(hint string) Value { return Value{kind: KindUndefined, s: hint} }

// NoneV is None.
func NoneV() Value { return Value{kind: KindNone} }

// BoolV is True or False.
func BoolV(b bool) Value {
	if b {
		return Value{kind: KindBool, n: 1}
	}
	return Value{kind: KindBool}
}

// IntV is an int.
func IntV(n int64) Value { return Value{kind: KindInt, n: n} }

// BigIntV is an int of any size (it is stored as an int64 when it fits).
func BigIntV(b *big.Int) Value {
	if b.IsInt64() {
		return IntV(b.Int64())
	}
	return Value{kind: KindInt, ref: b}
}

// StrV is a str.
func StrV(s string) Value { return Value{kind: KindStr, s: s} }

// strVScan is a str whose ASCII-ness is read once, where a value enters
// from Go: Python's str knows its length, and a template that takes
// output|length and output[:5000] of a long str then reads none of its
// bytes again.
func strVScan(s string) Value {
	if isASCII(s) {
		return Value{kind: KindStr, s: s, flags: flagASCII}
	}
	return Value{kind: KindStr, s: s}
}

// strASCII reports whether the str v is ASCII, from its flag when known.
func strASCII(v Value) bool { return v.flags&flagASCII != 0 || isASCII(v.s) }

// OwnStrV is a str that is the template's own text, not data (a chat
// template's token variable): a render that tracks where the template's
// own text wrote (Renderer.TrackOwn) records the span of {{ name }}
// printing it whole. What is made of it (a slice, a concatenation, a
// filter's result) is a str of its own, without the mark.
func OwnStrV(s string) Value { return Value{kind: KindStr, s: s, flags: flagOwn} }

// SafeV is a markupsafe.Markup: a str that autoescaping leaves alone.
func SafeV(s string) Value { return Value{kind: KindStr, s: s, flags: flagSafe} }

// ListV is a list holding items (not copied).
func ListV(items []Value) Value { return Value{kind: KindList, ref: &List{Items: items}} }

// TupleV is a tuple holding items (not copied).
func TupleV(items []Value) Value { return Value{kind: KindTuple, ref: &List{Items: items}} }

// strTuple is a tuple of the strs ss (a macro's arguments, a namedtuple's
// _fields).
func strTuple(ss []string) Value {
	items := make([]Value, len(ss))
	for i, s := range ss {
		items[i] = StrV(s)
	}
	return TupleV(items)
}

// DictV is a dict.
func DictV(d *Dict) Value { return Value{kind: KindDict, ref: d} }

// FuncV is a callable.
func FuncV(f *Func) Value { return Value{kind: KindFunc, ref: f} }

// ObjectV wraps an Object.
func ObjectV(o Object) Value { return Value{kind: KindObject, ref: o} }

// Kind returns v's kind.
func (v Value) Kind() Kind { return v.kind }

// IsSafe reports whether v is a markupsafe.Markup.
func (v Value) IsSafe() bool { return v.kind == KindStr && v.flags&flagSafe != 0 }

// FloatV is a float.
func FloatV(f float64) Value { return Value{kind: KindFloat, n: int64(math.Float64bits(f))} }

// unsafeUndef is the Undefined the sandbox gives for an unsafe attribute:
// using it raises SecurityError.
func unsafeUndef(msg string) Value {
	return Value{kind: KindUndefined, s: msg, flags: flagSecurity}
}

// Accessors, for the runtime and for callers that build contexts.

// Str returns a str's text ("" for other kinds).
func (v Value) Str() string {
	if v.kind == KindStr {
		return v.s
	}
	return ""
}

// Int64 returns an int's (or bool's) value when it fits in an int64.
func (v Value) Int64() (int64, bool) {
	switch v.kind {
	case KindBool:
		return v.n, true
	case KindInt:
		return v.n, v.ref == nil
	}
	return 0, false
}

// Float returns a float's value.
func (v Value) Float() float64 {
	if v.kind == KindFloat {
		return math.Float64frombits(uint64(v.n))
	}
	return 0
}

// Items returns the items of a list or tuple (shared, not copied).
func (v Value) Items() []Value {
	if v.kind == KindList || v.kind == KindTuple {
		return v.ref.(*List).Items
	}
	return nil
}

// DictOf returns a dict's *Dict, or nil.
func (v Value) DictOf() *Dict {
	if v.kind == KindDict {
		return v.ref.(*Dict)
	}
	return nil
}

// FuncOf returns a callable's *Func, or nil.
func (v Value) FuncOf() *Func {
	if v.kind == KindFunc {
		return v.ref.(*Func)
	}
	return nil
}

// ObjectOf returns an Object's value, or nil.
func (v Value) ObjectOf() Object {
	if v.kind == KindObject {
		return v.ref.(Object)
	}
	return nil
}

// IsUndefined reports whether v is Undefined.
func (v Value) IsUndefined() bool { return v.kind == KindUndefined }

// UndefinedMessage is the message of the UndefinedError v raises when used.
func (v Value) UndefinedMessage() string { return v.undefErr().Msg }

func (v Value) f() float64    { return math.Float64frombits(uint64(v.n)) }
func (v *Value) list() *List  { return v.ref.(*List) }
func (v *Value) dict() *Dict  { return v.ref.(*Dict) }
func (v Value) big() *big.Int { return v.ref.(*big.Int) }
func (v Value) isBig() bool   { return v.kind == KindInt && v.ref != nil }

// undefErr is the error using the Undefined v raises.
func (v Value) undefErr() *Error {
	if e, ok := v.ref.(*Error); ok {
		cp := *e
		return &cp
	}
	kind := "UndefinedError"
	if v.flags&flagSecurity != 0 {
		kind = "SecurityError"
	}
	msg := v.s
	if v.flags&flagLazyAttr != 0 {
		msg = v.lazyAttrMsg()
	}
	if msg == "" {
		msg = "None is undefined"
	}
	return &Error{Kind: kind, Msg: msg}
}

// put stores *v into *dst a field at a time. A Value has five fields,
// too many for the compiler to copy it in registers, so *dst = v is a
// block copy, which while the collector marks goes through
// bulkBarrierPreWrite (the type's pointer map read, the destination's
// span found) at every store; a field at a time, the two pointer words
// each take the write barrier's buffered fast path. For the stores a
// loop makes at each of its steps.
//
// A pointer word that already holds what it would be given is not
// written: a loop stores the same loop object, and names started from
// the outer scope the same values, at every step, and a dict item has
// no str, so most of these stores take no write barrier at all.
func (dst *Value) put(v *Value) {
	dst.kind, dst.flags, dst.n = v.kind, v.flags, v.n
	if len(dst.s) != len(v.s) || unsafe.StringData(dst.s) != unsafe.StringData(v.s) {
		dst.s = v.s
	}
	// the interface's two words compared as they are (== on an any
	// would compare the values, and panic on an uncomparable one)
	if a, b := (*[2]unsafe.Pointer)(unsafe.Pointer(&dst.ref)), (*[2]unsafe.Pointer)(unsafe.Pointer(&v.ref)); a[0] != b[0] || a[1] != b[1] {
		dst.ref = v.ref
	}
}
