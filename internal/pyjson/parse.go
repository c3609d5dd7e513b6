package pyjson

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// SyntaxError is JSON text that Parse cannot read, with the byte offset
// where reading stopped.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at byte %d: %s", e.Offset, e.Msg)
}

// maxDepth bounds nesting, as Python's recursion limit does.
const maxDepth = 1000

// Parse reads one JSON value (RFC 8259, surrounding white space allowed)
// as Python's json.loads does: object keys in order, a repeated key in its
// first place with its last value, integers with all their digits, other
// numbers as float64 (overflow to ±Infinity). Python's extensions NaN and
// Infinity are not accepted, and a lone UTF-16 surrogate escape reads as
// U+FFFD, since a Go string cannot hold one. Text that is not valid UTF-8
// is an error, as it is for json.loads of bytes.
func Parse(data []byte) (Value, error) {
	if !utf8.Valid(data) {
		return Value{}, &SyntaxError{Offset: invalidAt(data), Msg: "invalid UTF-8"}
	}
	p := parser{s: data}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.space()
	if p.i < len(p.s) {
		return Value{}, p.fail("extra data after the value")
	}
	return v, nil
}

type parser struct {
	s []byte
	i int
}

func (p *parser) fail(msg string) error { return &SyntaxError{Offset: p.i, Msg: msg} }

func (p *parser) space() { p.i = SpaceEnd(p.s, p.i) }

// SpaceEnd returns the offset of the first byte of b at or after i that is
// not JSON white space (RFC 8259's space, tab, line feed and carriage
// return; json.loads skips the same four), or len(b).
func SpaceEnd(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func (p *parser) value(depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, p.fail("nested too deeply")
	}
	if p.i >= len(p.s) {
		return Value{}, p.fail("unexpected end, expecting a value")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		p.i++
		v := Value{Kind: Array, Items: []Value{}}
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return v, nil
		}
		for {
			p.space()
			e, err := p.value(depth + 1)
			if err != nil {
				return Value{}, err
			}
			v.Items = append(v.Items, e)
			p.space()
			if p.i >= len(p.s) {
				return Value{}, p.fail("unexpected end, expecting ',' or ']'")
			}
			switch p.s[p.i] {
			case ',':
				p.i++
			case ']':
				p.i++
				return v, nil
			default:
				return Value{}, p.fail("expecting ',' or ']'")
			}
		}
	case c == '"':
		s, err := p.str()
		return Value{Kind: String, Str: s}, err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case p.word("true"):
		return Value{Kind: Bool, Bool: true}, nil
	case p.word("false"):
		return Value{Kind: Bool}, nil
	case p.word("null"):
		return Value{Kind: Null}, nil
	}
	return Value{}, p.fail("expecting a value")
}

func (p *parser) word(w string) bool {
	if strings.HasPrefix(string(p.s[p.i:]), w) {
		p.i += len(w)
		return true
	}
	return false
}

func (p *parser) object(depth int) (Value, error) {
	p.i++
	v := Value{Kind: Object, Items: []Value{}, Keys: []string{}}
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return v, nil
	}
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return Value{}, p.fail("expecting a key in double quotes")
		}
		k, err := p.str()
		if err != nil {
			return Value{}, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return Value{}, p.fail("expecting ':'")
		}
		p.i++
		p.space()
		e, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		v.Set(k, e)
		p.space()
		if p.i >= len(p.s) {
			return Value{}, p.fail("unexpected end, expecting ',' or '}'")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return v, nil
		default:
			return Value{}, p.fail("expecting ',' or '}'")
		}
	}
}

func (p *parser) number() (Value, error) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.s[p.i] == '-' {
		p.i++
	}
	intStart := p.i
	if n := digits(); n == 0 {
		return Value{}, p.fail("expecting a digit")
	} else if n > 1 && p.s[intStart] == '0' {
		return Value{}, &SyntaxError{Offset: intStart, Msg: "leading zero in a number"}
	}
	isFloat := false
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		isFloat = true
		if digits() == 0 {
			return Value{}, p.fail("expecting a digit after '.'")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		isFloat = true
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return Value{}, p.fail("expecting a digit in the exponent")
		}
	}
	lit := string(p.s[start:p.i])
	if !isFloat {
		if strings.Trim(lit, "-0") == "" {
			lit = "0"
		}
		return Value{Kind: Int, Int: lit}, nil
	}
	f, err := strconv.ParseFloat(lit, 64)
	var ne *strconv.NumError
	if err != nil && !(errors.As(err, &ne) && ne.Err == strconv.ErrRange) {
		return Value{}, &SyntaxError{Offset: start, Msg: err.Error()}
	}
	if err != nil && !math.IsInf(f, 0) {
		// Underflow: Python reads the nearest float, a zero of the sign.
		f = math.Copysign(0, f)
		if lit[0] == '-' {
			f = math.Copysign(0, -1)
		}
	}
	return Value{Kind: Float, Float: f}, nil
}

func (p *parser) str() (string, error) {
	p.i++ // the opening quote
	start := p.i
	// Fast path: no escapes.
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '"' {
			s := p.s[start:p.i]
			p.i++
			return string(s), nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", p.fail("control character in a string")
		}
		p.i++
	}
	var b []byte
	b = append(b, p.s[start:p.i]...)
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return string(b), nil
		case c < 0x20:
			return "", p.fail("control character in a string")
		case c != '\\':
			b = append(b, c)
			p.i++
			continue
		}
		p.i++
		if p.i >= len(p.s) {
			break
		}
		e := p.s[p.i]
		p.i++
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.fail("invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				save := p.i
				if r < 0xdc00 && p.i+1 < len(p.s) && p.s[p.i] == '\\' && p.s[p.i+1] == 'u' {
					p.i += 2
					if r2, ok := p.hex4(); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
						r = utf16.DecodeRune(r, r2)
					} else {
						p.i, r = save, utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			p.i--
			return "", p.fail("invalid escape")
		}
	}
	return "", p.fail("unterminated string")
}

func (p *parser) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.s[p.i:p.i+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(n), true
}

func invalidAt(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}
