package opencompass

import (
	"fmt"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format/internal/strictjson"
)

// ListTemplate is the list form of an API meta template that OpenCompass
// added in 2026 (APITemplateParser given a list of {"role", "content"}
// objects instead of a dict with a round): each item is a message of role
// system, user or assistant whose content is written before the content of
// the conversation's message it meets. See [ListTemplate.Apply].
type ListTemplate []ListItem

// ListItem is one entry of a [ListTemplate].
type ListItem struct {
	Role    chat.Role `json:"role" yaml:"role"`
	Content string    `json:"content" yaml:"content"`
}

// ParseList reads a ListTemplate from its JSON form (a JSON array), refusing
// unknown fields and the roles OpenCompass refuses.
func ParseList(data []byte) (ListTemplate, error) {
	l, err := strictjson.Decode[ListTemplate](data, "opencompass")
	if err != nil {
		return nil, err
	}
	return *l, nil
}

// Validate reports the error OpenCompass raises when it loads the template:
// every role is system, user or assistant (lower case, as OpenCompass
// compares them).
func (l ListTemplate) Validate() error {
	for i, it := range l {
		switch it.Role {
		case chat.RoleSystem, chat.RoleUser, chat.RoleAssistant:
		default:
			return fmt.Errorf("opencompass: list meta template item %d: role %q is not system, user or assistant", i, it.Role)
		}
	}
	return nil
}

// Apply merges the template into a conversation as OpenCompass's
// APITemplateParser does, walking both in order:
//
//   - a template item whose role is the role of the conversation's next
//     message writes its content before that message's content (no
//     separator);
//   - a template item whose role no later message has is inserted as a
//     message of its own there;
//   - otherwise the conversation's message is kept as it is and the walk
//     goes on with the next one;
//   - template items left when the conversation ends are appended, and
//     messages left when the template ends are kept.
//
// An empty conversation stays empty, as in OpenCompass. A message whose
// content is not text only gets the prefix as a text part before its first
// part. msgs is not modified.
func (l ListTemplate) Apply(msgs []chat.Message) ([]chat.Message, error) {
	if err := l.Validate(); err != nil {
		return nil, err
	}
	if len(msgs) == 0 {
		return msgs, nil
	}
	out := make([]chat.Message, 0, len(msgs)+len(l))
	later := func(from int, role chat.Role) bool {
		for _, m := range msgs[from:] {
			if m.Role == role {
				return true
			}
		}
		return false
	}
	mi, pi := 0, 0
	for mi < len(l) {
		switch {
		case pi < len(msgs) && l[mi].Role == msgs[pi].Role:
			out = append(out, prefixed(msgs[pi], l[mi].Content))
			mi++
			pi++
		case pi < len(msgs) && later(pi, l[mi].Role):
			out = append(out, msgs[pi])
			pi++
		default:
			out = append(out, chat.Text(l[mi].Role, l[mi].Content))
			mi++
		}
	}
	return append(out, msgs[pi:]...), nil
}

// prefixed is m with s written before its content.
func prefixed(m chat.Message, s string) chat.Message {
	if s == "" {
		return m
	}
	parts := make([]chat.Part, 0, len(m.Content)+1)
	if len(m.Content) > 0 && m.Content[0].Type == chat.PartText {
		parts = append(parts, chat.TextPart(s+m.Content[0].Text))
		parts = append(parts, m.Content[1:]...)
	} else {
		parts = append(parts, chat.TextPart(s))
		parts = append(parts, m.Content...)
	}
	m.Content = parts
	return m
}
