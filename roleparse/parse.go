package roleparse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/rolemark/rolemark/chat"
)

// Parse reads markup into messages. See the package documentation and
// docs/markup.md for the grammar. Every error is a *Error with the line and
// column of the problem.
func Parse(markup string, opts ...Option) ([]chat.Message, error) {
	return parse(markup, nil, opts)
}

// ParseOwned is Parse for markup that the caller hands over, as a template
// engine does with what it rendered: references are decoded inside b, and
// the messages share its memory, so b must not be used afterwards. It saves
// the memory Parse takes for decoded text. When Parse would fail, b is left
// as it was and the error is the same.
func ParseOwned(b []byte, opts ...Option) ([]chat.Message, error) {
	return parse(unsafe.String(unsafe.SliceData(b), len(b)), b, opts)
}

func parse(markup string, owned []byte, opts []Option) ([]chat.Message, error) {
	p := parsers.Get().(*parser)
	*p = parser{src: markup, owned: owned}
	for _, o := range opts {
		o(&p.cfg)
	}
	if p.cfg.defaultRole == "" {
		p.cfg.defaultRole = chat.RoleUser
	}
	p.runs = p.runBuf[:0]
	p.pending = p.pendBuf[:0]
	msgs, err := p.parse()
	*p = parser{} // keep nothing of this parse alive in the pool
	parsers.Put(p)
	return msgs, err
}

// parsers recycles parser state, which is too large to allocate per parse.
var parsers = sync.Pool{New: func() any { return new(parser) }}

// ParseBytes is Parse for markup held in a byte slice. The messages do not
// refer to b afterwards.
func ParseBytes(b []byte, opts ...Option) ([]chat.Message, error) {
	return Parse(string(b), opts...)
}

// pendingText is a text part (Content[part] of msgs[msg]) whose references
// are decoded in place, in src[start:end], when the parse succeeds.
type pendingText struct{ msg, part, start, end int }

// run is a piece of text inside a message: raw markup text whose references
// are still to be decoded, or the verbatim content of a CDATA section.
type run struct {
	s     string
	cdata bool
}

type parser struct {
	src   string
	owned []byte // src's memory, when ParseOwned may decode in it
	// pending are texts to decode in owned once the parse has succeeded
	// (until then src must stay as it was, for error positions).
	pending []pendingText
	pendBuf [8]pendingText
	pos     int
	cfg     config
	msgs    []chat.Message

	// The open message, if open is true.
	open   bool
	openAt int
	cur    chat.Message
	runs   []run // loose text not yet flushed
	// textBuf holds decoded text for the whole parse. It is allocated once
	// with room for the whole input, which decoded text never exceeds, and
	// (being a strings.Builder) without being zeroed first; the strings
	// made from it stay valid, since a Builder never changes what it wrote.
	textBuf strings.Builder
	// parts backs the content of text-only messages, one part each.
	parts  []chat.Part
	runBuf [8]run
	attrs  [4]attr
	// loose text outside messages (Loose mode)
	outside []run
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (p *parser) errAt(off int, format string, args ...any) *Error {
	line, col := position(p.src, off)
	return &Error{Line: line, Col: col, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// position returns the 1-based line and rune column of byte offset off.
func position(s string, off int) (line, col int) {
	if off > len(s) {
		off = len(s)
	}
	line = 1 + strings.Count(s[:off], "\n")
	start := strings.LastIndexByte(s[:off], '\n') + 1
	return line, 1 + utf8.RuneCountInString(s[start:off])
}

func (p *parser) at(off int) string {
	line, col := position(p.src, off)
	return fmt.Sprintf("line %d, col %d", line, col)
}

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

func (p *parser) parse() ([]chat.Message, error) {
	if !hasMessageTag(p.src) {
		text := p.text([]run{{s: p.src}})
		if text == "" {
			return nil, nil
		}
		return []chat.Message{{Role: p.cfg.defaultRole, Content: []chat.Part{chat.TextPart(text)}}}, nil
	}
	if n := countMessageTags(p.src); n > 0 {
		p.msgs = make([]chat.Message, 0, n)
		p.parts = make([]chat.Part, 0, n)
	}
	for p.pos < len(p.src) {
		var err error
		if p.open {
			err = p.inside()
		} else {
			err = p.outsideStep()
		}
		if err != nil {
			return nil, err
		}
	}
	if p.open {
		p.closeMessage()
	}
	if err := p.flushOutside(chat.RoleUser); err != nil {
		return nil, err
	}
	if len(p.msgs) == 0 {
		return nil, nil // only comments or wrappers: no messages, as for empty input
	}
	for _, t := range p.pending {
		n := decodeInPlace(p.owned[t.start:t.end])
		p.msgs[t.msg].Content[t.part].Text = unsafe.String(&p.owned[t.start], n)
	}
	return p.msgs, nil
}

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
	if p.owned != nil {
		if !p.cfg.keepSpace {
			runs = trimRuns(runs)
		}
		if len(runs) == 1 && !runs[0].cdata && strings.IndexByte(runs[0].s, '&') >= 0 {
			s := runs[0].s
			start := int(uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.StringData(p.src))))
			p.pending = append(p.pending, pendingText{msg: len(p.msgs), part: part, start: start, end: start + len(s)})
			return s
		}
	}
	return p.text(runs)
}

// outsideStep reads what stands between messages: whitespace, comments, the
// chat_history wrapper, or the next message's start tag.
func (p *parser) outsideStep() error {
	s := p.src
	i := p.pos
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	p.pos = i
	if i == len(s) {
		return nil
	}
	if s[i] == '<' {
		switch {
		case strings.HasPrefix(s[i:], "<!--"):
			end := strings.Index(s[i+4:], "-->")
			if end < 0 {
				return p.errAt(i, "<!-- comment is not closed; expected -->")
			}
			p.pos = i + 4 + end + 3
			return nil
		case tagAt(s, i, "message", false):
			if err := p.flushOutside(chat.RoleSystem); err != nil {
				return err
			}
			return p.openMessage(i)
		case tagAt(s, i, "chat_history", false), tagAt(s, i, "chat_history", true):
			end := strings.IndexByte(s[i:], '>')
			if end < 0 {
				return p.errAt(i, "<chat_history tag is not closed; expected >")
			}
			p.pos = i + end + 1
			return nil
		case tagAt(s, i, "message", true):
			return p.errAt(i, "</message> closes no message; expected <message role=\"…\"> before it")
		}
	}
	// Text outside any message.
	end := i
	for end < len(s) {
		k := strings.IndexByte(s[end:], '<')
		if k < 0 {
			end = len(s)
			break
		}
		end += k
		if strings.HasPrefix(s[end:], "<!--") || tagAt(s, end, "message", false) ||
			tagAt(s, end, "message", true) || tagAt(s, end, "chat_history", false) ||
			tagAt(s, end, "chat_history", true) {
			break
		}
		end++
	}
	if !p.cfg.loose {
		return p.errAt(i, "text outside a message: %s; expected <message role=\"…\">, whitespace or a comment (or parse with roleparse.Loose)", quoteSnippet(s[i:end]))
	}
	p.outside = append(p.outside, run{s: s[i:end]})
	p.pos = end
	return nil
}

// flushOutside turns loose text gathered outside messages into a message of
// the given role (Loose mode): system before the first message, user after.
func (p *parser) flushOutside(role chat.Role) error {
	if len(p.outside) == 0 {
		return nil
	}
	if len(p.msgs) > 0 {
		role = chat.RoleUser
	}
	text := p.text(p.outside)
	p.outside = p.outside[:0]
	if text != "" {
		p.msgs = append(p.msgs, chat.Message{Role: role, Content: []chat.Part{chat.TextPart(text)}})
	}
	return nil
}

func quoteSnippet(s string) string {
	if len(s) > 40 {
		cut := 40
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// attr is one parsed attribute.
type attr struct {
	key, val string
	at       int // offset of the value, for errors
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
		attrs = append(attrs, attr{key: key, val: decode(s[j+1 : j+1+end]), at: j})
		i = j + 1 + end + 1
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
	return "", p.errAt(a.at, "unknown role %q; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)", a.val)
}

func (p *parser) openMessage(i int) error {
	if p.open {
		p.closeMessage()
	}
	// Fast path for the common <message role="known">.
	if rest := p.src[i:]; strings.HasPrefix(rest, `<message role="`) {
		const vs = len(`<message role="`)
		if q := strings.IndexByte(rest[vs:], '"'); q >= 0 && vs+q+1 < len(rest) && rest[vs+q+1] == '>' {
			if r, ok := knownRole(rest[vs : vs+q]); ok {
				p.open, p.openAt, p.cur, p.runs = true, i, chat.Message{Role: r}, p.runs[:0]
				p.pos = i + vs + q + 2
				return nil
			}
		}
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
		default:
			return p.errAt(a.at, "<message> has no attribute %s; expected role, name or tool_call_id", a.key)
		}
	}
	if !seenRole {
		return p.errAt(i, "<message> has no role; expected <message role=\"…\">")
	}
	p.open, p.openAt, p.cur, p.runs = true, i, m, p.runs[:0]
	p.pos = next
	if selfClosed {
		p.closeMessage()
	}
	return nil
}

// closeMessage finishes the open message.
func (p *parser) closeMessage() {
	p.flushLoosePart()
	p.msgs = append(p.msgs, p.cur)
	p.open = false
	p.cur = chat.Message{}
}

// partKind maps a part tag name to its part type.
var partKinds = map[string]chat.PartType{
	"text": chat.PartText, "image": chat.PartImage, "audio": chat.PartAudio,
	"file": chat.PartFile, "binary": chat.PartFile,
}

// innerTags are the tags recognised inside a message, longest first where
// one is a prefix of another.
var innerTags = []string{"message", "text", "image", "audio", "file", "binary", "tool_call", "function_call", "function_result", "chat_history"}

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
		return p.openMessage(i)
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
		if len(attrs) > 0 {
			return p.errAt(attrs[0].at, "<text> has no attribute %s; it takes none", attrs[0].key)
		}
		p.flushLoosePart()
		p.cur.Content = append(p.cur.Content, chat.TextPart(p.textPart(bodyRuns(body), len(p.cur.Content))))
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

// flushLoosePart turns pending loose text into a text part; loose text that
// trims to nothing is dropped.
func (p *parser) flushLoosePart() {
	text := p.textPart(p.runs, len(p.cur.Content))
	p.runs = p.runs[:0]
	switch {
	case text == "":
	case p.cur.Content == nil && len(p.parts) < cap(p.parts):
		// The first part of a message comes from the shared backing
		// array, capped so that a second part copies it out.
		n := len(p.parts)
		p.parts = append(p.parts, chat.TextPart(text))
		p.cur.Content = p.parts[n : n+1 : n+1]
	default:
		p.cur.Content = append(p.cur.Content, chat.TextPart(text))
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
			return p.errAt(a.at, "<%s> has no attribute %s; expected url, mimetype or detail", name, a.key)
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
	p.cur.Content = append(p.cur.Content, part)
	return nil
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
			return p.errAt(a.at, "<%s> has no attribute %s; expected id or name", name, a.key)
		}
	}
	if tc.Name == "" {
		return p.errAt(i, "<%s> has no name; expected <%s id=\"…\" name=\"…\">", name, name)
	}
	args := p.text(bodyRuns(body))
	if args != "" {
		if !json.Valid([]byte(args)) {
			return p.badJSON(name, tc.Name, args, body, bodyAt)
		}
		tc.Arguments = json.RawMessage(args)
	}
	p.cur.ToolCalls = append(p.cur.ToolCalls, tc)
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
			return p.errAt(a.at, "<function_result> has no attribute %s; expected id or name", a.key)
		}
	}
	if p.cur.ToolCallID != "" && id != "" && id != p.cur.ToolCallID {
		return p.errAt(i, "<function_result id=%q> inside a message answering %q; expected id=%q or no id", id, p.cur.ToolCallID, p.cur.ToolCallID)
	}
	if id != "" {
		p.cur.ToolCallID = id
	}
	if p.cur.Role == chat.RoleUser || p.cur.Role == chat.RoleAssistant {
		// Semantic Kernel writes function results in tool messages; a result
		// elsewhere makes the message a tool message.
		p.cur.Role = chat.RoleTool
	}
	p.runs = append(p.runs, bodyRuns(body)...)
	return nil
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
	b := &p.textBuf
	if b.Cap() == 0 {
		b.Grow(len(p.src))
	}
	base := b.Len()
	for _, r := range runs {
		s := r.s
		if r.cdata {
			b.WriteString(s)
			continue
		}
		for {
			k := strings.IndexByte(s, '&')
			if k < 0 {
				b.WriteString(s)
				break
			}
			b.WriteString(s[:k])
			var ref [utf8.UTFMax]byte
			out, size := appendRef(ref[:0], s[k:])
			if size == 0 {
				out, size = append(out, '&'), 1
			}
			b.Write(out)
			s = s[k+size:]
		}
	}
	return b.String()[base:]
}

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

// The five XML entities, read as words after the '&': "lt;", "gt;" and
// "#39;" (Escape's apostrophe) are checked with one comparison each.
const (
	refLt   = uint32('l') | uint32('t')<<8 | uint32(';')<<16
	refGt   = uint32('g') | uint32('t')<<8 | uint32(';')<<16
	refAmp  = uint32('a') | uint32('m')<<8 | uint32('p')<<16 | uint32(';')<<24
	refQuot = uint32('q') | uint32('u')<<8 | uint32('o')<<16 | uint32('t')<<24
	refApos = uint32('a') | uint32('p')<<8 | uint32('o')<<16 | uint32('s')<<24
	ref39   = uint32('#') | uint32('3')<<8 | uint32('9')<<16 | uint32(';')<<24
)

// appendRef appends the decoding of the reference at the start of s
// ("&amp;", "&#39;", "&#x1F600;") to dst and returns the reference's length,
// or 0 (and dst unchanged) when s does not start with one.
func appendRef(dst []byte, s string) ([]byte, int) {
	if len(s) >= 5 {
		switch w := le32(s[1:]); {
		case w&0xFFFFFF == refLt:
			return append(dst, '<'), 4
		case w&0xFFFFFF == refGt:
			return append(dst, '>'), 4
		case w == refAmp:
			return append(dst, '&'), 5
		case w == ref39:
			return append(dst, '\''), 5
		case len(s) >= 6 && s[5] == ';' && (w == refQuot || w == refApos):
			if w == refQuot {
				return append(dst, '"'), 6
			}
			return append(dst, '\''), 6
		}
	} else if len(s) == 4 && s[3] == ';' && s[2] == 't' && (s[1] == 'l' || s[1] == 'g') {
		if s[1] == 'l' {
			return append(dst, '<'), 4
		}
		return append(dst, '>'), 4
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
