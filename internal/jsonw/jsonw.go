// Package jsonw appends JSON to a byte slice exactly as encoding/json
// writes it with HTML escaping off (an Encoder after SetEscapeHTML(false),
// without its newline): the request bodies of package chat and the lines of
// package batch are written with it, once per message and per row, without
// building a value for encoding/json to walk.
package jsonw

import (
	"bytes"
	"encoding/json"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// String appends s as a JSON string: '"', '\\' and control characters
// escaped (\n, \r, \t, \b and \f by name, the others as \u00XX), U+2028 and U+2029
// as \u escapes, each byte of invalid UTF-8 as \ufffd; <, > and & as they
// are.
func String(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) {
			x := load8(s, i)
			m := special(x) | x&hi
			if m == 0 {
				i += 8
				continue
			}
			// The lowest flagged byte is one to look at (see special);
			// the ones before it are written as they are.
			i += bits.TrailingZeros64(m) / 8
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

const (
	lo = 0x0101010101010101
	hi = 0x8080808080808080
)

// load8 returns the 8 bytes of s from i as a little-endian word.
func load8[T string | []byte](s T, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// special has a high bit set when one of x's bytes is '"', '\\' or a
// control character (below 0x20), and no bit set otherwise. The lowest bit
// set is that of the first such byte; above it, a borrow may set the bits
// of bytes that are not.
func special(x uint64) uint64 {
	q := x ^ (lo * '"')
	bs := x ^ (lo * '\\')
	return ((q-lo)&^q | (bs-lo)&^bs | (x-lo*0x20)&^x) & hi
}

// Unescaped returns the length of the longest prefix of s that holds no
// '"', '\\' or control character: the part of a JSON string's text that
// reads as it is written.
func Unescaped[T string | []byte](s T) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if m := special(load8(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for i < len(s) {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
		i++
	}
	return i
}

// Compact appends raw without the white space between its tokens, as
// encoding/json writes a json.RawMessage or a MarshalJSON result. Text that
// is not one valid JSON value is encoding/json's *json.SyntaxError, and b
// comes back unchanged.
func Compact(b, raw []byte) ([]byte, error) {
	if !json.Valid(raw) {
		var buf bytes.Buffer
		err := json.Compact(&buf, raw)
		return b, err
	}
	inString, escaped := false, false
	start := 0
	for i, c := range raw {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			b = append(b, raw[start:i]...)
			start = i + 1
		}
	}
	return append(b, raw[start:]...), nil
}

// Value appends v as encoding/json marshals it with HTML escaping off.
// Strings, booleans, nil, integers and json.RawMessage are written here;
// any other value goes through encoding/json, whose error is returned (b
// unchanged).
func Value(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return String(b, v), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case int32:
		return strconv.AppendInt(b, int64(v), 10), nil
	case uint64:
		return strconv.AppendUint(b, v, 10), nil
	case json.RawMessage:
		if v == nil {
			return append(b, "null"...), nil
		}
		return Compact(b, v)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return b, err
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}
