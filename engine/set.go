package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/engine/schema"
	"github.com/rolemark/rolemark/internal/scratch"
	"github.com/rolemark/rolemark/internal/textpos"
	"github.com/rolemark/rolemark/roleparse"
)

// Option configures a Set.
type Option func(*settings)

type settings struct {
	allowMissing bool
	parse        []roleparse.Option
	schemas      map[string]json.RawMessage
	tools        map[string]chat.Tool
}

// Tools registers tools that front matter may name instead of defining
// them, as Dotprompt's tools option does: "tools: [get_weather]" gives
// the template the registered definition of get_weather (in
// FrontMatter.Tools and Settings). A name that is not registered is a
// front-matter error at the name. Later calls add to earlier ones; a later
// tool of the same name replaces an earlier one.
func Tools(tools ...chat.Tool) Option {
	return func(s *settings) {
		if s.tools == nil {
			s.tools = map[string]chat.Tool{}
		}
		for _, t := range tools {
			s.tools[t.Name] = t
		}
	}
}

// Schemas registers named JSON Schemas that front matter may name as a type
// (Dotprompt's Schemas option): "output: {schema: Person}" or
// "input: {schema: {owner: Person, reviewer?: Person, a description}}".
// Later calls add to earlier ones.
func Schemas(schemas map[string]json.RawMessage) Option {
	return func(s *settings) {
		if s.schemas == nil {
			s.schemas = map[string]json.RawMessage{}
		}
		for k, v := range schemas {
			s.schemas[k] = v
		}
	}
}

// AllowMissing makes variables the data lacks render as empty instead of
// failing the render. By default a missing variable is an error naming it.
func AllowMissing() Option { return func(s *settings) { s.allowMissing = true } }

// ParseOptions passes options to roleparse.Parse when a template's markup is
// turned into messages, such as extra roles or loose mode.
func ParseOptions(opts ...roleparse.Option) Option {
	return func(s *settings) { s.parse = append(s.parse, opts...) }
}

// Set holds the engines templates may be written in. Configure it before
// parsing; a Set is then safe for concurrent use.
type Set struct {
	engines []driver.Engine
	byName  map[string]driver.Engine
	byExt   map[string]driver.Engine
	cfg     settings
}

// NewSet returns a set of the given engines. Later engines win when two claim
// the same name or extension.
func NewSet(engines ...driver.Engine) *Set {
	s := &Set{byName: map[string]driver.Engine{}, byExt: map[string]driver.Engine{}}
	for _, e := range engines {
		s.engines = append(s.engines, e)
		s.byName[e.Name()] = e
		for _, ext := range e.Extensions() {
			s.byExt[strings.ToLower(ext)] = e
		}
	}
	return s
}

// Option applies options to the set and returns it. It must be called before
// the set parses templates.
func (s *Set) Option(opts ...Option) *Set {
	for _, o := range opts {
		o(&s.cfg)
	}
	return s
}

// Engines returns the set's engines sorted by name.
func (s *Set) Engines() []driver.Engine {
	out := append([]driver.Engine(nil), s.engines...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// Engine returns the engine with the given name.
func (s *Set) Engine(name string) (driver.Engine, bool) {
	e, ok := s.byName[name]
	return e, ok
}

// EngineFor returns the engine that claims the file name's extension: the
// last of the set's engines that claims it. ParseFS and LoadDir choose by
// it too when the front matter names no engine (.prompt files included).
func (s *Set) EngineFor(filename string) (driver.Engine, error) {
	e, err := s.engineForExt(filename)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filename, err)
	}
	return e, nil
}

func (s *Set) engineForExt(filename string) (driver.Engine, error) {
	ext := strings.ToLower(path.Ext(filename))
	if e, ok := s.byExt[ext]; ok {
		return e, nil
	}
	if ext == "" {
		return nil, errors.New("no file extension to choose an engine by")
	}
	return nil, fmt.Errorf("no engine for extension %q", ext)
}

// Parse compiles src, named name, with the named engine; with an empty
// engine name, with the engine its front matter names, or else the one the
// name's extension selects, as ParseFS chooses (ErrNoEngine when neither
// does). The source may start with front matter (see FrontMatter).
func (s *Set) Parse(engineName, name, src string) (*Template, error) {
	fm, body, err := s.frontMatter(name, src)
	if err != nil {
		return nil, err
	}
	if engineName == "" && fm != nil && fm.Engine != "" {
		e, err := s.engineForFile(name, fm)
		if err != nil {
			return nil, err
		}
		return s.compile(e, name, body, fm, driver.Config{Dir: ".", AllowMissing: s.cfg.allowMissing})
	}
	if engineName == "" {
		e, err := s.engineForExt(name)
		if err != nil {
			return nil, &Error{Template: name, Err: ErrNoEngine}
		}
		return s.compile(e, name, body, fm, driver.Config{Dir: ".", AllowMissing: s.cfg.allowMissing})
	}
	e, ok := s.byName[engineName]
	if !ok {
		return nil, &Error{Template: name, Err: fmt.Errorf("unknown engine %q; known: %s", engineName, strings.Join(s.engineNames(), ", "))}
	}
	return s.compile(e, name, body, fm, driver.Config{Dir: ".", AllowMissing: s.cfg.allowMissing})
}

// ParseFS reads the named file from fsys and compiles it with the engine its
// front matter names, or else the one EngineFor names for its extension
// (handlebars claims .prompt, Dotprompt's). Partials and includes resolve inside fsys.
// Partials are looked for in the file's directory only, unless PartialRoot
// says otherwise; UseEngine overrides the choice of engine.
func (s *Set) ParseFS(fsys fs.FS, name string, opts ...FileOption) (*Template, error) {
	return s.parseFile(fsys, name, opts)
}

// engineForFile picks the engine of a file: front matter first, then the
// extension.
func (s *Set) engineForFile(name string, fm *FrontMatter) (driver.Engine, error) {
	if fm != nil && fm.Engine != "" {
		e, ok := s.byName[fm.Engine]
		if !ok {
			return nil, &Error{Template: name, Line: fm.engineLine, Col: fm.engineCol,
				Err: fmt.Errorf("front matter: unknown engine %q; known: %s", fm.Engine, strings.Join(s.engineNames(), ", "))}
		}
		return e, nil
	}
	e, err := s.engineForExt(name)
	if err != nil {
		return nil, &Error{Template: name, Err: err}
	}
	return e, nil
}

func (s *Set) engineNames() []string {
	var names []string
	for _, e := range s.Engines() {
		names = append(names, e.Name())
	}
	return names
}

// frontMatter splits and parses a template's front matter, if it has one.
// A leading UTF-8 byte order mark (Windows editors write one) is the file's
// encoding, not its text: it is dropped, so that front matter after it is
// read and no U+FEFF reaches the markup.
func (s *Set) frontMatter(name, src string) (*FrontMatter, string, error) {
	src = strings.TrimPrefix(src, driver.ByteOrderMark)
	if !isDotpromptFile(name) {
		// Line endings are the file's encoding too: CRLF and CR are read
		// as LF in every engine, as Jinja2 reads them, so that the text a
		// template writes does not depend on the editor that saved it. A
		// Dotprompt file keeps them, as Dotprompt does.
		src = textpos.LF(src)
	}
	text, line, body, lead, ok := splitFrontMatter(src)
	if !ok {
		return nil, src, nil
	}
	fm, err := parseFrontMatter(name, text, line, &s.cfg)
	if err != nil {
		return nil, "", err
	}
	fm.lead = lead
	return fm, body, nil
}

func (s *Set) compile(e driver.Engine, name, src string, fm *FrontMatter, cfg driver.Config) (t *Template, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, &Error{Template: name, Err: &PanicError{Value: r}}
		}
	}()
	cfg.Parse = s.cfg.parse
	cfg.Optional = fm.optional()
	if fm != nil {
		cfg.Lead = fm.lead
	}
	if isDotpromptFile(name) {
		// Dotprompt renders an @-variable of its render context that the
		// request lacks as empty (its spec's metadata_context_variables).
		cfg.AllowMissingData = true
	}
	c, err := e.Compile(name, src, cfg)
	if err != nil {
		var ee *Error
		if !errors.As(err, &ee) {
			err = &Error{Template: name, Err: err}
		}
		return nil, err
	}
	t = &Template{name: name, engine: e, compiled: c, parse: s.cfg.parse, fm: fm, src: src, cfg: &cfg}
	t.readDialect(src)
	return t, nil
}

// Template is a compiled prompt template. It is safe for concurrent use.
type Template struct {
	name     string
	engine   driver.Engine
	compiled driver.Compiled
	parse    []roleparse.Option
	fm       *FrontMatter
	src      string         // the source after the front matter, for error positions
	cfg      *driver.Config // how it was compiled, to compile it again with markers (locate.go)
	size     atomic.Int64   // room to give the next render's buffer
	// dotprompt marks a Dotprompt file (.prompt): its messages are made as
	// Dotprompt makes them (see dotpromptMessages).
	dotprompt bool
	// trimBody: the file has front matter, after which Dotprompt trims the
	// template; trimLead is the length of the source's leading whitespace
	// (the front matter's lines among it).
	trimBody bool
	trimLead int
}

// FrontMatter returns the template's front matter, or nil when it has none.
// The caller must not modify it.
func (t *Template) FrontMatter() *FrontMatter { return t.fm }

// prepare fills declared defaults into the variables and checks them against
// the declared input schema, before any engine runs.
func (t *Template) prepare(vars map[string]any) (_ map[string]any, unsupplied []string, err error) {
	if t.fm == nil {
		return vars, nil, nil
	}
	if len(t.fm.Defaults) > 0 {
		merged := make(map[string]any, len(vars)+len(t.fm.Defaults))
		for k, v := range t.fm.Defaults {
			merged[k] = v
		}
		for k, v := range vars {
			merged[k] = v
		}
		vars = merged
	}
	// A scalar input schema (schema: string) describes an input that is not
	// a map of variables; it is recorded (InputSchema) but cannot be checked.
	if s := t.fm.Input; s != nil && (s.Type == "object" || s.Type == "") {
		vars, unsupplied = withOptional(vars, t.cfg.Optional)
		var root any = vars
		if vars == nil {
			root = map[string]any{}
		}
		var ie *schema.InputError
		if errors.As(s.Check("", root), &ie) {
			e := &Error{Template: t.name, Err: ie}
			top, _, _ := strings.Cut(ie.Name, ".")
			top, _, _ = strings.Cut(top, "[")
			if p := s.Properties[top]; p != nil {
				e.Line, e.Col = p.Line, p.Col
			}
			return nil, nil, e
		}
	}
	return vars, unsupplied, nil
}

// Name returns the template's name.
func (t *Template) Name() string { return t.name }

// EngineName returns the name of the engine the template is written in.
func (t *Template) EngineName() string { return t.engine.Name() }

// RenderOption configures one render.
type RenderOption func(*renderSettings)

type renderSettings struct {
	history []chat.Message
	data    map[string]any
	budget  *budget
}

// Data passes the render's @-variables, by name without the @: Dotprompt's
// render context, such as {"state": …, "auth": …}, read in Handlebars as
// {{@state.count}} and {{@auth.email}}. A template that reads an @-variable
// that is neither supplied nor one of the engine's own (@root, @index …)
// fails to render, naming it, unless AllowMissing is set or the template is
// a Dotprompt file (.prompt), where it renders as empty, as in Dotprompt.
func Data(data map[string]any) RenderOption {
	return func(r *renderSettings) { r.data = data }
}

// History passes prior messages to the render: {{history}} inserts them, and
// when the template does not place them Messages puts them before the last
// user message.
func History(msgs []chat.Message) RenderOption {
	return func(r *renderSettings) { r.history = msgs }
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Render renders the template and returns the markup it writes, the text
// that Messages reads messages from, for a caller that shows, logs or stores
// the markup itself. The history of History stands where the template places
// it ({{history}}); a template that does not place it gets none here (Messages
// puts it before the last user message), and HistoryBudget is ignored. Each
// line of the front matter is an empty line, so that the markup's lines are
// the file's.
func (t *Template) Render(ctx context.Context, vars map[string]any, opts ...RenderOption) (string, error) {
	buf, history, err := t.render(ctx, vars, opts)
	if err != nil {
		return "", err
	}
	defer release(buf)
	out, _, err := t.placeHistory(buf.String(), history)
	return out, err
}

// Messages renders the template and parses its markup into messages.
func (t *Template) Messages(ctx context.Context, vars map[string]any, opts ...RenderOption) ([]chat.Message, error) {
	r, rs, err := t.request(vars, opts)
	if err != nil {
		return nil, err
	}
	if rs.budget != nil {
		return t.messagesWithin(ctx, vars, opts, rs.budget, rs.history)
	}
	history := rs.history
	if me, ok := t.compiled.(driver.MessagesExecuter); ok && !t.dotprompt {
		r.Memory = scratch.From(ctx) // rolemark's batch only (internal/scratch)
		var msgs []chat.Message
		done := false
		err := t.guard(ctx, func() (err error) {
			msgs, done, err = me.ExecuteMessages(ctx, r)
			return err
		})
		if err != nil {
			return nil, err
		}
		if done {
			// The engine renders no history marker on this path.
			if len(history) > 0 {
				h, err := t.checkedHistory(history)
				if err != nil {
					return nil, err
				}
				msgs = insertHistory(msgs, h)
			}
			return msgs, nil
		}
	}
	markup, owned, err := t.markup(ctx, r)
	if err != nil {
		return nil, err
	}
	if owned != nil && (t.dotprompt || bytes.Contains(owned, []byte(driver.HistoryMarker))) {
		// Only the plain path parses the bytes in place; the others read
		// (and rewrite) the markup as a string.
		markup, owned = string(owned), nil
	}
	unplaced := markup
	markup, placed, err := t.placeHistory(markup, history)
	if err != nil {
		return nil, err
	}
	if t.dotprompt {
		return t.dotpromptMessages(ctx, r, markup, history, placed)
	}
	var msgs []chat.Message
	if owned != nil {
		msgs, err = roleparse.ParseOwned(owned, t.parse...)
		if err != nil {
			markup = string(owned) // ParseOwned leaves it as it was when it fails
		}
	} else {
		msgs, err = roleparse.Parse(markup, t.parse...)
	}
	if err != nil {
		err = t.markupErrorFor(ctx, r, history, markup, err)
		var me *markupError
		if placed && len(history) > 0 && errors.As(err, &me) && historyInside(unplaced, t.parse) && placementFault(unplaced, history, t.parse) {
			me.hint = historyInMessage
		}
		return nil, err
	}
	if len(history) > 0 && !placed {
		h, err := t.checkedHistory(history)
		if err != nil {
			return nil, err
		}
		msgs = insertHistory(msgs, h)
	}
	return msgs, nil
}

// checkedHistory returns history as the template reads it where {{history}}
// places it: written as markup and parsed with the template's options, so
// that history the template does not place is checked (a role the parser
// does not accept, a tool call outside an assistant message) and
// normalised (role aliases, case) exactly as placed history is.
func (t *Template) checkedHistory(history []chat.Message) ([]chat.Message, error) {
	msgs, err := roleparse.ReadBack(history, t.parse...)
	if err == nil {
		return msgs, nil
	}
	if _, merr := roleparse.Marshal(history); merr == nil {
		// The place in the markup written for the history means nothing
		// to the caller: name the message.
		for i := range history {
			if _, perr := roleparse.ReadBack(history[i:i+1], t.parse...); perr != nil {
				var pe *roleparse.Error
				if errors.As(perr, &pe) {
					perr = errors.New(pe.Msg)
				}
				err = fmt.Errorf("message %d: %w", i+1, perr)
				break
			}
		}
	}
	return nil, &Error{Template: t.name, Err: fmt.Errorf("history: %w", err)}
}

// placeHistory replaces every driver.HistoryMarker in the rendered markup
// with the history written as markup (followed, in a Dotprompt file, by the
// model message Dotprompt opens after the history), and reports whether
// the markup held a marker.
func (t *Template) placeHistory(markup string, history []chat.Message) (string, bool, error) {
	if !strings.Contains(markup, driver.HistoryMarker) {
		return markup, false, nil
	}
	h := ""
	if len(history) > 0 {
		var err error
		if h, err = roleparse.Marshal(history); err != nil {
			return "", false, &Error{Template: t.name, Err: fmt.Errorf("history: %w", err)}
		}
	}
	if t.dotprompt {
		h += dotpromptAfterHistory()
	}
	return strings.ReplaceAll(markup, driver.HistoryMarker, h), true, nil
}

// render checks the variables and renders the markup into a pooled buffer,
// which the caller releases. It returns the render's history too.
func (t *Template) render(ctx context.Context, vars map[string]any, opts []RenderOption) (*bytes.Buffer, []chat.Message, error) {
	r, rs, err := t.request(vars, opts)
	if err != nil {
		return nil, nil, err
	}
	history := rs.history
	buf := bufPool.Get().(*bytes.Buffer)
	if err := t.execute(ctx, buf, r); err != nil {
		release(buf)
		return nil, nil, err
	}
	return buf, history, nil
}

// markup renders the markup of request r for Messages into memory of its
// own, which the messages parsed from it may share: an engine that renders
// to a string anyway hands it over (driver.StringExecuter); otherwise the
// markup is written into a buffer sized from the last render, whose bytes
// are returned as owned (and the string empty), for roleparse.ParseOwned to
// decode in place.
func (t *Template) markup(ctx context.Context, r *driver.Request) (string, []byte, error) {
	if se, ok := t.compiled.(driver.StringExecuter); ok {
		var out string
		err := t.guard(ctx, func() (err error) {
			out, err = se.ExecuteString(ctx, r)
			return err
		})
		return out, nil, err
	}
	// A buffer of its own, sized from the last render: the messages keep
	// its memory, so it must hold no more than this render needs.
	buf := bytes.NewBuffer(make([]byte, 0, t.size.Load()))
	if err := t.execute(ctx, buf, r); err != nil {
		return "", nil, err
	}
	b := buf.Bytes()
	// The hint follows the renders, up and down, and is written only when
	// it is off by much, so that renders on many cores do not share a
	// cache line they all write.
	if n, h := int64(len(b)), t.size.Load(); n > h || h > 2*n+256 {
		t.size.Store(min(n+n/8+64, 1<<20))
	}
	if cap(b) > 2*len(b)+256 {
		b = bytes.Clone(b) // far larger than the markup: keep a copy, not the buffer
	}
	return "", b, nil
}

// request checks the variables and builds the engine's request; it
// returns the settings the options made (history, budget) beside it, so
// that a render applies its options once.
func (t *Template) request(vars map[string]any, opts []RenderOption) (*driver.Request, *renderSettings, error) {
	vars, unsupplied, err := t.prepare(vars)
	if err != nil {
		return nil, nil, err
	}
	// One allocation for the request and the settings the options write
	// (which escape to them).
	rq := &struct {
		r  driver.Request
		rs renderSettings
	}{}
	for _, o := range opts {
		o(&rq.rs)
	}
	rq.r = driver.Request{Vars: vars, Data: rq.rs.data, Unsupplied: unsupplied}
	return &rq.r, &rq.rs, nil
}

// optional returns the optional top-level inputs of the input schema
// that withOptional fills.
func (fm *FrontMatter) optional() []string {
	if fm == nil || fm.Input == nil || fm.Input.Type != "object" && fm.Input.Type != "" {
		return nil
	}
	var names []string
	for _, name := range fm.Input.Order {
		if fm.Input.Properties[name].Nullable {
			names = append(names, name)
		}
	}
	return names
}

// withOptional returns vars with every optional input (FrontMatter's
// optional, as compiled) that is not supplied set to nil, so that engines
// that report missing variables accept a template that uses it, and the
// names it set.
func withOptional(vars map[string]any, optional []string) (_ map[string]any, unsupplied []string) {
	copied := false
	for _, name := range optional {
		if _, ok := vars[name]; ok {
			continue
		}
		if !copied {
			m := make(map[string]any, len(vars)+1)
			for k, v := range vars {
				m[k] = v
			}
			vars, copied = m, true
		}
		vars[name] = nil
		unsupplied = append(unsupplied, name)
	}
	return vars, unsupplied
}

func release(buf *bytes.Buffer) {
	if buf.Cap() > 1<<20 {
		return // let a huge buffer go rather than keep it pooled
	}
	buf.Reset()
	bufPool.Put(buf)
}

// insertHistory puts history before the last user message, or at the end
// when there is none.
func insertHistory(msgs, history []chat.Message) []chat.Message {
	at := len(msgs)
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == chat.RoleUser {
			at = i
			break
		}
	}
	out := make([]chat.Message, 0, len(msgs)+len(history))
	out = append(out, msgs[:at]...)
	out = append(out, history...)
	return append(out, msgs[at:]...)
}

func (t *Template) execute(ctx context.Context, buf *bytes.Buffer, r *driver.Request) error {
	return t.guard(ctx, func() error { return t.compiled.Execute(ctx, buf, r) })
}

// guard runs one execution of the engine: it checks the context first, turns
// a panic into an error and makes every error an *Error naming the template.
func (t *Template) guard(ctx context.Context, run func() error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			err = &Error{Template: t.name, Err: &PanicError{Value: p}}
		}
	}()
	if err := run(); err != nil {
		var ee *Error
		if !errors.As(err, &ee) {
			err = &Error{Template: t.name, Err: err}
		}
		return err
	}
	return nil
}
