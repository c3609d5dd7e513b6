package jinja2

// The __dict__ of a cycler or a joiner: Python's instance dict, live both
// ways (c.__dict__.update({'pos': 1}) moves the cycler, c.next() changes
// the dict read before). The first read of __dict__ moves the object's
// state into a Dict, which its methods then read and write as Jinja2's
// Python code does (self.items[self.pos], self.used = True); a state that
// code would read in a way the package does not model (pos no int, items
// no non-empty list or tuple) is refused by name.

func (cy *cycler) dictAttr(name string) (Value, bool) {
	if cy.dict == nil {
		cy.dict = NewDict(2)
		cy.dict.SetStr("items", TupleV(cy.items))
		cy.dict.SetStr("pos", IntV(int64(cy.pos)))
	}
	if name == "__dict__" {
		return DictV(cy.dict), true
	}
	if r, ok := cy.dict.GetStr(name); ok {
		return r, true // an instance attribute shadows a method
	}
	switch name {
	case "next", "__next__":
		return FuncV(&Func{Name: "Cycler.next", bound: cy, Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			if err := selfOnly("Cycler.next", args, kw); err != nil {
				return Value{}, err
			}
			return cy.dictNext()
		}}), true
	case "reset":
		return FuncV(&Func{Name: "Cycler.reset", bound: cy, Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			if err := selfOnly("Cycler.reset", args, kw); err != nil {
				return Value{}, err
			}
			cy.dict.SetStr("pos", IntV(0))
			return NoneV(), nil
		}}), true
	}
	if name == "current" {
		// a property: the class's, whatever the dict holds (pyGetattr
		// reads it with its error)
		r, err := cy.dictCurrent()
		return r, err == nil
	}
	return Value{}, false
}

// dictState is self.items and self.pos as an index into them.
func (cy *cycler) dictState() ([]Value, int, error) {
	items, ok1 := cy.dict.GetStr("items")
	pos, ok2 := cy.dict.GetStr("pos")
	if ok1 && ok2 && (items.kind == KindList || items.kind == KindTuple) && (pos.kind == KindInt || pos.kind == KindBool) && pos.ref == nil {
		l := items.list().Items
		if n := int64(len(l)); n > 0 && pos.n >= -n && pos.n < n {
			i := pos.n
			if i < 0 {
				i += n
			}
			return l, int(i), nil
		}
	}
	return nil, 0, &Error{Kind: "Unsupported", Msg: "a cycler whose __dict__ holds other items or pos than a list or tuple and an index into it is not supported"}
}

// dictCurrent is Cycler.current: self.items[self.pos].
func (cy *cycler) dictCurrent() (Value, error) {
	items, i, err := cy.dictState()
	if err != nil {
		return Value{}, err
	}
	return items[i], nil
}

// dictNext is Cycler.next: rv = self.current; self.pos = (self.pos + 1) %
// len(self.items).
func (cy *cycler) dictNext() (Value, error) {
	items, i, err := cy.dictState()
	if err != nil {
		return Value{}, err
	}
	pos, _ := cy.dict.GetStr("pos")
	n := int64(len(items))
	cy.dict.SetStr("pos", IntV(((pos.n+1)%n+n)%n))
	return items[i], nil
}

func (j *joiner) dictAttr(name string) (Value, bool) {
	if j.dict == nil {
		j.dict = NewDict(2)
		j.dict.SetStr("sep", j.sep)
		j.dict.SetStr("used", BoolV(j.used))
	}
	if name == "__dict__" {
		return DictV(j.dict), true
	}
	return j.dict.GetStr(name)
}

// dictCall is Joiner.__call__: if not self.used: self.used = True; return
// "" … return self.sep.
func (j *joiner) dictCall() (Value, error) {
	used, ok1 := j.dict.GetStr("used")
	if !ok1 {
		return Value{}, &Error{Kind: "Unsupported", Msg: "a joiner whose __dict__ lost used is not supported"}
	}
	if !used.Truth() {
		j.dict.SetStr("used", BoolV(true))
		return StrV(""), nil
	}
	sep, ok := j.dict.GetStr("sep")
	if !ok {
		return Value{}, &Error{Kind: "Unsupported", Msg: "a joiner whose __dict__ lost sep is not supported"}
	}
	return sep, nil
}
