package jinja2

// Fast paths for the comparisons chat templates make at every message
// besides a field against a str (compareCond): two conditions against
// each other, as the check that roles alternate does,
//
//	(message['role'] == 'user') != (loop.index0 % 2 == 0)
//
// an int against an int constant (loop.index0 % 2 == 0, loop.length > 1),
// and the arithmetic they compare: x + k, x - k and x % k for an int
// constant k. Each gives what the general path gives, errors included.

// boolValued reports whether x always gives a bool: a comparison, a test
// or a not. (and and or give one of their operands.)
func boolValued(x Expr) bool {
	switch n := x.(type) {
	case *CompareExpr, *TestExpr:
		return true
	case *UnaryExpr:
		return n.Op == "not"
	}
	return false
}

// boolCompare compiles a == b and a != b of two conditions as two
// condFns whose bools are compared, without making either a Value; nil
// for any other comparison. Python evaluates a, then b, and compares two
// bools, which never fails.
func (c *compiler) boolCompare(n *CompareExpr, op string) (condFn, error) {
	if op != "==" && op != "!=" || !boolValued(n.Left) || !boolValued(n.Rights[0]) {
		return nil, nil
	}
	a, err := c.compileCond(n.Left)
	if err != nil {
		return nil, err
	}
	b, err := c.compileCond(n.Rights[0])
	if err != nil {
		return nil, err
	}
	eq := op == "=="
	return func(f *frame) (bool, error) {
		x, err := a(f)
		if err != nil {
			return false, err
		}
		y, err := b(f)
		if err != nil {
			return false, err
		}
		return (x == y) == eq, nil
	}, nil
}

// intCompare compiles x op k for an int constant k that fits an int64:
// an int x that fits one is compared in place, anything else goes to
// Compare. It takes x compiled; nil when the right operand is no such
// constant.
func (c *compiler) intCompare(n *CompareExpr, op string, lref refFn, left evalFn) condFn {
	k, ok := n.Rights[0].(*Const)
	if !ok || k.Value.kind != KindInt || k.Value.ref != nil {
		return nil
	}
	kv, kn := k.Value, k.Value.n
	var cmp func(x int64) bool
	switch op {
	case "==":
		cmp = func(x int64) bool { return x == kn }
	case "!=":
		cmp = func(x int64) bool { return x != kn }
	case "<":
		cmp = func(x int64) bool { return x < kn }
	case "<=":
		cmp = func(x int64) bool { return x <= kn }
	case ">":
		cmp = func(x int64) bool { return x > kn }
	case ">=":
		cmp = func(x int64) bool { return x >= kn }
	default:
		return nil
	}
	name, pos := c.src.name, n.P
	if in := c.intOf(n.Left); in != nil {
		if left == nil {
			left = evalRef(lref)
		}
		// loop.index0 == 0, loop.index0 % 2 == 0: the int is read
		// without a Value; left gives what it does not read
		return func(f *frame) (bool, error) {
			if x, ok := in(f); ok {
				return cmp(x), nil
			}
			v, err := left(f)
			if err != nil {
				return false, err
			}
			r, err := Compare(f.c, op, v, kv)
			if err != nil {
				return false, place(err, name, pos)
			}
			return r, nil
		}
	}
	if lref != nil {
		return func(f *frame) (bool, error) {
			v, err := lref(f)
			if err != nil {
				return false, err
			}
			if v.kind == KindInt && v.ref == nil {
				return cmp(v.n), nil
			}
			r, err := Compare(f.c, op, *v, kv)
			if err != nil {
				return false, place(err, name, pos)
			}
			return r, nil
		}
	}
	return func(f *frame) (bool, error) {
		v, err := left(f)
		if err != nil {
			return false, err
		}
		if v.kind == KindInt && v.ref == nil {
			return cmp(v.n), nil
		}
		r, err := Compare(f.c, op, v, kv)
		if err != nil {
			return false, place(err, name, pos)
		}
		return r, nil
	}
}

// fastIntArith compiles x + k, x - k (loop.index0 + 1) and x % k for an
// int constant k that fits an int64 (k > 0 for %): an int x that fits one
// adds, or takes Python's modulo (the sign of k), in place; anything else,
// and a sum that overflows, goes to BinOp. nil for any other expression.
func (c *compiler) fastIntArith(n *BinExpr) (evalFn, error) {
	k, ok := n.Right.(*Const)
	if !ok || k.Value.kind != KindInt || k.Value.ref != nil {
		return nil, nil
	}
	kv, kn := k.Value, k.Value.n
	switch {
	case n.Op == "+", n.Op == "%" && kn > 0:
	case n.Op == "-" && kn != -kn: // not 0 or the smallest int64
		kn = -kn
	default:
		return nil, nil
	}
	if c.foldMatters(n) || isConstExpr(n.Left) {
		return nil, nil
	}
	a, err := c.compileExpr(n.Left)
	if err != nil {
		return nil, err
	}
	op, name, pos := n.Op, c.src.name, n.P
	if op == "%" {
		return func(f *frame) (Value, error) {
			x, err := a(f)
			if err != nil {
				return Value{}, err
			}
			if x.kind == KindInt && x.ref == nil {
				r := x.n % kn
				if r < 0 {
					r += kn
				}
				return IntV(r), nil
			}
			return binOpAt(f, op, x, kv, name, pos)
		}, nil
	}
	return func(f *frame) (Value, error) {
		x, err := a(f)
		if err != nil {
			return Value{}, err
		}
		if x.kind == KindInt && x.ref == nil {
			if s := x.n + kn; (s > x.n) == (kn > 0) {
				return IntV(s), nil
			}
		}
		return binOpAt(f, op, x, kv, name, pos)
	}, nil
}

// binOpAt is BinOp with its error placed at the operator: the general
// path the int fast paths fall back to.
func binOpAt(f *frame, op string, x, y Value, name string, pos Pos) (Value, error) {
	r, err := BinOp(f.c, op, x, y)
	if err != nil {
		return Value{}, place(err, name, pos)
	}
	return r, nil
}
