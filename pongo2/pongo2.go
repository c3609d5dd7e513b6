package pongo2

import (
	"context"
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

	p2 "github.com/flosch/pongo2/v6"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/textpos"
	"github.com/rolemark/rolemark/roleparse"
)

// Option configures the engine.
type Option func(*settings)

type settings struct {
	funcs      map[string]any
	macroDepth int
	name       string
	exts       []string
}

// Funcs makes the given functions available to every template, in addition
// to role, history and media. Their results are escaped like any other value
// unless they return roleparse.Markup or flosch/pongo2's AsSafeValue. A function
// named like one of rolemark's (role, history, media) is an error when a
// template is compiled, as in the other engines: the markup functions
// cannot be replaced.
func Funcs(funcs map[string]any) Option {
	return func(s *settings) {
		if s.funcs == nil {
			s.funcs = map[string]any{}
		}
		for k, v := range funcs {
			s.funcs[k] = v
		}
	}
}

// MacroDepth sets how deeply macros may call one another before the render
// fails (100 by default).
func MacroDepth(n int) Option {
	return func(s *settings) {
		if n > 0 {
			s.macroDepth = n
		}
	}
}

// As makes the engine answer to another name and claim other file
// extensions (at least one). It exists for package jinja, whose engine is
// this adapter under the name "jinja" until rolemark's Jinja2 engine
// replaces it; the templates it compiles are the same.
func As(name string, exts ...string) Option {
	return func(s *settings) {
		if name != "" && len(exts) > 0 {
			s.name, s.exts = name, slices.Clone(exts)
		}
	}
}

// New returns the pongo2 engine, named "pongo2", for the extension
// .pongo2. The first call registers rolemark's tags in flosch/pongo2's
// global tag registry (see the package documentation).
func New(opts ...Option) *Engine {
	e := &Engine{regErr: register()}
	e.cfg.macroDepth = maxMacroDepth
	e.cfg.name, e.cfg.exts = "pongo2", []string{".pongo2"}
	for _, o := range opts {
		o(&e.cfg)
	}
	e.funcs = p2.Context{}
	for k, v := range ownFuncs {
		// A call is renamed to tagPrefix+k by the rewriter; the bare name
		// is the function only when the data has no value of that name.
		e.funcs[tagPrefix+k] = v
		e.funcs[k] = v
	}
	for k, v := range e.cfg.funcs {
		if _, own := ownFuncs[k]; !own {
			e.funcs[k] = trustMarkup(v)
		}
	}
	return e
}

// ownFuncs are rolemark's functions, which a caller's cannot replace.
var ownFuncs = map[string]any{
	"role":    roleFunc,
	"media":   mediaFunc,
	"history": historyFunc,
}

var (
	markupType   = reflect.TypeOf(roleparse.Markup(""))
	valuePtrType = reflect.TypeOf((*p2.Value)(nil))
)

// trustMarkup makes a caller's function that returns roleparse.Markup
// (optionally with an error) return it as a safe *p2.Value: markup a
// function of the Go caller builds is trusted, while a roleparse.Markup
// value in the data is escaped like any value.
func trustMarkup(fn any) any {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func || v.IsNil() {
		return fn
	}
	t := v.Type()
	if t.NumOut() < 1 || t.NumOut() > 2 || t.Out(0) != markupType {
		return fn
	}
	return driver.WithFirstResult(fn, valuePtrType, func(r reflect.Value) reflect.Value {
		return reflect.ValueOf(p2.AsSafeValue(string(r.Interface().(roleparse.Markup))))
	})
}

// Engine is the pongo2 engine, a driver.Engine. Make one with New.
type Engine struct {
	cfg    settings
	funcs  p2.Context
	regErr error
}

var _ driver.Engine = (*Engine)(nil)

// Name returns "pongo2", or the name given with As.
func (e *Engine) Name() string { return e.cfg.name }

// Extensions returns .pongo2, or the extensions given with As.
func (e *Engine) Extensions() []string { return slices.Clone(e.cfg.exts) }

// bannedTags are pongo2 tags a rolemark template may not use, and
// bannedFilters the filters; banReasons says why.
var (
	bannedTags    = []string{"ssi", "cycle", "ifchanged", "firstof", "autoescape", "lorem"}
	bannedFilters = []string{"truncatechars_html", "truncatewords_html", "center", "ljust", "rjust"}
	banReasons    = map[string]string{
		"ssi":                "it reads files outside the template file system; use include",
		"cycle":              "pongo2 v6 prints its values unescaped, keeps state in the parsed template (a data race) and panics without arguments",
		"ifchanged":          "pongo2 v6 keeps its state in the parsed template (a data race between renders)",
		"firstof":            "pongo2 v6 escapes its output only while pongo2's global autoescape is on; use {% if %} and {{ }}",
		"autoescape":         "escaping cannot be turned off; |safe is the one raw form",
		"lorem":              "its output is unbounded",
		"truncatechars_html": "it returns its input unescaped; use truncatechars",
		"truncatewords_html": "it returns its input unescaped; use truncatewords",
		"center":             "its output is unbounded (pongo2 v6 pads to any width it is given)",
		"ljust":              "its output is unbounded (pongo2 v6 pads to any width it is given)",
		"rjust":              "its output is unbounded (pongo2 v6 pads to any width it is given)",
	}
	bannedMsg = regexp.MustCompile(`^Usage of (tag|filter) '([a-z_]+)' is not allowed \(sandbox restriction active\)\.$`)
)

// Compile compiles src, which may include, extend and import files of
// cfg.FS only.
func (e *Engine) Compile(name, src string, cfg driver.Config) (c driver.Compiled, err error) {
	if e.regErr != nil {
		return nil, &driver.Error{Template: name, Err: e.regErr}
	}
	if name == "" {
		name = "template"
	}
	for _, n := range slices.Sorted(maps.Keys(e.cfg.funcs)) {
		if _, own := ownFuncs[n]; own {
			return nil, &driver.Error{Template: name, Err: fmt.Errorf("Funcs: %q is one of rolemark's functions", n)}
		}
		if strings.HasPrefix(n, tagPrefix) {
			return nil, &driver.Error{Template: name, Err: fmt.Errorf("Funcs: %q: names starting with %s are rolemark's", n, tagPrefix)}
		}
	}
	s, rerr := rewrite(name, src, true)
	if rerr != nil {
		line, col := textpos.LineCol(src, rerr.off)
		return nil, &driver.Error{Template: name, Line: line, Col: col, Err: rerr}
	}
	ld := newLoader(cfg, name, s, true, e.cfg.exts)
	set := p2.NewSet("rolemark:"+name, ld)
	for _, t := range bannedTags {
		if err := set.BanTag(t); err != nil {
			return nil, &driver.Error{Template: name, Err: err}
		}
	}
	for _, f := range bannedFilters {
		if err := set.BanFilter(f); err != nil {
			return nil, &driver.Error{Template: name, Err: err}
		}
	}
	ct := &compiled{name: name, loader: ld, funcs: e.funcs, depth: e.cfg.macroDepth}
	defer func() {
		if p := recover(); p != nil {
			c, err = nil, &driver.Error{Template: name, Err: &driver.PanicError{Value: p}}
		}
	}()
	tpl, perr := set.FromFile(name)
	if perr != nil {
		return nil, ct.convert(perr)
	}
	if u := verify(tpl); u != nil {
		return nil, ct.unguardedError(u)
	}
	ct.tpl = tpl
	ct.funcs = usedFuncs(e.funcs, ld)
	if !cfg.AllowMissing {
		ct.required = requiredVars(tpl, e.funcs)
		placers := map[*source]*placer{}
		for i, r := range ct.required {
			ct.required[i].file, ct.required[i].line, ct.required[i].col = ct.placeWith(placers, r.file, r.line, r.col)
		}
	}
	ct.fast = ct.fastProgram(s, e.funcs, cfg.Parse)
	return ct, nil
}

// usedFuncs returns the functions that the template or a file it loaded
// names in its code. Every key of the context costs pongo2 a regular
// expression match at every render, so the others are left out. (pongo2
// reads every file a template includes, extends or imports when it parses,
// because the rewriter refuses an include whose name is not a literal.)
func usedFuncs(funcs p2.Context, ld *loader) p2.Context {
	used := p2.Context{}
	for k, v := range funcs {
		if ld.uses(k) {
			used[k] = v
		}
	}
	return used
}

// compiled is a compiled template. Its pongo2 template is never changed
// after Compile (rolemark enables no TrimBlocks/LStripBlocks, which pongo2
// v6 applies by rewriting tokens at every Execute), so it is safe for
// concurrent use.
type compiled struct {
	name     string
	tpl      *p2.Template
	loader   *loader
	funcs    p2.Context
	depth    int
	required []varRef
	fast     *driver.VarSkeleton
}

var _ driver.MessagesExecuter = (*compiled)(nil)

// Execute renders the template's markup into w. pongo2 renders into a
// buffer first, so nothing is written to w when the render fails.
func (c *compiled) Execute(ctx context.Context, w io.Writer, r *driver.Request) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	if r == nil {
		r = &driver.Request{}
	}
	for _, ref := range c.required {
		if _, ok := r.Vars[ref.name]; !ok {
			if ref.call {
				return &driver.Error{Template: ref.file, Line: ref.line, Col: ref.col, Err: &driver.UnknownFuncError{Name: ref.name}}
			}
			return &driver.Error{Template: ref.file, Line: ref.line, Col: ref.col, Err: &driver.MissingError{Name: ref.name}}
		}
	}
	// pongo2 prints a map or list that holds itself without end.
	for k, v := range r.Vars {
		if err := driver.CheckDepth(k, v); err != nil {
			return driver.DepthErrorAt(c.name, err.(*driver.DepthError), c.readVars())
		}
	}
	// The state and the context are recycled: pongo2 copies the context
	// into one of its own, and nothing holds either once the render ends.
	st := states.Get().(*renderState)
	*st = renderState{req: r, ctx: ctx, done: ctx.Done(), maxDepth: c.depth, scratch: st.scratch[:0]}
	pctx := contexts.Get().(p2.Context)
	for k, v := range r.Vars {
		if identifier(k) {
			// a function's panic names it (driver.RecoveringNil)
			pctx[k] = driver.RecoveringNil(k, v)
		}
	}
	for k, v := range c.funcs {
		if _, own := ownFuncs[k]; own {
			if _, data := pctx[k]; data {
				continue // {{ role }} is the data's role, role(…) the function
			}
		}
		pctx[k] = v
	}
	pctx[stateKey] = st
	defer func() {
		if p := recover(); p != nil {
			pe, ok := p.(*driver.PanicError) // a function of the data, named
			if !ok {
				// one below a variable ({{ obj.f() }}) is named by
				// where the data holds it
				pe = &driver.PanicError{Value: p}
				if name := driver.PanickingFunc(r.Vars); name != "" {
					pe = driver.CallPanic(name, p)
				}
			}
			e := &driver.Error{Template: c.name, Err: pe}
			if st.at != nil {
				e.Template, e.Line, e.Col = c.place(st.at.Filename, st.at.Line, st.at.Col)
			}
			err = e
		}
		if len(pctx) <= 64 {
			clear(pctx) // a large map would cost every later render its clearing
			contexts.Put(pctx)
		}
		if scratch := st.scratch; cap(scratch) <= 64<<10 {
			*st = renderState{scratch: scratch[:0]}
			states.Put(st)
		}
	}()
	if perr := c.tpl.ExecuteWriter(pctx, w); perr != nil {
		return c.convert(perr)
	}
	return nil
}

var (
	states   = sync.Pool{New: func() any { return new(renderState) }}
	contexts = sync.Pool{New: func() any { return p2.Context{} }}
)

// identifier reports whether k can name a variable in pongo2 (which fails
// the whole render when the context holds any other key). Other keys cannot
// be used by a template, so they are left out.
func identifier(k string) bool { return driver.ASCIIWord(k) }

// place maps a pongo2 position in the rewritten file to the position the
// user wrote.
func (c *compiled) place(file string, line, col int) (string, int, int) {
	return c.placeWith(nil, file, line, col)
}

// placeWith is place with a placer per source from placers (nil: none),
// for many positions in a row.
func (c *compiled) placeWith(placers map[*source]*placer, file string, line, col int) (string, int, int) {
	if file == "" || file == "<string>" {
		file = c.name
	}
	if s := c.loader.source(file); s != nil {
		if placers == nil {
			line, col = s.origPos(line, col)
		} else {
			p := placers[s]
			if p == nil {
				p = newPlacer(s)
				placers[s] = p
			}
			line, col = p.origPos(line, col)
		}
	}
	return file, line, col
}

// convert turns a pongo2 error into an *driver.Error naming the template
// file, line and column the user wrote.
func (c *compiled) convert(err error) error {
	if rf := c.loader.refused; rf != nil {
		line, col := textpos.LineCol(rf.src, rf.err.off)
		return &driver.Error{Template: rf.name, Line: line, Col: col, Err: rf.err}
	}
	var pe *p2.Error
	if !errors.As(err, &pe) {
		return &driver.Error{Template: c.name, Err: err}
	}
	file := pe.Filename
	if pe.Token != nil && pe.Token.Filename != "" {
		file = pe.Token.Filename
	}
	file, line, col := c.place(file, pe.Line, pe.Column)
	var cause error
	if pe.Sender == "fromfile" {
		cause = c.loader.loadErr(pe.Filename)
		if pe.Token == nil {
			// pongo2's extends passes the loader's failure on without
			// a position: place it where the file name was written.
			if f, l, cl, ok := c.loader.askedAt(pe.Filename); ok {
				file, line, col = f, l, cl
			}
		}
	}
	if cause == nil {
		cause = pe.OrigError
		if cause == nil {
			cause = errors.New("unknown pongo2 error")
		}
		msg := cause.Error()
		// An error inside a macro or function call comes back from pongo2
		// as text wrapped in one "[Error …] " per call level: keep the
		// innermost message and position.
		for {
			m := nestedError.FindStringSubmatch(msg)
			if m == nil {
				break
			}
			msg = msg[len(m[0]):]
			if m[2] != "" {
				l, _ := strconv.Atoi(m[2])
				cl, _ := strconv.Atoi(m[3])
				f := m[1]
				if f == "" {
					f = file
				}
				file, line, col = c.place(f, l, cl)
			}
		}
		if m := bannedMsg.FindStringSubmatch(msg); m != nil {
			msg = fmt.Sprintf("%s %q is not allowed in rolemark templates: %s", m[1], m[2], banReasons[m[2]])
		}
		if msg = publicName(msg); msg != cause.Error() {
			cause = errors.New(msg)
		}
	}
	return &driver.Error{Template: file, Line: line, Col: col, Err: cause}
}

// unguardedError is the compile error for a place verify found, in the
// coordinates the user wrote.
func (c *compiled) unguardedError(u *unguarded) error {
	e := &driver.Error{Template: c.name, Err: u.err}
	if u.err == nil {
		e.Err = fmt.Errorf("rolemark and pongo2 read the template differently before this point, which leaves a %s; please report it to rolemark", u.what)
	}
	if u.tok != nil {
		col := u.tok.Col
		if s := c.loader.source(u.tok.Filename); s != nil && u.word != "" {
			col = wordCol(s.out, u.tok.Line, col, u.word)
		}
		e.Template, e.Line, e.Col = c.place(u.tok.Filename, u.tok.Line, col)
	}
	return e
}

// nestedError matches the text pongo2's *Error.Error() puts before the
// message.
var nestedError = regexp.MustCompile(`^\[Error \(where: [^)]*\)(?: in (.*?))?(?: \| Line (\d+) Col (\d+)(?: near '(?s:.*?)')?)?\] `)

// roleFunc is {{ role("user") }}, {{ role("user", name) }} and
// {{ role("tool", "", tool_call_id) }}: the opening tag of a message that
// runs until the next one.
func roleFunc(args ...*p2.Value) (*p2.Value, error) {
	if len(args) == 0 || len(args) > 3 {
		return nil, fmt.Errorf("role takes a role and optionally a name and a tool call id, not %d arguments", len(args))
	}
	role := strings.TrimSpace(format(args[0].Interface()))
	if role == "" {
		return nil, errors.New("role: the role is empty")
	}
	if len(args) == 1 {
		if v, ok := roleTags[role]; ok {
			return v, nil
		}
	}
	var attrs [2]roleparse.Attr
	n := 0
	if len(args) > 1 {
		attrs[n] = roleparse.Attr{Key: "name", Value: format(args[1].Interface())}
		n++
	}
	if len(args) > 2 {
		attrs[n] = roleparse.Attr{Key: "tool_call_id", Value: format(args[2].Interface())}
		n++
	}
	return p2.AsSafeValue(roleparse.MessageTag(role, attrs[:n]...)), nil
}

// roleTags are the opening tags of the common roles, built once; pongo2
// only reads a returned value, so one value serves every render.
var roleTags = func() map[string]*p2.Value {
	m := map[string]*p2.Value{}
	for _, r := range []string{"system", "user", "assistant", "tool", "developer"} {
		m[r] = p2.AsSafeValue(roleparse.MessageTag(r))
	}
	return m
}()

// mediaFunc is {{ media(url) }} and {{ media(url, mimetype) }}.
func mediaFunc(args ...*p2.Value) (*p2.Value, error) {
	if len(args) == 0 || len(args) > 2 {
		return nil, fmt.Errorf("media takes a URL and optionally a media type, not %d arguments", len(args))
	}
	url := format(args[0].Interface())
	if url == "" {
		return nil, errors.New("media: the URL is empty")
	}
	mt := ""
	if len(args) > 1 {
		mt = format(args[1].Interface())
	}
	return p2.AsSafeValue(roleparse.MediaTag(url, mt)), nil
}

// historyFunc is {{ history() }}: the marker that engine.Template replaces
// with the render's history.
func historyFunc() *p2.Value { return p2.AsSafeValue(driver.HistoryMarker) }
