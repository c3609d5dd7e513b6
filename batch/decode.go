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
// encoding/json says, from b as it was. When owned (no one else writes b),
// the strings without escapes share b's memory and the others a copy of
// the part of b they span, where their escapes are undone; otherwise they
// all share a copy of b. b itself is never written.
func decodeFlat(b []byte, owned bool) (map[string]any, bool) {
	if !utf8.Valid(b) {
		return nil, false
	}
	d := flatDecoder{b: b}
	var fbuf [16]flatField
	fields := fbuf[:0]
	d.space()
	if !d.byte('{') {
		return nil, false
	}
	d.space()
	if !d.byte('}') {
		for {
			var f flatField
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
			if !d.value(&f) {
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
		// b is never written, so that the row's JSON stays as it was (a
		// second Decode reads it again): the escaped strings are copied,
		// one after the other, to one buffer, and undone there.
		n := 0
		for _, f := range fields {
			for _, s := range [2]flatString{f.key, f.str} {
				if s.esc {
					n += s.end - s.start
				}
			}
		}
		if n > 0 {
			d.w, d.copyOut = make([]byte, n), true
		}
	} else {
		d.b = append([]byte(nil), b...)
		d.w = d.b
	}
	vars := make(map[string]any, len(fields))
	for _, f := range fields {
		k := d.text(f.key)
		if f.isStr {
			vars[k] = d.text(f.str)
		} else {
			vars[k] = f.val
		}
	}
	return vars, true
}

// flatField is one key and its value, read and not yet unescaped: str
// when the value is a string (isStr), val otherwise.
type flatField struct {
	key, str flatString
	isStr    bool
	val      any
}

// flatString is a JSON string of the row: its text, between the quotes,
// is b[start:end], with escapes if esc; escs[e0:e1] are they, when they
// all fit in escs.
type flatString struct {
	start, end int
	esc        bool
	e0, e1     int
}

// flatDecoder reads b, which it owns.
type flatDecoder struct {
	b []byte
	i int
	// w is where text undoes escapes: b itself when it is a copy, or,
	// with copyOut, a buffer the escaped strings are copied to in turn
	// (the next at n).
	w       []byte
	copyOut bool
	n       int
	// escs are the escapes string found, in order, for text to undo
	// without looking for them again; a string whose escapes did not fit
	// has none here (flatString.esc without escs).
	escs  [64]flatEscape
	nescs int
}

// flatEscape is an escape at b[at:]: 2 bytes long, or 6 for \u, which
// stand for r.
type flatEscape struct {
	at int32
	r  rune
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

// value reads f's value.
func (d *flatDecoder) value(f *flatField) (ok bool) {
	if d.i >= len(d.b) {
		return false
	}
	switch c := d.b[d.i]; {
	case c == '"':
		f.str, ok = d.string()
		f.isStr = true
		return ok
	case c == '-' || c >= '0' && c <= '9':
		f.val, ok = d.number()
		return ok
	}
	rest := d.b[d.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "null":
		d.i += 4
		return true
	case len(rest) >= 4 && string(rest[:4]) == "true":
		d.i += 4
		f.val = true
		return true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		d.i += 5
		f.val = false
		return true
	}
	return false
}

// string reads a JSON string (the text is valid UTF-8: decodeFlat checked),
// checking its escapes.
func (d *flatDecoder) string() (flatString, bool) {
	if !d.byte('"') {
		return flatString{}, false
	}
	s := flatString{start: d.i, e0: d.nescs}
	for {
		d.i += jsonw.Unescaped(d.b[d.i:])
		if d.i >= len(d.b) {
			return flatString{}, false
		}
		switch d.b[d.i] {
		case '"':
			s.end = d.i
			d.i++
			if s.e1 = d.nescs; s.e1 < 0 { // escs overflowed within s
				s.e0, s.e1 = 0, 0
			}
			return s, true
		case '\\':
		default:
			return flatString{}, false // a control character
		}
		s.esc = true
		if d.i+1 >= len(d.b) {
			return flatString{}, false
		}
		e := flatEscape{at: int32(d.i), r: rune(d.b[d.i+1])}
		d.i += 2
		switch e.r {
		case '"', '\\', '/':
		case 'b':
			e.r = '\b'
		case 'f':
			e.r = '\f'
		case 'n':
			e.r = '\n'
		case 'r':
			e.r = '\r'
		case 't':
			e.r = '\t'
		case 'u':
			var ok bool
			if e.r, ok = hex4(d.b[d.i:]); !ok {
				return flatString{}, false
			}
			d.i += 4
		default:
			return flatString{}, false
		}
		switch {
		case d.nescs < 0:
		case d.nescs < len(d.escs):
			d.escs[d.nescs] = e
			d.nescs++
		default:
			d.nescs = -1 // no more room: text looks for the rest itself
		}
	}
}

// text returns the text of s, read by string. A string without escapes
// shares d.b's memory; one with escapes is unescaped in place in d.w, the
// unescaped text being never longer than the escaped one. The bytes a
// string returned covers are never written again, so it stays immutable.
func (d *flatDecoder) text(s flatString) string {
	if s.start == s.end {
		return ""
	}
	if !s.esc {
		return unsafe.String(&d.b[s.start], s.end-s.start)
	}
	b, base := d.w, 0 // s.start in d.b is s.start-base in b
	if d.copyOut {
		base = s.start - d.n
		d.n += copy(b[d.n:], d.b[s.start:s.end])
	}
	start, end := s.start-base, s.end-base
	if s.e0 == s.e1 {
		return unescape(b, start, end)
	}
	w, i := start, start // where the text is written, and read
	for _, e := range d.escs[s.e0:s.e1] {
		at := int(e.at) - base
		if w == i {
			w = at
		} else {
			w += copy(b[w:], b[i:at])
		}
		i = at + 2
		if b[at+1] == 'u' {
			i += 4
			w += utf8.EncodeRune(b[w:], e.r) // at most 3 bytes for the 6 read
			continue
		}
		b[w] = byte(e.r)
		w++
	}
	w += copy(b[w:], b[i:end])
	return unsafe.String(&b[start], w-start)
}

// unescape is text for the string b[start:end] whose escapes string did
// not record.
func unescape(b []byte, start, end int) string {
	w, i := start, start // where the text is written, and read
	for {
		n := jsonw.Unescaped(b[i:end])
		w += copy(b[w:], b[i:i+n])
		if i += n; i == end {
			return unsafe.String(&b[start], w-start)
		}
		e := b[i+1]
		i += 2
		switch e {
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
			r, _ := hex4(b[i:])
			i += 4
			w += utf8.EncodeRune(b[w:], r) // at most 3 bytes for the 6 read
			continue
		}
		b[w] = e
		w++
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
