package jinja2

import (
	"math"
	"math/big"
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
	flagSafe uint8 = 1 << iota // KindStr: a markupsafe.Markup
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
	idx  map[dictKey]int // built once the dict grows past a few entries
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
	Call func(c *Ctx, args []Value, kw []Kwarg) (Value, error)
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

// SafeV is a markupsafe.Markup: a str that autoescaping leaves alone.
func SafeV(s string) Value { return Value{kind: KindStr, s: s, flags: flagSafe} }

// ListV is a list holding items (not copied).
func ListV(items []Value) Value { return Value{kind: KindList, ref: &List{Items: items}} }

// TupleV is a tuple holding items (not copied).
func TupleV(items []Value) Value { return Value{kind: KindTuple, ref: &List{Items: items}} }

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
