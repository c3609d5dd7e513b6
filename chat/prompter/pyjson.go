package prompter

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"unicode/utf16"
)

// writeJSON writes the JSON value raw to b in the layout of Python's
// json.dumps with default settings: ", " between items, ": " after keys,
// keys in their given order, numbers as written. With ascii, every
// character outside printable ASCII is written as a \uXXXX escape
// (ensure_ascii=True); without it only control characters, '"' and '\' are
// escaped.
func writeJSON(b *strings.Builder, raw []byte, ascii bool) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	type frame struct {
		object bool
		n      int // keys and values written so far
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			b.WriteByte(byte(d))
			continue
		}
		if n := len(stack); n > 0 {
			f := &stack[n-1]
			switch {
			case f.object && f.n%2 == 1:
				b.WriteString(": ")
			case f.n > 0:
				b.WriteString(", ")
			}
			f.n++
		}
		switch v := tok.(type) {
		case json.Delim:
			b.WriteByte(byte(v))
			stack = append(stack, frame{object: v == '{'})
		case string:
			writeJSONString(b, v, ascii)
		case json.Number:
			b.WriteString(string(v))
		case bool:
			if v {
				b.WriteString("true")
			} else {
				b.WriteString("false")
			}
		case nil:
			b.WriteString("null")
		}
	}
}

// writeJSONString writes s as a JSON string the way Python's json module
// does (see writeJSON).
func writeJSONString(b *strings.Builder, s string, ascii bool) {
	const hex = "0123456789abcdef"
	u4 := func(r rune) {
		b.WriteString(`\u`)
		b.WriteByte(hex[r>>12&0xf])
		b.WriteByte(hex[r>>8&0xf])
		b.WriteByte(hex[r>>4&0xf])
		b.WriteByte(hex[r&0xf])
	}
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20:
			u4(r)
		case !ascii || r < 0x7f:
			b.WriteRune(r)
		case r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			u4(r1)
			u4(r2)
		default:
			u4(r)
		}
	}
	b.WriteByte('"')
}
