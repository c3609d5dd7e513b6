package react

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// pyJSON rewrites a JSON value the way Python's json.dumps(value,
// ensure_ascii=False) writes what json.loads read from it: ", " and ": "
// separators, object keys in their original order (a repeated key keeps its
// first place and its last value), non-ASCII characters kept, numbers as
// Python prints ints and floats. Qwen puts tool parameters into the prompt
// this way. Text that is not one JSON value comes back unchanged.
func pyJSON(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := readValue(dec)
	if err != nil {
		return string(raw)
	}
	if _, err := dec.Token(); err != io.EOF {
		return string(raw)
	}
	var b strings.Builder
	v.write(&b)
	return b.String()
}

// pyValue is a decoded JSON value that remembers key order.
type pyValue struct {
	kind  byte // 'o' object, 'a' array, 's' string, 'n' number, 'l' literal
	text  string
	keys  []string
	elems []pyValue
}

func readValue(dec *json.Decoder) (pyValue, error) {
	tok, err := dec.Token()
	if err != nil {
		return pyValue{}, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '[':
			v := pyValue{kind: 'a'}
			for dec.More() {
				e, err := readValue(dec)
				if err != nil {
					return pyValue{}, err
				}
				v.elems = append(v.elems, e)
			}
			_, err := dec.Token()
			return v, err
		case '{':
			v := pyValue{kind: 'o'}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return pyValue{}, err
				}
				k, _ := kt.(string)
				e, err := readValue(dec)
				if err != nil {
					return pyValue{}, err
				}
				dup := false
				for i, old := range v.keys {
					if old == k {
						v.elems[i], dup = e, true
						break
					}
				}
				if !dup {
					v.keys = append(v.keys, k)
					v.elems = append(v.elems, e)
				}
			}
			_, err := dec.Token()
			return v, err
		}
	case string:
		return pyValue{kind: 's', text: t}, nil
	case json.Number:
		return pyValue{kind: 'n', text: pyNumber(string(t))}, nil
	case bool:
		return pyValue{kind: 'l', text: strconv.FormatBool(t)}, nil
	case nil:
		return pyValue{kind: 'l', text: "null"}, nil
	}
	return pyValue{}, io.ErrUnexpectedEOF
}

func (v pyValue) write(b *strings.Builder) {
	switch v.kind {
	case 'a':
		b.WriteByte('[')
		for i, e := range v.elems {
			if i > 0 {
				b.WriteString(", ")
			}
			e.write(b)
		}
		b.WriteByte(']')
	case 'o':
		b.WriteByte('{')
		for i, e := range v.elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writePyString(b, v.keys[i])
			b.WriteString(": ")
			e.write(b)
		}
		b.WriteByte('}')
	case 's':
		writePyString(b, v.text)
	default:
		b.WriteString(v.text)
	}
}

// writePyString writes s as a JSON string literal the way Python's json
// module does with ensure_ascii=False.
func writePyString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			b.WriteRune(r)
			i += n
			continue
		}
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			} else {
				b.WriteByte(c)
			}
		}
		i++
	}
	b.WriteByte('"')
}

// pyNumber spells a JSON number as Python prints what json.loads made of it:
// an int keeps its digits, a float is written as repr(float) does.
func pyNumber(lit string) string {
	if !strings.ContainsAny(lit, ".eE") {
		if strings.Trim(lit, "-0") == "" {
			return "0"
		}
		return lit
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !math.IsInf(f, 0) {
		return lit
	}
	return pyFloat(f)
}

// pyFloat is Python's repr of a float.
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case math.IsNaN(f):
		return "NaN"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if exp < -4 || exp >= 16 {
		return e
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}
