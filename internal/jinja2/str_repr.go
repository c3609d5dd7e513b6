package jinja2

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rolemark/rolemark/internal/pyjson"
)

// Python's str() and repr() of values.

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// floatRepr is Python's repr(float) (which str(float) is too).
func floatRepr(f float64) string { return string(appendFloatRepr(nil, f)) }

func appendFloatRepr(dst []byte, f float64) []byte { return pyjson.AppendFloatAs(dst, f, "inf", "nan") }

// reprStr is Python's repr of a str.
func reprStr(s string) string { return string(appendReprStr(nil, s)) }

const hexDigits = "0123456789abcdef"

// appendReprStr appends Python 3.11's repr of the str s: quoted with '
// unless s holds a ' and no ", with \\, the quote, \t \n \r, control
// characters and every character str.isprintable rejects escaped. An
// invalid UTF-8 byte is taken as U+FFFD, as Go's range over a string does,
// save a surrogate's bytes (str_wtf8.go), escaped as \udXXX.
func appendReprStr(dst []byte, s string) []byte {
	run := reprPlainRun(s)
	if run == len(s) {
		// the usual str: printable ASCII without a quote or backslash
		dst = append(dst, '\'')
		dst = append(dst, s...)
		return append(dst, '\'')
	}
	quote := byte('\'')
	if strings.IndexByte(s[run:], '\'') >= 0 && strings.IndexByte(s[run:], '"') < 0 {
		quote = '"'
	}
	dst = append(dst, quote)
	dst = append(dst, s[:run]...)
	for i := run; i < len(s); {
		// copy the run of printable ASCII that needs no escape at once
		j := i
		for j < len(s) && reprPlain[s[j]] && s[j] != quote {
			j++
		}
		dst = append(dst, s[i:j]...)
		if j == len(s) {
			break
		}
		r, size := rune(s[j]), 1
		if r >= utf8.RuneSelf {
			r, size = decodeRuneW(s[j:])
		}
		i = j + size
		switch {
		case r == rune(quote) || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r < 0x20 || r == 0x7f:
			dst = append(dst, '\\', 'x', hexDigits[r>>4], hexDigits[r&15])
		case pyIsPrintable(r):
			dst = utf8.AppendRune(dst, r)
		case r <= 0xff:
			dst = append(dst, '\\', 'x', hexDigits[r>>4], hexDigits[r&15])
		case r <= 0xffff:
			dst = append(dst, '\\', 'u', hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
		default:
			dst = append(dst, '\\', 'U')
			for sh := 28; sh >= 0; sh -= 4 {
				dst = append(dst, hexDigits[r>>uint(sh)&15])
			}
		}
	}
	return append(dst, quote)
}

// reprPlain holds the bytes repr writes as they are, whatever the quote:
// printable ASCII save the backslash.
var reprPlain = func() (t [256]bool) {
	for b := 0x20; b < 0x7f; b++ {
		t[b] = b != '\\'
	}
	return t
}()

// reprBare holds the bytes repr writes as they are with either quote:
// printable ASCII save the backslash and both quotes.
var reprBare = func() (t [256]bool) {
	t = reprPlain
	t['\''], t['"'] = false, false
	return t
}()

// reprPlainRun is the length of the run of bytes at the start of s that
// reprBare holds, read eight at a time. A str of eight bytes or more that
// is all plain ends with its last eight bytes tested at once (they overlap
// the last word tested), not a byte loop whose end the branch predictor
// misses from str to str.
func reprPlainRun(s string) int {
	if n := len(s); n >= 4 && n < 8 {
		// a short str (a dict's key) as two overlapping halves
		a, b := s[:4], s[n-4:]
		if reprBare[a[0]] && reprBare[a[1]] && reprBare[a[2]] && reprBare[a[3]] &&
			reprBare[b[0]] && reprBare[b[1]] && reprBare[b[2]] && reprBare[b[3]] {
			return n
		}
	}
	i := 0
	for ; i+8 <= len(s); i += 8 {
		t := s[i : i+8] // resliced: no bounds checks below
		if !(reprBare[t[0]] && reprBare[t[1]] && reprBare[t[2]] && reprBare[t[3]] &&
			reprBare[t[4]] && reprBare[t[5]] && reprBare[t[6]] && reprBare[t[7]]) {
			break
		}
	}
	if i == len(s) {
		return i
	}
	if i+8 > len(s) && i >= 8 {
		t := s[len(s)-8:]
		if reprBare[t[0]] && reprBare[t[1]] && reprBare[t[2]] && reprBare[t[3]] &&
			reprBare[t[4]] && reprBare[t[5]] && reprBare[t[6]] && reprBare[t[7]] {
			return len(s)
		}
	}
	for i < len(s) && reprBare[s[i]] {
		i++
	}
	return i
}

// pyIsPrintable is Python 3.11's str.isprintable for one character: not a
// control, format, surrogate, private-use, unassigned or separator
// character, save the space. Python 3.11 reads Unicode 14.0; Go's tables
// are 15.0, so the characters 15.0 added are not printable.
func pyIsPrintable(r rune) bool {
	if r < 0x7f {
		return r >= 0x20
	}
	return unicode.IsPrint(r) && !unicode.Is(addedInUnicode15, r)
}

// addedInUnicode15 are the characters Unicode 15.0 assigned, which Go's
// unicode package (15.0) knows and Python 3.11 (14.0) does not.
// (Computed from unicode.IsPrint and Python 3.11's str.isprintable over
// every code point.)
var addedInUnicode15 = &unicode.RangeTable{
	R16: []unicode.Range16{
		{0xCF3, 0xCF3, 1},
		{0xECE, 0xECE, 1},
	},
	R32: []unicode.Range32{
		{0x10EFD, 0x10EFF, 1},
		{0x1123F, 0x11241, 1},
		{0x11B00, 0x11B09, 1},
		{0x11F00, 0x11F10, 1},
		{0x11F12, 0x11F3A, 1},
		{0x11F3E, 0x11F59, 1},
		{0x1342F, 0x1342F, 1},
		{0x13440, 0x13455, 1},
		{0x1B132, 0x1B132, 1},
		{0x1B155, 0x1B155, 1},
		{0x1D2C0, 0x1D2D3, 1},
		{0x1DF25, 0x1DF2A, 1},
		{0x1E030, 0x1E06D, 1},
		{0x1E08F, 0x1E08F, 1},
		{0x1E4D0, 0x1E4F9, 1},
		{0x1F6DC, 0x1F6DC, 1},
		{0x1F774, 0x1F776, 1},
		{0x1F77B, 0x1F77F, 1},
		{0x1F7D9, 0x1F7D9, 1},
		{0x1FA75, 0x1FA77, 1},
		{0x1FA87, 0x1FA88, 1},
		{0x1FAAD, 0x1FAAF, 1},
		{0x1FABB, 0x1FABD, 1},
		{0x1FABF, 0x1FABF, 1},
		{0x1FACE, 0x1FACF, 1},
		{0x1FADA, 0x1FADB, 1},
		{0x1FAE8, 0x1FAE8, 1},
		{0x1FAF7, 0x1FAF8, 1},
		{0x2B739, 0x2B739, 1},
		{0x31350, 0x323AF, 1},
	},
}

// Repr is Python's repr(v). An address it writes marks no render
// (Ctx.Varies): a render's code calls reprOf.
func Repr(v Value) string {
	b, _ := appendRepr(nil, nil, v, nil)
	return string(b)
}

// reprOf is Repr(v) in the render of c, which it marks varying when the
// repr holds an object's address.
func reprOf(c *Ctx, v Value) string {
	b, _ := appendRepr(c, nil, v, nil)
	return string(b)
}

// ToStr is Python's str(v) as Jinja2 prints it: None is "None", True is
// "True", floats as Python writes them, lists and dicts with reprs inside,
// Undefined is "" (an UndefinedError for a strict Undefined).
func ToStr(c *Ctx, v Value) (string, error) {
	switch v.kind {
	case KindStr:
		return v.s, nil
	case KindUndefined:
		if v.flags&flagSecurity != 0 {
			return "", nil
		}
		return "", nil
	case KindInt:
		return intDigits(v)
	case KindFloat:
		return floatRepr(v.f()), nil
	case KindNone:
		return "None", nil
	case KindBool:
		if v.n != 0 {
			return "True", nil
		}
		return "False", nil
	case KindObject:
		if s, ok := v.ref.(Strer); ok {
			return s.Str(), nil
		}
	case KindDict:
		// str of a mappingproxy is its dict's
		v.flags &^= flagProxy
	}
	b, err := appendRepr(c, nil, v, nil)
	return string(b), err
}

// maxReprDepth is how many lists and dicts repr goes into before Python's
// RecursionError: {{ x }} of a list nested 992 deep prints, 993 deep
// raises (Python's recursion limit less the frames of a render; a filter
// or a call around it raises a level or three earlier in Python).
const maxReprDepth = 992

func errReprDepth() error {
	return pyErr("RecursionError", "maximum recursion depth exceeded while getting the repr of an object")
}

// appendRepr appends repr(v); seen holds the containers being printed, so
// that a list holding itself prints [...] as in Python. An object's
// address it writes marks the render of c varying (c may be nil).
func appendRepr(c *Ctx, dst []byte, v Value, seen []any) ([]byte, error) {
	if seen == nil && (v.kind == KindList || v.kind == KindTuple || v.kind == KindDict) {
		// room for the containers of a usual nesting, on the stack
		var outer [8]any
		seen = outer[:0]
	}
	switch v.kind {
	case KindUndefined:
		return append(dst, "Undefined"...), nil
	case KindNone, KindBool, KindFloat:
		return appendReprItem(c, dst, &v, nil)
	case KindInt:
		if v.ref == nil {
			return strconv.AppendInt(dst, v.n, 10), nil
		}
		s, err := intDigits(v)
		return append(dst, s...), err
	case KindStr:
		if v.flags&flagSafe != 0 {
			dst = append(dst, "Markup("...)
			return append(appendReprStr(dst, v.s), ')'), nil
		}
		return appendReprStr(dst, v.s), nil
	case KindList, KindTuple:
		l := v.list()
		open, close := byte('['), byte(']')
		if v.kind == KindTuple {
			open, close = '(', ')'
		}
		for _, s := range seen {
			if s == l {
				return append(dst, open, '.', '.', '.', close), nil
			}
		}
		if len(seen) > maxReprDepth {
			return dst, errReprDepth()
		}
		seen = append(seen, l)
		dst = append(dst, open)
		var err error
		for i := range l.Items {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			// a str item here, without appendReprItem's call
			if it := &l.Items[i]; it.kind == KindStr && it.flags&flagSafe == 0 {
				dst = appendReprStr(dst, it.s)
			} else if dst, err = appendReprItem(c, dst, it, seen); err != nil {
				return dst, err
			}
		}
		if v.kind == KindTuple && len(l.Items) == 1 {
			dst = append(dst, ',')
		}
		return append(dst, close), nil
	case KindDict:
		d := v.dict()
		if v.flags&flagProxy != 0 {
			dst = append(dst, "mappingproxy("...)
			dst, err := appendRepr(c, dst, Value{kind: KindDict, ref: d}, seen)
			return append(dst, ')'), err
		}
		for _, s := range seen {
			if s == d {
				return append(dst, "{...}"...), nil
			}
		}
		if len(seen) > maxReprDepth {
			return dst, errReprDepth()
		}
		seen = append(seen, d)
		dst = append(dst, '{')
		var err error
		for i := range d.keys {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			// a str key or value here, without appendReprItem's call
			if k := &d.keys[i]; k.kind == KindStr && k.flags&flagSafe == 0 {
				dst = appendReprStr(dst, k.s)
			} else if dst, err = appendReprItem(c, dst, k, seen); err != nil {
				return dst, err
			}
			dst = append(dst, ": "...)
			if it := &d.vals[i]; it.kind == KindStr && it.flags&flagSafe == 0 {
				dst = appendReprStr(dst, it.s)
			} else if dst, err = appendReprItem(c, dst, it, seen); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case KindFunc:
		f := v.ref.(*Func)
		if f.bound != nil {
			r := f.bound.Repr()
			c.variesIfAddr(r)
			return append(dst, "<bound method "+f.Name+" of "+r+">"...), nil
		}
		if r := f.repr(); r != "" {
			c.variesIfAddr(r)
			return append(dst, r...), nil
		}
		c.Varies()
		return append(dst, "<function "+f.Name+" at "+addr(f)+">"...), nil
	case KindObject:
		if r, ok := v.ref.(Reprer); ok {
			s := r.Repr()
			c.variesIfAddr(s)
			return append(dst, s...), nil
		}
		c.Varies()
		return append(dst, "<"+v.ref.(Object).TypeName()+" object at "+addr(v.ref)+">"...), nil
	}
	return dst, nil
}

// appendReprItem is appendRepr of a container's item: a str, an int, a
// float, None or a bool here, with no call of appendRepr, whose frame is large (the
// seen array of the outermost container) and whose switch on the kind is
// a jump that each item of a mixed container takes elsewhere.
func appendReprItem(c *Ctx, dst []byte, v *Value, seen []any) ([]byte, error) {
	switch v.kind {
	case KindStr:
		if v.flags&flagSafe == 0 {
			return appendReprStr(dst, v.s), nil
		}
	case KindInt:
		if v.ref == nil {
			return strconv.AppendInt(dst, v.n, 10), nil
		}
	case KindFloat:
		return appendFloatRepr(dst, v.f()), nil
	case KindNone:
		return append(dst, "None"...), nil
	case KindBool:
		if v.n != 0 {
			return append(dst, "True"...), nil
		}
		return append(dst, "False"...), nil
	}
	return appendRepr(c, dst, *v, seen)
}

// addr is an object's address as Python's default repr writes it.
func addr(p any) string {
	// as long as CPython's on 64-bit Linux (0x7f…, 12 hex digits), so
	// that text holding an address has the same length
	var n uint64
	if _, err := fmt.Sscanf(fmt.Sprintf("%p", p), "0x%x", &n); err != nil {
		n = 0
	}
	return fmt.Sprintf("0x7f%010x", n&0xffffffffff)
}
