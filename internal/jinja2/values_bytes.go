package jinja2

import (
	"math"
	"strings"
	"unicode/utf8"
)

// bytesObj is Python's bytes, as str.encode() gives it: it prints as
// b'…', has a length, items (ints), decode(), the methods that take no
// argument (values_bytes_methods.go) and most of those that take some
// (values_bytes_args.go). Its other methods are refused by name.
type bytesObj struct{ b string }

func (o *bytesObj) TypeName() string { return "bytes" }

// Repr is bytes.__repr__: single quotes unless the bytes hold ' and no ".
func (o *bytesObj) Repr() string {
	q := byte('\'')
	if strings.IndexByte(o.b, '\'') >= 0 && strings.IndexByte(o.b, '"') < 0 {
		q = '"'
	}
	var sb strings.Builder
	sb.WriteByte('b')
	sb.WriteByte(q)
	const hex = "0123456789abcdef"
	for i := 0; i < len(o.b); i++ {
		c := o.b[i]
		switch {
		case c == q || c == '\\':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case c == '\t':
			sb.WriteString(`\t`)
		case c == '\n':
			sb.WriteString(`\n`)
		case c == '\r':
			sb.WriteString(`\r`)
		case c < 0x20 || c >= 0x7f:
			sb.WriteString(`\x`)
			sb.WriteByte(hex[c>>4])
			sb.WriteByte(hex[c&15])
		default:
			sb.WriteByte(c)
		}
	}
	sb.WriteByte(q)
	return sb.String()
}

func (o *bytesObj) Len() int { return len(o.b) }

// contains is bytes.__contains__: a byte value, or a bytes substring.
func (o *bytesObj) contains(item Value) (bool, error) {
	if isIntLike(item) {
		if item.isBig() || item.n < 0 || item.n > 255 {
			return false, valueErr("byte must be in range(0, 256)")
		}
		return strings.IndexByte(o.b, byte(item.n)) >= 0, nil
	}
	if item.kind == KindObject {
		if p, ok := item.ref.(*bytesObj); ok {
			return strings.Contains(o.b, p.b), nil
		}
	}
	return false, typeErr("a bytes-like object is required, not '%s'", TypeName(item))
}

func (o *bytesObj) Iter(*Ctx) ([]Value, error) {
	out := make([]Value, len(o.b))
	for i := 0; i < len(o.b); i++ {
		out[i] = IntV(int64(o.b[i]))
	}
	return out, nil
}

func (o *bytesObj) Item(key Value) (Value, bool) {
	if !isIntLike(key) {
		return Value{}, false
	}
	i, ok := index(key, len(o.b))
	if !ok {
		return Value{}, false
	}
	return IntV(int64(o.b[i])), true
}

func (o *bytesObj) Equal(v Value) bool {
	if v.kind != KindObject {
		return false
	}
	p, ok := v.ref.(*bytesObj)
	return ok && p.b == o.b
}

// bytesMethods are the methods of bytes, which the package does not
// implement but decode, bytesNoArgMethod's and argMethod's.
var bytesMethods = map[string]bool{
	"capitalize": true, "center": true, "count": true, "endswith": true, "expandtabs": true, "find": true,
	"hex": true, "index": true, "isalnum": true, "isalpha": true, "isascii": true, "isdigit": true,
	"islower": true, "isspace": true, "istitle": true, "isupper": true, "join": true, "ljust": true,
	"lower": true, "lstrip": true, "partition": true, "removeprefix": true, "removesuffix": true,
	"replace": true, "rfind": true, "rindex": true, "rjust": true, "rpartition": true, "rsplit": true,
	"rstrip": true, "split": true, "splitlines": true, "startswith": true, "strip": true, "swapcase": true,
	"title": true, "translate": true, "upper": true, "zfill": true,
}

func (o *bytesObj) Attr(name string) (Value, bool) {
	if name == "decode" {
		f := &Func{Name: "decode", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			var bd bound
			a, set, err := bd.bind("decode", args, kw, "encoding", "errors")
			if err != nil {
				return Value{}, err
			}
			for i, p := range [2]string{"encoding", "errors"} {
				if !set[i] {
					continue
				}
				if a[i].kind != KindStr {
					// _PyArg_BadArgument names None itself
					t := TypeName(a[i])
					if a[i].kind == KindNone {
						t = "None"
					}
					return Value{}, typeErr("decode() argument '%s' must be str, not %s", p, t)
				}
				if strings.IndexByte(a[i].s, 0) >= 0 {
					return Value{}, valueErr("embedded null character")
				}
			}
			if set[0] && !isUTF8Name(a[0]) {
				if err := codecLookupErr(a[0], false, "decode"); err != nil {
					return Value{}, err
				}
				if !utf8Codec[normalizeEncoding(a[0].s)] {
					return Value{}, &Error{Kind: "Unsupported", Msg: "bytes.decode() with an encoding other than utf-8 is not supported"}
				}
			}
			if !utf8.ValidString(o.b) {
				return Value{}, &Error{Kind: "Unsupported", Msg: "decoding bytes that are not valid UTF-8 is not supported"}
			}
			return StrV(o.b), nil
		}}
		f.Repr = "<built-in method decode of bytes object at " + addr(f) + ">"
		return FuncV(f), true
	}
	if m, ok := bytesNoArgMethod(name); ok {
		qual := "bytes." + name
		f := &Func{Name: name, Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			if name == "hex" && (len(args) > 0 || len(kw) > 0) {
				return Value{}, &Error{Kind: "Unsupported", Msg: "bytes.hex() with a separator is not supported"}
			}
			if err := nargs(qual, args, kw, 0, 0); err != nil {
				return Value{}, err
			}
			return m(o.b), nil
		}}
		f.Repr = "<built-in method " + name + " of bytes object at " + addr(f) + ">"
		return FuncV(f), true
	}
	if call := o.argMethod(name); call != nil {
		f := &Func{Name: name, Call: call}
		f.Repr = "<built-in method " + name + " of bytes object at " + addr(f) + ">"
		return FuncV(f), true
	}
	if bytesMethods[name] {
		f := &Func{Name: name, Call: func(*Ctx, []Value, []Kwarg) (Value, error) {
			return Value{}, &Error{Kind: "Unsupported", Msg: "the bytes method " + name + "() is not supported"}
		}}
		f.Repr = "<built-in method " + name + " of bytes object at " + addr(f) + ">"
		return FuncV(f), true
	}
	return Value{}, false
}

func isUTF8Name(v Value) bool {
	if v.kind != KindStr {
		return false
	}
	switch strings.ToLower(strings.ReplaceAll(v.s, "_", "-")) {
	case "utf-8", "utf8", "u8":
		return true
	}
	return false
}

// utf8Codec are the names (normalized) that codecs.lookup finds as UTF-8:
// the module utf_8 and its aliases.
var utf8Codec = map[string]bool{"utf_8": true, "cp65001": true, "u8": true, "utf": true, "utf8": true, "utf8_ucs2": true, "utf8_ucs4": true}

// strEncode is str.encode(encoding='utf-8', errors='strict').
func strEncode(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	var bd bound
	// Argument Clinic's errors (kwOrPos's); its None for a parameter
	// not given is not encode's default, so bind reads the values
	if _, err := kwOrPos("encode", args, kw, "encoding", "errors"); err != nil {
		return Value{}, err
	}
	a, set, err := bd.bind("encode", args, kw, "encoding", "errors")
	if err != nil {
		return Value{}, err
	}
	for i, p := range [2]string{"encoding", "errors"} {
		if set[i] && a[i].kind != KindStr {
			// _PyArg_BadArgument names None itself
			t := TypeName(a[i])
			if a[i].kind == KindNone {
				t = "None"
			}
			return Value{}, typeErr("encode() argument '%s' must be str, not %s", p, t)
		}
	}
	for i := range a {
		if set[i] && strings.IndexByte(a[i].s, 0) >= 0 {
			// Argument Clinic reads both as C strings
			return Value{}, valueErr("embedded null character")
		}
	}
	if set[0] && !isUTF8Name(a[0]) && !utf8Codec[normalizeEncoding(a[0].s)] {
		errors := "strict"
		if set[1] {
			errors = a[1].s
		}
		return encodeByteCodec(v.s, a[0].s, errors)
	}
	if err := surrogateEncodeErr(v.s); err != nil {
		// a lone surrogate: the bytes the package holds are
		// surrogatepass's, an error for the strict handler
		if set[1] && a[1].kind == KindStr && a[1].s == "surrogatepass" {
			return ObjectV(&bytesObj{b: v.s}), nil
		}
		if set[1] && !(a[1].kind == KindStr && a[1].s == "strict") {
			return Value{}, &Error{Kind: "Unsupported", Msg: "str.encode() of a lone surrogate with another error handler than strict or surrogatepass is not supported"}
		}
		return Value{}, err
	}
	return ObjectV(&bytesObj{b: v.s}), nil
}

// bytesArith is bytes + bytes and bytes * int; ok is false when neither
// operand is bytes.
func bytesArith(c *Ctx, op string, a, b Value) (Value, bool, error) {
	x, xb := a.ref.(*bytesObj)
	y, yb := b.ref.(*bytesObj)
	xb = xb && a.kind == KindObject
	yb = yb && b.kind == KindObject
	if !xb && !yb {
		return Value{}, false, nil
	}
	switch op {
	case "+":
		if xb && yb {
			if err := grow(c, len(x.b)+len(y.b)); err != nil {
				return Value{}, true, err
			}
			return ObjectV(&bytesObj{b: x.b + y.b}), true, nil
		}
		if xb {
			return Value{}, true, typeErr("can't concat %s to bytes", TypeName(b))
		}
	case "*":
		seq, n := x, b
		if !xb {
			seq, n = y, a
			if a.kind == KindStr || a.kind == KindList || a.kind == KindTuple {
				// the left sequence's repeat reads the bytes as its count
				return Value{}, true, typeErr("can't multiply sequence by non-int of type 'bytes'")
			}
		}
		if xb && yb || !isIntLike(n) {
			return Value{}, true, typeErr("can't multiply sequence by non-int of type '%s'", TypeName(n))
		}
		if n.ref != nil {
			return Value{}, true, pyErr("OverflowError", "cannot fit 'int' into an index-sized integer")
		}
		if n.n <= 0 || seq.b == "" {
			return ObjectV(&bytesObj{}), true, nil
		}
		if n.n > math.MaxInt64/int64(len(seq.b)) {
			return Value{}, true, pyErr("OverflowError", "repeated bytes are too long")
		}
		if n.n > maxAlloc/int64(len(seq.b)) {
			if err := grow(c, maxAlloc); err != nil {
				return Value{}, true, err
			}
			return Value{}, true, pyErr("MemoryError", "")
		}
		if err := grow(c, len(seq.b)*int(n.n)); err != nil {
			return Value{}, true, err
		}
		return ObjectV(&bytesObj{b: strings.Repeat(seq.b, int(n.n))}), true, nil
	case "%":
		if xb {
			if r, ok, err := bytesModPlain(x, b); ok {
				return r, true, err
			}
			return Value{}, true, &Error{Kind: "Unsupported", Msg: "bytes % with a conversion specifier is not supported"}
		}
	}
	return Value{}, false, nil
}

// isBytes reports whether v is a bytes object.
func isBytes(v Value) bool {
	_, ok := v.ref.(*bytesObj)
	return ok && v.kind == KindObject
}
