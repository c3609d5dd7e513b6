package jinja2

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"
)

// Python's dict: insertion-ordered, keyed by hashable values.

// smallDict is how many entries a dict holds before SetKey builds its
// index; a dict built otherwise (FromGo, StrDict) is searched in order.
const smallDict = 8

// NewDict returns an empty dict with room for n items.
func NewDict(n int) *Dict {
	d := &Dict{}
	d.init(n)
	return d
}

// init gives the empty dict d room for n items: its keys and values in
// one allocation.
func (d *Dict) init(n int) {
	if n == 0 {
		return
	}
	kv := make([]Value, 2*n)
	d.keys, d.vals = kv[:0:n], kv[n:n:2*n]
}

// hashKey returns k's hashable form, or a TypeError for an unhashable key.
func hashKey(k Value) (dictKey, error) {
	switch k.kind {
	case KindStr:
		return dictKey{kind: KindStr, s: k.s}, nil
	case KindInt, KindBool:
		if k.ref != nil {
			return dictKey{kind: KindInt, n: 1, s: k.big().String()}, nil
		}
		return dictKey{kind: KindInt, n: k.n}, nil
	case KindFloat:
		f := k.f()
		if f == math.Trunc(f) && !math.IsInf(f, 0) {
			if f >= -(1<<63) && f < 1<<63 {
				return dictKey{kind: KindInt, n: int64(f)}, nil
			}
			b, _ := new(big.Float).SetFloat64(f).Int(nil)
			return dictKey{kind: KindInt, n: 1, s: b.String()}, nil
		}
		return dictKey{kind: KindFloat, n: k.n}, nil
	case KindNone, KindUndefined:
		return dictKey{kind: k.kind}, nil
	case KindTuple:
		var b strings.Builder
		for _, it := range k.list().Items {
			h, err := hashKey(it)
			if err != nil {
				return dictKey{}, err
			}
			b.WriteByte(byte(h.kind))
			b.WriteString(itoa64(h.n))
			b.WriteByte(':')
			b.WriteString(itoa64(int64(len(h.s))))
			b.WriteByte(':')
			b.WriteString(h.s)
		}
		return dictKey{kind: KindTuple, s: b.String()}, nil
	case KindFunc:
		return dictKey{kind: KindFunc, s: ptrKey(k.ref)}, nil
	case KindObject:
		if z, ok := k.ref.(*complexObj); ok {
			// equal to a float or int key when its imaginary part is 0
			if z.im == 0 {
				return hashKey(FloatV(z.re))
			}
			re, _ := hashKey(FloatV(z.re))
			return dictKey{kind: KindObject, n: int64(math.Float64bits(z.im)), s: "complex " + strconv.Itoa(int(re.kind)) + " " + itoa64(re.n) + " " + re.s}, nil
		}
		if err := checkHashable(k); err != nil {
			return dictKey{}, err
		}
		return dictKey{kind: KindObject, s: ptrKey(k.ref)}, nil
	}
	return dictKey{}, typeErr("unhashable type: '%s'", TypeName(k))
}

// eqStr is a == b; two strs that share their bytes (Intern) are found
// equal without calling memequal, a call that makes a large function
// save and reload its registers.
func eqStr(a, b string) bool {
	return len(a) == len(b) && (unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}

// SameStr is a == b, found without a call when a and b share their
// bytes: a host comparing the strings it keeps with those it is given
// again (chat/format/chattemplate's kept conversation) compares most
// by their address alone.
func SameStr(a, b string) bool { return eqStr(a, b) }

// findStr returns the index of the str key k in d, or -1.
func (d *Dict) findStr(k string) int {
	if d.sidx == nil {
		for i := range d.keys {
			if dk := &d.keys[i]; dk.kind == KindStr && eqStr(dk.s, k) {
				return i
			}
		}
		return -1
	}
	if i, ok := d.sidx[k]; ok {
		return i
	}
	return -1
}

// hinted returns *hint when the str key k is there in d, or -1: a place
// of the program that reads one key of dicts of one shape (a chat
// template's messages) finds it where it found it last (findStrKeep),
// with no loop and no call. The hint is that place's, shared by the
// renders of its template: it is read and written atomically, and a
// wrong one costs findStrKeep's loop, never a wrong index (the key
// there is compared, by its address: a key of the same text elsewhere
// is left to findStrKeep).
func (d *Dict) hinted(k string, hint *int32) int {
	if j := uint(atomic.LoadInt32(hint)); j < uint(len(d.keys)) {
		if dk := &d.keys[j]; dk.kind == KindStr && len(dk.s) == len(k) && unsafe.StringData(dk.s) == unsafe.StringData(k) {
			return int(j)
		}
	}
	return -1
}

// findStrKeep is findStr keeping in *hint where it found k (hinted).
func (d *Dict) findStrKeep(k string, hint *int32) int {
	j := d.findStr(k)
	if j >= 0 && int32(j) != atomic.LoadInt32(hint) {
		atomic.StoreInt32(hint, int32(j))
	}
	return j
}

// find returns the index of k in d, or -1. It never changes d: the
// dicts of a render's values are read by renders on many goroutines.
func (d *Dict) find(k Value) (int, error) {
	if k.kind == KindStr {
		return d.findStr(k.s), nil
	}
	if d.sidx == nil {
		h, err := hashKey(k)
		if err != nil {
			return -1, err
		}
		for i, dk := range d.keys {
			if hk, _ := hashKey(dk); hk == h {
				return i, nil
			}
		}
		return -1, nil
	}
	h, err := hashKey(k)
	if err != nil {
		return -1, err
	}
	if i, ok := d.idx[h]; ok {
		return i, nil
	}
	return -1, nil
}

func (d *Dict) reindex() {
	d.sidx, d.idx = make(map[string]int, len(d.keys)), nil
	for i, k := range d.keys {
		d.index(k, i)
	}
}

// index records that the key k of the indexed dict d is at i.
func (d *Dict) index(k Value, i int) {
	if k.kind == KindStr {
		d.sidx[k.s] = i
		return
	}
	if d.idx == nil {
		d.idx = map[dictKey]int{}
	}
	h, _ := hashKey(k)
	d.idx[h] = i
}

// Set sets d[k] = v (an existing key keeps its place). An unhashable key
// is ignored; SetKey reports it.
func (d *Dict) Set(k, v Value) { _ = d.SetKey(k, v) }

// SetKey sets d[k] = v, or returns a TypeError for an unhashable key.
func (d *Dict) SetKey(k, v Value) error {
	i, err := d.find(k)
	if err != nil {
		return err
	}
	if i >= 0 {
		d.vals[i] = v
		return nil
	}
	if len(d.keys) == cap(d.keys) || len(d.vals) == cap(d.vals) {
		// grow both at once, in one allocation, from room for four (a
		// dict set item by item, as namespace attributes are, grew 1, 2,
		// 4 times two)
		n := max(4, 2*len(d.keys))
		kv := make([]Value, 2*n)
		d.keys = append(kv[:0:n], d.keys...)
		d.vals = append(kv[n:n:2*n], d.vals...)
	}
	d.keys = append(d.keys, k)
	d.vals = append(d.vals, v)
	switch {
	case d.sidx != nil:
		d.index(k, len(d.keys)-1)
	case len(d.keys) > smallDict:
		d.reindex()
	}
	return nil
}

// SetStr sets d[k] = v for a str key.
func (d *Dict) SetStr(k string, v Value) { _ = d.SetKey(StrV(k), v) }

// Get returns d[k].
func (d *Dict) Get(k Value) (Value, bool) {
	i, err := d.find(k)
	if err != nil || i < 0 {
		return Value{}, false
	}
	return d.vals[i], true
}

// GetStr returns d[k] for a str key.
func (d *Dict) GetStr(k string) (Value, bool) { return d.Get(StrV(k)) }

// Keys returns the keys in order (shared, not copied).
func (d *Dict) Keys() []Value { return d.keys }

// Values returns the values in order (shared, not copied).
func (d *Dict) Values() []Value { return d.vals }

// delete removes the entry at i.
func (d *Dict) delete(i int) {
	d.keys = append(d.keys[:i:i], d.keys[i+1:]...)
	d.vals = append(d.vals[:i:i], d.vals[i+1:]...)
	d.sidx, d.idx = nil, nil
	if len(d.keys) > smallDict {
		d.reindex()
	}
}

func (d *Dict) clear() {
	d.keys, d.vals, d.sidx, d.idx = nil, nil, nil, nil
}

// copyDict returns a shallow copy of d.
func (d *Dict) copyDict() *Dict {
	n := &Dict{keys: append([]Value(nil), d.keys...), vals: append([]Value(nil), d.vals...)}
	if len(n.keys) > smallDict {
		n.reindex()
	}
	return n
}
