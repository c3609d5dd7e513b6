package roleparse

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Markup is trusted markup: text that an engine inserts into a rendered
// template without escaping when the template itself produces it (a markup
// helper, the raw form, or a function the Go caller registers that returns
// Markup). A Markup value found in the data is escaped like any other value
// in every engine; only the template's raw form ({{{x}}}, |safe, raw)
// inserts it as markup.
type Markup string

// escapeTable maps each byte that Escape replaces to its replacement.
var escapeTable = [256]string{
	'&':  "&amp;",
	'<':  "&lt;",
	'>':  "&gt;",
	'"':  "&quot;",
	'\'': "&#39;",
}

// numericEscapeTable is escapeTable with the quotes written as Python's
// markupsafe writes them, as numeric references.
var numericEscapeTable = [256]string{
	'&':  "&amp;",
	'<':  "&lt;",
	'>':  "&gt;",
	'"':  "&#34;",
	'\'': "&#39;",
}

// textEscapeTable is escapeTable for text content, where quotes need no
// escaping.
var textEscapeTable = [256]string{
	'&': "&amp;",
	'<': "&lt;",
	'>': "&gt;",
}

// Escaping scans eight bytes at a time: special reports, for a word of eight
// bytes, whether any of them is one that Escape replaces.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// special is non-zero when some byte of the word w is one that Escape
// replaces. It applies the classic test for a zero byte, (x-1)&^x&0x80 per
// byte, to w xor each special byte: exact as a yes or no, which is all it is
// used for.
func special(w uint64) uint64 {
	a := w ^ (ones * '&')
	l := w ^ (ones * '<')
	g := w ^ (ones * '>')
	q := w ^ (ones * '"')
	s := w ^ (ones * '\'')
	return ((a-ones)&^a | (l-ones)&^l | (g-ones)&^g | (q-ones)&^q | (s-ones)&^s) & highs
}

// text is held either way: the escaper reads both without copying.
type text interface{ ~string | ~[]byte }

// word reads the eight bytes of s starting at i, little-endian. The
// compiler joins the eight loads into one.
func word[T text](s T, i int) uint64 {
	b := s[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// nextSpecial returns the index of the first byte at or after i that Escape
// replaces, or len(s). In a word, the lowest bit that special sets marks
// the first such byte exactly (a false positive of the zero-byte test can
// only follow a true one).
func nextSpecial[T text](s T, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if m := special(word(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for ; i < len(s); i++ {
		if escapeTable[s[i]] != "" {
			return i
		}
	}
	return len(s)
}

// Escape returns s with & < > " ' replaced by character references, so that
// s inserted anywhere in markup (message text, a part, an attribute value)
// reads back as exactly s. All other bytes, including control characters and
// invalid UTF-8, are kept as they are.
func Escape(s string) string {
	i := nextSpecial(s, 0)
	if i == len(s) {
		return s
	}
	return string(appendEscapeFrom(make([]byte, 0, len(s)+16), s, i, &escapeTable))
}

// EscapeNumeric is Escape writing " and ' as &#34; and &#39;, as Python's
// markupsafe.escape does: the jinja engine's escaping, so that an escaped
// value a template goes on using (its length, a slice, |upper) is the
// string Jinja2 makes. Parse reads both forms back alike.
func EscapeNumeric(s string) string {
	i := nextSpecial(s, 0)
	if i == len(s) {
		return s
	}
	return string(appendEscapeFrom(make([]byte, 0, len(s)+16), s, i, &numericEscapeTable))
}

// AppendEscape appends the escaped form of s to dst.
func AppendEscape(dst []byte, s string) []byte {
	return appendEscapeFrom(dst, s, nextSpecial(s, 0), &escapeTable)
}

// AppendEscapeBytes appends the escaped form of b to dst.
func AppendEscapeBytes(dst, b []byte) []byte {
	return appendEscapeFrom(dst, b, nextSpecial(b, 0), &escapeTable)
}

// appendEscapeFrom appends the escaped form of s by table to dst, where i
// is the index of the first byte to replace (or len(s)).
func appendEscapeFrom[T text](dst []byte, s T, i int, table *[256]string) []byte {
	last := 0
	for i < len(s) {
		dst = append(dst, s[last:i]...)
		dst = append(dst, table[s[i]]...)
		last = i + 1
		i = nextSpecial(s, last)
	}
	return append(dst, s[last:]...)
}

// stringWriter is what writeEscaped writes to.
type stringWriter interface {
	WriteString(string) (int, error)
}

func writeEscaped(w stringWriter, s string) { writeWith(w, s, &escapeTable) }

func writeWith(w stringWriter, s string, table *[256]string) {
	last := 0
	for i := 0; i < len(s); i++ {
		if r := table[s[i]]; r != "" {
			w.WriteString(s[last:i])
			w.WriteString(r)
			last = i + 1
		}
	}
	w.WriteString(s[last:])
}

// EscapeValue formats any value as FormatValue does and escapes the result,
// whatever its type: a Markup value found in the data is data too (only an
// engine's raw form inserts it as markup).
func EscapeValue(v any) string {
	if s, ok := v.(string); ok {
		return Escape(s)
	}
	return Escape(FormatValue(v))
}

// FormatValue formats any value as a template engine prints it, without
// escaping: nil is empty; strings, numbers, booleans, errors and
// fmt.Stringers print as fmt would; anything else prints with fmt's %v.
func FormatValue(v any) string {
	switch v := v.(type) {
	case Markup:
		return string(v)
	case string:
		return v
	case nil:
		return ""
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	case []byte:
		return string(v)
	case error:
		return v.Error()
	case fmt.Stringer:
		return v.String()
	}
	return fmt.Sprint(v)
}

// Attr is one attribute of a tag that MessageTag or PartTag writes.
type Attr struct{ Key, Value string }

// MessageTag returns the opening tag of a message of the given role with the
// given extra attributes (such as name or tool_call_id); empty values are
// left out. Role and values are escaped.
func MessageTag(role string, attrs ...Attr) Markup {
	var b strings.Builder
	b.Grow(24 + len(role))
	b.WriteString(`<message role="`)
	writeEscaped(&b, role)
	b.WriteByte('"')
	writeAttrs(&b, attrs)
	b.WriteByte('>')
	return Markup(b.String())
}

// PartTag returns a self-closing part tag such as <image url="…"/>; empty
// attribute values are left out. Values are escaped.
func PartTag(kind string, attrs ...Attr) Markup {
	var b strings.Builder
	b.WriteByte('<')
	b.WriteString(kind)
	writeAttrs(&b, attrs)
	b.WriteString("/>")
	return Markup(b.String())
}

func writeAttrs(b *strings.Builder, attrs []Attr) {
	for _, a := range attrs {
		if a.Value == "" {
			continue
		}
		b.WriteByte(' ')
		b.WriteString(a.Key)
		b.WriteString(`="`)
		writeEscaped(b, a.Value)
		b.WriteByte('"')
	}
}

// EndTag is the tag that closes a message.
const EndTag Markup = "</message>"

// MediaTag returns the part tag for a media item at url: <image> for image/*
// media types, <audio> for audio/*, <file> otherwise. With no media type, a
// data: URI's own type decides, and a plain URL is taken for an image.
func MediaTag(url, mediaType string) Markup {
	return PartTag(MediaKind(url, mediaType), Attr{"url", url}, Attr{"mimetype", mediaType})
}

// MediaKind returns the part tag MediaTag writes for a media item: image,
// audio or file.
func MediaKind(url, mediaType string) string {
	kind := "image"
	mt := mediaType
	if mt == "" {
		if rest, ok := strings.CutPrefix(url, "data:"); ok {
			mt, _, _ = strings.Cut(rest, ";")
			if i := strings.IndexByte(mt, ','); i >= 0 {
				mt = mt[:i]
			}
		}
	}
	switch {
	case mt == "" || strings.HasPrefix(mt, "image/"):
	case strings.HasPrefix(mt, "audio/"):
		kind = "audio"
	default:
		kind = "file"
	}
	return kind
}
