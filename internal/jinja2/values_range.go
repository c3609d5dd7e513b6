package jinja2

import (
	"math"
	"math/big"
)

// lazyRange is Python's range where the package's rangeObj (a built list)
// cannot be: a start, stop, step or length beyond 64 bits, or more items
// than a template may build (range(2**63 - 1) in a loop that breaks). Its
// len, items, slices, in, index, count, repr and equality are computed as
// CPython's rangeobject.c computes them, with ints of any size; a loop
// takes its items one at a time. Building all its items (list, sort, …)
// is Unsupported, or OverflowError where Python's len() already fails.
type lazyRange struct {
	start, stop, step, n *big.Int
}

var bigOne = big.NewInt(1)

// rangeLen is compute_range_length.
func rangeLen(start, stop, step *big.Int) *big.Int {
	lo, hi, st := start, stop, step
	if step.Sign() < 0 {
		lo, hi, st = stop, start, new(big.Int).Neg(step)
	}
	if lo.Cmp(hi) >= 0 {
		return new(big.Int)
	}
	n := new(big.Int).Sub(hi, lo)
	n.Sub(n, bigOne)
	n.Quo(n, st)
	return n.Add(n, bigOne)
}

// rangeValue is range(start, stop, step) (step not zero): the built
// rangeObj when it fits, a lazyRange otherwise.
func rangeValue(c *Ctx, start, stop, step *big.Int) (Value, error) {
	n := rangeLen(start, stop, step)
	if start.IsInt64() && stop.IsInt64() && step.IsInt64() && n.IsInt64() && n.Int64() <= maxAlloc/64 {
		count := n.Int64()
		if err := grow(c, int(count)); err != nil {
			return Value{}, err
		}
		s, st := start.Int64(), step.Int64()
		items := make([]Value, count)
		for i := range items {
			items[i] = IntV(s + int64(i)*st)
		}
		return ObjectV(&rangeObj{items: items, start: s, stop: stop.Int64(), step: st}), nil
	}
	return ObjectV(&lazyRange{start: start, stop: stop, step: step, n: n}), nil
}

// bigInt is an int or bool Value as a *big.Int.
func bigInt(v Value) *big.Int {
	if v.ref != nil {
		return v.big()
	}
	return big.NewInt(v.n)
}

// rangeParts is a range's start, stop, step and length.
func rangeParts(v Value) (*lazyRange, bool) {
	if v.kind != KindObject {
		return nil, false
	}
	switch r := v.ref.(type) {
	case *lazyRange:
		return r, true
	case *rangeObj:
		return &lazyRange{start: big.NewInt(r.start), stop: big.NewInt(r.stop), step: big.NewInt(r.step), n: big.NewInt(int64(len(r.items)))}, true
	}
	return nil, false
}

// rangeEqual is range_equals: the same length, and when not empty the
// same start, and when longer than one the same step.
func rangeEqual(a, b *lazyRange) bool {
	if a.n.Cmp(b.n) != 0 {
		return false
	}
	if a.n.Sign() == 0 {
		return true
	}
	if a.start.Cmp(b.start) != 0 {
		return false
	}
	return a.n.Cmp(bigOne) == 0 || a.step.Cmp(b.step) == 0
}

func (r *lazyRange) TypeName() string { return "range" }

// Attr is start, stop, step, index and count.
func (r *lazyRange) Attr(name string) (Value, bool) {
	return rangeAttr(name, BigIntV(r.start), BigIntV(r.stop), BigIntV(r.step), r.search)
}

// search is rangeAttr's search by arithmetic: an int is in the range at
// most once.
func (r *lazyRange) search(name string, x Value) (Value, int64, error) {
	v, ok := rangeIntOf(x)
	if !ok {
		// Python searches item by item (_PySequence_IterSearch)
		_, err := notModelled("range." + name + "() of a value that is not an int, over a range the package does not build")
		return Value{}, 0, err
	}
	i, in := r.indexOf(v)
	if !in {
		return Value{}, 0, nil
	}
	return BigIntV(i), 1, nil
}

// rangeAttr is the attribute name of a range (built, rangeObj, or not,
// lazyRange): start, stop, step, and the methods index and count, which
// take search's answer for their argument x: the index of x's first
// equal item, and how many items equal it.
func rangeAttr(name string, start, stop, step Value, search func(name string, x Value) (Value, int64, error)) (Value, bool) {
	switch name {
	case "start":
		return start, true
	case "stop":
		return stop, true
	case "step":
		return step, true
	case "index", "count":
		f := &Func{Name: name, Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			if len(args) != 1 || len(kw) > 0 {
				// (the qualified name, an allocation, only for the error)
				if err := nargs("range."+name, args, kw, 1, 1); err != nil {
					return Value{}, err
				}
			}
			at, n, err := search(name, args[0])
			if err != nil {
				return Value{}, err
			}
			if name == "count" {
				return IntV(n), nil
			}
			if n == 0 {
				if !isIntLike(args[0]) {
					// range_index searches item by item for what is not an int
					return Value{}, valueErr("sequence.index(x): x not in sequence")
				}
				return Value{}, valueErr("%s is not in range", Repr(args[0]))
			}
			return at, nil
		}}
		f.Repr = "<built-in method " + name + " of range object at " + addr(f) + ">"
		return FuncV(f), true
	}
	return Value{}, false
}

// rangeIntOf is x as an int when range_contains_long would read it: an
// int or a bool (and, for the answer only, a float that is integral: it
// equals the int, which Python's item-by-item search finds).
func rangeIntOf(x Value) (*big.Int, bool) {
	switch x.kind {
	case KindInt, KindBool:
		return bigInt(x), true
	}
	return nil, false
}

// indexOf is range_contains_long and the index range_index computes.
func (r *lazyRange) indexOf(x *big.Int) (*big.Int, bool) {
	if r.step.Sign() > 0 {
		if r.start.Cmp(x) > 0 || x.Cmp(r.stop) >= 0 {
			return nil, false
		}
	} else if x.Cmp(r.start) > 0 || r.stop.Cmp(x) >= 0 {
		return nil, false
	}
	d := new(big.Int).Sub(x, r.start)
	q, m := new(big.Int).QuoRem(d, r.step, new(big.Int))
	if m.Sign() != 0 {
		return nil, false
	}
	return q, true
}

// contains is x in r.
func (r *lazyRange) contains(x Value) (bool, error) {
	if v, ok := rangeIntOf(x); ok {
		_, in := r.indexOf(v)
		return in, nil
	}
	if x.kind == KindFloat {
		f := x.f()
		if math.IsInf(f, 0) || math.IsNaN(f) || f != math.Trunc(f) {
			return false, nil
		}
		v, _ := new(big.Float).SetFloat64(f).Int(nil)
		_, in := r.indexOf(v)
		return in, nil
	}
	// nothing else equals an int
	return false, nil
}

// at is r[i] for 0 <= i < len.
func (r *lazyRange) at(i *big.Int) Value {
	v := new(big.Int).Mul(i, r.step)
	return BigIntV(v.Add(v, r.start))
}

// Item is r[i] for an int i (negative from the end).
func (r *lazyRange) Item(key Value) (Value, bool) {
	if key.kind != KindInt && key.kind != KindBool {
		return Value{}, false
	}
	i := bigInt(key)
	if i.Sign() < 0 {
		i = new(big.Int).Add(i, r.n)
	}
	if i.Sign() < 0 || i.Cmp(r.n) >= 0 {
		return Value{}, false
	}
	return r.at(i), true
}

// Len is len(r), the largest int when Python's len() overflows (Len, the
// function, raises there).
func (r *lazyRange) Len() int {
	if !r.n.IsInt64() {
		return math.MaxInt
	}
	return int(r.n.Int64())
}

// length is len(r): OverflowError beyond a Py_ssize_t.
func (r *lazyRange) length() (int, error) {
	if !r.n.IsInt64() {
		return 0, pyErr("OverflowError", "Python int too large to convert to C ssize_t")
	}
	return int(r.n.Int64()), nil
}

// Truth is bool(r), which reads the length without converting it.
func (r *lazyRange) Truth() bool { return r.n.Sign() > 0 }

// Iter builds the items, as list(r) would: OverflowError where its
// length is beyond a Py_ssize_t, Unsupported beyond what a template may
// build.
func (r *lazyRange) Iter(c *Ctx) ([]Value, error) {
	if _, err := r.length(); err != nil {
		return nil, err
	}
	if r.n.Int64() > maxAlloc/64 {
		return nil, &Error{Kind: "Unsupported", Msg: "building the items of a range of more than " + istr(maxAlloc/64) + " items is not supported (a loop over it, len, in, items and slices are)"}
	}
	n := int(r.n.Int64())
	if err := grow(c, n); err != nil {
		return nil, err
	}
	out := make([]Value, n)
	v := new(big.Int).Set(r.start)
	for i := range out {
		out[i] = BigIntV(new(big.Int).Set(v))
		v.Add(v, r.step)
	}
	return out, nil
}

// stepFunc takes the items one at a time, for a loop.
func (r *lazyRange) stepFunc() func() (Value, bool, error) {
	i := new(big.Int)
	return func() (Value, bool, error) {
		if i.Cmp(r.n) >= 0 {
			return Value{}, false, nil
		}
		v := r.at(i)
		i.Add(i, bigOne)
		return v, true, nil
	}
}

// Repr is range(start, stop) or range(start, stop, step).
func (r *lazyRange) Repr() string {
	s := "range(" + r.start.String() + ", " + r.stop.String()
	if r.step.Cmp(bigOne) != 0 {
		s += ", " + r.step.String()
	}
	return s + ")"
}

// Equal is ==, with a built range too.
func (r *lazyRange) Equal(o Value) bool {
	p, ok := rangeParts(o)
	return ok && rangeEqual(r, p)
}

// rangeSlice is r[start:stop:step] with bounds of any size
// (_PySlice_GetLongIndices, then compute_slice).
func rangeSlice(c *Ctx, r *lazyRange, start, stop, step Value) (Value, error) {
	bound := func(b Value) (*big.Int, bool, bool) {
		switch {
		case b.kind == KindUndefined && b.s == "" && b.flags == 0 || b.kind == KindNone:
			return nil, false, true
		case isIntLike(b):
			return bigInt(b), true, true
		}
		return nil, false, false
	}
	badIndex := func() (Value, error) {
		return Value{}, typeErr("slice indices must be integers or None or have an __index__ method")
	}
	st, hasSt, ok := bound(step)
	if !ok {
		return badIndex()
	}
	if !hasSt {
		st = big.NewInt(1)
	}
	if st.Sign() == 0 {
		return Value{}, valueErr("slice step cannot be zero")
	}
	lower, upper := new(big.Int), r.n
	if st.Sign() < 0 {
		lower = big.NewInt(-1)
		upper = new(big.Int).Sub(r.n, bigOne)
	}
	adjust := func(b Value, def *big.Int) (*big.Int, bool) {
		x, has, ok := bound(b)
		if !ok {
			return nil, false
		}
		if !has {
			return def, true
		}
		if x.Sign() < 0 {
			x = new(big.Int).Add(x, r.n)
			if x.Cmp(lower) < 0 {
				return lower, true
			}
			return x, true
		}
		if x.Cmp(upper) > 0 {
			return upper, true
		}
		return x, true
	}
	defStart, defStop := lower, upper
	if st.Sign() < 0 {
		defStart, defStop = upper, lower
	}
	from, ok1 := adjust(start, defStart)
	if !ok1 {
		return badIndex()
	}
	to, ok2 := adjust(stop, defStop)
	if !ok2 {
		return badIndex()
	}
	item := func(i *big.Int) *big.Int {
		v := new(big.Int).Mul(i, r.step)
		return v.Add(v, r.start)
	}
	return rangeValue(c, item(from), item(to), new(big.Int).Mul(st, r.step))
}

func isLazyRange(v Value) bool {
	_, ok := v.ref.(*lazyRange)
	return ok && v.kind == KindObject
}
