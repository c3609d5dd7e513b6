package gotmpl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/template"
	"text/template/parse"
	"unicode/utf8"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/roleparse"
)

// Engine is the text/template engine, a driver.Engine. Its zero value is
// ready to use.
type Engine struct {
	noExpand bool // tests: leave every markup function call as it is written
	noFast   bool // tests: render every template through markup and the parse
	funcs    template.FuncMap
	// trusted names the caller's functions whose result type is
	// roleparse.Markup: an action that ends in one prints it unescaped.
	trusted map[string]bool
}

var _ driver.Engine = (*Engine)(nil)

// Option configures the engine New returns.
type Option func(*Engine)

// Funcs adds functions that every template compiled by the engine can call,
// as text/template's Template.Funcs does: each value must be a function
// with one result, or two whose second is an error.
//
// A caller's function is trusted code: a function whose result type is
// roleparse.Markup (optionally with an error) writes markup, printed
// unescaped when it is the last command of an action ({{myfunc .}}), as in
// the other engines; any other result is escaped like any value, and so is
// a roleparse.Markup value in the data. A name that rolemark or
// text/template already defines (role, message, media, history, raw, attr,
// json, and, call, html, index, js, len, not, or, print, printf, println,
// slice, eq, ne, lt, le, gt, ge, urlquery) is an error when a template is
// compiled, as in the other engines.
func Funcs(funcs map[string]any) Option {
	return func(e *Engine) {
		if e.funcs == nil {
			e.funcs = template.FuncMap{}
		}
		for name, fn := range funcs {
			// fmt prints a result that holds itself without end
			e.funcs[name] = driver.DepthChecked(fn)
			delete(e.trusted, name)
			if v := reflect.ValueOf(fn); v.Kind() == reflect.Func && v.Type().NumOut() > 0 && v.Type().Out(0) == markupType {
				if e.trusted == nil {
					e.trusted = map[string]bool{}
				}
				e.trusted[name] = true
			}
		}
	}
}

// New returns the text/template engine.
func New(opts ...Option) *Engine {
	e := &Engine{}
	for _, o := range opts {
		o(e)
	}
	return e
}

// builtins are text/template's own functions.
var builtins = []string{"and", "call", "html", "index", "js", "len", "not", "or", "print", "printf", "println",
	"slice", "eq", "ne", "lt", "le", "gt", "ge", "urlquery"}

var (
	errorType  = reflect.TypeOf((*error)(nil)).Elem()
	markupType = reflect.TypeOf(roleparse.Markup(""))
)

// checkFuncs refuses a caller's function that would replace one of
// rolemark's or text/template's, or that text/template cannot call.
func (e *Engine) checkFuncs() error {
	names := slices.Sorted(maps.Keys(e.funcs))
	own := funcs()
	for _, n := range names {
		if slices.Contains(builtins, n) {
			return fmt.Errorf("Funcs: %q is one of text/template's functions", n)
		}
		if _, ok := own[n]; ok {
			return fmt.Errorf("Funcs: %q is one of rolemark's functions", n)
		}
		v := reflect.ValueOf(e.funcs[n])
		if v.Kind() != reflect.Func || v.IsNil() {
			return fmt.Errorf("Funcs: %q is not a function", n)
		}
		if t := v.Type(); t.NumOut() != 1 && (t.NumOut() != 2 || t.Out(1) != errorType) {
			return fmt.Errorf("Funcs: %q must return one value, or a value and an error", n)
		}
	}
	return nil
}

// Name returns "gotmpl".
func (*Engine) Name() string { return "gotmpl" }

// Extensions returns .tmpl and .gotmpl.
func (*Engine) Extensions() []string { return []string{".tmpl", ".gotmpl"} }

// valueName is the function appended to every printing action that does
// not end in a markup function in the AllowMissing mode: it prints what the
// action's value prints in the other engines (nothing for a missing key).
const valueName = "_rolemark_value"

// checkName is the function appended to every printing action that does
// not end in a markup function, in the copy of a template that a render
// whose data holds other values than strings, numbers, bools, maps and
// lists takes (compiled.checked): it refuses what fmt would print as an
// address or as a method's panic (driver.CheckPrint).
const checkName = "_rolemark_check"

// checkValue is checkName's function.
func checkValue(v any) (any, error) {
	if err := driver.CheckPrint(v); err != nil {
		return nil, err
	}
	return v, nil
}

// checkedFormat returns format (fmt.Sprint, fmt.Sprintln) as a function
// that refuses an argument driver.CheckPrint refuses.
func checkedFormat(format func(...any) string) func(...any) (string, error) {
	return func(args ...any) (string, error) {
		if err := checkArgs(args); err != nil {
			return "", err
		}
		return format(args...), nil
	}
}

func checkArgs(args []any) error {
	for _, a := range args {
		if err := driver.CheckPrint(a); err != nil {
			return err
		}
	}
	return nil
}

// formatValue is roleparse.FormatValue of a value that driver.CheckPrint
// lets print.
func formatValue(v any) (string, error) {
	if err := driver.CheckPrint(v); err != nil {
		return "", err
	}
	return roleparse.FormatValue(v), nil
}

// markup is the result of a markup function (role, message, media,
// history, raw): markup the template wrote, printed unescaped. A
// roleparse.Markup value in the data is not markup: it is escaped.
type markup string

// attrArg is an attribute passed to role or message.
type attrArg struct{ key, val string }

func funcs() template.FuncMap {
	return template.FuncMap{
		valueName: formatValue,
		checkName: checkValue,
		// text/template's own, whose panic names no function
		"call": callFunc,
		// text/template's own, which format with fmt: each argument is
		// checked first, as a printed value is
		"print":   checkedFormat(fmt.Sprint),
		"println": checkedFormat(fmt.Sprintln),
		"printf": func(format string, args ...any) (string, error) {
			if err := checkArgs(args); err != nil {
				return "", err
			}
			return fmt.Sprintf(format, args...), nil
		},
		"raw": func(v any) (markup, error) {
			s, err := formatValue(v)
			return markup(s), err
		},
		"attr": func(key string, val any) (attrArg, error) {
			switch key {
			case "name", "tool_call_id":
				return attrArg{key, roleparse.FormatValue(val)}, nil
			}
			return attrArg{}, fmt.Errorf("attr %q: a message takes name or tool_call_id", key)
		},
		"role": func(role any, args ...any) (markup, error) {
			attrs := make([]roleparse.Attr, len(args))
			for i, a := range args {
				at, ok := a.(attrArg)
				if !ok {
					return "", fmt.Errorf("role takes attributes written (attr \"name\" VALUE) after the role; found %s", describeArg(a))
				}
				attrs[i] = roleparse.Attr{Key: at.key, Value: at.val}
			}
			return markup(roleparse.MessageTag(roleparse.FormatValue(role), attrs...)), nil
		},
		"message": message,
		"history": func() markup { return driver.HistoryMarker },
		"json":    jsonFunc,
		// The functions take any value and print it as an action would,
		// so that a call and its compile-time expansion accept the same.
		"media": func(url any, mediaType ...any) (markup, error) {
			if len(mediaType) > 1 {
				return "", errors.New("media takes a URL and at most one media type")
			}
			mt := ""
			if len(mediaType) == 1 {
				mt = roleparse.FormatValue(mediaType[0])
			}
			return markup(roleparse.MediaTag(roleparse.FormatValue(url), mt)), nil
		},
	}
}

// describeArg names a value given where an attribute was expected.
func describeArg(a any) string {
	if s, ok := a.(string); ok {
		return fmt.Sprintf("the string %q", s)
	}
	return fmt.Sprintf("a value of type %T", a)
}

// message writes a whole message: values are escaped unless they are the
// result of a markup function (media, raw), attr values become attributes.
func message(role any, args ...any) (markup, error) {
	var attrs []roleparse.Attr
	var body strings.Builder
	for _, a := range args {
		if at, ok := a.(attrArg); ok {
			attrs = append(attrs, roleparse.Attr{Key: at.key, Value: at.val})
			continue
		}
		if m, ok := a.(markup); ok {
			body.WriteString(string(m))
			continue
		}
		if err := driver.CheckPrint(a); err != nil {
			return "", err
		}
		body.WriteString(roleparse.EscapeValue(a))
	}
	return markup(string(roleparse.MessageTag(roleparse.FormatValue(role), attrs...)) + body.String() + string(roleparse.EndTag)), nil
}

// jsonFunc is {{json .v}}: the value as JSON text, indented by the number
// of spaces given as a second argument. Like any value it is escaped, so it
// cannot leave the <tool_call> or message it is written in.
func jsonFunc(v any, indent ...int) (string, error) {
	if len(indent) > 1 {
		return "", errors.New("json takes a value and at most one indent width")
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if len(indent) == 1 && indent[0] > 0 {
		enc.SetIndent("", strings.Repeat(" ", indent[0]))
	}
	if err := enc.Encode(v); err != nil {
		return "", err // encoding/json's error says "json: " itself
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

// Compile parses src, resolves partials from cfg.FS, and prepares every
// printing action for escWriter, which escapes its output.
func (e *Engine) Compile(name, src string, cfg driver.Config) (driver.Compiled, error) {
	c, err := e.build(name, src, cfg, nil)
	if err != nil {
		return nil, err
	}
	if !e.noFast {
		c.prog = c.buildProgram(cfg.Parse)
	}
	c.engine, c.cfg = e, cfg
	return c, nil
}

// build compiles src as Compile does, without the skeleton path. With a
// from, it builds from's checking copy (compiled.checked): every printing
// action gets checkName, and the partials are from's sources, not read
// again from cfg.FS, whose files may have changed since from was built.
func (e *Engine) build(name, src string, cfg driver.Config, from *compiled) (*compiled, error) {
	if err := e.checkFuncs(); err != nil {
		return nil, &driver.Error{Template: name, Err: err}
	}
	t := template.New(name).Funcs(funcs())
	if len(e.funcs) > 0 {
		t.Funcs(e.funcs)
	}
	if cfg.AllowMissing {
		t.Option("missingkey=default")
	} else {
		t.Option("missingkey=error")
	}
	if _, err := t.Parse(src); err != nil {
		return nil, withCol(compileError(name, err), name, src, e.probe(name))
	}
	read := cfg.ReadPartial
	if from != nil {
		read = from.readPartial
	}
	files, err := loadPartials(t, src, read, driver.PartialExts(name, e.Extensions()), e.probe)
	if err != nil {
		return nil, err
	}
	c := &compiled{t: t, name: name, src: src, allowMissing: cfg.AllowMissing, expand: !e.noExpand, trusted: e.trusted, files: files,
		check: from != nil, funcs: len(e.funcs) > 0}
	var texts []*parse.TextNode
	for _, tt := range t.Templates() {
		if tt.Tree != nil && tt.Tree.Root != nil {
			c.rewrite(tt.Tree, tt.Tree.Root, &texts)
		}
	}
	c.carve(texts)
	return c, nil
}

// checked returns the copy of c whose printing actions check what they
// print (checkName), built at its first use: a render takes it when its
// data holds a value other than a string, number, bool, nil, map[string]any
// or []any (which print as their contents), or when the engine has a
// caller's functions, whose results may be anything. Renders of plain data
// pay nothing for the check; the AllowMissing mode checks in valueName.
func (c *compiled) checked() (*compiled, error) {
	c.checkOnce.Do(func() {
		c.checkedC, c.checkErr = c.engine.build(c.name, c.src, c.cfg, c)
	})
	return c.checkedC, c.checkErr
}

// readPartial is driver.Config.ReadPartial of the partials c was built
// with: the file and source each name was read as.
func (c *compiled) readPartial(name string, _ ...string) (string, []byte, error) {
	f, ok := c.files[name]
	if !ok {
		return "", nil, fmt.Errorf("partial %q: not read when the template was compiled", name)
	}
	return f.file, []byte(f.src), nil
}

// probe returns a function that parses a text as a template named name
// is parsed, with the engine's functions, and returns its error: for
// finding where a parse error is (withCol).
func (e *Engine) probe(name string) func(string) error {
	return func(s string) error {
		_, err := template.New(name).Funcs(funcs()).Funcs(e.funcs).Parse(s)
		return err
	}
}

// loadPartials parses every template that is invoked but not defined,
// until none is missing. A partial is read with read (a
// driver.Config.ReadPartial), trying exts (driver.PartialExts) for a NAME
// without an extension, each as a partial file (_NAME…) first. files maps
// the name each partial was parsed under (text/template's errors name it)
// to its file and source.
func loadPartials(t *template.Template, mainSrc string, read func(string, ...string) (string, []byte, error), exts []string, probe func(string) func(string) error) (files map[string]partialFile, err error) {
	for {
		var missing *parse.TemplateNode
		var in *template.Template
		for _, tt := range t.Templates() {
			if tt.Tree == nil {
				continue
			}
			walkTemplates(tt.Tree.Root, func(n *parse.TemplateNode) bool {
				if t.Lookup(n.Name) == nil || t.Lookup(n.Name).Tree == nil {
					missing, in = n, tt
					return false
				}
				return true
			})
			if missing != nil {
				break
			}
		}
		if missing == nil {
			return files, nil
		}
		file, src, err := read(missing.Name, exts...)
		if err != nil {
			name, line, col := in.Name(), 0, 0
			if loc, _ := in.Tree.ErrorContext(missing); loc != "" {
				name, line, col = splitLoc(loc, name)
			}
			if f, ok := files[name]; ok {
				name, col = f.file, runeCol(f.src, line, col)
			} else {
				col = runeCol(mainSrc, line, col)
			}
			return nil, &driver.Error{Template: name, Line: line, Col: col, Err: err}
		}
		if _, err := t.New(missing.Name).Parse(string(src)); err != nil {
			e := withCol(compileError(file, err), missing.Name, string(src), probe(missing.Name)).(*driver.Error)
			if e.Template == missing.Name {
				e.Template = file
			}
			return nil, e
		}
		if files == nil {
			files = map[string]partialFile{}
		}
		files[missing.Name] = partialFile{file: file, src: string(src)}
	}
}

// partialFile is a partial's file and source.
type partialFile struct{ file, src string }

// runeCol turns text/template's column, a byte count from the start of
// the line (1-based here), into a count of runes, as every position of
// rolemark's errors is; 0 (no column) stays 0.
func runeCol(src string, line, col int) int {
	if col < 1 || line < 1 {
		return col
	}
	start := 0
	for range line - 1 {
		i := strings.IndexByte(src[start:], '\n')
		if i < 0 {
			return col
		}
		start += i + 1
	}
	end := min(start+col-1, len(src))
	return 1 + utf8.RuneCountInString(src[start:end])
}

// splitLoc splits text/template's "NAME:LINE:COL" (COL from 0) into the
// template's name and a 1-based line and column; name is the fallback.
func splitLoc(loc, name string) (string, int, int) {
	m := locRE.FindStringSubmatch(loc)
	if m == nil {
		return name, 0, 0
	}
	line, _ := strconv.Atoi(m[2])
	col, _ := strconv.Atoi(m[3])
	return m[1], line, col + 1
}

var locRE = regexp.MustCompile(`^(.*):(\d+):(\d+)$`)

// walkTemplates calls f for each {{template}} node under n until f returns false.
func walkTemplates(n parse.Node, f func(*parse.TemplateNode) bool) bool {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return true
		}
		for _, c := range n.Nodes {
			if !walkTemplates(c, f) {
				return false
			}
		}
	case *parse.TemplateNode:
		return f(n)
	case *parse.IfNode:
		return walkTemplates(n.List, f) && walkTemplates(n.ElseList, f)
	case *parse.RangeNode:
		return walkTemplates(n.List, f) && walkTemplates(n.ElseList, f)
	case *parse.WithNode:
		return walkTemplates(n.List, f) && walkTemplates(n.ElseList, f)
	}
	return true
}

// markupFuncs are the functions whose result is markup, printed unescaped
// when the function is the last command of an action.
var markupFuncs = map[string]bool{"role": true, "message": true, "media": true, "history": true, "raw": true}

// compiled is a compiled template. It renders in one of two ways: Execute
// runs text/template into escWriter, which escapes every byte an action
// prints unless a sentinel (an empty text node of the template's text
// arena) precedes the action, which the compiler places before actions that
// end in a markup function; or, for a template of text and fields with
// string values, ExecuteMessages fills its roleparse.Skeleton (fast.go).
// Template text is carved into one arena, so the writer recognises it (and
// the sentinels) as slices of the arena and writes it as is. In the
// AllowMissing mode, where a missing key must print as empty, a function
// appended to every printing action that does not end in a markup function
// formats its value as the other engines do, before escWriter escapes it.
type compiled struct {
	t            *template.Template
	name         string
	src          string // the template's text, for positions in runes
	allowMissing bool
	expand       bool // expand markup function calls at compile time
	// trusted names the caller's functions that return roleparse.Markup.
	trusted map[string]bool
	// files maps a partial's template name to its file (loadPartials).
	files map[string]partialFile
	// last is the arena's last byte: every slice of template text and
	// every sentinel extends, in capacity, to it.
	last *byte
	// prog renders straight to messages (fast.go), when the template's
	// shape allows.
	prog *driver.VarSkeleton
	// check: the printing actions check what they print (checked).
	check bool
	// funcs: the engine has a caller's functions.
	funcs bool

	engine    *Engine
	cfg       driver.Config
	checkOnce sync.Once
	checkedC  *compiled
	checkErr  error
}

// rewrite prepares the actions under n and collects the text nodes.
func (c *compiled) rewrite(tree *parse.Tree, n parse.Node, texts *[]*parse.TextNode) {
	switch n := n.(type) {
	case *parse.ListNode:
		if n == nil {
			return
		}
		out := make([]parse.Node, 0, len(n.Nodes))
		for _, child := range n.Nodes {
			if a, ok := child.(*parse.ActionNode); ok && c.expand {
				if nodes, ok := expand(a); ok {
					for _, x := range nodes {
						out = append(out, x)
						c.rewrite(tree, x, texts)
					}
					continue
				}
			}
			if a, ok := child.(*parse.ActionNode); ok && c.markupAction(a) {
				sentinel := &parse.TextNode{NodeType: parse.NodeText, Pos: a.Pos}
				*texts = append(*texts, sentinel)
				out = append(out, sentinel)
			}
			out = append(out, child)
			c.rewrite(tree, child, texts)
		}
		n.Nodes = out
	case *parse.TextNode:
		*texts = append(*texts, n)
	case *parse.ActionNode:
		p := n.Pipe
		if !c.allowMissing && !c.check || len(p.Decl) > 0 || len(p.Cmds) == 0 || c.markupAction(n) {
			return
		}
		valueName := valueName
		if !c.allowMissing {
			valueName = checkName
		}
		last := p.Cmds[len(p.Cmds)-1]
		if len(last.Args) == 1 {
			if id, ok := last.Args[0].(*parse.IdentifierNode); ok && id.Ident == valueName {
				return
			}
		}
		p.Cmds = append(p.Cmds, &parse.CommandNode{NodeType: parse.NodeCommand, Pos: p.Position(),
			Args: []parse.Node{parse.NewIdentifier(valueName).SetTree(tree).SetPos(p.Position())}})
	case *parse.IfNode:
		c.rewrite(tree, n.List, texts)
		c.rewrite(tree, n.ElseList, texts)
	case *parse.RangeNode:
		c.rewrite(tree, n.List, texts)
		c.rewrite(tree, n.ElseList, texts)
		tick(n)
	case *parse.WithNode:
		c.rewrite(tree, n.List, texts)
		c.rewrite(tree, n.ElseList, texts)
	}
}

// tick makes every iteration of a range write, so that a render whose
// context is done stops in a loop that prints nothing ({{range $i :=
// 100000000}}{{end}}): text/template cannot be interrupted, and escWriter
// sees the context only when something is written. An iteration whose
// first node is text (a sentinel too) or a printing action writes already;
// another gets an empty text node first, which writes nothing (its Text is
// nil: not in the arena, so it is no sentinel) and costs a call of Write.
func tick(n *parse.RangeNode) {
	if n.List == nil {
		return
	}
	if len(n.List.Nodes) > 0 {
		switch first := n.List.Nodes[0].(type) {
		case *parse.TextNode:
			return
		case *parse.ActionNode:
			if len(first.Pipe.Decl) == 0 {
				return
			}
		}
	}
	n.List.Nodes = slices.Insert(n.List.Nodes, 0, parse.Node(&parse.TextNode{NodeType: parse.NodeText, Pos: n.List.Pos}))
}

// markupAction reports whether an action prints the result of a markup
// function: its last command calls role, message, media, history or raw,
// or a caller's function that returns roleparse.Markup.
func (c *compiled) markupAction(a *parse.ActionNode) bool {
	p := a.Pipe
	if len(p.Decl) > 0 || len(p.Cmds) == 0 {
		return false
	}
	last := p.Cmds[len(p.Cmds)-1]
	id, ok := last.Args[0].(*parse.IdentifierNode)
	return ok && (markupFuncs[id.Ident] || c.trusted[id.Ident])
}

// carve copies all template text into one arena, each text node's a
// slice of it whose capacity runs to the arena's last byte, which no other
// slice's does: that is how escWriter knows template text. Sentinels (text
// nodes with nil text) become empty slices of the arena; empty template
// text is set to nil (no capacity) so that it cannot pass for a sentinel.
func (c *compiled) carve(texts []*parse.TextNode) {
	size := 1 // a byte for the sentinels' capacity when there is no text
	for _, t := range texts {
		size += len(t.Text)
	}
	arena := make([]byte, 1, size)
	for _, t := range texts {
		switch {
		case t.Text == nil:
			t.Text = arena[0:0]
		case len(t.Text) == 0:
			t.Text = nil
		default:
			start := len(arena)
			arena = append(arena, t.Text...) // within size: never moved
			t.Text = arena[start:]
		}
	}
	c.last = &arena[:size][size-1]
}

// escWriter escapes everything written to it except template text and the
// output of an action preceded by a sentinel. It is also where a render
// whose context is done stops: text/template cannot be interrupted, but it
// ends an execution at the first write that fails, and returns that error.
type escWriter struct {
	out       *bytes.Buffer
	last      *byte // the text arena's last byte
	trustNext bool
	done      <-chan struct{} // the render's context's Done (nil: never)
	ctx       context.Context
}

func (w *escWriter) Write(p []byte) (int, error) {
	if w.done != nil {
		select {
		case <-w.done:
			return 0, w.ctx.Err()
		default:
		}
	}
	if n := cap(p); n > 0 && &p[:n][n-1] == w.last {
		// Template text, or a sentinel: a slice of the arena.
		if len(p) == 0 {
			w.trustNext = true
			return 0, nil
		}
		return w.out.Write(p)
	}
	if w.trustNext {
		w.trustNext = false
		return w.out.Write(p)
	}
	w.out.Write(roleparse.AppendEscapeBytes(w.out.AvailableBuffer(), p))
	return len(p), nil
}

func (c *compiled) Execute(ctx context.Context, w io.Writer, r *driver.Request) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var data any = r.Vars
	other := c.funcs
	if r.Vars == nil {
		data = map[string]any{}
	} else {
		var deep bool
		if data, _, deep = fillNil(r.Vars, "", 0, &other); deep {
			for k, v := range r.Vars {
				if err := driver.CheckDepth(k, v); err != nil {
					return driver.DepthErrorAt(c.name, err.(*driver.DepthError), c.Vars())
				}
			}
		}
	}
	out, direct := w.(*bytes.Buffer)
	if !direct {
		out = new(bytes.Buffer)
	}
	cc := c
	if other && !c.allowMissing {
		var err error
		if cc, err = c.checked(); err != nil {
			return err
		}
	}
	if err := cc.t.Execute(&escWriter{out: out, last: cc.last, done: ctx.Done(), ctx: ctx}, data); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return err
		}
		return c.execError(err, r.Vars)
	}
	if !direct {
		_, err := w.Write(out.Bytes())
		return err
	}
	return nil
}

// text/template reports positions as "template: NAME:LINE:COL: ..." or
// "template: NAME:LINE: ...".
var posRE = regexp.MustCompile(`^template: (.*?):(\d+)(?::(\d+))?: (.*)$`)
var missingRE = regexp.MustCompile(`map has no entry for key "([^"]*)"`)

func splitPos(err error) (name string, line, col int, msg string) {
	s := err.Error()
	m := posRE.FindStringSubmatch(s)
	if m == nil {
		return "", 0, 0, s
	}
	line, _ = strconv.Atoi(m[2])
	if m[3] != "" {
		col, _ = strconv.Atoi(m[3])
		col++ // text/template counts columns from 0
	}
	return m[1], line, col, m[4]
}

func compileError(name string, err error) error {
	tname, line, col, msg := splitPos(err)
	if tname != "" {
		name = tname
	}
	return &driver.Error{Template: name, Line: line, Col: col, Err: errors.New(msg)}
}

func (c *compiled) execError(err error, vars map[string]any) error {
	name, line, col, msg := splitPos(err)
	var ce *callArgError
	if errors.As(err, &ce) {
		msg = c.nameCallee(msg, name, line, col, ce.fnText)
	}
	src := c.src
	if name == "" {
		name = c.name
	} else if f, ok := c.files[name]; ok {
		name, src = f.file, f.src
	}
	col = runeCol(src, line, col)
	// a nil of the data is a nothing to text/template, which names its
	// type in a message ("incompatible types for comparison:
	// gotmpl.nothing and string"); to the template's author it is nil
	msg = strings.ReplaceAll(msg, "gotmpl.nothing", "nil")
	var cause error = &execCause{msg: msg, err: err}
	var ue *driver.UnprintableError
	var pe *driver.PanicError
	var cp *callPanic
	if m := missingRE.FindStringSubmatch(msg); m != nil {
		cause = &driver.MissingError{Name: m[1]}
	} else if errors.As(err, &ue) {
		cause = ue
	} else if errors.As(err, &pe) {
		cause = pe
	} else if errors.As(err, &cp) {
		fn := driver.FuncNamed(vars, cp.fn)
		if fn == "" {
			fn = "call's function"
		}
		cause = driver.CallPanic(fn, cp.value)
	}
	return &driver.Error{Template: name, Line: line, Col: col, Err: cause}
}

// execCause is text/template's message of an execution error without its
// position, which driver.Error gives; it unwraps to text/template's error,
// so that errors.As finds the error of a function that failed
// (a *driver.DepthError, a caller's own).
type execCause struct {
	msg string
	err error
}

func (e *execCause) Error() string { return e.msg }
func (e *execCause) Unwrap() error { return e.err }

// nothing is what a nil in the data becomes, because text/template prints
// nil as "<no value>" where the other engines print nothing. It prints as
// empty, is false for if and with, ranges over nothing and marshals to
// JSON null.
type nothing []struct{}

func (nothing) String() string { return "" }

// fillNil returns v with every nil in its map[string]any and []any values,
// at any depth, replaced by nothing(nil), copying only what changes, and
// reports whether anything did. It sets *other when v holds a value other
// than a string, bool, int, int64, float64, nil, map[string]any or []any,
// and wraps a function in a map[string]any with driver.Recovering under
// its key, and one in a []any under name, the list's own key, and its
// index (fs[0]). deep reports maps and lists nested deeper
// than driver.MaxDepth below v (at depth), where the walk stops: a value
// that holds itself would make it recurse without end.
func fillNil(v any, name string, depth int, other *bool) (out any, changed, deep bool) {
	switch v := v.(type) {
	case nil:
		return nothing(nil), true, false
	case map[string]any:
		if depth > driver.MaxDepth {
			return v, false, true
		}
		var out map[string]any
		for k, x := range v {
			y, changed, deep := fillNil(x, k, depth+1, other)
			if deep {
				return v, false, true
			}
			if *other && !changed && reflect.ValueOf(x).Kind() == reflect.Func {
				// text/template's call makes a panic an error that
				// names no function: this one names itself
				y, changed = driver.Recovering(k, x), true
			}
			if changed {
				if out == nil {
					out = maps.Clone(v)
				}
				out[k] = y
			}
		}
		if out != nil {
			return out, true, false
		}
	case []any:
		if depth > driver.MaxDepth {
			return v, false, true
		}
		var out []any
		for i, x := range v {
			y, changed, deep := fillNil(x, name, depth+1, other)
			if deep {
				return v, false, true
			}
			if *other && !changed && reflect.ValueOf(x).Kind() == reflect.Func {
				y, changed = driver.Recovering(name+"["+strconv.Itoa(i)+"]", x), true
			}
			if changed {
				if out == nil {
					out = slices.Clone(v)
				}
				out[i] = y
			}
		}
		if out != nil {
			return out, true, false
		}
	case string, bool, int, int64, float64:
	default:
		*other = true
		// a caller's own map or slice type, a struct: fmt prints them
		// whole, and one that holds itself without end
		if driver.TooDeep(v, depth) {
			return v, false, true
		}
		if s, ok := recoveringFuncs(v); ok {
			return s, true, false
		}
	}
	return v, false, false
}

// recoveringFuncs returns a copy of v, a struct (not a pointer to one) or
// a caller's map type of functions by string keys, whose exported fields
// or values that hold a function (not nil) hold it wrapped by
// driver.Recovering under the field's name or the key, so that its panic
// in {{call .s.F}} names it; false when v is no such value. A copy is what
// the template saw anyway: a struct in an interface is not addressable,
// so only its value's methods are there, and they see the same fields. A
// pointer's struct is left alone (its methods would see the copy).
func recoveringFuncs(v any) (any, bool) {
	rv := reflect.ValueOf(v)
	t := rv.Type()
	if rv.Kind() == reflect.Map && t.Key().Kind() == reflect.String && t.Elem().Kind() == reflect.Func && rv.Len() > 0 {
		cp := reflect.MakeMapWithSize(t, rv.Len())
		for it := rv.MapRange(); it.Next(); {
			f := it.Value()
			if !f.IsNil() {
				f = reflect.ValueOf(driver.Recovering(it.Key().String(), f.Interface()))
			}
			cp.SetMapIndex(it.Key(), f)
		}
		return cp.Interface(), true
	}
	if rv.Kind() != reflect.Struct {
		return nil, false
	}
	var cp reflect.Value
	for i := range t.NumField() {
		f := rv.Field(i)
		// the field's kind first: t.Field copies a StructField
		if f.Kind() != reflect.Func || f.IsNil() || !t.Field(i).IsExported() {
			continue
		}
		if !cp.IsValid() {
			cp = reflect.New(t).Elem()
			cp.Set(rv)
		}
		cp.Field(i).Set(reflect.ValueOf(driver.Recovering(t.Field(i).Name, f.Interface())))
	}
	if !cp.IsValid() {
		return nil, false
	}
	return cp.Interface(), true
}
