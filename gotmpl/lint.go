package gotmpl

import (
	"fmt"
	"sort"
	"text/template/parse"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/textpos"
)

// arity is how many arguments a markup function takes: at least min, at
// most max (-1: no bound); variadic says how text/template words a count
// below min (its Go function is variadic).
type arity struct {
	min, max int
	variadic bool
}

// markupArity holds the arity of each markup function. A count above
// media's bound is media's own error, as a render reports it.
var markupArity = map[string]arity{
	"role":    {1, -1, true},
	"message": {1, -1, true},
	"media":   {1, 2, true},
	"history": {0, 0, false},
	"raw":     {1, 1, false},
	"attr":    {2, 2, false},
}

// Lint returns a problem for each call of a markup function in the
// template, its {{define}}s and its partials whose arguments do not fit
// (text/template counts them only when it runs the call, in a branch its
// data takes), at the function's name, in the words of the render's
// error; and for each string written after role's role, where role takes
// only (attr "name" VALUE).
func (c *compiled) Lint() []*driver.Error {
	var out []*driver.Error
	tts := c.t.Templates()
	sort.Slice(tts, func(i, j int) bool { return tts[i].Name() < tts[j].Name() })
	for _, tt := range tts {
		if tt.Tree == nil || tt.Tree.Root == nil {
			continue
		}
		l := &linter{c: c, tree: tt.Tree, exec: tt.Name(), out: &out}
		l.node(tt.Tree.Root, nil)
	}
	return out
}

type linter struct {
	c    *compiled
	tree *parse.Tree
	exec string // the name text/template's errors say it executes
	out  *[]*driver.Error
}

// failf reports a problem at the name id, said as text/template says it
// at the node at: `executing "t" at <at>: …`.
func (l *linter) failf(id *parse.IdentifierNode, at parse.Node, format string, args ...any) {
	err := fmt.Errorf("executing %q at <%s>: %s", l.exec, at, fmt.Sprintf(format, args...))
	e := &driver.Error{Template: l.tree.ParseName, Err: err}
	if p := int(id.Position()); l.tree.ParseName == l.c.name && p < len(l.c.src) {
		e.Line, e.Col = textpos.LineCol(l.c.src, p)
	} else if loc, _ := l.tree.ErrorContext(id); loc != "" {
		e.Template, e.Line, e.Col = splitLoc(loc, e.Template)
	}
	*l.out = append(*l.out, e)
}

// call checks a call of the function id with n arguments, in the command
// cmd; args are the arguments written after its name.
func (l *linter) call(id *parse.IdentifierNode, cmd *parse.CommandNode, n int, args []parse.Node) {
	a, ok := markupArity[id.Ident]
	if !ok {
		return
	}
	switch {
	case n < a.min && a.variadic:
		l.failf(id, id, "wrong number of args for %s: want at least %d got %d", id.Ident, a.min, n)
	case (n < a.min || a.max >= 0 && n > a.max) && !a.variadic:
		l.failf(id, id, "wrong number of args for %s: want %d got %d", id.Ident, a.min, n)
	case a.max >= 0 && n > a.max:
		l.failf(id, cmd, "error calling media: media takes a URL and at most one media type")
	case id.Ident == "role" && len(args) > 1:
		for _, x := range args[1:] {
			if s, ok := x.(*parse.StringNode); ok {
				l.failf(id, cmd, "error calling role: role takes attributes written (attr \"name\" VALUE) after the role; found the string %q", s.Text)
				return
			}
		}
	}
}

// node walks n, in the command cmd (nil outside one).
func (l *linter) node(n parse.Node, cmd *parse.CommandNode) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			for _, x := range n.Nodes {
				l.node(x, nil)
			}
		}
	case *parse.ActionNode:
		l.node(n.Pipe, nil)
	case *parse.PipeNode:
		if n == nil {
			return
		}
		for i, cmd := range n.Cmds {
			// a command after | takes the value before it as its last
			// argument
			if id, ok := cmd.Args[0].(*parse.IdentifierNode); ok {
				piped := 0
				if i > 0 {
					piped = 1
				}
				l.call(id, cmd, len(cmd.Args)-1+piped, cmd.Args[1:])
			} else {
				l.node(cmd.Args[0], cmd)
			}
			for _, x := range cmd.Args[1:] {
				l.node(x, cmd)
			}
		}
	case *parse.IdentifierNode:
		// a function named as an argument is called with none
		l.call(n, cmd, 0, nil)
	case *parse.ChainNode:
		l.node(n.Node, cmd)
	case *parse.IfNode:
		l.branch(&n.BranchNode)
	case *parse.RangeNode:
		l.branch(&n.BranchNode)
	case *parse.WithNode:
		l.branch(&n.BranchNode)
	case *parse.TemplateNode:
		l.node(n.Pipe, nil)
	}
}

func (l *linter) branch(b *parse.BranchNode) {
	l.node(b.Pipe, nil)
	l.node(b.List, nil)
	l.node(b.ElseList, nil)
}
