package engine

import (
	"errors"
	"strings"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/textpos"
	"github.com/rolemark/rolemark/roleparse"
)

// dotpromptOpen is the message every Dotprompt render starts in.
const dotpromptOpen = `<message role="user">`

// dotpromptMessages turns the markup a Dotprompt file (.prompt) rendered
// into messages the way Dotprompt splits its rendered text:
//
//   - the render starts in a user message, so text before the first role
//     marker, and a {{media}} there, belong to a user message;
//   - {{history}} is followed by a model (assistant) message (see
//     placeHistory);
//   - whitespace is kept as rendered, except that a template with front
//     matter is trimmed at both ends, as Dotprompt trims what follows the
//     front matter;
//   - a text piece that is only ASCII whitespace (the markup's whitespace;
//     a value of Unicode spaces such as U+0085 or U+2028 is content) is
//     dropped, and so is a message
//     left with nothing in it (so a role marker right after another one
//     just changes the role).
func (t *Template) dotpromptMessages(markup string, history []chat.Message, placed bool) ([]chat.Message, error) {
	lead := 0
	body := markup
	if t.trimBody {
		for lead < len(body) && lead < t.trimLead && isSpaceByte(body[lead]) {
			lead++
		}
		body = strings.TrimRight(body[lead:], " \t\r\n")
	}
	opts := append(append([]roleparse.Option(nil), t.parse...), roleparse.KeepSpace(), roleparse.Loose())
	msgs, err := roleparse.Parse(dotpromptOpen+body, opts...)
	if err != nil {
		var pe *roleparse.Error
		if errors.As(err, &pe) {
			off := max(pe.Offset-len(dotpromptOpen)+lead, 0)
			line, col := textpos.LineCol(markup, off)
			err = &roleparse.Error{Line: line, Col: col, Offset: off, Msg: pe.Msg}
		}
		return nil, t.markupError(markup, err)
	}
	out := msgs[:0]
	for _, m := range msgs {
		parts := m.Content[:0]
		for _, p := range m.Content {
			if p.Type == chat.PartText && strings.Trim(p.Text, " \t\r\n") == "" {
				continue
			}
			parts = append(parts, p)
		}
		m.Content = parts
		if len(m.Content) == 0 {
			m.Content = nil
			if len(m.ToolCalls) == 0 && m.ToolCallID == "" {
				continue
			}
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		out = nil
	}
	if len(history) > 0 && !placed {
		out = insertHistory(out, history)
	}
	return out, nil
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
