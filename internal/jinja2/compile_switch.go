package jinja2

import "slices"

// itemCond is a condition on a loop's item that an itemSwitch reads
// where the list holds it: an "and" of tests of the item's str keys,
// each of which reads the dict and nothing else ('k' in x, 'k' not in
// x, x['k'] is none, is defined, is undefined, the truth of x['k'], and
// not of any of them).
type itemCond []itemAtom

type itemAtom struct {
	key   string
	op    uint8 // atomIn, atomNone, atomDefined, atomTruth
	neg   bool
	lacks bool // a missing key reads as undefAttr's Undefined (fieldLacks)
}

const (
	atomIn = iota
	atomNone
	atomDefined
	atomTruth
)

// eval reports whether ic holds for d, and whether it could tell: a
// missing key read for its truth, or the truth of a value other than a
// str, none, a bool or an int, it cannot.
func (ic itemCond) eval(d *Dict) (holds, known bool) {
	for i := range ic {
		a := &ic[i]
		j := d.findStr(a.key)
		var ok bool
		switch {
		case a.op == atomIn:
			ok = j >= 0
		case j < 0:
			if !a.lacks || a.op == atomTruth {
				return false, false
			}
			// an Undefined: not none, not defined
		case a.op == atomNone:
			ok = d.vals[j].kind == KindNone
		case a.op == atomDefined:
			ok = d.vals[j].kind != KindUndefined
		default:
			switch v := &d.vals[j]; v.kind {
			case KindStr, KindNone, KindBool, KindInt:
				ok = v.Truth()
			default:
				return false, false
			}
		}
		if ok == a.neg {
			return false, true
		}
	}
	return true, true
}

// itemCondOf compiles x as an itemCond on the local in slot, when it is
// one.
func (c *compiler) itemCondOf(x Expr, slot int) (itemCond, bool) {
	if x == nil || c.constMode > 0 {
		return nil, false
	}
	if b, ok := x.(*BinExpr); ok && b.Op == "and" {
		l, ok := c.itemCondOf(b.Left, slot)
		if !ok {
			return nil, false
		}
		r, ok := c.itemCondOf(b.Right, slot)
		if !ok {
			return nil, false
		}
		return append(l, r...), true
	}
	neg := false
	if u, ok := x.(*UnaryExpr); ok && u.Op == "not" {
		x, neg = u.X, true
		if _, ok := x.(*BinExpr); ok {
			return nil, false
		}
	}
	switch n := x.(type) {
	case *CompareExpr:
		if len(n.Ops) != 1 || n.Ops[0] != "in" && n.Ops[0] != "not in" {
			return nil, false
		}
		k, ok := n.Left.(*Const)
		if !ok || k.Value.kind != KindStr {
			return nil, false
		}
		if s, ok := c.slotOf(n.Rights[0]); !ok || s != slot {
			return nil, false
		}
		return itemCond{{key: k.Value.s, op: atomIn, neg: neg != (n.Ops[0] == "not in")}}, true
	case *TestExpr:
		name := fastTest(n)
		if _, own := c.env.tests[name]; own || name == "" || c.env.builtinTests[name] == nil {
			return nil, false
		}
		s, key, _, ok := c.fieldOf(n.X)
		if !ok || s != slot {
			return nil, false
		}
		a := itemAtom{key: key, op: atomNone, neg: neg, lacks: fieldLacks(n.X)}
		if name != "none" {
			a.op, a.neg = atomDefined, neg != (name == "undefined")
		}
		return itemCond{a}, true
	}
	s, key, _, ok := c.fieldOf(x)
	if !ok || s != slot {
		return nil, false
	}
	return itemCond{{key: key, op: atomTruth, neg: neg, lacks: fieldLacks(x)}}, true
}

// itemStep is a statement of a branch an itemSwitch writes in place:
// text or a str constant's print (lit), the item's field key as a str
// (field), a print of runs (print), or an if on an itemCond (its steps
// then, else els). A print's error at the output limit is placed at
// name and at, text's is not.
type itemStep struct {
	lit    string
	key    string
	field  bool
	print  *streamedPrint
	isIf   bool
	cond   itemCond
	then   []itemStep
	els    []itemStep
	placed bool
	name   string
	at     Pos
}

// itemStepsOf returns body as itemSteps on the local in slot, when each
// of its statements is one: where its text and prints are written as
// they are (no finalize hook, no guard of an extended template's
// output).
func (c *compiler) itemStepsOf(body []Stmt, slot int) ([]itemStep, bool) {
	if c.env.ext.finalize != nil || c.outputCheck() || c.constMode > 0 {
		return nil, false
	}
	steps := make([]itemStep, 0, len(body))
	for _, st := range body {
		switch n := st.(type) {
		case *Text:
			steps = append(steps, itemStep{lit: n.Text})
		case *Print:
			if p := c.runPrints[n]; p != nil {
				steps = append(steps, itemStep{print: p})
				break
			}
			if k, ok := n.X.(*Const); ok && k.Value.kind == KindStr {
				steps = append(steps, itemStep{lit: k.Value.s, placed: true, name: c.src.name, at: n.P})
				break
			}
			s, key, _, ok := c.fieldOf(n.X)
			if !ok || s != slot {
				return nil, false
			}
			steps = append(steps, itemStep{key: key, field: true, placed: true, name: c.src.name, at: n.P})
		case *If:
			if len(n.Tests) != 1 {
				return nil, false
			}
			cond, ok := c.itemCondOf(n.Tests[0], slot)
			if !ok {
				return nil, false
			}
			then, ok := c.itemStepsOf(n.Bodies[0], slot)
			if !ok {
				return nil, false
			}
			els, ok := c.itemStepsOf(n.Else, slot)
			if !ok {
				return nil, false
			}
			steps = append(steps, itemStep{isIf: true, cond: cond, then: then, els: els})
		default:
			return nil, false
		}
	}
	return steps, true
}

// stepsForItem returns steps with their prints reading slot, a loop's
// target, from the item writeSteps is given.
func stepsForItem(steps *[]itemStep, slot int) *[]itemStep {
	if steps == nil {
		return nil
	}
	cp := slices.Clone(*steps)
	for i := range cp {
		if p := cp[i].print; p != nil {
			cp[i].print = p.forItem(slot)
		}
		cp[i].then = *stepsForItem(&cp[i].then, slot)
		cp[i].els = *stepsForItem(&cp[i].els, slot)
	}
	return &cp
}

// writeSteps writes steps for item, a dict, where the list holds it,
// and says whether it could: at a value they do not read it returns
// false, and its caller takes what they wrote back and runs the
// branch's body with the item stored.
func writeSteps(f *frame, steps []itemStep, item *Value) (bool, error) {
	c := f.c
	d := item.dict()
	for i := range steps {
		s := &steps[i]
		switch {
		case s.print != nil:
			if err := s.print.streamRunsItem(f, item); err != nil {
				return true, err
			}
		case s.isIf:
			ok, known := s.cond.eval(d)
			if !known {
				return false, nil
			}
			next := s.then
			if !ok {
				next = s.els
			}
			if done, err := writeSteps(f, next, item); !done || err != nil {
				return done, err
			}
		case s.field:
			j := d.findStr(s.key)
			if j < 0 || d.vals[j].kind != KindStr {
				return false, nil
			}
			c.out = append(c.out, d.vals[j].s...)
			if err := c.checkOutput(); err != nil {
				return true, place(err, s.name, s.at)
			}
		default:
			if c.own != nil {
				c.own.add(len(c.out)-c.outBase, len(s.lit))
			}
			c.out = append(c.out, s.lit...)
			if err := c.checkOutput(); err != nil {
				if s.placed {
					err = place(err, s.name, s.at)
				}
				return true, err
			}
		}
	}
	return true, nil
}

// runInPlace runs b, a branch whose rest is read from item in place
// (itemRest.test) or which has steps and no rest; where the test cannot
// tell, as runRestStored does.
func (is *itemSwitch) runInPlace(f *frame, b *itemBranch, item *Value) error {
	ok, known := true, true
	if b.rest.test != nil {
		ok, known = b.rest.test.eval(item.dict())
	}
	switch {
	case !known:
		return b.runRestStored(f, is.slot, item)
	case !ok && b.rest.failRun != nil:
		return b.rest.failRun(f, item)
	case !ok:
		if b.rest.next == nil {
			return nil
		}
		f.slots[is.slot].put(item)
		return b.rest.next(f)
	case b.rest.print != nil:
		return b.rest.print.streamRunsItem(f, item)
	case b.rest.empty:
		return nil
	case b.rest.steps != nil:
		start := len(f.c.out)
		if done, err := writeSteps(f, *b.rest.steps, item); done || err != nil {
			return err
		}
		f.c.cutOut(start)
	}
	f.slots[is.slot].put(item)
	if b.body == nil {
		return is.run(f)
	}
	return b.body(f)
}

// failsTo gives r, a rest of is (the copy forItem makes) read in place,
// what runs the branch its test's failure goes to (itemRest.fail) as
// runItem would run it for the item.
func (is *itemSwitch) failsTo(r *itemRest) {
	if r == nil || r.sw == nil || r.test == nil || r.fail == -2 {
		return
	}
	b := &is.none
	if r.fail >= 0 {
		b = &is.branches[r.fail]
	}
	slot := is.slot
	switch {
	case b.print != nil:
		r.failRun = b.print.streamRunsItem
	case b.empty:
		r.failRun = func(*frame, *Value) error { return nil }
	case b.rest != nil:
		r.failRun = func(f *frame, item *Value) error { return b.runRest(f, slot, item) }
	default:
		run := b.body
		if run == nil {
			run = is.run
		}
		r.failRun = func(f *frame, item *Value) error {
			f.slots[slot].put(item)
			return run(f)
		}
	}
}

// restsInPlace makes the rests of is that test its local alone read
// in place (itemRest.test).
func (c *compiler) restsInPlace(is *itemSwitch, slot int) {
	// a rest on the item alone is read in place; where it does not
	// hold, the chain goes on from the next test, which only a later
	// equal constant can pass (the field is read unchanged), else to
	// what follows the constants; a != test's goes to its else
	noneOne := is.none.print != nil || is.none.empty || is.none.body != nil || is.none.rest != nil
	for j := range is.branches {
		b := &is.branches[j]
		if b.rest == nil {
			continue
		}
		// (a copy: an inner chain's rest is this switch's too)
		r := *b.rest
		r.test, _ = c.itemCondOf(r.x, slot)
		r.fail = -2
		if noneOne {
			r.fail = -1
		}
		for k := j + 1; k < len(is.consts); k++ {
			if is.consts[k] == is.consts[j] {
				r.fail = k
				break
			}
		}
		b.rest = &r
	}
	if is.none.rest != nil {
		r := *is.none.rest
		r.test, _ = c.itemCondOf(r.x, slot)
		r.fail = len(is.consts) - 1
		is.none.rest = &r
	}
}
