package batch

import (
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/rolemark/rolemark/internal/jsonw"
)

// decodeFlat decodes a row that is a JSON object whose values are all
// strings, numbers, booleans or null, into the map json.Unmarshal would
// make of it: numbers as float64, a repeated key taking its last value.
// It reports false for anything else — nested values, invalid JSON, invalid
// UTF-8, a UTF-16 surrogate escape, a number float64 cannot hold — which
// Decode leaves to encoding/json, so that such rows decode, or fail, as
// encoding/json says.
func decodeFlat(b []byte) (map[string]any, bool) {
	if !utf8.Valid(b) {
		return nil, false
	}
	// The keys and values are read out of one copy of the row, their
	// escapes undone in place; see flatDecoder.string.
	d := flatDecoder{b: append([]byte(nil), b...)}
	d.space()
	if !d.byte('{') {
		return nil, false
	}
	vars := make(map[string]any, 8)
	d.space()
	if d.byte('}') {
		return vars, d.end()
	}
	for {
		d.space()
		key, ok := d.string()
		if !ok {
			return nil, false
		}
		d.space()
		if !d.byte(':') {
			return nil, false
		}
		d.space()
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		vars[key] = v
		d.space()
		if d.byte(',') {
			continue
		}
		if d.byte('}') {
			return vars, d.end()
		}
		return nil, false
	}
}

// flatDecoder reads b, which it owns.
type flatDecoder struct {
	b []byte
	i int
}

func (d *flatDecoder) space() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

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

func (d *flatDecoder) value() (any, bool) {
	if d.i >= len(d.b) {
		return nil, false
	}
	switch c := d.b[d.i]; {
	case c == '"':
		return d.string()
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
// and returns it as a string that shares d.b's memory. Its escapes are
// undone in place, the unescaped text being never longer than the escaped
// one; the bytes a string returned covers are never written again, so it
// stays immutable.
func (d *flatDecoder) string() (string, bool) {
	if !d.byte('"') {
		return "", false
	}
	start := d.i
	d.i += jsonw.Unescaped(d.b[d.i:])
	w := d.i // the end of the unescaped text
	for {
		if d.i >= len(d.b) {
			return "", false
		}
		switch d.b[d.i] {
		case '"':
			d.i++
			if w == start {
				return "", true
			}
			return unsafe.String(&d.b[start], w-start), true
		case '\\':
		default:
			return "", false // a control character
		}
		if d.i+1 >= len(d.b) {
			return "", false
		}
		e := d.b[d.i+1]
		d.i += 2
		switch e {
		case '"', '\\', '/':
		case 'b':
			e = '\b'
		case 'f':
			e = '\f'
		case 'n':
			e = '\n'
		case 'r':
			e = '\r'
		case 't':
			e = '\t'
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return "", false
			}
			w += utf8.EncodeRune(d.b[w:], r) // at most 3 bytes for the 6 read
			e = 0
		default:
			return "", false
		}
		if e != 0 {
			d.b[w] = e
			w++
		}
		n := jsonw.Unescaped(d.b[d.i:])
		w += copy(d.b[w:], d.b[d.i:d.i+n])
		d.i += n
	}
}

// hex4 reads the four hex digits of a \u escape; a surrogate is refused,
// for encoding/json to read.
func (d *flatDecoder) hex4() (rune, bool) {
	if d.i+4 > len(d.b) {
		return 0, false
	}
	r := rune(0)
	for _, h := range d.b[d.i : d.i+4] {
		switch {
		case h >= '0' && h <= '9':
			h -= '0'
		case h >= 'a' && h <= 'f':
			h -= 'a' - 10
		case h >= 'A' && h <= 'F':
			h -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(h)
	}
	if r >= 0xD800 && r < 0xE000 {
		return 0, false
	}
	d.i += 4
	return r, true
}

// number reads a JSON number as a float64, as encoding/json does for an
// interface value.
func (d *flatDecoder) number() (any, bool) {
	start := d.i
	d.byte('-')
	switch {
	case d.byte('0'):
	case d.digits() > 0:
	default:
		return nil, false
	}
	if d.byte('.') && d.digits() == 0 {
		return nil, false
	}
	if d.byte('e') || d.byte('E') {
		if !d.byte('+') {
			d.byte('-')
		}
		if d.digits() == 0 {
			return nil, false
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
