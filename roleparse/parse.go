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
	msgs, _, err := parse(markup, false, nil, opts)
	return msgs, err
}

// ParseOwned is Parse for markup that the caller hands over, as a template
// engine does with what it rendered: references are decoded inside b, and
// the messages share its memory, so b must not be used afterwards. It saves
// the memory Parse takes for decoded text. When Parse would fail, b is left
// as it was and the error is the same.
func ParseOwned(b []byte, opts ...Option) ([]chat.Message, error) {
	// The parse reads b through a string, so it must not change b: it only
	// records which texts to decode. That string is gone when parse
	// returns (nothing of the parser outlives it), and the messages hold
	// strings over b's bytes only where the parse found no reference to
	// decode, except for each pending text itself, which is dropped
	// before its bytes are decoded. So no string is alive over bytes while
	// they change, as unsafe.String requires.
	var buf [8]pendingText
	msgs, pending, err := parse(unsafe.String(unsafe.SliceData(b), len(b)), true, &buf, opts)
	if err != nil {
		return nil, err
	}
	for _, t := range pending {
		part := &msgs[t.msg].Content[t.part]
		part.Text = ""
		n := decodeInPlace(b[t.start:t.end])
		part.Text = unsafe.String(&b[t.start], n)
	}
	return msgs, nil
}

// parse parses markup. When owned, the texts with references to decode
// that textPart left undecoded are returned as pending, copied into buf
// when they fit.
func parse(markup string, owned bool, buf *[8]pendingText, opts []Option) ([]chat.Message, []pendingText, error) {
	p := parsers.Get().(*parser)
	*p = parser{src: markup, owned: owned}
	p.cfg.apply(opts) // in the pooled parser: a config of its own would move to the heap
	p.runs = p.runBuf[:0]
	p.pending = p.pendBuf[:0]
	msgs, err := p.parse()
	var pending []pendingText
	if err == nil && len(p.pending) > 0 {
		if len(p.pending) <= len(buf) {
			pending = buf[:copy(buf[:], p.pending)]
		} else {
			pending = p.pending // grown by append, so not the pooled pendBuf
		}
	}
	*p = parser{} // keep nothing of this parse alive in the pool
	parsers.Put(p)
	return msgs, pending, err
}

// parsers recycles parser state, which is too large to allocate per parse.
var parsers = sync.Pool{New: func() any { return new(parser) }}

// ParseBytes is Parse for markup held in a byte slice. The messages do not
// refer to b afterwards.
func ParseBytes(b []byte, opts ...Option) ([]chat.Message, error) {
	return Parse(string(b), opts...)
}

// pendingText is a text part (Content[part] of msgs[msg]) whose references
// ParseOwned decodes in place, in src[start:end], when the parse succeeds.
type pendingText struct{ msg, part, start, end int }

// run is a piece of text inside a message: raw markup text whose references
// are still to be decoded, or the verbatim content of a CDATA section.
type run struct {
	s     string
	cdata bool
}

type parser struct {
	src string
	// owned is set for ParseOwned, whose caller decodes the pending texts
	// in src's memory once the parse has succeeded (the parse itself
	// reads src as a string and changes nothing).
	owned   bool
	pending []pendingText
	pendBuf [8]pendingText
	pos     int
	cfg     config
	msgs    []chat.Message

	// The open message, if open is true: the last of msgs (cur), written
	// field by field where it lies (copying a whole message into the heap
	// costs a bulk write barrier while the garbage collector runs; keeping
	// a pointer to it in the parser, one barrier more per message).
	open   bool
	openAt int
	runs   []run // loose text not yet flushed
	// textBuf holds decoded text, in chunks made as needed (see text);
	// being a strings.Builder, without being zeroed first. The strings
	// made from a chunk stay valid, since a Builder never changes what it
	// wrote.
	textBuf strings.Builder
	// parts backs the content of text-only messages, one part each.
	parts  []chat.Part
	runBuf [8]run
	attrs  [4]attr
	// loose text outside messages (Loose mode)
	outside []run
	// nested is len(msgs) when the last message opened inside another
	// (which it closed), for the error about the end tag meant for that
	// one; 0 otherwise.
	nested int
}

// cur returns the open message.
func (p *parser) cur() *chat.Message { return &p.msgs[len(p.msgs)-1] }

func (p *parser) parse() ([]chat.Message, error) {
	if !hasMessageTag(p.src) {
		if emptyHistory(p.src) {
			return nil, nil // Semantic Kernel's serialization of an empty history
		}
		text := p.text([]run{{s: p.src}})
		if text == "" {
			return nil, nil
		}
		return []chat.Message{{Role: p.cfg.defaultRole, Content: []chat.Part{chat.TextPart(text)}}}, nil
	}
	if n := countMessageTags(p.src); n > 0 {
		p.msgs = make([]chat.Message, 0, n)
		p.parts = make([]chat.Part, 0, min(n, partChunk))
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
	return p.msgs, nil
}

// emptyHistory reports whether s is only a <chat_history/> or
// <chat_history></chat_history> wrapper, with whitespace around.
func emptyHistory(s string) bool {
	s = strings.Trim(s, " \t\r\n")
	// tagAt reads the name after a '<' it does not check.
	if !strings.HasPrefix(s, "<") || !tagAt(s, 0, "chat_history", false) {
		return false
	}
	end := strings.IndexByte(s, '>')
	if end < 0 || strings.ContainsAny(s[len("<chat_history"):end], "<\"'=") {
		return false
	}
	rest := strings.TrimLeft(s[end+1:], " \t\r\n")
	if s[end-1] == '/' {
		return rest == ""
	}
	if !strings.HasPrefix(rest, "<") || !tagAt(rest, 0, "chat_history", true) {
		return false
	}
	return strings.TrimRight(rest[len("</chat_history"):], " \t\r\n") == ">"
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
		if len(p.outside) == 0 && p.openKnown(i) {
			return nil
		}
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
			if p.nested == len(p.msgs) && p.nested > 0 {
				return p.errAt(i, "</message> closes no message; expected <message role=\"…\"> before it (messages do not nest: the <message> opened inside the one before closed it)")
			}
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
