package jinja2

import (
	"slices"
	"strconv"
	"strings"
)

// Fast paths for what chat templates do at every message: read a field of
// the message (message.role, messages[0]['content']), compare it with a
// constant (message.role == "user"), test it (message.tool_calls is
// defined), read the loop's state (loop.first, loop.index0 - 1) and index
// the conversation with it (messages[loop.index0 + 1]). Each gives what
// the general path gives, errors included, with fewer closure calls and
// without building values that are only tested: a condition of an if, an
// and, an or or a not is compiled to a function returning a bool
// (condFn). Where a value falls outside a fast path, the general path
// runs.

// strEqual is Compare(c, op, a, b) for op "==" or "!=" when a and b are
// strs (Markup or not: Markup is a str).
func strEqual(op string, a, b Value) (r, ok bool) {
	if a.kind != KindStr || b.kind != KindStr || op != "==" && op != "!=" {
		return false, false
	}
	return (a.s == b.s) == (op == "=="), true
}

// condFn evaluates an expression for its truth.
type condFn func(f *frame) (bool, error)

// fastExpr compiles x on a fast path, or returns nil when it has none.
// It runs after maybeFold, and never in constMode.
func (c *compiler) fastExpr(x Expr) (evalFn, error) {
	switch n := x.(type) {
	case *AttrExpr:
		return c.fastAttr(n)
	case *CompareExpr, *TestExpr:
		if !c.condHasFast(x) {
			return nil, nil
		}
		cond, err := c.compileCond(x)
		if err != nil {
			return nil, err
		}
		return boolValue(cond), nil
	case *UnaryExpr:
		if k, ok := n.X.(*Const); ok && n.Op != "not" && isNum(k.Value) {
			// -1, +2.5: the number, once (Jinja2's optimizer folds it;
			// on a number UnaryOp cannot fail)
			v, err := UnaryOp(nil, n.Op, k.Value)
			if err == nil {
				return func(*frame) (Value, error) { return v, nil }, nil
			}
		}
		if n.Op != "not" {
			return nil, nil
		}
		cond, err := c.compileCond(n.X)
		if err != nil {
			return nil, err
		}
		return func(f *frame) (Value, error) {
			ok, err := cond(f)
			if err != nil {
				return Value{}, err
			}
			return BoolV(!ok), nil
		}, nil
	case *BinExpr:
		if fn, err := c.fastPlusChain(n); fn != nil || err != nil {
			return fn, err
		}
		return c.fastIntArith(n)
	case *ItemExpr:
		return c.splitOrFastItem(n)
	case *ListLit, *DictLit:
		// A literal of literals in the sandbox, where nothing can change
		// a list, is built once (as Jinja2's optimizer folds it) instead
		// of at every evaluation. Python builds a new list at each
		// evaluation, which only the sameas test can tell apart: a
		// template that names it builds them anew. A dict is built once
		// only where the template cannot change it (frozenDicts): the
		// sandbox lets {% set d.k %}…{% endset %} and dict.update(d, …)
		// through the class change one.
		if c.env.sandbox && !strings.Contains(c.src.text, "sameas") {
			if v, ok := literalValue(x, c.frozenDicts); ok {
				if !holdsDict(v) {
					return func(*frame) (Value, error) { return v, nil }, nil
				}
				// A render whose root template can change a dict
				// (Ctx.freshDicts) gets a copy.
				return func(f *frame) (Value, error) {
					if f.c.freshDicts {
						return freshLiteral(v), nil
					}
					return v, nil
				}, nil
			}
		}
	}
	return nil, nil
}

// literalValue is the value of a list or tuple literal whose items are
// constants or such literals, and of such a dict literal when dicts is
// true; false for any other expression or a key that cannot be hashed
// (the evaluation raises it).
func literalValue(x Expr, dicts bool) (Value, bool) {
	items := func(xs []Expr) ([]Value, bool) {
		out := make([]Value, len(xs))
		for i, it := range xs {
			v, ok := literalValue(it, dicts)
			if !ok {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	}
	switch n := x.(type) {
	case *Const:
		return n.Value, true
	case *TupleLit:
		vs, ok := items(n.Items)
		return TupleV(vs), ok
	case *ListLit:
		vs, ok := items(n.Items)
		return ListV(vs), ok
	case *DictLit:
		if !dicts {
			return Value{}, false
		}
		keys, ok := items(n.Keys)
		if !ok {
			return Value{}, false
		}
		vals, ok := items(n.Values)
		if !ok {
			return Value{}, false
		}
		d := NewDict(len(keys))
		for i, k := range keys {
			if checkHashable(k) != nil {
				return Value{}, false
			}
			d.Set(k, vals[i])
		}
		return DictV(d), true
	}
	return Value{}, false
}

// fastItem compiles x[k] for a key that is no slice and no str constant
// (compileGetItem reads those): an int key of a list or tuple is its
// item, read in place; anything else goes to GetItem.
func (c *compiler) fastItem(n *ItemExpr) (evalFn, error) {
	switch k := n.Key.(type) {
	case *SliceExpr:
		return nil, nil
	case *Const:
		if k.Value.kind == KindStr {
			return c.fastStrItem(n, k.Value)
		}
	}
	obj, err := c.compileExpr(n.X)
	if err != nil {
		return nil, err
	}
	key, err := c.compileExpr(n.Key)
	if err != nil {
		return nil, err
	}
	return itemOf(obj, key, c.src.name, n.P), nil
}

// itemOf is obj[key] for a key that is no slice: an int key of a list or
// tuple is its item, read in place; anything else goes to GetItem, its
// error placed at name and pos. fastItem and compileGetItem (in
// constMode) both return it. Not inlined, so that its closure is
// compiled as if written in its caller (see boolValue).
//
//go:noinline
func itemOf(obj, key evalFn, name string, pos Pos) evalFn {
	return func(f *frame) (Value, error) {
		o, err := obj(f)
		if err != nil {
			return Value{}, err
		}
		k, err := key(f)
		if err != nil {
			return Value{}, err
		}
		if (o.kind == KindList || o.kind == KindTuple) && k.kind == KindInt && k.ref == nil {
			items := o.list().Items
			i := k.n
			if i < 0 {
				i += int64(len(items))
			}
			if i >= 0 && i < int64(len(items)) {
				return items[i], nil
			}
		}
		v, err := GetItem(f.c, o, k)
		if err != nil {
			return Value{}, place(err, name, pos)
		}
		return v, nil
	}
}

// fieldOf recognizes x.name (name a dict's item) and x['name'] for a
// local x: the slot, the key, and what the expression gives when x is no
// dict holding the key.
func (c *compiler) fieldOf(x Expr) (slot int, key string, miss func(f *frame, o *Value) (Value, error), ok bool) {
	switch n := x.(type) {
	case *AttrExpr:
		fa := c.newFastAttr(n)
		if !fa.fromDict {
			return 0, "", nil, false
		}
		slot, ok = c.slotOf(n.X)
		return slot, n.Name, fa.get, ok
	case *ItemExpr:
		k, isConst := n.Key.(*Const)
		if !isConst || k.Value.kind != KindStr {
			return 0, "", nil, false
		}
		slot, ok = c.slotOf(n.X)
		name, pos, kv := c.src.name, n.P, k.Value
		lacks, dlacks := !kv.IsSafe() && strLacks(kv.s), dictLacks(kv)
		return slot, kv.s, func(f *frame, o *Value) (Value, error) {
			switch {
			case o.kind == KindStr && lacks:
				return undefAttr(*o, kv.s), nil
			case o.kind == KindDict && dlacks:
				// GetItem's first step, without its checks of the key
				d := o.dict()
				if i := d.findStr(kv.s); i >= 0 {
					return d.vals[i], nil
				}
				return undefAttr(*o, kv.s), nil
			}
			v, err := GetItem(f.c, *o, kv)
			if err != nil {
				return Value{}, place(err, name, pos)
			}
			return v, nil
		}, ok
	}
	return 0, "", nil, false
}

// fieldLacks reports whether x is a field of a dict, x.name or
// x['name'], whose absence from a dict is undefAttr's Undefined (no dict
// has the name as an attribute): what fieldOf's miss gives for a dict
// that lacks it.
func fieldLacks(x Expr) bool {
	switch n := x.(type) {
	case *AttrExpr:
		return dictAttrIsItem(n.Name)
	case *ItemExpr:
		k, ok := n.Key.(*Const)
		return ok && k.Value.kind == KindStr && dictLacks(k.Value)
	}
	return false
}

// fastStrItem compiles x['name'] for a local x: a dict's item is read
// where the slot holds it; anything else goes to GetItem.
func (c *compiler) fastStrItem(n *ItemExpr, k Value) (evalFn, error) {
	slot, ok := c.slotOf(n.X)
	if !ok {
		return nil, nil
	}
	name, pos := c.src.name, n.P
	lacks, dlacks := !k.IsSafe() && strLacks(k.s), dictLacks(k)
	return func(f *frame) (Value, error) {
		o := &f.slots[slot]
		switch {
		case o.kind == KindDict:
			d := o.dict()
			if i := d.findStr(k.s); i >= 0 {
				return d.vals[i], nil
			}
			if dlacks {
				return undefAttr(*o, k.s), nil
			}
		case o.kind == KindStr && lacks:
			return undefAttr(*o, k.s), nil
		}
		v, err := GetItem(f.c, *o, k)
		if err != nil {
			return Value{}, place(err, name, pos)
		}
		return v, nil
	}, nil
}

// fastPrint compiles {{ x.name }} for a local x: the field is read in
// place and written. It returns nil for any other print.
func (c *compiler) fastPrint(n *Print) execFn {
	ax, ok := n.X.(*AttrExpr)
	if !ok || c.constMode > 0 || c.outputCheck() || c.foldMatters(n.X) {
		return nil
	}
	slot, ok := c.slotOf(ax.X)
	if !ok {
		return nil
	}
	a := c.newFastAttr(ax)
	name, pos := c.src.name, n.P
	return func(f *frame) error {
		v, err := a.get(f, &f.slots[slot])
		if err != nil {
			return err
		}
		f.c.finalize(&v)
		return place(f.c.writeValue(v), name, pos)
	}
}

// namePrint compiles {{ name }} of a variable of the current frame or a
// free name (read from the context at entry) as one function reading the
// slot, with the strict check compileName would make; nil for other
// prints.
func (c *compiler) namePrint(n *Print) execFn {
	slot, undef, ok := c.printedSlot(n)
	if !ok {
		return nil
	}
	name, pos := c.src.name, n.P
	return func(f *frame) error {
		v := f.slots[slot]
		if undef != nil && v.kind == KindUndefined {
			return undef
		}
		start := len(f.c.out)
		f.c.finalize(&v)
		if err := f.c.writeValue(v); err != nil {
			return place(err, name, pos)
		}
		if v.flags&flagOwn != 0 {
			f.c.ownSince(start)
		}
		return nil
	}
}

// printedSlot returns, for {{ name }} that namePrint compiles, the slot it
// reads and the error of a strict name that is undefined (nil when names
// are not strict or name is the frame's variable).
func (c *compiler) printedSlot(n *Print) (slot int, undef error, ok bool) {
	nm, ok := n.X.(*Name)
	if !ok || c.constMode > 0 || c.outputCheck() || c.foldMatters(n.X) || nm.Name == "self" || nm.Name == "super" {
		return 0, nil, false
	}
	loc, local := resolveFrom(c.sc, c.sc.fn, nm.Name)
	if local {
		if loc.hops != 0 {
			return 0, nil, false
		}
		slot = loc.slot
	} else {
		slot = c.freeSlot(c.sc.fn, nm.Name)
	}
	if !local && c.env.strictName(nm.Name) {
		undef = c.errAt(nm, "UndefinedError", pyQuote(nm.Name)+" is undefined")
	}
	return slot, undef, true
}

// printedField recognizes {{ x.name }} and {{ x['name'] }} of a local x
// (fieldOf's) printed with no check of the output (what fastPrint and
// compilePrintValue compile otherwise).
func (c *compiler) printedField(n *Print) (slot int, key string, miss func(f *frame, o *Value) (Value, error), ok bool) {
	if c.constMode > 0 || c.outputCheck() || c.foldMatters(n.X) {
		return 0, "", nil, false
	}
	return c.fieldOf(n.X)
}

// segOp is a step of a run of text and {{ name }} prints: text, then the
// value in slot (name true), the field key of the value in slot (miss
// set: fieldOf's) or nothing. A print and the text before it are one
// step: half the steps, and the same branches at each.
type segOp struct {
	text  string
	name  bool
	slot  int
	undef error // printedSlot's
	key   string
	miss  func(f *frame, o *Value) (Value, error)
	lacks bool // a dict without key prints its Undefined: nothing (fieldLacks)
	pos   Pos
}

// segment runs ops in one function: what their statements' functions
// (writeRaw, namePrint's) would do one by one, with the same errors.
func (c *compiler) segment(ops []segOp) execFn {
	tmpl := c.src.name
	return func(f *frame) error {
		c := f.c
		limit := c.env.limits.Output
		// a str printed as it is, read where its slot holds it
		plain := !c.autoescape && c.env.ext.finalize == nil
		// The output is kept in a local between steps (c.out is written
		// back before anything else reads or writes it): an append to
		// c.out loads and stores the slice through c at every step.
		out := c.out
		if plain && limit <= 0 && c.own == nil {
			// the usual render (no output limit, no own text tracked):
			// the loop below without its tests of either at each step
			for i := range ops {
				op := &ops[i]
				out = append(out, op.text...)
				if op.name {
					if p := &f.slots[op.slot]; p.kind == KindStr {
						out = append(out, p.s...)
						continue
					}
				} else if op.miss == nil {
					continue
				} else if o := &f.slots[op.slot]; o.kind == KindDict {
					// a field: a str or a small int of the dict written
					// here, as print would write it
					d := o.dict()
					if i := d.findStr(op.key); i >= 0 {
						switch v := &d.vals[i]; {
						case v.kind == KindStr:
							out = append(out, v.s...)
							continue
						case v.kind == KindInt && v.ref == nil:
							out = strconv.AppendInt(out, v.n, 10)
							continue
						}
					} else if op.lacks {
						// its Undefined, which prints as nothing
						continue
					}
				}
				c.setOut(out)
				if err := op.print(f, tmpl); err != nil {
					return err
				}
				out = c.out
			}
			c.setOut(out)
			return nil
		}
		for i := range ops {
			op := &ops[i]
			if len(op.text) > 0 {
				if c.own != nil {
					c.own.add(len(out)-c.outBase, len(op.text))
				}
				out = append(out, op.text...)
				if limit > 0 && len(out)-c.outBase > limit {
					c.setOut(out)
					return c.checkOutput()
				}
			}
			if op.name {
				if p := &f.slots[op.slot]; p.kind == KindStr && plain {
					if c.own != nil && p.flags&flagOwn != 0 {
						c.own.add(len(out)-c.outBase, len(p.s))
					}
					out = append(out, p.s...)
					if limit > 0 && len(out)-c.outBase > limit {
						c.setOut(out)
						return place(c.checkOutput(), tmpl, op.pos)
					}
					continue
				}
			} else if op.miss == nil {
				continue
			}
			c.setOut(out)
			if err := op.print(f, tmpl); err != nil {
				return err
			}
			out = c.out
		}
		c.setOut(out)
		return nil
	}
}

// print prints the value of a segment's step that is not a str read in
// its slot and printed as it is: what segment's loop would do inline,
// kept out of it so that the loop's common steps stay small.
func (op *segOp) print(f *frame, tmpl string) error {
	c := f.c
	var v Value
	if op.name {
		v = f.slots[op.slot]
		if op.undef != nil && v.kind == KindUndefined {
			return op.undef
		}
	} else {
		o := &f.slots[op.slot]
		found := false
		if o.kind == KindDict {
			d := o.dict()
			if i := d.findStr(op.key); i >= 0 {
				v, found = d.vals[i], true
			}
		}
		if !found {
			var err error
			if v, err = op.miss(f, o); err != nil {
				return err
			}
		}
	}
	if fin := c.env.ext.finalize; fin != nil {
		v = fin(v)
	}
	if v.kind == KindStr && !c.autoescape {
		c.out = append(c.out, v.s...)
		if limit := c.env.limits.Output; limit > 0 && len(c.out)-c.outBase > limit {
			return place(c.checkOutput(), tmpl, op.pos)
		}
		return nil
	}
	if err := c.writeValue(v); err != nil {
		return place(err, tmpl, op.pos)
	}
	return nil
}

// slotOf returns the slot of the current frame that holds x when x is a
// name read there with no check: a variable of the current function, or
// a free name (read from the context at entry) when names are not
// strict.
func (c *compiler) slotOf(x Expr) (int, bool) {
	n, ok := x.(*Name)
	if !ok || c.constMode > 0 {
		return 0, false
	}
	if loc, ok := resolveFrom(c.sc, c.sc.fn, n.Name); ok {
		// a read that can see missing goes through loadName
		return loc.slot, loc.hops == 0 && !readsMissing(c.sc, n.Name)
	}
	if c.env.strictName(n.Name) || (n.Name == "self" || n.Name == "super") && c.sc.fn.declares(n.Name) {
		return 0, false
	}
	return c.freeSlot(c.sc.fn, n.Name), true
}

// The loop variable's attributes the fast path computes.
const (
	loopNone = iota
	loopIndex
	loopIndex0
	loopRevindex
	loopRevindex0
	loopFirst
	loopLast
	loopLength
)

func loopAttrCode(name string) int {
	switch name {
	case "index":
		return loopIndex
	case "index0":
		return loopIndex0
	case "revindex":
		return loopRevindex
	case "revindex0":
		return loopRevindex0
	case "first":
		return loopFirst
	case "last":
		return loopLast
	case "length":
		return loopLength
	}
	return loopNone
}

// attrInt returns the loop attribute code as an int (all but first and
// last).
func (l *loopObj) attrInt(code int) int64 {
	switch code {
	case loopIndex:
		return int64(l.i + 1)
	case loopIndex0:
		return int64(l.i)
	}
	n := len(l.items)
	if l.sized || l.live != nil {
		n = l.fixedLength()
	}
	l.lenRead = true
	switch code {
	case loopRevindex:
		return int64(n - l.i)
	case loopRevindex0:
		return int64(n - l.i - 1)
	}
	return int64(n)
}

// attrBool returns loop.first or loop.last.
// filteredBool is attrBool of a filtered loop still taking items, as
// GetAttr answers it: loop.last takes the next item the filter keeps
// first (Jinja2's LoopContext looks ahead one item), which may raise;
// loop.first looks at nothing ahead.
func (l *loopObj) filteredBool(code int) (bool, error) {
	if code == loopLast {
		if err := l.lookAhead("last"); err != nil {
			return false, err
		}
	}
	return l.attrBool(code), nil
}

func (l *loopObj) attrBool(code int) bool {
	if code == loopFirst {
		return l.i == 0
	}
	if l.live != nil {
		return l.peek()
	}
	return l.i == len(l.items)-1
}

// fastAttrRef is a compiled x.name with the fast forms of its value.
type fastAttrRef struct {
	attrRef
	loop   int  // loopAttrCode(name)
	nsItem bool // a namespace's item called name is GetAttr's answer: name is not private
}

// get is o.name: a dict's item, a loop attribute, else GetAttr's answer.
// o is read in place (a slot, usually), not copied.
func (a *fastAttrRef) get(f *frame, o *Value) (Value, error) {
	switch o.kind {
	case KindDict:
		if a.fromDict {
			d := o.dict()
			if i := d.findStr(a.name); i >= 0 {
				return d.vals[i], nil
			}
			// neither an item nor a method nor private: GetAttr's
			// Undefined, in the sandbox or not
			return undefAttr(*o, a.name), nil
		}
	case KindObject:
		if ns, ok := o.ref.(*namespace); ok && a.nsItem {
			// GetAttr's answer when the namespace has it
			if i := ns.d.findStr(a.name); i >= 0 {
				return ns.d.vals[i], nil
			}
		}
		if a.loop != loopNone {
			// a filtered loop still taking items looks ahead through
			// GetAttr, which may raise
			if l, ok := o.ref.(*loopObj); ok && l.more == nil {
				if a.loop == loopFirst || a.loop == loopLast {
					return BoolV(l.attrBool(a.loop)), nil
				}
				return IntV(l.attrInt(a.loop)), nil
			}
		}
	}
	return a.of(f, *o)
}

// kept is get's answer kept in the frame's slot tmp, for a reader that
// returns a pointer where o.name does not lie in place (not inlined: the
// readers call it only past their in-place cases, after which get's own
// call is the cost).
func (a *fastAttrRef) kept(f *frame, o *Value, tmp int) (*Value, error) {
	v, err := a.get(f, o)
	if err != nil {
		return nil, err
	}
	f.slots[tmp] = v
	return &f.slots[tmp], nil
}

// truth is bool(o.name).
func (a *fastAttrRef) truth(f *frame, o *Value) (bool, error) {
	switch o.kind {
	case KindDict:
		// the item's truth where it lies (get's answer, not copied)
		if a.fromDict {
			d := o.dict()
			if i := d.findStr(a.name); i >= 0 {
				return d.vals[i].Truth(), nil
			}
		}
	case KindObject:
		if a.loop == loopFirst || a.loop == loopLast {
			if l, ok := o.ref.(*loopObj); ok {
				if l.more == nil {
					return l.attrBool(a.loop), nil
				}
				return l.filteredBool(a.loop)
			}
		}
		if ns, ok := o.ref.(*namespace); ok && a.nsItem {
			if i := ns.d.findStr(a.name); i >= 0 {
				return ns.d.vals[i].Truth(), nil
			}
		}
	}
	v, err := a.get(f, o)
	return v.Truth(), err
}

func (c *compiler) newFastAttr(n *AttrExpr) *fastAttrRef {
	return &fastAttrRef{
		attrRef: attrRef{name: n.Name, fromDict: dictAttrIsItem(n.Name), tmpl: c.src.name, pos: n.P},
		loop:    loopAttrCode(n.Name),
		nsItem:  !strings.HasPrefix(n.Name, "_"),
	}
}

// fastAttr compiles x.name, reading x from its slot when it is a local.
func (c *compiler) fastAttr(n *AttrExpr) (evalFn, error) {
	a := c.newFastAttr(n)
	if slot, ok, undef := c.checkedSlotOf(n.X); ok {
		if undef == nil {
			return func(f *frame) (Value, error) { return a.get(f, &f.slots[slot]) }, nil
		}
		return func(f *frame) (Value, error) {
			o := &f.slots[slot]
			if o.kind == KindUndefined {
				return Value{}, undef
			}
			return a.get(f, o)
		}, nil
	}
	if slot, refs, undef := c.attrChain(n); refs != nil {
		return attrChainFn(slot, undef, append(refs, a)), nil
	}
	obj, err := c.compileExpr(n.X)
	if err != nil {
		return nil, err
	}
	if slot, ok := c.setLaterSlot(n.X); ok {
		// ns.n in a loop, ns set at the top level: loadName copies
		// the value out to clear a missing name's mark, which only an
		// Undefined has, so anything else is read where it lies
		return func(f *frame) (Value, error) {
			if o := &f.slots[slot]; o.kind != KindUndefined {
				return a.get(f, o)
			}
			o, err := obj(f)
			if err != nil {
				return Value{}, err
			}
			return a.get(f, &o)
		}, nil
	}
	return func(f *frame) (Value, error) {
		o, err := obj(f)
		if err != nil {
			return Value{}, err
		}
		return a.get(f, &o)
	}, nil
}

// setLaterSlot returns the slot of x, a name of the current function
// that slotOf leaves to loadName because the read may come before the
// name's first store (readsMissing): its slot holds the missing mark,
// on an Undefined, until then.
func (c *compiler) setLaterSlot(x Expr) (int, bool) {
	n, ok := x.(*Name)
	if !ok || c.constMode > 0 {
		return 0, false
	}
	if loc, ok := resolveFrom(c.sc, c.sc.fn, n.Name); ok && loc.hops == 0 && readsMissing(c.sc, n.Name) {
		return loc.slot, true
	}
	return 0, false
}

// checkedSlotOf is slotOf, and under StrictNames also a free name: its
// slot and the UndefinedError that reading it raises when it is
// undefined (what compileName checks).
func (c *compiler) checkedSlotOf(x Expr) (slot int, ok bool, undef error) {
	if slot, ok := c.slotOf(x); ok {
		return slot, true, nil
	}
	n, ok := x.(*Name)
	if !ok || c.constMode > 0 || !c.env.strictName(n.Name) || n.Name == "self" || n.Name == "super" {
		return 0, false, nil
	}
	if _, local := resolveFrom(c.sc, c.sc.fn, n.Name); local {
		return 0, false, nil // a variable of an enclosing function
	}
	return c.freeSlot(c.sc.fn, n.Name), true, c.errAt(n, "UndefinedError", pyQuote(n.Name)+" is undefined")
}

// attrChain recognizes the x.a.b… under n.name (x a name that
// checkedSlotOf reads): the slot of x, its undef, and the compiled
// attributes from x's outwards, each of which fastAttr would compile on
// its own; nil refs otherwise.
func (c *compiler) attrChain(n *AttrExpr) (slot int, refs []*fastAttrRef, undef error) {
	x := n.X
	for {
		ax, ok := x.(*AttrExpr)
		if !ok || c.foldMatters(ax) {
			return 0, nil, nil
		}
		refs = append(refs, c.newFastAttr(ax))
		if s, ok, undef := c.checkedSlotOf(ax.X); ok {
			slices.Reverse(refs)
			return s, refs, undef
		}
		x = ax.X
	}
}

// attrChainFn evaluates x.a.b…, x in slot (undef, when not nil, is
// raised if x is undefined) and refs the attributes from x's outwards,
// as the nested fastAttr functions would, one get after the other; while
// each object is a dict holding its item, the next get reads the item
// where the dict holds it, with no copy of the Values between.
func attrChainFn(slot int, undef error, refs []*fastAttrRef) evalFn {
	last := len(refs) - 1
	return func(f *frame) (Value, error) {
		o := &f.slots[slot]
		if undef != nil && o.kind == KindUndefined {
			return Value{}, undef
		}
		for k, r := range refs[:last] {
			if o.kind == KindDict && r.fromDict {
				d := o.dict()
				if i := d.findStr(r.name); i >= 0 {
					o = &d.vals[i]
					continue
				}
			}
			v, err := r.get(f, o)
			if err != nil {
				return Value{}, err
			}
			for _, r := range refs[k+1:] {
				if v, err = r.get(f, &v); err != nil {
					return Value{}, err
				}
			}
			return v, nil
		}
		return refs[last].get(f, o)
	}
}

// fastPlusChain compiles a + b + c + … of three operands or more so
// that, while the operands are plain strs, they are joined once instead
// of building each partial sum (Python's ((a + b) + c) + …); from the
// first operand that is not, it adds as BinOp does. The operands are
// evaluated and added in Python's order, each + checks the size of its
// sum as catStr does, and an error is placed at its +.
func (c *compiler) fastPlusChain(n *BinExpr) (evalFn, error) {
	parts, pos := plusChain(n)
	if len(parts) < 3 || c.foldMatters(n) {
		return nil, nil
	}
	return c.plusChainOf(parts, pos, false)
}

// plusChainOf compiles the + chain of parts, pos the place of each +:
// fastPlusChain's, which arenaChain's is too, with arena set: the joined
// str goes to the render's string arena (unless the template's top-level
// assignments are being exported).
func (c *compiler) plusChainOf(parts []Expr, pos []Pos, arena bool) (evalFn, error) {
	ps, err := c.chainParts(parts)
	if err != nil {
		return nil, err
	}
	name := c.src.name
	return func(f *frame) (Value, error) {
		var buf [8]string
		strs := buf[:0]
		size := 0
		var acc Value
		mixed := false // acc holds the sum so far
		for k := range ps {
			p := &ps[k]
			var v Value
			if !mixed {
				// an operand read where it lies (chainParts'), as
				// streamedPrint's stream reads it: a plain str is taken
				// without a Value; anything else is evaluated below
				var w *Value
				s, str := "", false
				switch {
				case p.lit:
					s, str = p.k.s, true
				case p.field:
					if o := &f.slots[p.slot]; o.kind == KindDict {
						if i := o.dict().findStr(p.key); i >= 0 {
							w = &o.dict().vals[i]
						}
					}
				case p.local:
					w = &f.slots[p.slot]
				case p.ref != nil:
					if w, err = p.ref(f); err != nil {
						return Value{}, err
					}
				case p.trim != nil:
					if t, err := p.trim(f); err == nil && t.kind == KindStr && t.flags&flagSafe == 0 {
						s, str = pyStripSpace(t.s), true
					}
				}
				if w != nil && w.kind == KindStr && w.flags&flagSafe == 0 {
					s, str = w.s, true
				}
				if str {
					if sum := size + len(s); k > 0 && sum > 64 {
						if err := grow(f.c, sum); err != nil {
							return Value{}, place(err, name, pos[k-1])
						}
					}
					strs = append(strs, s)
					size += len(s)
					continue
				}
				if w != nil && (p.local || p.ref != nil) {
					v = *w // what p.eval would return
				} else if v, err = p.eval(f); err != nil {
					return Value{}, err
				}
				if v.kind == KindStr && v.flags&flagSafe == 0 {
					if sum := size + len(v.s); k > 0 && sum > 64 {
						if err := grow(f.c, sum); err != nil {
							return Value{}, place(err, name, pos[k-1])
						}
					}
					strs = append(strs, v.s)
					size += len(v.s)
					continue
				}
				mixed = true
				if k == 0 {
					acc = v
					continue
				}
				acc = StrV(joinStrs(strs, size))
			} else if v, err = p.eval(f); err != nil {
				return Value{}, err
			}
			if acc, err = BinOp(f.c, "+", acc, v); err != nil {
				return Value{}, place(err, name, pos[k-1])
			}
		}
		if mixed {
			return acc, nil
		}
		if arena && !f.tc.exporting {
			return StrV(f.c.arenaJoin(strs, size)), nil
		}
		return StrV(joinStrs(strs, size)), nil
	}, nil
}

// joinStrs joins strs, whose lengths add up to size, in one allocation.
// concatOf compiles a ~ chain of items, arena as plusChainOf's. Without
// autoescape it is Jinja2's str_join: every operand evaluated, then the
// str of each, joined in one allocation (the Ctx's size limit asked of
// the whole, which bounds every pairwise sum); under autoescape it is
// markup_join, which escapes all once one is Markup: concat's, pairwise.
func (c *compiler) concatOf(items []evalFn, pos Pos, arena bool) evalFn {
	name := c.src.name
	return func(f *frame) (Value, error) {
		if f.c.autoescape {
			acc, err := items[0](f)
			if err != nil {
				return Value{}, err
			}
			// "~" joins the str of both; the first alone is str()'d too.
			acc, err = BinOp(f.c, "~", StrV(""), acc)
			if err != nil {
				return Value{}, place(err, name, pos)
			}
			for _, it := range items[1:] {
				v, err := it(f)
				if err != nil {
					return Value{}, err
				}
				if acc, err = BinOp(f.c, "~", acc, v); err != nil {
					return Value{}, place(err, name, pos)
				}
			}
			return acc, nil
		}
		var vbuf [6]Value
		vals := vbuf[:0]
		for _, it := range items {
			v, err := it(f)
			if err != nil {
				return Value{}, err
			}
			vals = append(vals, v)
		}
		var sbuf [8]string
		strs := sbuf[:0]
		size := 0
		for k := range vals {
			s, err := ToStr(f.c, vals[k])
			if err != nil {
				return Value{}, place(err, name, pos)
			}
			strs = append(strs, s)
			size += len(s)
		}
		if size > 64 {
			if err := grow(f.c, size); err != nil {
				return Value{}, place(err, name, pos)
			}
		}
		for _, s := range strs {
			if len(s) == size {
				return StrV(s), nil // the others are empty
			}
		}
		if arena && !f.tc.exporting {
			return StrV(f.c.arenaJoin(strs, size)), nil
		}
		return StrV(joinStrs(strs, size)), nil
	}
}

func joinStrs(strs []string, size int) string {
	var b strings.Builder
	b.Grow(size)
	for _, s := range strs {
		b.WriteString(s)
	}
	return b.String()
}

// condHasFast reports whether compileCond has a fast form of x, one that
// is worth more than testing the truth of x's value.
func (c *compiler) condHasFast(x Expr) bool {
	if c.constMode > 0 || c.foldMatters(x) {
		return false
	}
	switch n := x.(type) {
	case *CompareExpr:
		return len(n.Ops) == 1
	case *TestExpr:
		return true // a bool: fastTestCond's, else compileTestCond's
	case *AttrExpr:
		return true
	case *Name:
		_, ok, _ := c.checkedSlotOf(n)
		return ok
	case *UnaryExpr:
		return n.Op == "not"
	case *BinExpr:
		return n.Op == "and" || n.Op == "or"
	case *FilterExpr:
		return c.listOfView(n) != nil
	}
	return false
}

// listOfView returns the call x.items(), x.values() or x.keys() when n is
// that call given to the builtin filter list with no arguments, else nil.
func (c *compiler) listOfView(n *FilterExpr) *CallExpr {
	if n.Name != "list" || !noArgs(n.Args) {
		return nil
	}
	if _, own := c.env.filters["list"]; own {
		return nil
	}
	call, ok := n.X.(*CallExpr)
	if !ok || !noArgs(call.Args) {
		return nil
	}
	if ax, ok := call.Fn.(*AttrExpr); ok && (ax.Name == "items" || ax.Name == "values" || ax.Name == "keys") {
		return call
	}
	return nil
}

// viewListCond compiles the truth of x.values()|list (items, keys): of a
// dict, whether it has items, without the view and the list; of anything
// else, the call, the filter and the truth of the list.
func (c *compiler) viewListCond(n *FilterExpr, call *CallExpr) (condFn, error) {
	ax := call.Fn.(*AttrExpr)
	args, err := c.compileArgs(call.Args)
	if err != nil {
		return nil, err
	}
	obj, on, err := c.compileMethodCall(call, ax, args)
	if err != nil {
		return nil, err
	}
	applied := *n
	applied.X = nil
	list, err := c.compileFilter(&applied, nil)
	if err != nil {
		return nil, err
	}
	view := ax.Name
	return func(f *frame) (bool, error) {
		o, err := obj(f)
		if err != nil {
			return false, err
		}
		if dictViewInPlace(f.c, o, view) {
			return len(o.dict().keys) > 0, nil
		}
		v, err := on(f, o)
		if err != nil {
			return false, err
		}
		if v, err = list(f, v); err != nil {
			return false, err
		}
		return v.Truth(), nil
	}, nil
}

// fastTest returns the name of a builtin test compileCond computes
// itself: defined, undefined, none, without arguments.
func fastTest(n *TestExpr) string {
	if len(n.Args.Args) > 0 || len(n.Args.Kwargs) > 0 || n.Args.DynArgs != nil || n.Args.DynKwargs != nil {
		return ""
	}
	switch n.Name {
	case "defined", "undefined", "none":
		return n.Name
	}
	return ""
}

// compileCond compiles x for its truth, as the test of an if.
func (c *compiler) compileCond(x Expr) (condFn, error) {
	if !c.condHasFast(x) {
		return c.truthOf(x)
	}
	switch n := x.(type) {
	case *BinExpr:
		return c.boolOpCond(n)
	case *UnaryExpr:
		a, err := c.compileCond(n.X)
		if err != nil {
			return nil, err
		}
		return func(f *frame) (bool, error) {
			ok, err := a(f)
			return !ok && err == nil, err
		}, nil
	case *Name:
		// the truth of the slot, read in place
		slot, _, undef := c.checkedSlotOf(n)
		if undef == nil {
			return func(f *frame) (bool, error) { return f.slots[slot].Truth(), nil }, nil
		}
		return func(f *frame) (bool, error) {
			o := &f.slots[slot]
			if o.kind == KindUndefined {
				return false, undef
			}
			return o.Truth(), nil
		}, nil
	case *AttrExpr:
		return c.attrCond(n)
	case *TestExpr:
		if fastTest(n) == "" {
			return c.compileTestCond(n)
		}
		return c.fastTestCond(n)
	case *CompareExpr:
		return c.compareCond(n)
	case *FilterExpr:
		return c.viewListCond(n, c.listOfView(n))
	}
	return c.truthOf(x)
}

// boolOpCond is compileCond of a and b, a or b: each operand's truth,
// b's only where a's does not decide.
func (c *compiler) boolOpCond(n *BinExpr) (condFn, error) {
	a, err := c.compileCond(n.Left)
	if err != nil {
		return nil, err
	}
	b, err := c.compileCond(n.Right)
	if err != nil {
		return nil, err
	}
	if n.Op == "and" {
		return func(f *frame) (bool, error) {
			if ok, err := a(f); !ok || err != nil {
				return false, err
			}
			return b(f)
		}, nil
	}
	return func(f *frame) (bool, error) {
		if ok, err := a(f); ok || err != nil {
			return ok, err
		}
		return b(f)
	}, nil
}

// attrCond is compileCond of x.name: the truth of x's attribute read in
// x's slot (loop.first and loop.last from the loop state), else of x's
// value.
func (c *compiler) attrCond(n *AttrExpr) (condFn, error) {
	a := c.newFastAttr(n)
	if slot, ok, undef := c.checkedSlotOf(n.X); ok {
		if undef == nil && (a.loop == loopFirst || a.loop == loopLast) {
			// loop.first, loop.last: the loop state's answer
			// without truth's call
			code := a.loop
			return func(f *frame) (bool, error) {
				o := &f.slots[slot]
				if l, ok := o.ref.(*loopObj); ok && o.kind == KindObject {
					if l.more == nil {
						return l.attrBool(code), nil
					}
					return l.filteredBool(code)
				}
				return a.truth(f, o)
			}, nil
		}
		if undef == nil {
			return func(f *frame) (bool, error) { return a.truth(f, &f.slots[slot]) }, nil
		}
		return func(f *frame) (bool, error) {
			o := &f.slots[slot]
			if o.kind == KindUndefined {
				return false, undef
			}
			return a.truth(f, o)
		}, nil
	}
	obj, err := c.compileExpr(n.X)
	if err != nil {
		return nil, err
	}
	if slot, ok := c.setLaterSlot(n.X); ok {
		// as fastAttr's: read in place unless it is an Undefined
		return func(f *frame) (bool, error) {
			if o := &f.slots[slot]; o.kind != KindUndefined {
				return a.truth(f, o)
			}
			o, err := obj(f)
			if err != nil {
				return false, err
			}
			return a.truth(f, &o)
		}, nil
	}
	return func(f *frame) (bool, error) {
		o, err := obj(f)
		if err != nil {
			return false, err
		}
		return a.truth(f, &o)
	}, nil
}

// truthOf compiles x's value and tests its truth; a value nativeRef
// reads is tested where it lies.
func (c *compiler) truthOf(x Expr) (condFn, error) {
	if r, err := c.nativeRef(x); r != nil || err != nil {
		return func(f *frame) (bool, error) {
			p, err := r(f)
			if err != nil {
				return false, err
			}
			return p.Truth(), nil
		}, err
	}
	ev, err := c.compileExpr(x)
	if err != nil {
		return nil, err
	}
	return func(f *frame) (bool, error) {
		v, err := ev(f)
		if err != nil {
			return false, err
		}
		return v.Truth(), nil
	}, nil
}

// fastTestCond compiles x is defined, x is undefined, x is none. A test
// an Env defines of its own name goes the general way.
func (c *compiler) fastTestCond(n *TestExpr) (condFn, error) {
	name := fastTest(n)
	if _, own := c.env.tests[name]; own || c.env.builtinTests[name] == nil {
		return c.compileTestCond(n)
	}
	var want Kind
	switch name {
	case "defined", "undefined":
		want = KindUndefined
	default:
		want = KindNone
	}
	is := name != "defined" // the test is whether the kind is want
	r, err := c.nativeRefL(n.X, name != "none")
	if err != nil {
		return nil, err
	}
	if slot, key, _, ok := c.fieldOf(n.X); ok && r != nil && fieldLacks(n.X) {
		// a field of a local dict (message['tool_calls'] is defined):
		// the item's kind where it lies, or its Undefined's when the dict
		// lacks it, without making the Undefined
		return func(f *frame) (bool, error) {
			if o := &f.slots[slot]; o.kind == KindDict {
				d := o.dict()
				if i := d.findStr(key); i >= 0 {
					return (d.vals[i].kind == want) == is, nil
				}
				return (want == KindUndefined) == is, nil
			}
			p, err := r(f)
			if err != nil {
				return false, err
			}
			return (p.kind == want) == is, nil
		}, nil
	}
	if r != nil {
		return func(f *frame) (bool, error) {
			p, err := r(f)
			if err != nil {
				return false, err
			}
			return (p.kind == want) == is, nil
		}, nil
	}
	x, err := c.expr(n.X, name != "none")
	if err != nil {
		return nil, err
	}
	return func(f *frame) (bool, error) {
		v, err := x(f)
		return err == nil && (v.kind == want) == is, err
	}, nil
}

// compareCond compiles a comparison of one operator; with a str constant
// on the right of == or !=, a str on the left is compared in place.
func (c *compiler) compareCond(n *CompareExpr) (condFn, error) {
	op := n.Ops[0]
	if op == "notin" {
		op = "not in"
	}
	if fn, err := c.boolCompare(n, op); fn != nil || err != nil {
		return fn, err
	}
	lref, err := c.nativeRef(n.Left)
	if err != nil {
		return nil, err
	}
	var left evalFn
	if lref == nil {
		if left, err = c.compileExpr(n.Left); err != nil {
			return nil, err
		}
	}
	if fn := c.intCompare(n, op, lref, left); fn != nil {
		return fn, nil
	}
	if k, ok := n.Rights[0].(*Const); ok && k.Value.kind == KindStr && (op == "==" || op == "!=") {
		return c.strConstCond(n, k, op == "==", lref, left), nil
	}
	name, pos := c.src.name, n.P
	rref, err := c.nativeRef(n.Rights[0])
	if err != nil {
		return nil, err
	}
	if lref != nil && rref != nil {
		// both read where they lie: neither evaluation changes what the
		// other reads
		return func(f *frame) (bool, error) {
			a, err := lref(f)
			if err != nil {
				return false, err
			}
			b, err := rref(f)
			if err != nil {
				return false, err
			}
			if eq, fast := strEqual(op, *a, *b); fast {
				return eq, nil
			}
			ok, err := Compare(f.c, op, *a, *b)
			if err != nil {
				return false, place(err, name, pos)
			}
			return ok, nil
		}, nil
	}
	if left == nil {
		left = evalRef(lref)
	}
	var right evalFn
	if rref != nil {
		right = evalRef(rref)
	} else if right, err = c.compileExpr(n.Rights[0]); err != nil {
		return nil, err
	}
	return func(f *frame) (bool, error) {
		a, err := left(f)
		if err != nil {
			return false, err
		}
		b, err := right(f)
		if err != nil {
			return false, err
		}
		if eq, fast := strEqual(op, a, b); fast {
			return eq, nil
		}
		ok, err := Compare(f.c, op, a, b)
		if err != nil {
			return false, place(err, name, pos)
		}
		return ok, nil
	}, nil
}

// strConstCond is compareCond of x == 'str' and x != 'str' (eq tells
// which): x compared where it lies (lref, a local dict's str item
// without lref's call), else its value (left).
func (c *compiler) strConstCond(n *CompareExpr, k *Const, eq bool, lref refFn, left evalFn) condFn {
	kv, ks := k.Value, k.Value.s
	if lref != nil {
		// the left operand is compared where it lies
		cmp := func(f *frame) (bool, error) {
			v, err := lref(f)
			if err != nil {
				return false, err
			}
			if v.kind == KindStr {
				return eqStr(v.s, ks) == eq, nil
			}
			return Equal(*v, kv) == eq, nil
		}
		if slot, key, _, ok := c.fieldOf(n.Left); ok {
			// message['role'] == 'user': a str item of a local
			// dict is compared without lref's call; content['type']
			// of a str content, when no str has that attribute, is
			// an Undefined, which equals no str
			lacks := strLacks(key)
			return func(f *frame) (bool, error) {
				if o := &f.slots[slot]; o.kind == KindDict {
					d := o.dict()
					if i := d.findStr(key); i >= 0 {
						if w := &d.vals[i]; w.kind == KindStr {
							return eqStr(w.s, ks) == eq, nil
						}
					}
				} else if o.kind == KindStr && lacks {
					return !eq, nil
				}
				return cmp(f)
			}
		}
		return cmp
	}
	return func(f *frame) (bool, error) {
		v, err := left(f)
		if err != nil {
			return false, err
		}
		if v.kind == KindStr {
			return (v.s == ks) == eq, nil
		}
		return Equal(v, kv) == eq, nil
	}
}

// streamPart is an operand of a printed + or ~ chain: a constant, or a
// function computing it.
type streamPart struct {
	fn evalFn // nil for a constant
	k  Value
}

func (p *streamPart) eval(f *frame) (Value, error) {
	if p.fn == nil {
		return p.k, nil
	}
	return p.fn(f)
}

// streamParts compiles the operands of a printed chain; a constant is
// kept as its value.
func (c *compiler) streamParts(xs []Expr) ([]streamPart, error) {
	out := make([]streamPart, len(xs))
	for i, x := range xs {
		if k, ok := x.(*Const); ok && c.constMode == 0 {
			out[i].k = k.Value
			continue
		}
		fn, err := c.compileExpr(x)
		if err != nil {
			return nil, err
		}
		out[i].fn = fn
	}
	return out, nil
}

// holdsDict reports whether the literal value v is or holds a dict.
func holdsDict(v Value) bool {
	if v.Kind() == KindDict {
		return true
	}
	for _, it := range v.Items() {
		if holdsDict(it) {
			return true
		}
	}
	return false
}

// freshLiteral is the literal value v built anew, as an evaluation of its
// literal builds it: new dicts, and new lists and tuples around them.
func freshLiteral(v Value) Value {
	switch v.Kind() {
	case KindDict:
		d := v.DictOf()
		n := NewDict(d.Len())
		for i, k := range d.Keys() {
			n.Set(k, freshLiteral(d.Values()[i]))
		}
		return DictV(n)
	case KindList, KindTuple:
		if !holdsDict(v) {
			return v // shared, as a literal without a dict always is
		}
		items := make([]Value, len(v.Items()))
		for i, it := range v.Items() {
			items[i] = freshLiteral(it)
		}
		if v.Kind() == KindList {
			return ListV(items)
		}
		return TupleV(items)
	}
	return v
}

// dictsFrozen reports whether nothing in body can change a dict built from
// a literal, so that the sandbox may build such a dict once: no set block
// on an attribute ({% set d.k %}…{% endset %} writes into a dict), no read
// of the name dict (dict.update(d, …) through the class), and no include,
// import, extends or block, through which the dict reaches a template
// compiled apart. A template compiled with dicts frozen still builds its
// dict literals anew in a render whose root template is not so
// (Ctx.freshDicts): a module it is imported as, or included as, is
// compiled apart from the template that can change the dict.
func dictsFrozen(body []Stmt) bool {
	return !anyNode(func(n Node) bool {
		switch n := n.(type) {
		case *SetBlock:
			_, ok := n.Target.(*NSRef)
			return ok
		case *Name:
			return n.Name == "dict"
		case *Include, *Import, *FromImport, *Extends, *Block:
			return true
		}
		return false
	}, nil, body)
}
