package batch

import (
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/rolemark/rolemark/internal/jsonw"
	"github.com/rolemark/rolemark/internal/pyjson"
)

// decodeFlat decodes a row that is a JSON object whose values are all
// strings, numbers, booleans or null, into the map json.Unmarshal would
// make of it (numbers as internal/jsondata reads them), a repeated key
// taking its last value.
// It reports false for anything else — nested values, invalid JSON, invalid
// UTF-8, a UTF-16 surrogate escape, a number float64 cannot hold — which
// Decode leaves to encoding/json, so that such rows decode, or fail, as
// encoding/json says, from b as it was. When owned (no one else writes b),
// the strings without escapes share b's memory and the others memory from
// a, where their escapes are undone; otherwise they all share a copy of b
// in a, where the escapes are undone in place. b itself is never written.
func decodeFlat(b []byte, owned bool, a *arena) (map[string]any, bool) {
	if !utf8.Valid(b) {
		return nil, false
	}
	d := flatDecoder{b: b, owned: owned, a: a}
	if !owned {
		d.b = append(a.room(len(b)), b...)
	}
	type field struct {
		key string
		val any
	}
	var fbuf [16]field
	fields := fbuf[:0]
	d.space()
	if !d.byte('{') {
		return nil, false
	}
	d.space()
	if !d.byte('}') {
		for {
			var f field
			var ok bool
			d.space()
			if f.key, ok = d.string(); !ok {
				return nil, false
			}
			d.space()
			if !d.byte(':') {
				return nil, false
			}
			d.space()
			if f.val, ok = d.value(); !ok {
				return nil, false
			}
			fields = append(fields, f)
			d.space()
			if d.byte(',') {
				continue
			}
			if d.byte('}') {
				break
			}
			return nil, false
		}
	}
	if !d.end() {
		return nil, false
	}
	if owned {
		a.take(len(d.w))
	} else {
		a.take(len(d.b))
	}
	vars := make(map[string]any, len(fields))
	for _, f := range fields {
		vars[f.key] = f.val
	}
	return vars, true
}

// flatDecoder reads b.
type flatDecoder struct {
	b []byte
	i int
	// owned says that b is the row's own memory, never written: the text
	// of a string with escapes is written to w, in turn, and shares it.
	// Otherwise b is a copy, and the escapes are undone in place.
	owned bool
	w     []byte
	a     *arena
}

func (d *flatDecoder) space() { d.i = pyjson.SpaceEnd(d.b, d.i) }

// byte consumes c if it comes next.
func (d *flatDecoder) byte(c byte) bool {
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// end reports whether only white space is left.
func (d *flatDecoder) end() bool {
	d.space()
	return d.i == len(d.b)
}

// value reads a value that is no array or object.
func (d *flatDecoder) value() (any, bool) {
	if d.i >= len(d.b) {
		return nil, false
	}
	switch c := d.b[d.i]; {
	case c == '"':
		s, ok := d.string()
		return s, ok
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	}
	rest := d.b[d.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "null":
		d.i += 4
		return nil, true
	case len(rest) >= 4 && string(rest[:4]) == "true":
		d.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		d.i += 5
		return false, true
	}
	return nil, false
}

// string reads a JSON string (the text is valid UTF-8: decodeFlat checked)
// and returns its text. The text of a string without escapes is b's; that
// of one with escapes is written as they are undone (see flatDecoder.w),
// and those bytes are never written again, so the string is immutable.
func (d *flatDecoder) string() (string, bool) {
	if !d.byte('"') {
		return "", false
	}
	start := d.i
	d.i += jsonw.Unescaped(d.b[d.i:])
	if d.i >= len(d.b) {
		return "", false
	}
	if c := d.b[d.i]; c == '"' {
		d.i++
		if d.i-1 == start {
			return "", true
		}
		return unsafe.String(&d.b[start], d.i-1-start), true
	} else if c != '\\' {
		return "", false // a control character
	}
	// out is where the text goes: after the texts in w, whose capacity is
	// enough for the rest of b, so that it never moves; or over the string
	// itself in b, each escape being longer than what it stands for (at
	// most 3 bytes of UTF-8 for the 6 of a \u escape).
	var out []byte
	if d.owned {
		if d.w == nil {
			d.w = d.a.room(len(d.b) - start)
		}
		out = append(d.w[len(d.w):], d.b[start:d.i]...)
	} else {
		out = d.b[start:d.i]
	}
	for {
		// d.b[d.i] is the backslash of an escape.
		if d.i+1 >= len(d.b) {
			return "", false
		}
		c := d.b[d.i+1]
		d.i += 2
		if c == 'u' {
			r, ok := hex4(d.b[d.i:])
			if !ok {
				return "", false
			}
			d.i += 4
			out = utf8.AppendRune(out, r)
		} else {
			switch c {
			case '"', '\\', '/':
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			default:
				return "", false
			}
			out = append(out, c)
		}
		n := jsonw.Unescaped(d.b[d.i:])
		out = append(out, d.b[d.i:d.i+n]...)
		if d.i += n; d.i >= len(d.b) {
			return "", false
		}
		switch d.b[d.i] {
		case '"':
			d.i++
			if d.owned {
				d.w = d.w[:len(d.w)+len(out)]
			}
			return unsafe.String(unsafe.SliceData(out), len(out)), true
		case '\\':
		default:
			return "", false // a control character
		}
	}
}

// hex4 reads the four hex digits of a \u escape at the start of b; a
// surrogate is refused, for encoding/json to read.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	r := rune(0)
	for _, h := range b[:4] {
		if d := h - '0'; d < 10 {
			h = d
		} else if l := h | 0x20 - 'a'; l < 6 { // a-f, A-F
			h = l + 10
		} else {
			return 0, false
		}
		r = r<<4 | rune(h)
	}
	if r >= 0xD800 && r < 0xE000 {
		return 0, false
	}
	return r, true
}

// number reads a JSON number as internal/jsondata does: an int when it
// is written as an integer that fits one, else a float64, as encoding/json
// reads it into an interface value.
func (d *flatDecoder) number() (any, bool) {
	start := d.i
	d.byte('-')
	switch {
	case d.byte('0'):
	case d.digits() > 0:
	default:
		return nil, false
	}
	integer := true
	if d.byte('.') {
		if d.digits() == 0 {
			return nil, false
		}
		integer = false
	}
	if d.byte('e') || d.byte('E') {
		if !d.byte('+') {
			d.byte('-')
		}
		if d.digits() == 0 {
			return nil, false
		}
		integer = false
	}
	if integer {
		if n, err := strconv.Atoi(string(d.b[start:d.i])); err == nil {
			return n, true
		}
	}
	f, err := strconv.ParseFloat(string(d.b[start:d.i]), 64)
	if err != nil {
		return nil, false
	}
	return f, true
}

func (d *flatDecoder) digits() int {
	start := d.i
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
	}
	return d.i - start
}
