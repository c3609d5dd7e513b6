package jinja2

import (
	"context"
	"fmt"
)

// Env is a Jinja2 Environment: the settings every template parsed from it
// shares. It is immutable once built and safe for concurrent use.
type Env struct {
	trimBlocks, lstripBlocks, keepTrailingNewline bool
	autoescape                                    bool
	escape                                        func(string) string // used when autoescaping and by Markup operations
	sandbox                                       bool                // ImmutableSandboxedEnvironment's rules
	loader                                        Loader
	filters                                       map[string]Filter
	tests                                         map[string]Test
	globals                                       map[string]Value
	limits                                        Limits
}

// Loader reads the source of a template named by include, import or
// extends. It returns an error wrapping fs.ErrNotExist when there is none.
type Loader func(name string) (src string, err error)

// Filter is a Jinja2 filter: {{ v|name(args, kw=…) }}.
type Filter func(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error)

// Test is a Jinja2 test: {{ v is name(args) }}.
type Test func(c *Ctx, v Value, args []Value, kw []Kwarg) (bool, error)

// Limits bound what one render may use; zero means no limit. Exceeding
// one is an *Error of kind "LimitError" naming the limit.
type Limits struct {
	Depth      int // nested macro calls, includes and recursive loops
	Output     int // bytes written
	Iterations int // loop iterations in all
	Size       int // bytes of any one string, items of any one list, built by the template
}

// Option configures an Env.
type Option func(*Env)

// New returns an Env with Jinja2's defaults (no autoescaping, no sandbox,
// no loader, no limits) changed by opts.
func New(opts ...Option) *Env {
	e := &Env{escape: htmlEscape}
	for _, o := range opts {
		o(e)
	}
	return e
}

// TrimBlocks removes the first newline after a block tag (trim_blocks).
func TrimBlocks() Option { return func(e *Env) { e.trimBlocks = true } }

// LStripBlocks strips spaces and tabs from the start of a line up to a
// block tag (lstrip_blocks).
func LStripBlocks() Option { return func(e *Env) { e.lstripBlocks = true } }

// KeepTrailingNewline keeps a template's final newline (keep_trailing_newline).
func KeepTrailingNewline() Option { return func(e *Env) { e.keepTrailingNewline = true } }

// Autoescape escapes every printed value that is not Markup with escape
// (markupsafe's HTML escaping when escape is nil).
func Autoescape(escape func(string) string) Option {
	return func(e *Env) {
		e.autoescape = true
		if escape != nil {
			e.escape = escape
		}
	}
}

// Sandbox applies ImmutableSandboxedEnvironment's rules: calling a method
// that mutates a list, dict or set raises SecurityError where the call
// happens, and private attributes are unsafe.
func Sandbox() Option { return func(e *Env) { e.sandbox = true } }

// WithLoader sets where include, import and extends read templates.
func WithLoader(l Loader) Option { return func(e *Env) { e.loader = l } }

// WithLimits sets the limits every render runs under.
func WithLimits(l Limits) Option { return func(e *Env) { e.limits = l } }

// WithFilter adds or replaces a filter.
func WithFilter(name string, f Filter) Option {
	return func(e *Env) {
		if e.filters == nil {
			e.filters = map[string]Filter{}
		}
		e.filters[name] = f
	}
}

// WithTest adds or replaces a test.
func WithTest(name string, t Test) Option {
	return func(e *Env) {
		if e.tests == nil {
			e.tests = map[string]Test{}
		}
		e.tests[name] = t
	}
}

// WithGlobal adds a global, visible to every template of the Env.
func WithGlobal(name string, v Value) Option {
	return func(e *Env) {
		if e.globals == nil {
			e.globals = map[string]Value{}
		}
		e.globals[name] = v
	}
}

// Template is a compiled template. It is safe for concurrent use.
type Template struct {
	env  *Env
	name string
	// the syntax tree and the compiled closures
}

// Parse compiles src as the template called name.
func (e *Env) Parse(name, src string) (*Template, error) {
	return nil, &Error{Kind: "TemplateSyntaxError", Name: name, Msg: "not implemented yet"}
}

// Render renders t with vars as the template's context.
func (t *Template) Render(ctx context.Context, vars map[string]Value) (string, error) {
	return "", &Error{Kind: "TemplateRuntimeError", Name: t.name, Msg: "not implemented yet"}
}

// Ctx is what filters, tests, globals and methods see of the render that
// calls them.
type Ctx struct {
	ctx context.Context
	env *Env
	// limits counters, call depth, …
}

// Env returns the environment of the render.
func (c *Ctx) Env() *Env { return c.env }

// Grow accounts for a string or list the template is about to build of
// size n (bytes or items): an error when it passes the Size limit, or the
// render's context is done.
func (c *Ctx) Grow(n int) error { return nil }

// Call calls a callable value.
func (c *Ctx) Call(fn Value, args []Value, kw []Kwarg) (Value, error) {
	return Value{}, &Error{Kind: "TypeError", Msg: "not implemented yet"}
}

// Filter applies the filter called name, as {{ v|name(args) }} would.
func (c *Ctx) Filter(name string, v Value, args []Value, kw []Kwarg) (Value, error) {
	return Value{}, &Error{Kind: "TemplateRuntimeError", Msg: "not implemented yet"}
}

// Test applies the test called name, as {{ v is name(args) }} would.
func (c *Ctx) Test(name string, v Value, args []Value, kw []Kwarg) (bool, error) {
	return false, &Error{Kind: "TemplateRuntimeError", Msg: "not implemented yet"}
}

// Error is what Parse and Render return: a Python exception of Jinja2's
// (Kind: "TemplateSyntaxError", "UndefinedError", "TypeError",
// "ValueError", "ZeroDivisionError", "OverflowError", "SecurityError",
// "TemplateNotFound", "TemplateRuntimeError", "TemplateAssertionError",
// "KeyError", "IndexError", "AttributeError", "RecursionError",
// "LimitError", "Unsupported") at a place in a template.
type Error struct {
	Kind      string
	Msg       string // the exception's message, as Python words it where it can
	Name      string // the template that holds the place
	Line, Col int    // 1-based; Col in runes; 0 when not known
	Err       error  // the cause, for errors.Is/As (a context error, a loader error)
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s: %s", e.Name, e.Line, e.Col, e.Kind, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s: %s", e.Name, e.Line, e.Kind, e.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", e.Name, e.Kind, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

// htmlEscape is markupsafe.escape.
func htmlEscape(s string) string {
	// TODO(values): markupsafe's table: & < > " ' -> &amp; &lt; &gt; &#34; &#39;
	return s
}
