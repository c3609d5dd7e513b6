package roleparse

import (
	"unicode/utf8"

	"github.com/rolemark/rolemark/chat"
)

// ReadBack returns msgs as Parse, with opts, reads the markup Marshal
// writes of them: what either refuses is an error, and the messages are
// those Parse gives. Messages whose markup reads back as they are (text
// of the default roles, the common case of a conversation's history) are
// returned as they are, without writing the markup.
func ReadBack(msgs []chat.Message, opts ...Option) ([]chat.Message, error) {
	if readsBack(msgs) {
		return msgs, nil
	}
	m, err := Marshal(msgs)
	if err != nil {
		return nil, err
	}
	return Parse(m, opts...)
}

// readsBack reports whether Parse reads Marshal's markup of msgs as msgs
// under any options: each is a system, user or assistant message of one
// text part, with no name, tool call or tool call ID, whose text is valid
// UTF-8 without a carriage return or another control character than tab
// and newline (what every reading keeps byte for byte). FuzzReadBack
// holds it to the round trip.
func readsBack(msgs []chat.Message) bool {
	for i := range msgs {
		m := &msgs[i]
		switch m.Role {
		case chat.RoleSystem, chat.RoleUser, chat.RoleAssistant:
		default:
			return false
		}
		if m.Name != "" || m.ToolCallID != "" || len(m.ToolCalls) > 0 || len(m.Content) != 1 {
			return false
		}
		p := &m.Content[0]
		if p.Type != chat.PartText || p.Text == "" || p.URL != "" || p.MediaType != "" || p.Detail != "" || !plainText(p.Text) {
			return false
		}
	}
	return true
}

// plainText reports whether s is valid UTF-8 whose only control
// characters are tab and newline.
func plainText(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < ' ' && c != '\t' && c != '\n' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError || r >= 0x80 && r < 0xa0 {
			return false
		}
		i += n
	}
	return true
}
