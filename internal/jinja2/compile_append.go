package jinja2

import "unsafe"

// Filters with an append form (WithAppendFilter): a chat environment's
// tojson printed at once ({{ arguments|tojson }}, {{ '"' + key + '": ' +
// value|tojson }}) writes its JSON into the output instead of making the
// str the filter returns, which the print would copy and the collector
// free at every render.

// appendFilterSite is a compiled x|name(args) whose filter has an append
// form.
type appendFilterSite struct {
	x    evalFn
	args *compiledArgs
	fl   Filter
	app  AppendFilter
	name string // the template's
	pos  Pos    // the filter's
}

// appendFilterOf compiles x, when it is v|name(args) of a filter of the
// Env with an append form and v is no filter, into a site that appends
// the filter's str; nil for any other expression. The operand and the
// arguments are compiled as compileFilter compiles them.
func (c *compiler) appendFilterOf(x Expr) (*appendFilterSite, error) {
	fe, ok := x.(*FilterExpr)
	if !ok || fe.X == nil || c.constMode > 0 || repeatedKwarg(fe.Args.Kwargs) >= 0 {
		return nil, nil
	}
	app := c.env.appendFilters[fe.Name]
	fl := c.env.filters[fe.Name]
	if app == nil || fl == nil {
		return nil, nil
	}
	if _, ok := fe.X.(*FilterExpr); ok {
		return nil, nil
	}
	ev, err := c.expr(fe.X, isLenientFilter(fe.Name))
	if err != nil {
		return nil, err
	}
	args, err := c.compileArgs(fe.Args)
	if err != nil {
		return nil, err
	}
	return &appendFilterSite{x: ev, args: args, fl: fl, app: app, name: c.src.name, pos: fe.P}, nil
}

// appendTo evaluates the operand and the arguments and, outside
// autoescape and with no finalize hook, appends the filter's str to the
// output: ok is true then. Otherwise it calls the filter, whose value it
// returns with ok false.
func (s *appendFilterSite) appendTo(f *frame) (ok bool, v Value, err error) {
	if v, err = s.x(f); err != nil {
		return false, Value{}, err
	}
	as, kw, err := s.args.eval(f, nil)
	if err != nil {
		return false, Value{}, place(err, s.name, s.pos)
	}
	c := f.c
	if !c.autoescape && c.env.ext.finalize == nil {
		// the operand may have called a macro: c.out is read after it
		o, ok, err := s.app(c, c.out, v, as, kw)
		if err != nil {
			return false, Value{}, place(err, s.name, s.pos)
		}
		if ok {
			c.setOut(o)
			return true, Value{}, nil
		}
	}
	if v, err = s.fl(c, v, as, kw); err != nil {
		return false, Value{}, place(err, s.name, s.pos)
	}
	return false, v, nil
}

// compileAppendPrint compiles {{ v|name(args) }} of a filter with an
// append form (appendFilterOf's). Nil for any other print.
func (c *compiler) compileAppendPrint(n *Print) (execFn, error) {
	s, err := c.appendFilterOf(n.X)
	if s == nil || err != nil {
		return nil, err
	}
	name, pos := c.src.name, n.P
	return func(f *frame) error {
		ok, v, err := s.appendTo(f)
		if err != nil {
			return err
		}
		if ok {
			return place(f.c.checkOutput(), name, pos)
		}
		f.c.finalize(&v)
		return place(f.c.writeValue(v), name, pos)
	}, nil
}

// arenaValue is the filter's value, its str appended to the render's
// string arena outside autoescape and when the template's top-level
// assignments are not being exported (arenaChain's, for a name of
// arenaNames).
func (s *appendFilterSite) arenaValue(f *frame) (Value, error) {
	v, err := s.x(f)
	if err != nil {
		return Value{}, err
	}
	as, kw, err := s.args.eval(f, nil)
	if err != nil {
		return Value{}, place(err, s.name, s.pos)
	}
	c := f.c
	if !c.autoescape && c.env.ext.finalize == nil && !f.tc.exporting {
		start := len(c.strs)
		o, ok, err := s.app(c, c.strs, v, as, kw)
		if err != nil {
			return Value{}, place(err, s.name, s.pos)
		}
		if ok {
			// an array append grew keeps the strs made before it
			c.strs = o
			if len(o) == start {
				return StrV(""), nil
			}
			return StrV(unsafe.String(&o[start], len(o)-start)), nil
		}
	}
	if v, err = s.fl(c, v, as, kw); err != nil {
		return Value{}, place(err, s.name, s.pos)
	}
	return v, nil
}
