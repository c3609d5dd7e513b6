package jinja2

import "strings"

// The methods of bytes that take arguments, as CPython 3.11 has them
// (bytes_methods.c, bytesobject.c): searching, splitting, stripping,
// replacing, joining and padding, each argument checked in CPython's
// order and words. A bytes-like argument is bytes (a template makes no
// other). expandtabs, splitlines, translate and hex with a separator stay
// refused by name.

// bytesArg is an argument CPython reads as a buffer.
func bytesArg(v Value) (string, error) {
	if v.kind == KindObject {
		if o, ok := v.ref.(*bytesObj); ok {
			return o.b, nil
		}
	}
	return "", typeErr("a bytes-like object is required, not '%s'", TypeName(v))
}

func bytesV(s string) Value { return ObjectV(&bytesObj{b: s}) }

// sliceIndex is _PyEval_SliceIndex of a start or end: an int (clamped),
// or None for the default.
func sliceIndex(v Value, def int64) (int64, error) {
	switch {
	case v.kind == KindNone:
		return def, nil
	case !isIntLike(v):
		return 0, typeErr("slice indices must be integers or None or have an __index__ method")
	case v.isBig():
		if v.big().Sign() < 0 {
			return -1 << 62, nil
		}
		return 1 << 62, nil
	}
	return v.n, nil
}

// bytesSubArgs checks the arguments of find, index, count and the tail
// matches (METH_VARARGS: no keywords; the sub, then start and end) and
// returns start and end, read by bytesRange for a bytes of length n.
func bytesSubArgs(name string, n int, args []Value, kw []Kwarg) (int, int, error) {
	if len(kw) > 0 {
		// METH_VARARGS called with keywords: the name alone
		return 0, 0, typeErr("%s() takes no keyword arguments", name)
	}
	if len(args) < 1 {
		return 0, 0, typeErr("%s() takes at least 1 argument (0 given)", name)
	}
	if len(args) > 3 {
		return 0, 0, typeErr("%s() takes at most 3 arguments (%d given)", name, len(args))
	}
	return bytesRange(n, args[1:])
}

// bytesRange reads the start and end of find, count and the tail
// matches, adjusted as a slice's.
func bytesRange(n int, args []Value) (int, int, error) {
	start, end := int64(0), int64(n)
	var err error
	if len(args) > 0 {
		if start, err = sliceIndex(args[0], 0); err != nil {
			return 0, 0, err
		}
	}
	if len(args) > 1 {
		if end, err = sliceIndex(args[1], int64(n)); err != nil {
			return 0, 0, err
		}
	}
	// ADJUST_INDICES: end is clamped to the length, start is not
	if end > int64(n) {
		end = int64(n)
	} else if end < 0 {
		end = max(end+int64(n), 0)
	}
	if start < 0 {
		start = max(start+int64(n), 0)
	}
	return int(start), int(end), nil
}

const bytesSpace = " \t\n\r\x0b\x0c"

// argMethod is the bytes method name that takes arguments, bound to o,
// or nil.
func (o *bytesObj) argMethod(name string) func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	var m func(c *Ctx, name, b string, args []Value, kw []Kwarg) (Value, error)
	switch name {
	case "find", "rfind", "index", "rindex", "count":
		m = bytesFind
	case "startswith", "endswith":
		m = bytesAffix
	case "strip", "lstrip", "rstrip":
		m = bytesStrip
	case "split", "rsplit":
		m = bytesSplit
	case "replace":
		m = bytesReplace
	case "join":
		m = bytesJoin
	case "partition", "rpartition", "removeprefix", "removesuffix":
		m = bytesPartition
	case "center", "ljust", "rjust", "zfill":
		m = bytesPad
	default:
		return nil
	}
	b := o.b
	return func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		return m(c, name, b, args, kw)
	}
}

// bytesFind is bytes.find, rfind, index, rindex and count: where a byte or bytes occur in b[start:end], or how often.
func bytesFind(c *Ctx, name, b string, args []Value, kw []Kwarg) (Value, error) {
	start, end, err := bytesSubArgs(name, len(b), args, kw)
	if err != nil {
		return Value{}, err
	}
	var sub string
	switch v := args[0]; {
	case isIntLike(v):
		if v.isBig() || v.n < 0 || v.n > 255 {
			return Value{}, valueErr("byte must be in range(0, 256)")
		}
		sub = string([]byte{byte(v.n)})
	default:
		s, err := bytesArg(v)
		if err != nil {
			return Value{}, typeErr("argument should be integer or bytes-like object, not '%s'", TypeName(v))
		}
		sub = s
	}
	if name == "count" {
		if end-start < len(sub) {
			return IntV(0), nil
		}
		if sub == "" {
			return IntV(int64(end - start + 1)), nil
		}
		return IntV(int64(strings.Count(b[start:end], sub))), nil
	}
	i := -1
	if end-start >= len(sub) {
		if name == "find" || name == "index" {
			i = strings.Index(b[start:end], sub)
		} else {
			i = strings.LastIndex(b[start:end], sub)
		}
		if i >= 0 {
			i += start
		}
	}
	if i < 0 && (name == "index" || name == "rindex") {
		return Value{}, valueErr("subsection not found")
	}
	return IntV(int64(i)), nil
}

// bytesAffix is bytes.startswith and endswith of a bytes or a tuple of them.
func bytesAffix(c *Ctx, name, b string, args []Value, kw []Kwarg) (Value, error) {
	start, end, err := bytesSubArgs(name, len(b), args, kw)
	if err != nil {
		return Value{}, err
	}
	match := func(sub string) bool {
		if end-start < len(sub) {
			return false
		}
		if name == "startswith" {
			return strings.HasPrefix(b[start:end], sub)
		}
		return strings.HasSuffix(b[start:end], sub)
	}
	if args[0].kind == KindTuple {
		for _, it := range args[0].list().Items {
			s, err := bytesArg(it)
			if err != nil {
				return Value{}, err
			}
			if match(s) {
				return BoolV(true), nil
			}
		}
		return BoolV(false), nil
	}
	s, err := bytesArg(args[0])
	if err != nil {
		return Value{}, typeErr("%s first arg must be bytes or a tuple of bytes, not %s", name, TypeName(args[0]))
	}
	return BoolV(match(s)), nil
}

// bytesStrip is bytes.strip, lstrip and rstrip: ASCII whitespace or the given bytes.
func bytesStrip(c *Ctx, name, b string, args []Value, kw []Kwarg) (Value, error) {
	if err := nargs("bytes."+name, args, kw, 0, 1); err != nil {
		return Value{}, err
	}
	chars := bytesSpace
	if len(args) == 1 && args[0].kind != KindNone {
		s, err := bytesArg(args[0])
		if err != nil {
			return Value{}, err
		}
		chars = s
	}
	r := b
	if name != "rstrip" {
		r = strings.TrimLeft(r, chars)
	}
	if name != "lstrip" {
		r = strings.TrimRight(r, chars)
	}
	return bytesV(r), nil
}

// bytesSplit is bytes.split and rsplit.
func bytesSplit(c *Ctx, name, b string, args []Value, kw []Kwarg) (Value, error) {
	a, set, err := clinicBind(name, args, kw, []string{"sep", "maxsplit"}, 2, 0)
	if err != nil {
		return Value{}, err
	}
	max := int64(-1)
	if set[1] {
		if max, err = intArg(a[1]); err != nil {
			return Value{}, err
		}
	}
	if max < 0 {
		max = int64(len(b)) + 1
	}
	var parts []string
	if !set[0] || a[0].kind == KindNone {
		parts = bytesSplitSpace(b, int(max), name == "rsplit")
	} else {
		sep, err := bytesArg(a[0])
		if err != nil {
			return Value{}, err
		}
		if sep == "" {
			return Value{}, valueErr("empty separator")
		}
		if name == "split" {
			parts = strings.SplitN(b, sep, int(min(max, int64(len(b))+1))+1)
		} else {
			parts = pyRSplit(b, sep, int(min(max, int64(len(b))+1)))
		}
	}
	out := make([]Value, len(parts))
	for i, p := range parts {
		out[i] = bytesV(p)
	}
	return ListV(out), nil
}

// bytesReplace is bytes.replace, at most count times.
func bytesReplace(c *Ctx, name, b string, args []Value, kw []Kwarg) (Value, error) {
	if err := nargs("bytes."+name, args, kw, 2, 3); err != nil {
		return Value{}, err
	}
	old, err := bytesArg(args[0])
	if err != nil {
		return Value{}, err
	}
	repl, err := bytesArg(args[1])
	if err != nil {
		return Value{}, err
	}
	n := int64(-1)
	if len(args) == 3 {
		if n, err = intArg(args[2]); err != nil {
			return Value{}, err
		}
	}
	if n < 0 || n > int64(len(b))+1 {
		n = int64(len(b)) + 1
	}
	k := strings.Count(b, old)
	if k > int(n) {
		k = int(n)
	}
	if err := grow(c, len(b)+k*len(repl)); err != nil {
		return Value{}, err
	}
	return bytesV(strings.Replace(b, old, repl, int(n))), nil
}

// bytesJoin is bytes.join: b between the bytes of an iterable.
func bytesJoin(c *Ctx, name, b string, args []Value, kw []Kwarg) (Value, error) {
	if err := nargs("bytes."+name, args, kw, 1, 1); err != nil {
		return Value{}, err
	}
	items, err := Iterate(c, args[0])
	if err != nil {
		if e, ok := err.(*Error); ok && e.Kind == "TypeError" && strings.HasSuffix(e.Msg, "is not iterable") {
			return Value{}, typeErr("can only join an iterable")
		}
		return Value{}, err
	}
	parts := make([]string, len(items))
	n := 0
	for i, it := range items {
		s, err := bytesArg(it)
		if err != nil {
			return Value{}, typeErr("sequence item %d: expected a bytes-like object, %s found", i, TypeName(it))
		}
		parts[i] = s
		n += len(s) + len(b)
	}
	if err := grow(c, n); err != nil {
		return Value{}, err
	}
	return bytesV(strings.Join(parts, b)), nil
}

// bytesPartition is bytes.partition, rpartition, removeprefix and removesuffix.
func bytesPartition(c *Ctx, name, b string, args []Value, kw []Kwarg) (Value, error) {
	if err := nargs("bytes."+name, args, kw, 1, 1); err != nil {
		return Value{}, err
	}
	sep, err := bytesArg(args[0])
	if err != nil {
		return Value{}, err
	}
	switch name {
	case "removeprefix":
		return bytesV(strings.TrimPrefix(b, sep)), nil
	case "removesuffix":
		return bytesV(strings.TrimSuffix(b, sep)), nil
	}
	if sep == "" {
		return Value{}, valueErr("empty separator")
	}
	if name == "partition" {
		if i := strings.Index(b, sep); i >= 0 {
			return TupleV([]Value{bytesV(b[:i]), bytesV(sep), bytesV(b[i+len(sep):])}), nil
		}
		return TupleV([]Value{bytesV(b), bytesV(""), bytesV("")}), nil
	}
	if i := strings.LastIndex(b, sep); i >= 0 {
		return TupleV([]Value{bytesV(b[:i]), bytesV(sep), bytesV(b[i+len(sep):])}), nil
	}
	return TupleV([]Value{bytesV(""), bytesV(""), bytesV(b)}), nil
}

// bytesPad is bytes.center, ljust, rjust and zfill.
func bytesPad(c *Ctx, name, b string, args []Value, kw []Kwarg) (Value, error) {
	hi := 2
	if name == "zfill" {
		hi = 1
	}
	if err := nargs("bytes."+name, args, kw, 1, hi); err != nil {
		return Value{}, err
	}
	width, err := intArg(args[0])
	if err != nil {
		return Value{}, err
	}
	fill := byte(' ')
	if len(args) == 2 {
		s, err := bytesArg(args[1])
		if err != nil || len(s) != 1 {
			return Value{}, typeErr("%s() argument 2 must be a byte string of length 1, not %s", name, TypeName(args[1]))
		}
		fill = s[0]
	}
	if width <= int64(len(b)) {
		return bytesV(b), nil
	}
	if err := grow(c, int(width)); err != nil {
		return Value{}, err
	}
	marg := int(width) - len(b)
	var left int
	switch name {
	case "center":
		left = marg/2 + (marg & int(width) & 1)
	case "rjust":
		left = marg
	case "zfill":
		left, fill = marg, '0'
	}
	r := strings.Repeat(string(fill), left) + b + strings.Repeat(string(fill), marg-left)
	if name == "zfill" && len(b) > 0 && (b[0] == '+' || b[0] == '-') {
		r = string(b[0]) + r[:left] + b[1:]
	}
	return bytesV(r), nil
}

// bytesSplitSpace is bytes.split() (or rsplit()): runs of ASCII
// whitespace, at most max splits.
func bytesSplitSpace(b string, max int, right bool) []string {
	isSpace := func(c byte) bool { return strings.IndexByte(bytesSpace, c) >= 0 }
	var out []string
	if !right {
		i := 0
		for n := 0; ; n++ {
			for i < len(b) && isSpace(b[i]) {
				i++
			}
			if i == len(b) {
				return out
			}
			if n == max {
				return append(out, b[i:])
			}
			j := i
			for j < len(b) && !isSpace(b[j]) {
				j++
			}
			out = append(out, b[i:j])
			i = j
		}
	}
	j := len(b)
	for n := 0; ; n++ {
		for j > 0 && isSpace(b[j-1]) {
			j--
		}
		if j == 0 {
			break
		}
		if n == max {
			out = append(out, b[:j])
			break
		}
		i := j
		for i > 0 && !isSpace(b[i-1]) {
			i--
		}
		out = append(out, b[i:j])
		j = i
	}
	for l, r := 0, len(out)-1; l < r; l, r = l+1, r-1 {
		out[l], out[r] = out[r], out[l]
	}
	return out
}
