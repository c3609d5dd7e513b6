package jinja2

// strMaketrans is str.maketrans(x[, y[, z]]), a static method of str
// (and of Markup, which inherits it): the table str.translate reads, as
// CPython's unicode_maketrans_impl builds it. One argument must be a
// dict (exactly: a mappingproxy is not one) whose keys are ints, kept as
// they are, or strs of one character, made their code points; two or
// three are strs, the first two of one length, mapped character to
// character, the third's characters to None.
func strMaketrans(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
	if err := nargs("str.maketrans", args, kw, 1, 3); err != nil {
		return Value{}, err
	}
	// Argument Clinic checks the second and third arguments' types
	// before the function's body looks at the first
	for i := 1; i < len(args); i++ {
		if args[i].kind != KindStr {
			return Value{}, typeErr("maketrans() argument %d must be str, not %s", i+1, badArgName(args[i]))
		}
	}
	out := NewDict(0)
	x := args[0]
	if len(args) == 1 {
		if x.kind != KindDict || x.flags&flagProxy != 0 {
			return Value{}, typeErr("if you give only one argument to maketrans it must be a dict")
		}
		d := x.dict()
		for i, k := range d.keys {
			switch {
			case isIntLike(k):
			case k.kind == KindStr:
				r := runesW(k.s)
				if len(r) != 1 {
					return Value{}, pyErr("ValueError", "string keys in translate table must be of length 1")
				}
				k = IntV(int64(r[0]))
			default:
				return Value{}, typeErr("keys in translate table must be strings or integers")
			}
			if err := out.SetKey(k, d.vals[i]); err != nil {
				return Value{}, err
			}
		}
		return DictV(out), nil
	}
	if x.kind != KindStr {
		return Value{}, typeErr("first maketrans argument must be a string if there is a second argument")
	}
	from, to := runesW(x.s), runesW(args[1].s)
	if len(from) != len(to) {
		return Value{}, pyErr("ValueError", "the first two maketrans arguments must have equal length")
	}
	for i, r := range from {
		out.Set(IntV(int64(r)), IntV(int64(to[i])))
	}
	if len(args) == 3 {
		for _, r := range runesW(args[2].s) {
			out.Set(IntV(int64(r)), NoneV())
		}
	}
	return DictV(out), nil
}
