package jinja2

// Python's set, as templates make one: a dict's keys or items view minus
// an iterable (d.keys() - ['a']), or an iterable minus such a view. A set
// prints and iterates in its items' hash order, which for strs changes
// with every Python process (PYTHONHASHSEED), so only a set of at most one
// item has one answer: a larger one is Unsupported where it is made.

// pySet is a set of at most one item.
type pySet struct{ items []Value }

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
			return ObjectV(&pySet{items: s.items}), nil
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

// Repr is set()'s or {item}.
func (s *pySet) Repr() string {
	if len(s.items) == 0 {
		return "set()"
	}
	return "{" + Repr(s.items[0]) + "}"
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
	return len(s.items) == 0 || Equal(s.items[0], t.items[0])
}

// contains is item in set, which hashes item.
func (s *pySet) contains(item Value) (bool, error) {
	if err := checkHashable(item); err != nil {
		return false, err
	}
	return len(s.items) == 1 && Equal(s.items[0], item), nil
}

// setDifference is a - b where a or b is a dict's keys or items view:
// set(a).difference_update(b), as CPython's dictviews_sub computes it.
func setDifference(c *Ctx, a, b Value) (Value, error) {
	left, err := Iterate(c, a)
	if err != nil {
		return Value{}, err
	}
	var items []Value
	for _, it := range left {
		if err := checkHashable(it); err != nil {
			return Value{}, err
		}
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
		return Value{}, &Error{Kind: "Unsupported", Msg: "a set of more than one item (the difference of a dict view) is not supported: Python prints it in its items' hash order"}
	}
	return ObjectV(&pySet{items: items}), nil
}
