package roleparse

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/rolemark/rolemark/chat"
)

// Marshal writes messages as canonical markup, one message a line:
//
//	<message role="user" name="alice">text</message>
//
// A text-only message holds its text directly; other messages hold <text>
// and media parts; tool calls follow as <tool_call> elements. Whitespace at
// the ends of a text is written as character references so that it survives
// Parse.
//
// For every message list m that Marshal accepts, Parse(Marshal(m),
// AnyRole()) returns m, and so does Parse(Marshal(m)) when every role is one
// of system, user, assistant, tool and developer (give other roles to Parse
// with Roles). Marshal refuses a role that Parse would read as another one:
// an alias such as "Human" (user) or "bot" (assistant), or a role that is
// not lower case.
func Marshal(msgs []chat.Message) (string, error) {
	var b strings.Builder
	for i, m := range msgs {
		if err := marshalMessage(&b, m); err != nil {
			return "", fmt.Errorf("roleparse: message %d: %w", i+1, err)
		}
	}
	return b.String(), nil
}

func marshalMessage(b *strings.Builder, m chat.Message) error {
	if m.Role == "" {
		return fmt.Errorf("no role")
	}
	parsed := chat.Role(strings.ToLower(string(m.Role)))
	if known, ok := knownRoles[string(parsed)]; ok {
		parsed = known
	}
	if parsed != m.Role {
		return fmt.Errorf("role %q would parse as %q; write %q", m.Role, parsed, parsed)
	}
	b.WriteString(string(MessageTag(string(m.Role), Attr{"name", m.Name}, Attr{"tool_call_id", m.ToolCallID})))
	if len(m.Content) == 1 && m.Content[0].Type == chat.PartText && m.Content[0].Text != "" {
		writeText(b, m.Content[0].Text)
	} else {
		for i, p := range m.Content {
			switch p.Type {
			case chat.PartText:
				b.WriteString("<text>")
				writeText(b, p.Text)
				b.WriteString("</text>")
			case chat.PartImage, chat.PartAudio, chat.PartFile:
				if p.URL == "" {
					return fmt.Errorf("part %d: %s part has no URL", i+1, p.Type)
				}
				b.WriteString(string(PartTag(string(p.Type), Attr{"url", p.URL}, Attr{"mimetype", p.MediaType}, Attr{"detail", p.Detail})))
			default:
				return fmt.Errorf("part %d: unknown part type %q", i+1, p.Type)
			}
		}
	}
	if len(m.ToolCalls) > 0 && !mayCallTools(m.Role) {
		return fmt.Errorf("tool calls in a %s message; only an assistant message makes tool calls", m.Role)
	}
	for _, tc := range m.ToolCalls {
		if tc.Name == "" {
			return fmt.Errorf("tool call %q has no name", tc.ID)
		}
		if len(tc.Arguments) > 0 && !json.Valid(tc.Arguments) {
			return fmt.Errorf("tool call %q: arguments are not valid JSON", tc.Name)
		}
		b.WriteString(`<tool_call`)
		writeAttrs(b, []Attr{{"id", tc.ID}, {"name", tc.Name}})
		b.WriteByte('>')
		writeText(b, string(tc.Arguments))
		b.WriteString("</tool_call>")
	}
	b.WriteString("</message>\n")
	return nil
}

// writeText writes s escaped, with literal whitespace at both ends written as
// character references so that Parse keeps it.
func writeText(b *strings.Builder, s string) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	j := len(s)
	for j > i && isSpace(s[j-1]) {
		j--
	}
	writeRefs(b, s[:i])
	writeWith(b, s[i:j], &textEscapeTable)
	writeRefs(b, s[j:])
}

func writeRefs(b *strings.Builder, ws string) {
	for i := 0; i < len(ws); i++ {
		fmt.Fprintf(b, "&#%d;", ws[i])
	}
}
