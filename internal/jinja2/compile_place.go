package jinja2

// Reading values where they lie. A Value is 48 bytes, more than the
// compiler keeps in registers: one an evalFn returns is stored to the
// stack in seven narrow stores and copied from there with 16-byte loads
// that span them, which the CPU cannot forward from its store buffer. A
// path of item and attribute reads such as messages[0]['role'] made of
// evalFns stalls at each step; followed through pointers, it copies the
// Value once, from where it lies.

// placeFn returns a pointer to the Value an expression reads where it
// lies (a slot, a list's item, a dict's item), or nil when it does not
// lie anywhere placeOf's steps can follow: the expression's own
// evaluation then gives its value (or error).
type placeFn func(f *frame) *Value

// placeOf returns the placeFn of x, or nil when x is not a path placeOf
// follows: a local name (slotOf's), then items with a constant int key
// of a list or tuple, items with a constant str key of a dict, items
// under a local name's str or int (varKeyPlace), and attributes that a
// dict answers with its item (dictAttrIsItem).
func (c *compiler) placeOf(x Expr) placeFn {
	switch n := x.(type) {
	case *Name:
		if slot, ok := c.slotOf(n); ok {
			return func(f *frame) *Value { return &f.slots[slot] }
		}
	case *ItemExpr:
		if kn, ok := n.Key.(*Name); ok {
			return c.varKeyPlace(n.X, kn)
		}
		k, ok := n.Key.(*Const)
		if !ok {
			return nil
		}
		in := c.placeOf(n.X)
		switch {
		case in == nil:
		case k.Value.kind == KindInt && k.Value.ref == nil:
			i0 := k.Value.n
			return func(f *frame) *Value {
				o := in(f)
				if o == nil || o.kind != KindList && o.kind != KindTuple {
					return nil
				}
				items := o.list().Items
				i := i0
				if i < 0 {
					i += int64(len(items))
				}
				if i < 0 || i >= int64(len(items)) {
					return nil
				}
				return &items[i]
			}
		case k.Value.kind == KindStr:
			return dictPlace(in, k.Value.s)
		}
	case *AttrExpr:
		if !dictAttrIsItem(n.Name) {
			return nil
		}
		if in := c.placeOf(n.X); in != nil {
			return dictPlace(in, n.Name)
		}
	}
	return nil
}

// dictPlace is the placeFn of the item key of the dict in places.
func dictPlace(in placeFn, key string) placeFn {
	return func(f *frame) *Value {
		o := in(f)
		if o == nil || o.kind != KindDict {
			return nil
		}
		d := o.dict()
		if i := d.findStr(key); i >= 0 {
			return &d.vals[i]
		}
		return nil
	}
}

// varKeyPlace is the placeFn of x[k] for a local name k: the item of a
// dict under a str key (a Markup finds its str, as it hashes and
// compares as one), or of a list or tuple under an int. Any other key,
// object or a missing item is nil, x[k]'s own evaluation.
func (c *compiler) varKeyPlace(x Expr, k *Name) placeFn {
	in := c.placeOf(x)
	if in == nil {
		return nil
	}
	kslot, ok := c.slotOf(k)
	if !ok {
		return nil
	}
	return func(f *frame) *Value {
		o := in(f)
		if o == nil {
			return nil
		}
		key := &f.slots[kslot]
		switch {
		case o.kind == KindDict && key.kind == KindStr:
			d := o.dict()
			if i := d.findStr(key.s); i >= 0 {
				return &d.vals[i]
			}
		case (o.kind == KindList || o.kind == KindTuple) && key.kind == KindInt && key.ref == nil:
			items := o.list().Items
			i := key.n
			if i < 0 {
				i += int64(len(items))
			}
			if i >= 0 && i < int64(len(items)) {
				return &items[i]
			}
		}
		return nil
	}
}

// deepPlace returns placeOf(x) for the paths whose fast paths would
// evaluate a step through an evalFn: x[k] of a constant int, and an item
// or attribute of anything but a local name (those read their object in
// place already); nil for every other x.
func (c *compiler) deepPlace(x Expr) placeFn {
	switch n := x.(type) {
	case *ItemExpr:
		if _, ok := n.Key.(*Name); ok {
			break // fastItem evaluates both through evalFns
		}
		k, ok := n.Key.(*Const)
		if !ok {
			return nil
		}
		if _, local := n.X.(*Name); local && k.Value.kind != KindInt {
			return nil
		}
	case *AttrExpr:
		if _, local := n.X.(*Name); local {
			return nil
		}
	default:
		return nil
	}
	return c.placeOf(x)
}

// exprBeside compiles x's own evaluation, for a closure that reads x in
// place where it can and evaluates it where it cannot (c.placing keeps
// the compilation of x from reading it in place again).
func (c *compiler) exprBeside(x Expr) (evalFn, error) {
	saved := c.placing
	c.placing = x
	gen, err := c.expr(x, false)
	c.placing = saved
	return gen, err
}

// placedExpr compiles x, which place reads in place, as the Value place
// points to, or x's own evaluation where it points to none.
func (c *compiler) placedExpr(x Expr, place placeFn) (evalFn, error) {
	gen, err := c.exprBeside(x)
	if err != nil {
		return nil, err
	}
	return func(f *frame) (Value, error) {
		if p := place(f); p != nil {
			return *p, nil
		}
		return gen(f)
	}, nil
}
