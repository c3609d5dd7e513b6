package jinja2

// Python's set, as templates make one: a dict's keys or items view minus
// an iterable (d.keys() - ['a']), or an iterable minus such a view. A set
// prints and iterates in its hash table's order (values_set_table.go). For
// ints, bools, floats and tuples of those the hashes, and so the order, are
// CPython's in every process; a str's hash changes with every process
// (PYTHONHASHSEED) and None's is its address, so a set that ever held one
// has one answer only with at most one item: a larger one is Unsupported
// where it is made.

// pySet is a set: its items in Python's order, and its table when every
// item's hash is known (nil for a set of at most one item otherwise).
type pySet struct {
	items []Value
	tab   *setTable
}

// TypeName is Python's.
func (s *pySet) TypeName() string { return "set" }

// setMethods are set's methods (dir(set) without the dunders).
const setMethods = " add clear copy difference difference_update discard intersection intersection_update isdisjoint issubset issuperset pop remove symmetric_difference symmetric_difference_update union update "

// setMutators are the methods the immutable sandbox refuses (Jinja2's
// _mutable_spec for set).
const setMutators = " add clear difference_update discard intersection_update pop remove symmetric_difference_update update "

// Attr gives set's methods, which print as CPython's; copy() is
// implemented, the others are not when called.
func (s *pySet) Attr(name string) (Value, bool) {
	if name == "" || !containsWord(setMethods, name) {
		return Value{}, false
	}
	f := &Func{Name: "set." + name, Call: func(_ *Ctx, args []Value, kw []Kwarg) (Value, error) {
		if name == "copy" {
			if len(args)+len(kw) > 0 {
				return Value{}, typeErr("set.copy() takes no arguments (%d given)", len(args)+len(kw))
			}
			return ObjectV(s.copy()), nil
		}
		return notModelled("the set method " + name + "()")
	}}
	f.Repr = "<built-in method " + name + " of set object at " + addr(f) + ">"
	return FuncV(f), true
}

// containsWord reports whether the space-separated list holds w.
func containsWord(list, w string) bool {
	for i := 0; i+len(w)+2 <= len(list); i++ {
		if list[i] == ' ' && list[i+1:i+1+len(w)] == w && list[i+1+len(w)] == ' ' {
			return true
		}
	}
	return false
}

// copy is set.copy(), which may reorder the items (set_merge).
func (s *pySet) copy() *pySet {
	if s.tab == nil {
		return &pySet{items: s.items}
	}
	t := s.tab.copy()
	return &pySet{items: t.items(), tab: t}
}

// Repr is set()'s or {item, …}.
func (s *pySet) Repr() string {
	if len(s.items) == 0 {
		return "set()"
	}
	b := []byte{'{'}
	for i, it := range s.items {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, Repr(it)...)
	}
	return string(append(b, '}'))
}

// Iter is iter(set).
func (s *pySet) Iter(*Ctx) ([]Value, error) { return append([]Value(nil), s.items...), nil }

// Len is len(set).
func (s *pySet) Len() int { return len(s.items) }

// Equal is set == o: another set of the same items.
func (s *pySet) Equal(o Value) bool {
	t, ok := o.ref.(*pySet)
	if !ok || o.kind != KindObject || len(t.items) != len(s.items) {
		return false
	}
	for _, it := range s.items {
		if !t.has(it) {
			return false
		}
	}
	return true
}

func (s *pySet) has(item Value) bool {
	for _, it := range s.items {
		if Equal(it, item) {
			return true
		}
	}
	return false
}

// contains is item in set, which hashes item.
func (s *pySet) contains(item Value) (bool, error) {
	if err := checkHashable(item); err != nil {
		return false, err
	}
	return s.has(item), nil
}

// setDifference is a - b where a or b is a dict's keys or items view:
// set(a).difference_update(b), as CPython's dictviews_sub computes it.
func setDifference(c *Ctx, a, b Value) (Value, error) {
	left, err := Iterate(c, a)
	if err != nil {
		return Value{}, err
	}
	hashes, known := make([]int64, len(left)), true
	for i, it := range left {
		if err := checkHashable(it); err != nil {
			return Value{}, err
		}
		if known {
			hashes[i], known = pyHash(it)
		}
	}
	if known {
		return setDifferenceHashed(c, a, b, left, hashes)
	}
	var items []Value
	for _, it := range left {
		dup := false
		for _, kept := range items {
			if Equal(kept, it) {
				dup = true
				break
			}
		}
		if !dup {
			items = append(items, it)
		}
	}
	var right []Value
	if b.kind != KindUndefined {
		// an Undefined iterates as nothing
		if right, err = Iterate(c, b); err != nil {
			return Value{}, err
		}
	}
	for _, it := range right {
		if err := checkHashable(it); err != nil {
			return Value{}, err
		}
		for i, kept := range items {
			if Equal(kept, it) {
				items = append(items[:i:i], items[i+1:]...)
				break
			}
		}
	}
	if len(items) > 1 {
		return Value{}, &Error{Kind: "Unsupported", Msg: "a set of more than one item (the difference of a dict view) holding a str, None or another value whose hash changes between Python processes is not supported: Python prints it in its items' hash order"}
	}
	return ObjectV(&pySet{items: items}), nil
}

// setDifferenceHashed is setDifference on CPython's set table, when every
// item of a has a known hash: set(a) (one resize first for a dict or its
// keys, set_merge for a set), then difference_update(b).
func setDifferenceHashed(c *Ctx, a, b Value, left []Value, hashes []int64) (Value, error) {
	var t *setTable
	if s, ok := a.ref.(*pySet); ok && a.kind == KindObject && s.tab != nil {
		t = s.tab.copy()
	} else {
		t = newSetTable()
		if v, ok := setView(a); a.kind == KindDict || ok && v.what == "keys" {
			// set_update_internal's dict path
			if uint64(len(left))*5 >= t.mask()*3 {
				t.resize(len(left) * 2)
			}
		}
		for i, it := range left {
			t.add(it, hashes[i])
		}
	}
	if b.kind != KindUndefined {
		right, err := Iterate(c, b)
		if err != nil {
			return Value{}, err
		}
		for _, it := range right {
			if err := checkHashable(it); err != nil {
				return Value{}, err
			}
			if h, ok := pyHash(it); ok {
				t.discard(it, h)
			} else if (&pySet{items: t.items()}).has(it) {
				return Value{}, &Error{Kind: "Unsupported", Msg: "removing " + TypeName(it) + " from a set of numbers is not supported"}
			}
		}
	}
	t.afterDifference()
	return ObjectV(&pySet{items: t.items(), tab: t}), nil
}
