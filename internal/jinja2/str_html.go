package jinja2

import (
	"html"
	"math"
	"strconv"
	"strings"
)

func truncF(f float64) float64 { return math.Trunc(f) }

// htmlUnescape is Python's html.unescape (Markup.unescape): each "&"
// followed by "#" and decimal digits, "#x" and hex digits, or a name of
// up to 32 characters (none of tab, newline, form feed, space, "<", "&",
// "#" or ";"), each with an optional ";", is replaced. A number Python
// maps (0, CR, and 0x80-0x9F as Windows-1252) is its character, a
// surrogate or one past U+10FFFF is U+FFFD, a control or noncharacter is
// dropped; a name is HTML5's entity, or its longest prefix that is one
// (ending in no ";") with the rest kept, as Go's html package finds them
// (whose table lacks two that Python's holds).
func htmlUnescape(s string) string {
	i := strings.IndexByte(s, '&')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i >= 0 {
		b.WriteString(s[:i])
		s = s[i:]
		n := charRef(&b, s)
		s = s[n:]
		i = strings.IndexByte(s, '&')
	}
	b.WriteString(s)
	return b.String()
}

// charRef writes what the reference at the start of s ("&...") stands
// for and returns how many bytes it took.
func charRef(b *strings.Builder, s string) int {
	if len(s) > 2 && s[1] == '#' {
		hex := s[2] == 'x' || s[2] == 'X'
		start := 2
		if hex {
			start = 3
		}
		end := start
		for end < len(s) && (s[end] >= '0' && s[end] <= '9' || hex && (s[end]|0x20 >= 'a' && s[end]|0x20 <= 'f')) {
			end++
		}
		if end > start {
			num := int64(0)
			base := int64(10)
			if hex {
				base = 16
			}
			for _, c := range s[start:end] {
				d := int64(c - '0')
				if c > '9' {
					d = int64(c|0x20-'a') + 10
				}
				if num <= 0x10FFFF {
					num = num*base + d
				}
			}
			if end < len(s) && s[end] == ';' {
				end++
			}
			writeCharRef(b, num)
			return end
		}
	}
	end := 1
	for end < len(s) && end <= 32 && !strings.ContainsRune("\t\n\f <&#;", rune(s[end])) {
		// (a byte of a multi-byte character is none of them)
		end++
	}
	if end < len(s) && s[end] == ';' && end > 1 {
		end++
	}
	if end == 1 {
		b.WriteByte('&')
		return 1
	}
	switch name := s[1:end]; {
	case strings.HasPrefix(name, "nGt;"):
		b.WriteString("\u226b\u20d2")
	case strings.HasPrefix(name, "nLt;"):
		b.WriteString("\u226a\u20d2")
	default:
		b.WriteString(html.UnescapeString(s[:end]))
	}
	return end
}

// writeCharRef writes the character a numeric reference stands for, as
// Python's html.unescape replaces it.
func writeCharRef(b *strings.Builder, num int64) {
	switch {
	case num == 0:
		b.WriteRune('\uFFFD')
	case num == 0x0D:
		b.WriteByte('\r')
	case num >= 0x80 && num <= 0x9F:
		// Windows-1252, as Go's html package maps them too
		b.WriteString(html.UnescapeString("&#" + strconv.FormatInt(num, 10) + ";"))
	case num >= 0xD800 && num <= 0xDFFF || num > 0x10FFFF:
		b.WriteRune('\uFFFD')
	case num >= 0x1 && num <= 0x8, num == 0xB, num >= 0xE && num <= 0x1F, num == 0x7F, num >= 0xFDD0 && num <= 0xFDEF, num&0xFFFE == 0xFFFE:
		// a control or a noncharacter: dropped
	default:
		b.WriteRune(rune(num))
	}
}

// stripTags is Markup.striptags: comments and tags removed, whitespace
// collapsed, entities unescaped.
func stripTags(value string) string {
	value = removeSpans(value, "<!--", "-->")
	value = removeSpans(value, "<", ">")
	return htmlUnescape(strings.Join(pySplitSpace(value, -1), " "))
}

// removeSpans removes the first span from open to the next close after
// it, searching from the start again each time, until no span is left,
// as markupsafe's striptags does: what a removal joins can open a span.
func removeSpans(value, open, close string) string {
	for {
		start := strings.Index(value, open)
		if start < 0 {
			return value
		}
		end := strings.Index(value[start:], close)
		if end < 0 {
			return value
		}
		value = value[:start] + value[start+end+len(close):]
	}
}
