// Inside a message: loose text, parts, tool calls and function results.

package roleparse

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/rolemark/rolemark/chat"
)

// partKinds maps a part tag name to its part type.
var partKinds = map[string]chat.PartType{
	"text": chat.PartText, "image": chat.PartImage, "audio": chat.PartAudio,
	"file": chat.PartFile, "binary": chat.PartFile,
}

// inside reads message content up to the next recognised tag and handles it.
func (p *parser) inside() error {
	s := p.src
	i := p.pos
	for {
		k := strings.IndexByte(s[i:], '<')
		if k < 0 {
			p.runs = append(p.runs, run{s: s[p.pos:]})
			p.pos = len(s)
			return nil
		}
		i += k
		if len(p.runs) == 0 && strings.HasPrefix(s[i:], "</message") {
			// The common end of a message, its text then </message>:
			// the text goes to its part without a stop in runs (a
			// pointer written into the parser, a write barrier while
			// the garbage collector runs).
			end := i + len("</message")
			for end < len(s) && isSpace(s[end]) {
				end++
			}
			if end < len(s) && s[end] == '>' {
				one := [1]run{{s: s[p.pos:i]}}
				p.flushRuns(one[:])
				p.open = false
				p.pos = end + 1
				return nil
			}
		}
		if strings.HasPrefix(s[i:], "<![CDATA[") {
			end := strings.Index(s[i+9:], "]]>")
			if end < 0 {
				return p.errAt(i, "<![CDATA[ section is not closed; expected ]]>")
			}
			p.runs = append(p.runs, run{s: s[p.pos:i]}, run{s: s[i+9 : i+9+end], cdata: true})
			i += 9 + end + 3
			p.pos = i
			continue
		}
		name, closing := p.innerTagAt(i)
		if name == "" {
			i++
			continue
		}
		p.runs = append(p.runs, run{s: s[p.pos:i]})
		p.pos = i
		return p.innerTag(i, name, closing)
	}
}

func (p *parser) innerTag(i int, name string, closing bool) error {
	s := p.src
	if closing {
		end := i + 2 + len(name)
		for end < len(s) && isSpace(s[end]) {
			end++
		}
		if end >= len(s) || s[end] != '>' {
			return p.errAt(i, "</%s tag is not closed; expected >", name)
		}
		switch name {
		case "message", "chat_history":
			p.pos = end + 1
			p.closeMessage()
			return nil
		}
		return p.errAt(i, "</%s> closes no <%s> (the open element is <message> opened at %s)", name, name, p.at(p.openAt))
	}
	switch name {
	case "message":
		if err := p.openMessage(i); err != nil {
			return err
		}
		p.nested = len(p.msgs) // the message just opened closed the one it was in
		return nil
	case "chat_history":
		return p.errAt(i, "<chat_history> inside <message> opened at %s; expected </message> first", p.at(p.openAt))
	}
	attrs, next, selfClosed, err := p.readTag(i, i+1+len(name), name)
	if err != nil {
		return err
	}
	body, bodyAt := "", next
	if !selfClosed {
		body, next, err = p.readBody(i, next, name)
		if err != nil {
			return err
		}
	}
	p.pos = next
	switch name {
	case "tool_call", "function_call":
		return p.toolCall(i, name, attrs, body, bodyAt)
	case "function_result":
		return p.functionResult(i, attrs, body)
	case "text":
		for _, a := range attrs {
			if a.key != "encoding" { // Semantic Kernel's TextContent writes encoding
				return p.errAt(a.keyAt, "<text> has no attribute %s; it takes none (Semantic Kernel's encoding is read and ignored)", a.key)
			}
		}
		p.flushLoosePart()
		p.cur().Content = append(p.cur().Content, chat.TextPart(p.textPart(bodyRuns(body), len(p.cur().Content))))
		return nil
	}
	return p.media(i, name, attrs, body)
}

// bodyRuns splits a part's body into raw and CDATA runs. The body was
// checked by readBody, so every CDATA section in it is closed.
func bodyRuns(body string) []run {
	var runs []run
	for {
		k := strings.Index(body, "<![CDATA[")
		if k < 0 {
			return append(runs, run{s: body})
		}
		end := strings.Index(body[k+9:], "]]>")
		runs = append(runs, run{s: body[:k]}, run{s: body[k+9 : k+9+end], cdata: true})
		body = body[k+9+end+3:]
	}
}

// readBody finds the end tag of the part opened at start whose body starts at
// i, and returns the body and the offset after the end tag.
func (p *parser) readBody(start, i int, name string) (string, int, error) {
	s := p.src
	j := i
	for {
		k := strings.IndexByte(s[j:], '<')
		if k < 0 {
			return "", 0, p.errAt(start, "<%s> opened here is not closed; expected </%s> before the end of input", name, name)
		}
		j += k
		if strings.HasPrefix(s[j:], "<![CDATA[") {
			end := strings.Index(s[j+9:], "]]>")
			if end < 0 {
				return "", 0, p.errAt(j, "<![CDATA[ section is not closed; expected ]]>")
			}
			j += 9 + end + 3
			continue
		}
		other, closing := p.innerTagAt(j)
		if other == "" {
			j++
			continue
		}
		if closing && other == name {
			end := j + 2 + len(name)
			for end < len(s) && isSpace(s[end]) {
				end++
			}
			if end >= len(s) || s[end] != '>' {
				return "", 0, p.errAt(j, "</%s tag is not closed; expected >", name)
			}
			return s[i:j], end + 1, nil
		}
		if closing {
			return "", 0, p.errAt(j, "</%s> closes <%s> opened at %s; expected </%s>", other, name, p.at(start), name)
		}
		return "", 0, p.errAt(j, "<%s> inside <%s> opened at %s; expected </%s> first", other, name, p.at(start), name)
	}
}

// partChunk is the number of parts in one backing array of first parts:
// 32 KB, the largest size the Go allocator serves from its per-size caches,
// over the 80 bytes of a chat.Part (TestPartChunkFillsThirtyTwoKB keeps the
// two in step).
const partChunk = 32 << 10 / 80

// flushLoosePart turns pending loose text into a text part; loose text that
// trims to nothing is dropped.
func (p *parser) flushLoosePart() {
	p.flushRuns(p.runs)
	p.runs = p.runs[:0]
}

// flushRuns turns runs of loose text into a text part, as flushLoosePart.
func (p *parser) flushRuns(runs []run) {
	text := p.textPart(runs, len(p.cur().Content))
	switch {
	case text == "":
	case p.cur().Content == nil:
		// The first part of a message comes from a shared backing
		// array, capped so that a second part copies it out.
		if len(p.parts) == cap(p.parts) {
			p.parts = make([]chat.Part, 0, partChunk)
		}
		n := len(p.parts)
		p.parts = p.parts[:n+1] // zero: never written since make
		p.parts[n].Type, p.parts[n].Text = chat.PartText, text
		p.cur().Content = p.parts[n : n+1 : n+1]
	default:
		p.cur().Content = append(p.cur().Content, chat.TextPart(text))
	}
}

func (p *parser) media(i int, name string, attrs []attr, body string) error {
	part := chat.Part{Type: partKinds[name]}
	srcAttr := ""
	for _, a := range attrs {
		switch a.key {
		case "url", "uri", "src":
			if srcAttr != "" {
				return p.errAt(a.at, "<%s> has both %s and %s; give one source", name, srcAttr, a.key)
			}
			part.URL, srcAttr = a.val, a.key
		case "mimetype", "mime_type", "media_type", "mediatype":
			part.MediaType = a.val
		case "detail":
			part.Detail = a.val
		default:
			return p.errAt(a.keyAt, "<%s> has no attribute %s; expected url, mimetype or detail", name, a.key)
		}
	}
	if b := p.text(bodyRuns(body)); b != "" {
		if srcAttr != "" {
			return p.errAt(i, "<%s> has both a %s attribute and a body; give one source", name, srcAttr)
		}
		part.URL = b
	}
	if part.URL == "" {
		return p.errAt(i, "<%s> has no source; expected a url attribute or a URL in its body", name)
	}
	p.flushLoosePart()
	p.cur().Content = append(p.cur().Content, part)
	return nil
}

// mayCallTools reports whether a message of the role may hold tool calls:
// every role but the known ones that may not (user, system, developer,
// tool), whose tool calls a chat API would reject.
func mayCallTools(r chat.Role) bool {
	switch r {
	case chat.RoleUser, chat.RoleSystem, chat.RoleDeveloper, chat.RoleTool:
		return false
	}
	return true
}

func (p *parser) toolCall(i int, name string, attrs []attr, body string, bodyAt int) error {
	var tc chat.ToolCall
	for _, a := range attrs {
		switch a.key {
		case "id":
			tc.ID = a.val
		case "name":
			tc.Name = a.val
		default:
			return p.errAt(a.keyAt, "<%s> has no attribute %s; expected id or name", name, a.key)
		}
	}
	if tc.Name == "" {
		return p.errAt(i, "<%s> has no name; expected <%s id=\"…\" name=\"…\">", name, name)
	}
	if !mayCallTools(p.cur().Role) {
		return p.errAt(i, "<%s> in a %s message; only an assistant message makes tool calls (a tool's answer is a tool message with tool_call_id)", name, p.cur().Role)
	}
	args := p.text(bodyRuns(body))
	if args != "" {
		if !json.Valid([]byte(args)) {
			return p.badJSON(name, tc.Name, args, body, bodyAt)
		}
		tc.Arguments = json.RawMessage(args)
	}
	p.cur().ToolCalls = append(p.cur().ToolCalls, tc)
	return nil
}

// badJSON reports tool-call arguments that are not valid JSON, with the
// decoder's reason. When the body holds no reference or CDATA, the arguments
// are the body as written and the error points at the offending byte;
// otherwise it points at the start of the body.
func (p *parser) badJSON(tag, name, args, body string, bodyAt int) error {
	reason := "invalid JSON"
	off := bodyAt
	var v json.RawMessage
	var se *json.SyntaxError
	if err := json.Unmarshal([]byte(args), &v); errors.As(err, &se) {
		reason = se.Error()
		if !strings.Contains(body, "&") && !strings.Contains(body, "<![CDATA[") {
			lead := 0
			if !p.cfg.keepSpace {
				lead = len(body) - len(strings.TrimLeft(body, " \t\r\n"))
			}
			// Offset counts the bytes read, the bad one included; at
			// the end of input it is the length.
			at := int(se.Offset) - 1
			if strings.HasPrefix(reason, "unexpected end") {
				at = int(se.Offset)
			}
			off = bodyAt + lead + min(max(at, 0), len(args))
		}
	}
	return p.errAt(off, "<%s name=%q> arguments %s are not valid JSON: %s", tag, name, quoteSnippet(args), reason)
}

func (p *parser) functionResult(i int, attrs []attr, body string) error {
	id := ""
	for _, a := range attrs {
		switch a.key {
		case "id", "call_id", "tool_call_id":
			id = a.val
		case "name", "plugin_name", "function_name":
		default:
			return p.errAt(a.keyAt, "<function_result> has no attribute %s; expected id or name", a.key)
		}
	}
	if p.cur().ToolCallID != "" && id != "" && id != p.cur().ToolCallID {
		return p.errAt(i, "<function_result id=%q> inside a message answering %q; expected id=%q or no id", id, p.cur().ToolCallID, p.cur().ToolCallID)
	}
	if id != "" {
		p.cur().ToolCallID = id
	}
	if p.cur().Role == chat.RoleUser || p.cur().Role == chat.RoleAssistant {
		// Semantic Kernel writes function results in tool messages; a result
		// elsewhere makes the message a tool message.
		p.cur().Role = chat.RoleTool
	}
	p.runs = append(p.runs, bodyRuns(body)...)
	return nil
}
