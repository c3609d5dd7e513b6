package handlebars

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/aymerick/raymond"
	"github.com/aymerick/raymond/ast"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/textpos"
)

// Option configures the engine New returns.
type Option func(*Engine)

// Funcs adds helpers that every template compiled by the engine can call,
// registered on each template (never globally in raymond). Each value must
// be a function with one result, as raymond requires; it may take a last
// *raymond.Options argument for its hash, block and data.
//
// A caller's helpers are trusted code and follow raymond's rules: a string
// result of {{h}} is escaped, a raymond.SafeString or roleparse.Markup result
// is inserted as it is, and the result of a block helper {{#h}}…{{/h}} is
// never escaped (it is normally the block's own rendered markup). A name
// that rolemark or raymond already defines (role, message, system, user,
// assistant, history, media, if, unless, with, each, equal, lookup, log) is
// an error when a template is compiled.
func Funcs(funcs map[string]any) Option {
	return func(e *Engine) {
		for name, fn := range funcs {
			e.funcs[name] = fn
		}
	}
}

// Engine is the Handlebars engine, a driver.Engine. Make one with New.
type Engine struct {
	funcs map[string]any
}

var _ driver.Engine = (*Engine)(nil)

// New returns the Handlebars engine, named "handlebars", for files ending in
// .hbs, .handlebars and .prompt (Dotprompt).
func New(opts ...Option) *Engine {
	e := &Engine{funcs: map[string]any{}}
	for _, o := range opts {
		o(e)
	}
	return e
}

// Name returns "handlebars".
func (*Engine) Name() string { return "handlebars" }

// Extensions returns .hbs, .handlebars and .prompt.
func (*Engine) Extensions() []string { return []string{".hbs", ".handlebars", ".prompt"} }

// helpers returns rolemark's helpers, registered on every template.
func helpers() map[string]any {
	return map[string]any{
		"role":      roleHelper,
		"message":   messageHelper,
		"system":    roleBlock("system"),
		"user":      roleBlock("user"),
		"assistant": roleBlock("assistant"),
		"history":   historyHelper,
		"media":     mediaHelper,
		printHelper: printValue,
		// Dotprompt's helpers.
		"json":         jsonHelper,
		"ifEquals":     ifEquals,
		"unlessEquals": unlessEquals,
	}
}

func (e *Engine) checkFuncs() error {
	names := make([]string, 0, len(e.funcs))
	for n := range e.funcs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if _, ok := helpers()[n]; ok {
			return fmt.Errorf("Funcs: %q is one of rolemark's helpers", n)
		}
		if _, ok := builtinArity[n]; ok {
			return fmt.Errorf("Funcs: %q is one of the built-in helpers", n)
		}
		v := reflect.ValueOf(e.funcs[n])
		if v.Kind() != reflect.Func || v.IsNil() {
			return fmt.Errorf("Funcs: %q is not a function", n)
		}
		if v.Type().NumOut() != 1 {
			return fmt.Errorf("Funcs: %q must return exactly one value", n)
		}
	}
	return nil
}

// Compile parses src, checks it and loads its partials from cfg.FS.
func (e *Engine) Compile(name, src string, cfg driver.Config) (out driver.Compiled, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, &driver.Error{Template: name, Err: &driver.PanicError{Value: r}}
		}
	}()
	if err := e.checkFuncs(); err != nil {
		return nil, &driver.Error{Template: name, Err: err}
	}
	c := &compiler{eng: e, cfg: cfg, name: name, units: map[string]*unit{}}
	return c.compile(src)
}

type compiler struct {
	eng   *Engine
	cfg   driver.Config
	name  string
	units map[string]*unit // partials by name
	order []*unit          // partials in the order they were loaded
	stack []string         // partials being walked
	vars  []varRef
	// tested are the root paths #if and #unless test: not required, but
	// read (ReadVars).
	tested []varRef
	// eachKeyParam: an #each block takes a second block parameter
	// (as |value key|), which only raymond's own #each sets (eachHelper).
	eachKeyParam bool
}

func (c *compiler) compile(src string) (driver.Compiled, error) {
	main := &unit{name: c.name, src: src}
	prog, ends, spans, err := parseTemplate(src)
	if err != nil {
		return nil, unitError(main, err)
	}
	main.prog, main.ends, main.spans = prog, ends, spans
	if err := c.walk(main); err != nil {
		return nil, err
	}
	tpl, err := build(main)
	if err != nil {
		return nil, err
	}
	partials := make(map[string]*raymond.Template, len(c.order))
	for _, u := range c.order {
		ptpl, err := build(u)
		if err != nil {
			return nil, err
		}
		// Pre-parsed: raymond parses partials registered by source lazily,
		// without a lock, on the first render (a data race).
		partials[u.partial] = ptpl
	}
	// register captures what it needs, not the compiler (which holds every
	// unit's tree): a compiled template keeps it.
	funcs, eachKeyParam := c.eng.funcs, c.eachKeyParam
	register := func(tpl *raymond.Template) {
		for name, fn := range helpers() {
			tpl.RegisterHelper(name, fn)
		}
		for name, fn := range funcs {
			tpl.RegisterHelper(name, wrapFunc(fn))
		}
		if _, ok := funcs["section"]; !ok {
			tpl.RegisterHelper("section", sectionHelper)
		}
		if _, ok := funcs["each"]; !ok && !eachKeyParam {
			tpl.RegisterHelper("each", eachHelper)
		}
		for name, ptpl := range partials {
			tpl.RegisterPartialTemplate(name, ptpl)
		}
	}
	register(tpl)
	t := &compiled{name: c.name, src: src, tpl: tpl, allowMissing: c.cfg.AllowMissing, allowMissingData: c.cfg.AllowMissingData, partials: len(c.order) > 0}
	t.edits = allEdits(main)
	t.register = register
	t.calls = main.calls
	t.helper = func(name string) any {
		if fn, ok := funcs[name]; ok {
			return wrapFunc(fn)
		}
		return helpers()[name]
	}
	if len(c.order) == 0 {
		t.fast = t.fastProgram(applyEdits(main.src, main.edits), c.eng.funcs, c.cfg.Parse)
	}
	cursors := map[*unit]*textpos.Cursor{}
	for _, v := range c.vars {
		cur := cursors[v.unit]
		if cur == nil {
			cur = textpos.NewCursor(v.unit.src)
			cursors[v.unit] = cur
		}
		line, col := cur.LineCol(v.pos)
		t.vars = append(t.vars, checkedVar{template: v.unit.name, line: line, col: col, name: v.name, path: v.path, conds: v.conds, data: v.data})
	}
	for _, v := range c.tested {
		line, col := textpos.LineCol(v.unit.src, v.pos)
		t.tested = append(t.tested, driver.Var{Name: v.path[0], Template: v.unit.name, Line: line, Col: col})
	}
	return t, nil
}

// walk checks the template and, through include, every partial it uses.
func (c *compiler) walk(main *unit) (err error) {
	defer func() {
		if r := recover(); r != nil {
			ce, ok := r.(*compileError)
			if !ok {
				panic(r)
			}
			err = unitError(ce.unit, ce)
		}
	}()
	main.walked[0] = true
	w := &walker{c: c, u: main, record: true}
	w.program(main.prog, false, cond{})
	return nil
}

// include loads and walks the partial name, used by the walker from at p.
// A partial is walked once with scoped false and once with scoped true at
// most: its variables are checked under the conditions of the first place
// that includes it at the root, which can only check less, never more,
// than a render needs.
func (c *compiler) include(fromW *walker, p *ast.PartialStatement, name string, scoped bool) {
	from := fromW.u
	for i, s := range c.stack {
		if s == name {
			chain := append(append([]string(nil), c.stack[i:]...), name)
			panic(&compileError{unit: from, pos: p.Pos, err: fmt.Errorf("partial %q includes itself (%s): recursive partials are not supported", name, strings.Join(chain, " -> "))})
		}
	}
	u := c.units[name]
	if u == nil {
		file, src, err := c.resolve(name)
		if err != nil {
			panic(&compileError{unit: from, pos: p.Pos, err: err})
		}
		u = &unit{name: file, partial: name, src: src}
		prog, ends, spans, err := parseTemplate(src)
		if err != nil {
			var se *syntaxError
			errors.As(err, &se)
			panic(&compileError{unit: u, pos: se.pos, err: err})
		}
		u.prog, u.ends, u.spans = prog, ends, spans
		c.units[name] = u
		c.order = append(c.order, u)
	}
	mode := 0
	if scoped {
		mode = 1
	}
	if u.walked[mode] {
		return
	}
	first := !u.walked[0] && !u.walked[1]
	u.walked[mode] = true
	c.stack = append(c.stack, name)
	w := &walker{c: c, u: u, record: first, conds: fromW.conds}
	w.program(u.prog, scoped, cond{})
	c.stack = c.stack[:len(c.stack)-1]
}

// resolve reads the partial name with driver.Config.ReadPartial, in the
// extension order of driver.PartialExts: the template's own extension
// first, then .hbs, .prompt and .handlebars.
func (c *compiler) resolve(name string) (file, src string, err error) {
	file, b, err := c.cfg.ReadPartial(name, driver.PartialExts(c.name, c.eng.Extensions())...)
	return file, string(b), err
}

// build applies a unit's edits, and those that print values through
// printHelper, and parses it with raymond. The source was accepted by
// parseTemplate, so raymond's parser runs to the end and its lexer
// goroutine exits.
func build(u *unit) (*raymond.Template, error) {
	tpl, err := raymond.Parse(edited(u))
	if err != nil {
		return nil, &driver.Error{Template: u.name, Err: fmt.Errorf("raymond rejected a template that rolemark's parser accepted (please report): %w", err)}
	}
	return tpl, nil
}

// edited returns a unit's source with all its edits applied: what raymond
// parses.
func edited(u *unit) string { return applyEdits(u.src, allEdits(u)) }

// allEdits returns a unit's edits and prints, in order.
func allEdits(u *unit) []edit {
	all := append(append([]edit(nil), u.edits...), u.prints...)
	sortEdits(all)
	return all
}

// sortEdits orders edits by place; an insertion comes before an edit that
// replaces text at the same place.
func sortEdits(edits []edit) {
	sort.SliceStable(edits, func(i, j int) bool {
		if edits[i].pos != edits[j].pos {
			return edits[i].pos < edits[j].pos
		}
		return edits[i].end < edits[j].end
	})
}

// applyEdits returns src with edits applied.
func applyEdits(src string, edits []edit) string {
	sortEdits(edits)
	if len(edits) == 0 {
		return src
	}
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.WriteString(src[last:e.pos])
		b.WriteString(e.text)
		last = e.end
	}
	b.WriteString(src[last:])
	return b.String()
}

func unitError(u *unit, err error) error {
	pos := -1
	var se *syntaxError
	var ce *compileError
	switch {
	case errors.As(err, &ce):
		pos, err = ce.pos, ce.err
	case errors.As(err, &se):
		pos = se.pos
	}
	e := &driver.Error{Template: u.name, Err: err}
	if pos >= 0 {
		e.Line, e.Col = textpos.LineCol(u.src, pos)
	}
	return e
}
