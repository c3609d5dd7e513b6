// Package fastpath turns the markup of a template that is fixed text with
// values between it into messages without escaping the values and parsing
// the result: the text is parsed once, when the template is compiled, and a
// render appends each value to the text of the message it prints in.
//
// Compile takes the template text around the values and returns a Program
// only where it can show that, for every list of values,
// Program.Messages(values) is what roleparse.Parse gives for the markup
// texts[0] + Escape(values[0]) + texts[1] + … + texts[n] (the general path
// of every engine):
//
//   - the markup is parsed (by roleparse itself) with a placeholder for each
//     value, twice: with placeholders that read the same wherever a
//     reference is decoded and differ where one is not (a CDATA section);
//     both parses must succeed, agree, and place every placeholder once, in
//     order, in the text of a message that has no other part and no tool
//     call (not in an attribute, a comment, or outside a message);
//   - an escaped value holds no '<' and only whole references, so it cannot
//     change what the parser does next, provided the template text before
//     it does not leave a decision to the bytes that follow: every '<' and
//     '&' of that text is decided within it (a '<' followed by a '>' or by a
//     byte that starts no tag, a complete reference, or an '&' that cannot
//     start one);
//   - a message's text is then its pieces of template text, decoded, and
//     its values joined and trimmed of literal whitespace, which is what
//     Parse makes of it, as long as no template text writes whitespace as a
//     numeric reference (Parse keeps it where literal whitespace is
//     trimmed) and no part tag is involved (an empty <text> part is kept).
//
// Template text that holds driver.HistoryMarker, markup with no message tag,
// and the Loose parse mode are left to the general path too.
package fastpath

import (
	"strconv"
	"strings"
	"unsafe"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/roleparse"
)

// MaxValues bounds the number of values a Program takes.
const MaxValues = 1 << 12

// Program is the compiled markup of fixed text with values between it. It
// is safe for concurrent use.
type Program struct {
	// msgs are the messages with their fixed fields (role, name, tool call
	// id) and, for a message that prints no value, its text; the text of
	// the others is made by Messages.
	msgs  []chat.Message
	fixed []bool // the message prints no value: msgs holds its text
	// ops[k] run after value k-1 is appended (ops[0] before the first).
	ops  [][]op
	trim bool
	// static is the length of the template text the messages hold.
	static int
}

type opKind uint8

const (
	opOpen  opKind = iota // the message's text starts
	opText                // template text, decoded
	opClose               // the message's text ends
)

type op struct {
	kind opKind
	msg  int
	text string
}

// placeholders: a reads the same decoded or not; b is a's characters as
// references, so it differs from a where references are not decoded.
const (
	phOpen, phClose   = "\uE000", "\uE001"
	phOpenB, phCloseB = "&#xE000;", "&#xE001;"
)

// Compile returns the program of the markup texts[0] v0 texts[1] … v(n-1)
// texts[n], where every v is a value the general path escapes, or nil when
// it cannot show that the program gives the messages roleparse.Parse gives
// for every such markup (see the package documentation). opts are the parse
// options of the template's set.
func Compile(texts []string, opts []roleparse.Option) *Program {
	n := len(texts) - 1
	if n < 0 || n > MaxValues || !ParseModeOK(opts) {
		return nil
	}
	var a, b strings.Builder
	for k, t := range texts {
		if strings.Contains(t, phOpen) || strings.Contains(t, phClose) || HasPartTag(t) || strings.Contains(t, driver.HistoryMarker) {
			return nil
		}
		if k < n && !Decided(t) || SpaceRef(t) {
			return nil
		}
		a.WriteString(t)
		b.WriteString(t)
		if k < n {
			a.WriteString(phOpen + strconv.Itoa(k) + phClose)
			b.WriteString(phOpenB + strconv.Itoa(k) + phCloseB)
		}
	}
	keep := append(opts[:len(opts):len(opts)], roleparse.KeepSpace())
	ma, err := roleparse.Parse(a.String(), keep...)
	if err != nil || len(ma) == 0 {
		return nil
	}
	mb, err := roleparse.Parse(b.String(), keep...)
	if err != nil || !EqualMessages(ma, mb) {
		return nil
	}
	// Markup with no message tag is one message whatever it holds; the
	// program covers markup with tags only: a self-closed message at the
	// end must add one message and change none.
	mc, err := roleparse.Parse(a.String()+`<message role="user"/>`, keep...)
	if err != nil || len(mc) != len(ma)+1 || !EqualMessages(mc[:len(ma)], ma) {
		return nil
	}

	p := &Program{msgs: make([]chat.Message, len(ma)), fixed: make([]bool, len(ma)), ops: make([][]op, n+1), trim: Trims(opts)}
	next := 0 // the next value; ops go to ops[next]
	for m, msg := range ma {
		if len(msg.ToolCalls) > 0 || len(msg.Content) > 1 || strings.Contains(string(msg.Role)+msg.Name+msg.ToolCallID, phOpen) {
			return nil
		}
		p.msgs[m] = chat.Message{Role: msg.Role, Name: msg.Name, ToolCallID: msg.ToolCallID}
		if len(msg.Content) == 1 && msg.Content[0].Type != chat.PartText {
			return nil
		}
		if text := msg.Text(); !strings.Contains(text, phOpen) && !strings.Contains(text, phClose) {
			// No value: the text is the template's, trimmed as Parse
			// trims it (a text that trims to nothing is no part).
			p.fixed[m] = true
			if p.trim {
				text = strings.Trim(text, " \t\r\n")
			}
			if text != "" {
				p.msgs[m].Content = []chat.Part{{Type: chat.PartText, Text: text}}
			}
			continue
		}
		p.ops[next] = append(p.ops[next], op{kind: opOpen, msg: m})
		if len(msg.Content) == 1 {
			rest := msg.Content[0].Text
			for {
				i := strings.Index(rest, phOpen)
				if i < 0 {
					break
				}
				if i > 0 {
					p.ops[next] = append(p.ops[next], op{kind: opText, text: rest[:i]})
					p.static += i
				}
				rest = rest[i+len(phOpen):]
				j := strings.Index(rest, phClose)
				if j < 0 || rest[:j] != strconv.Itoa(next) {
					return nil // out of order, or cut: not a placeholder as written
				}
				rest = rest[j+len(phClose):]
				next++
			}
			if strings.Contains(rest, phClose) {
				return nil
			}
			if rest != "" {
				p.ops[next] = append(p.ops[next], op{kind: opText, text: rest})
				p.static += len(rest)
			}
		}
		p.ops[next] = append(p.ops[next], op{kind: opClose, msg: m})
	}
	if next != n {
		return nil // a placeholder went missing (a comment, an attribute)
	}
	return p
}

// Placeholder returns what stands for the variable k in a render of the
// template made at compile time (see FromRender). No engine escapes its
// characters, and Compile's own placeholders are others.
func Placeholder(k int) string { return rphOpen + strconv.Itoa(k) + rphClose }

const rphOpen, rphClose = "\uE002", "\uE003"

// Reserved reports whether the template source s holds a character that
// placeholders are made of; such a template can have no program.
func Reserved(s string) bool { return strings.ContainsAny(s, phOpen+phClose+rphOpen+rphClose) }

// FromRender returns the program of a template whose values are variables:
// out is the template rendered once by its engine with Placeholder(k) as the
// value of the variable k, and vars[i] is the variable the template's i-th
// value prints. The text between the placeholders is the template's text;
// It returns nil when the placeholders do not stand in out in that
// order, once each, or when Compile does.
func FromRender(out string, vars []int, opts []roleparse.Option) *Program {
	if len(vars) > MaxValues {
		return nil
	}
	texts := make([]string, 0, len(vars)+1)
	for _, k := range vars {
		ph := Placeholder(k)
		i := strings.Index(out, ph)
		if i < 0 {
			return nil
		}
		texts = append(texts, out[:i])
		out = out[i+len(ph):]
	}
	texts = append(texts, out)
	for _, t := range texts {
		if strings.ContainsAny(t, rphOpen+rphClose) {
			return nil // a placeholder out of order, or printed more often
		}
	}
	return Compile(texts, opts)
}

// Values returns the number of values Messages takes.
func (p *Program) Values() int { return len(p.ops) - 1 }

// Messages returns the messages of the markup with values, unescaped, in
// place of the values the program was compiled for (len(values) must be
// Values()). The messages' text shares one new string; with mem, it and
// the messages are in mem instead (see driver.Memory).
func (p *Program) Messages(values []string, mem *driver.Memory) []chat.Message {
	if len(values) != len(p.ops)-1 {
		panic("fastpath: wrong number of values")
	}
	size := p.static
	for _, v := range values {
		size += len(v)
	}
	var bbuf [32]int
	bounds := bbuf[:0]
	if 2*len(p.msgs) > len(bbuf) {
		bounds = make([]int, 2*len(p.msgs))
	}
	bounds = bounds[:2*len(p.msgs)]
	out := Text(mem, size)
	out = p.Append(0, out, bounds)
	for k, v := range values {
		out = append(out, v...)
		out = p.Append(k+1, out, bounds)
	}
	var msgs []chat.Message
	var parts []chat.Part
	if mem != nil {
		msgs, parts = p.Blocks(mem)
	} else {
		msgs, parts = make([]chat.Message, len(p.msgs)), make([]chat.Part, len(p.msgs))
	}
	p.Fill(Done(mem, out), bounds, msgs, parts)
	return msgs
}

// maxKept is the capacity beyond which a Memory's text is not kept for the
// next render: one very long render does not hold its memory for the rest.
const maxKept = 1 << 20

// Text returns an empty buffer of capacity at least n for the text of a
// render's messages: mem's, when mem is not nil and large enough, else a
// new one. Done returns the text written in it.
func Text(mem *driver.Memory, n int) []byte {
	if mem != nil && cap(mem.Text) >= n {
		return mem.Text[:0]
	}
	if mem != nil {
		// Grown at least twice over, but not past what Done keeps: a buffer
		// it drops would be allocated again by every render this size.
		n = max(n, min(2*cap(mem.Text), maxKept))
	}
	return make([]byte, 0, n)
}

// Done returns the text of b, a buffer from Text that the render has
// written, as a string; b is kept in mem, when mem is not nil, for the next
// render to write over.
func Done(mem *driver.Memory, b []byte) string {
	if mem != nil && cap(b) <= maxKept {
		mem.Text = b
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Blocks returns Len() messages and parts for Fill, from mem, which grows
// to hold them.
func (p *Program) Blocks(mem *driver.Memory) ([]chat.Message, []chat.Part) {
	n := len(p.msgs)
	if len(mem.Msgs) < n {
		mem.Msgs = make([]chat.Message, n)
	}
	if len(mem.Parts) < n {
		mem.Parts = make([]chat.Part, n)
	}
	return mem.Msgs[:n:n], mem.Parts[:n:n]
}

// Len returns the number of messages the program makes.
func (p *Program) Len() int { return len(p.msgs) }

// Static returns the length of the template text that Append writes.
func (p *Program) Static() int { return p.static }

// Append appends to out the template text that follows value k-1 (that
// comes first, for k = 0), records in bounds (two per message) where each
// message's text starts and ends in out, and returns the extended buffer.
func (p *Program) Append(k int, out []byte, bounds []int) []byte {
	for _, o := range p.ops[k] {
		switch o.kind {
		case opOpen:
			bounds[2*o.msg] = len(out)
		case opText:
			out = append(out, o.text...)
		case opClose:
			bounds[2*o.msg+1] = len(out)
		}
	}
	return out
}

// Empty reports whether Append(k) writes nothing and records nothing.
func (p *Program) Empty(k int) bool { return len(p.ops[k]) == 0 }

// Fill sets msgs and parts (Len() of each) to the messages of a render
// whose text s was written with Append, which left bounds: each message's
// fixed fields, and its text from the template or from s, trimmed as Parse
// trims it. The messages' text parts are parts.
func (p *Program) Fill(s string, bounds []int, msgs []chat.Message, parts []chat.Part) {
	copy(msgs, p.msgs)
	for m := range msgs {
		if p.fixed[m] {
			if len(msgs[m].Content) > 0 {
				// Its own part, so that a caller changing one render's
				// messages changes no other's.
				parts[m] = msgs[m].Content[0]
				msgs[m].Content = parts[m : m+1 : m+1]
			}
			continue
		}
		b, e := bounds[2*m], bounds[2*m+1]
		if p.trim {
			for b < e && isSpace(s[b]) {
				b++
			}
			for e > b && isSpace(s[e-1]) {
				e--
			}
		}
		if b < e {
			parts[m] = chat.Part{Type: chat.PartText, Text: s[b:e]}
			msgs[m].Content = parts[m : m+1 : m+1]
		}
	}
}

// Decided reports whether every '<' and '&' of template text t is read the
// same whatever follows t.
func Decided(t string) bool {
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '<':
			if strings.IndexByte(t[i+1:], '>') >= 0 {
				continue // the parser's reading of the '<' ends by this '>'
			}
			if i+1 == len(t) {
				return false
			}
			if c := t[i+1] | 0x20; ('a' <= c && c <= 'z') || t[i+1] == '/' || t[i+1] == '!' {
				return false
			}
		case '&':
			if i+1 == len(t) {
				return false
			}
			switch t[i+1] {
			case 'l', 'g', 'a', 'q':
				if !namedRef(t[i:]) {
					return false
				}
			case '#':
				if !numericRef(t[i:]) {
					return false
				}
			}
		}
	}
	return true
}

// SpaceRef reports whether template text t holds a numeric reference to
// ASCII whitespace, which Parse keeps where literal whitespace is trimmed:
// a program that trims a message's text as written cannot hold it.
func SpaceRef(t string) bool {
	for {
		i := strings.Index(t, "&#")
		if i < 0 {
			return false
		}
		t = t[i:]
		if j := strings.IndexByte(t, ';'); j >= 0 && !numericRef(t[:j+1]) {
			return true
		}
		t = t[2:]
	}
}

// namedRef reports whether s starts with a named reference that Parse
// decodes, complete within s.
func namedRef(s string) bool {
	for _, r := range []string{"&lt;", "&gt;", "&amp;", "&quot;", "&apos;"} {
		if strings.HasPrefix(s, r) {
			return true
		}
	}
	return false
}

// numericRef reports whether s, which starts with "&#", holds all that
// decides how Parse reads it (its digits end within s), and that it does
// not stand for whitespace, which Parse keeps where literal whitespace is
// trimmed.
func numericRef(s string) bool {
	i, base := 2, 10
	if i < len(s) && (s[i] == 'x' || s[i] == 'X') {
		i, base = 3, 16
	}
	r := 0
	for ; i < len(s); i++ {
		d := hexDigit(s[i])
		if d < 0 || d >= base {
			break
		}
		if r <= 0x10FFFF {
			r = r*base + d
		}
	}
	if i == len(s) {
		return false // the digits may go on in what follows
	}
	return s[i] != ';' || (r != ' ' && r != '\t' && r != '\n' && r != '\r')
}

// partTags are the tags whose content the program does not model.
var partTags = []string{"<text", "<image", "<audio", "<file", "<binary", "<tool_call", "<function_call", "<function_result"}

// HasPartTag reports whether template text t holds a part tag.
func HasPartTag(t string) bool {
	low := strings.ToLower(t)
	for _, p := range partTags {
		if strings.Contains(low, p) {
			return true
		}
	}
	return false
}

// ParseModeOK reports whether the parse options leave text outside messages
// an error (not Loose), which the program relies on.
func ParseModeOK(opts []roleparse.Option) bool {
	_, err := roleparse.Parse(`x<message role="user">y</message>`, opts...)
	return err != nil
}

// Trims reports whether the parse options trim message text (no KeepSpace).
func Trims(opts []roleparse.Option) bool {
	m, err := roleparse.Parse(`<message role="user"> x </message>`, opts...)
	return err == nil && len(m) == 1 && m[0].Text() == "x"
}

// EqualMessages reports whether a and b hold the same messages.
func EqualMessages(a, b []chat.Message) bool {
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

// hexDigit returns the value of a hexadecimal digit, or -1.
func hexDigit(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c|0x20 && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return -1
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
