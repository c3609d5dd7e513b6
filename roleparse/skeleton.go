// The skeleton compiler: markup that is fixed text with holes for values,
// parsed once, so that a render puts each value into its message's text
// with no escaping and no parse.

package roleparse

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/rolemark/rolemark/chat"
)

// Skeleton is markup compiled with holes for values: the markup
// texts[0] v0 texts[1] … v(n-1) texts[n], where each v is a value escaped
// with Escape, parsed once by CompileSkeleton. Messages then gives, for any
// values, exactly what Parse gives for that markup, without escaping the
// values or parsing anything: each value goes, as it is, into the text of
// the message it stands in. A template engine uses it for a template that is
// fixed text and plain values. A Skeleton is safe for concurrent use.
type Skeleton struct {
	// msgs are the messages with their fixed fields (role, name, tool
	// call id) and, for a message that holds no value (fixed), its text;
	// the text of the others is made by a render.
	msgs  []chat.Message
	fixed []bool
	// ops[k] run after value k-1 is written (ops[0] before the first).
	ops  [][]skelOp
	trim bool
	// static is the length of the template text that renders write.
	static int
}

type skelOpKind uint8

const (
	opOpen  skelOpKind = iota // the message's text starts
	opText                    // template text, decoded
	opClose                   // the message's text ends
)

type skelOp struct {
	kind skelOpKind
	msg  int
	text string
}

// maxHoles bounds the number of holes a Skeleton has.
const maxHoles = 1 << 12

// The characters of the placeholders CompileSkeleton parses in the holes
// (phOpen, phClose; phOpenRef, phCloseRef are the same written as
// references) and of those Hole returns (holeOpen, holeClose). Texts that
// hold one have no skeleton.
const (
	phOpen, phClose       = "\uE000", "\uE001"
	phOpenRef, phCloseRef = "&#xE000;", "&#xE001;"
	holeOpen, holeClose   = "\uE002", "\uE003"
	reservedChars         = phOpen + phClose + holeOpen + holeClose
)

// CompileSkeleton compiles the markup texts[0] v0 texts[1] … v(n-1)
// texts[n], for values v escaped with Escape and parsed with opts. It
// reports false when it cannot show that Skeleton.Messages gives what
// Parse gives for every such markup; the caller then escapes and parses.
//
// It parses the markup itself, with a placeholder in each hole, twice (the
// second time with the placeholders written as references, so that a hole
// whose text is not decoded, in a CDATA section, shows), and keeps it only
// when:
//
//   - both parses succeed, agree, and put every placeholder once, in order,
//     in the text of a message that has no part tag and no tool call (not in
//     an attribute, a comment, a part, or outside a message), and the
//     markup has a message tag;
//   - every '<' and '&' of the text before a hole is read the same whatever
//     follows it (an escaped value holds no '<' and only whole references,
//     so it then cannot change what the parser does next);
//   - no text writes whitespace as a character reference, which Parse keeps
//     where it trims literal whitespace;
//   - the options are not Loose.
func CompileSkeleton(texts []string, opts ...Option) (*Skeleton, bool) {
	var cfg config
	cfg.apply(opts)
	n := len(texts) - 1
	if n < 0 || n > maxHoles || cfg.loose {
		return nil, false
	}
	var a, b strings.Builder
	for k, t := range texts {
		if strings.ContainsAny(t, reservedChars) || hasPartTag(t) || spaceRef(t) || k < n && !decided(t) {
			return nil, false
		}
		a.WriteString(t)
		b.WriteString(t)
		if k < n {
			a.WriteString(phOpen + strconv.Itoa(k) + phClose)
			b.WriteString(phOpenRef + strconv.Itoa(k) + phCloseRef)
		}
	}
	keep := append(opts[:len(opts):len(opts)], KeepSpace())
	ma, err := Parse(a.String(), keep...)
	if err != nil || len(ma) == 0 || !hasMessageTag(a.String()) {
		return nil, false
	}
	mb, err := Parse(b.String(), keep...)
	if err != nil || !equalMessages(ma, mb) {
		return nil, false
	}
	// The end of the markup must close the last message and change no
	// other: a message added after it adds one message.
	mc, err := Parse(a.String()+`<message role="user"/>`, keep...)
	if err != nil || len(mc) != len(ma)+1 || !equalMessages(mc[:len(ma)], ma) {
		return nil, false
	}
	s := &Skeleton{msgs: make([]chat.Message, len(ma)), fixed: make([]bool, len(ma)), ops: make([][]skelOp, n+1), trim: !cfg.keepSpace}
	if !s.build(ma) {
		return nil, false
	}
	return s, true
}

// build turns the messages of the markup parsed with placeholders into the
// skeleton's messages and steps.
func (s *Skeleton) build(ma []chat.Message) bool {
	next := 0 // the next hole; steps go to ops[next]
	for m, msg := range ma {
		if len(msg.ToolCalls) > 0 || len(msg.Content) > 1 || strings.ContainsAny(string(msg.Role)+msg.Name+msg.ToolCallID, reservedChars) {
			return false
		}
		if len(msg.Content) == 1 && msg.Content[0].Type != chat.PartText {
			return false
		}
		s.msgs[m] = chat.Message{Role: msg.Role, Name: msg.Name, ToolCallID: msg.ToolCallID}
		text := msg.Text()
		if !strings.ContainsAny(text, reservedChars) {
			// No value: the text is the template's, trimmed as Parse
			// trims it (a text that trims to nothing is no part).
			s.fixed[m] = true
			if s.trim {
				text = trimSpace(text)
			}
			if text != "" {
				s.msgs[m].Content = []chat.Part{chat.TextPart(text)}
			}
			continue
		}
		s.ops[next] = append(s.ops[next], skelOp{kind: opOpen, msg: m})
		rest := text
		for {
			i := strings.Index(rest, phOpen)
			if i < 0 {
				break
			}
			if i > 0 {
				s.ops[next] = append(s.ops[next], skelOp{kind: opText, text: rest[:i]})
				s.static += i
			}
			rest = rest[i+len(phOpen):]
			j := strings.Index(rest, phClose)
			if j < 0 || rest[:j] != strconv.Itoa(next) {
				return false // out of order, or cut: not a placeholder as written
			}
			rest = rest[j+len(phClose):]
			next++
		}
		if strings.ContainsAny(rest, reservedChars) {
			return false
		}
		if rest != "" {
			s.ops[next] = append(s.ops[next], skelOp{kind: opText, text: rest})
			s.static += len(rest)
		}
		s.ops[next] = append(s.ops[next], skelOp{kind: opClose, msg: m})
	}
	return next == len(s.ops)-1 // else a placeholder went missing (a comment, an attribute)
}

// Holes returns the number of values Messages takes.
func (s *Skeleton) Holes() int { return len(s.ops) - 1 }

// Len returns the number of messages the skeleton makes.
func (s *Skeleton) Len() int { return len(s.msgs) }

// errHoles is the error of a render with the wrong number of values.
func (s *Skeleton) errHoles(n int) error {
	return fmt.Errorf("roleparse: skeleton has %d holes, given %d values", s.Holes(), n)
}

// Messages returns the messages of the markup with values, as they are,
// in the holes: what Parse gives for the markup with values escaped. The
// messages are new, and their text is one new string. The only error is a
// number of values other than Holes().
func (s *Skeleton) Messages(values []string) ([]chat.Message, error) {
	if len(values) != s.Holes() {
		return nil, s.errHoles(len(values))
	}
	var b strings.Builder
	b.Grow(s.textLen(values))
	for k, ops := range s.ops {
		for _, o := range ops {
			if o.kind == opText {
				b.WriteString(o.text)
			}
		}
		if k < len(values) {
			b.WriteString(values[k])
		}
	}
	msgs, parts := newBlock(len(s.msgs))
	s.fill(msgs, parts, b.String(), values)
	return msgs, nil
}

// AppendText appends to dst the text that the messages of a render with
// values share (see Fill) and returns the extended slice. It is for a
// caller that keeps the memory of messages from one render to the next;
// Messages does both steps in memory of its own.
func (s *Skeleton) AppendText(dst []byte, values []string) ([]byte, error) {
	if len(values) != s.Holes() {
		return dst, s.errHoles(len(values))
	}
	dst = slices.Grow(dst, s.textLen(values))
	for k, ops := range s.ops {
		for _, o := range ops {
			if o.kind == opText {
				dst = append(dst, o.text...)
			}
		}
		if k < len(values) {
			dst = append(dst, values[k]...)
		}
	}
	return dst, nil
}

// Fill sets msgs[:Len()] to the messages of a render with values, whose
// text is what AppendText appended for them, and uses parts[:Len()] for their
// text parts; the messages' strings are text's. It fails when msgs or
// parts are shorter than Len(), or text is not the length AppendText
// writes for values.
func (s *Skeleton) Fill(msgs []chat.Message, parts []chat.Part, text string, values []string) error {
	switch {
	case len(values) != s.Holes():
		return s.errHoles(len(values))
	case len(msgs) < len(s.msgs) || len(parts) < len(s.msgs):
		return fmt.Errorf("roleparse: skeleton makes %d messages, given room for %d messages and %d parts", len(s.msgs), len(msgs), len(parts))
	case len(text) != s.textLen(values):
		return errors.New("roleparse: the text given to Fill is not what AppendText wrote for these values")
	}
	s.fill(msgs, parts, text, values)
	return nil
}

// textLen returns the length of the text of a render with values.
func (s *Skeleton) textLen(values []string) int {
	n := s.static
	for _, v := range values {
		n += len(v)
	}
	return n
}

// fill sets msgs and parts (Len() of each) to the messages of a render
// with values whose text is text: each message's fixed fields, and its text
// from the template or from text, trimmed as Parse trims it.
func (s *Skeleton) fill(msgs []chat.Message, parts []chat.Part, text string, values []string) {
	copy(msgs, s.msgs)
	for m := range s.msgs {
		if s.fixed[m] && len(msgs[m].Content) > 0 {
			// Its own part, so that a caller changing one render's
			// messages changes no other's.
			parts[m] = msgs[m].Content[0]
			msgs[m].Content = parts[m : m+1 : m+1]
		}
	}
	pos, start := 0, 0
	for k, ops := range s.ops {
		for _, o := range ops {
			switch o.kind {
			case opOpen:
				start = pos
			case opText:
				pos += len(o.text)
			case opClose:
				t := text[start:pos]
				if s.trim {
					t = trimSpace(t)
				}
				if t != "" {
					parts[o.msg] = chat.Part{Type: chat.PartText, Text: t}
					msgs[o.msg].Content = parts[o.msg : o.msg+1 : o.msg+1]
				}
			}
		}
		if k < len(values) {
			pos += len(values[k])
		}
	}
}

// newBlock returns n messages and n parts, in one allocation when n is
// small.
func newBlock(n int) ([]chat.Message, []chat.Part) {
	switch {
	case n <= 2:
		b := new(struct {
			m [2]chat.Message
			p [2]chat.Part
		})
		return b.m[:n:n], b.p[:n:n]
	case n <= 4:
		b := new(struct {
			m [4]chat.Message
			p [4]chat.Part
		})
		return b.m[:n:n], b.p[:n:n]
	case n <= 8:
		b := new(struct {
			m [8]chat.Message
			p [8]chat.Part
		})
		return b.m[:n:n], b.p[:n:n]
	}
	return make([]chat.Message, n), make([]chat.Part, n)
}

// Hole returns the text that stands for value k in a render that an engine
// makes at compile time to find its template's texts: rendered with Hole(k)
// as the value of its k-th variable, the template writes its texts with
// the holes between them, which SplitHoles takes apart. No engine escapes
// its characters, and markup holds them only where a template writes them.
func Hole(k int) string { return holeOpen + strconv.Itoa(k) + holeClose }

// SplitHoles returns the texts of a render made with Hole(k) for each
// variable k, where holes[i] is the variable the i-th value prints: the
// text before the first hole, between each two, and after the last. It
// reports false when the holes do not stand in rendered once each, in that
// order, with nothing else made of their characters.
func SplitHoles(rendered string, holes []int) ([]string, bool) {
	if len(holes) > maxHoles {
		return nil, false
	}
	texts := make([]string, 0, len(holes)+1)
	for _, k := range holes {
		h := Hole(k)
		i := strings.Index(rendered, h)
		if i < 0 {
			return nil, false
		}
		texts = append(texts, rendered[:i])
		rendered = rendered[i+len(h):]
	}
	texts = append(texts, rendered)
	for _, t := range texts {
		if strings.ContainsAny(t, holeOpen+holeClose) {
			return nil, false // a hole out of order, or printed more often
		}
	}
	return texts, true
}

// equalMessages reports whether a and b hold the same messages, tool calls
// aside (a skeleton has none).
func equalMessages(a, b []chat.Message) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Role != y.Role || x.Name != y.Name || x.ToolCallID != y.ToolCallID || len(x.Content) != len(y.Content) || len(x.ToolCalls) != len(y.ToolCalls) {
			return false
		}
		for j := range x.Content {
			if x.Content[j] != y.Content[j] {
				return false
			}
		}
	}
	return true
}
