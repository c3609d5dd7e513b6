package jinja2

import (
	"strconv"
	"strings"
)

// The str methods markupsafe's Markup wraps in Python functions of its own
// (markupsafe 3.0): each binds its arguments as a Python function does, so
// a call of Markup.strip(chars='x') is Python's "got some positional-only
// arguments passed as keyword arguments", where str.strip says "takes no
// keyword arguments", and a wrong count names the function with self
// counted. Once bound, the arguments go to the str method by position.

// markupSig is the signature of one wrapper, after self.
type markupSig struct {
	params  []string
	posonly int     // the first posonly params are positional-only
	defs    []Value // the defaults of the last len(defs) params
}

var markupSigs = map[string]*markupSig{
	"capitalize":   {},
	"casefold":     {},
	"lower":        {},
	"upper":        {},
	"swapcase":     {},
	"title":        {},
	"center":       {params: []string{"width", "fillchar"}, posonly: 2, defs: []Value{StrV(" ")}},
	"ljust":        {params: []string{"width", "fillchar"}, posonly: 2, defs: []Value{StrV(" ")}},
	"rjust":        {params: []string{"width", "fillchar"}, posonly: 2, defs: []Value{StrV(" ")}},
	"expandtabs":   {params: []string{"tabsize"}, defs: []Value{IntV(8)}},
	"format_map":   {params: []string{"mapping"}, posonly: 1},
	"join":         {params: []string{"iterable"}, posonly: 1},
	"lstrip":       {params: []string{"chars"}, posonly: 1, defs: []Value{NoneV()}},
	"rstrip":       {params: []string{"chars"}, posonly: 1, defs: []Value{NoneV()}},
	"strip":        {params: []string{"chars"}, posonly: 1, defs: []Value{NoneV()}},
	"partition":    {params: []string{"sep"}, posonly: 1},
	"rpartition":   {params: []string{"sep"}, posonly: 1},
	"removeprefix": {params: []string{"prefix"}, posonly: 1},
	"removesuffix": {params: []string{"suffix"}},
	"replace":      {params: []string{"old", "new", "count"}, posonly: 3, defs: []Value{IntV(-1)}},
	"split":        {params: []string{"sep", "maxsplit"}, defs: []Value{NoneV(), IntV(-1)}},
	"rsplit":       {params: []string{"sep", "maxsplit"}, defs: []Value{NoneV(), IntV(-1)}},
	"splitlines":   {params: []string{"keepends"}, defs: []Value{BoolV(false)}},
	"translate":    {params: []string{"table"}, posonly: 1},
	"zfill":        {params: []string{"width"}, posonly: 1},
}

// markupWrapped is the str method fn of name as Markup's wrapper calls it:
// a Markup receiver's arguments bound by sig first.
func markupWrapped(name string, sig *markupSig, fn methodFn) methodFn {
	return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
		if !recv.IsSafe() {
			return fn(c, recv, args, kw)
		}
		args, err := sig.bind("Markup."+name+"()", args, kw)
		if err != nil {
			return Value{}, err
		}
		return fn(c, recv, args, nil)
	}
}

// bind is Python's binding of a call's arguments to sig (CPython's
// initialize_locals): the keywords first (an unknown one, or any naming a
// positional-only parameter; a parameter given twice), then too many
// positions, then the missing; the result holds every parameter up to
// the last one given, the defaults between.
func (sig *markupSig) bind(fn string, args []Value, kw []Kwarg) ([]Value, error) {
	np := len(sig.params)
	if len(kw) == 0 && len(args) <= np && len(args) >= np-len(sig.defs) {
		return args, nil
	}
	bound := make([]Value, np)
	set := make([]bool, np)
	copy(bound, args)
	for i := 0; i < len(args) && i < np; i++ {
		set[i] = true
	}
	for _, k := range kw {
		j := -1
		for i := sig.posonly; i < np; i++ {
			if sig.params[i] == k.Name {
				j = i
			}
		}
		if j < 0 {
			var named []string
			for _, p := range sig.params[:sig.posonly] {
				for _, k2 := range kw {
					if k2.Name == p {
						named = append(named, p)
						break
					}
				}
			}
			if len(named) > 0 {
				return nil, typeErr("%s got some positional-only arguments passed as keyword arguments: '%s'", fn, strings.Join(named, ", "))
			}
			return nil, typeErr("%s got an unexpected keyword argument '%s'", fn, k.Name)
		}
		if set[j] {
			return nil, typeErr("%s got multiple values for argument '%s'", fn, k.Name)
		}
		bound[j], set[j] = k.Value, true
	}
	if len(args) > np {
		takes := strconv.Itoa(np + 1)
		plural := np+1 != 1
		if len(sig.defs) > 0 {
			takes = "from " + strconv.Itoa(np+1-len(sig.defs)) + " to " + takes
			plural = true
		}
		s := ""
		if plural {
			s = "s"
		}
		return nil, typeErr("%s takes %s positional argument%s but %d were given", fn, takes, s, len(args)+1)
	}
	var missing []string
	for i := 0; i < np-len(sig.defs); i++ {
		if !set[i] {
			missing = append(missing, "'"+sig.params[i]+"'")
		}
	}
	if len(missing) > 0 {
		s := ""
		if len(missing) > 1 {
			s = "s"
		}
		names := missing[0]
		switch n := len(missing); {
		case n == 2:
			names = missing[0] + " and " + missing[1]
		case n > 2:
			names = strings.Join(missing[:n-1], ", ") + ", and " + missing[n-1]
		}
		return nil, typeErr("%s missing %d required positional argument%s: %s", fn, len(missing), s, names)
	}
	last := -1
	for i := range set {
		if set[i] {
			last = i
		}
	}
	for i := 0; i <= last; i++ {
		if !set[i] {
			bound[i] = sig.defs[i-(np-len(sig.defs))]
		}
	}
	return bound[:last+1], nil
}

// markupGetitem is Markup.__getitem__ bound to the Markup v: str's item
// (an int or a bool; a slice object no template can make) as Markup,
// with str's errors.
func markupGetitem(v Value) Value {
	sig := &markupSig{params: []string{"key"}, posonly: 1}
	f := &Func{Name: "Markup.__getitem__", Repr: "<bound method Markup.__getitem__ of " + Repr(v) + ">"}
	f.Call = func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		args, err := sig.bind("Markup.__getitem__()", args, kw)
		if err != nil {
			return Value{}, err
		}
		return strIndex(v, args[0])
	}
	return FuncV(f)
}

// strIndex is str.__getitem__(key) of the str or Markup v: an int or a
// bool (a slice object no template can make), with str's errors.
func strIndex(v, key Value) (Value, error) {
	if !isIntLike(key) {
		return Value{}, typeErr("string indices must be integers, not '%s'", TypeName(key))
	}
	if key.isBig() {
		return Value{}, pyErr("IndexError", "cannot fit 'int' into an index-sized integer")
	}
	r, ok, err := item(v, key)
	if err != nil {
		return Value{}, err
	}
	if !ok {
		return Value{}, pyErr("IndexError", "string index out of range")
	}
	return markupOr(v, r.s), nil
}

// translateUnsubscriptable are the types of the objects templates make
// that have no __getitem__: str.translate's lookup raises TypeError.
var translateUnsubscriptable = map[string]bool{
	"Namespace": true, "Cycler": true, "Joiner": true, "LoopContext": true, "function": true, "Macro": true,
	"builtin_function_or_method": true, "method": true, "dict_keys": true, "dict_values": true, "dict_items": true,
	"generator": true, "range_iterator": true, "list_iterator": true, "list_reverseiterator": true,
}

// strTranslate is str.translate(table): each character's code looked up
// in table (a dict, list, tuple, str or range; a LookupError keeps the
// character), None deleting it, an int or a str replacing it.
func strTranslate(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
	if err := nargs("str.translate", args, kw, 1, 1); err != nil {
		return Value{}, err
	}
	table := args[0]
	if recv.s == "" {
		// CPython looks nothing up in the table of an empty str
		return recv, nil
	}
	switch table.kind {
	case KindDict, KindList, KindTuple, KindStr:
	case KindUndefined:
		return Value{}, table.undefErr()
	case KindInt, KindBool, KindFloat, KindNone:
		return Value{}, typeErr("'%s' object is not subscriptable", TypeName(table))
	case KindObject, KindFunc:
		switch table.ref.(type) {
		case *rangeObj, *lazyRange, *bytesObj, *namedTuple:
			// sequences: their item, an IndexError keeping the character
		default:
			if name := TypeName(table); translateUnsubscriptable[name] {
				return Value{}, typeErr("'%s' object is not subscriptable", name)
			}
			return Value{}, &Error{Kind: "Unsupported", Msg: "str.translate with a table of type " + pyQuote(TypeName(table)) + " is not supported"}
		}
	default:
		return Value{}, &Error{Kind: "Unsupported", Msg: "str.translate with a table of type " + pyQuote(TypeName(table)) + " is not supported"}
	}
	var b []byte
	for _, r := range runesW(recv.s) {
		m, ok, err := item(table, IntV(int64(r)))
		if err != nil {
			return Value{}, err
		}
		if !ok {
			b = appendRuneW(b, r)
			continue
		}
		switch {
		case m.kind == KindNone:
		case m.kind == KindStr:
			b = append(b, m.s...)
		case isIntLike(m):
			if m.isBig() || m.n < 0 || m.n > 0x10FFFF {
				return Value{}, pyErr("ValueError", "character mapping must be in range(0x110000)")
			}
			b = appendRuneW(b, rune(m.n))
		default:
			return Value{}, typeErr("character mapping must return integer, None or str")
		}
		if err := growLimited(c, len(b)); err != nil {
			return Value{}, err
		}
	}
	return markupOr(recv, string(b)), nil
}
