// Package pyjson reads JSON as Python's json.loads does and writes it as
// Python's json.dumps does, byte for byte, with json.dumps's options
// (ensure_ascii, indent, separators, sort_keys).
//
// Prompts for local models are built in Python: HuggingFace chat templates
// write tool definitions and calls with json.dumps (transformers' tojson
// filter), Qwen's ReAct prompt and LazyLLM's prompters do the same. A Go
// rendering matches them only if it writes the same bytes, so every package
// of rolemark that writes such JSON uses this one writer.
//
// What Python does and this package follows: an object keeps its keys in
// the order they were read, and a repeated key keeps its first place and
// takes its last value (a dict assignment); an integer keeps all its digits
// (Python ints have no size limit) and -0 becomes 0; a number with a
// fraction or exponent becomes a float64, so 1e999 is written Infinity,
// 1e-999 is 0.0 and 1.0 stays 1.0 (repr(float)); strings are written with
// only '"', '\\' and control characters escaped, or, with EnsureASCII,
// every character outside ' '..'~' as \uXXXX (a surrogate pair above
// U+FFFF). Go strings may hold invalid UTF-8, which a Python str cannot:
// each invalid byte is written as U+FFFD.
package pyjson

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the type of a Value, as Python sees it after json.loads.
type Kind uint8

// The kinds of Value.
const (
	Null   Kind = iota // None
	Bool               // bool
	Int                // int (any size)
	Float              // float
	String             // str
	Array              // list
	Object             // dict
)

// Value is one JSON value as Python holds it after json.loads.
type Value struct {
	Kind Kind
	// Bool is the value of a Bool.
	Bool bool
	// Int is the decimal digits of an Int, with a leading '-' when negative
	// ("0" for zero).
	Int string
	// Float is the value of a Float.
	Float float64
	// Str is the value of a String.
	Str string
	// Items are an Array's elements, or an Object's values.
	Items []Value
	// Keys are an Object's keys, in order, one per item.
	Keys []string
}

// Set assigns key in an Object as a Python dict assignment does: a key it
// already has keeps its place and takes the new value.
func (v *Value) Set(key string, val Value) {
	for i, k := range v.Keys {
		if k == key {
			v.Items[i] = val
			return
		}
	}
	v.Keys = append(v.Keys, key)
	v.Items = append(v.Items, val)
}

// Option is one of json.dumps's keyword arguments.
type Option func(*settings)

type settings struct {
	ascii            bool
	indented         bool
	indent           string
	itemSep, keySep  string
	separatorsCalled bool
	sortKeys         bool
}

// EnsureASCII is ensure_ascii=True: every character outside ' '..'~' is
// written as a \uXXXX escape. Without it (ensure_ascii=False, what
// transformers' tojson uses) only '"', '\\' and control characters are
// escaped.
func EnsureASCII(on bool) Option { return func(s *settings) { s.ascii = on } }

// Indent is indent=n: each element on its own line, indented n spaces per
// level (indent=0 puts elements on their own lines without indentation;
// a negative n indents by nothing, as Python's ' ' * n does).
func Indent(n int) Option {
	return func(s *settings) {
		s.indented = true
		s.indent = strings.Repeat(" ", max(n, 0))
	}
}

// IndentString is indent=str: the string is repeated once per level.
func IndentString(str string) Option {
	return func(s *settings) { s.indented, s.indent = true, str }
}

// Separators is separators=(item, key). Without it, Python uses ", " and
// ": ", or "," and ": " when indenting.
func Separators(item, key string) Option {
	return func(s *settings) { s.itemSep, s.keySep, s.separatorsCalled = item, key, true }
}

// SortKeys is sort_keys=True: object keys in code point order.
func SortKeys(on bool) Option { return func(s *settings) { s.sortKeys = on } }

func newSettings(opts []Option) settings {
	var s settings
	for _, o := range opts {
		o(&s)
	}
	if !s.separatorsCalled {
		s.itemSep, s.keySep = ", ", ": "
		if s.indented {
			s.itemSep = ","
		}
	}
	return s
}

// Dumps is json.dumps(v, ...) with the options given.
func Dumps(v Value, opts ...Option) string {
	s := newSettings(opts)
	return string(s.appendValue(nil, &v, 0))
}

// Append appends json.dumps(v, ...) to dst.
func Append(dst []byte, v Value, opts ...Option) []byte {
	s := newSettings(opts)
	return s.appendValue(dst, &v, 0)
}

// Reformat is json.dumps(json.loads(data), ...): the JSON text data as
// Python writes it back.
func Reformat(data []byte, opts ...Option) (string, error) {
	v, err := Parse(data)
	if err != nil {
		return "", err
	}
	return Dumps(v, opts...), nil
}

func (s *settings) newline(dst []byte, depth int) []byte {
	dst = append(dst, '\n')
	for range depth {
		dst = append(dst, s.indent...)
	}
	return dst
}

func (s *settings) appendValue(dst []byte, v *Value, depth int) []byte {
	switch v.Kind {
	case Null:
		return append(dst, "null"...)
	case Bool:
		if v.Bool {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case Int:
		if v.Int == "" {
			return append(dst, '0')
		}
		return append(dst, v.Int...)
	case Float:
		return AppendFloat(dst, v.Float)
	case String:
		return AppendString(dst, v.Str, s.ascii)
	case Array:
		if len(v.Items) == 0 {
			return append(dst, "[]"...)
		}
		dst = append(dst, '[')
		for i := range v.Items {
			if i > 0 {
				dst = append(dst, s.itemSep...)
			}
			if s.indented {
				dst = s.newline(dst, depth+1)
			}
			dst = s.appendValue(dst, &v.Items[i], depth+1)
		}
		if s.indented {
			dst = s.newline(dst, depth)
		}
		return append(dst, ']')
	case Object:
		if len(v.Keys) == 0 {
			return append(dst, "{}"...)
		}
		order := v.order(s.sortKeys)
		dst = append(dst, '{')
		for n, i := range order {
			if n > 0 {
				dst = append(dst, s.itemSep...)
			}
			if s.indented {
				dst = s.newline(dst, depth+1)
			}
			dst = AppendString(dst, v.Keys[i], s.ascii)
			dst = append(dst, s.keySep...)
			dst = s.appendValue(dst, &v.Items[i], depth+1)
		}
		if s.indented {
			dst = s.newline(dst, depth)
		}
		return append(dst, '}')
	}
	return append(dst, "null"...)
}

// order returns the indexes of an object's keys in writing order.
func (v *Value) order(sorted bool) []int {
	order := make([]int, len(v.Keys))
	for i := range order {
		order[i] = i
	}
	if sorted {
		// Go compares strings bytewise; on UTF-8 that is code point order,
		// which is how Python compares str. Keys are unique, so the sort
		// need not be stable.
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(v.Keys[a], v.Keys[b]) })
	}
	return order
}

// AppendString appends s as a JSON string literal as Python's json module
// writes it, with ensure_ascii on or off.
func AppendString(dst []byte, s string, ascii bool) []byte {
	switch {
	case ascii:
		return appendString(dst, s, true, &plainASCII)
	case utf8.ValidString(s):
		return appendString(dst, s, false, &plainValidUTF8)
	}
	return appendString(dst, s, false, &plainUTF8)
}

// AppendHTMLSafeString appends s as Jinja2's tojson filter writes a str:
// json.dumps with ensure_ascii, and <, >, & and ' as \u escapes
// (htmlsafe_json_dumps), in one pass.
//
// On amd64 a string of 32 bytes or more is escaped sixteen bytes at a time
// by escapeHTMLSafeBlocks (assembly; the build tag purego turns it off),
// its non-ASCII runs and its last bytes by the plain loop: 5,000 bytes of
// test output with a newline every 44 take about 40% of the plain loop's
// time (docs/decisions.md, "unsafe only where"; FuzzAppendHTMLSafeString
// compares the two).
func AppendHTMLSafeString(dst []byte, s string) []byte {
	if !blockEscaper || len(s) < 32 {
		return appendString(dst, s, true, &plainHTML)
	}
	dst = append(dst, '"')
	for len(s) >= 32 {
		if cap(dst)-len(dst) < 128 {
			dst = slices.Grow(dst, len(s)+len(s)>>3+128)
		}
		w, r := escapeHTMLSafeBlocks(dst, s, &htmlEscapes)
		dst, s = dst[:len(dst)+w], s[r:]
		if len(s) > 0 && s[0] >= utf8.RuneSelf {
			// a run of bytes from 0x80 (whole characters: UTF-8 has no
			// ASCII byte inside one), which the plain loop decodes
			n := 1
			for n < len(s) && s[n] >= utf8.RuneSelf {
				n++
			}
			dst = appendEscaped(dst, s[:n], true, &plainHTML)
			s = s[n:]
		}
	}
	dst = appendEscaped(dst, s, true, &plainHTML)
	return append(dst, '"')
}

// htmlEscapes holds each ASCII byte's escape for escapeHTMLSafeBlocks, as
// the plain loop writes it, in its low bytes, and its length in the top
// byte (zero for the bytes written as they are).
var htmlEscapes = func() (t [128]uint64) {
	for c := range t {
		if plainHTML[c] {
			continue
		}
		e := appendEscaped(nil, string(rune(c)), true, &plainHTML)
		for i, b := range e {
			t[c] |= uint64(b) << (8 * i)
		}
		t[c] |= uint64(len(e)) << 56
	}
	return t
}()

// The bytes each kind of JSON string literal copies as they are.
// plainValidUTF8 serves a string that holds no invalid byte.
var (
	plainASCII     = plainBytes(0x7f, `"\`)
	plainUTF8      = plainBytes(0x80, `"\`)
	plainValidUTF8 = plainBytes(0x100, `"\`)
	plainHTML      = plainBytes(0x7f, `"\<>&'`)
)

// plainBytes marks the bytes from space up to end, except those of not.
func plainBytes(end int, not string) (t [256]bool) {
	for c := 0x20; c < end; c++ {
		t[c] = true
	}
	for i := range len(not) {
		t[not[i]] = false
	}
	return t
}

// appendString appends s as a JSON string literal: the bytes plain marks
// as they are, found eight at a time; other runes as \u escapes when
// ascii, else as they are (an invalid byte as U+FFFD, as Python's str of
// it holds; a lone surrogate's three bytes as the surrogate).
func appendString(dst []byte, s string, ascii bool, plain *[256]bool) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s, ascii, plain)
	return append(dst, '"')
}

// shortEscapes are the bytes json.dumps escapes with a backslash and a
// letter (or themselves), by that letter; the others it escapes are
// written as \uXXXX.
var shortEscapes = [256]byte{'"': '"', '\\': '\\', '\n': 'n', '\r': 'r', '\t': 't', '\b': 'b', '\f': 'f'}

// appendEscaped appends s as appendString does, without the quotes.
func appendEscaped(dst []byte, s string, ascii bool, plain *[256]bool) []byte {
	const hex = "0123456789abcdef"
	u4 := func(dst []byte, r rune) []byte {
		return append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
	}
	start := 0
	for i := 0; i < len(s); {
		for ; i+8 <= len(s); i += 8 {
			t := s[i : i+8] // resliced: no bounds checks below
			if !(plain[t[0]] && plain[t[1]] && plain[t[2]] && plain[t[3]] &&
				plain[t[4]] && plain[t[5]] && plain[t[6]] && plain[t[7]]) {
				break
			}
		}
		for i < len(s) && plain[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF {
				// a lone surrogate's bytes (WTF-8): one character of
				// Python's str, written as it is or as its \u escape
				r, n = rune(c&0x0F)<<12|rune(s[i+1]&0x3F)<<6|rune(s[i+2]&0x3F), 3
			}
			if !ascii && r != utf8.RuneError {
				i += n
				continue
			}
			dst = append(dst, s[start:i]...)
			switch {
			case !ascii:
				dst = utf8.AppendRune(dst, utf8.RuneError) // an invalid byte
			case r > 0xffff: // a surrogate pair, as json.dumps writes it
				r -= 0x10000
				dst = u4(dst, 0xd800+(r>>10))
				dst = u4(dst, 0xdc00+(r&0x3ff))
			default:
				dst = u4(dst, r)
			}
			i += n
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		if e := shortEscapes[c]; e != 0 {
			dst = append(dst, '\\', e)
		} else { // other control bytes, DEL when ascii, and the HTML-safe ones
			dst = u4(dst, rune(c))
		}
		i++
		start = i
	}
	return append(dst, s[start:]...)
}

// AppendFloat appends f as json.dumps writes it: AppendFloatAs with
// Infinity and NaN.
func AppendFloat(dst []byte, f float64) []byte { return AppendFloatAs(dst, f, "Infinity", "NaN") }

// AppendFloatAs appends f as Python's repr(float) writes it: the shortest
// digits that read back as f, in scientific notation below 1e-4 and from
// 1e16 on, always with a '.' or an exponent; inf, "-" then inf, and nan
// for the special values (repr's inf and nan, json's Infinity and NaN).
func AppendFloatAs(dst []byte, f float64, inf, nan string) []byte {
	if f-f != 0 { // an infinity or NaN
		switch {
		case f > 0:
			return append(dst, inf...)
		case f < 0:
			return append(append(dst, '-'), inf...)
		}
		return append(dst, nan...)
	}
	if f == 0 {
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	if d, ok := appendShortDecimal(dst, f); ok {
		return d
	}
	// The shortest digits once, in e form ([-]d[.ddd]e±xx), then laid
	// out as Python's repr lays them out for the exponent.
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	at := len(e) - 4 // e±xx, or e±xxx
	if e[at] != 'e' {
		at--
	}
	exp := 0
	for _, c := range e[at+2:] {
		exp = exp*10 + int(c-'0')
	}
	if e[at+1] == '-' {
		exp = -exp
	}
	if exp < -4 || exp >= 16 {
		return append(dst, e...)
	}
	mant := e[:at]
	if mant[0] == '-' {
		dst = append(dst, '-')
		mant = mant[1:]
	}
	// the digits, without the point after the first
	var digits [20]byte
	nd := copy(digits[:], mant[:1])
	if len(mant) > 2 {
		nd += copy(digits[nd:], mant[2:])
	}
	d := digits[:nd]
	if exp < 0 {
		dst = append(dst, '0', '.')
		for range -exp - 1 {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	}
	if len(d) <= exp+1 {
		dst = append(dst, d...)
		for range exp + 1 - len(d) {
			dst = append(dst, '0')
		}
		return append(dst, '.', '0')
	}
	dst = append(dst, d[:exp+1]...)
	dst = append(dst, '.')
	return append(dst, d[exp+1:]...)
}

// pow10s are the powers of ten that appendShortDecimal tries.
var pow10s = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6}

// appendShortDecimal appends f as AppendFloat does when f is a decimal
// with at most six digits after the point (a price, a score, a ratio:
// the usual float of a prompt's data) between 1e-4 and 2^50, and says
// whether it did; else it appends nothing.
//
// For each k from 0 up, n is f·10^k rounded to an integer, and f is
// n/10^k's float when n/10^k divides back to f: n and 10^k are exact
// doubles, so the division rounds the exact quotient as parsing the
// decimal does. The first such k gives the shortest digits: a shorter
// string would be an n of a smaller k. And n is the only candidate of
// its k: f·10^k < 2^50 makes 10^-k wider than the gap between f's
// neighbours, and puts the product's rounding error and the candidate's
// distance from it together under one half, so that rounding finds it.
func appendShortDecimal(dst []byte, f float64) ([]byte, bool) {
	a := math.Abs(f)
	if !(a >= 1e-4 && a < 1<<50) {
		return dst, false
	}
	for k, p := range pow10s {
		x := a * p
		if x >= 1<<50 {
			return dst, false
		}
		n := math.Round(x)
		if n/p != a {
			continue
		}
		// n's digits from the last, the point k digits from the end (a
		// 0 before it when n < 10^k), in one pass with no call
		u := uint64(n)
		var buf [24]byte // 2^50 has 16 digits; the point, a 0, a sign
		i := len(buf)
		if k == 0 {
			i -= 2
			buf[i], buf[i+1] = '.', '0'
		}
		for j := 0; j < k; j++ {
			i--
			buf[i] = byte('0' + u%10)
			u /= 10
		}
		if k > 0 {
			i--
			buf[i] = '.'
		}
		for {
			i--
			buf[i] = byte('0' + u%10)
			u /= 10
			if u == 0 {
				break
			}
		}
		if f < 0 {
			i--
			buf[i] = '-'
		}
		return append(dst, buf[i:]...), true
	}
	return dst, false
}

// FormatFloat is Python's repr(float); see AppendFloat.
func FormatFloat(f float64) string { return string(AppendFloat(nil, f)) }

// Writer writes JSON as Dumps does, one piece at a time, for a caller
// that walks values of its own instead of building a Value tree: Open,
// then Item (and Key in an object) before each element, then Close.
type Writer struct{ s settings }

// NewWriter is a Writer with json.dumps's options.
func NewWriter(opts ...Option) Writer { return Writer{newSettings(opts)} }

// SortKeys reports whether objects are written with sorted keys; the
// caller orders them, in code point order as Dumps does.
func (w *Writer) SortKeys() bool { return w.s.sortKeys }

// Presorted returns a copy of w that writes an object's keys in the order
// the object holds them, for a caller that has sorted them itself: Python
// sorts a dict's keys by their values (2 before 10) before it writes them.
func (w *Writer) Presorted() Writer {
	c := *w
	c.s.sortKeys = false
	return c
}

// String appends s as a JSON string literal.
func (w *Writer) String(dst []byte, s string) []byte { return AppendString(dst, s, w.s.ascii) }

// Item starts the n-th element (from 0) of an array or object at depth:
// the item separator after the first, and a new line when indenting.
func (w *Writer) Item(dst []byte, n, depth int) []byte {
	if n > 0 {
		dst = append(dst, w.s.itemSep...)
	}
	if w.s.indented {
		dst = w.s.newline(dst, depth+1)
	}
	return dst
}

// Key appends an object's key and the key separator.
func (w *Writer) Key(dst []byte, key string) []byte {
	return append(w.String(dst, key), w.s.keySep...)
}

// Close ends a non-empty array or object at depth with end (']' or '}').
func (w *Writer) Close(dst []byte, end byte, depth int) []byte {
	if w.s.indented {
		dst = w.s.newline(dst, depth)
	}
	return append(dst, end)
}

// Value appends v whole, at depth.
func (w *Writer) Value(dst []byte, v Value, depth int) []byte { return w.s.appendValue(dst, &v, depth) }
