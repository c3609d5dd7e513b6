package jinja2

import (
	"math"
	"strings"
)

// Argument checks of builtin methods, with CPython's messages.

func noKw(name string, kw []Kwarg) error {
	if len(kw) > 0 {
		return typeErr("%s() takes no keyword arguments", name)
	}
	return nil
}

// nargs checks the count of positional arguments of the method qualified
// ("str.upper"), as CPython words it.
func nargs(qualified string, args []Value, kw []Kwarg, lo, hi int) error {
	if err := noKw(qualified, kw); err != nil {
		return err
	}
	name := qualified
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	n := len(args)
	switch {
	case hi == 0 && n > 0:
		return typeErr("%s() takes no arguments (%d given)", qualified, n)
	case lo == hi && n != lo:
		if lo == 1 {
			// METH_O: the qualified name
			return typeErr("%s() takes exactly one argument (%d given)", qualified, n)
		}
		return typeErr("%s expected %d arguments, got %d", name, lo, n)
	case n < lo:
		return typeErr("%s expected at least %d argument%s, got %d", name, lo, plural(lo), n)
	case n > hi:
		return typeErr("%s expected at most %d argument%s, got %d", name, hi, plural(hi), n)
	}
	return nil
}

// nargsTuple checks the arguments of a str method that reads them with
// PyArg_ParseTuple (find, count, startswith and the like), as CPython
// words it: the name unqualified.
func nargsTuple(name string, args []Value, kw []Kwarg, lo, hi int) error {
	if len(kw) > 0 {
		return typeErr("%s() takes no keyword arguments", name)
	}
	switch n := len(args); {
	case n < lo:
		return typeErr("%s() takes at least %d argument%s (%d given)", name, lo, plural(lo), n)
	case n > hi:
		return typeErr("%s() takes at most %d argument%s (%d given)", name, hi, plural(hi), n)
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// kwOrPos merges keyword arguments into positions for a method whose
// parameters may be named (str.split(sep=None, maxsplit=-1)).
func kwOrPos(name string, args []Value, kw []Kwarg, params ...string) ([]Value, error) {
	if n := len(args) + len(kw); n > len(params) {
		// _PyArg_UnpackKeywords counts both before it binds any
		keyword := ""
		if len(args) == 0 {
			keyword = "keyword "
		}
		return nil, typeErr("%s() takes at most %d %sargument%s (%d given)", name, len(params), keyword, plural(len(params)), n)
	}
	if len(kw) == 0 {
		return args, nil
	}
	out := make([]Value, len(params))
	set := make([]bool, len(params))
	copy(out, args)
	for i := range args {
		set[i] = true
	}
	for _, k := range kw {
		found := false
		for i, p := range params {
			if p == k.Name {
				if set[i] {
					return nil, typeErr("argument for %s() given by name ('%s') and position (%d)", name, p, i+1)
				}
				out[i], set[i], found = k.Value, true, true
			}
		}
		if !found {
			// Argument Clinic's words
			return nil, typeErr("'%s' is an invalid keyword argument for %s()", k.Name, name)
		}
	}
	n := len(params)
	for n > 0 && !set[n-1] {
		n--
	}
	for i := 0; i < n; i++ {
		if !set[i] {
			out[i] = NoneV()
		}
	}
	return out[:n], nil
}

// badArgName is how Argument Clinic's _PyArg_BadArgument names an
// argument's type: None for None, else the type's name.
func badArgName(v Value) string {
	if v.kind == KindNone {
		return "None"
	}
	return TypeName(v)
}

// strArg reads an argument a str method takes as a str: anything else,
// Undefined too (the C method checks the type, it calls nothing), is a
// TypeError.
func strArg(v Value) (string, error) {
	if v.kind != KindStr {
		return "", typeErr("must be str, not %s", TypeName(v))
	}
	return v.s, nil
}

// intArg reads an index-like argument.
func intArg(v Value) (int64, error) {
	switch {
	case isIntLike(v):
		if v.ref != nil {
			return 0, pyErr("OverflowError", "Python int too large to convert to C ssize_t")
		}
		return v.n, nil
	}
	return 0, typeErr("'%s' object cannot be interpreted as an integer", TypeName(v))
}

// cIntParam is the one optional C int parameter of a str method
// (splitlines' keepends, expandtabs' tabsize), given by position or by
// name; def when it is not given.
func cIntParam(method, param string, args []Value, kw []Kwarg, def int64) (int64, error) {
	args, err := kwOrPos(method, args, kw, param)
	if err != nil || len(args) == 0 {
		return def, err
	}
	return cIntArg(args[0])
}

// cIntArg reads an argument CPython converts to a C int (a bool flag
// such as sort's reverse or splitlines' keepends): an int or a bool, and
// within 32 bits.
func cIntArg(v Value) (int64, error) {
	if !isIntLike(v) {
		return 0, typeErr("'%s' object cannot be interpreted as an integer", TypeName(v))
	}
	if v.isBig() || v.n > math.MaxInt32 || v.n < math.MinInt32 {
		return 0, pyErr("OverflowError", "Python int too large to convert to C int")
	}
	return v.n, nil
}

// optIntArg reads a start or end argument: an int or None.
func optIntArg(args []Value, i int) (*int64, error) {
	if i >= len(args) || args[i].kind == KindNone {
		return nil, nil
	}
	if !isIntLike(args[i]) {
		return nil, typeErr("slice indices must be integers or None or have an __index__ method")
	}
	n := args[i].n
	if args[i].ref != nil {
		if args[i].big().Sign() < 0 {
			n = -1 << 62
		} else {
			n = 1 << 62
		}
	}
	return &n, nil
}

// markupOr returns s as a str, or as Markup when recv is Markup.
func markupOr(recv Value, s string) Value {
	return Value{kind: KindStr, s: s, flags: recv.flags & flagSafe}
}

// escArg escapes a str argument of a Markup method.
func escArg(c *Ctx, recv Value, s Value) string {
	if recv.IsSafe() && !s.IsSafe() {
		return escapeFn(c)(s.s)
	}
	return s.s
}

func strsV(recv Value, parts []string) Value {
	items := make([]Value, len(parts))
	for i, p := range parts {
		items[i] = markupOr(recv, p)
	}
	return ListV(items)
}

// caseMethod is a str method of no arguments that returns a str.
func caseMethod(name string, f func(string) string) methodFn {
	fname := "str." + name // built once, not at every call
	return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
		if err := nargs(fname, args, kw, 0, 0); err != nil {
			return Value{}, err
		}
		return markupOr(recv, f(recv.s)), nil
	}
}

// isMethod is a str.isX method. markupsafe leaves these to str, so
// Jinja2's call of one bound to a Markup names the receiver's type, as
// CPython's bound builtin method does (Markup.isupper() takes no
// arguments).
func isMethod(name string, f func(string) bool) methodFn {
	fname, mname := "str."+name, "Markup."+name // built once, not at every call
	return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
		if len(args) > 0 || len(kw) > 0 {
			q := fname
			if recv.IsSafe() {
				q = mname
			}
			return Value{}, nargs(q, args, kw, 0, 0)
		}
		return BoolV(f(recv.s)), nil
	}
}

func stripMethod(name string, left, right bool) methodFn {
	fname := "str." + name // built once, not at every call
	return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
		if err := nargs(fname, args, kw, 0, 1); err != nil {
			return Value{}, err
		}
		var chars *string
		if len(args) == 1 && args[0].kind != KindNone {
			s, err := strArg(args[0])
			if err != nil {
				return Value{}, typeErr("%s arg must be None or str", name)
			}
			chars = &s
		}
		return markupOr(recv, pyStrip(recv.s, chars, left, right)), nil
	}
}

func splitMethod(name string, right bool) methodFn {
	return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
		args, err := kwOrPos(name, args, kw, "sep", "maxsplit")
		if err != nil {
			return Value{}, err
		}
		maxsplit := int64(-1)
		if len(args) > 1 {
			if maxsplit, err = intArg(args[1]); err != nil {
				return Value{}, err
			}
		}
		if len(args) == 0 || args[0].kind == KindNone {
			if right {
				return strsV(recv, pyRSplitSpace(recv.s, int(maxsplit))), nil
			}
			return strsV(recv, pySplitSpace(recv.s, int(maxsplit))), nil
		}
		sep, err := strArg(args[0])
		if err != nil {
			return Value{}, typeErr("must be str or None, not %s", TypeName(args[0]))
		}
		if sep == "" {
			return Value{}, valueErr("empty separator")
		}
		if right {
			return strsV(recv, pyRSplit(recv.s, sep, int(maxsplit))), nil
		}
		if maxsplit < 0 {
			return strsV(recv, strings.Split(recv.s, sep)), nil
		}
		return strsV(recv, strings.SplitN(recv.s, sep, int(maxsplit)+1)), nil
	}
}

// spanArgs reads the optional start and end arguments (args[1] and
// args[2]) of find, count, startswith and the like as byte offsets into s
// (runeSpan).
func spanArgs(s string, args []Value) (lo, hi int, err error) {
	start, err := optIntArg(args, 1)
	if err != nil {
		return 0, 0, err
	}
	end, err := optIntArg(args, 2)
	if err != nil {
		return 0, 0, err
	}
	lo, hi = runeSpan(s, start, end)
	return lo, hi, nil
}

// findMethod is find, rfind, index, rindex and count.
func findMethod(name string) methodFn {
	return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
		if err := nargsTuple(name, args, kw, 1, 3); err != nil {
			return Value{}, err
		}
		// CPython reads start and end before it checks the substring
		s := recv.s
		lo, hi, err := spanArgs(s, args)
		if err != nil {
			return Value{}, err
		}
		sub, err := strArg(args[0])
		if err != nil {
			return Value{}, err
		}
		if name == "count" {
			if lo < 0 || hi < 0 {
				return IntV(0), nil
			}
			if sub == "" {
				return IntV(int64(runeCountW(s[lo:hi]) + 1)), nil
			}
			return IntV(int64(strings.Count(s[lo:hi], sub))), nil
		}
		at := -1
		if lo >= 0 && hi >= 0 {
			if name == "find" || name == "index" {
				at = strings.Index(s[lo:hi], sub)
			} else {
				at = strings.LastIndex(s[lo:hi], sub)
			}
		}
		if at < 0 {
			if name == "index" || name == "rindex" {
				return Value{}, valueErr("substring not found")
			}
			return IntV(-1), nil
		}
		return IntV(int64(runeCount(s, lo+at))), nil
	}
}

// affixMethod is startswith and endswith.
func affixMethod(name string, end bool) methodFn {
	return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
		if err := nargsTuple(name, args, kw, 1, 3); err != nil {
			return Value{}, err
		}
		// CPython reads start and end first, then tries a tuple's items
		// in order, checking each one's type as it reaches it
		lo, hi, err := spanArgs(recv.s, args)
		if err != nil {
			return Value{}, err
		}
		affixes := args[:1]
		switch a := args[0]; a.kind {
		case KindStr:
		case KindTuple:
			affixes = a.list().Items
		default:
			return Value{}, typeErr("%s first arg must be str or a tuple of str, not %s", name, TypeName(a))
		}
		for _, a := range affixes {
			if a.kind != KindStr {
				return Value{}, typeErr("tuple for %s must only contain str, not %s", name, TypeName(a))
			}
			if lo < 0 || hi < 0 {
				continue
			}
			if s := recv.s[lo:hi]; (!end && strings.HasPrefix(s, a.s)) || (end && strings.HasSuffix(s, a.s)) {
				return BoolV(true), nil
			}
		}
		return BoolV(false), nil
	}
}

// justMethod is center, ljust and rjust.
func justMethod(name string) methodFn {
	fname := "str." + name // built once, not at every call
	return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
		if err := nargs(fname, args, kw, 1, 2); err != nil {
			return Value{}, err
		}
		width, err := intArg(args[0])
		if err != nil {
			return Value{}, err
		}
		fill := " "
		if len(args) == 2 && recv.IsSafe() {
			// markupsafe escapes the fill character, whatever its type,
			// before str's method reads it
			if fill, err = escapeValue(c, args[1]); err != nil {
				return Value{}, err
			}
			if runeCountW(fill) != 1 {
				return Value{}, typeErr("The fill character must be exactly one character long")
			}
		} else if len(args) == 2 {
			f, err := strArg(args[1])
			if err != nil || runeCountW(f) != 1 {
				if err == nil {
					return Value{}, typeErr("The fill character must be exactly one character long")
				}
				return Value{}, typeErr("The fill character must be a unicode character, not %s", TypeName(args[1]))
			}
			fill = escArg(c, recv, args[1])
		}
		n := int64(runeCountW(recv.s))
		if width <= n {
			return recv, nil
		}
		if err := grow(c, int(width)); err != nil {
			return Value{}, err
		}
		pad := width - n
		var left int64
		switch name {
		case "center":
			left = pad / 2
			if pad&width&1 != 0 {
				left++
			}
		case "rjust":
			left = pad
		}
		return markupOr(recv, strings.Repeat(fill, int(left))+recv.s+strings.Repeat(fill, int(pad-left))), nil
	}
}

func strJoin(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
	if err := nargs("str.join", args, kw, 1, 1); err != nil {
		return Value{}, err
	}
	items, err := Iterate(c, args[0])
	if err != nil {
		if recv.IsSafe() {
			// Markup.join maps escape over seq first: iter(seq) fails
			return Value{}, err
		}
		return Value{}, typeErr("can only join an iterable")
	}
	var b strings.Builder
	for i, it := range items {
		if it.kind != KindStr {
			if recv.IsSafe() {
				s, err := escapeValue(c, it)
				if err != nil {
					return Value{}, err
				}
				it = SafeV(s)
			} else {
				return Value{}, typeErr("sequence item %d: expected str instance, %s found", i, TypeName(it))
			}
		}
		if i > 0 {
			b.WriteString(recv.s)
		}
		b.WriteString(escArg(c, recv, it))
		if b.Len() > 1<<16 {
			if err := grow(c, b.Len()); err != nil {
				return Value{}, err
			}
		}
	}
	return markupOr(recv, b.String()), nil
}

func strReplace(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
	if err := nargs("str.replace", args, kw, 2, 3); err != nil {
		return Value{}, err
	}
	old, err := strArg(args[0])
	if err != nil {
		return Value{}, typeErr("replace() argument 1 must be str, not %s", badArgName(args[0]))
	}
	var nw string
	if recv.IsSafe() {
		// markupsafe escapes the new text, whatever its type
		if nw, err = escapeValue(c, args[1]); err != nil {
			return Value{}, err
		}
	} else if nw, err = strArg(args[1]); err != nil {
		return Value{}, typeErr("replace() argument 2 must be str, not %s", badArgName(args[1]))
	}
	count := int64(-1)
	if len(args) == 3 {
		if count, err = intArg(args[2]); err != nil {
			return Value{}, err
		}
	}
	if count < 0 {
		count = -1
	}
	n := strings.Count(recv.s, old)
	if old == "" {
		n = runeCountW(recv.s) + 1
	}
	if count >= 0 && int64(n) > count {
		n = int(count)
	}
	if size := len(recv.s) + n*(len(nw)-len(old)); size > 1<<16 {
		if err := grow(c, size); err != nil {
			return Value{}, err
		}
	}
	return markupOr(recv, strings.Replace(recv.s, old, nw, int(count))), nil
}

func strZfill(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
	if err := nargs("str.zfill", args, kw, 1, 1); err != nil {
		return Value{}, err
	}
	width, err := intArg(args[0])
	if err != nil {
		return Value{}, err
	}
	s := recv.s
	n := int64(runeCountW(s))
	if width <= n {
		return recv, nil
	}
	if err := grow(c, int(width)); err != nil {
		return Value{}, err
	}
	pad := strings.Repeat("0", int(width-n))
	if s != "" && (s[0] == '+' || s[0] == '-') {
		return markupOr(recv, s[:1]+pad+s[1:]), nil
	}
	return markupOr(recv, pad+s), nil
}

func partitionMethod(name string, right bool) methodFn {
	fname := "str." + name // built once, not at every call
	return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
		if err := nargs(fname, args, kw, 1, 1); err != nil {
			return Value{}, err
		}
		sep, err := strArg(args[0])
		if err != nil {
			return Value{}, err
		}
		if sep == "" {
			return Value{}, valueErr("empty separator")
		}
		s := recv.s
		var i int
		if right {
			i = strings.LastIndex(s, sep)
		} else {
			i = strings.Index(s, sep)
		}
		var parts [3]string
		switch {
		case i >= 0:
			parts = [3]string{s[:i], sep, s[i+len(sep):]}
		case right:
			parts = [3]string{"", "", s}
		default:
			parts = [3]string{s, "", ""}
		}
		mid := markupOr(recv, parts[1])
		if i >= 0 && recv.kind == KindStr && !recv.IsSafe() {
			// str.partition returns its separator object as given (a
			// Markup separator stays Markup)
			mid = args[0]
		}
		return TupleV([]Value{markupOr(recv, parts[0]), mid, markupOr(recv, parts[2])}), nil
	}
}

func affixRemove(name string, suffix bool) methodFn {
	fname := "str." + name // built once, not at every call
	return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
		if err := nargs(fname, args, kw, 1, 1); err != nil {
			return Value{}, err
		}
		a, err := strArg(args[0])
		if err != nil {
			return Value{}, typeErr("%s() argument must be str, not %s", name, badArgName(args[0]))
		}
		if suffix {
			return markupOr(recv, strings.TrimSuffix(recv.s, a)), nil
		}
		return markupOr(recv, strings.TrimPrefix(recv.s, a)), nil
	}
}

// strMethod returns the str method called name.
func strMethod(name string) methodFn {
	fn := strMethodOf(name)
	if sig := markupSigs[name]; sig != nil && fn != nil {
		return markupWrapped(name, sig, fn)
	}
	return fn
}

// strMethodOf is str's method name, as strMethod without Markup's binding.
func strMethodOf(name string) methodFn {
	switch name {
	case "encode":
		return strEncode
	case "upper":
		return caseMethod("upper", pyUpper)
	case "lower":
		return caseMethod("lower", pyLower)
	case "title":
		return caseMethod("title", pyTitle)
	case "capitalize":
		return caseMethod("capitalize", pyCapitalize)
	case "swapcase":
		return caseMethod("swapcase", pySwapcase)
	case "casefold":
		return caseMethod("casefold", pyCasefold)
	case "strip":
		return stripMethod("strip", true, true)
	case "lstrip":
		return stripMethod("lstrip", true, false)
	case "rstrip":
		return stripMethod("rstrip", false, true)
	case "split":
		return splitMethod("split", false)
	case "rsplit":
		return splitMethod("rsplit", true)
	case "splitlines":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			keep, err := cIntParam("splitlines", "keepends", args, kw, 0)
			if err != nil {
				return Value{}, err
			}
			return strsV(recv, pySplitLines(recv.s, keep != 0)), nil
		}
	case "startswith":
		return affixMethod("startswith", false)
	case "endswith":
		return affixMethod("endswith", true)
	case "removeprefix":
		return affixRemove("removeprefix", false)
	case "removesuffix":
		return affixRemove("removesuffix", true)
	case "replace":
		return strReplace
	case "find":
		return findMethod("find")
	case "rfind":
		return findMethod("rfind")
	case "index":
		return findMethod("index")
	case "rindex":
		return findMethod("rindex")
	case "count":
		return findMethod("count")
	case "join":
		return strJoin
	case "center":
		return justMethod("center")
	case "ljust":
		return justMethod("ljust")
	case "rjust":
		return justMethod("rjust")
	case "zfill":
		return strZfill
	case "translate":
		return strTranslate
	case "maketrans":
		return strMaketrans
	case "partition":
		return partitionMethod("partition", false)
	case "rpartition":
		return partitionMethod("rpartition", true)
	case "expandtabs":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			tab, err := cIntParam("expandtabs", "tabsize", args, kw, 8)
			if err != nil {
				return Value{}, err
			}
			if n := int64(strings.Count(recv.s, "\t")); tab > 1<<16 && n > 0 {
				// each tab may become tab spaces
				if err := growLimited(c, int(min(tab*n, math.MaxInt))); err != nil {
					return Value{}, err
				}
			}
			return markupOr(recv, pyExpandTabs(recv.s, int(tab))), nil
		}
	case "format":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			return strFormat(c, recv, args, kw, nil)
		}
	case "format_map":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("str.format_map", args, kw, 1, 1); err != nil {
				return Value{}, err
			}
			return strFormat(c, recv, nil, nil, &args[0])
		}
	case "isdigit":
		return isMethod("isdigit", func(s string) bool { return allChars(s, pyIsDigit) })
	case "isdecimal":
		return isMethod("isdecimal", func(s string) bool { return allChars(s, pyIsDecimal) })
	case "isnumeric":
		return isMethod("isnumeric", func(s string) bool { return allChars(s, pyIsNumeric) })
	case "isalpha":
		return isMethod("isalpha", func(s string) bool { return allChars(s, pyIsAlpha) })
	case "isalnum":
		return isMethod("isalnum", func(s string) bool { return allChars(s, pyIsAlnum) })
	case "isspace":
		return isMethod("isspace", func(s string) bool { return allChars(s, pyIsSpace) })
	case "isascii":
		return isMethod("isascii", isASCII)
	case "isprintable":
		return isMethod("isprintable", func(s string) bool { return s == "" || !hasSurrogate(s) && allChars(s, pyIsPrintable) })
	case "islower":
		return isMethod("islower", pyIsLower)
	case "isupper":
		return isMethod("isupper", pyIsUpper)
	case "istitle":
		return isMethod("istitle", pyIsTitle)
	case "isidentifier":
		return isMethod("isidentifier", pyIsIdentifier)
	case "unescape":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if !recv.IsSafe() {
				return Value{}, nil
			}
			if err := markupArgs("unescape", "", args, kw); err != nil {
				return Value{}, err
			}
			return StrV(htmlUnescape(recv.s)), nil
		}
	case "striptags":
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if err := markupArgs("striptags", "", args, kw); err != nil {
				return Value{}, err
			}
			return StrV(stripTags(recv.s)), nil
		}
	case "escape":
		// Markup.escape, a classmethod: markupsafe.escape of its argument
		return func(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
			if len(args) != 1 || len(kw) > 0 {
				if len(args) == 0 && len(kw) == 0 {
					return Value{}, typeErr("Markup.escape() missing 1 required positional argument: 's'")
				}
				return Value{}, typeErr("Markup.escape() takes 2 positional arguments but %d were given", len(args)+1)
			}
			s, err := escapeValue(c, args[0])
			if err != nil {
				return Value{}, err
			}
			return SafeV(s), nil
		}
	}
	return nil
}
