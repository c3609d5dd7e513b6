package gotmpl

import (
	"strings"
	"text/template/parse"

	"github.com/rolemark/rolemark/roleparse"
)

// expand rewrites an action that calls role, message or media, when the
// shape of its markup is known at compile time, into template text and
// plain actions that print each value: {{role "user" (attr "name" .n)}}
// becomes the text `<message role="user" name="`, the action {{.n}} and the
// text `">`. The values are then escaped by the writer like any other, and
// the render makes no function call for the markup. ok is false when the
// action has another shape; it is then left to the functions.
func expand(a *parse.ActionNode) (nodes []parse.Node, ok bool) {
	p := a.Pipe
	if len(p.Decl) > 0 || len(p.Cmds) != 1 {
		return nil, false
	}
	e := &emitter{proto: a}
	if !e.call(p.Cmds[0]) {
		return nil, false
	}
	e.flush()
	return e.out, true
}

// emitter collects the nodes of an expansion.
type emitter struct {
	proto *parse.ActionNode
	out   []parse.Node
	text  strings.Builder
	pos   parse.Pos
}

func (e *emitter) lit(s string) { e.text.WriteString(s) }

func (e *emitter) flush() {
	if e.text.Len() > 0 {
		e.out = append(e.out, &parse.TextNode{NodeType: parse.NodeText, Pos: e.pos, Text: []byte(e.text.String())})
		e.text.Reset()
	}
}

// action appends an action printing pipe.
func (e *emitter) action(pipe *parse.PipeNode) {
	e.flush()
	a := *e.proto
	a.Pos, a.Pipe = pipe.Pos, pipe
	e.pos = pipe.Pos
	e.out = append(e.out, &a)
}

// value appends n, escaped: a literal string now, anything else by an
// action whose output the writer escapes.
func (e *emitter) value(n parse.Node) {
	switch n := n.(type) {
	case *parse.StringNode:
		e.lit(roleparse.Escape(n.Text))
		return
	case *parse.PipeNode:
		e.action(n)
		return
	}
	pipe := *e.proto.Pipe
	cmd := *pipe.Cmds[0]
	cmd.Args = []parse.Node{n}
	pipe.Cmds = []*parse.CommandNode{&cmd}
	pipe.Pos = n.Position()
	e.action(&pipe)
}

// call expands one call of role, message or media.
func (e *emitter) call(c *parse.CommandNode) bool {
	id, ok := c.Args[0].(*parse.IdentifierNode)
	if !ok {
		return false
	}
	args := c.Args[1:]
	for _, a := range args {
		if _, isNil := a.(*parse.NilNode); isNil {
			return false
		}
	}
	switch id.Ident {
	case "role":
		if len(args) == 0 {
			return false
		}
		for _, a := range args[1:] {
			if attrCall(a) == nil {
				return false
			}
		}
		e.open(args[0], args[1:])
		return true
	case "message":
		if len(args) == 0 {
			return false
		}
		var attrs, content []parse.Node
		for _, a := range args[1:] {
			if attrCall(a) != nil {
				attrs = append(attrs, a)
			} else {
				content = append(content, a)
			}
		}
		for _, a := range content {
			if !e.contentOK(a) {
				return false
			}
		}
		e.open(args[0], attrs)
		for _, a := range content {
			e.content(a)
		}
		e.lit(string(roleparse.EndTag))
		return true
	case "media":
		if len(args) != 2 {
			return false
		}
		mt, ok := args[1].(*parse.StringNode)
		if !ok || mt.Text == "" {
			// Without a media type the kind of part (image, audio,
			// file) depends on the URL, known only at render time.
			return false
		}
		e.lit("<" + roleparse.MediaKind("", mt.Text) + ` url="`)
		e.value(args[0])
		e.lit(`"`)
		if mt.Text != "" {
			e.lit(` mimetype="` + roleparse.Escape(mt.Text) + `"`)
		}
		e.lit("/>")
		return true
	}
	return false
}

// open writes a message's start tag.
func (e *emitter) open(role parse.Node, attrs []parse.Node) {
	e.lit(`<message role="`)
	e.value(role)
	e.lit(`"`)
	for _, a := range attrs {
		c := attrCall(a)
		e.lit(" " + c.Args[1].(*parse.StringNode).Text + `="`)
		e.value(c.Args[2])
		e.lit(`"`)
	}
	e.lit(">")
}

// contentOK reports whether a message content argument can be expanded:
// a value, or a single call of media that expands. A pipeline that ends in
// another markup function or in attr keeps the function call, so that its
// result is treated as the function treats it.
func (e *emitter) contentOK(n parse.Node) bool {
	p, ok := n.(*parse.PipeNode)
	if !ok {
		return true
	}
	if len(p.Decl) > 0 {
		return false
	}
	last := p.Cmds[len(p.Cmds)-1]
	id, ok := last.Args[0].(*parse.IdentifierNode)
	if !ok || (!markupFuncs[id.Ident] && id.Ident != "attr") {
		return true
	}
	if len(p.Cmds) != 1 || id.Ident != "media" {
		return false
	}
	return (&emitter{proto: e.proto}).call(last)
}

// content writes one content argument of message: markup (media) expanded,
// anything else escaped.
func (e *emitter) content(n parse.Node) {
	if p, ok := n.(*parse.PipeNode); ok && len(p.Cmds) == 1 {
		if id, ok := p.Cmds[0].Args[0].(*parse.IdentifierNode); ok && markupFuncs[id.Ident] {
			e.call(p.Cmds[0])
			return
		}
	}
	e.value(n)
}

// attrCall returns the command of an (attr "name" X) or
// (attr "tool_call_id" X) argument, or nil.
func attrCall(n parse.Node) *parse.CommandNode {
	p, ok := n.(*parse.PipeNode)
	if !ok || len(p.Cmds) != 1 || len(p.Decl) > 0 {
		return nil
	}
	c := p.Cmds[0]
	if id, ok := c.Args[0].(*parse.IdentifierNode); !ok || id.Ident != "attr" || len(c.Args) != 3 {
		return nil
	}
	if key, ok := c.Args[1].(*parse.StringNode); !ok || (key.Text != "name" && key.Text != "tool_call_id") {
		return nil
	}
	return c
}
