package gotmpl

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"text/template/parse"
	"unsafe"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/fastpath"
	"github.com/rolemark/rolemark/roleparse"
)

// The fast path renders a template straight to messages: the template's
// markup is fixed at compile time, so it is parsed then, once, and at
// render time every value goes into the text of the message it prints in,
// with no escaping and no parse. It is taken only where the compiler can
// show that the result is what roleparse.Parse gives for the markup with
// every value escaped (the general path), for every value:
//
//   - the markup is parsed (by roleparse itself) with a placeholder for each
//     value, twice: with placeholders that read the same wherever a
//     reference is decoded and differ where one is not (a CDATA section);
//     both parses must succeed, agree, and place every placeholder once, in
//     the text of a message that has no other part and no tool call (not in
//     an attribute, a comment, or outside a message);
//   - an escaped value holds no '<' and only whole references, so it cannot
//     change what the parser does next, provided the template text does not
//     leave a decision to the bytes that follow it: every '<' and '&' of the
//     template text is decided within its text (a '<' followed by a '>' or by
//     a byte that starts no tag, a complete reference or an '&' that cannot
//     start one);
//   - a message's text is then its pieces of template text and its values
//     joined and trimmed of literal whitespace, which is what Parse makes of
//     it, as long as no template text writes whitespace as a numeric
//     reference (then trimmed as written) and no <text> part is involved (an
//     empty one is kept).
//
// Control flow is allowed where it only prints text: an if, range, with or
// template call whose template text holds no '<' or '&' and whose actions
// print values stands for a value. Everything else (markup functions left
// after expansion, history, parts, AllowMissing, Loose parsing) takes the
// general path.
//
// When every action of such a template prints a field of the data
// ({{.name}}), the render does not run text/template at all if each of
// those fields holds a string (what text/template would print is then the
// string itself): it looks the keys up, sizes the text exactly, and writes
// template text and values into it (executeDirect). Any other value (a
// missing key, a nil, a number, a Stringer) runs text/template as above.
// The text of a message that prints no value is fixed at compile time and
// never copied.
type program struct {
	// msgs are the messages with their fixed fields (role, name, tool call
	// id); their text is made at render time.
	msgs []chat.Message
	// segAt maps the arena offset of each top-level text node to its ops
	// (index+1; 0 for other text, which prints as a value does).
	segAt []uint16
	ops   [][]op
	// tail are the ops of the end of the markup, when no text node holds
	// them: they run after the render.
	tail []op
	trim bool
	// static is the length of the template text the messages hold in
	// the render's buffer (fixed messages excepted).
	static int
	// fixed[m] is message m's text when no value prints in it (trimmed
	// as Parse trims it); such a message has no ops and its text is not
	// copied. isFixed[m] says which messages are fixed.
	fixed   []string
	isFixed []bool
	// keys are the data's keys that the values print, in order, when
	// every value is a field of the data ({{.name}}): the direct render
	// (executeDirect) then looks them up itself, without text/template.
	direct bool
	keys   []string
	// block is the type of one allocation holding the messages and their
	// text parts: [n]chat.Message then [n]chat.Part at partOff.
	block   reflect.Type
	partOff uintptr
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

// buildProgram returns the fast path's program for the compiled template,
// or nil when the template must take the general path. opts are the parse
// options of the set.
func (c *compiled) buildProgram(opts []roleparse.Option) *program {
	if c.slow || c.t.Tree == nil || c.t.Tree.Root == nil || !fastpath.ParseModeOK(opts) {
		return nil
	}
	// The top level: template text, and slots (values and pure subtrees).
	type seg struct {
		nodes []*parse.TextNode
		text  strings.Builder
	}
	segs := []*seg{{}}
	pure := map[string]bool{}
	direct, keys := true, []string{}
	for _, n := range c.t.Tree.Root.Nodes {
		switch n := n.(type) {
		case *parse.TextNode:
			s := segs[len(segs)-1]
			s.nodes = append(s.nodes, n)
			s.text.Write(n.Text)
		case *parse.ActionNode:
			if c.markupAction(n) {
				return nil
			}
			if len(n.Pipe.Decl) > 0 {
				direct = false // evaluated, though it prints nothing
				continue
			}
			if k, ok := fieldKey(n); ok {
				keys = append(keys, k)
			} else {
				direct = false
			}
			segs = append(segs, &seg{})
		case *parse.CommentNode:
		case *parse.IfNode, *parse.RangeNode, *parse.WithNode, *parse.TemplateNode:
			if !c.pureNode(n, pure) {
				return nil
			}
			direct = false
			segs = append(segs, &seg{})
		default:
			return nil
		}
	}
	if len(segs) > 1<<12 {
		return nil
	}
	var a, b strings.Builder
	for k, s := range segs {
		t := s.text.String()
		// Template text that writes the history marker itself is replaced
		// by the history on the general path.
		if strings.Contains(t, phOpen) || strings.Contains(t, phClose) || fastpath.HasPartTag(t) || strings.Contains(t, driver.HistoryMarker) {
			return nil
		}
		// Whitespace written as a reference is kept where literal
		// whitespace is trimmed, in any segment.
		if k < len(segs)-1 && !fastpath.Decided(t) || fastpath.SpaceRef(t) {
			return nil
		}
		a.WriteString(t)
		b.WriteString(t)
		if k < len(segs)-1 {
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
	if err != nil || !fastpath.EqualMessages(ma, mb) {
		return nil
	}
	// Markup with no message tag is one message whatever it holds; the
	// program covers markup with tags only: a self-closed message at the
	// end must add one message and change none.
	mc, err := roleparse.Parse(a.String()+`<message role="user"/>`, keep...)
	if err != nil || len(mc) != len(ma)+1 || !fastpath.EqualMessages(mc[:len(ma)], ma) {
		return nil
	}

	p := &program{msgs: make([]chat.Message, len(ma)), ops: make([][]op, len(segs)), trim: fastpath.Trims(opts),
		fixed: make([]string, len(ma)), isFixed: make([]bool, len(ma))}
	cur, next := 0, 0 // the segment the ops belong to; the next slot
	for m, msg := range ma {
		if len(msg.ToolCalls) > 0 || len(msg.Content) > 1 || strings.Contains(string(msg.Role)+msg.Name+msg.ToolCallID, phOpen) {
			return nil
		}
		if len(msg.Content) == 1 && msg.Content[0].Type != chat.PartText {
			return nil
		}
		p.msgs[m] = chat.Message{Role: msg.Role, Name: msg.Name, ToolCallID: msg.ToolCallID}
		if len(msg.Content) == 0 || !strings.Contains(msg.Content[0].Text, phOpen) {
			// No value prints in it: its text is known now.
			text := ""
			if len(msg.Content) == 1 {
				text = msg.Content[0].Text
			}
			if strings.Contains(text, phClose) {
				return nil
			}
			if p.trim {
				text = strings.Trim(text, " \t\r\n")
			}
			p.fixed[m], p.isFixed[m] = text, true
			continue
		}
		p.ops[cur] = append(p.ops[cur], op{kind: opOpen, msg: m})
		{
			part := msg.Content[0]
			rest := part.Text
			for {
				i := strings.Index(rest, phOpen)
				if i < 0 {
					break
				}
				if i > 0 {
					p.ops[cur] = append(p.ops[cur], op{kind: opText, text: rest[:i]})
					p.static += i
				}
				rest = rest[i+len(phOpen):]
				j := strings.Index(rest, phClose)
				if j < 0 || rest[:j] != strconv.Itoa(next) {
					return nil // out of order, or cut: not a placeholder as written
				}
				rest = rest[j+len(phClose):]
				next++
				cur = next
			}
			if strings.Contains(rest, phClose) {
				return nil
			}
			if rest != "" {
				p.ops[cur] = append(p.ops[cur], op{kind: opText, text: rest})
				p.static += len(rest)
			}
		}
		p.ops[cur] = append(p.ops[cur], op{kind: opClose, msg: m})
	}
	if next != len(segs)-1 {
		return nil // a placeholder went missing (a comment, an attribute)
	}

	// Each segment's ops run when its first text node is written; its other
	// text nodes do nothing. A segment without text has no ops.
	p.segAt = make([]uint16, len(c.arena))
	for k, s := range segs {
		first := true
		for _, n := range s.nodes {
			if len(n.Text) == 0 {
				continue // never recognised by address; prints nothing
			}
			off := uintptr(unsafe.Pointer(unsafe.SliceData(n.Text))) - c.lo
			if off >= uintptr(len(c.arena)) {
				return nil
			}
			if first {
				p.segAt[off] = uint16(k + 1)
				first = false
			} else {
				p.segAt[off] = uint16(len(segs) + 1) // no ops
			}
		}
		if first && len(p.ops[k]) > 0 {
			if k != len(segs)-1 {
				return nil
			}
			p.tail = p.ops[k] // the end of the markup closes a message
		}
	}
	p.ops = append(p.ops, nil)
	if direct && len(keys) == len(segs)-1 {
		p.direct, p.keys = true, keys
	}
	n := len(p.msgs)
	p.block = reflect.StructOf([]reflect.StructField{
		{Name: "M", Type: reflect.ArrayOf(n, reflect.TypeFor[chat.Message]())},
		{Name: "P", Type: reflect.ArrayOf(n, reflect.TypeFor[chat.Part]())},
	})
	p.partOff = p.block.Field(1).Offset
	return p
}

// fieldKey returns name when action a prints a field of dot ({{.name}}) and
// does nothing else.
func fieldKey(a *parse.ActionNode) (string, bool) {
	p := a.Pipe
	if len(p.Decl) > 0 || len(p.Cmds) != 1 || len(p.Cmds[0].Args) != 1 {
		return "", false
	}
	f, ok := p.Cmds[0].Args[0].(*parse.FieldNode)
	if !ok || len(f.Ident) != 1 {
		return "", false
	}
	return f.Ident[0], true
}

// pureNode reports whether n only prints text: its template text (and that
// of the templates it calls) holds no '<' or '&', and its actions print
// values, not markup.
func (c *compiled) pureNode(n parse.Node, seen map[string]bool) bool {
	switch n := n.(type) {
	case nil:
		return true
	case *parse.ListNode:
		if n == nil {
			return true
		}
		for _, x := range n.Nodes {
			if !c.pureNode(x, seen) {
				return false
			}
		}
		return true
	case *parse.TextNode:
		return !strings.ContainsAny(string(n.Text), "<&"+phOpen+phClose)
	case *parse.ActionNode:
		return !c.markupAction(n)
	case *parse.CommentNode, *parse.BreakNode, *parse.ContinueNode:
		return true
	case *parse.IfNode:
		return c.pureNode(n.List, seen) && c.pureNode(n.ElseList, seen)
	case *parse.RangeNode:
		return c.pureNode(n.List, seen) && c.pureNode(n.ElseList, seen)
	case *parse.WithNode:
		return c.pureNode(n.List, seen) && c.pureNode(n.ElseList, seen)
	case *parse.TemplateNode:
		if seen[n.Name] {
			return true // checked, or being checked higher up
		}
		seen[n.Name] = true
		t := c.t.Lookup(n.Name)
		return t != nil && t.Tree != nil && c.pureNode(t.Tree.Root, seen)
	}
	return false
}

// fastWriter receives what text/template writes on the fast path: the
// template's top-level text runs its ops; anything else is a value (or text
// that only prints as one) and goes into the open message's text as is.
// Writers are recycled (compiled.writers); out is never reused, since the
// messages' text is a substring of what it built.
type fastWriter struct {
	p  *program
	lo uintptr
	n  uintptr
	// out holds the text of all messages; a strings.Builder, so that its
	// memory is not cleared first.
	out    strings.Builder
	bounds []int // start and end of each message's text in out
}

func (w *fastWriter) Write(b []byte) (int, error) {
	if off := uintptr(unsafe.Pointer(unsafe.SliceData(b))) - w.lo; off < w.n {
		if k := w.p.segAt[off]; k != 0 {
			runOps(&w.out, w.bounds, w.p.ops[k-1])
			return len(b), nil
		}
	}
	w.out.Write(b)
	return len(b), nil
}

// runOps runs ops on out, recording where messages' text starts and ends.
func runOps(out *strings.Builder, bounds []int, ops []op) {
	for _, o := range ops {
		switch o.kind {
		case opOpen:
			bounds[2*o.msg] = out.Len()
		case opText:
			out.WriteString(o.text)
		case opClose:
			bounds[2*o.msg+1] = out.Len()
		}
	}
}

// ExecuteMessages renders the request straight to messages when the
// template has a program (see program); ok is false otherwise.
func (c *compiled) ExecuteMessages(ctx context.Context, r *driver.Request) ([]chat.Message, bool, error) {
	p := c.prog
	if p == nil {
		return nil, false, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, true, err
	}
	if p.direct {
		if msgs, ok := p.executeDirect(r.Vars); ok {
			return msgs, true, nil
		}
	}
	var data any = r.Vars
	if r.Vars == nil {
		data = map[string]any{}
	} else {
		data, _ = fillNil(r.Vars) // as Execute does
	}
	hint := int(c.valSize.Load())
	w, _ := c.writers.Get().(*fastWriter)
	if w == nil {
		w = &fastWriter{p: p, lo: c.lo, n: uintptr(len(c.arena)), bounds: make([]int, 2*len(p.msgs))}
	}
	defer c.writers.Put(w)
	w.out.Grow(p.static + hint)
	err := c.t.Execute(w, data)
	if err == nil {
		runOps(&w.out, w.bounds, p.tail)
	}
	out := w.out.String()
	w.out = strings.Builder{}
	if err != nil {
		return nil, true, c.execError(err)
	}
	// As Template.Messages does for the markup buffer: the hint follows the
	// renders, written only when it is off by much.
	if n := len(out) - p.static; n > hint || hint > 2*n+256 {
		c.valSize.Store(int64(min(n+n/8+64, 1<<20)))
	}
	return p.messages(out, w.bounds), true, nil
}

// executeDirect renders a template whose values are all fields of the data
// ({{.name}}) without text/template, when every one of them is a string,
// which text/template prints as it is; ok is false otherwise (a missing
// key, a nil, any other type), and text/template renders it.
func (p *program) executeDirect(vars map[string]any) (msgs []chat.Message, ok bool) {
	var vbuf [16]string
	vals := vbuf[:0]
	if len(p.keys) > len(vbuf) {
		vals = make([]string, 0, len(p.keys))
	}
	n := p.static
	for _, k := range p.keys {
		s, ok := vars[k].(string)
		if !ok {
			return nil, false
		}
		vals = append(vals, s)
		n += len(s)
	}
	var bbuf [16]int
	bounds := bbuf[:]
	if 2*len(p.msgs) > len(bbuf) {
		bounds = make([]int, 2*len(p.msgs))
	}
	var out strings.Builder
	out.Grow(n)
	for k, s := range vals {
		runOps(&out, bounds, p.ops[k])
		out.WriteString(s)
	}
	runOps(&out, bounds, p.ops[len(vals)])
	return p.messages(out.String(), bounds), true
}

// messages returns the render's messages: the program's fixed fields, and
// for each message its fixed text or its text in out, between bounds,
// trimmed as Parse trims it. Messages and parts are one allocation.
func (p *program) messages(out string, bounds []int) []chat.Message {
	n := len(p.msgs)
	blk := reflect.New(p.block).UnsafePointer()
	msgs := unsafe.Slice((*chat.Message)(blk), n)
	parts := unsafe.Slice((*chat.Part)(unsafe.Add(blk, p.partOff)), n)
	copy(msgs, p.msgs)
	for m := range msgs {
		text := p.fixed[m]
		if !p.isFixed[m] {
			s, e := bounds[2*m], bounds[2*m+1]
			if p.trim {
				for s < e && isSpace(out[s]) {
					s++
				}
				for e > s && isSpace(out[e-1]) {
					e--
				}
			}
			text = out[s:e]
		}
		if text != "" {
			parts[m] = chat.Part{Type: chat.PartText, Text: text}
			msgs[m].Content = parts[m : m+1 : m+1]
		}
	}
	return msgs
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
