package jinja2

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
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
	appendFilters                                 map[string]AppendFilter // WithAppendFilter's
	tests                                         map[string]Test
	globals                                       map[string]Value
	limits                                        Limits
	strict                                        bool            // StrictNames
	lenient                                       map[string]bool // LenientNames
	generation                                    bool            // GenerationTag
	doStatement                                   bool            // DoStatement
	loopControls                                  bool            // LoopControls
	escapeFilterBlocks                            bool            // EscapeFilterBlocks (and indent's str width)
	autoescapeStaysOn                             bool            // AutoescapeStaysOn

	// ext holds the block tags, call names and finalize of ext.go.
	ext extensions

	// Jinja2's built-in filters, tests and globals, read once by New.
	builtinFilters map[string]Filter
	builtinTests   map[string]Test
	builtinGlobals map[string]Value
	// cache holds the templates the loader gave, compiled (name → *Template).
	cache *sync.Map
	// renders keeps finished renders' state (*Ctx) for reuse.
	renders *sync.Pool
}

// Loader reads the source of a template named by include, import or
// extends. It returns an error wrapping fs.ErrNotExist when there is none.
type Loader func(name string) (src string, err error)

// Filter is a Jinja2 filter: {{ v|name(args, kw=…) }}. It must change
// neither args nor kw, which may be shared by every call of one filter
// expression (its constant arguments), and may keep them. What a Go
// callback may keep of the values it receives: see "Values a Go callback
// receives" in the package doc.
type Filter func(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error)

// AppendFilter is a Filter's append form (WithAppendFilter): where the
// filter's value is printed at once, as all of a print ({{ v|name }}) or
// as an operand of a printed + or ~ chain, outside autoescape and with no
// finalize hook, the render calls it instead of the Filter, with the same
// operand and arguments, to append to dst the str the Filter would
// return. That str must be a plain str (not Markup). It returns ok
// false, and dst as it was, for a value or arguments it does not write;
// the Filter is then called. An error is the Filter's for the same call.
type AppendFilter func(c *Ctx, dst []byte, v Value, args []Value, kw []Kwarg) ([]byte, bool, error)

// Test is a Jinja2 test: {{ v is name(args) }}. Like a Filter, it must
// change neither args nor kw.
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
	e := &Env{escape: htmlEscape, cache: &sync.Map{}, renders: &sync.Pool{}}
	for _, o := range opts {
		o(e)
	}
	e.builtinFilters = builtinFilters()
	e.builtinTests = builtinTests()
	e.builtinGlobals = builtinGlobals()
	if e.sandbox {
		// SandboxedEnvironment's range is the function safe_range
		e.builtinGlobals["range"] = FuncV(&Func{Name: "safe_range", Call: gRange})
	}
	return e
}

// filter returns the filter called name, or nil.
func (e *Env) filter(name string) Filter {
	if f, ok := e.filters[name]; ok {
		return f
	}
	return e.builtinFilters[name]
}

// test returns the test called name, or nil.
func (e *Env) test(name string) Test {
	if t, ok := e.tests[name]; ok {
		return t
	}
	return e.builtinTests[name]
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
//
// Who does what: GetAttr (the values side) applies the rule: for a private
// attribute or a method that modifies a known mutable (list.append,
// dict.update, …) it gives sandbox.unsafe_undefined's Undefined, which
// prints as "" and raises SecurityError when it is used; the runtime
// raises that error where the template calls it (Ctx.Call), so a branch
// never taken never fails, as in Jinja2.
//
// As in Jinja2, the sandbox checks attribute access on the value only: a
// set block on a dict's key ({% set d.k %}…{% endset %}) and dict's
// methods called through the class (dict.update(d, x)) change d. A dict
// the caller passes in a Value is then changed too, so a Value shared by
// renders running at once must not hold a dict an untrusted template can
// reach; values converted from Go at each render are the render's own.
func Sandbox() Option { return func(e *Env) { e.sandbox = true } }

// DoStatement accepts {% do expr %}, which evaluates expr and prints
// nothing: Jinja2's jinja2.ext.do extension. Jinja2's Environment has it
// off, and so does transformers' chat-template environment; without it,
// {% do %} is an unknown tag.
func DoStatement() Option { return func(e *Env) { e.doStatement = true } }

// LoopControls accepts {% break %} and {% continue %} in a for loop:
// Jinja2's jinja2.ext.loopcontrols extension. Jinja2's Environment has it
// off; transformers' chat-template environment loads it. Without it,
// {% break %} is an unknown tag.
func LoopControls() Option { return func(e *Env) { e.loopControls = true } }

// EscapeFilterBlocks escapes, under autoescape, the value of a filter block
// that is a str and not Markup, as {{ }} escapes it, and so the str a call
// block's callee returns when it is not a macro. Jinja2 writes those
// values as they are, which lets data in the filter's arguments
// ({% filter wordwrap(5, wrapstring=data) %}) or a function's result
// print unescaped; an environment whose escaping is a security boundary
// turns this on. It also escapes indent's width when it is a str and the
// value Markup (a macro's output): Jinja2's do_indent marks that str
// Markup as it is, so data given as the width would print as markup.
func EscapeFilterBlocks() Option { return func(e *Env) { e.escapeFilterBlocks = true } }

// AutoescapeStaysOn makes an {% autoescape %} tag whose value is not a
// constant true a SecurityError where the template is compiled: Jinja2
// lets a template turn escaping off for a whole body, which in an
// environment whose escaping is a security boundary would print every
// value of the body as markup; there a value is printed raw only by
// |safe on that value.
func AutoescapeStaysOn() Option { return func(e *Env) { e.autoescapeStaysOn = true } }

// GenerationTag accepts transformers' {% generation %}…{% endgeneration %}
// (its AssistantTracker extension of chat templates): the body renders in
// a scope of its own, as the call block transformers makes of it does.
func GenerationTag() Option { return func(e *Env) { e.generation = true } }

// StrictNames makes reading a name that is neither assigned by the
// template nor in the context nor a global an UndefinedError naming it,
// at the place it is read, instead of Jinja2's printable Undefined. The
// operand of the tests defined and undefined and of the filter default
// stays lenient, so {% if x is defined %} still works.
func StrictNames() Option { return func(e *Env) { e.strict = true } }

// LenientNames exempts names from StrictNames: read when the context
// does not hold them, each is Jinja2's printable Undefined (an optional
// input the caller may leave out).
func LenientNames(names ...string) Option {
	return func(e *Env) {
		if e.lenient == nil {
			e.lenient = make(map[string]bool, len(names))
		}
		for _, n := range names {
			e.lenient[n] = true
		}
	}
}

// strictName reports whether reading the free name is an UndefinedError
// when it is undefined.
func (e *Env) strictName(name string) bool { return e.strict && !e.lenient[name] }

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
		delete(e.appendFilters, name)
	}
}

// WithAppendFilter adds or replaces a filter, f, with app its append
// form: a filter whose value is often printed at once (a chat template's
// {{ '"' + key + '": ' + value|tojson }}) is written into the output
// without the str f would make.
func WithAppendFilter(name string, f Filter, app AppendFilter) Option {
	return func(e *Env) {
		WithFilter(name, f)(e)
		if e.appendFilters == nil {
			e.appendFilters = map[string]AppendFilter{}
		}
		e.appendFilters[name] = app
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
	tree *Tree
	prog *program
	// module is the template's module when imported without context,
	// once built (importer).
	module atomic.Pointer[cachedModule]
	// bound is the binding to the last Layout t was rendered with
	// (layout.go).
	bound atomic.Pointer[binding]
}

// Parse compiles src as the template called name: a TemplateSyntaxError
// or TemplateAssertionError *Error when it is not a template.
func (e *Env) Parse(name, src string) (*Template, error) {
	return e.ParseBody(name, src, 0)
}

// ParseBody is Parse of src whose first lead characters are not the
// template's (a file's front matter kept as blank lines, so that lines and
// columns are the file's): a message that counts characters, as Jinja2's
// "unexpected char '\"' at 34" does, counts them in the rest, the body
// Jinja2 would be given.
func (e *Env) ParseBody(name, src string, lead int) (*Template, error) {
	s := newSource(name, normalizeNewlines(src, e.keepTrailingNewline))
	s.lead = lead
	tree, err := parseTree(s, e)
	if err != nil {
		return nil, err
	}
	prog, err := compileProgram(e, s, tree)
	if err != nil {
		return nil, err
	}
	return &Template{env: e, name: name, tree: tree, prog: prog}, nil
}

// Name returns the template's name.
func (t *Template) Name() string { return t.name }

// Tree returns the template's syntax tree; callers must not change it.
func (t *Template) Tree() *Tree { return t.tree }

// Render renders t with vars as the template's context.
func (t *Template) Render(ctx context.Context, vars map[string]Value) (string, error) {
	c := t.env.getCtx(ctx)
	defer t.env.putCtx(c)
	if err := t.run(c, vars); err != nil {
		return "", err
	}
	return string(c.out), nil
}

// AppendRender renders t with vars as the template's context and appends
// the output to dst, which it returns extended; on an error it returns dst
// as it was. Either way the bytes of dst's spare capacity past what it
// returns may have been written (a constant is written as a 16-byte
// store: appendPadded). Rendering into a buffer the caller reuses makes
// no allocation for the output.
func (t *Template) AppendRender(ctx context.Context, dst []byte, vars map[string]Value) ([]byte, error) {
	c, pooled := t.appendStart(ctx, dst)
	return t.appendEnd(c, pooled, dst, t.run(c, vars))
}

// appendStart takes a pooled Ctx whose output goes after dst; pooled is
// the Ctx's own buffer, which appendEnd gives back.
func (t *Template) appendStart(ctx context.Context, dst []byte) (c *Ctx, pooled []byte) {
	c = t.env.getCtx(ctx)
	pooled = c.out
	c.out, c.outBase = dst, len(dst)
	return c, pooled
}

// appendEnd returns c to the pool after a render into dst that ended with
// err, and gives dst extended by the output, or dst as it was on error.
func (t *Template) appendEnd(c *Ctx, pooled, dst []byte, err error) ([]byte, error) {
	out := c.out
	c.out, c.outBase = pooled, 0
	t.env.putCtx(c)
	if err != nil {
		return dst, err
	}
	return out, nil
}

// RenderTo renders t with vars as the template's context and writes the
// output to w in one Write; nothing is written when the render fails.
func (t *Template) RenderTo(ctx context.Context, w io.Writer, vars map[string]Value) error {
	c := t.env.getCtx(ctx)
	defer t.env.putCtx(c)
	if err := t.run(c, vars); err != nil {
		return err
	}
	_, err := w.Write(c.out)
	return err
}

// run renders t into c.out.
func (t *Template) run(c *Ctx, vars map[string]Value) error {
	tc := &c.rootTC
	tc.base, tc.inh = vars, &c.rootInh
	return t.runRoot(c)
}

// runRoot renders t into c.out with c.rootTC, set by the caller, as the
// outermost context.
func (t *Template) runRoot(c *Ctx) error {
	if err := c.done(); err != nil {
		return err
	}
	if c.joinErr != nil {
		c.joinErr = nil
	}
	if c.counting {
		c.items, c.itemsOuter, c.counting = 0, c.itemsOuter[:0], false
	}
	c.freshDicts = !t.prog.frozenDicts
	err := t.prog.run(c, &c.rootTC)
	if err == nil {
		err = c.joinErr
	}
	if c.joinErr != nil {
		c.joinErr = nil
	}
	if err != nil {
		var e *Error
		if errors.As(err, &e) && e.Name == "" {
			cp := *e
			cp.Name = t.name
			return &cp
		}
		return err
	}
	return nil
}

// Ctx is what filters, tests, globals and methods see of the render that
// calls them.
type Ctx struct {
	ctx context.Context
	// freshDicts: the render's root template can change a dict literal
	// (program.frozenDicts), so each evaluation builds its own.
	freshDicts bool
	env        *Env
	out        []byte    // the output; captured output is cut off its end
	outBase    int       // where this render's output starts in out (AppendRender)
	gen        *genTrack // RenderGeneration's record; nil when not asked
	own        *ownTrack // the spans of the template's own text (Renderer.TrackOwn); nil when not asked
	scratch    []byte    // a filter's working memory (tojson), kept from call to call
	strs       []byte    // the render's string arena (compile_arena.go)
	autoescape bool      // how the code running now escapes what it prints (escVolatile)
	depth      int       // nested macro calls, includes, recursive loops
	iters      int       // loop iterations so far
	iterNext   int       // the count at which tick looks at the limits (tickMore)
	// joinErr is the TypeError of a filter block whose value is not a
	// str: Jinja2 yields the value, and "".join of the output it is part
	// of (the render's, a macro's, a set block's, …) fails only once that
	// output has all been rendered, unless something raises first.
	joinErr error
	// items counts the items Jinja2's code would have yielded into the
	// output being written (compiler.countItems), for joinErr's index;
	// negative once something uncounted wrote into it (itemsLost).
	// itemsOuter holds the counts of the outputs a capture interrupts.
	// counting: a template that counts has run in this render; until
	// then nothing counts, and a capture neither pushes nor pops (one
	// entered before and left after has no count to restore: the root
	// template, which does not count, lost it).
	items      int
	itemsOuter []int
	counting   bool
	// varied: the render read something that varies (Ctx.Varies);
	// cleared as a Renderer's render starts, read by Renderer.Varied
	// only (a pooled render's is left as it is)
	varied bool
	// deferred: the output of includes without context inside a set or
	// filter block of the top level or a block, which Jinja2 3.1.6
	// writes before the outermost such block's own output
	// (compiler.deferredInclude)
	deferred []byte
	// autoescape is how the code running now escapes what it prints:
	// Jinja2 decides it where the code is compiled (the Env's setting,
	// changed by an enclosing autoescape tag with a constant value), or,
	// in code under an autoescape tag whose value is known only at render
	// time (escVolatile), from the render's eval context at the time.
	// Macros, call blocks, blocks and templates set it as they start
	// (enterCode).
	escVolatile bool
	// inh is the template context running now (an include or an import
	// makes one, a macro runs in its template's), and evalAuto its eval
	// context's autoescape (context.eval_ctx.autoescape, which filters,
	// set blocks and macro calls read); suspended holds the contexts a
	// switch left, with theirs. A context neither running nor suspended
	// has finished, its autoescape tags undone: it has the Env's. Nothing
	// here is written into the contexts, which a module shares between
	// renders. Between renders inh is &rootInh, the context the next
	// render's outermost template runs in, with the Env's autoescape: its
	// entering (enterCode) switches nothing.
	inh       *inheritance
	evalAuto  bool
	suspended []suspendedCtx

	// Reused from render to render (Env.getCtx): the outermost template's
	// context and frame, the loop variables' states, what includes run
	// in, and the namespace() objects (with the room their items took).
	rootTC    tctx
	rootInh   inheritance
	rootFrame frame
	rootUsed  bool
	// keepsBound: rootTC keeps its layout, values, binding and
	// inheritance, and ctx its context.Context, between renders (a
	// Renderer's context: what they point to is the Renderer's owner's
	// or the template's).
	keepsBound bool
	// boundProg is the program whose free names' slots in rootFrame
	// hold what its last render in a Renderer's context bound
	// (boundRootFrame), or nil when rootFrame's slots are clear.
	boundProg *program
	loops     kept[loopObj]
	filters   kept[loopFilter]
	argStack  []Value // pushArgs
	includes  kept[includeRun]
	spaces    kept[namespace]
	stack     []stackFrame
	stackTop  int
	stackHigh int // the frames of stack a render used, for putCtx
	// pairVals, pairTuples: the room of the (key, value) tuples of
	// d.items() that a loop's body never sees whole (pushPairs)
	pairVals   []Value
	pairTuples []List
}

// Env returns the environment of the render.
func (c *Ctx) Env() *Env { return c.env }

// Autoescape reports whether the render's eval context autoescapes at
// this point (Jinja2's context.eval_ctx.autoescape, which filters
// decorated with pass_eval_context read): the Env's setting, changed by
// the autoescape tags running.
func (c *Ctx) Autoescape() bool { return c.evalAuto }

// suspendedCtx is a template context left for another, and its eval
// context's autoescape then.
type suspendedCtx struct {
	inh      *inheritance
	evalAuto bool
}

// escState is what a macro, block or template changes of the escaping
// as it starts (Ctx.enterCode), for restoring it after. Its flags are
// one byte: a struct of more than four fields is kept in memory rather
// than registers, and this one, written a byte at a time and read whole
// as enterCode returned it, stalled every call on the store it had just
// made.
type escState struct {
	inh   *inheritance
	flags escFlags
}

// escFlags are the Ctx's autoescape, escVolatile and evalAuto that
// enterCode saved, and whether it switched the template context.
type escFlags uint8

const (
	savedOn escFlags = 1 << iota
	savedVolatile
	savedEvalAuto
	savedSwitched
)

// enterCode sets the escaping of code compiled with autoescape on (or,
// volatile, decided at render time) running in the template context inh
// (nil: the one running), and returns what to restore after.
func (c *Ctx) enterCode(on, volatile bool, inh *inheritance) escState {
	var flags escFlags
	if c.autoescape {
		flags |= savedOn
	}
	if c.escVolatile {
		flags |= savedVolatile
	}
	if c.evalAuto {
		flags |= savedEvalAuto
	}
	saved := c.inh
	if inh != nil && inh != saved {
		c.suspended = append(c.suspended, suspendedCtx{saved, c.evalAuto})
		flags |= savedSwitched
		c.inh, c.evalAuto = inh, c.env.autoescape
		for i := len(c.suspended) - 1; i >= 0; i-- {
			if c.suspended[i].inh == inh {
				c.evalAuto = c.suspended[i].evalAuto
				break
			}
		}
	}
	if volatile {
		on = c.evalAuto
	}
	c.autoescape, c.escVolatile = on, volatile
	return escState{inh: saved, flags: flags}
}

func (c *Ctx) leaveCode(s escState) {
	if s.flags&savedSwitched != 0 {
		c.suspended = c.suspended[:len(c.suspended)-1]
	}
	c.autoescape, c.escVolatile, c.evalAuto = s.flags&savedOn != 0, s.flags&savedVolatile != 0, s.flags&savedEvalAuto != 0
	if c.inh != s.inh {
		c.inh = s.inh
	}
}

// Grow accounts for a string or list the template is about to build of
// size n (bytes or items): an error when it passes the Size limit, or the
// render's context is done.
func (c *Ctx) Grow(n int) error {
	if l := c.env.limits.Size; l > 0 && n > l {
		return limitErr("a string or list of " + istr(n) + " passes the size limit of " + istr(l))
	}
	return c.done()
}

// Call calls a callable value.
func (c *Ctx) Call(fn Value, args []Value, kw []Kwarg) (Value, error) {
	switch fn.kind {
	case KindFunc:
		return fn.ref.(*Func).call(c, args, kw)
	case KindObject:
		if oc, ok := fn.ref.(objectCaller); ok {
			return oc.CallValue(c, args, kw)
		}
	case KindUndefined:
		return Value{}, fn.undefErr()
	}
	return Value{}, &Error{Kind: "TypeError", Msg: pyQuote(TypeName(fn)) + " object is not callable"}
}

// Filter applies the filter called name, as {{ v|name(args) }} would.
func (c *Ctx) Filter(name string, v Value, args []Value, kw []Kwarg) (Value, error) {
	f := c.env.filter(name)
	if f == nil {
		return Value{}, &Error{Kind: "TemplateRuntimeError", Msg: "No filter named " + pyQuote(name) + "."}
	}
	return f(c, v, args, kw)
}

// Test applies the test called name, as {{ v is name(args) }} would.
func (c *Ctx) Test(name string, v Value, args []Value, kw []Kwarg) (bool, error) {
	t := c.env.test(name)
	if t == nil {
		return false, &Error{Kind: "TemplateRuntimeError", Msg: "No test named " + pyQuote(name) + "."}
	}
	return t(c, v, args, kw)
}

// Error is what Parse and Render return: a Python exception of Jinja2's
// (Kind: "TemplateSyntaxError", "UndefinedError", "TypeError",
// "ValueError", "ZeroDivisionError", "OverflowError", "SecurityError",
// "TemplateNotFound", "TemplateRuntimeError", "TemplateAssertionError",
// "KeyError", "IndexError", "AttributeError", "RecursionError",
// "LimitError", "Unsupported"; "SyntaxError" where Python's compiler
// refuses the code Jinja2 generated) at a place in a template.
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
func htmlEscape(s string) string { return htmlEscapeStr(s) }
