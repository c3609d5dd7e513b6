// Parse's entry points, the parser's state, and its top level: what stands
// between messages.

package roleparse

import (
	"strings"
	"sync"
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
