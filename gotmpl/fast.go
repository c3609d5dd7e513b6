package gotmpl

import (
	"context"
	"reflect"
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
	// prog is the markup around the top level's values and slots,
	// compiled by internal/fastpath.
	prog *fastpath.Program
	// segAt maps the arena offset of each top-level text node to the
	// program's step (index+1; 0 for other text, which prints as a value
	// does; prog.Values()+2 for a text node of a step run already).
	segAt []uint16
	// tail says whether the last step runs after the render, no text node
	// holding it (the end of the markup closes a message).
	tail bool
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
	texts := make([]string, len(segs))
	for k, sg := range segs {
		texts[k] = sg.text.String()
	}
	fp := fastpath.Compile(texts, opts)
	if fp == nil {
		return nil
	}
	p := &program{prog: fp}

	// Each segment's step run when its first text node is written; its other
	// text nodes do nothing. A segment without text has no step.
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
				p.segAt[off] = uint16(len(segs) + 1) // no step
			}
		}
		if first && !fp.Empty(k) {
			if k != len(segs)-1 {
				return nil
			}
			p.tail = true // the end of the markup closes a message
		}
	}
	if direct && len(keys) == len(segs)-1 {
		p.direct, p.keys = true, keys
	}
	n := fp.Len()
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
		return !strings.ContainsAny(string(n.Text), "<&") && !fastpath.Reserved(string(n.Text))
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
// template's top-level text runs its step of the program; anything else is
// a value (or text that only prints as one) and goes into the open
// message's text as is.
// Writers are recycled (compiled.writers); out is not, since the messages'
// text shares its memory (unless the request's Memory holds it).
type fastWriter struct {
	p      *program
	lo     uintptr
	n      uintptr
	out    []byte // the text of all messages
	bounds []int  // start and end of each message's text in out
}

func (w *fastWriter) Write(b []byte) (int, error) {
	if off := uintptr(unsafe.Pointer(unsafe.SliceData(b))) - w.lo; off < w.n {
		if k := int(w.p.segAt[off]); k != 0 {
			if k <= w.p.prog.Values()+1 {
				w.out = w.p.prog.Append(k-1, w.out, w.bounds)
			}
			return len(b), nil
		}
	}
	w.out = append(w.out, b...)
	return len(b), nil
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
		if msgs, ok := p.executeDirect(r.Vars, r.Memory); ok {
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
		w = &fastWriter{p: p, lo: c.lo, n: uintptr(len(c.arena)), bounds: make([]int, 2*p.prog.Len())}
	}
	defer c.writers.Put(w)
	w.out = fastpath.Text(r.Memory, p.prog.Static()+hint)
	err := c.t.Execute(w, data)
	if err == nil && p.tail {
		w.out = p.prog.Append(p.prog.Values(), w.out, w.bounds)
	}
	out := fastpath.Done(r.Memory, w.out)
	w.out = nil
	if err != nil {
		return nil, true, c.execError(err)
	}
	// As Template.Messages does for the markup buffer: the hint follows the
	// renders, written only when it is off by much.
	if n := len(out) - p.prog.Static(); n > hint || hint > 2*n+256 {
		c.valSize.Store(int64(min(n+n/8+64, 1<<20)))
	}
	return p.messages(out, w.bounds, r.Memory), true, nil
}

// executeDirect renders a template whose values are all fields of the data
// ({{.name}}) without text/template, when every one of them is a string,
// which text/template prints as it is; ok is false otherwise (a missing
// key, a nil, any other type), and text/template renders it.
func (p *program) executeDirect(vars map[string]any, mem *driver.Memory) (msgs []chat.Message, ok bool) {
	var vbuf [16]string
	vals := vbuf[:0]
	if len(p.keys) > len(vbuf) {
		vals = make([]string, 0, len(p.keys))
	}
	n := p.prog.Static()
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
	if 2*p.prog.Len() > len(bbuf) {
		bounds = make([]int, 2*p.prog.Len())
	}
	out := fastpath.Text(mem, n)
	for k, s := range vals {
		out = p.prog.Append(k, out, bounds)
		out = append(out, s...)
	}
	out = p.prog.Append(len(vals), out, bounds)
	return p.messages(fastpath.Done(mem, out), bounds, mem), true
}

// messages returns the render's messages (see fastpath.Program.Fill): in
// mem, when it is not nil, else the messages and their parts one
// allocation.
func (p *program) messages(out string, bounds []int, mem *driver.Memory) []chat.Message {
	if mem != nil {
		msgs, parts := p.prog.Blocks(mem)
		p.prog.Fill(out, bounds, msgs, parts)
		return msgs
	}
	n := p.prog.Len()
	blk := reflect.New(p.block).UnsafePointer()
	msgs := unsafe.Slice((*chat.Message)(blk), n)
	parts := unsafe.Slice((*chat.Part)(unsafe.Add(blk, p.partOff)), n)
	p.prog.Fill(out, bounds, msgs, parts)
	return msgs
}
