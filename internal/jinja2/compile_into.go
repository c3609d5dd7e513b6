package jinja2

import "strconv"

// Expressions that write their value into a destination. A Value is 48
// bytes, more than Go returns in registers with an error: a Value an
// evalFn returns is stored to the caller's stack in narrow stores and
// copied on from there with wide loads the CPU cannot forward from its
// store buffer, and stored into a slot it is copied once more. An intoFn
// writes the value where the caller wants it (a slot, a local of the
// caller): a read of a slot, of a dict's item or of a loop's counter is
// one copy from where the value lies.
//
// compileInto has native forms for the reads chat templates make at every
// message; any other expression is its evalFn behind an adapter, so a
// caller can move to intoFn before the expression it evaluates does.

// intoFn evaluates an expression into *dst. dst is a slot of a frame or a
// local of the caller, never an item of a list or dict (the evaluation
// could move or change it). It may alias a slot the expression reads: an
// intoFn reads what it needs before it writes *dst, and writes *dst only
// when it returns no error.
type intoFn func(f *frame, dst *Value) error

// compileInto compiles x into an intoFn: what compileExpr(x) evaluates,
// with the same errors.
func (c *compiler) compileInto(x Expr) (intoFn, error) {
	if fn := c.nativeInto(x); fn != nil {
		return fn, nil
	}
	if c.constMode == 0 && c.placing != x && !c.foldMatters(x) {
		if place := c.deepPlace(x); place != nil {
			return c.placedInto(x, place)
		}
	}
	if r, err := c.refInto(x); r != nil || err != nil {
		return r, err
	}
	ev, err := c.compileExpr(x)
	if err != nil {
		return nil, err
	}
	return intoOf(ev), nil
}

// refInto is compileInto of a path nativeRef reads where it lies and
// nativeInto does not ({% set role = messages[-1].role %}, a field of an
// item, an if-else of those): the value is copied from where it lies
// into the slot, not made as a Value and copied twice. Nil for anything
// else, which compileExpr evaluates.
func (c *compiler) refInto(x Expr) (intoFn, error) {
	switch x.(type) {
	case *AttrExpr, *ItemExpr, *CondExpr:
	default:
		return nil, nil
	}
	r, err := c.nativeRef(x)
	if r == nil || err != nil {
		return nil, err
	}
	return func(f *frame, dst *Value) error {
		p, err := r(f)
		if err != nil {
			return err
		}
		dst.put(p)
		return nil
	}, nil
}

// intoOf adapts an evalFn to an intoFn.
func intoOf(ev evalFn) intoFn {
	return func(f *frame, dst *Value) error {
		v, err := ev(f)
		if err != nil {
			return err
		}
		dst.put(&v)
		return nil
	}
}

// nativeInto returns the intoFn of x where compileExpr would compile x on
// one of the fast paths it mirrors (a local name, an attribute or str
// item of a local, a path placeOf follows), or nil. It compiles nothing
// that compileExpr would compile otherwise: x is not folded, not a
// placing's own general path, and its object is a local read in place.
func (c *compiler) nativeInto(x Expr) intoFn {
	if c.constMode > 0 || c.placing == x || c.foldMatters(x) {
		return nil
	}
	switch n := x.(type) {
	case *Const:
		v := n.Value
		if v.kind == KindStr && !v.IsSafe() {
			v = strVScan(v.s) // as compileExpr's Const
		}
		return func(_ *frame, dst *Value) error { dst.put(&v); return nil }
	case *Name:
		if (n.Name == "self" || n.Name == "super") && c.sc.fn.declares(n.Name) {
			return nil
		}
		if slot, ok := c.slotOf(n); ok {
			return func(f *frame, dst *Value) error { *dst = f.slots[slot]; return nil }
		}
	case *AttrExpr:
		if c.deepPlace(x) != nil {
			return nil // placedInto's
		}
		if slot, ok, undef := c.checkedSlotOf(n.X); ok {
			a := c.newFastAttr(n)
			if undef == nil {
				return func(f *frame, dst *Value) error { return a.into(f, &f.slots[slot], dst) }
			}
			return func(f *frame, dst *Value) error {
				o := &f.slots[slot]
				if o.kind == KindUndefined {
					return undef
				}
				return a.into(f, o, dst)
			}
		}
	case *ItemExpr:
		k, ok := n.Key.(*Const)
		if !ok || k.Value.kind != KindStr || c.deepPlace(x) != nil {
			return nil
		}
		slot, ok := c.slotOf(n.X)
		if !ok {
			return nil
		}
		name, pos, kv := c.src.name, n.P, k.Value
		return func(f *frame, dst *Value) error {
			o := &f.slots[slot]
			if o.kind == KindDict {
				d := o.dict()
				if i := d.findStr(kv.s); i >= 0 {
					dst.put(&d.vals[i])
					return nil
				}
			}
			v, err := GetItem(f.c, *o, kv)
			if err != nil {
				return place(err, name, pos)
			}
			*dst = v
			return nil
		}
	}
	return nil
}

// placedInto is placedExpr's intoFn.
func (c *compiler) placedInto(x Expr, place placeFn) (intoFn, error) {
	gen, err := c.exprBeside(x)
	if err != nil {
		return nil, err
	}
	return func(f *frame, dst *Value) error {
		if p := place(f); p != nil {
			*dst = *p
			return nil
		}
		v, err := gen(f)
		if err != nil {
			return err
		}
		*dst = v
		return nil
	}, nil
}

// into is get, written into *dst; o may be dst.
func (a *fastAttrRef) into(f *frame, o, dst *Value) error {
	switch o.kind {
	case KindDict:
		if a.fromDict {
			d := o.dict()
			if i := d.findStr(a.name); i >= 0 {
				dst.put(&d.vals[i])
				return nil
			}
		}
	case KindObject:
		if a.loop != loopNone {
			if l, ok := o.ref.(*loopObj); ok && l.more == nil {
				if a.loop == loopFirst || a.loop == loopLast {
					*dst = BoolV(l.attrBool(a.loop))
				} else {
					*dst = IntV(l.attrInt(a.loop))
				}
				return nil
			}
		}
	}
	v, err := a.get(f, o)
	if err != nil {
		return err
	}
	*dst = v
	return nil
}

// refFn evaluates an expression and returns a pointer to its value where
// it lies: a slot, an item of a list or dict, a constant, or for a value
// computed, a slot the compiler keeps for the expression. The caller
// reads the value before it evaluates anything else (the next evaluation
// may change or move it) and never writes through the pointer. Reading a
// Value where it lies copies none of its 48 bytes.
type refFn func(f *frame) (*Value, error)

// nativeRef returns the refFn of x where compileExpr would compile x on
// one of the fast paths nativeInto mirrors, or nil: the caller then
// evaluates x's evalFn. An expression nativeRef compiles calls no macro
// and changes nothing, so a second one may be evaluated while the first
// one's pointer is held.
func (c *compiler) nativeRef(x Expr) (refFn, error) {
	return c.nativeRefL(x, false)
}

// nativeRefL is nativeRef of an operand that, when lenient, accepts a
// missing name under StrictNames (expr's, which reads no path in place
// then).
func (c *compiler) nativeRefL(x Expr, lenient bool) (refFn, error) {
	if c.constMode > 0 || c.placing == x || c.foldMatters(x) {
		return nil, nil
	}
	if place := c.deepPlace(x); place != nil && !lenient {
		gen, err := c.exprBeside(x)
		if err != nil {
			return nil, err
		}
		tmp := c.sc.fn.newSlot()
		return func(f *frame) (*Value, error) {
			if p := place(f); p != nil {
				return p, nil
			}
			v, err := gen(f)
			if err != nil {
				return nil, err
			}
			f.slots[tmp] = v
			return &f.slots[tmp], nil
		}, nil
	}
	switch n := x.(type) {
	case *CondExpr:
		return c.condRef(n, lenient)
	case *Const:
		v := new(Value)
		*v = n.Value
		if v.kind == KindStr && !v.IsSafe() {
			*v = strVScan(v.s) // as compileExpr's Const
		}
		return func(*frame) (*Value, error) { return v, nil }, nil
	case *Name:
		if (n.Name == "self" || n.Name == "super") && c.sc.fn.declares(n.Name) {
			return nil, nil
		}
		if slot, ok := c.slotOf(n); ok {
			return func(f *frame) (*Value, error) { return &f.slots[slot], nil }, nil
		}
	case *AttrExpr:
		return c.nativeAttrRef(n)
	case *ItemExpr:
		return c.nativeItemRef(n)
	}
	return nil, nil
}

// nativeAttrRef is nativeRefL of x.name where x's items are read as
// its attributes (a dict's, a namespace's): the value where the dict
// holds it, else what fastAttr's get gives, kept in a slot. x is a
// variable's slot or read in place; a loop's counters are computed, so
// loop.name has none (nil).
func (c *compiler) nativeAttrRef(n *AttrExpr) (refFn, error) {
	a := c.newFastAttr(n)
	if !a.fromDict || a.loop != loopNone {
		// a loop's counters are computed: fastAttr returns them
		return nil, nil
	}
	slot, ok, undef := c.checkedSlotOf(n.X)
	if !ok {
		// x.name of an x read in place (messages[loop.index0 + 1].role),
		// as fastAttr's get of x's value
		xr, tmp, err := c.placedOperand(n.X)
		if xr == nil || err != nil {
			return nil, err
		}
		return func(f *frame) (*Value, error) {
			o, err := xr(f)
			if err != nil {
				return nil, err
			}
			if o.kind == KindDict {
				d := o.dict()
				if i := d.findStr(a.name); i >= 0 {
					return &d.vals[i], nil
				}
			}
			return a.kept(f, o, tmp)
		}, nil
	}
	tmp := c.sc.fn.newSlot()
	return func(f *frame) (*Value, error) {
		o := &f.slots[slot]
		switch o.kind {
		case KindDict:
			d := o.dict()
			if i := d.findStr(a.name); i >= 0 {
				return &d.vals[i], nil
			}
		case KindObject:
			if ns, ok := o.ref.(*namespace); ok && a.nsItem {
				if i := ns.d.findStr(a.name); i >= 0 {
					return &ns.d.vals[i], nil
				}
			}
		case KindUndefined:
			if undef != nil {
				return nil, undef
			}
		}
		return a.kept(f, o, tmp)
	}, nil
}

// nativeItemRef is nativeRefL of x[k] for a constant or int key: an int
// by intItemRef, a str where the dict holds it (a missing key's
// Undefined made without GetItem's checks of the key), of x's slot or
// of an x read in place.
func (c *compiler) nativeItemRef(n *ItemExpr) (refFn, error) {
	if in := c.intOf(n.Key); in != nil {
		return c.intItemRef(n, in)
	}
	if isConstExpr(n.Key) {
		// messages[-1], messages[0]: an int constant as the key
		if k, ok := c.constValue(n.Key); ok && k.kind == KindInt && k.ref == nil {
			return c.intItemRef(n, func(*frame) (int64, bool) { return k.n, true })
		}
	}
	k, ok := n.Key.(*Const)
	if !ok || k.Value.kind != KindStr {
		return nil, nil
	}
	name, pos, kv := c.src.name, n.P, k.Value
	lacks, dlacks := !kv.IsSafe() && strLacks(kv.s), dictLacks(kv)
	slot, ok := c.slotOf(n.X)
	if !ok {
		// x['name'] of an x read in place (messages[0]['role'])
		xr, tmp, err := c.placedOperand(n.X)
		if xr == nil || err != nil {
			return nil, err
		}
		return func(f *frame) (*Value, error) {
			o, err := xr(f)
			if err != nil {
				return nil, err
			}
			switch {
			case o.kind == KindDict:
				d := o.dict()
				if i := d.findStr(kv.s); i >= 0 {
					return &d.vals[i], nil
				}
				if dlacks {
					// GetItem's Undefined, without its checks of the key
					f.slots[tmp] = undefAttr(*o, kv.s)
					return &f.slots[tmp], nil
				}
			case o.kind == KindStr && lacks:
				f.slots[tmp] = undefAttr(*o, kv.s)
				return &f.slots[tmp], nil
			}
			return f.itemKept(*o, kv, tmp, name, pos)
		}, nil
	}
	tmp := c.sc.fn.newSlot()
	return func(f *frame) (*Value, error) {
		o := &f.slots[slot]
		switch {
		case o.kind == KindDict:
			d := o.dict()
			if i := d.findStr(kv.s); i >= 0 {
				return &d.vals[i], nil
			}
			if dlacks {
				// GetItem's Undefined, without its checks of the key
				f.slots[tmp] = undefAttr(*o, kv.s)
				return &f.slots[tmp], nil
			}
		case o.kind == KindStr && lacks:
			f.slots[tmp] = undefAttr(*o, kv.s)
			return &f.slots[tmp], nil
		}
		return f.itemKept(*o, kv, tmp, name, pos)
	}, nil
}

// condRef is nativeRef of x if test else y whose branches nativeRef
// reads (a local, a constant, a field: Gemma's (first_user_prefix if
// loop.first else "") in a printed chain): the branch the test picks,
// read where it lies. Nil without an else (its Undefined names the
// line), for a lenient read, and where a branch is not read in place.
// It is compiled as compileExpr compiles it, softly (a branch's unknown
// filter raises only when it runs).
func (c *compiler) condRef(n *CondExpr, lenient bool) (refFn, error) {
	if n.Else == nil || lenient {
		return nil, nil
	}
	c.soft++
	defer func() { c.soft-- }()
	test, err := c.compileCond(n.Test)
	if err != nil {
		return nil, err
	}
	then, err := c.nativeRef(n.Then)
	if then == nil || err != nil {
		return nil, err
	}
	els, err := c.nativeRef(n.Else)
	if els == nil || err != nil {
		return nil, err
	}
	return func(f *frame) (*Value, error) {
		t, err := test(f)
		if err != nil {
			return nil, err
		}
		if t {
			return then(f)
		}
		return els(f)
	}, nil
}

// evalRef adapts a refFn to an evalFn.
func evalRef(r refFn) evalFn {
	return func(f *frame) (Value, error) {
		p, err := r(f)
		if err != nil {
			return Value{}, err
		}
		return *p, nil
	}
}

// intFn reads a small int without making a Value: ok is false where the
// value is not on this path, and the caller then evaluates the
// expression's evalFn, which gives what Python gives (a big int, an
// error). An intFn reads nothing an evaluation could change and raises
// nothing, so a caller may run it before or after its other operands.
type intFn func(f *frame) (n int64, ok bool)

// intOf returns the intFn of loop.index, index0, revindex, revindex0 and
// length of a loop variable read from its slot (outside a filtered loop's
// look ahead, as fastAttr reads them), and of x + k, x - k and x % k
// (k > 0) of such an x for an int constant k, where fastIntArith would
// compile them; nil for any other expression.
func (c *compiler) intOf(x Expr) intFn {
	if c.constMode > 0 || c.foldMatters(x) {
		return nil
	}
	switch n := x.(type) {
	case *AttrExpr:
		code := loopAttrCode(n.Name)
		if code == loopNone || code == loopFirst || code == loopLast {
			return nil
		}
		slot, ok := c.slotOf(n.X)
		if !ok {
			return nil
		}
		return func(f *frame) (int64, bool) {
			if o := &f.slots[slot]; o.kind == KindObject {
				if l, ok := o.ref.(*loopObj); ok && l.more == nil {
					return l.attrInt(code), true
				}
			}
			return 0, false
		}
	case *BinExpr:
		if _, ok := n.Right.(*Const); !ok && (n.Op == "+" || n.Op == "-") {
			return c.intSumOf(n)
		}
		k, ok := n.Right.(*Const)
		if !ok || k.Value.kind != KindInt || k.Value.ref != nil || isConstExpr(n.Left) {
			return nil
		}
		if parts, _ := plusChain(n); len(parts) >= 3 {
			return nil // fastPlusChain's
		}
		kn := k.Value.n
		switch {
		case n.Op == "+", n.Op == "%" && kn > 0:
		case n.Op == "-" && kn != -kn:
			kn = -kn
		default:
			return nil
		}
		in := c.intOf(n.Left)
		if in == nil {
			return nil
		}
		if n.Op == "%" {
			return func(f *frame) (int64, bool) {
				x, ok := in(f)
				if !ok {
					return 0, false
				}
				r := x % kn
				if r < 0 {
					r += kn
				}
				return r, true
			}
		}
		return func(f *frame) (int64, bool) {
			x, ok := in(f)
			if !ok {
				return 0, false
			}
			s := x + kn
			return s, (s > x) == (kn > 0)
		}
	}
	return nil
}

// intSumOf is intOf of a + b or a - b whose operands are each what intOf
// reads or a local holding an int ((loop.index0 + offset) % 2 of a
// template that counts from the system message): the sum, with false
// where an operand is not such an int or the sum leaves 64 bits.
func (c *compiler) intSumOf(n *BinExpr) intFn {
	if parts, _ := plusChain(n); len(parts) >= 3 {
		return nil // fastPlusChain's
	}
	a, b := c.intOperand(n.Left), c.intOperand(n.Right)
	if a == nil || b == nil {
		return nil
	}
	if n.Op == "-" {
		return func(f *frame) (int64, bool) {
			x, ok := a(f)
			if !ok {
				return 0, false
			}
			y, ok := b(f)
			if !ok {
				return 0, false
			}
			d := x - y
			return d, (d < x) == (y > 0)
		}
	}
	return func(f *frame) (int64, bool) {
		x, ok := a(f)
		if !ok {
			return 0, false
		}
		y, ok := b(f)
		if !ok {
			return 0, false
		}
		s := x + y
		return s, (s > x) == (y > 0)
	}
}

// intOperand is intOf's reader of x, or for a local x read with no check
// (slotOf's) its int where the slot holds it (not a bool, not past 64
// bits).
func (c *compiler) intOperand(x Expr) intFn {
	if _, ok := x.(*Name); !ok {
		return c.intOf(x)
	}
	slot, ok := c.slotOf(x)
	if !ok || c.constMode > 0 {
		return nil
	}
	return func(f *frame) (int64, bool) {
		if o := &f.slots[slot]; o.kind == KindInt && o.ref == nil {
			return o.n, true
		}
		return 0, false
	}
}

// placedOperand is the operand of nativeRef's x.name or x['name'] when x
// is in no slot: x's refFn, and a slot for the answer of get or GetItem
// (kept). Nil when x is a name (a name in no slot is not read in place)
// or nativeRef cannot read x.
func (c *compiler) placedOperand(x Expr) (refFn, int, error) {
	if _, name := x.(*Name); name {
		return nil, 0, nil
	}
	xr, err := c.nativeRef(x)
	if xr == nil || err != nil {
		return nil, 0, err
	}
	return xr, c.sc.fn.newSlot(), nil
}

// intItemRef is nativeRef of x[i] for an i intOf reads (messages[loop.index0
// + 1]) and an x nativeRef reads, as fastItem evaluates it: a list's or
// tuple's item where it lies; anything else goes to GetItem.
func (c *compiler) intItemRef(n *ItemExpr, in intFn) (refFn, error) {
	xr, err := c.nativeRef(n.X)
	if xr == nil || err != nil {
		return nil, err
	}
	key, err := c.compileExpr(n.Key)
	if err != nil {
		return nil, err
	}
	name, pos := c.src.name, n.P
	tmp := c.sc.fn.newSlot()
	return func(f *frame) (*Value, error) {
		p, err := xr(f)
		if err != nil {
			return nil, err
		}
		var k Value
		if i, ok := in(f); ok {
			if p.kind == KindList || p.kind == KindTuple {
				items := p.list().Items
				if i < 0 {
					i += int64(len(items))
				}
				if i >= 0 && i < int64(len(items)) {
					return &items[i], nil
				}
			}
			k = IntV(i)
		} else {
			o := *p // the key's evaluation may change what p points to
			if k, err = key(f); err != nil {
				return nil, err
			}
			p = &o
		}
		return f.itemKept(*p, k, tmp, name, pos)
	}, nil
}

// itemKept is GetItem(o, k) kept in the frame's slot tmp, for a reader
// that returns a pointer where the item does not lie in place (called
// only past the reader's in-place cases, where GetItem's call is the
// cost).
func (f *frame) itemKept(o, k Value, tmp int, name string, pos Pos) (*Value, error) {
	v, err := GetItem(f.c, o, k)
	if err != nil {
		return nil, place(err, name, pos)
	}
	f.slots[tmp] = v
	return &f.slots[tmp], nil
}

// strMethodCallOf returns x and the writer of x.name() for a call of a
// str method appendStrMethod writes, without arguments; nil otherwise.
func (c *compiler) strMethodCallOf(e Expr) (Expr, func(dst []byte, s string) ([]byte, bool)) {
	call, ok := e.(*CallExpr)
	if !ok || !noArgs(call.Args) || c.constMode > 0 || c.foldMatters(call) {
		return nil, nil
	}
	ax, ok := call.Fn.(*AttrExpr)
	if !ok {
		return nil, nil
	}
	fn := appendStrMethod(ax.Name)
	if fn == nil {
		return nil, nil
	}
	return ax.X, fn
}

// bareTrimOf returns x for x|trim, the builtin filter without arguments
// (what compileBareFilter compiles), else nil.
//
// It returns x for x.strip() too, which for a str (or Markup) x is x|trim:
// str.strip without arguments strips what do_trim strips. A reader that
// takes it writes the stripped str only when x is a str, and calls the
// method otherwise.
func (c *compiler) bareTrimOf(e Expr) Expr {
	if call, ok := e.(*CallExpr); ok {
		ax, ok := call.Fn.(*AttrExpr)
		if !ok || ax.Name != "strip" || !noArgs(call.Args) || c.constMode > 0 || c.foldMatters(call) {
			return nil
		}
		if _, ok := ax.X.(*FilterExpr); ok {
			return nil
		}
		return ax.X
	}
	n, ok := e.(*FilterExpr)
	if !ok || n.Name != "trim" || n.X == nil || !noArgs(n.Args) || c.constMode > 0 || c.foldMatters(n) {
		return nil
	}
	if _, own := c.env.filters["trim"]; own {
		return nil
	}
	if _, ok := n.X.(*FilterExpr); ok {
		return nil
	}
	return n.X
}

// refPrint compiles {{ x }} of an x nativeRef reads, written from where
// it lies, and of an int intOf reads, written without a Value; nil for
// other prints, under a finalize hook and where the output is checked.
func (c *compiler) refPrint(n *Print) (execFn, error) {
	if c.constMode > 0 || c.outputCheck() || c.env.ext.finalize != nil {
		return nil, nil
	}
	name, pos := c.src.name, n.P
	if in := c.intOf(n.X); in != nil {
		ev, err := c.compileExpr(n.X)
		if err != nil {
			return nil, err
		}
		return func(f *frame) error {
			if x, ok := in(f); ok {
				f.c.out = strconv.AppendInt(f.c.out, x, 10)
				return place(f.c.checkOutput(), name, pos)
			}
			v, err := ev(f)
			if err != nil {
				return err
			}
			return place(f.c.writeValue(v), name, pos)
		}, nil
	}
	r, err := c.nativeRef(n.X)
	if r == nil || err != nil {
		return nil, err
	}
	return func(f *frame) error {
		p, err := r(f)
		if err != nil {
			return err
		}
		return place(f.c.writeValue(*p), name, pos)
	}, nil
}

// nsSlot returns the slot of the current frame loadName(name) reads: a
// variable of the current function, or a free name; false for one of an
// enclosing function and for self and super.
func (c *compiler) nsSlot(name string) (int, bool) {
	if loc, ok := resolveFrom(c.sc, c.sc.fn, name); ok {
		return loc.slot, loc.hops == 0
	}
	if (name == "self" || name == "super") && c.sc.fn.declares(name) {
		return 0, false
	}
	return c.freeSlot(c.sc.fn, name), true
}
