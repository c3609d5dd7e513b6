// Package pystr gives the bytes Python gives for the string operations
// HuggingFace chat templates use: str.strip, str.title and json.dumps with
// ensure_ascii=False. The formats and the chat templates both need them.
package pystr

import (
	"strings"
	"unicode"

	"github.com/rolemark/rolemark/internal/pyjson"
)

// HuggingFace templates run in Python: text is trimmed with str.strip and
// JSON is written by json.dumps(ensure_ascii=False). The helpers below give
// the same bytes.

// IsSpace reports whether Python's str.isspace holds for r.
func IsSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

func Trim(s string) string     { return strings.TrimFunc(s, IsSpace) }
func TrimLeft(s string) string { return strings.TrimLeftFunc(s, IsSpace) }

// Title is Python's str.title for the role names templates title-case.
func Title(s string) string {
	var b strings.Builder
	prevCased := false
	for _, r := range s {
		if prevCased {
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteRune(unicode.ToTitle(r))
		}
		prevCased = unicode.IsLetter(r)
	}
	return b.String()
}

// WriteString writes s as a JSON string the way json.dumps does with
// ensure_ascii=False.
func WriteString(b *strings.Builder, s string) {
	var buf [64]byte
	b.Write(pyjson.AppendString(buf[:0], s, false))
}

// WriteJSON writes the JSON text raw as json.dumps(json.loads(raw),
// ensure_ascii=False) would.
func WriteJSON(b *strings.Builder, raw []byte) error {
	var buf [256]byte
	out, err := AppendJSON(buf[:0], raw)
	b.Write(out)
	return err
}

// AppendJSON appends the JSON text raw as json.dumps(json.loads(raw),
// ensure_ascii=False) would; on error, b comes back as it was.
func AppendJSON(b, raw []byte) ([]byte, error) {
	v, err := pyjson.Parse(raw)
	if err != nil {
		return b, err
	}
	return pyjson.Append(b, v), nil
}
