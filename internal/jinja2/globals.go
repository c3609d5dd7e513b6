package jinja2

import (
	"math/big"
	"strings"
)

// Jinja2 3.1's builtin globals: range, dict, lipsum, cycler, joiner,
// namespace.

// maxRange is the sandbox's MAX_RANGE.
const maxRange = 100000

func gRange(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	if len(kw) > 0 {
		if sandboxed(c) {
			// the sandbox's range is safe_range(*args), a Python function
			return Value{}, typeErr("safe_range() got an unexpected keyword argument '%s'", kw[0].Name)
		}
		return Value{}, typeErr("range() takes no keyword arguments")
	}
	var start, stop, step int64 = 0, 0, 1
	n := make([]int64, len(args))
	big := false
	for i, a := range args {
		if a.kind == KindInt && a.ref != nil {
			// Python's range holds ints of any size: a lazyRange
			big = true
			continue
		}
		v, err := intArg(a)
		if err != nil {
			return Value{}, err
		}
		n[i] = v
	}
	if big && len(args) <= 3 {
		return gRangeBig(c, args)
	}
	switch len(args) {
	case 1:
		stop = n[0]
	case 2:
		start, stop = n[0], n[1]
	case 3:
		start, stop, step = n[0], n[1], n[2]
	case 0:
		return Value{}, typeErr("range expected at least 1 argument, got 0")
	default:
		return Value{}, typeErr("range expected at most 3 arguments, got %d", len(args))
	}
	if step == 0 {
		return Value{}, valueErr("range() arg 3 must not be zero")
	}
	// compute_range_length, in uint64: the difference of two int64s fits
	var count uint64
	if step > 0 && stop > start {
		count = (uint64(stop)-uint64(start)-1)/uint64(step) + 1
	} else if step < 0 && stop < start {
		count = (uint64(start)-uint64(stop)-1)/(uint64(-(step+1))+1) + 1
	}
	if count > maxAlloc/64 {
		// Python's range is lazy: a loop that breaks early, len, in and
		// indexing read it without building it
		return gRangeBig(c, []Value{IntV(start), IntV(stop), IntV(step)})
	}
	if sandboxed(c) && count > maxRange {
		return Value{}, pyErr("OverflowError", "Range too big. The sandbox blocks ranges larger than MAX_RANGE (%d).", maxRange)
	}
	if err := grow(c, int(count)); err != nil {
		return Value{}, err
	}
	items := make([]Value, count)
	for i := range items {
		items[i] = IntV(start + int64(i)*step)
	}
	return ObjectV(&rangeObj{items: items, start: start, stop: stop, step: step}), nil
}

// gRangeBig is range() of ints of any size, or of more items than the
// package builds: a lazyRange, within the sandbox's MAX_RANGE there (its
// len() is an OverflowError beyond a Py_ssize_t first).
func gRangeBig(c *Ctx, args []Value) (Value, error) {
	b := make([]*big.Int, len(args))
	for i, a := range args {
		b[i] = bigInt(a)
	}
	start, stop, step := new(big.Int), b[0], big.NewInt(1)
	switch len(args) {
	case 2:
		start, stop = b[0], b[1]
	case 3:
		start, stop, step = b[0], b[1], b[2]
	}
	if step.Sign() == 0 {
		return Value{}, valueErr("range() arg 3 must not be zero")
	}
	if sandboxed(c) {
		n := rangeLen(start, stop, step)
		if !n.IsInt64() {
			return Value{}, pyErr("OverflowError", "Python int too large to convert to C ssize_t")
		}
		if n.Int64() > maxRange {
			return Value{}, pyErr("OverflowError", "Range too big. The sandbox blocks ranges larger than MAX_RANGE (%d).", maxRange)
		}
	}
	return rangeValue(c, start, stop, step)
}

// rangeObj is range(): a sequence that prints as range(a, b).
type rangeObj struct {
	items             []Value
	start, stop, step int64
}

func (r *rangeObj) TypeName() string { return "range" }
func (r *rangeObj) Attr(name string) (Value, bool) {
	return rangeAttr(name, IntV(r.start), IntV(r.stop), IntV(r.step), r.search)
}

// search is rangeAttr's search: the built items, compared one by one.
func (r *rangeObj) search(_ string, x Value) (Value, int64, error) {
	n, at := int64(0), -1
	for i, it := range r.items {
		if Equal(it, x) {
			n++
			if at < 0 {
				at = i
			}
		}
	}
	return IntV(int64(at)), n, nil
}
func (r *rangeObj) Iter(c *Ctx) ([]Value, error) { return r.items, nil }
func (r *rangeObj) Len() int                     { return len(r.items) }
func (r *rangeObj) Item(key Value) (Value, bool) {
	v, ok, _ := item(ListV(r.items), key)
	return v, ok
}
func (r *rangeObj) Repr() string {
	if r.step == 1 {
		return "range(" + itoa64(r.start) + ", " + itoa64(r.stop) + ")"
	}
	return "range(" + itoa64(r.start) + ", " + itoa64(r.stop) + ", " + itoa64(r.step) + ")"
}
func (r *rangeObj) Equal(o Value) bool {
	if l, ok := o.ref.(*lazyRange); ok && o.kind == KindObject {
		return l.Equal(ObjectV(r))
	}
	w, ok := o.ref.(*rangeObj)
	return ok && o.kind == KindObject && Equal(ListV(r.items), ListV(w.items))
}

func gDict(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	d := NewDict(len(kw))
	if err := fillDict(c, d, args, kw); err != nil {
		return Value{}, err
	}
	return DictV(d), nil
}

// fillDict sets d's items as dict(*args, **kw) gives them.
func fillDict(c *Ctx, d *Dict, args []Value, kw []Kwarg) error {
	if len(args) > 1 {
		return typeErr("dict expected at most 1 argument, got %d", len(args))
	}
	if len(args) == 1 {
		if err := dictUpdate(c, d, args[0]); err != nil {
			return err
		}
	}
	for _, k := range kw {
		d.SetStr(k.Name, k.Value)
	}
	return nil
}

// cycler is jinja2.utils.Cycler.
type cycler struct {
	items []Value
	pos   int
	dict  *Dict // its __dict__, once read: then items and pos live there (values_instdict.go)
}

func (cy *cycler) TypeName() string { return "Cycler" }

// Repr is object.__repr__ of jinja2.utils.Cycler.
func (cy *cycler) Repr() string { return "<jinja2.utils.Cycler object at " + addr(cy) + ">" }
func (cy *cycler) Attr(name string) (Value, bool) {
	if cy.dict != nil || name == "__dict__" {
		if r, ok := cy.dictAttr(name); ok || name == "items" || name == "pos" || name == "current" {
			return r, ok
		}
	}
	switch name {
	case "current":
		return cy.items[cy.pos], true
	case "items":
		return TupleV(cy.items), true
	case "pos":
		return IntV(int64(cy.pos)), true
	case "next", "__next__":
		// __next__ = next: the same function
		return selfMethod("Cycler.next", cy, func() Value {
			rv := cy.items[cy.pos]
			cy.pos = (cy.pos + 1) % len(cy.items)
			return rv
		}), true
	case "__weakref__":
		return NoneV(), true
	case "reset":
		return selfMethod("Cycler.reset", cy, func() Value {
			cy.pos = 0
			return NoneV()
		}), true
	}
	return Value{}, false
}

// selfMethod is the method name of bound that takes self alone: called
// with arguments it raises selfOnly's TypeError, else it returns f().
func selfMethod(name string, bound Reprer, f func() Value) Value {
	return FuncV(&Func{Name: name, bound: bound, Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		if err := selfOnly(name, args, kw); err != nil {
			return Value{}, err
		}
		return f(), nil
	}})
}

// selfOnly is the TypeError of a Python method that takes self alone,
// called with arguments.
func selfOnly(name string, args []Value, kw []Kwarg) error {
	if len(args) > 0 {
		return typeErr("%s() takes 1 positional argument but %d were given", name, len(args)+1)
	}
	if len(kw) > 0 {
		return typeErr("%s() got an unexpected keyword argument '%s'", name, kw[0].Name)
	}
	return nil
}

// joiner is jinja2.utils.Joiner.
type joiner struct {
	sep  Value
	used bool
	dict *Dict // its __dict__, once read: then sep and used live there (values_instdict.go)
}

func (j *joiner) TypeName() string { return "Joiner" }
func (j *joiner) Repr() string     { return "<jinja2.utils.Joiner object at " + addr(j) + ">" }
func (j *joiner) Attr(name string) (Value, bool) {
	if j.dict != nil || name == "__dict__" {
		if r, ok := j.dictAttr(name); ok || name == "sep" || name == "used" {
			return r, ok
		}
	}
	switch name {
	case "sep":
		return j.sep, true
	case "used":
		return BoolV(j.used), true
	case "__call__":
		return FuncV(&Func{Name: "Joiner.__call__", bound: j, Call: j.CallValue}), true
	case "__weakref__":
		return NoneV(), true
	}
	return Value{}, false
}

func (j *joiner) CallValue(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	if err := selfOnly("Joiner.__call__", args, kw); err != nil {
		return Value{}, err
	}
	if j.dict != nil {
		return j.dictCall()
	}
	if !j.used {
		j.used = true
		return StrV(""), nil
	}
	return j.sep, nil
}

// namespace is jinja2.utils.Namespace.
type namespace struct {
	d   *Dict
	own Dict // what d points to
}

func (n *namespace) TypeName() string { return "Namespace" }
func (n *namespace) Attr(name string) (Value, bool) {
	return n.d.GetStr(name)
}
func (n *namespace) SetAttr(name string, v Value) error {
	n.d.SetStr(name, v)
	return nil
}
func (n *namespace) Repr() string { return "<Namespace " + Repr(DictV(n.d)) + ">" }

// reset empties n for another render, keeping the room of its items.
func (n *namespace) reset() {
	d := &n.own
	clear(d.keys)
	clear(d.vals)
	*n = namespace{own: Dict{keys: d.keys[:0], vals: d.vals[:0]}}
	// a Go callback that kept the namespace reads it as empty, no nil
	n.d = &n.own
}

func builtinGlobals() map[string]Value {
	return map[string]Value{
		"range":     ObjectV(classRange),
		"dict":      ObjectV(classDict),
		"cycler":    ObjectV(classCycler),
		"joiner":    ObjectV(classJoiner),
		"namespace": ObjectV(classNamespace),
		"lipsum":    FuncV(&Func{Name: "generate_lorem_ipsum", Call: gLipsum}),
	}
}

var _ = strings.Repeat

// newCycler is cycler(*items).
func newCycler(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	if len(kw) > 0 {
		// Cycler.__init__(self, *items): no keyword (a call block's
		// caller neither)
		return Value{}, typeErr("Cycler.__init__() got an unexpected keyword argument '%s'", kw[0].Name)
	}
	if len(args) == 0 {
		return Value{}, pyErr("RuntimeError", "at least one item has to be provided")
	}
	return ObjectV(&cycler{items: append([]Value(nil), args...)}), nil
}

// newJoiner is joiner(sep=', ').
func newJoiner(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	a, set, err := bd.bind("Joiner.__init__", args, kw, "sep")
	if err != nil {
		return Value{}, err
	}
	sep := StrV(", ")
	if set[0] {
		sep = a[0]
	}
	return ObjectV(&joiner{sep: sep}), nil
}

// newNamespace is namespace(mapping, **kw).
func newNamespace(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	var ns *namespace
	if c != nil {
		ns = c.newSpace()
	} else {
		ns = &namespace{} // the namespace and its dict in one allocation
		ns.d = &ns.own
	}
	if cap(ns.own.keys) < len(kw) {
		ns.own.init(len(kw))
	}
	if err := fillDict(c, ns.d, args, kw); err != nil {
		return Value{}, err
	}
	return ObjectV(ns), nil
}
