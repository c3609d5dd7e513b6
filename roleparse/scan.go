// The scanner: recognising tags by name in the raw markup.

package roleparse

import "strings"

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// tagAt reports whether src[i:] starts a tag named name ("<name" or "</name"
// when closing), followed by whitespace, '>', '/' or the end of input (so
// that a tag cut off by the end of input is reported as not closed rather
// than kept as text). Names match ASCII case-insensitively.
func tagAt(src string, i int, name string, closing bool) bool {
	j := i + 1
	if closing {
		if j >= len(src) || src[j] != '/' {
			return false
		}
		j++
	}
	if len(src)-j < len(name) || !equalFoldASCII(src[j:j+len(name)], name) {
		return false
	}
	j += len(name)
	if j == len(src) {
		return true
	}
	c := src[j]
	return isSpace(c) || c == '>' || c == '/'
}

// MessageTagAt reports whether a <message start tag opens at byte i of
// markup, as Parse reads one: the name in any ASCII case, then
// whitespace, '>', '/' or the end of the markup. It is for a caller that
// places the parser's errors in the markup (the message a problem is in)
// without a copy of the tag grammar.
func MessageTagAt(markup string, i int) bool {
	return i >= 0 && i < len(markup) && markup[i] == '<' && tagAt(markup, i, "message", false)
}

// equalFoldASCII reports whether s equals lower, a lower-case ASCII name,
// ignoring ASCII case.
func equalFoldASCII(s, lower string) bool {
	for i := 0; i < len(lower); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// lowerASCII lower-cases an ASCII name, without allocating when it is
// lower case already.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// hasMessageTag reports whether s opens a message anywhere.
func hasMessageTag(s string) bool {
	for i := 0; ; {
		k := strings.IndexByte(s[i:], '<')
		if k < 0 {
			return false
		}
		i += k
		if tagAt(s, i, "message", false) {
			return true
		}
		i++
	}
}

func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c == ':' || c == '.' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// countMessageTags counts "<message" in s, to size the parse's slices.
func countMessageTags(s string) int {
	const tag = "<message"
	n := 0
	for {
		k := strings.IndexByte(s, '<')
		if k < 0 {
			return n
		}
		s = s[k:]
		if len(s) >= len(tag) && s[:len(tag)] == tag {
			n++
		}
		s = s[1:]
	}
}

// innerTags are the tags recognised inside a message, longest first where
// one is a prefix of another.
var innerTags = []string{"message", "text", "image", "audio", "file", "binary", "tool_call", "function_call", "function_result", "chat_history"}

// innerTagAt returns the recognised tag starting at i, if any.
func (p *parser) innerTagAt(i int) (string, bool) {
	closing := i+1 < len(p.src) && p.src[i+1] == '/'
	j := i + 1
	if closing {
		j++
	}
	if j >= len(p.src) {
		return "", false
	}
	switch p.src[j] | 0x20 { // ASCII lower case
	case 'm', 't', 'i', 'a', 'f', 'b', 'c':
	default:
		return "", false
	}
	for _, name := range innerTags {
		if tagAt(p.src, i, name, closing) {
			return name, closing
		}
	}
	return "", false
}

// hasPartTag reports whether s holds a part tag, opening or closing, or
// the start of one cut by the end of s.
func hasPartTag(s string) bool {
	for i := 0; ; i++ {
		k := strings.IndexByte(s[i:], '<')
		if k < 0 {
			return false
		}
		i += k
		closing := i+1 < len(s) && s[i+1] == '/'
		for _, name := range innerTags {
			if name != "message" && name != "chat_history" && tagAt(s, i, name, closing) {
				return true
			}
		}
	}
}

// decided reports whether the parser reads every '<' and '&' of t the
// same whatever follows t: a '<' followed within t by a '>', or by a byte
// that starts no tag; an '&' that starts a whole reference, or that no
// byte after t can make one.
func decided(t string) bool {
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '<':
			if strings.IndexByte(t[i+1:], '>') >= 0 {
				continue // the parser's reading of the '<' ends by this '>'
			}
			if i+1 == len(t) {
				return false
			}
			if c := t[i+1] | 0x20; ('a' <= c && c <= 'z') || t[i+1] == '/' || t[i+1] == '!' {
				return false
			}
		case '&':
			if refPrefix(t[i:]) {
				return false
			}
		}
	}
	return true
}
