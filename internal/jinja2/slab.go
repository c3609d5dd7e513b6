package jinja2

// Slab hands out Values from one backing array that its owner keeps from
// render to render (in a sync.Pool, say), so that the lists and dicts
// built from a caller's data cost no allocation of their own once the
// slab is large enough. A Slab is not safe for concurrent use.
type Slab struct{ vals []Value }

// MakeSlab returns an empty slab whose first backing array holds n
// Values, for an owner that knows how many it will take.
func MakeSlab(n int) Slab { return Slab{vals: make([]Value, 0, n)} }

// Take returns n zero Values from the slab, as a slice whose capacity is
// n (an append to it never writes over its neighbours). When they do not
// fit, a new backing array at least twice as large is started; the
// slices taken before keep the old one.
func (s *Slab) Take(n int) []Value {
	l := len(s.vals)
	if l+n > cap(s.vals) {
		s.vals = make([]Value, 0, max(2*cap(s.vals), n, 64))
		l = 0
	}
	s.vals = s.vals[:l+n]
	return s.vals[l : l+n : l+n]
}

// Len is the number of Values taken since the last Reset.
func (s *Slab) Len() int { return len(s.vals) }

// Cap is the size of the current backing array: an owner that pools the
// slab can let a large one go instead.
func (s *Slab) Cap() int { return cap(s.vals) }

// Reset zeroes the Values taken from the current backing array and makes
// all of it free again. No slice taken before may be used after.
func (s *Slab) Reset() {
	clear(s.vals)
	s.vals = s.vals[:0]
}
