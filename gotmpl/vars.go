package gotmpl

import (
	"errors"
	"regexp"
	"strings"
	"text/template/parse"
	"unicode/utf8"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/textpos"
)

// Vars lists the top-level variables the template reads: every field of
// dot written where dot is still the data ({{.name}}, not inside range or
// with), and every field of $ ({{$.name}}), by first use. Partials, which
// may be called with other data, are not walked.
func (c *compiled) Vars() []driver.Var {
	tt := c.t.Lookup(c.name)
	if tt == nil || tt.Tree == nil {
		return nil
	}
	w := &varWalker{tree: tt.Tree, src: c.src, cur: textpos.NewCursor(c.src), seen: map[string]bool{}}
	w.node(tt.Tree.Root, true)
	return w.out
}

type varWalker struct {
	tree *parse.Tree
	// src is the text the tree was parsed from: text/template counts
	// columns in bytes, rolemark in runes.
	src  string
	cur  *textpos.Cursor // places in src, counted on from the last
	seen map[string]bool
	out  []driver.Var
}

func (w *varWalker) add(name string, n parse.Node) {
	if w.seen[name] {
		return
	}
	w.seen[name] = true
	v := driver.Var{Name: name, Template: w.tree.ParseName}
	// ErrorContext counts the text from its start at each call: only for
	// a node that is not in src
	if p := int(n.Position()); p < len(w.src) {
		v.Line, v.Col = w.cur.LineCol(p)
	} else if loc, _ := w.tree.ErrorContext(n); loc != "" {
		v.Template, v.Line, v.Col = splitLoc(loc, v.Template)
	}
	w.out = append(w.out, v)
}

// node walks n; root says whether dot is the template's data there.
func (w *varWalker) node(n parse.Node, root bool) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n != nil {
			walkEach(w, n.Nodes, root)
		}
	case *parse.ActionNode:
		w.node(n.Pipe, root)
	case *parse.PipeNode:
		if n != nil {
			walkEach(w, n.Cmds, root)
		}
	case *parse.CommandNode:
		walkEach(w, n.Args, root)
	case *parse.FieldNode:
		if root && len(n.Ident) > 0 {
			w.add(n.Ident[0], n)
		}
	case *parse.VariableNode:
		if len(n.Ident) > 1 && n.Ident[0] == "$" {
			w.add(n.Ident[1], n)
		}
	case *parse.ChainNode:
		w.node(n.Node, root)
	case *parse.IfNode:
		w.branch(&n.BranchNode, root, root)
	case *parse.RangeNode:
		w.branch(&n.BranchNode, root, false)
	case *parse.WithNode:
		w.branch(&n.BranchNode, root, false)
	case *parse.TemplateNode:
		w.node(n.Pipe, root)
	}
}

// walkEach walks each of nodes.
func walkEach[N parse.Node](w *varWalker, nodes []N, root bool) {
	for _, n := range nodes {
		w.node(n, root)
	}
}

// branch walks an if, a range or a with: the pipeline and the else branch
// where the action stands, the body with dot as body says (range and with
// move dot off the data).
func (w *varWalker) branch(b *parse.BranchNode, root, body bool) {
	w.node(b.Pipe, root)
	w.node(b.List, body)
	w.node(b.ElseList, root)
}

var undefinedFuncRE = regexp.MustCompile(`^function "([^"]+)" not defined$`)

// withCol gives a compile error that text/template reports with a line
// only the column of its place: for function "f" not defined, the
// function's first call on that line of src, the source of the template
// named name; for others, placeParseError's place, found with parse.
func withCol(err error, name, src string, parse func(string) error) error {
	e, ok := err.(*driver.Error)
	if !ok || e.Col > 0 || e.Line < 1 || e.Template != name {
		return err
	}
	m := undefinedFuncRE.FindStringSubmatch(e.Err.Error())
	if m == nil {
		msg := e.Err.Error()
		if l, col, m, ok := placeParseError(msg, e.Line, src, parse); ok {
			e.Line, e.Col = l, col
			if m != msg {
				e.Err = errors.New(m)
			}
		}
		return err
	}
	lines := strings.Split(src, "\n")
	if e.Line > len(lines) {
		return err
	}
	line := lines[e.Line-1]
	re := regexp.MustCompile(`(?:\{\{-?\s*|[\s(|])(` + regexp.QuoteMeta(m[1]) + `)\b`)
	if loc := re.FindStringSubmatchIndex(line); loc != nil {
		e.Col = 1 + utf8.RuneCountInString(line[:loc[2]])
	}
	return err
}
