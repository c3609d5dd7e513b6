package jinja2

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// strFormat is str.format(*args, **kw), or str.format_map(mapping) when
// mapping is not nil; on Markup, every field is escaped (markupsafe's
// EscapeFormatter) and the result is Markup.
func strFormat(c *Ctx, recv Value, args []Value, kw []Kwarg, mapping *Value) (Value, error) {
	f := &formatter{c: c, args: args, kw: kw, mapping: mapping, markup: recv.IsSafe()}
	s, err := f.vformat(recv.s, 2)
	if err != nil {
		return Value{}, err
	}
	if f.whole {
		// CPython's writer took the Markup str.__format__ returned as
		// the whole result (unformattedMarkup)
		return f.safe, nil
	}
	return markupOr(recv, s), nil
}

// unformattedMarkup reports whether str.__format__(v, spec), which gave
// out, returned the Markup v itself: CPython's format_string_internal
// writes a str that no width pads and no precision cuts as the object
// (the fast path), and its fresh writer hands that object back, so
// Markup('<i>').__format__('s') is the Markup, as is '{:s}'.format(m)
// when nothing before the field printed and nothing follows it (do_markup
// stops overallocating for the last field). An empty spec is str(v), a
// plain str.
func unformattedMarkup(v Value, spec, out string) bool {
	return v.kind == KindStr && v.IsSafe() && spec != "" && out == v.s
}

type formatter struct {
	c       *Ctx
	args    []Value
	kw      []Kwarg
	mapping *Value
	markup  bool
	auto    int // next automatic index; -1 once manual numbering is used
	manual  bool
	// safe is the Markup the last field printed unformatted, if any
	// (unformattedMarkup); whole says it is str.format's result
	safe  Value
	whole bool
}

func (f *formatter) vformat(s string, depth int) (string, error) {
	// str.format's build_string refuses a depth of 0 (two levels of
	// nested specs), string.Formatter's _vformat one below 0 (three)
	if depth < 0 || depth == 0 && !(f.markup || sandboxed(f.c)) {
		return "", valueErr("Max string recursion exceeded")
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		ch := s[i]
		switch {
		case ch == '{' && i+1 < len(s) && s[i+1] == '{':
			b.WriteByte('{')
			i += 2
		case ch == '}' && i+1 < len(s) && s[i+1] == '}':
			b.WriteByte('}')
			i += 2
		case ch == '}':
			return "", valueErr("Single '}' encountered in format string")
		case ch == '{':
			if i+1 == len(s) {
				return "", valueErr("Single '{' encountered in format string")
			}
			name, conv, spec, next, err := parseField(s, i+1)
			if err != nil {
				return "", err
			}
			before := b.Len()
			f.safe = Value{}
			out, err := f.field(name, conv, spec, depth)
			if err != nil {
				return "", err
			}
			b.WriteString(out)
			i = next
			f.whole = depth == 2 && before == 0 && next == len(s) && f.safe.kind == KindStr
		default:
			b.WriteByte(ch)
			i++
		}
	}
	return b.String(), nil
}

// parseField reads the replacement field that starts at s[i], after its
// '{', as CPython's parse_field (unicode_format.h) does: the name runs to
// the first '}', ':' or '!' outside brackets, a conversion is one
// character, the spec runs to its matching '}'. It returns the parts and
// where the text after the field starts.
func parseField(s string, i int) (name string, conv rune, spec string, next int, err error) {
	start := i
	var c byte
	for i < len(s) {
		c = s[i]
		i++
		if c == '{' {
			return "", 0, "", 0, valueErr("unexpected '{' in field name")
		}
		if c == '[' {
			for i < len(s) && s[i] != ']' {
				i++
			}
			continue
		}
		if c == '}' || c == ':' || c == '!' {
			break
		}
	}
	name = s[start : i-1]
	if c != '!' && c != ':' {
		if c != '}' {
			return "", 0, "", 0, valueErr("expected '}' before end of string")
		}
		return name, 0, "", i, nil
	}
	if c == '!' {
		if i >= len(s) {
			return "", 0, "", 0, valueErr("end of string while looking for conversion specifier")
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		conv = r
		i += size
		if i < len(s) {
			c = s[i]
			i++
			if c == '}' {
				return name, conv, "", i, nil
			}
			if c != ':' {
				return "", 0, "", 0, valueErr("expected ':' after conversion specifier")
			}
		}
	}
	specStart, count := i, 1
	for i < len(s) {
		c = s[i]
		i++
		switch c {
		case '{':
			count++
		case '}':
			count--
			if count == 0 {
				return name, conv, s[specStart : i-1], i, nil
			}
		}
	}
	return "", 0, "", 0, valueErr("unmatched '{' in format spec")
}

// field formats one replacement field: name[!conv][:spec].
func (f *formatter) field(name string, conv rune, spec string, depth int) (string, error) {
	v, err := f.lookup(name)
	if err != nil {
		return "", err
	}
	if depth <= 0 && (f.markup || sandboxed(f.c)) {
		// string.Formatter expands every field's spec, an empty one
		// too, one level down: a field two levels deep fails there,
		// after its lookup and conversion
		if conv != 0 && conv != 's' && conv != 'r' && conv != 'a' {
			return "", valueErr("Unknown conversion specifier %c", conv)
		}
		return "", valueErr("Max string recursion exceeded")
	}
	if strings.ContainsAny(spec, "{}") {
		if spec, err = f.vformat(spec, depth-1); err != nil {
			return "", err
		}
	}
	switch conv {
	case 0:
	case 's':
		s, err := ToStr(f.c, v)
		if err != nil {
			return "", err
		}
		v = StrV(s)
	case 'r':
		v = StrV(reprOf(f.c, v))
	case 'a':
		v = StrV(asciiRepr(f.c, v))
	default:
		if !f.markup && !sandboxed(f.c) && (conv <= 32 || conv >= 127) {
			// str.format writes a character outside printable ASCII
			// as its code (string.Formatter writes the character)
			return "", valueErr("Unknown conversion specifier \\x%x", conv)
		}
		return "", valueErr("Unknown conversion specifier %c", conv)
	}
	if f.markup && v.IsSafe() {
		if spec != "" {
			return "", valueErr("Unsupported format specification for Markup.")
		}
		return v.s, nil
	}
	f.safe = Value{} // (a field of the spec may have set it)
	out, err := FormatValue(f.c, v, spec)
	if err != nil {
		return "", err
	}
	if f.markup {
		out = escapeFn(f.c)(out)
	} else if !sandboxed(f.c) && unformattedMarkup(v, spec, out) {
		// (the sandbox's string.Formatter joins the parts into a str)
		f.safe = v
	}
	return out, nil
}

// lookup resolves a field name: an index or a keyword, then .attr and
// [key] parts.
func (f *formatter) lookup(name string) (Value, error) {
	end := strings.IndexAny(name, ".[")
	if end < 0 {
		end = len(name)
	}
	first, rest := name[:end], name[end:]
	// Markup's format and the sandbox's are string.Formatter's vformat
	// (markupsafe's EscapeFormatter, Jinja2's SandboxedFormatter), not
	// str.format: a positional field reads args[i] (format_map's args are
	// ()), a named one mapping[name], with Python's errors.
	formatter := f.markup || sandboxed(f.c)
	positional := func(n int) (Value, error) {
		if f.mapping != nil && !formatter {
			return Value{}, valueErr("Format string contains positional fields")
		}
		if n >= len(f.args) {
			if formatter {
				return Value{}, pyErr("IndexError", "tuple index out of range")
			}
			return Value{}, pyErr("IndexError", "Replacement index %d out of range for positional args tuple", n)
		}
		return f.args[n], nil
	}
	// string.Formatter numbers a field only when its whole name is empty
	// or digits: "{.real}" reads kwargs[''] (KeyError), and "{0.real}"
	// neither numbers nor switches the numbering
	whole := !formatter || rest == ""
	var v Value
	var err error
	switch {
	case first == "" && whole:
		if f.manual {
			return Value{}, valueErr("cannot switch from manual field specification to automatic field numbering")
		}
		if v, err = positional(f.auto); err != nil {
			return Value{}, err
		}
		f.auto++
	case isDigits(first):
		n, err := strconv.Atoi(first)
		if err != nil {
			// beyond a Py_ssize_t: the parser's error, before any other
			return Value{}, valueErr("Too many decimal digits in format string")
		}
		if whole {
			if f.auto > 0 {
				if formatter {
					// string.Formatter words both switches the same way
					return Value{}, valueErr("cannot switch from manual field specification to automatic field numbering")
				}
				return Value{}, valueErr("cannot switch from automatic field numbering to manual field specification")
			}
			f.manual = true
		}
		if v, err = positional(n); err != nil {
			return Value{}, err
		}
	case f.mapping != nil:
		if v, err = pySubscript(*f.mapping, StrV(first)); err != nil {
			return Value{}, err
		}
	default:
		found := false
		for _, k := range f.kw {
			if k.Name == first {
				v, found = k.Value, true
			}
		}
		if !found {
			return Value{}, pyErr("KeyError", "%s", reprStr(first))
		}
	}
	for rest != "" {
		if rest[0] == '.' {
			end := strings.IndexAny(rest[1:], ".[")
			if end < 0 {
				end = len(rest) - 1
			}
			attr := rest[1 : 1+end]
			rest = rest[1+end:]
			if attr == "" {
				return Value{}, valueErr("Empty attribute in format string")
			}
			if sandboxed(f.c) {
				r, err := GetAttr(f.c, v, attr)
				if err != nil {
					return Value{}, err
				}
				v = r
				continue
			}
			r, err := formatAttr(f.c, v, attr)
			if err != nil {
				return Value{}, err
			}
			v = r
			continue
		}
		if rest[0] != '[' {
			return Value{}, valueErr("Only '.' or '[' may follow ']' in format field specifier")
		}
		close := strings.IndexByte(rest, ']')
		if close < 0 {
			return Value{}, valueErr("Missing ']' in format string")
		}
		key := rest[1:close]
		rest = rest[close+1:]
		if key == "" {
			return Value{}, valueErr("Empty attribute in format string")
		}
		var k Value
		if isDigits(key) {
			n, err := strconv.ParseInt(key, 10, 64)
			if err != nil {
				return Value{}, valueErr("Too many decimal digits in format string")
			}
			k = IntV(n)
		} else {
			k = StrV(key)
		}
		if sandboxed(f.c) {
			// SandboxedFormatter looks items up with environment.getitem
			r, err := GetItem(f.c, v, k)
			if err != nil {
				return Value{}, err
			}
			v = r
			continue
		}
		r, err := pySubscript(v, k)
		if err != nil {
			return Value{}, err
		}
		v = r
	}
	return v, nil
}

// pySubscript is Python's v[k] as a format field's [key] part and a
// format_map mapping read it: Python's errors, no attribute fallback.
func pySubscript(v, k Value) (Value, error) {
	if v.kind == KindUndefined {
		return Value{}, v.undefErr()
	}
	r, ok, err := item(v, k)
	if err != nil {
		return Value{}, err
	}
	if !ok {
		switch v.kind {
		case KindList, KindTuple, KindStr:
			if k.kind == KindStr && v.kind == KindStr {
				return Value{}, typeErr("string indices must be integers, not 'str'")
			}
			if k.kind == KindStr {
				return Value{}, typeErr("%s indices must be integers or slices, not str", TypeName(v))
			}
			return Value{}, pyErr("IndexError", "%s index out of range", TypeName(v))
		case KindDict:
		case KindObject:
			if _, view := v.ref.(*dictView); view {
				return Value{}, typeErr("'%s' object is not subscriptable", TypeName(v))
			}
			if k, class := v.ref.(*pyClass); class {
				return Value{}, typeErr("type '%s' is not subscriptable", k.name)
			}
			if _, rng := v.ref.(*rangeObj); rng || isLazyRange(v) {
				if k.kind == KindStr {
					return Value{}, typeErr("range indices must be integers or slices, not str")
				}
				return Value{}, pyErr("IndexError", "range object index out of range")
			}
			if _, b := v.ref.(*bytesObj); b {
				if k.kind == KindStr {
					return Value{}, typeErr("byte indices must be integers or slices, not str")
				}
				return Value{}, pyErr("IndexError", "index out of range")
			}
			if _, ok := v.ref.(Indexable); !ok {
				return Value{}, typeErr("'%s' object is not subscriptable", TypeName(v))
			}
		default:
			return Value{}, typeErr("'%s' object is not subscriptable", TypeName(v))
		}
		return Value{}, pyErr("KeyError", "%s", Repr(k))
	}
	return r, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// asciiRepr is Python's ascii(v): repr with every non-ASCII character
// escaped, in the render of c (reprOf).
func asciiRepr(c *Ctx, v Value) string {
	r := reprOf(c, v)
	if isASCII(r) {
		return r
	}
	var b strings.Builder
	for _, ch := range r {
		switch {
		case ch < utf8.RuneSelf:
			b.WriteRune(ch)
		case ch <= 0xff:
			b.WriteString(`\x`)
			b.WriteByte(hexDigits[ch>>4])
			b.WriteByte(hexDigits[ch&15])
		case ch <= 0xffff:
			b.WriteString(`\u`)
			for sh := 12; sh >= 0; sh -= 4 {
				b.WriteByte(hexDigits[ch>>uint(sh)&15])
			}
		default:
			b.WriteString(`\U`)
			for sh := 28; sh >= 0; sh -= 4 {
				b.WriteByte(hexDigits[ch>>uint(sh)&15])
			}
		}
	}
	return b.String()
}

// percentFormat is Python's str % args; on Markup the arguments are
// escaped and the result is Markup (markupHelperArg).
func percentFormat(c *Ctx, f, args Value) (Value, error) {
	p := percentFormatter{c: c, s: f.s, markup: f.IsSafe()}
	p.list, p.mapping = percentArgs(args)
	var b strings.Builder
	for p.i = 0; p.i < len(p.s); p.i++ {
		if p.s[p.i] != '%' {
			b.WriteByte(p.s[p.i])
			continue
		}
		out, err := p.field()
		if err != nil {
			return Value{}, err
		}
		b.WriteString(out)
	}
	if p.argi < len(p.list) && p.mapping == nil {
		return Value{}, typeErr("not all arguments converted during string formatting")
	}
	if b.Len() > 1<<16 {
		if err := grow(c, b.Len()); err != nil {
			return Value{}, err
		}
	}
	return Value{kind: KindStr, s: b.String(), flags: f.flags & flagSafe}, nil
}

// percentArgs reads the right operand of str % as Python does: the
// positional arguments, and the mapping that a %(key) field indexes when
// the operand is one.
func percentArgs(args Value) (list []Value, mapping *Value) {
	switch args.kind {
	case KindTuple:
		return args.list().Items, nil
	case KindObject:
		switch o := args.ref.(type) {
		case *namedTuple:
			// a tuple subclass: its items are the arguments
			return o.items, nil
		case *pyClass, *dictView:
			// a class is subscripted through __class_getitem__, which
			// PyMapping_Check does not see; dict views have no items
			return []Value{args}, nil
		case *genericAlias:
			// types.GenericAlias has __getitem__: a mapping
		default:
			if _, ok := args.ref.(Indexable); !ok {
				return []Value{args}, nil
			}
		}
		return []Value{args}, &args
	case KindDict, KindList, KindUndefined:
		// anything with __getitem__ but a tuple or a str is a mapping to
		// Python's %, so extra arguments are not an error; Undefined has
		// __getitem__ (which raises), and %s prints it as ''
		return []Value{args}, &args
	}
	return []Value{args}, nil
}

// percentFormatter is one str % args being formatted: the format, the
// index of the byte read, and the arguments taken so far.
type percentFormatter struct {
	c       *Ctx
	s       string
	i       int
	list    []Value
	argi    int
	mapping *Value
	markup  bool
}

// next takes the next positional argument.
func (p *percentFormatter) next() (Value, error) {
	if p.argi >= len(p.list) {
		return Value{}, typeErr("not enough arguments for format string")
	}
	p.argi++
	return p.list[p.argi-1], nil
}

// esc escapes the text of a conversion when the format is Markup and
// the value is not.
func (p *percentFormatter) esc(s string, v Value) string {
	if p.markup && !v.IsSafe() {
		return escapeFn(p.c)(s)
	}
	return s
}

// field formats the conversion whose '%' is at p.i, leaving p.i at its
// last byte.
func (p *percentFormatter) field() (string, error) {
	s := p.s
	start := p.i
	p.i++
	if p.i >= len(s) {
		return "", valueErr("incomplete format")
	}
	var v Value
	haveV, starKey := false, false
	if s[p.i] == '(' {
		r, err := p.keyed()
		if err != nil {
			return "", err
		}
		v, haveV = r, true
	}
	spec := p.flags()
	// num reads a width or a precision; a * takes the next argument,
	// which CPython converts to a C ssize_t (the width) or a C int (the
	// precision, where a negative one is 0)
	num := func(prec bool) (int, error) {
		if p.i >= len(s) || s[p.i] != '*' {
			n := 0
			for p.i < len(s) && s[p.i] >= '0' && s[p.i] <= '9' {
				n = n*10 + int(s[p.i]-'0')
				p.i++
			}
			return n, nil
		}
		p.i++
		a := v
		if haveV && !starKey {
			// a keyed field's * takes the key's item, which leaves the
			// conversion none (CPython's getnextarg of a mapping)
			starKey = true
		} else {
			var err error
			if a, err = p.next(); err != nil {
				return 0, err
			}
		}
		return starNum(a, prec)
	}
	w, err := num(false)
	if err != nil {
		return "", err
	}
	if w < 0 {
		// CPython negates a C ssize_t: the most negative one stays
		// negative, which pads nothing
		spec.align = '<'
		if w != math.MinInt64 {
			w = -w
		}
	}
	spec.width = w
	if p.i < len(s) && s[p.i] == '.' {
		p.i++
		prec, err := num(true)
		if err != nil {
			return "", err
		}
		if prec > math.MaxInt32 {
			return "", valueErr("precision too big")
		}
		spec.precision = prec
	}
	for p.i < len(s) && (s[p.i] == 'h' || s[p.i] == 'l' || s[p.i] == 'L') {
		p.i++
	}
	if p.i >= len(s) {
		return "", valueErr("incomplete format")
	}
	typ := s[p.i]
	if typ == '%' && !haveV && p.i == start+1 {
		return "%", nil
	}
	if starKey {
		return "", typeErr("not enough arguments for format string")
	}
	if !haveV {
		if v, err = p.next(); err != nil {
			return "", err
		}
	}
	if spec.zero && spec.align != '<' {
		spec.fill, spec.align = '0', '='
	}
	if spec.align == 0 {
		spec.align = '>'
	}
	if p.markup {
		if v, err = markupHelperArg(typ, v); err != nil {
			return "", err
		}
	}
	switch typ {
	case 's', 'r', 'a':
		return p.text(typ, spec, v)
	case 'd', 'i', 'u', 'x', 'X', 'o':
		return percentInt(p.c, typ, spec, v)
	case 'e', 'E', 'f', 'F', 'g', 'G':
		return percentFloat(p.c, typ, spec, v)
	case 'c':
		return p.char(spec, v)
	}
	r, _ := utf8.DecodeRuneInString(s[p.i:])
	return "", valueErr("unsupported format character '%c' (0x%x) at index %d", r, r, runeCountW(s[:p.i]))
}

// keyed reads the (key) at p.i and returns the mapping's item, leaving
// p.i after the ')'. Python's % takes the item as the one argument left,
// which this conversion uses: a later one without a key has none.
func (p *percentFormatter) keyed() (Value, error) {
	s, mapping := p.s, p.mapping
	if mapping == nil {
		return Value{}, typeErr("format requires a mapping")
	}
	depth, j := 1, p.i+1
	for j < len(s) && depth > 0 {
		if s[j] == '(' {
			depth++
		} else if s[j] == ')' {
			depth--
		}
		j++
	}
	if depth > 0 {
		return Value{}, valueErr("incomplete format key")
	}
	key := s[p.i+1 : j-1]
	if mapping.kind == KindList {
		return Value{}, typeErr("list indices must be integers or slices, not str")
	}
	switch o := mapping.ref.(type) {
	case *rangeObj, *lazyRange:
		return Value{}, typeErr("range indices must be integers or slices, not str")
	case *bytesObj:
		return Value{}, typeErr("byte indices must be integers or slices, not str")
	case *genericAlias:
		return Value{}, typeErr("%s is not a generic class", o.Repr())
	}
	if mapping.kind == KindUndefined {
		return Value{}, mapping.undefErr()
	}
	r, ok, err := item(*mapping, StrV(key))
	if err != nil {
		return Value{}, err
	}
	if !ok {
		return Value{}, pyErr("KeyError", "%s", reprStr(key))
	}
	p.list, p.argi = []Value{r}, 1
	p.i = j
	return r, nil
}

// flags reads a conversion's flags (- + space # 0) at p.i.
func (p *percentFormatter) flags() fmtSpec {
	spec := fmtSpec{fill: ' ', precision: -1}
	for ; p.i < len(p.s); p.i++ {
		switch p.s[p.i] {
		case '-':
			spec.align = '<'
		case '+':
			spec.sign = '+'
		case ' ':
			if spec.sign != '+' {
				spec.sign = ' '
			}
		case '#':
			spec.alt = true
		case '0':
			spec.zero = true
		default:
			return spec
		}
	}
	return spec
}

// starNum is the width (a C ssize_t) or the precision (a C int, a
// negative one 0) that a * takes from its argument a.
func starNum(a Value, prec bool) (int, error) {
	if !isIntLike(a) {
		return 0, typeErr("* wants int")
	}
	if prec {
		if a.ref != nil || a.n > math.MaxInt32 || a.n < math.MinInt32 {
			return 0, pyErr("OverflowError", "Python int too large to convert to C int")
		}
		return max(int(a.n), 0), nil
	}
	if a.ref != nil {
		return 0, pyErr("OverflowError", "Python int too large to convert to C ssize_t")
	}
	return int(a.n), nil
}

// text is %s, %r and %a.
func (p *percentFormatter) text(typ byte, spec fmtSpec, v Value) (string, error) {
	var out string
	switch typ {
	case 's':
		s, err := ToStr(p.c, v)
		if err != nil {
			return "", err
		}
		out = p.esc(s, v)
	case 'r':
		out = reprOf(p.c, v)
	default:
		out = asciiRepr(p.c, v)
	}
	if p.markup && typ != 's' {
		// the helper's __repr__ escapes the repr, a str
		out = escapeFn(p.c)(out)
	}
	if spec.precision >= 0 {
		// the precision cuts what the helper gave, escaped
		if rs := []rune(out); len(rs) > spec.precision {
			out = string(rs[:spec.precision])
		}
	}
	return padText(p.c, spec, out)
}

// char is %c: a str of one character, or an int's code point.
func (p *percentFormatter) char(spec fmtSpec, v Value) (string, error) {
	var out string
	switch {
	case v.kind == KindStr && runeCountW(v.s) == 1:
		out = v.s
	case isIntLike(v) && v.ref == nil && v.n >= 0 && v.n <= 0x10ffff:
		out = runeStrW(rune(v.n))
	case isIntLike(v):
		return "", pyErr("OverflowError", "%%c arg not in range(0x110000)")
	default:
		return "", typeErr("%%c requires int or char")
	}
	return padText(p.c, spec, p.esc(out, v))
}

// percentInt is %d, %i, %u, %x, %X and %o.
func percentInt(c *Ctx, typ byte, spec fmtSpec, v Value) (string, error) {
	decimal := typ == 'd' || typ == 'i' || typ == 'u'
	if v.kind == KindUndefined && decimal {
		// int() of Undefined raises; x and o need __index__, which
		// Undefined lacks (a TypeError below)
		return "", v.undefErr()
	}
	if !isNum(v) {
		if decimal {
			return "", typeErr("%%%c format: a real number is required, not %s", typ, TypeName(v))
		}
		return "", typeErr("%%%c format: an integer is required, not %s", typ, TypeName(v))
	}
	if v.kind == KindFloat {
		if !decimal {
			return "", typeErr("%%%c format: an integer is required, not float", typ)
		}
		fl := v.f()
		if fl != fl {
			return "", valueErr("cannot convert float NaN to integer")
		}
		if fl-fl != 0 {
			return "", pyErr("OverflowError", "cannot convert float infinity to integer")
		}
		v = bigFloatInt(fl)
	}
	t := typ
	if decimal {
		t = 'd'
	}
	digitsSpec := spec
	digitsSpec.width, digitsSpec.typ = 0, t
	digitsSpec.fill, digitsSpec.align = ' ', '>'
	body, err := formatIntSpec(v, digitsSpec)
	if err != nil {
		return "", err
	}
	if spec.precision > 0 {
		sign := ""
		if body != "" && (body[0] == '-' || body[0] == '+' || body[0] == ' ') {
			sign, body = body[:1], body[1:]
		}
		pre := ""
		if spec.alt && len(body) > 2 && body[0] == '0' && !decimal {
			pre, body = body[:2], body[2:]
		}
		if n := spec.precision - len(body); n > 0 {
			body = strings.Repeat("0", n) + body
		}
		body = sign + pre + body
	}
	if err := wideField(c, spec.width); err != nil {
		return "", err
	}
	return padPrintf(spec, body), nil
}

// percentFloat is %e, %E, %f, %F, %g and %G.
func percentFloat(c *Ctx, typ byte, spec fmtSpec, v Value) (string, error) {
	if v.kind == KindUndefined {
		return "", v.undefErr()
	}
	if !isNum(v) {
		return "", typeErr("must be real number, not %s", TypeName(v))
	}
	fl, err := toFloat(v)
	if err != nil {
		return "", err
	}
	fs := spec
	fs.width, fs.typ, fs.fill, fs.align = 0, typ, ' ', '>'
	if fs.precision < 0 {
		fs.precision = 6
	}
	body, err := formatFloatSpec(fl, fs)
	if err != nil {
		return "", err
	}
	if err := wideField(c, spec.width); err != nil {
		return "", err
	}
	return padPrintf(spec, body), nil
}

// wideField is Python's MemoryError for a field wider than the render's
// size limit or the package's ceiling, checked when the padding is about
// to be built (after the value's own errors, as CPython orders them).
func wideField(c *Ctx, width int) error {
	if width > 1<<16 {
		return growLimited(c, width)
	}
	return nil
}

// padText lays out the text of %s, %r, %a and %c in its width: on the
// right unless '-' says left, with spaces even under the '0' flag.
func padText(c *Ctx, spec fmtSpec, out string) (string, error) {
	if spec.align == '=' {
		spec.fill, spec.align = ' ', '>'
	}
	if err := wideField(c, spec.width); err != nil {
		return "", err
	}
	return spec.pad("", out, '>')
}

// padPrintf lays out a number of % formatting in its width: '-' left,
// '0' zeros after the sign, spaces before it otherwise.
func padPrintf(spec fmtSpec, body string) string {
	n := runeCountW(body)
	if n >= spec.width {
		return body
	}
	fill := spec.width - n
	switch spec.align {
	case '<':
		return body + strings.Repeat(" ", fill)
	case '=':
		sign := ""
		if body != "" && (body[0] == '-' || body[0] == '+' || body[0] == ' ') {
			sign, body = body[:1], body[1:]
		}
		pre := ""
		if len(body) > 1 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X' || body[1] == 'o') {
			pre, body = body[:2], body[2:]
		}
		// inf and nan are zero-padded too ('%05.1f' % inf is '00inf')
		return sign + pre + strings.Repeat("0", fill) + body
	}
	return strings.Repeat(" ", fill) + body
}

// formatIntSpec formats an int with a parsed spec.
func formatIntSpec(v Value, s fmtSpec) (string, error) {
	spec := ""
	if s.sign != 0 {
		spec += string(s.sign)
	}
	if s.alt {
		spec += "#"
	}
	spec += string(s.typ)
	// printf's %#o writes 0o, as format's does, in Python 3
	return formatInt(v, spec)
}

// markupHelperArg is what Markup.__mod__'s _MarkupEscapeHelper, which
// wraps each argument v, gives the conversion typ: int(v) for %d, %i and
// %u (a TypeError of int() is the conversion's, naming the helper),
// float(v) for the float conversions, and a TypeError for %x, %X, %o (the
// helper has no __index__) and %c (it is neither int nor str); its str and
// repr are escaped (percentFormat).
func markupHelperArg(typ byte, v Value) (Value, error) {
	switch typ {
	case 'x', 'X', 'o':
		return Value{}, typeErr("%%%c format: an integer is required, not _MarkupEscapeHelper", typ)
	case 'c':
		return Value{}, typeErr("%%c requires int or char")
	case 'd', 'i', 'u':
		r, err := pyInt(v, 10)
		if e, ok := err.(*Error); ok && e.Kind == "TypeError" {
			return Value{}, typeErr("%%%c format: a real number is required, not _MarkupEscapeHelper", typ)
		}
		return r, err
	case 'e', 'E', 'f', 'F', 'g', 'G':
		f, err := pyFloat(v)
		return FloatV(f), err
	}
	return v, nil
}

// formatAttr is Python's getattr(v, attr) as str.format reads a field's
// attribute outside the sandbox: a dunder method too, and the
// AttributeError each kind of object raises.
func formatAttr(c *Ctx, v Value, attr string) (Value, error) {
	if v.kind == KindUndefined && attr != "__class__" {
		if !strings.HasPrefix(attr, "__") {
			// Undefined.__getattr__
			return Value{}, v.undefErr()
		}
		if undefinedDunders[attr] {
			if r, ok := undefinedDunder(v, attr); ok {
				return r, nil
			}
			return Value{}, &Error{Kind: "Unsupported", Msg: "the attribute " + attr + " of 'Undefined' objects is not supported"}
		}
		// Undefined.__getattr__ of a dunder
		return Value{}, pyErr("AttributeError", "%s", attr)
	}
	r, ok, err := pyGetattr(c, v, attr)
	if err != nil || ok {
		return r, err
	}
	if k, isClass := v.ref.(*pyClass); isClass && v.kind == KindObject {
		return Value{}, pyErr("AttributeError", "type object '%s' has no attribute '%s'", k.name, attr)
	}
	if TypeName(v) == "Namespace" {
		// Namespace.__getattribute__ raises AttributeError(name)
		return Value{}, pyErr("AttributeError", "%s", attr)
	}
	return Value{}, pyErr("AttributeError", "'%s' object has no attribute '%s'", TypeName(v), attr)
}
