package jinja2

// The operations the runtime performs on values, with Python's semantics.
// Owned by the values side; the runtime calls them and nothing else of a
// value's internals. Every error is an *Error (Kind as Python's exception,
// no position: the runtime adds the place).

func todo(what string) error {
	return &Error{Kind: "Unsupported", Msg: what + " is not implemented yet"}
}

// Truth is Python's bool(v) (Undefined is false).
func (v Value) Truth() bool { return v.n != 0 || v.s != "" }

// ToStr is Python's str(v) as Jinja2 prints it: None is "None", True is
// "True", floats as Python writes them, lists and dicts with reprs inside,
// Undefined is "" (an UndefinedError for a strict Undefined).
func ToStr(c *Ctx, v Value) (string, error) { return "", todo("str") }

// Repr is Python's repr(v).
func Repr(v Value) string { return "" }

// BinOp applies a binary operator: + - * / // % ** and ~ (which joins the
// str of both).
func BinOp(c *Ctx, op string, a, b Value) (Value, error) { return Value{}, todo("operator " + op) }

// UnaryOp applies - or + to a.
func UnaryOp(c *Ctx, op string, a Value) (Value, error) { return Value{}, todo("unary " + op) }

// Compare applies == != < <= > >= in and "not in".
func Compare(c *Ctx, op string, a, b Value) (bool, error) { return false, todo("comparison " + op) }

// GetAttr is Jinja2's environment.getattr (v.name): the attribute (a
// method of str, list, dict bound to v), else the item; Undefined when
// there is neither; under the sandbox, an unsafe attribute gives an
// Undefined that raises SecurityError when used.
func GetAttr(c *Ctx, v Value, name string) (Value, error) { return Value{}, todo("attribute") }

// GetItem is Jinja2's environment.getitem (v[key]): the item, else the
// attribute named key when key is a str; Undefined when there is neither.
func GetItem(c *Ctx, v Value, key Value) (Value, error) { return Value{}, todo("subscript") }

// Slice is v[start:stop:step]; an omitted bound is a zero Value.
func Slice(c *Ctx, v Value, start, stop, step Value) (Value, error) {
	return Value{}, todo("slice")
}

// Iterate returns the items a for loop over v sees (a dict's keys, a str's
// characters; Undefined gives none), or a TypeError.
func Iterate(c *Ctx, v Value) ([]Value, error) { return nil, todo("iteration") }

// Len is Python's len(v).
func Len(v Value) (int, error) { return 0, todo("len") }

// FromGo converts a Go value (nil, bool, ints, floats, string, []any, maps
// with string keys, slices and structs through reflection, Value itself)
// to a Value.
func FromGo(x any) Value { return Value{} }

// NewDict returns an empty dict with room for n items.
func NewDict(n int) *Dict { return &Dict{} }

// Set sets d[k] = v (an existing key keeps its place).
func (d *Dict) Set(k, v Value) {}

// Get returns d[k].
func (d *Dict) Get(k Value) (Value, bool) { return Value{}, false }

// Len is len(d).
func (d *Dict) Len() int { return len(d.keys) }

// builtinFilters, builtinTests and builtinGlobals are Jinja2 3.1's.
func builtinFilters() map[string]Filter { return nil }
func builtinTests() map[string]Test     { return nil }
func builtinGlobals() map[string]Value  { return nil }
