package format

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rolemark/rolemark/internal/pyjson"
)

// The compiled path (hfc_*.go) renders a chat template with closures over
// a small tagged value, as Python's Jinja2 would. It models a subset of
// Jinja2 exactly; anything outside it is an error (errUnmodelled or any
// other), and Template.Render then renders the call with the engine
// (hfjinja.go) instead. An error here is never shown to the caller.

// vkind is a value's Python type.
type vkind uint8

const (
	vUndef  vkind = iota // jinja2.Undefined
	vNone                // None
	vBool                // bool (n is 0 or 1)
	vInt                 // int (n)
	vFloat               // float (bits in n)
	vStr                 // str (s)
	vList                // list, tuple, generator or dict view (*vlist)
	vDict                // dict with str keys (*vdict)
	vNS                  // namespace() (*vdict)
	vLoop                // a for loop's loop variable (*loopState)
	vMethod              // a bound method (*vmethod)
	vMacro               // a macro (*macro)
)

// value is one template value.
type value struct {
	k   vkind
	n   int64
	s   string
	ref any
}

// list flavours: what Python type a vlist stands for.
const (
	flList  uint8 = iota
	flTuple       // tuple
	flGen         // generator (selectattr, map, …): iterable once, always true
	flView        // dict.items() / keys() / values()
)

type vlist struct {
	items  []value
	flavor uint8
	used   bool // a generator already iterated
}

type vdict struct {
	keys []string
	vals []value
	// js is json.dumps of the dict with transformers' tojson defaults,
	// when known in advance (tools, see hfc_data.go).
	js string
}

type vmethod struct {
	recv value
	name string
}

var (
	errUnmodelled = errors.New("not modelled by the compiled path")
	errBreak      = errors.New("break")
	errContinue   = errors.New("continue")
)

func unmodelled(what string) error { return &unmodelledError{what} }

type unmodelledError struct{ what string }

func (e *unmodelledError) Error() string { return "compiled path: " + e.what }
func (e *unmodelledError) Unwrap() error { return errUnmodelled }

// raisedError is an operation on values whose types the compiled path
// knows exactly and that Python refuses with a TypeError, which Jinja2
// raises; the engine is laxer (it joins a string and a number with +), so
// such a call fails here instead of being handed to it.
type raisedError struct{ msg string }

func (e *raisedError) Error() string { return e.msg }

// addTypeError is Python's TypeError for a + b where one of them is a str
// and the other a number, a bool or None, or nil. A list or a dict joined
// to a str is left to the engine, whose refusal names the message that
// holds it (sourceInfo.check).
func addTypeError(a, b value) error {
	scalar := func(v value) (string, bool) {
		switch v.k {
		case vInt:
			return "int", true
		case vFloat:
			return "float", true
		case vBool:
			return "bool", true
		case vNone:
			return "NoneType", true
		}
		return "", false
	}
	if t, ok := scalar(b); ok && a.k == vStr {
		return &raisedError{fmt.Sprintf("TypeError: can only concatenate str (not %q) to str", t)}
	}
	if t, ok := scalar(a); ok && b.k == vStr {
		return &raisedError{fmt.Sprintf("TypeError: unsupported operand type(s) for +: '%s' and 'str'", t)}
	}
	return nil
}

var (
	undef    = value{k: vUndef}
	none     = value{k: vNone}
	vTrue    = value{k: vBool, n: 1}
	vFalse   = value{k: vBool}
	emptyStr = value{k: vStr}
)

func strV(s string) value    { return value{k: vStr, s: s} }
func intV(n int64) value     { return value{k: vInt, n: n} }
func floatV(f float64) value { return value{k: vFloat, n: int64(math.Float64bits(f))} }
func boolV(b bool) value {
	if b {
		return vTrue
	}
	return vFalse
}
func listV(items []value, flavor uint8) value {
	return value{k: vList, ref: &vlist{items: items, flavor: flavor}}
}
func dictV(d *vdict) value { return value{k: vDict, ref: d} }

func (v value) f() float64       { return math.Float64frombits(uint64(v.n)) }
func (v value) list() *vlist     { return v.ref.(*vlist) }
func (v value) dict() *vdict     { return v.ref.(*vdict) }
func (v value) loop() *loopState { return v.ref.(*loopState) }

func (d *vdict) get(key string) (value, bool) {
	for i, k := range d.keys {
		if k == key {
			return d.vals[i], true
		}
	}
	return undef, false
}

// at returns where the dict holds key's value, or nil.
func (d *vdict) at(key string) *value {
	for i, k := range d.keys {
		if k == key {
			return &d.vals[i]
		}
	}
	return nil
}

// set assigns key as a Python dict assignment does.
func (d *vdict) set(key string, v value) {
	for i, k := range d.keys {
		if k == key {
			d.vals[i] = v
			return
		}
	}
	d.keys = append(d.keys, key)
	d.vals = append(d.vals, v)
}

// truth is Python's bool(v).
func truth(v value) (bool, error) {
	switch v.k {
	case vUndef, vNone:
		return false, nil
	case vBool, vInt:
		return v.n != 0, nil
	case vFloat:
		return v.f() != 0, nil
	case vStr:
		return v.s != "", nil
	case vList:
		l := v.list()
		if l.flavor == flGen {
			return true, nil
		}
		return len(l.items) > 0, nil
	case vDict:
		return len(v.dict().keys) > 0, nil
	case vNS, vLoop, vMethod, vMacro:
		return true, nil
	}
	return false, unmodelled("truth of a value")
}

// truthOf is truth(v) for a value that may have failed.
func truthOf(v value, err error) (bool, error) {
	if err != nil {
		return false, err
	}
	return truth(v)
}

// appendStr appends Python's str(v) as Jinja2 prints it (Undefined
// prints nothing).
func appendStr(dst []byte, v value) ([]byte, error) {
	switch v.k {
	case vStr:
		return append(dst, v.s...), nil
	case vUndef:
		return dst, nil
	}
	return appendRepr(dst, v, 0)
}

// str is Python's str(v), Undefined giving "".
func str(v value) (string, error) {
	switch v.k {
	case vStr:
		return v.s, nil
	case vUndef:
		return "", nil
	case vInt:
		return strconv.FormatInt(v.n, 10), nil
	}
	b, err := appendRepr(nil, v, 0)
	return string(b), err
}

// appendRepr appends Python's repr(v) (str(v) for numbers, None and
// bools, which print their repr).
func appendRepr(dst []byte, v value, depth int) ([]byte, error) {
	if depth > 100 {
		return dst, unmodelled("deep repr")
	}
	switch v.k {
	case vNone:
		return append(dst, "None"...), nil
	case vBool:
		if v.n != 0 {
			return append(dst, "True"...), nil
		}
		return append(dst, "False"...), nil
	case vInt:
		return strconv.AppendInt(dst, v.n, 10), nil
	case vFloat:
		f := v.f()
		switch {
		case math.IsInf(f, 1):
			return append(dst, "inf"...), nil
		case math.IsInf(f, -1):
			return append(dst, "-inf"...), nil
		case math.IsNaN(f):
			return append(dst, "nan"...), nil
		}
		return pyjson.AppendFloat(dst, f), nil
	case vStr:
		return appendStrRepr(dst, v.s)
	case vList:
		l := v.list()
		open, close := byte('['), byte(']')
		switch l.flavor {
		case flTuple:
			open, close = '(', ')'
		case flList:
		default:
			return dst, unmodelled("printing a generator or a dict view")
		}
		dst = append(dst, open)
		var err error
		for i, it := range l.items {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			if dst, err = appendRepr(dst, it, depth+1); err != nil {
				return dst, err
			}
		}
		if l.flavor == flTuple && len(l.items) == 1 {
			dst = append(dst, ',')
		}
		return append(dst, close), nil
	case vDict:
		d := v.dict()
		dst = append(dst, '{')
		var err error
		for i, k := range d.keys {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			if dst, err = appendStrRepr(dst, k); err != nil {
				return dst, err
			}
			dst = append(dst, ": "...)
			if dst, err = appendRepr(dst, d.vals[i], depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	}
	return dst, unmodelled("printing this value")
}

// appendStrRepr appends Python's repr of a str.
func appendStrRepr(dst []byte, s string) ([]byte, error) {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	dst = append(dst, quote)
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			return dst, unmodelled("repr of invalid UTF-8")
		case r == rune(quote) || r == '\\':
			dst = append(dst, '\\', byte(r))
		case r == '\n':
			dst = append(dst, `\n`...)
		case r == '\r':
			dst = append(dst, `\r`...)
		case r == '\t':
			dst = append(dst, `\t`...)
		case r < 0x20 || r == 0x7f:
			dst = append(dst, `\x`...)
			dst = append(dst, "0123456789abcdef"[r>>4], "0123456789abcdef"[r&15])
		case r < 0x7f:
			dst = append(dst, byte(r))
		case unicode.Is(addedInUnicode15, r):
			return dst, unmodelled("repr of a character Unicode 15.0 added")
		case unicode.IsPrint(r) && !unicode.Is(unicode.Zs, r):
			dst = utf8.AppendRune(dst, r)
		default:
			return dst, unmodelled("repr of a non-printable character")
		}
	}
	return append(dst, quote), nil
}

// addedInUnicode15 are the characters Unicode 15.0 added, printable by
// Go's unicode package (15.0) but unassigned for Python 3.11 (14.0), whose
// repr escapes them (\U000XXXXX) where Python 3.12 and later print them:
// their repr depends on Python's version, so the compiled path leaves it to
// the engine. (Computed from unicode.IsPrint and Python 3.11's
// str.isprintable over every code point.)
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

// isNum reports whether v is an int, a float or a bool (a Python number).
func isNum(v value) bool { return v.k == vInt || v.k == vFloat || v.k == vBool }

func numF(v value) float64 {
	if v.k == vFloat {
		return v.f()
	}
	return float64(v.n)
}

// equal is Python's a == b.
func equal(a, b value) (bool, error) {
	if isNum(a) && isNum(b) {
		if a.k == vFloat || b.k == vFloat {
			return numF(a) == numF(b), nil
		}
		return a.n == b.n, nil
	}
	if a.k != b.k {
		switch {
		case a.k == vNS || b.k == vNS || a.k == vLoop || b.k == vLoop || a.k == vMethod || b.k == vMethod || a.k == vMacro || b.k == vMacro:
			return false, unmodelled("comparing objects")
		}
		return false, nil
	}
	switch a.k {
	case vUndef, vNone:
		return true, nil
	case vStr:
		return a.s == b.s, nil
	case vList:
		la, lb := a.list(), b.list()
		if la.flavor == flGen || lb.flavor == flGen || la.flavor == flView || lb.flavor == flView {
			return false, unmodelled("comparing generators or views")
		}
		if la.flavor != lb.flavor || len(la.items) != len(lb.items) {
			return false, nil
		}
		for i := range la.items {
			eq, err := equal(la.items[i], lb.items[i])
			if err != nil || !eq {
				return false, err
			}
		}
		return true, nil
	case vDict:
		da, db := a.dict(), b.dict()
		if da == db {
			return true, nil
		}
		if len(da.keys) != len(db.keys) {
			return false, nil
		}
		for i, k := range da.keys {
			bv, ok := db.get(k)
			if !ok {
				return false, nil
			}
			eq, err := equal(da.vals[i], bv)
			if err != nil || !eq {
				return false, err
			}
		}
		return true, nil
	}
	return false, unmodelled("comparing objects")
}

// less is Python's a < b for numbers and strings.
func less(a, b value) (bool, error) {
	switch {
	case isNum(a) && isNum(b):
		if a.k == vFloat || b.k == vFloat {
			return numF(a) < numF(b), nil
		}
		return a.n < b.n, nil
	case a.k == vStr && b.k == vStr:
		return a.s < b.s, nil // UTF-8 byte order is code point order
	}
	return false, unmodelled("ordering these values")
}

// pyLen is Python's len(v); Undefined has length 0.
func pyLen(v value) (int, error) {
	switch v.k {
	case vStr:
		return utf8.RuneCountInString(v.s), nil
	case vList:
		l := v.list()
		if l.flavor == flGen {
			return 0, unmodelled("len of a generator")
		}
		return len(l.items), nil
	case vDict:
		return len(v.dict().keys), nil
	case vUndef:
		return 0, nil
	}
	return 0, unmodelled("len of this value")
}

// iterate returns the items a for loop over v visits.
func iterate(v value) ([]value, error) {
	switch v.k {
	case vList:
		l := v.list()
		if l.flavor == flGen {
			if l.used {
				return nil, nil
			}
			l.used = true
		}
		return l.items, nil
	case vDict:
		d := v.dict()
		out := make([]value, len(d.keys))
		for i, k := range d.keys {
			out[i] = strV(k)
		}
		return out, nil
	case vStr:
		out := make([]value, 0, len(v.s))
		for _, r := range v.s {
			out = append(out, strV(string(r)))
		}
		return out, nil
	case vUndef:
		return nil, nil
	}
	return nil, unmodelled("iterating this value")
}

// toPy converts v to what json.dumps serialises.
func toPy(v value, depth int) (pyjson.Value, error) {
	if depth > 500 {
		return pyjson.Value{}, unmodelled("deep tojson")
	}
	switch v.k {
	case vNone:
		return pyjson.Value{Kind: pyjson.Null}, nil
	case vBool:
		return pyjson.Value{Kind: pyjson.Bool, Bool: v.n != 0}, nil
	case vInt:
		return pyjson.Value{Kind: pyjson.Int, Int: strconv.FormatInt(v.n, 10)}, nil
	case vFloat:
		return pyjson.Value{Kind: pyjson.Float, Float: v.f()}, nil
	case vStr:
		return pyjson.Value{Kind: pyjson.String, Str: v.s}, nil
	case vList:
		l := v.list()
		if l.flavor != flList && l.flavor != flTuple {
			return pyjson.Value{}, unmodelled("tojson of a generator")
		}
		out := pyjson.Value{Kind: pyjson.Array, Items: make([]pyjson.Value, len(l.items))}
		for i, it := range l.items {
			pv, err := toPy(it, depth+1)
			if err != nil {
				return pyjson.Value{}, err
			}
			out.Items[i] = pv
		}
		return out, nil
	case vDict:
		d := v.dict()
		out := pyjson.Value{Kind: pyjson.Object, Keys: d.keys, Items: make([]pyjson.Value, len(d.keys))}
		for i := range d.keys {
			pv, err := toPy(d.vals[i], depth+1)
			if err != nil {
				return pyjson.Value{}, err
			}
			out.Items[i] = pv
		}
		return out, nil
	}
	return pyjson.Value{}, unmodelled("tojson of this value")
}

// appendJSON appends json.dumps(v, ensure_ascii=False) with the default
// separators.
func appendJSON(dst []byte, v value, depth int) ([]byte, error) {
	if depth > 500 {
		return dst, unmodelled("deep tojson")
	}
	switch v.k {
	case vNone:
		return append(dst, "null"...), nil
	case vBool:
		if v.n != 0 {
			return append(dst, "true"...), nil
		}
		return append(dst, "false"...), nil
	case vInt:
		return strconv.AppendInt(dst, v.n, 10), nil
	case vFloat:
		return pyjson.AppendFloat(dst, v.f()), nil
	case vStr:
		return pyjson.AppendString(dst, v.s, false), nil
	case vList:
		l := v.list()
		if l.flavor != flList && l.flavor != flTuple {
			return dst, unmodelled("tojson of a generator")
		}
		dst = append(dst, '[')
		var err error
		for i, it := range l.items {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			if dst, err = appendJSON(dst, it, depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case vDict:
		d := v.dict()
		if d.js != "" {
			return append(dst, d.js...), nil
		}
		dst = append(dst, '{')
		var err error
		for i, k := range d.keys {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = pyjson.AppendString(dst, k, false)
			dst = append(dst, ": "...)
			if dst, err = appendJSON(dst, d.vals[i], depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	}
	return dst, unmodelled("tojson of this value")
}

// fromPy converts a value json.loads gives to a template value.
func fromPy(v *pyjson.Value) (value, error) {
	switch v.Kind {
	case pyjson.Null:
		return none, nil
	case pyjson.Bool:
		return boolV(v.Bool), nil
	case pyjson.Int:
		n, err := strconv.ParseInt(v.Int, 10, 64)
		if err != nil {
			return undef, unmodelled("an integer beyond 64 bits")
		}
		return intV(n), nil
	case pyjson.Float:
		return floatV(v.Float), nil
	case pyjson.String:
		return strV(v.Str), nil
	case pyjson.Array:
		items := make([]value, len(v.Items))
		for i := range v.Items {
			it, err := fromPy(&v.Items[i])
			if err != nil {
				return undef, err
			}
			items[i] = it
		}
		return listV(items, flList), nil
	case pyjson.Object:
		d := &vdict{keys: v.Keys, vals: make([]value, len(v.Items))}
		for i := range v.Items {
			it, err := fromPy(&v.Items[i])
			if err != nil {
				return undef, err
			}
			d.vals[i] = it
		}
		return dictV(d), nil
	}
	return none, nil
}
