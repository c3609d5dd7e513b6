package jinja2

import (
	"math"
	"math/big"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// The methods of list, tuple, dict, int and float.

func seqIndex(name string, recv Value, args []Value, kw []Kwarg) (Value, error) {
	if err := nargs(name+".index", args, kw, 1, 3); err != nil {
		return Value{}, err
	}
	items := recv.list().Items
	lo, hi := 0, len(items)
	if len(args) > 1 {
		// list.index and tuple.index take no None for start and stop
		// (CPython's _PyEval_SliceIndexNotNone), unlike str.index.
		for _, a := range args[1:] {
			if !isIntLike(a) {
				return Value{}, typeErr("slice indices must be integers or have an __index__ method")
			}
		}
		s, err := optIntArg(args, 1)
		if err != nil {
			return Value{}, err
		}
		e, err := optIntArg(args, 2)
		if err != nil {
			return Value{}, err
		}
		from, to := sliceBounds(len(items), derefOr(s), s != nil, derefOr(e), e != nil, 1)
		if to > from {
			lo, hi = int(from), int(to)
		} else {
			lo, hi = 0, 0
		}
	}
	for i := lo; i < hi; i++ {
		if eq, err := equalErr(items[i], args[0]); err != nil {
			return Value{}, err
		} else if eq {
			return IntV(int64(i)), nil
		}
	}
	if name == "tuple" {
		return Value{}, valueErr("tuple.index(x): x not in tuple")
	}
	return Value{}, valueErr("%s is not in list", Repr(args[0]))
}

func derefOr(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

func seqCount(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
	if err := nargs(TypeName(recv)+".count", args, kw, 1, 1); err != nil {
		return Value{}, err
	}
	n := 0
	for _, it := range recv.list().Items {
		if eq, err := equalErr(it, args[0]); err != nil {
			return Value{}, err
		} else if eq {
			n++
		}
	}
	return IntV(int64(n)), nil
}

// sortValues sorts items in place as list.sort does (stable, with key
// and reverse), returning the first comparison error.
func sortValues(c *Ctx, items []Value, key Value, reverse bool) error {
	keys := items
	if key.kind != KindNone && key.kind != KindUndefined || key.kind == KindUndefined && key.s != "" {
		keys = make([]Value, len(items))
		for i, it := range items {
			k, err := callValue(c, key, []Value{it}, nil)
			if err != nil {
				return err
			}
			keys[i] = k
		}
	}
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	var firstErr error
	less := func(a, b Value) bool {
		if firstErr != nil {
			return false
		}
		lt, err := Compare(c, "<", a, b)
		if err != nil {
			firstErr = err
		}
		return lt
	}
	if reverse {
		// Python reverses, sorts stably, and reverses again, so equal
		// items keep their order.
		slices.Reverse(idx)
	}
	pySort(idx, func(a, b int) bool { return less(keys[a], keys[b]) })
	if firstErr != nil {
		return firstErr
	}
	if reverse {
		slices.Reverse(idx)
	}
	sorted := make([]Value, len(items))
	for i, j := range idx {
		sorted[i] = items[j]
	}
	copy(items, sorted)
	return nil
}

func tupleMethod(name string) methodFn {
	switch name {
	case "index":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			return seqIndex("tuple", recv, args, kw)
		}
	case "count":
		return seqCount
	}
	return nil
}

func listMethod(name string) methodFn {
	switch name {
	case "index":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			return seqIndex("list", recv, args, kw)
		}
	case "count":
		return seqCount
	case "copy":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("list.copy", args, kw, 0, 0); err != nil {
				return Value{}, err
			}
			return ListV(append([]Value(nil), recv.list().Items...)), nil
		}
	case "append":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("list.append", args, kw, 1, 1); err != nil {
				return Value{}, err
			}
			l := recv.list()
			if err := grow(c, len(l.Items)+1); err != nil {
				return Value{}, err
			}
			l.Items = append(l.Items, args[0])
			return NoneV(), nil
		}
	case "extend":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("list.extend", args, kw, 1, 1); err != nil {
				return Value{}, err
			}
			items, err := Iterate(c, args[0])
			if err != nil {
				return Value{}, err
			}
			l := recv.list()
			if err := grow(c, len(l.Items)+len(items)); err != nil {
				return Value{}, err
			}
			l.Items = append(l.Items, items...)
			return NoneV(), nil
		}
	case "insert":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("list.insert", args, kw, 2, 2); err != nil {
				return Value{}, err
			}
			i, err := intArg(args[0])
			if err != nil {
				return Value{}, err
			}
			l := recv.list()
			i = pyIndex(i, int64(len(l.Items)))
			if err := grow(c, len(l.Items)+1); err != nil {
				return Value{}, err
			}
			l.Items = append(l.Items, Value{})
			copy(l.Items[i+1:], l.Items[i:])
			l.Items[i] = args[1]
			return NoneV(), nil
		}
	case "pop":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("list.pop", args, kw, 0, 1); err != nil {
				return Value{}, err
			}
			l := recv.list()
			i := int64(len(l.Items) - 1)
			if len(args) == 1 {
				// CPython converts the index before it looks at the list.
				var err error
				if i, err = intArg(args[0]); err != nil {
					return Value{}, err
				}
			}
			if len(l.Items) == 0 {
				return Value{}, pyErr("IndexError", "pop from empty list")
			}
			if len(args) == 1 {
				if i < 0 {
					i += int64(len(l.Items))
				}
				if i < 0 || i >= int64(len(l.Items)) {
					return Value{}, pyErr("IndexError", "pop index out of range")
				}
			}
			v := l.Items[i]
			l.Items = append(l.Items[:i:i], l.Items[i+1:]...)
			return v, nil
		}
	case "remove":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("list.remove", args, kw, 1, 1); err != nil {
				return Value{}, err
			}
			l := recv.list()
			for i, it := range l.Items {
				if eq, err := equalErr(it, args[0]); err != nil {
					return Value{}, err
				} else if eq {
					l.Items = append(l.Items[:i:i], l.Items[i+1:]...)
					return NoneV(), nil
				}
			}
			return Value{}, valueErr("list.remove(x): x not in list")
		}
	case "clear":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("list.clear", args, kw, 0, 0); err != nil {
				return Value{}, err
			}
			recv.list().Items = nil
			return NoneV(), nil
		}
	case "reverse":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("list.reverse", args, kw, 0, 0); err != nil {
				return Value{}, err
			}
			it := recv.list().Items
			for i, j := 0, len(it)-1; i < j; i, j = i+1, j-1 {
				it[i], it[j] = it[j], it[i]
			}
			return NoneV(), nil
		}
	case "sort":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if len(args) > 0 {
				return Value{}, typeErr("sort() takes no positional arguments")
			}
			key, reverse := NoneV(), false
			for _, k := range kw {
				switch k.Name {
				case "key":
					key = k.Value
				case "reverse":
					r, err := cIntArg(k.Value)
					if err != nil {
						return Value{}, err
					}
					reverse = r != 0
				default:
					return Value{}, typeErr("sort() got an unexpected keyword argument '%s'", k.Name)
				}
			}
			return NoneV(), sortValues(c, recv.list().Items, key, reverse)
		}
	}
	return nil
}

// dictView is dict.keys(), dict.values() or dict.items().
type dictView struct {
	d    *Dict
	what string // "keys", "values", "items"
}

func (v *dictView) TypeName() string { return "dict_" + v.what }

// Attr is isdisjoint of a keys or items view (set-like); a values view
// has no attribute templates read.
func (v *dictView) Attr(name string) (Value, bool) {
	if name != "isdisjoint" || v.what == "values" {
		return Value{}, false
	}
	qual := "dict_" + v.what + ".isdisjoint"
	f := &Func{Name: "isdisjoint", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		if err := nargs(qual, args, kw, 1, 1); err != nil {
			return Value{}, err
		}
		// every item of other tested with in (a key hashed, a pair
		// compared); Python iterates the view instead when other is a
		// larger set or view, which answers the same
		other, err := Iterate(c, args[0])
		if err != nil {
			return Value{}, err
		}
		for _, it := range other {
			in, err := Contains(c, ObjectV(v), it)
			if err != nil || in {
				return BoolV(false), err
			}
		}
		return BoolV(true), nil
	}}
	f.Repr = "<built-in method isdisjoint of dict_" + v.what + " object at " + addr(f) + ">"
	return FuncV(f), true
}

func (v *dictView) Len() int { return len(v.d.keys) }

func (v *dictView) Iter(c *Ctx) ([]Value, error) { return v.items(), nil }

func (v *dictView) items() []Value {
	switch v.what {
	case "keys":
		return v.d.keys
	case "values":
		return v.d.vals
	}
	// the pairs' items and their tuples each in one array, not two
	// allocations a pair (nothing changes a tuple's items); the list of
	// the pairs and their items share one array (the list's capacity
	// ends at its length: an append to it moves it out)
	n := len(v.d.keys)
	all := make([]Value, 3*n)
	out, pairs := all[:n:n], all[n:]
	tuples := make([]List, n)
	for i, k := range v.d.keys {
		pairs[2*i], pairs[2*i+1] = k, v.d.vals[i]
		tuples[i].Items = pairs[2*i : 2*i+2 : 2*i+2]
		out[i] = Value{kind: KindTuple, ref: &tuples[i]}
	}
	return out
}

func (v *dictView) Repr() string {
	return "dict_" + v.what + "(" + Repr(ListV(v.items())) + ")"
}

func (v *dictView) Equal(o Value) bool {
	w, ok := setView(o)
	if !ok || v.what == "values" {
		return v == w
	}
	// keys and items views are sets: equal when each holds the other
	if v.Len() != w.Len() {
		return false
	}
	in, err := w.containsAll(v)
	return err == nil && in
}

// setView is o as a keys or items view, which compare as sets.
func setView(o Value) (*dictView, bool) {
	w, ok := o.ref.(*dictView)
	return w, ok && o.kind == KindObject && w.what != "values"
}

// contains is item in the view: a keys view hashes the item, an items
// view looks up a (key, value) pair's key and compares its value.
func (v *dictView) contains(item Value) (bool, error) {
	switch v.what {
	case "keys":
		i, err := v.d.find(item)
		return i >= 0, err
	case "items":
		if item.kind != KindTuple || len(item.list().Items) != 2 {
			return false, nil
		}
		kv := item.list().Items
		i, err := v.d.find(kv[0])
		return i >= 0 && Equal(v.d.vals[i], kv[1]), err
	}
	for _, it := range v.d.vals {
		if Equal(it, item) {
			return true, nil
		}
	}
	return false, nil
}

// containsAll reports whether every item of o is in v (CPython's
// all_contained_in).
func (v *dictView) containsAll(o *dictView) (bool, error) {
	for _, it := range o.items() {
		if in, err := v.contains(it); err != nil || !in {
			return false, err
		}
	}
	return true, nil
}

// viewOrder is <, <=, > or >= of two keys or items views: set inclusion.
func viewOrder(a, b *dictView, op string) (bool, error) {
	switch op {
	case "<", "<=":
		if a.Len() > b.Len() || op == "<" && a.Len() == b.Len() {
			return false, nil
		}
		return b.containsAll(a)
	}
	if a.Len() < b.Len() || op == ">" && a.Len() == b.Len() {
		return false, nil
	}
	return a.containsAll(b)
}

func (v *dictView) Item(key Value) (Value, bool) { return Value{}, false }

func dictMethod(name string) methodFn {
	switch name {
	case "keys", "values", "items":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if len(args) > 0 || len(kw) > 0 {
				// (the qualified name, an allocation, only for the error)
				if err := nargs(TypeName(recv)+"."+name, args, kw, 0, 0); err != nil {
					return Value{}, err
				}
			}
			return ObjectV(&dictView{d: recv.dict(), what: name}), nil
		}
	case "get":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("dict.get", args, kw, 1, 2); err != nil {
				return Value{}, err
			}
			i, err := recv.dict().find(args[0])
			if err != nil {
				return Value{}, err
			}
			if i >= 0 {
				return recv.dict().vals[i], nil
			}
			if len(args) == 2 {
				return args[1], nil
			}
			return NoneV(), nil
		}
	case "copy":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if len(args)+len(kw) > 0 {
				return Value{}, nargs(TypeName(recv)+".copy", args, kw, 0, 0)
			}
			return DictV(recv.dict().copyDict()), nil
		}
	case "fromkeys":
		// a classmethod: a new dict, whatever the receiver holds
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("dict.fromkeys", args, kw, 1, 2); err != nil {
				return Value{}, err
			}
			keys, err := Iterate(c, args[0])
			if err != nil {
				return Value{}, err
			}
			v := NoneV()
			if len(args) == 2 {
				v = args[1]
			}
			d := NewDict(0)
			for _, k := range keys {
				if err := d.SetKey(k, v); err != nil {
					return Value{}, err
				}
			}
			return DictV(d), nil
		}
	case "pop":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("dict.pop", args, kw, 1, 2); err != nil {
				return Value{}, err
			}
			d := recv.dict()
			i := -1
			if len(d.keys) > 0 {
				// CPython's pop of an empty dict hashes no key: {}.pop([])
				// is a KeyError, not unhashable
				var err error
				if i, err = d.find(args[0]); err != nil {
					return Value{}, err
				}
			}
			if i < 0 {
				if len(args) == 2 {
					return args[1], nil
				}
				return Value{}, pyErr("KeyError", "%s", Repr(args[0]))
			}
			v := d.vals[i]
			d.delete(i)
			return v, nil
		}
	case "popitem":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("dict.popitem", args, kw, 0, 0); err != nil {
				return Value{}, err
			}
			d := recv.dict()
			if len(d.keys) == 0 {
				return Value{}, pyErr("KeyError", "'popitem(): dictionary is empty'")
			}
			i := len(d.keys) - 1
			t := TupleV([]Value{d.keys[i], d.vals[i]})
			d.delete(i)
			return t, nil
		}
	case "setdefault":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("dict.setdefault", args, kw, 1, 2); err != nil {
				return Value{}, err
			}
			d := recv.dict()
			i, err := d.find(args[0])
			if err != nil {
				return Value{}, err
			}
			if i >= 0 {
				return d.vals[i], nil
			}
			def := NoneV()
			if len(args) == 2 {
				def = args[1]
			}
			return def, d.SetKey(args[0], def)
		}
	case "update":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if len(args) > 1 {
				return Value{}, typeErr("update expected at most 1 argument, got %d", len(args))
			}
			d := recv.dict()
			if len(args) == 1 {
				if err := dictUpdate(c, d, args[0]); err != nil {
					return Value{}, err
				}
			}
			for _, k := range kw {
				d.SetStr(k.Name, k.Value)
			}
			return NoneV(), nil
		}
	case "clear":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("dict.clear", args, kw, 0, 0); err != nil {
				return Value{}, err
			}
			recv.dict().clear()
			return NoneV(), nil
		}
	}
	return nil
}

// isDictClass reports whether v is the class dict or a GenericAlias of
// it, whose attribute keys is dict's unbound method.
func isDictClass(v Value) bool {
	switch o := v.ref.(type) {
	case *pyClass:
		return v.kind == KindObject && o.name == "dict" && o.module == ""
	case *genericAlias:
		return v.kind == KindObject && o.origin.name == "dict" && o.origin.module == ""
	}
	return false
}

// dictUpdate is d.update(other): a dict's items, or an iterable of pairs.
func dictUpdate(c *Ctx, d *Dict, other Value) error {
	if other.kind == KindUndefined {
		// dict looks up other.keys first: Undefined.__getattr__ raises
		return other.undefErr()
	}
	if isDictClass(other) {
		// the class dict (or dict[...]) has keys, unbound
		return typeErr("unbound method dict.keys() needs an argument")
	}
	if other.kind == KindDict {
		o := other.dict()
		for i, k := range o.keys {
			if err := d.SetKey(k, o.vals[i]); err != nil {
				return err
			}
		}
		return nil
	}
	items, err := Iterate(c, other)
	if err != nil {
		return err
	}
	for i, it := range items {
		pair, err := Iterate(c, it)
		if err != nil {
			return typeErr("cannot convert dictionary update sequence element #%d to a sequence", i)
		}
		// (an Undefined iterates as empty: length 0)
		if len(pair) != 2 {
			return valueErr("dictionary update sequence element #%d has length %d; 2 is required", i, len(pair))
		}
		if err := d.SetKey(pair[0], pair[1]); err != nil {
			return err
		}
	}
	return nil
}

// intQual is the qualified name of an int method as Python's errors of
// a bound one write it: bool.bit_length for a bool.
func intQual(recv Value, name string) string {
	if recv.kind == KindBool {
		return "bool." + name
	}
	return "int." + name
}

func intMethod(name string) methodFn {
	switch name {
	case "bit_length":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs(intQual(recv, "bit_length"), args, kw, 0, 0); err != nil {
				return Value{}, err
			}
			b := bigOf(recv)
			return IntV(int64(b.BitLen())), nil
		}
	case "conjugate":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs(intQual(recv, "conjugate"), args, kw, 0, 0); err != nil {
				return Value{}, err
			}
			if recv.kind == KindBool {
				return IntV(recv.n), nil
			}
			return recv, nil
		}
	case "as_integer_ratio":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs(intQual(recv, "as_integer_ratio"), args, kw, 0, 0); err != nil {
				return Value{}, err
			}
			if recv.kind == KindBool {
				recv = IntV(recv.n)
			}
			return TupleV([]Value{recv, IntV(1)}), nil
		}
	case "bit_count":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs(intQual(recv, "bit_count"), args, kw, 0, 0); err != nil {
				return Value{}, err
			}
			n := 0
			for _, w := range new(big.Int).Abs(bigOf(recv)).Bits() {
				n += bits.OnesCount(uint(w))
			}
			return IntV(int64(n)), nil
		}
	case "to_bytes":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			return intToBytes(recv, args, kw)
		}
	case "from_bytes":
		return intFromBytes
	}
	return nil
}

func floatMethod(name string) methodFn {
	switch name {
	case "is_integer":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("float.is_integer", args, kw, 0, 0); err != nil {
				return Value{}, err
			}
			f := recv.f()
			return BoolV(f == float64(int64(f)) || (f-f == 0 && f == truncF(f))), nil
		}
	case "conjugate":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("float.conjugate", args, kw, 0, 0); err != nil {
				return Value{}, err
			}
			return recv, nil
		}
	case "as_integer_ratio":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("float.as_integer_ratio", args, kw, 0, 0); err != nil {
				return Value{}, err
			}
			f := recv.f()
			switch {
			case math.IsInf(f, 0):
				return Value{}, pyErr("OverflowError", "cannot convert Infinity to integer ratio")
			case math.IsNaN(f):
				return Value{}, valueErr("cannot convert NaN to integer ratio")
			}
			r := new(big.Rat).SetFloat64(f)
			return TupleV([]Value{normBig(new(big.Int).Set(r.Num())), normBig(new(big.Int).Set(r.Denom()))}), nil
		}
	case "hex":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("float.hex", args, kw, 0, 0); err != nil {
				return Value{}, err
			}
			return StrV(floatHex(recv.f())), nil
		}
	case "fromhex":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("float.fromhex", args, kw, 1, 1); err != nil {
				return Value{}, err
			}
			if args[0].kind != KindStr {
				return Value{}, typeErr("bad argument type for built-in operation")
			}
			return floatFromHex(args[0].s)
		}
	}
	return nil
}

// floatHex is Python's float.hex(f): 0x1.8000000000000p+0 for 1.5, a
// subnormal with a leading 0 and the exponent -1022.
func floatHex(f float64) string {
	switch {
	case math.IsNaN(f), math.IsInf(f, 0):
		return floatRepr(f)
	case f == 0:
		if math.Signbit(f) {
			return "-0x0.0p+0"
		}
		return "0x0.0p+0"
	}
	m, e := math.Frexp(math.Abs(f))
	shift := 1 - max(-1021-e, 0)
	m = math.Ldexp(m, shift)
	e -= shift
	const digits = "0123456789abcdef"
	b := make([]byte, 0, 24)
	if f < 0 {
		b = append(b, '-')
	}
	b = append(b, '0', 'x', digits[int(m)], '.')
	m -= float64(int(m))
	for i := 0; i < 13; i++ {
		m *= 16
		b = append(b, digits[int(m)])
		m -= float64(int(m))
	}
	b = append(b, 'p')
	if e >= 0 {
		b = append(b, '+')
	}
	return string(strconv.AppendInt(b, int64(e), 10))
}

// floatFromHex is Python's float.fromhex(s): ASCII whitespace around an
// optional sign, inf, infinity or nan, or an optional 0x, hex digits
// with an optional point and an optional binary exponent.
func floatFromHex(s string) (Value, error) {
	bad := valueErr("invalid hexadecimal floating-point string")
	s = strings.Trim(s, " \t\n\v\f\r")
	neg := false
	body := s
	if body != "" && (body[0] == '+' || body[0] == '-') {
		neg = body[0] == '-'
		body = body[1:]
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		return FloatV(math.Inf(map[bool]int{false: 1, true: -1}[neg])), nil
	case "nan":
		return FloatV(math.NaN()), nil
	}
	if len(body) >= 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X') {
		body = body[2:]
	}
	mant, exp := body, "0"
	if i := strings.IndexAny(body, "pP"); i >= 0 {
		mant, exp = body[:i], body[i+1:]
		e := exp
		if e != "" && (e[0] == '+' || e[0] == '-') {
			e = e[1:]
		}
		if e == "" || strings.Trim(e, "0123456789") != "" {
			return Value{}, bad
		}
	}
	ndig, dots := 0, 0
	for i := 0; i < len(mant); i++ {
		switch ch := mant[i]; {
		case ch == '.':
			dots++
		case ch >= '0' && ch <= '9', ch >= 'a' && ch <= 'f', ch >= 'A' && ch <= 'F':
			ndig++
		default:
			return Value{}, bad
		}
	}
	if ndig == 0 || dots > 1 {
		return Value{}, bad
	}
	// an exponent beyond what ParseFloat reads saturates as Python's does
	e, err := strconv.ParseInt(exp, 10, 32)
	if err != nil {
		if strings.HasPrefix(exp, "-") {
			e = -1 << 30
		} else {
			e = 1 << 30
		}
	}
	if strings.Trim(mant, "0.") == "" {
		e = 0
	}
	f, err := strconv.ParseFloat("0x"+mant+"p"+strconv.FormatInt(e, 10), 64)
	if err != nil && math.IsInf(f, 0) {
		return Value{}, pyErr("OverflowError", "hexadecimal value too large to represent as a float")
	}
	if neg {
		f = -f
	}
	return FloatV(f), nil
}
