// References and text: decoding character references, trimming text, and
// decoding in place for ParseOwned.

package roleparse

import (
	"bytes"
	"strings"
	"unicode/utf8"
	"unsafe"
)

// decodeInPlace decodes the references in b into b itself (decoded text is
// never longer) and returns the decoded length.
func decodeInPlace(b []byte) int {
	w, r := 0, 0
	for {
		k := bytes.IndexByte(b[r:], '&')
		if k < 0 {
			return w + copy(b[w:], b[r:])
		}
		w += copy(b[w:], b[r:r+k])
		r += k
		var ref [utf8.UTFMax]byte
		// The string over b[r:] lives only while appendRef reads it; b
		// changes after it returns.
		out, size := appendRef(ref[:0], unsafe.String(&b[r], len(b)-r))
		if size == 0 {
			out, size = append(out, '&'), 1
		}
		w += copy(b[w:], out)
		r += size
	}
}

// textPart returns the text of runs for a text part that the caller adds as
// Content[part] of the open message. In owned markup, one run with
// references is left to decode in place when the parse succeeds.
func (p *parser) textPart(runs []run, part int) string {
	if p.owned {
		if !p.cfg.keepSpace {
			runs = trimRuns(runs)
		}
		if len(runs) == 1 && !runs[0].cdata && strings.IndexByte(runs[0].s, '&') >= 0 {
			s := runs[0].s
			start := int(uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.StringData(p.src))))
			p.pending = append(p.pending, pendingText{msg: len(p.msgs) - 1, part: part, start: start, end: start + len(s)})
			return s
		}
	}
	return p.text(runs)
}

// text joins runs into text: references decoded in raw runs, CDATA verbatim,
// literal whitespace trimmed at both ends (unless KeepSpace). It may shorten
// the runs it is given.
//
// Trimming is done on the runs before decoding: a reference starts with '&',
// so the whitespace at the ends of the runs as written is exactly the literal
// whitespace at the ends of the text, and whitespace written as a reference
// is kept.
func (p *parser) text(runs []run) string {
	if len(runs) == 1 && !runs[0].cdata {
		// The common case, a message's text as written: trimmed and
		// searched for a reference without touching runs.
		s := runs[0].s
		if !p.cfg.keepSpace {
			s = trimSpace(s)
		}
		k := strings.IndexByte(s, '&')
		if k < 0 {
			return s // nothing to decode: the text is the markup itself
		}
		b := p.chunk(len(s))
		base := b.Len()
		writeDecoded(b, s, k)
		return b.String()[base:]
	}
	if !p.cfg.keepSpace {
		runs = trimRuns(runs)
	}
	switch len(runs) {
	case 0:
		return ""
	case 1:
		if r := runs[0]; r.cdata || strings.IndexByte(r.s, '&') < 0 {
			return r.s // nothing to decode: the text is the markup itself
		}
	}
	need := 0
	for _, r := range runs {
		need += len(r.s)
	}
	b := p.chunk(need)
	base := b.Len()
	for _, r := range runs {
		if r.cdata {
			b.WriteString(r.s)
			continue
		}
		writeDecoded(b, r.s, strings.IndexByte(r.s, '&'))
	}
	return b.String()[base:]
}

// chunk returns the buffer of decoded text with room for need more bytes.
func (p *parser) chunk(need int) *strings.Builder {
	b := &p.textBuf
	if b.Cap()-b.Len() < need {
		// A new chunk; the strings made from the old one stay valid.
		*b = strings.Builder{}
		b.Grow(max(need, min(textChunk, len(p.src))))
	}
	return b
}

// writeDecoded writes s to b with its references decoded; k is the index
// of the first '&' in s, or -1.
func writeDecoded(b *strings.Builder, s string, k int) {
	for k >= 0 {
		b.WriteString(s[:k])
		s = s[k:]
		if c, size := refByte(s); size > 0 {
			b.WriteByte(c)
			s = s[size:]
		} else {
			var ref [utf8.UTFMax]byte
			out, size := appendRef(ref[:0], s)
			if size == 0 {
				out, size = append(out, '&'), 1
			}
			b.Write(out)
			s = s[size:]
		}
		k = strings.IndexByte(s, '&')
	}
	b.WriteString(s)
}

// trimSpace drops literal ASCII whitespace at both ends of s.
func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// textChunk is the size of the chunks of decoded text: the largest that
// the Go allocator serves from its per-size caches, whose memory is reused
// from one parse to the next without returning to the operating system.
const textChunk = 32 << 10

// trimRuns drops literal ASCII whitespace at both ends of the text the runs
// make, and the runs left empty.
func trimRuns(runs []run) []run {
	for len(runs) > 0 {
		s := runs[0].s
		i := 0
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i < len(s) {
			runs[0].s = s[i:]
			break
		}
		runs = runs[1:]
	}
	for len(runs) > 0 {
		last := &runs[len(runs)-1]
		s := last.s
		j := len(s)
		for j > 0 && isSpace(s[j-1]) {
			j--
		}
		if j > 0 {
			last.s = s[:j]
			break
		}
		runs = runs[:len(runs)-1]
	}
	return runs
}

// decode decodes the references in an attribute value.
func decode(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	var b strings.Builder
	for {
		k := strings.IndexByte(s, '&')
		if k < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:k])
		r, size := decodeRef(s[k:])
		if size == 0 {
			b.WriteByte('&')
			s = s[k+1:]
			continue
		}
		b.WriteString(r)
		s = s[k+size:]
	}
}

// le32 reads a little-endian word of s, which must be long enough.
func le32(s string) uint32 {
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// The five XML entities, read as words after the '&': "lt;", "gt;",
// "#39;" (Escape's apostrophe) and "#34;" (EscapeNumeric's quote) are
// checked with one comparison each.
const (
	refLt   = uint32('l') | uint32('t')<<8 | uint32(';')<<16
	refGt   = uint32('g') | uint32('t')<<8 | uint32(';')<<16
	refAmp  = uint32('a') | uint32('m')<<8 | uint32('p')<<16 | uint32(';')<<24
	refQuot = uint32('q') | uint32('u')<<8 | uint32('o')<<16 | uint32('t')<<24
	refApos = uint32('a') | uint32('p')<<8 | uint32('o')<<16 | uint32('s')<<24
	ref39   = uint32('#') | uint32('3')<<8 | uint32('9')<<16 | uint32(';')<<24
	ref34   = uint32('#') | uint32('3')<<8 | uint32('4')<<16 | uint32(';')<<24
)

// appendRef appends the decoding of the reference at the start of s
// ("&amp;", "&#39;", "&#x1F600;") to dst and returns the reference's length,
// or 0 (and dst unchanged) when s does not start with one.
func appendRef(dst []byte, s string) ([]byte, int) {
	if c, size := refByte(s); size > 0 {
		return append(dst, c), size
	}
	if len(s) < 4 || s[1] != '#' {
		return dst, 0
	}
	i, base := 2, 10
	if s[2] == 'x' || s[2] == 'X' {
		i, base = 3, 16
	}
	start := i
	r := 0
	for i < len(s) {
		d := digitVal(s[i], base)
		if d < 0 {
			break
		}
		if r <= utf8.MaxRune {
			// Once past the largest rune, stop growing: the reference is
			// out of range however many digits follow.
			r = r*base + d
		}
		i++
	}
	if i == start || i >= len(s) || s[i] != ';' || r > utf8.MaxRune || (r >= 0xD800 && r <= 0xDFFF) {
		return dst, 0
	}
	return utf8.AppendRune(dst, rune(r)), i + 1
}

// refByte returns the character and the length of the reference at the
// start of s when it is one of the five entities, "&#39;" or "&#34;", and
// a length of 0 otherwise.
func refByte(s string) (byte, int) {
	if len(s) >= 5 {
		switch w := le32(s[1:]); {
		case w&0xFFFFFF == refLt:
			return '<', 4
		case w&0xFFFFFF == refGt:
			return '>', 4
		case w == refAmp:
			return '&', 5
		case w == ref39:
			return '\'', 5
		case w == ref34:
			return '"', 5
		case len(s) >= 6 && s[5] == ';' && (w == refQuot || w == refApos):
			if w == refQuot {
				return '"', 6
			}
			return '\'', 6
		}
	} else if len(s) == 4 && s[3] == ';' && s[2] == 't' && (s[1] == 'l' || s[1] == 'g') {
		if s[1] == 'l' {
			return '<', 4
		}
		return '>', 4
	}
	return 0, 0
}

// decodeRef is appendRef returning a string.
func decodeRef(s string) (string, int) {
	var buf [8]byte
	b, n := appendRef(buf[:0], s)
	return string(b), n
}

func digitVal(c byte, base int) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case base == 16 && 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case base == 16 && 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// entities are the named references Parse decodes (refByte reads them
// fastest, appendRef through it).
var entities = [...]string{"&lt;", "&gt;", "&amp;", "&quot;", "&apos;"}

// refPrefix reports whether s, which starts with '&', is the beginning of
// a reference that more bytes could complete: what the parser makes of its
// '&' depends on what follows s.
func refPrefix(s string) bool {
	if _, size := appendRef(nil, s); size > 0 {
		return false // a whole reference: more bytes change nothing
	}
	for _, e := range entities {
		if len(s) < len(e) && e[:len(s)] == s {
			return true
		}
	}
	if len(s) < 2 || s[1] != '#' {
		return false
	}
	i, base := 2, 10
	if i < len(s) && (s[i] == 'x' || s[i] == 'X') {
		i, base = 3, 16
	}
	for i < len(s) && digitVal(s[i], base) >= 0 {
		i++
	}
	return i == len(s) // the digits may go on after s
}

// spaceRef reports whether s holds a character reference to ASCII
// whitespace, which Parse keeps where it trims literal whitespace.
func spaceRef(s string) bool {
	for {
		k := strings.IndexByte(s, '&')
		if k < 0 {
			return false
		}
		s = s[k:]
		var buf [utf8.UTFMax]byte
		if out, size := appendRef(buf[:0], s); size > 0 && len(out) == 1 && isSpace(out[0]) {
			return true
		}
		s = s[1:]
	}
}
