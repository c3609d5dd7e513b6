package jinja2

import "strings"

// splitOrFastItem is splitPiece's compilation of n, or fastItem's.
func (c *compiler) splitOrFastItem(n *ItemExpr) (evalFn, error) {
	if fn, ok := c.splitPiece(n); ok {
		return fn, nil
	}
	return c.fastItem(n)
}

// splitPiece compiles x.split(sep)[0] and x.split(sep)[-1] whose sep is a
// str constant other than "": of a str (not Markup), the first or the last
// piece strings.Split would give, without the list of them and the pieces
// between (reasoning templates' content.split('</think>')[-1]); of
// anything else, the call and the item as compiled. Not ok when n is not
// of that form.
func (c *compiler) splitPiece(n *ItemExpr) (evalFn, bool) {
	call, isCall := n.X.(*CallExpr)
	if !isCall || c.constMode > 0 {
		return nil, false
	}
	last := false
	switch k := n.Key.(type) {
	case *Const: // [0]
		if k.Value.kind != KindInt || k.Value.ref != nil || k.Value.n != 0 {
			return nil, false
		}
	case *UnaryExpr: // [-1]
		one, ok := k.X.(*Const)
		if !ok || k.Op != "-" || one.Value.kind != KindInt || one.Value.ref != nil || one.Value.n != 1 {
			return nil, false
		}
		last = true
	default:
		return nil, false
	}
	ax, ok := call.Fn.(*AttrExpr)
	if !ok || ax.Name != "split" || len(call.Args.Args) != 1 || len(call.Args.Kwargs) != 0 || call.Args.DynArgs != nil || call.Args.DynKwargs != nil {
		return nil, false
	}
	sc, ok := call.Args.Args[0].(*Const)
	if !ok || sc.Value.kind != KindStr || sc.Value.flags&flagSafe != 0 || sc.Value.s == "" {
		return nil, false
	}
	args, err := c.compileArgs(call.Args)
	if err != nil {
		return nil, false
	}
	obj, callOn, err := c.compileMethodCall(call, ax, args)
	if err != nil {
		return nil, false
	}
	sep, key := sc.Value.s, IntV(0)
	if last {
		key = IntV(-1)
	}
	name, pos := c.src.name, n.P
	return func(f *frame) (Value, error) {
		o, err := obj(f)
		if err != nil {
			return Value{}, err
		}
		if o.kind == KindStr && o.flags&flagSafe == 0 {
			// str.split, which no sandbox refuses
			s := o.s
			if !last {
				if i := strings.Index(s, sep); i >= 0 {
					s = s[:i]
				}
			} else {
				// the pieces from the left, as Split cuts them: a
				// separator overlapping itself ("aa" in "aaa") is
				// not found where LastIndex finds it
				for i := strings.Index(s, sep); i >= 0; i = strings.Index(s, sep) {
					s = s[i+len(sep):]
				}
			}
			return Value{kind: KindStr, s: s, flags: o.flags & flagASCII}, nil
		}
		l, err := callOn(f, o)
		if err != nil {
			return Value{}, err
		}
		v, err := GetItem(f.c, l, key)
		if err != nil {
			return Value{}, place(err, name, pos)
		}
		return v, nil
	}, true
}
