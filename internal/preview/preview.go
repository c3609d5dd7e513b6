// Package preview is the page behind `rolemark serve DIR`: a local preview of
// a prompt directory for the people who write its templates. It lists the
// directory's templates; for one it shows a form built from the template's
// declared inputs (defaults filled in), a history box and the rendered result
// — the messages as a chat, as OpenAI and Anthropic JSON, as markup and as
// the prompt string of a chosen chat format with its special tokens marked —
// or the errors, with the template's source line marked; beside them, what
// engine.Template.Check finds without data; and the template's saved test
// cases (cases.File), which Run cases runs with rolemark test's runner
// (internal/caserun), each marked pass or fail, a failure with its diff; the
// index runs every cases file of the directory. Made with WriteCases
// (rolemark serve --write-cases), a page that rendered offers Save as case,
// which keeps the form's inputs and history with the messages as a new case
// in the template's cases file. The page reloads itself when a file in the
// directory changes. It walks the directory as rolemark test does
// (caserun.Walk: no hidden directory, no node_modules).
//
// Prompt content is untrusted: every value the page shows is escaped by
// html/template, and the page's Content-Security-Policy allows only its own
// script and style files, so a value can never run a script. The server reads
// only inside the directory (symbolic links that lead out of it are refused)
// and by default writes no file: running cases records nothing. With
// WriteCases it writes one kind of file, a cases file inside the directory,
// through cases.Add (cases.File.Save, rolemark test --update's
// writer), from a POST that only the page itself can send (JSON, no other
// Origin, at most 16 MiB, as a Run); a cases file that is a symbolic link,
// or reached through one that leads out of the directory, is refused.
package preview

import (
	"bytes"
	"cmp"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"maps"
	"net"
	"net/http"
	"net/url"

	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing/fstest"
	"time"
	"unicode/utf8"

	"github.com/rolemark/rolemark/chat"
	chatformat "github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/cases"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/engine/schema"
	"github.com/rolemark/rolemark/internal/caserun"
	"github.com/rolemark/rolemark/internal/jsondata"
	"github.com/rolemark/rolemark/internal/promptcheck"
	"github.com/rolemark/rolemark/internal/textpos"
	"github.com/rolemark/rolemark/internal/unclosed"
	"github.com/rolemark/rolemark/roleparse"
	tokcount "github.com/rolemark/rolemark/tokens"
)

//go:embed assets
var assets embed.FS

// Option configures a Server.
type Option func(*settings)

type settings struct {
	poll      time.Duration
	localOnly bool
	format    string
	templates map[string]*chattemplate.Template
	targets   []Target
	client    *http.Client
	// tk counts the tokens the page shows; chatCount says it is one of
	// OpenAI's encodings, whose per-message overhead tokens.CountChat
	// knows, so that the messages are counted too.
	tk        *tokcount.Tokenizer
	chatCount bool
	// renderTimeout bounds one rendering of the page or of a run's prompt.
	renderTimeout time.Duration
	// caseFormat and caseCheck run the formats of saved cases
	// (CaseFormats).
	caseFormat caserun.Formatter
	caseCheck  func(string) error
	// writeCases lets the page save cases (WriteCases).
	writeCases bool
	// runOff is why Run is off though targets were set (RunOff).
	runOff string
}

// knownFormat reports whether name is a preset or a template given with
// ChatTemplate.
func (s *settings) knownFormat(name string) bool {
	if _, ok := s.templates[name]; ok {
		return true
	}
	_, ok := chatformat.Lookup(name)
	return ok
}

// RenderTimeout bounds each rendering the server does for a page or a run
// (default 10s): a template that runs longer ends with the context's
// error on the page, and the server goes on serving.
func RenderTimeout(d time.Duration) Option { return func(s *settings) { s.renderTimeout = d } }

// PollEvery sets how often the page asks whether a file changed (default
// 500ms).
func PollEvery(d time.Duration) Option { return func(s *settings) { s.poll = d } }

// LocalOnly makes the server answer only requests addressed to a loopback
// host (localhost, 127.0.0.1, ::1), so that a web page elsewhere cannot
// reach it through a DNS name that resolves to 127.0.0.1.
func LocalOnly() Option { return func(s *settings) { s.localOnly = true } }

// DefaultFormat sets the chat format the prompt-string view starts with
// (default chatml).
func DefaultFormat(name string) Option { return func(s *settings) { s.format = name } }

// ChatTemplate adds a model's own chat template to the chat formats the
// prompt-string view offers, under name (rolemark serve uses "hf:FILE").
func ChatTemplate(name string, t *chattemplate.Template) Option {
	return func(s *settings) {
		if s.templates == nil {
			s.templates = map[string]*chattemplate.Template{}
		}
		s.templates[name] = t
	}
}

// Tokenizer makes the page show token counts made with t: of the prompt
// string of the chosen chat format and, when chat is true (t is one of
// OpenAI's encodings), of the messages with OpenAI's per-message overhead
// (tokens.CountChat), each message's and the total, as `rolemark render
// --count` counts them.
func Tokenizer(t *tokcount.Tokenizer, chat bool) Option {
	return func(s *settings) { s.tk, s.chatCount = t, chat && t != nil }
}

// Server serves the preview of one directory. It is an http.Handler and is
// safe for concurrent use.
type Server struct {
	dir   string
	fsys  fs.FS
	set   *engine.Set
	cfg   settings
	pages *template.Template
	mux   *http.ServeMux
	// saving is held while a case is saved, so that two saves of one
	// name cannot both find it free.
	saving sync.Mutex
}

// New returns a Server for the templates under dir, parsed with set.
func New(dir string, set *engine.Set, opts ...Option) (*Server, error) {
	fsys, err := newDirFS(dir)
	if err != nil {
		return nil, err
	}
	cfg := settings{poll: 500 * time.Millisecond, format: "chatml", renderTimeout: 10 * time.Second}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.runOff != "" {
		cfg.targets = nil
	}
	if !cfg.knownFormat(cfg.format) {
		return nil, fmt.Errorf("unknown chat format %q", cfg.format)
	}
	pages, err := template.New("page.html").Funcs(template.FuncMap{"urlpath": urlPath}).ParseFS(assets, "assets/page.html")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, fsys: fsys, set: set, cfg: cfg, pages: pages, mux: http.NewServeMux()}
	static, _ := fs.Sub(assets, "assets")
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.mux.HandleFunc("GET /version", s.serveVersion)
	s.mux.HandleFunc("GET /t/{path...}", s.serveTemplate)
	s.mux.HandleFunc("POST /run/{path...}", s.serveRun)
	if cfg.writeCases {
		s.mux.HandleFunc("POST /case/{path...}", s.serveSaveCase)
	}
	s.mux.HandleFunc("GET /{$}", s.serveIndex)
	return s, nil
}

// ServeHTTP serves the page, its assets and the change fingerprint.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if s.cfg.localOnly && !loopbackHost(r.Host) {
		http.Error(w, "rolemark serve answers requests to localhost only", http.StatusForbidden)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: https: http:; "+
		"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	s.mux.ServeHTTP(w, r)
}

// urlPath escapes each segment of a path in the directory for a URL's
// path: a template named "a #1?.hbs" links to /t/a%20%231%3F.hbs, where
// html/template would leave # and ? to end the path.
func urlPath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// loopbackHost reports whether an HTTP Host names this machine's loopback.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (s *Server) serveVersion(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprint(w, version(s.fsys))
}

// entry is one file of the directory listing.
type entry struct {
	Path    string
	Partial bool
}

// list returns the directory's templates and partials, sorted by path,
// outside the directories rolemark test skips (.git, node_modules).
func (s *Server) list() ([]entry, error) {
	var out []entry
	err := walkFiles(s.fsys, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if s.set.IsTemplate(p) {
			out = append(out, entry{Path: p, Partial: driver.IsPartialFile(d.Name())})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
}

// page is what assets/page.html shows.
type page struct {
	Dir       string
	Version   string
	PollMS    int64
	Templates []entry
	ListErr   string

	Current   string // the template shown, or empty on the index
	Engine    string
	Described string
	Fields    []field
	Vars      string
	History   string
	Format    string
	Formats   []string

	Run runView

	BFormat string // the chat format of the side-by-side's B column
	BVars   string // the side-by-side's B inputs, a JSON object over the form's
	Compare *compareView

	Waiting    string // what to fill in before the first render
	Errors     []problem
	Checks     []problem // what engine.Template.Check finds, less what Errors shows
	Rendered   bool
	Messages   []message
	OpenAI     string
	OpenAINote string // why the OpenAI view holds less than the whole request
	Anthropic  string
	AnthNote   string
	AnthErr    string
	Markup     string
	Prompt     []segment
	PromptErr  string

	// Tokens is the counts the page shows, nil without a tokenizer.
	Tokens *tokenView

	// Cases are the template's saved test cases, run when the page asks
	// (cases=run); CasesFile is the file beside the template that holds
	// them (or would), where Save as case adds one.
	Cases     []casesView
	CasesFile string
	// CasesRun says the page was asked to run the cases: the form keeps
	// asking, so that a render with its values runs them again.
	CasesRun bool
	// WriteCases says Save as case is offered (WriteCases); it saves to
	// CasesFile.
	WriteCases bool
	// AllCases are the directory's cases, on the index.
	AllCases *dirCases
}

// tokenView is what the page shows of the token counts: the tokenizer's
// name; the messages as OpenAI counts them (Messages), when the tokenizer
// is OpenAI's; the prompt string's count (Prompt), when it rendered.
type tokenView struct {
	Name     string
	Chat     bool
	Messages int
	// Uncounted says some message holds images, audio or files, which
	// OpenAI prices apart from the tokenizer and the count leaves out.
	Uncounted bool
	Prompt    int
}

func (s *Server) basePage() page {
	p := page{Dir: s.dir, Version: version(s.fsys), PollMS: s.cfg.poll.Milliseconds(), Formats: append(slices.Sorted(maps.Keys(s.cfg.templates)), chatformat.Names()...)}
	list, err := s.list()
	p.Templates = list
	if err != nil {
		p.ListErr = err.Error()
	}
	return p
}

func (s *Server) serveIndex(w http.ResponseWriter, r *http.Request) {
	p := s.basePage()
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.renderTimeout)
	p.AllCases = s.allCases(ctx, r.URL.Query().Get("cases") == "run")
	cancel()
	s.write(w, p)
}

func (s *Server) write(w http.ResponseWriter, p page) {
	var buf bytes.Buffer
	if err := s.pages.ExecuteTemplate(&buf, "page", p); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = buf.WriteTo(w)
}

func (s *Server) serveTemplate(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("path")
	if !fs.ValidPath(name) || !s.set.IsTemplate(name) {
		http.NotFound(w, r)
		return
	}
	if _, err := fs.Stat(s.fsys, name); err != nil {
		http.NotFound(w, r)
		return
	}
	p := s.basePage()
	p.Current = name
	q := r.URL.Query()
	p.Format = cmp.Or(q.Get("format"), s.cfg.format)
	if !s.cfg.knownFormat(p.Format) {
		p.Format = s.cfg.format
	}
	p.Vars, p.History = q.Get("vars"), q.Get("history")
	p.BVars = q.Get("bvars")
	if b := q.Get("bformat"); s.cfg.knownFormat(b) {
		p.BFormat = b
	}
	s.render(r.Context(), &p, q.Has("go"), q.Get)
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.renderTimeout)
	p.CasesRun = q.Get("cases") == "run"
	p.Cases = s.cases(ctx, name, p.CasesRun)
	cancel()
	p.CasesFile = cases.FileFor(s.set, s.fsys, withoutVariant(name))
	p.WriteCases = s.cfg.writeCases
	s.write(w, p)
}

// render parses the template, builds its form and renders it with the
// form's values, filling p. submitted says whether the values come from
// the form (get) or are the declared defaults.
func (s *Server) render(ctx context.Context, p *page, submitted bool, get func(string) string) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.renderTimeout)
	defer cancel()
	r, ok := s.messages(ctx, p, submitted, get)
	if r.tpl != nil {
		defer s.check(ctx, p, r.tpl)
	}
	if !ok {
		return
	}
	msgs, fm := r.msgs, r.tpl.FrontMatter()
	p.Rendered = true
	p.Messages = chatView(msgs, r.history)
	settings := fm.Settings()
	p.OpenAI, p.OpenAINote = requestView("openai", msgs, settings)
	p.Anthropic, p.AnthNote = requestView("anthropic", msgs, settings)
	if p.Anthropic == "" {
		p.AnthErr, p.AnthNote = p.AnthNote, ""
	}
	if m, err := roleparse.Marshal(msgs); err != nil {
		p.Markup = "error: " + err.Error()
	} else {
		p.Markup = m
	}
	var promptTokens int
	p.Prompt, promptTokens, p.PromptErr = s.promptString(ctx, p.Format, msgs, settings.Tools)
	if tk := s.cfg.tk; tk != nil {
		p.Tokens = &tokenView{Name: tk.Name(), Chat: s.cfg.chatCount, Prompt: promptTokens}
		if s.cfg.chatCount {
			for i, m := range msgs {
				p.Messages[i].Tokens = tokcount.CountMessage(tk, m)
				for _, part := range m.Content {
					p.Tokens.Uncounted = p.Tokens.Uncounted || part.Type != chat.PartText
				}
			}
			p.Tokens.Messages = tokcount.CountChat(tk, msgs)
		}
	}
	if p.BFormat != "" || strings.TrimSpace(p.BVars) != "" {
		p.Compare = s.compare(ctx, p, r)
	}
}

// requestView returns the request the front matter declares for target
// ("openai" or "anthropic"), as JSON to show. When the request cannot be
// built (no model declared, or a setting the target cannot carry), it is
// the messages alone, and note says why.
func requestView(target string, msgs []chat.Message, settings chat.Settings) (view, note string) {
	var body []byte
	var err error
	if settings.Model == "" {
		err = errors.New("the front matter declares no model (model:)")
	} else if target == "openai" {
		body, err = chat.OpenAIBody(msgs, settings)
	} else {
		body, err = chat.AnthropicBody(msgs, settings)
	}
	if err == nil {
		var b bytes.Buffer
		if json.Indent(&b, body, "", "  ") == nil {
			return b.String() + "\n", ""
		}
		return string(body), ""
	}
	note = err.Error() + ": the messages alone."
	if target == "openai" {
		return jsonText(orEmpty(msgs)), note
	}
	a, aerr := chat.ToAnthropic(msgs)
	if aerr != nil {
		return "", aerr.Error()
	}
	return jsonText(a), note
}

// compare renders the side-by-side: the form's rendering (A) against the
// same template in format B, or with inputs B over the form's. Two
// formats compare their prompt strings; two input sets alone compare the
// messages, as markup.
func (s *Server) compare(ctx context.Context, p *page, r rendering) *compareView {
	fm := r.tpl.FrontMatter()
	var tools []chat.Tool
	if fm != nil {
		tools = fm.Tools
	}
	v := &compareView{A: "the form's inputs", B: "the form's inputs"}
	msgsB := r.msgs
	if strings.TrimSpace(p.BVars) != "" {
		v.B = "inputs B"
		vars, err := values(p.Fields, p.Vars)
		if err == nil {
			var over map[string]any
			if err = jsondata.Unmarshal([]byte(p.BVars), &over); err != nil || over == nil {
				err = fmt.Errorf("inputs B: %s is not a JSON object", strings.TrimSpace(p.BVars))
			}
			maps.Copy(vars, over)
		}
		if err != nil {
			v.Err = err.Error()
			return v
		}
		var opts []engine.RenderOption
		if r.history != nil {
			opts = append(opts, engine.History(r.history))
		}
		if msgsB, err = r.tpl.Messages(ctx, vars, opts...); err != nil {
			v.Err = "inputs B: " + err.Error()
			return v
		}
	}
	var a, b string
	if p.BFormat == "" {
		var errA, errB error
		a, errA = roleparse.Marshal(r.msgs)
		b, errB = roleparse.Marshal(msgsB)
		if err := cmp.Or(errA, errB); err != nil {
			v.Err = err.Error()
			return v
		}
		v.A, v.B = "markup, "+v.A, "markup, "+v.B
		if s.cfg.chatCount {
			v.Tokens = &compareTokens{Name: s.cfg.tk.Name(), Messages: true,
				A: tokcount.CountChat(s.cfg.tk, r.msgs), B: tokcount.CountChat(s.cfg.tk, msgsB)}
		}
	} else {
		var err error
		if a, _, err = s.promptText(ctx, p.Format, r.msgs, tools); err != nil {
			v.Err = p.Format + ": " + err.Error()
			return v
		}
		if b, _, err = s.promptText(ctx, p.BFormat, msgsB, tools); err != nil {
			v.Err = p.BFormat + ": " + err.Error()
			return v
		}
		v.A, v.B = p.Format+", "+v.A, p.BFormat+", "+v.B
		if tk := s.cfg.tk; tk != nil {
			v.Tokens = &compareTokens{Name: tk.Name(), A: tk.Count(a), B: tk.Count(b)}
		}
	}
	v.Rows = sideBySide(strings.TrimSuffix(a, "\n"), strings.TrimSuffix(b, "\n"))
	for _, row := range v.Rows {
		if row.Kind != "same" {
			v.Count++
		}
	}
	v.Same = v.Count == 0
	return v
}

// promptString renders msgs in the chat format named, marking its special
// tokens, and counts its tokens with the page's tokenizer (special tokens
// read as such, as render --count reads them).
func (s *Server) promptString(ctx context.Context, format string, msgs []chat.Message, tools []chat.Tool) ([]segment, int, string) {
	str, special, err := s.promptText(ctx, format, msgs, tools)
	if err != nil {
		return nil, 0, err.Error()
	}
	n := 0
	if s.cfg.tk != nil {
		n = s.cfg.tk.Count(str)
	}
	return tokens(str, special), n, ""
}

// promptText renders msgs in the chat format named, with the generation
// prompt, and returns the format's special tokens beside.
func (s *Server) promptText(ctx context.Context, format string, msgs []chat.Message, tools []chat.Tool) (string, []string, error) {
	copts := []chatformat.Option{chatformat.GenerationPrompt(), chatformat.Tools(tools...)}
	if t, ok := s.cfg.templates[format]; ok {
		str, err := t.Render(ctx, msgs, copts...)
		return str, t.SpecialTokens(), err
	}
	f, _ := chatformat.Lookup(format)
	str, err := f.Render(msgs, copts...)
	return str, []string{f.BOS, f.EOS}, err
}

// check adds what engine.Template.Check finds without data to p, beside
// what this render shows: a misspelled name in a branch it did not take,
// say.
func (s *Server) check(ctx context.Context, p *page, tpl *engine.Template) {
	err := tpl.Check(ctx)
	if err == nil {
		return
	}
	shown := map[string]bool{}
	for _, e := range p.Errors {
		shown[e.Msg] = true
	}
	for _, c := range s.problems(err, tpl.EngineName()) {
		if !shown[c.Msg] {
			p.Checks = append(p.Checks, c)
		}
	}
}

// rendering is a template rendered with the form's values.
type rendering struct {
	tpl     *engine.Template
	vars    map[string]any // the inputs it rendered with
	msgs    []chat.Message
	history []chat.Message
}

// messages parses the template named by p.Current, builds its form into p
// and renders it with the form's values. ok is false when there is nothing
// to show: p.Errors or p.Waiting says why. The template is returned when it
// parsed, even when the render failed.
func (s *Server) messages(ctx context.Context, p *page, submitted bool, get func(string) string) (r rendering, ok bool) {
	tpl, err := s.set.ParseFS(s.fsys, p.Current, engine.PartialRoot("."))
	if err != nil {
		// Keep the form: its fields come from the front matter, which
		// may well be fine.
		p.Run = s.runView("", nil)
		eng := ""
		if head := s.frontMatterOnly(p.Current); head != nil {
			eng = head.EngineName()
			p.Engine = eng
			if fm := head.FrontMatter(); fm != nil {
				p.Described = fm.Description
				p.Run = s.runView(fm.Model, fm.Config)
				p.Fields = fields(fm, submitted, get)
			}
		} else if e, err := s.set.EngineFor(p.Current); err == nil {
			eng = e.Name()
			p.Engine = eng
		}
		p.Errors = s.problems(err, eng)
		return r, false
	}
	r.tpl = tpl
	p.Engine = tpl.EngineName()
	fm := tpl.FrontMatter()
	if fm != nil {
		p.Described = fm.Description
		p.Run = s.runView(fm.Model, fm.Config)
	} else {
		p.Run = s.runView("", nil)
	}
	p.Fields = fields(fm, submitted, get)
	if !submitted {
		var empty []string
		for _, f := range p.Fields {
			if f.Required && f.Value == "" {
				empty = append(empty, f.Name)
			}
		}
		if len(empty) > 0 {
			p.Waiting = "Fill in " + strings.Join(empty, ", ") + " and press Render."
			return r, false
		}
	}
	vars, err := values(p.Fields, p.Vars)
	if err != nil {
		p.Errors = []problem{{Msg: err.Error()}}
		return r, false
	}
	var opts []engine.RenderOption
	if strings.TrimSpace(p.History) != "" {
		if err := json.Unmarshal([]byte(p.History), &r.history); err != nil {
			p.Errors = []problem{{Msg: "history: " + err.Error() + " (an OpenAI messages array is expected)"}}
			return r, false
		}
		opts = append(opts, engine.History(r.history))
	}
	r.vars = vars
	r.msgs, err = tpl.Messages(ctx, vars, opts...)
	if err != nil {
		p.Errors = s.problems(err, tpl.EngineName())
		return r, false
	}
	return r, true
}

func orEmpty(msgs []chat.Message) []chat.Message {
	if msgs == nil {
		return []chat.Message{}
	}
	return msgs
}

func jsonText(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "error: " + err.Error()
	}
	return b.String()
}

// field is one input of the form.
type field struct {
	Name        string
	Type        string // the schema's type word, empty for any
	Description string
	Required    bool
	Defaulted   bool // the front matter gives the input a default
	Enum        []string
	Value       string
	// Input is the control: "select" (an enum), "checkbox" (a boolean),
	// "number", "textarea" (objects, arrays and long text) or "text".
	Input    string
	Step     string // a number's step: "1" for integers, "any" else
	Skeleton string // the JSON shape of an object or array, indented
}

// fields builds the form from the declared input schema: a field per
// declared variable, holding the submitted value or the default.
func fields(fm *engine.FrontMatter, submitted bool, get func(string) string) []field {
	if fm == nil || fm.Input == nil {
		return nil
	}
	var out []field
	required := map[string]bool{}
	for _, n := range fm.Input.Required {
		required[n] = true
	}
	for _, name := range fm.Input.Order {
		sc := fm.Input.Properties[name]
		f := field{Name: name, Type: sc.Type, Description: sc.Description, Required: required[name]}
		_, f.Defaulted = fm.Defaults[name]
		for _, e := range sc.Enum {
			f.Enum = append(f.Enum, fmt.Sprint(e))
		}
		if submitted {
			f.Value = get("v." + name)
		} else if d, ok := fm.Defaults[name]; ok {
			f.Value = formValue(sc.Type, d)
		}
		switch {
		case len(f.Enum) > 0:
			f.Input = "select"
		case sc.Type == "boolean":
			f.Input = "checkbox"
		case sc.Type == "number" || sc.Type == "integer":
			f.Input, f.Step = "number", "any"
			if sc.Type == "integer" {
				f.Step = "1"
			}
		case sc.Type == "array" || sc.Type == "object":
			f.Input = "textarea"
			f.Skeleton = skeleton(sc)
			if f.Value == "" && !submitted && f.Required {
				f.Value = f.Skeleton
			}
		case strings.Contains(f.Value, "\n") || len(f.Value) > 60:
			f.Input = "textarea"
		default:
			f.Input = "text"
		}
		out = append(out, f)
	}
	return out
}

// skeleton returns the JSON shape of a schema, indented, as a starting
// value: "" for a string, 0 for a number, false for a boolean, the first
// choice of an enum, an array of one item's shape, an object of its
// properties' shapes in the order written.
func skeleton(sc *schema.Schema) string {
	var out bytes.Buffer
	b := appendSkeleton(nil, sc, 0)
	if json.Indent(&out, b, "", "  ") != nil {
		return string(b)
	}
	return out.String()
}

func appendSkeleton(b []byte, sc *schema.Schema, depth int) []byte {
	if sc == nil || depth > 8 {
		return append(b, "null"...)
	}
	if len(sc.Enum) > 0 {
		if v, err := json.Marshal(sc.Enum[0]); err == nil {
			return append(b, v...)
		}
	}
	switch sc.Type {
	case "string":
		return append(b, `""`...)
	case "number", "integer":
		return append(b, '0')
	case "boolean":
		return append(b, "false"...)
	case "array":
		b = append(b, '[')
		if sc.Items != nil {
			b = appendSkeleton(b, sc.Items, depth+1)
		}
		return append(b, ']')
	case "object":
		b = append(b, '{')
		for i, name := range sc.Order {
			if i > 0 {
				b = append(b, ',')
			}
			k, _ := json.Marshal(name)
			b = append(append(b, k...), ':')
			b = appendSkeleton(b, sc.Properties[name], depth+1)
		}
		return append(b, '}')
	}
	return append(b, "null"...)
}

// formValue writes a default as the form shows it: a string as it is,
// anything else as JSON.
func formValue(typ string, v any) string {
	if s, ok := v.(string); ok && (typ == "string" || typ == "") {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// values turns the form into the template's variables: a field of type
// string (or of no declared type) is taken as written, any other as JSON; an
// empty field that is not a string is left out, so that its default
// applies. extra is a JSON object of further variables (null: none).
func values(fs []field, extra string) (map[string]any, error) {
	vars := map[string]any{}
	if strings.TrimSpace(extra) != "" {
		if err := jsondata.Unmarshal([]byte(extra), &vars); err != nil {
			return nil, fmt.Errorf("more variables: %v (a JSON object is expected)", err)
		}
		if vars == nil {
			vars = map[string]any{}
		}
	}
	for _, f := range fs {
		switch {
		case f.Input == "select" && f.Value == "":
			// an optional choice left at (none)
		case f.Type == "string" || f.Type == "":
			// An empty box is the empty string where the input is
			// required or has a default, which the box showed; on an
			// optional input it is the input left out, as a program or
			// rolemark render that does not pass it (Jinja2's Undefined,
			// which default() replaces, not "").
			if f.Value != "" || f.Type == "string" && (f.Required || f.Defaulted) {
				vars[f.Name] = f.Value
			}
		case strings.TrimSpace(f.Value) == "":
		default:
			var v any
			if err := jsondata.Unmarshal([]byte(f.Value), &v); err != nil {
				return nil, fmt.Errorf("input %q: %q is not %s written as JSON", f.Name, f.Value, article(f.Type))
			}
			vars[f.Name] = v
		}
	}
	return vars, nil
}

func article(t string) string {
	switch t {
	case "integer", "object", "array":
		return "an " + t
	}
	return "a " + t
}

// message is one chat message as the page shows it.
type message struct {
	Role, Name, ToolCallID string
	History                bool // the message came from the history box
	Parts                  []part
	ToolCalls              []toolCall
	// Tokens is the message's count as tokens.CountMessage makes it, 0
	// when the page does not count messages.
	Tokens int
}

type toolCall struct{ ID, Name, Arguments string }

// part is one part of a message as the page shows it: Img is set for an
// image the page may show.
type part struct {
	chat.Part
	Img template.URL
}

// imageRE matches the data: URIs of the raster images a page may show
// (not SVG, which is a document).
var imageRE = regexp.MustCompile(`^data:image/(png|jpeg|gif|webp|avif|bmp);base64,[A-Za-z0-9+/=\s]*$`)

// imageURL returns the URL of an image part the page shows as an image: an
// http(s) URL or a raster data: URI. Anything else shows as text.
func imageURL(p chat.Part) template.URL {
	if p.Type != chat.PartImage {
		return ""
	}
	u := strings.TrimSpace(p.URL)
	lower := strings.ToLower(u)
	if imageRE.MatchString(u) || strings.HasPrefix(lower, "https://") || strings.HasPrefix(lower, "http://") {
		return template.URL(u)
	}
	return ""
}

func chatView(msgs, history []chat.Message) []message {
	out := make([]message, 0, len(msgs))
	from, to := historyRun(msgs, history)
	for i, m := range msgs {
		v := message{Role: string(m.Role), Name: m.Name, ToolCallID: m.ToolCallID, History: i >= from && i < to}
		for _, p := range m.Content {
			v.Parts = append(v.Parts, part{Part: p, Img: imageURL(p)})
		}
		for _, c := range m.ToolCalls {
			args := string(c.Arguments)
			var pretty bytes.Buffer
			if json.Indent(&pretty, c.Arguments, "", "  ") == nil {
				args = pretty.String()
			}
			v.ToolCalls = append(v.ToolCalls, toolCall{ID: c.ID, Name: c.Name, Arguments: args})
		}
		out = append(out, v)
	}
	return out
}

// segment is a run of a prompt string; Token marks a special token.
type segment struct {
	Text  string
	Token bool
}

// tokenRE matches the special tokens of the chat formats: <|...|>, DeepSeek's
// full-width bars, [INST]-style brackets, <s>, </s>, Gemma's turn markers.
var tokenRE = regexp.MustCompile(`<\|[^|<>\s]{1,64}\|>|<\x{FF5C}[^<>\n]{1,64}?\x{FF5C}>|\[/?[A-Z][A-Z_]{1,30}\]|</?s>|<(?:start|end)_of_turn>|<bos>|<eos>`)

// tokens splits a prompt string into text and special tokens: those tokenRE
// matches and the literals given (the format's BOS and EOS, a template's
// special tokens).
func tokens(s string, literals []string) []segment {
	var marks [][2]int
	for _, m := range tokenRE.FindAllStringIndex(s, -1) {
		marks = append(marks, [2]int{m[0], m[1]})
	}
	for _, lit := range literals {
		if lit == "" {
			continue
		}
		for i := 0; ; {
			j := strings.Index(s[i:], lit)
			if j < 0 {
				break
			}
			marks = append(marks, [2]int{i + j, i + j + len(lit)})
			i += j + len(lit)
		}
	}
	sort.Slice(marks, func(i, j int) bool { return marks[i][0] < marks[j][0] })
	var out []segment
	at := 0
	for _, m := range marks {
		if m[0] < at {
			continue // overlaps one already marked
		}
		if m[0] > at {
			out = append(out, segment{Text: s[at:m[0]]})
		}
		out = append(out, segment{Text: s[m[0]:m[1]], Token: true})
		at = m[1]
	}
	if at < len(s) {
		out = append(out, segment{Text: s[at:]})
	}
	return out
}

// problem is one error, with the lines of the template around it.
type problem struct {
	Msg    string
	File   string
	Line   int
	Col    int
	Source []srcLine
}

type srcLine struct {
	N     int
	Text  string
	Mark  bool
	Caret string // the marked line's text up to the column, blanked, then the caret goes after it
	// Pointed says the marked line has a column, so a caret shows.
	Pointed bool
}

// frontMatterOnly parses the front matter of the template name alone (with
// an empty body), or returns nil when it has none or it does not parse.
func (s *Server) frontMatterOnly(name string) *engine.Template {
	src, err := fs.ReadFile(s.fsys, name)
	if err != nil {
		return nil
	}
	end := textpos.FrontMatterEnd(string(src))
	if end == 0 {
		return nil
	}
	head := fstest.MapFS{name: &fstest.MapFile{Data: src[:end]}}
	tpl, err := s.set.ParseFS(head, name)
	if err != nil {
		return nil
	}
	return tpl
}

// problems splits err into its errors and attaches the source lines around
// each one's position. An error engineName reports at the end of the
// template is moved to the start of the construct left open (unclosed.Locate).
func (s *Server) problems(err error, engineName string) []problem {
	var out []problem
	seen := map[string]bool{}
	for _, e := range promptcheck.Flatten(err) {
		p := problem{Msg: e.Error()}
		if seen[p.Msg] {
			continue
		}
		seen[p.Msg] = true
		var ee *engine.Error
		if errors.As(e, &ee) && ee.Line > 0 && fs.ValidPath(ee.Template) {
			p.File, p.Line, p.Col = ee.Template, ee.Line, ee.Col
			if src, rerr := fs.ReadFile(s.fsys, ee.Template); rerr == nil {
				if l, c, m, ok := unclosed.Locate(engineName, string(src), ee.Err.Error(), ee.Line, ee.Col); ok {
					p.Line, p.Col = l, c
					p.Msg = fmt.Sprintf("%s:%d:%d: %s", ee.Template, l, c, m)
				}
				p.Source = excerpt(string(src), p.Line, p.Col)
			}
		}
		out = append(out, p)
	}
	return out
}

// excerpt returns the lines around line (1-based), marking it and the column.
func excerpt(src string, line, col int) []srcLine {
	lines := strings.Split(src, "\n")
	if line > len(lines) {
		return nil
	}
	from, to := max(1, line-4), min(len(lines), line+4)
	var out []srcLine
	for n := from; n <= to; n++ {
		l := srcLine{N: n, Text: strings.TrimRight(lines[n-1], "\r")}
		if n == line {
			l.Mark = true
			if col > 0 {
				l.Pointed = true
				l.Caret = blank(l.Text, col-1)
			}
		}
		out = append(out, l)
	}
	return out
}

// blank returns the first n runes of s with every rune but a tab made a
// space, so that a caret after it lines up under rune n+1.
func blank(s string, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// historyRun returns where the history messages stand in msgs, as the
// half-open range [from, to); from == to when they are not found.
func historyRun(msgs, history []chat.Message) (from, to int) {
	if len(history) == 0 || len(history) > len(msgs) {
		return 0, 0
	}
	key := func(m chat.Message) string {
		b, _ := json.Marshal(m)
		return string(b)
	}
	want := make([]string, len(history))
	for i, m := range history {
		want[i] = key(m)
	}
	got := make([]string, len(msgs))
	for i, m := range msgs {
		got[i] = key(m)
	}
	for i := 0; i+len(want) <= len(got); i++ {
		if slices.Equal(got[i:i+len(want)], want) {
			return i, i + len(want)
		}
	}
	return 0, 0
}
