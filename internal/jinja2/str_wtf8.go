package jinja2

import (
	"strings"
	"unicode/utf8"
)

// Lone surrogates. Python's str holds any code point, U+D800 to U+DFFF
// too ('\ud83d' in a template is one character, and '\ud83d\ude00' two,
// not an emoji); UTF-8 has none. The package holds a surrogate as the
// three bytes UTF-8's scheme would give it (ED A0–BF 80–BF: WTF-8, what
// Python's encode(errors='surrogatepass') writes), which no valid UTF-8
// holds, so a template's output carries them as those bytes. Length,
// items, slices, iteration, repr, tojson and encode read them as one
// character each; other str methods see three invalid bytes.

// isSurrogateAt reports whether s[i:] starts with a surrogate's bytes.
func isSurrogateAt(s string, i int) bool {
	return i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF
}

// decodeRuneW is utf8.DecodeRuneInString reading a surrogate's bytes as
// the surrogate.
func decodeRuneW(s string) (rune, int) {
	if isSurrogateAt(s, 0) {
		return rune(s[0]&0x0F)<<12 | rune(s[1]&0x3F)<<6 | rune(s[2]&0x3F), 3
	}
	return utf8.DecodeRuneInString(s)
}

// appendRuneW is utf8.AppendRune writing a surrogate's bytes.
func appendRuneW(dst []byte, r rune) []byte {
	if r >= 0xD800 && r <= 0xDFFF {
		return append(dst, 0xED, byte(0x80|(r>>6)&0x3F), byte(0x80|r&0x3F))
	}
	return utf8.AppendRune(dst, r)
}

// runeStrW is string(r), a surrogate's bytes for a surrogate.
func runeStrW(r rune) string {
	if r >= 0xD800 && r <= 0xDFFF {
		return string(appendRuneW(nil, r))
	}
	return string(r)
}

// runesW is []rune(s) reading surrogates.
func runesW(s string) []rune {
	if strings.IndexByte(s, 0xED) < 0 {
		return []rune(s)
	}
	out := make([]rune, 0, len(s))
	for i := 0; i < len(s); {
		r, n := decodeRuneW(s[i:])
		out = append(out, r)
		i += n
	}
	return out
}

// surrogatesIn is the number of surrogates s holds.
func surrogatesIn(s string) int {
	n := 0
	for i := strings.IndexByte(s, 0xED); i >= 0 && i < len(s); {
		if isSurrogateAt(s, i) {
			n++
			i += 3
		} else {
			i++
		}
		j := strings.IndexByte(s[i:], 0xED)
		if j < 0 {
			break
		}
		i += j
	}
	return n
}

// firstSurrogate is the index in characters of s's first surrogate and
// the surrogate, or -1.
func firstSurrogate(s string) (int, rune) {
	if strings.IndexByte(s, 0xED) < 0 {
		return -1, 0
	}
	pos := 0
	for i := 0; i < len(s); pos++ {
		r, n := decodeRuneW(s[i:])
		if r >= 0xD800 && r <= 0xDFFF {
			return pos, r
		}
		i += n
	}
	return -1, 0
}

// surrogateEncodeErr is the UnicodeEncodeError of s.encode('utf-8') when s
// holds a surrogate: the first run of them, by their places.
func surrogateEncodeErr(s string) error {
	pos, r := firstSurrogate(s)
	if pos < 0 {
		return nil
	}
	i := 0
	for k := 0; k < pos; k++ {
		_, n := decodeRuneW(s[i:])
		i += n
	}
	end := pos
	for i += 3; isSurrogateAt(s, i); i += 3 {
		end++
	}
	if end == pos {
		return pyErr("UnicodeEncodeError", "'utf-8' codec can't encode character '\\u%04x' in position %d: surrogates not allowed", r, pos)
	}
	return pyErr("UnicodeEncodeError", "'utf-8' codec can't encode characters in position %d-%d: surrogates not allowed", pos, end)
}

// runeCountW is the number of characters of s, a surrogate's bytes one.
func runeCountW(s string) int { return utf8.RuneCountInString(s) - 2*surrogatesIn(s) }

// hasSurrogate reports whether s holds a surrogate's bytes.
func hasSurrogate(s string) bool {
	return strings.IndexByte(s, 0xED) >= 0 && surrogatesIn(s) > 0
}

// bySegments applies a str method that maps characters to the runs of s
// between its surrogates (first to a run at the start, rest to the
// others), keeping the surrogates: they are neither cased nor
// case-ignorable, so a run ends a word as the end of the str does.
func bySegments(s string, first, rest func(string) string) string {
	var b strings.Builder
	start := 0
	for i := 0; i < len(s); {
		if !isSurrogateAt(s, i) {
			i++
			continue
		}
		if start < i {
			f := rest
			if start == 0 {
				f = first
			}
			b.WriteString(f(s[start:i]))
		}
		b.WriteString(s[i : i+3])
		i += 3
		start = i
	}
	if start < len(s) {
		f := rest
		if start == 0 {
			f = first
		}
		b.WriteString(f(s[start:]))
	}
	return b.String()
}
