package jinja2

// setTable is CPython 3.11's set (Objects/setobject.c) for items whose
// hashes are the same in every process (pyHash): a table of a power of two
// slots, probed linearly 9 slots past the hash's, then on by
// i = i*5 + 1 + perturb with perturb shifted 5 bits each time; grown to four
// times the items once three fifths of it is taken; a removed item leaves a
// dummy. A set prints and iterates in slot order, so this decides the order.
type setTable struct {
	slots      []setSlot
	fill, used int // slots taken by items or dummies; items
}

type setSlot struct {
	hash  int64
	item  Value
	state uint8 // 0 empty, 1 an item, 2 a dummy
}

const (
	setMinSize      = 8
	setLinearProbes = 9
	setPerturbShift = 5
)

func newSetTable() *setTable { return &setTable{slots: make([]setSlot, setMinSize)} }

func (t *setTable) mask() uint64 { return uint64(len(t.slots) - 1) }

// growth is the size set_add_entry and difference_update resize to.
func (t *setTable) growth() int {
	if t.used > 50000 {
		return t.used * 2
	}
	return t.used * 4
}

// slot is the probe of set_add_entry and set_discard_entry: the slot of
// the item equal to item (same hash, Equal), or else the empty slot where
// the probe sequence of h ends. With item nil it is set_insert_clean's
// probe, which compares nothing: the table then has no equal item and no
// dummy.
func (t *setTable) slot(item *Value, h int64) *setSlot {
	mask := t.mask()
	i, perturb := uint64(h)&mask, uint64(h)
	for {
		probes := uint64(0)
		if i+setLinearProbes <= mask {
			probes = setLinearProbes
		}
		for j := i; j <= i+probes; j++ {
			e := &t.slots[j]
			if e.state == 0 || item != nil && e.state == 1 && e.hash == h && Equal(e.item, *item) {
				return e
			}
		}
		perturb >>= setPerturbShift
		i = (i*5 + 1 + perturb) & mask
	}
}

// add is set_add_entry: an item equal to one there is not added.
func (t *setTable) add(item Value, h int64) {
	e := t.slot(&item, h)
	if e.state != 0 {
		return
	}
	*e = setSlot{hash: h, item: item, state: 1}
	t.fill++
	t.used++
	if uint64(t.fill)*5 >= t.mask()*3 {
		t.resize(t.growth())
	}
}

// resize is set_table_resize: a table of the least power of two (at least
// 8) above minused, the items inserted again in slot order, dummies gone.
func (t *setTable) resize(minused int) {
	n := setMinSize
	for n <= minused {
		n <<= 1
	}
	old := t.slots
	t.slots = make([]setSlot, n)
	for _, e := range old {
		if e.state == 1 {
			t.insertClean(e.item, e.hash)
		}
	}
	t.fill = t.used
}

// insertClean is set_insert_clean: into the first empty slot the probe
// sequence meets (the table has no equal item and no dummy).
func (t *setTable) insertClean(item Value, h int64) {
	*t.slot(nil, h) = setSlot{hash: h, item: item, state: 1}
}

// discard is set_discard_entry: the equal item becomes a dummy.
func (t *setTable) discard(item Value, h int64) {
	if e := t.slot(&item, h); e.state == 1 {
		*e = setSlot{hash: -1, state: 2}
		t.used--
	}
}

// afterDifference is the end of set_difference_update_internal: more than
// a quarter of the table dummies, and it is resized.
func (t *setTable) afterDifference() {
	if uint64(t.fill-t.used) > t.mask()/4 {
		t.resize(t.growth())
	}
}

// copy is set_merge into a new, empty set (set.copy(), set(a_set)).
func (t *setTable) copy() *setTable {
	n := newSetTable()
	if t.used == 0 {
		return n
	}
	if uint64(t.used)*5 >= n.mask()*3 {
		n.resize(t.used * 2)
	}
	if len(n.slots) == len(t.slots) && t.fill == t.used {
		copy(n.slots, t.slots)
		n.fill, n.used = t.fill, t.used
		return n
	}
	n.fill, n.used = t.used, t.used
	for _, e := range t.slots {
		if e.state == 1 {
			n.insertClean(e.item, e.hash)
		}
	}
	return n
}

// items are the set's items in slot order, as Python iterates it.
func (t *setTable) items() []Value {
	out := make([]Value, 0, t.used)
	for _, e := range t.slots {
		if e.state == 1 {
			out = append(out, e.item)
		}
	}
	return out
}
