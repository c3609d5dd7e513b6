package jinja2

// select, reject, selectattr and rejectattr (Jinja2's select_or_reject)
// at a call site whose arguments are constants: the attribute's path and
// the test are looked up once, at compile time, and a for loop over such
// a filter ({% for c in m.content|selectattr('type', 'equalto', 'text') %})
// tests each item when it reaches it, as Python's generator gives it,
// without making the generator.

// selectSpec is a select_or_reject call site's constant arguments.
type selectSpec struct {
	reject  bool
	parts   []Value // the attribute's lookups (selectattr, rejectattr)
	lacks   bool    // parts is one str key no str has (strLacks)
	hasTest bool    // a test is named; otherwise an item's truth decides
	name    string  // the test's name
	test    Test    // nil when the Env has no test of that name
	rest    []Value // the test's arguments
	kw      []Kwarg
}

// newSelectSpec returns the spec of the built-in filter called name with
// the constant arguments args and kw, or nil when name is another filter
// (or the Env's own) or the call takes the generic path: selectattr
// without an attribute, a test named by something other than a str.
func (c *compiler) newSelectSpec(name string, args []Value, kw []Kwarg) *selectSpec {
	var reject, lookupAttr bool
	switch name {
	case "select":
	case "reject":
		reject = true
	case "selectattr":
		lookupAttr = true
	case "rejectattr":
		reject, lookupAttr = true, true
	default:
		return nil
	}
	if _, own := c.env.filters[name]; own || hasKw(kw, "context") || hasKw(kw, "value") {
		// (a keyword naming the function's context or value is the
		// general path's TypeError)
		return nil
	}
	s := &selectSpec{reject: reject}
	off := 0
	if lookupAttr {
		if len(args) == 0 {
			return nil
		}
		parts, err := attrPartsErr(args[0])
		if err != nil {
			return nil // the general path raises it
		}
		s.parts = parts
		s.lacks = len(parts) == 1 && parts[0].kind == KindStr && !parts[0].IsSafe() && strLacks(parts[0].s)
		off = 1
	}
	if len(args) > off {
		if args[off].kind != KindStr {
			return nil
		}
		s.hasTest, s.name, s.rest, s.kw = true, args[off].s, args[off+1:], kw
		s.test = c.env.test(s.name)
	}
	return s
}

// constSelect returns the spec of a select_or_reject filter expression
// whose arguments are constants, nil for any other.
func (c *compiler) constSelect(n *FilterExpr, args *compiledArgs) *selectSpec {
	if c.constMode > 0 || !args.consts {
		return nil
	}
	return c.newSelectSpec(n.Name, args.constArgs, args.constKw)
}

// keep is selectFunc's answer for an item: whether the filter gives it.
func (s *selectSpec) keep(c *Ctx, it Value) (bool, error) {
	x := it
	if s.lacks && it.kind == KindStr {
		x = undefAttr(it, s.parts[0].s)
	} else {
		for _, p := range s.parts {
			var err error
			if x, err = GetItem(c, x, p); err != nil {
				return false, err
			}
		}
	}
	if !s.hasTest {
		return x.Truth() != s.reject, nil
	}
	if s.test == nil {
		return false, &Error{Kind: "TemplateRuntimeError", Msg: "No test named " + pyQuote(s.name) + "."} // Ctx.Test's
	}
	ok, err := s.test(c, x, s.rest, s.kw)
	return ok != s.reject, err
}

// filter is the filter's value for v: select_or_reject's generator,
// which takes v's items as it is read.
func (s *selectSpec) filter(c *Ctx, v Value) Value {
	each := func(it Value) (Value, bool, error) {
		ok, err := s.keep(c, it)
		return it, ok, err
	}
	start := func() (func(Value) (Value, bool, error), error) { return each, nil }
	if src, ok := stepper(v); ok {
		return stepGen("select_or_reject", src, start)
	}
	return eachGen("select_or_reject", c, v, start)
}

// selectSite is a select_or_reject filter compiled with constant
// arguments: its spec and its operand.
type selectSite struct {
	sel     *selectSpec
	operand func(f *frame, in Value) (Value, error)
}

// selectList compiles x|selectattr(…)|list (any select_or_reject with
// constant arguments, then the builtin list without arguments) as one
// pass: over a list or tuple, the items the spec keeps go into the new
// list as list() would take them from the generator, which is not made;
// any other operand takes the generator and list as they are. Nil for
// any other filter expression.
func (c *compiler) selectList(n *FilterExpr, fl Filter) func(f *frame, in Value) (Value, error) {
	if n.Name != "list" || c.constMode > 0 || fl == nil || !noArgs(n.Args) {
		return nil
	}
	if _, own := c.env.filters[n.Name]; own {
		return nil
	}
	x, ok := n.X.(*FilterExpr)
	if !ok {
		return nil
	}
	site := c.selectSites[x]
	if site == nil {
		return nil
	}
	name, pos := c.src.name, n.P
	return func(f *frame, in Value) (Value, error) {
		v, err := site.operand(f, in)
		if err != nil {
			return Value{}, err
		}
		var r Value
		if v.kind == KindList || v.kind == KindTuple {
			r, err = site.sel.list(f.c, v)
		} else {
			r, err = fl(f.c, site.sel.filter(f.c, v), nil, nil)
		}
		if err != nil {
			return Value{}, place(err, name, pos)
		}
		return r, nil
	}
}

// list is list(select_or_reject(v)) for a list or tuple v: the generator's
// steps (eachStep's) without the generator, into one list.
func (s *selectSpec) list(c *Ctx, v Value) (Value, error) {
	if !v.Truth() {
		return ListV(nil), nil
	}
	items, err := Iterate(c, v)
	if err != nil {
		return Value{}, err
	}
	var out []Value
	for i := 0; i < len(items); i++ {
		it := items[i]
		keep, err := s.keep(c, it)
		if err != nil {
			return Value{}, err
		}
		if keep {
			if out == nil {
				out = make([]Value, 0, min(len(items)-i, 64))
			}
			out = append(out, it)
		}
	}
	return ListV(out), nil
}
