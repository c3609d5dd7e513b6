package jinja2

// Markup's dunders that markupsafe writes as Python methods of its own
// (markupsafe 3.0's Markup: each takes its parameters by position only):
// __html__ returns the Markup, __repr__ its repr (a str); __add__ and __radd__ join a str or an
// object with __html__, escaped, and give NotImplemented for anything
// else; __mul__ and __rmul__ repeat it as str.__mul__ does; __mod__ formats
// with its operands escaped; __html_format__ refuses a true spec. Each is
// printed as a bound method, <bound method Markup.__add__ of Markup('…')>.

// markupDunderParams are the positional-only parameters (after self) of
// the dunders markupsafe defines.
var markupDunderParams = map[string]string{
	"__html__":        "",
	"__repr__":        "",
	"__add__":         "value",
	"__radd__":        "value",
	"__mul__":         "value",
	"__rmul__":        "value",
	"__mod__":         "value",
	"__html_format__": "format_spec",
}

// markupDunderMethod is v.name for a Markup v and one of the dunders
// markupsafe defines.
func markupDunderMethod(v Value, name string) (Value, bool) {
	if name == "__getitem__" && v.IsSafe() && v.kind == KindStr {
		return markupGetitem(v), true
	}
	param, ok := markupDunderParams[name]
	if !ok || !v.IsSafe() || v.kind != KindStr {
		return Value{}, false
	}
	f := &Func{Name: "Markup." + name, Repr: "<bound method Markup." + name + " of " + Repr(v) + ">"}
	f.Call = func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		if err := markupArgs(name, param, args, kw); err != nil {
			return Value{}, err
		}
		if name == "__repr__" {
			return StrV(Repr(v)), nil // Markup('…'), a str
		}
		if param == "" {
			return v, nil // __html__
		}
		other := args[0]
		switch name {
		case "__add__", "__radd__":
			if other.kind != KindStr && !hasHTML(other) {
				return notImplemented, nil
			}
			s, err := escapeValue(c, other)
			if err != nil {
				return Value{}, err
			}
			if name == "__add__" {
				return catStr(c, v.s, s, flagSafe)
			}
			return catStr(c, s, v.s, flagSafe)
		case "__mul__", "__rmul__":
			return repeatIndex(c, v, other)
		case "__mod__":
			return percentFormat(c, v, other)
		}
		// __html_format__
		if other.Truth() {
			return Value{}, pyErr("ValueError", "Unsupported format specification for Markup.")
		}
		return v, nil
	}
	return FuncV(f), true
}

// markupArgs checks a call of the Markup method name, whose one
// positional-only parameter is param ("" for none), as Python binds it
// (markupSig.bind).
func markupArgs(name, param string, args []Value, kw []Kwarg) error {
	sig := markupSig{}
	if param != "" {
		sig = markupSig{params: []string{param}, posonly: 1}
	}
	_, err := sig.bind("Markup."+name+"()", args, kw)
	return err
}
