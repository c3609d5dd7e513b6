package jinja2

// A loop over d.items() that unpacks each pair into two names and has a
// filter or reads loop keeps the pairs as tuples (the filter's look ahead
// and loop.last take them ahead of the body); when the body never sees
// one whole, they are made in the Ctx's room, from render to render,
// instead of d.items()'s view and arrays. A loop over a slice of a list
// with constant bounds (messages[::-1]) whose loop variable does not
// outlive it takes the slice from the same room.

// pairsHidden reports whether a loop's body, whose target unpacks each
// item, never sees an item whole: it reads loop only for an attribute
// that tells no item (previtem, nextitem and the private ones do, as
// does loop itself, iterated or passed on), and holds nothing that could
// read loop after the loop or without naming it (a macro, a call block,
// an include or import, a block).
func pairsHidden(body []Stmt) bool {
	ok := true
	Walk(body, func(n Node) bool {
		switch n := n.(type) {
		case *AttrExpr:
			if x, isName := n.X.(*Name); isName && x.Name == "loop" {
				switch n.Name {
				case "index", "index0", "revindex", "revindex0", "first", "last",
					"length", "depth", "depth0", "cycle", "changed":
				default:
					ok = false
				}
				return false
			}
		case *Name:
			ok = ok && n.Name != "loop"
		case *NSRef:
			ok = ok && n.Name != "loop"
		case *Macro, *CallBlock, *Include, *Import, *FromImport, *Extends, *Block:
			ok = false
		}
		return ok
	})
	return ok
}

// pushPairs returns the items of a dict whose keys and values are keys
// and vals, as (key, value) tuples made in the Ctx's room for them, for a
// loop that unpacks each into two names and whose body never sees a tuple
// whole (pairsHidden): nothing keeps them after the loop, which gives the
// room back with popPairs, so that the next loop, or render, makes its
// tuples there again. Nested loops take the room above; a larger room is
// a new array, the tuples made before keep the old one.
func (c *Ctx) pushPairs(keys, vals []Value) []Value {
	n := len(keys)
	vb, tb := len(c.pairVals), len(c.pairTuples)
	if cap(c.pairVals)-vb < 3*n {
		c.pairVals = make([]Value, vb, max(24, 2*(vb+3*n)))
	}
	if cap(c.pairTuples)-tb < n {
		c.pairTuples = make([]List, tb, max(8, 2*(tb+n)))
	}
	c.pairVals = c.pairVals[:vb+3*n]
	c.pairTuples = c.pairTuples[:tb+n]
	all, tuples := c.pairVals[vb:vb+3*n:vb+3*n], c.pairTuples[tb:tb+n]
	out, pairs := all[:n:n], all[n:]
	for i, k := range keys {
		pairs[2*i], pairs[2*i+1] = k, vals[i]
		tuples[i].Items = pairs[2*i : 2*i+2 : 2*i+2]
		out[i] = Value{kind: KindTuple, ref: &tuples[i]}
	}
	return out
}

// popPairs gives back the room of the n tuples pushPairs made last.
func (c *Ctx) popPairs(n int) {
	vt, tt := len(c.pairVals), len(c.pairTuples)
	clear(c.pairVals[vt-3*n : vt])
	clear(c.pairTuples[tt-n : tt])
	c.pairVals, c.pairTuples = c.pairVals[:vt-3*n], c.pairTuples[:tt-n]
	if vt == 3*n && cap(c.pairVals) > 3*maxLoopRoom {
		c.pairVals, c.pairTuples = nil, nil // a large dict's: not kept
	}
}

// constSliceOf returns the slice x[a:b:c] that a for loop iterates when
// its bounds are int constants or omitted, and reads them (Python's
// None for an omitted one).
func constSliceOf(x Expr) (it *ItemExpr, b [3]int64, has [3]bool, ok bool) {
	it, isItem := x.(*ItemExpr)
	if !isItem {
		return nil, b, has, false
	}
	sl, isSlice := it.Key.(*SliceExpr)
	if !isSlice {
		return nil, b, has, false
	}
	for i, p := range []Expr{sl.Start, sl.Stop, sl.Step} {
		neg := false
		if u, ok := p.(*UnaryExpr); ok && u.Op == "-" {
			p, neg = u.X, true
		}
		switch k := p.(type) {
		case nil:
			if neg {
				return nil, b, has, false
			}
		case *Const:
			if k.Value.kind != KindInt || k.Value.ref != nil {
				return nil, b, has, false
			}
			b[i], has[i] = k.Value.n, true
			if neg {
				b[i] = -b[i]
			}
		default:
			return nil, b, has, false
		}
	}
	if has[2] && b[2] == 0 {
		return nil, b, has, false // ValueError, as Slice raises it
	}
	return it, b, has, true
}

// pushSlice returns src[a:b:c] as a list (a tuple when tuple is set)
// made in the Ctx's room, for a loop that iterates it and whose loop
// variable does not outlive it (pairsHidden): the list is the loop's
// alone, and popSlice gives the room back when the loop ends.
func (c *Ctx) pushSlice(src []Value, b [3]int64, has [3]bool, tuple bool) Value {
	st := int64(1)
	if has[2] {
		st = b[2]
	}
	from, to := sliceBounds(len(src), b[0], has[0], b[1], has[1], st)
	n := sliceLen(from, to, st)
	vb, tb := len(c.pairVals), len(c.pairTuples)
	if cap(c.pairVals)-vb < n {
		c.pairVals = make([]Value, vb, max(24, 2*(vb+n)))
	}
	if cap(c.pairTuples)-tb < 1 {
		c.pairTuples = make([]List, tb, max(8, 2*(tb+1)))
	}
	c.pairVals = c.pairVals[:vb+n]
	c.pairTuples = c.pairTuples[:tb+1]
	items := c.pairVals[vb : vb+n : vb+n]
	for j, i := 0, from; j < n; j, i = j+1, i+st {
		items[j] = src[i]
	}
	l := &c.pairTuples[tb]
	l.Items = items
	if tuple {
		return Value{kind: KindTuple, ref: l}
	}
	return Value{kind: KindList, ref: l}
}

// popSlice gives back the room of the list pushSlice made last, of n
// items.
func (c *Ctx) popSlice(n int) {
	vt, tt := len(c.pairVals), len(c.pairTuples)
	clear(c.pairVals[vt-n : vt])
	c.pairTuples[tt-1] = List{}
	c.pairVals, c.pairTuples = c.pairVals[:vt-n], c.pairTuples[:tt-1]
	if vt == n && cap(c.pairVals) > 3*maxLoopRoom {
		c.pairVals, c.pairTuples = nil, nil // a large list's: not kept
	}
}
