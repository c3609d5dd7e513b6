package jinja

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/jinja2"
	"github.com/rolemark/rolemark/roleparse"
)

// Option configures the engine.
type Option func(*settings)

type settings struct {
	funcs        map[string]any
	depth        int
	trimBlocks   bool
	lstripBlocks bool
	doStatement  bool
	loopControls bool
	limits       Limits
}

// Limits bound what one render of an untrusted template may use, beyond
// MacroDepth and the render's context; zero means no limit (the default).
// A render that passes one fails with an error naming the limit, where
// Python's Jinja2 would raise MemoryError or run on.
type Limits struct {
	Output     int // bytes the template writes
	Iterations int // loop iterations in all
	Size       int // bytes of any one string, items of any one list, the template builds
}

// Limit sets the Limits of every render.
func Limit(l Limits) Option { return func(s *settings) { s.limits = l } }

// defaultDepth bounds nested macro calls, includes and recursive loops
// unless MacroDepth says otherwise.
const defaultDepth = 100

// Funcs makes the given Go functions available to every template, as
// globals: {{ shout(q) }}. Their arguments are converted from the
// template's values (a str to a string, an int to any Go integer type, a
// list to a slice, a dict to a map, anything to any); a function may return
// one value, or one value and an error. Its result is escaped like any
// value, unless its result type is roleparse.Markup: markup the Go program
// builds is trusted, while a roleparse.Markup value in the data is escaped
// like any string. A function named like one of rolemark's (role, history,
// media, message, user, system, assistant) is an error when a template is
// compiled: the markup functions cannot be replaced.
func Funcs(funcs map[string]any) Option {
	return func(s *settings) {
		if s.funcs == nil {
			s.funcs = map[string]any{}
		}
		maps.Copy(s.funcs, funcs)
	}
}

// MacroDepth sets how deeply macro calls, includes and recursive loops may
// nest before the render fails (100 by default).
func MacroDepth(n int) Option {
	return func(s *settings) {
		if n > 0 {
			s.depth = n
		}
	}
}

// TrimBlocks removes the first newline after a block tag ({% … %}), as
// Jinja2's trim_blocks=True does. Off by default, as in Jinja2.
func TrimBlocks() Option { return func(s *settings) { s.trimBlocks = true } }

// LStripBlocks strips the spaces and tabs from the start of a line up to a
// block tag, as Jinja2's lstrip_blocks=True does. Off by default, as in
// Jinja2.
func LStripBlocks() Option { return func(s *settings) { s.lstripBlocks = true } }

// DoStatement accepts {% do expr %}, which evaluates expr and prints
// nothing (Jinja2's jinja2.ext.do extension). Off by default: Jinja2's
// Environment, LangChain's and transformers' do not load the extension, and
// a template written here should render there; without it, {% do %} is an
// unknown tag.
func DoStatement() Option { return func(s *settings) { s.doStatement = true } }

// LoopControls accepts {% break %} and {% continue %} in a for loop
// (Jinja2's jinja2.ext.loopcontrols extension). Off by default: Jinja2's
// Environment and LangChain's do not load the extension (transformers'
// chat templates do); without it, {% break %} is an unknown tag.
func LoopControls() Option { return func(s *settings) { s.loopControls = true } }

// New returns the engine named "jinja", for the extensions .jinja, .j2
// and .jinja2.
func New(opts ...Option) *Engine {
	e := &Engine{}
	e.cfg.depth = defaultDepth
	for _, o := range opts {
		o(&e.cfg)
	}
	return e
}

// Engine is the jinja engine, a driver.Engine. Make one with New.
type Engine struct {
	cfg settings
}

var _ driver.Engine = (*Engine)(nil)

// Name returns "jinja".
func (e *Engine) Name() string { return "jinja" }

// Extensions returns .jinja, .j2 and .jinja2.
func (e *Engine) Extensions() []string { return []string{".jinja", ".j2", ".jinja2"} }

// ownNames are the names of rolemark's markup functions and block tags.
var ownNames = []string{"role", "history", "media", "message", "user", "system", "assistant"}

// Compile compiles src. Partials (include, import, extends) are read with
// cfg.ReadPartial, and only from cfg.FS; those named by a string literal
// are read and compiled now, so a missing or broken one is an error of
// Compile.
func (e *Engine) Compile(name, src string, cfg driver.Config) (dc driver.Compiled, err error) {
	if name == "" {
		name = "template"
	}
	defer func() {
		if p := recover(); p != nil {
			dc, err = nil, &driver.Error{Template: name, Err: &driver.PanicError{Value: p}}
		}
	}()
	opts := []jinja2.Option{
		jinja2.Autoescape(roleparse.EscapeNumeric),
		jinja2.WithLimits(jinja2.Limits{Depth: e.cfg.depth, Output: e.cfg.limits.Output, Iterations: e.cfg.limits.Iterations, Size: e.cfg.limits.Size}),
		jinja2.WithFilter("tojson", tojson),
	}
	if !cfg.AllowMissing {
		opts = append(opts, jinja2.StrictNames(), jinja2.LenientNames(cfg.Optional...))
	}
	if e.cfg.trimBlocks {
		opts = append(opts, jinja2.TrimBlocks())
	}
	if e.cfg.lstripBlocks {
		opts = append(opts, jinja2.LStripBlocks())
	}
	// A filter block's str is escaped like any printed value: Jinja2 writes
	// it raw, which would let data in a filter's arguments forge markup.
	opts = append(opts, jinja2.EscapeFilterBlocks())
	// Escaping stays on: {% autoescape false %} would print every value of
	// its body as markup; |safe on a value is the one raw form.
	opts = append(opts, jinja2.AutoescapeStaysOn())
	if e.cfg.doStatement {
		opts = append(opts, jinja2.DoStatement())
	}
	if e.cfg.loopControls {
		opts = append(opts, jinja2.LoopControls())
	}
	opts = append(opts, markupOptions()...)
	for _, n := range slices.Sorted(maps.Keys(e.cfg.funcs)) {
		if slices.Contains(ownNames, n) {
			return nil, &driver.Error{Template: name, Err: fmt.Errorf("Funcs: %q is one of rolemark's functions", n)}
		}
		fn, err := goFunc(n, e.cfg.funcs[n])
		if err != nil {
			return nil, &driver.Error{Template: name, Err: err}
		}
		opts = append(opts, jinja2.WithGlobal(n, fn))
	}
	c := &compiled{name: name, files: map[string]string{}, calls: map[place]bool{}, optional: cfg.Optional}
	ld := &loader{cfg: cfg, exts: driver.PartialExts(name, e.Extensions()), c: c}
	opts = append(opts, jinja2.WithLoader(ld.load))
	c.env = jinja2.New(opts...)
	// A message that counts characters counts them in the body, what a
	// Python user gives Jinja2; the position before it is the file's.
	tpl, err := c.env.ParseBody(name, src, cfg.Lead)
	if err != nil {
		return nil, c.convert(err)
	}
	c.tpl = tpl
	if err := c.preload(tpl); err != nil {
		return nil, err
	}
	c.vars = c.listVars(e.cfg.funcs)
	c.fast = c.fastProgram(e.cfg.funcs, cfg.Parse)
	return c, nil
}

// jinjaTojson is Jinja2's tojson filter.
var jinjaTojson = jinja2.BuiltinFilter("tojson")

// tojson is Jinja2's tojson whose result is escaped like any value:
// Jinja2 marks it safe, since it writes < > & and ' as \u escapes, but it
// leaves " as it is, which would end an attribute's value.
func tojson(c *jinja2.Ctx, v jinja2.Value, args []jinja2.Value, kw []jinja2.Kwarg) (jinja2.Value, error) {
	r, err := jinjaTojson(c, v, args, kw)
	if err != nil {
		return r, err
	}
	return jinja2.StrV(r.Str()), nil
}

// place is a place in a template file.
type place struct {
	file      string
	line, col int
}

// compiled is a compiled template; it is safe for concurrent use.
type compiled struct {
	name string
	env  *jinja2.Env
	tpl  *jinja2.Template

	mu    sync.Mutex
	files map[string]string // a partial's name as written → its file

	// calls are the places of names the templates call: name(…).
	calls map[place]bool
	// optional are the front matter's optional inputs (Config.Optional).
	optional []string
	// partials are the partials named with a literal, by name as written.
	partials map[string]*jinja2.Template
	vars     []driver.Var
	fast     *driver.VarSkeleton
}

var (
	_ driver.MessagesExecuter = (*compiled)(nil)
	_ driver.StringExecuter   = (*compiled)(nil)
	_ driver.VarLister        = (*compiled)(nil)
)

// Execute renders the template's markup into w; nothing is written when
// the render fails.
func (c *compiled) Execute(ctx context.Context, w io.Writer, r *driver.Request) error {
	ew := &errWriter{w: w}
	err := c.run(ctx, r, func(values map[string]jinja2.Value) error {
		return c.tpl.RenderTo(ctx, ew, values)
	})
	if ew.err != nil {
		return ew.err // w's own error, as w gave it
	}
	return err
}

// errWriter keeps the error of the writer it wraps.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	n, err := e.w.Write(b)
	e.err = err
	return n, err
}

// ExecuteString renders the template's markup.
func (c *compiled) ExecuteString(ctx context.Context, r *driver.Request) (s string, err error) {
	err = c.run(ctx, r, func(values map[string]jinja2.Value) (err error) {
		s, err = c.tpl.Render(ctx, values)
		return err
	})
	if err != nil {
		return "", err
	}
	return s, nil
}

// run calls render with r's variables as the template's values, turning
// a panic and an error of internal/jinja2 into a *driver.Error.
func (c *compiled) run(ctx context.Context, r *driver.Request, render func(map[string]jinja2.Value) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	var vars map[string]any
	if r != nil {
		vars = r.Vars
	}
	defer func() {
		if p := recover(); p != nil {
			err = &driver.Error{Template: c.name, Err: &driver.PanicError{Value: p}}
		}
	}()
	values, cv, err := toValues(vars)
	if err != nil {
		cv.release()
		if de, ok := err.(*driver.DepthError); ok {
			return driver.DepthErrorAt(c.name, de, c.readVars())
		}
		if ve, ok := err.(*varError); ok {
			// at the variable's first use, as a depth error
			e := &driver.Error{Template: c.name, Err: ve.err}
			for _, v := range c.readVars() {
				if v.Name == ve.name && !v.Call {
					e.Template, e.Line, e.Col = cmp.Or(v.Template, c.name), v.Line, v.Col
					break
				}
			}
			return e
		}
		return &driver.Error{Template: c.name, Err: err}
	}
	if r != nil {
		for _, name := range r.Unsupplied {
			delete(values, name) // not there, as in a Jinja2 context: Undefined
		}
	}
	err = render(values)
	cv.release()
	if err != nil {
		return c.convert(err)
	}
	return nil
}

// file returns the file of the template called name: a partial's path in
// the file system, or the template's own name.
func (c *compiled) file(name string) string {
	if name == "" {
		return c.name
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f, ok := c.files[name]; ok {
		return f
	}
	return name
}

// Error is a Jinja2 exception raised by a template: Kind is Python's
// exception name (TemplateSyntaxError, UndefinedError, TypeError, …) and
// Msg its message as Jinja2 words it. It comes wrapped in a *driver.Error
// (engine.Error) that names the template, line and column.
type Error struct {
	Kind, Msg string
	Err       error // the cause, such as the render context's error
}

func (e *Error) Error() string { return e.Kind + ": " + e.Msg }

func (e *Error) Unwrap() error { return e.Err }

// convert turns an error of internal/jinja2 into a *driver.Error in the
// coordinates of the file the author wrote.
func (c *compiled) convert(err error) error {
	var je *jinja2.Error
	if !errors.As(err, &je) {
		return &driver.Error{Template: c.name, Err: err}
	}
	at := place{file: c.file(je.Name), line: je.Line, col: je.Col}
	de := &driver.Error{Template: at.file, Line: at.line, Col: at.col}
	var pe *driver.PartialError
	var fe *driver.PanicError
	switch {
	case errors.As(je.Err, &pe):
		de.Err = pe
	case errors.As(je.Err, &fe) && fe.Call != "":
		de.Err = fe // a function that panicked, named as in every engine
	case je.Kind == "UndefinedError" && slices.Contains(c.optional, undefinedName(je.Msg)):
		// an optional input left out is Jinja2's Undefined, which a
		// call or an attribute raises on as Jinja2 words it
		de.Err = &Error{Kind: je.Kind, Msg: je.Msg, Err: je.Err}
	case je.Kind == "UndefinedError" && undefinedName(je.Msg) != "":
		n := undefinedName(je.Msg)
		if c.calls[at] {
			de.Err = &driver.UnknownFuncError{Name: n}
		} else {
			de.Err = &driver.MissingError{Name: n}
		}
	default:
		de.Err = &Error{Kind: je.Kind, Msg: je.Msg, Err: je.Err}
	}
	return de
}

// undefinedName returns the name of "'name' is undefined", Jinja2's
// message for a name that nothing defines, or "".
func undefinedName(msg string) string {
	rest, ok := strings.CutSuffix(msg, "' is undefined")
	if !ok || !strings.HasPrefix(rest, "'") {
		return ""
	}
	n := rest[1:]
	for i, r := range n {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return ""
		}
	}
	return n
}

// Vars lists the top-level variables the template and the partials it
// names with a literal read, in order of first use (driver.VarLister).
func (c *compiled) Vars() []driver.Var { return slices.Clone(c.vars) }

// ExecuteMessages renders straight to messages on the fast path (see
// fast.go); ok is false when the request must take Execute.
func (c *compiled) ExecuteMessages(ctx context.Context, r *driver.Request) ([]chat.Message, bool, error) {
	if r != nil && c.fast != nil {
		for _, name := range r.Unsupplied {
			if slices.Contains(c.fast.Names, name) {
				return nil, false, nil // a left-out input it prints is Undefined: the general path
			}
		}
	}
	return c.fast.Messages(ctx, r, value)
}
