package batch

import (
	"unicode/utf8"

	"github.com/rolemark/rolemark/chat"
)

// appendMessages appends msgs as a JSON array of OpenAI messages, as
// chat.Message's MarshalJSON writes them. A text-only message with no name,
// tool calls or call ID (almost every message of a dataset) is written here
// directly: encoding/json would scan MarshalJSON's output again.
func appendMessages(b []byte, msgs []chat.Message) ([]byte, error) {
	b = append(b, '[')
	for i := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		m := &msgs[i]
		if m.TextOnly() && m.Name == "" && m.ToolCallID == "" && len(m.ToolCalls) == 0 && plainRole(m.Role) {
			b = append(b, `{"role":"`...)
			b = append(b, m.Role...)
			b = append(b, `","content":`...)
			b = appendString(b, m.Text())
			b = append(b, '}')
			continue
		}
		j, err := m.MarshalJSON()
		if err != nil {
			return nil, err
		}
		b = append(b, j...)
	}
	return append(b, ']'), nil
}

// plainRole reports whether a role is written as it is, with no escaping.
func plainRole(r chat.Role) bool {
	for i := 0; i < len(r); i++ {
		c := r[i]
		if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

const hex = "0123456789abcdef"

// appendString appends s as a JSON string as encoding/json writes it with
// HTML escaping off: ", \ and control characters escaped (\n, \r, \t by
// name), U+2028 and U+2029 as \u escapes, invalid UTF-8 as U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
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
