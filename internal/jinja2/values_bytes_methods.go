package jinja2

import "strings"

// The methods of bytes that take no argument, as CPython's bytes_methods.c
// has them: case mapping and classification of the ASCII letters, digits
// and whitespace only (bytes above 0x7f are neither letters nor space,
// unlike str's), and hex(). The others stay refused by name.

// isASCIILower and the like are Py_ISLOWER and the like.
func isASCIILower(c byte) bool { return 'a' <= c && c <= 'z' }
func isASCIIUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isASCIIAlpha(c byte) bool { return isASCIILower(c) || isASCIIUpper(c) }
func isASCIIDigit(c byte) bool { return '0' <= c && c <= '9' }
func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\x0b' || c == '\x0c'
}

// bytesNoArgMethod returns the method name of b taking no arguments, ok
// false when bytes has no such method the package implements.
func bytesNoArgMethod(name string) (func(b string) Value, bool) {
	mapBytes := func(f func(i int, c byte, prev bool) (byte, bool)) func(b string) Value {
		return func(b string) Value {
			out := []byte(b)
			prev := false
			for i := range out {
				out[i], prev = f(i, out[i], prev)
			}
			return ObjectV(&bytesObj{b: string(out)})
		}
	}
	all := func(test func(c byte) bool) func(b string) Value {
		return func(b string) Value {
			if b == "" {
				return BoolV(false)
			}
			for i := 0; i < len(b); i++ {
				if !test(b[i]) {
					return BoolV(false)
				}
			}
			return BoolV(true)
		}
	}
	switch name {
	case "upper":
		return mapBytes(func(_ int, c byte, _ bool) (byte, bool) {
			if isASCIILower(c) {
				c -= 32
			}
			return c, false
		}), true
	case "lower":
		return mapBytes(func(_ int, c byte, _ bool) (byte, bool) {
			if isASCIIUpper(c) {
				c += 32
			}
			return c, false
		}), true
	case "swapcase":
		return mapBytes(func(_ int, c byte, _ bool) (byte, bool) {
			switch {
			case isASCIILower(c):
				c -= 32
			case isASCIIUpper(c):
				c += 32
			}
			return c, false
		}), true
	case "capitalize":
		return mapBytes(func(i int, c byte, _ bool) (byte, bool) {
			switch {
			case i == 0 && isASCIILower(c):
				c -= 32
			case i > 0 && isASCIIUpper(c):
				c += 32
			}
			return c, false
		}), true
	case "title":
		// a letter after a cased letter is lowered, after anything else
		// raised
		return mapBytes(func(_ int, c byte, prev bool) (byte, bool) {
			switch {
			case isASCIILower(c):
				if !prev {
					c -= 32
				}
				return c, true
			case isASCIIUpper(c):
				if prev {
					c += 32
				}
				return c, true
			}
			return c, false
		}), true
	case "isalpha":
		return all(isASCIIAlpha), true
	case "isdigit":
		return all(isASCIIDigit), true
	case "isalnum":
		return all(func(c byte) bool { return isASCIIAlpha(c) || isASCIIDigit(c) }), true
	case "isspace":
		return all(isASCIISpace), true
	case "isascii":
		return func(b string) Value {
			for i := 0; i < len(b); i++ {
				if b[i] >= 0x80 {
					return BoolV(false)
				}
			}
			return BoolV(true)
		}, true
	case "islower", "isupper":
		want, other := isASCIILower, isASCIIUpper
		if name == "isupper" {
			want, other = isASCIIUpper, isASCIILower
		}
		return func(b string) Value {
			cased := false
			for i := 0; i < len(b); i++ {
				if other(b[i]) {
					return BoolV(false)
				}
				cased = cased || want(b[i])
			}
			return BoolV(cased)
		}, true
	case "istitle":
		return func(b string) Value {
			cased, prev := false, false
			for i := 0; i < len(b); i++ {
				c := b[i]
				switch {
				case isASCIIUpper(c):
					if prev {
						return BoolV(false)
					}
					prev, cased = true, true
				case isASCIILower(c):
					if !prev {
						return BoolV(false)
					}
					prev, cased = true, true
				default:
					prev = false
				}
			}
			return BoolV(cased)
		}, true
	case "hex":
		return func(b string) Value {
			const hex = "0123456789abcdef"
			var sb strings.Builder
			sb.Grow(2 * len(b))
			for i := 0; i < len(b); i++ {
				sb.WriteByte(hex[b[i]>>4])
				sb.WriteByte(hex[b[i]&15])
			}
			return StrV(sb.String())
		}, true
	}
	return nil, false
}

// bytesModPlain is bytes % arg for bytes holding no %: the bytes, unless
// an argument is left over ("not all arguments converted during bytes
// formatting"): one that is no tuple and no mapping (a value with
// __getitem__ other than str and bytes), or a tuple that is not empty.
// ok is false when the bytes hold a %, which the package does not format.
func bytesModPlain(o *bytesObj, arg Value) (Value, bool, error) {
	if strings.IndexByte(o.b, '%') >= 0 {
		return Value{}, false, nil
	}
	// (as the str % of pyfmt_call.go reads its argument)
	leftOver := true
	switch arg.kind {
	case KindTuple:
		leftOver = len(arg.list().Items) > 0
	case KindDict, KindList, KindUndefined:
		leftOver = false
	case KindObject:
		switch r := arg.ref.(type) {
		case *bytesObj, *pyClass, *dictView:
		case *namedTuple:
			leftOver = len(r.items) > 0
		case *genericAlias:
			leftOver = false
		default:
			_, indexable := arg.ref.(Indexable)
			leftOver = !indexable
		}
	}
	if leftOver {
		return Value{}, true, typeErr("not all arguments converted during bytes formatting")
	}
	return ObjectV(o), true, nil
}

// byteCodecs are the names (as codecs.lookup normalizes them) of the two
// codecs of one byte per character that str.encode takes besides UTF-8:
// ascii (limit 128) and latin-1 (limit 256), with their aliases.
var byteCodecs = map[string]string{
	"ascii": "ascii", "646": "ascii", "ansi_x3.4_1968": "ascii", "ansi_x3.4_1986": "ascii", "ansi_x3_4_1968": "ascii",
	"cp367": "ascii", "csascii": "ascii", "ibm367": "ascii", "iso646_us": "ascii", "iso_646.irv_1991": "ascii",
	"iso_ir_6": "ascii", "us": "ascii", "us_ascii": "ascii",
	"latin_1": "latin-1", "8859": "latin-1", "cp819": "latin-1", "csisolatin1": "latin-1", "ibm819": "latin-1",
	"iso8859": "latin-1", "iso8859_1": "latin-1", "iso_8859_1": "latin-1", "iso_8859_1_1987": "latin-1",
	"iso_ir_100": "latin-1", "l1": "latin-1", "latin": "latin-1", "latin1": "latin-1",
}

// normalizeEncoding is encodings.normalize_encoding of the name, its ASCII lowered:
// each run of characters other than letters, digits and '.' becomes one
// '_', none at either end; a letter or digit beyond ASCII is dropped.
func normalizeEncoding(name string) string {
	var b strings.Builder
	pending := false
	for _, r := range name {
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A' // (codecs.lookup lowers ASCII only)
		}
		if r == '.' || pyIsAlnum(r) {
			if pending && b.Len() > 0 {
				b.WriteByte('_')
			}
			pending = false
			if r < 0x80 {
				// (a letter or digit beyond ASCII ends a run, and is dropped)
				b.WriteRune(r)
			}
			continue
		}
		pending = true
	}
	return b.String()
}

// encodeByteCodec is s.encode(encoding, errors) for the ascii and latin-1
// codecs: the characters below the codec's limit as bytes; a run of
// characters at or above it is UnicodeEncodeError under strict, dropped
// under ignore, '?' each under replace; another registered handler is
// refused by name, a name no handler has is LookupError. Any other
// encoding is refused by name (Python knows more codecs than the package).
func encodeByteCodec(s, encoding, errors string) (Value, error) {
	norm := normalizeEncoding(encoding)
	codec, ok := byteCodecs[norm]
	if !ok {
		codec, ok = byteCodecs[strings.ReplaceAll(norm, ".", "_")]
	}
	if !ok {
		if err := codecLookupErr(StrV(encoding), false, "encode"); err != nil {
			return Value{}, err
		}
		return Value{}, &Error{Kind: "Unsupported", Msg: "str.encode() with the encoding " + pyQuote(encoding) + " is not supported"}
	}
	limit := rune(128)
	if codec == "latin-1" {
		limit = 256
	}
	rs := runesW(s)
	out := make([]byte, 0, len(rs))
	for i := 0; i < len(rs); {
		if rs[i] < limit {
			out = append(out, byte(rs[i]))
			i++
			continue
		}
		end := i + 1
		for end < len(rs) && rs[end] >= limit {
			end++
		}
		switch errors {
		case "strict":
			what := "character " + charEscape(rs[i]) + " in position " + istr(i)
			if end-i > 1 {
				what = "characters in position " + istr(i) + "-" + istr(end-1)
			}
			return Value{}, pyErr("UnicodeEncodeError", "'%s' codec can't encode %s: ordinal not in range(%d)", codec, what, limit)
		case "ignore":
		case "replace":
			for k := i; k < end; k++ {
				out = append(out, '?')
			}
		case "xmlcharrefreplace", "backslashreplace", "namereplace", "surrogateescape", "surrogatepass":
			return Value{}, &Error{Kind: "Unsupported", Msg: "str.encode() with the error handler " + pyQuote(errors) + " is not supported"}
		default:
			return Value{}, pyErr("LookupError", "unknown error handler name %s", pyQuote(errors))
		}
		i = end
	}
	return ObjectV(&bytesObj{b: string(out)}), nil
}

// charEscape is how a UnicodeEncodeError names one character: '\xe9',
// '\u20ac', '\U0001f600'.
func charEscape(r rune) string {
	const hex = "0123456789abcdef"
	n := 8
	prefix := `\U`
	switch {
	case r < 0x100:
		n, prefix = 2, `\x`
	case r < 0x10000:
		n, prefix = 4, `\u`
	}
	b := []byte("'" + prefix)
	for k := n - 1; k >= 0; k-- {
		b = append(b, hex[(r>>(4*k))&15])
	}
	return string(append(b, '\''))
}

// codecNameSet is the set of the space-separated names in list.
func codecNameSet(list string) map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(list) {
		m[n] = true
	}
	return m
}

// codecLookupErr is the error str.encode or bytes.decode (op) raises for
// the encoding name before it encodes or decodes anything: a NUL in it (or
// in errors, nulErrors) is ValueError, a name encodings.search_function
// finds no codec of is LookupError, as is a codec that is no text
// encoding; nil for a str naming a text codec, or for another value.
func codecLookupErr(encoding Value, nulErrors bool, op string) error {
	if encoding.kind != KindStr {
		return nil
	}
	name := encoding.s
	if strings.IndexByte(name, 0) >= 0 || nulErrors {
		return valueErr("embedded null character")
	}
	norm := normalizeEncoding(name)
	dotless := strings.ReplaceAll(norm, ".", "_")
	if !pyCodecAliases[norm] && !pyCodecAliases[dotless] && (strings.Contains(norm, ".") || !pyCodecModules[norm]) {
		// encodings.search_function finds no codec of the name
		return pyErr("LookupError", "unknown encoding: %s", name)
	}
	if pyNonTextCodecs[norm] || pyNonTextCodecs[dotless] {
		return pyErr("LookupError", "%s is not a text encoding; use codecs.%s() to handle arbitrary codecs", reprStr(name), op)
	}
	return nil
}
