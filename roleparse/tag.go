// Tags and attributes: reading a start tag's attributes, roles, and opening
// and closing messages.

package roleparse

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/typo"
)

// attr is one parsed attribute.
type attr struct {
	key, val string
	at       int // offset of the value, for errors about it
	keyAt    int // offset of the name, for errors about the attribute
}

// readTag reads the attributes of the tag whose name ends at i, up to '>' or
// '/>'. It returns the attributes, the offset after the tag, and whether the
// tag closed itself.
func (p *parser) readTag(start, i int, name string) ([]attr, int, bool, error) {
	s := p.src
	attrs := p.attrs[:0]
	for {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i >= len(s) {
			return nil, 0, false, p.errAt(start, "<%s tag is not closed; expected > before the end of input", name)
		}
		switch s[i] {
		case '>':
			return attrs, i + 1, false, nil
		case '/':
			if i+1 < len(s) && s[i+1] == '>' {
				return attrs, i + 2, true, nil
			}
			return nil, 0, false, p.errAt(i, "in <%s>: found '/' not followed by '>'", name)
		}
		k := i
		for k < len(s) && isNameByte(s[k]) {
			k++
		}
		if k == i {
			return nil, 0, false, p.errAt(i, "in <%s>: found %s where an attribute name, > or /> was expected", name, quoteSnippet(s[i:min(i+1, len(s))]))
		}
		key := lowerASCII(s[i:k])
		j := k
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		if j >= len(s) || s[j] != '=' {
			return nil, 0, false, p.errAt(k, "in <%s>: attribute %s has no value; expected %s=\"…\"", name, key, key)
		}
		j++
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		if j >= len(s) || (s[j] != '"' && s[j] != '\'') {
			return nil, 0, false, p.errAt(j, "in <%s>: the value of %s must be quoted with \" or '", name, key)
		}
		q := s[j]
		end := strings.IndexByte(s[j+1:], q)
		if end < 0 {
			return nil, 0, false, p.errAt(j, "in <%s>: the value of %s is not closed; expected %c", name, key, q)
		}
		for _, a := range attrs {
			if a.key == key {
				return nil, 0, false, p.errAt(i, "in <%s>: attribute %s is given twice; expected it once", name, key)
			}
		}
		attrs = append(attrs, attr{key: key, val: decode(s[j+1 : j+1+end]), at: j, keyAt: i})
		i = j + 1 + end + 1
	}
}

// knownRole returns the role a known role name written in lower case
// stands for (the hot path of <message role="…">; knownRoles covers the
// rest).
func knownRole(name string) (chat.Role, bool) {
	switch name {
	case "system":
		return chat.RoleSystem, true
	case "user":
		return chat.RoleUser, true
	case "assistant":
		return chat.RoleAssistant, true
	case "tool":
		return chat.RoleTool, true
	}
	r, ok := knownRoles[name]
	return r, ok
}

var knownRoles = map[string]chat.Role{
	"system": chat.RoleSystem, "user": chat.RoleUser, "assistant": chat.RoleAssistant,
	"tool": chat.RoleTool, "developer": chat.RoleDeveloper,
	"human": chat.RoleUser, "bot": chat.RoleAssistant, "ai": chat.RoleAssistant, "model": chat.RoleAssistant,
}

func (p *parser) role(a attr) (chat.Role, error) {
	if r, ok := knownRole(a.val); ok {
		return r, nil
	}
	low := strings.ToLower(a.val)
	if r, ok := knownRoles[low]; ok {
		return r, nil
	}
	if r, ok := p.cfg.roles[low]; ok {
		return r, nil
	}
	if p.cfg.anyRole && low != "" {
		return chat.Role(low), nil
	}
	hint := ""
	if near := p.nearRole(low); near != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", near)
	}
	return "", p.errAt(a.at, "unknown role %q%s; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)", a.val, hint)
}

// roleNames are the known roles and their aliases, in the order nearRole
// tries them.
var roleNames = []string{"system", "user", "assistant", "tool", "developer", "human", "bot", "ai", "model"}

// nearRole returns a role the parser knows that is one edit (an insertion,
// deletion, substitution or swap of neighbours) from low, a role it does
// not know, in lower case: "system" for "sytem". "" when there is none.
func (p *parser) nearRole(low string) string {
	for _, r := range roleNames {
		if typo.OneEdit(low, r) {
			return r
		}
	}
	extra := make([]string, 0, len(p.cfg.roles))
	for r := range p.cfg.roles {
		extra = append(extra, r)
	}
	slices.Sort(extra)
	for _, r := range extra {
		if typo.OneEdit(low, r) {
			return r
		}
	}
	return ""
}

func (p *parser) openMessage(i int) error {
	if p.open {
		p.closeMessage()
	}
	if p.openKnown(i) {
		return nil
	}
	attrs, next, selfClosed, err := p.readTag(i, i+len("<message"), "message")
	if err != nil {
		return err
	}
	m := chat.Message{}
	seenRole := false
	for _, a := range attrs {
		switch a.key {
		case "role":
			r, err := p.role(a)
			if err != nil {
				return err
			}
			m.Role, seenRole = r, true
		case "name":
			m.Name = a.val
		case "tool_call_id":
			m.ToolCallID = a.val
		case "encoding", "finish_reason", "ai_model_id", "choice_index":
			// Written by Semantic Kernel's serializer (ChatMessageContent,
			// StreamingChatMessageContent); nothing in a message holds them.
		default:
			return p.errAt(a.keyAt, "<message> has no attribute %s; expected role, name or tool_call_id", a.key)
		}
	}
	if !seenRole {
		return p.errAt(i, "<message> has no role; expected <message role=\"…\">")
	}
	p.newMessage(i)
	p.cur().Role, p.cur().Name, p.cur().ToolCallID = m.Role, m.Name, m.ToolCallID
	p.pos = next
	if selfClosed {
		p.closeMessage()
	}
	return nil
}

// openKnown opens the message whose start tag at i is the common
// <message role="known">, and reports whether it was one. An open message
// must have been closed.
func (p *parser) openKnown(i int) bool {
	const vs = len(`<message role="`)
	rest := p.src[i:]
	if len(rest) <= vs || rest[:vs] != `<message role="` {
		return false
	}
	q := strings.IndexByte(rest[vs:], '"')
	if q < 0 || vs+q+1 >= len(rest) || rest[vs+q+1] != '>' {
		return false
	}
	r, ok := knownRole(rest[vs : vs+q])
	if !ok {
		return false
	}
	p.newMessage(i)
	p.cur().Role = r
	p.pos = i + vs + q + 2
	return true
}

// newMessage adds an empty message opened at i to msgs and makes it the
// open one.
func (p *parser) newMessage(i int) {
	n := len(p.msgs)
	if n < cap(p.msgs) {
		p.msgs = p.msgs[:n+1] // zero: never written since make
	} else {
		p.msgs = append(p.msgs, chat.Message{})
	}
	p.open, p.openAt, p.runs = true, i, p.runs[:0]
}

// closeMessage finishes the open message.
func (p *parser) closeMessage() {
	p.flushLoosePart()
	p.open = false
}
