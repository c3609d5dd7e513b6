package jinja2

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/rolemark/rolemark/internal/pyjson"
	"io/fs"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The oracle corpus: every case of testdata/oracle/cases/*.json renders as
// Python's Jinja2 rendered it (testdata/oracle/oracle.py wrote the
// expectations), or fails where Jinja2 raised. Cases listed in
// testdata/oracle/known_failures.txt may differ; a listed case that passes
// fails the test, so the list only shrinks. -update-known rewrites the list
// from this run (for the cases this run ran).

var updateKnown = flag.Bool("update-known", false, "rewrite testdata/oracle/known_failures.txt from this run")

const (
	oracleDir       = "testdata/oracle"
	knownFailures   = oracleDir + "/known_failures.txt"
	unsupportedList = oracleDir + "/unsupported.txt"
	oracleTimeout   = 10 * time.Second
	maxReasonLength = 120
)

// oracleFile is one cases/*.json.
type oracleFile struct {
	Jinja2    string                     `json:"jinja2"`
	Templates map[string]string          `json:"templates"`
	Contexts  map[string]json.RawMessage `json:"contexts"`
	Cases     []oracleCase               `json:"cases"`

	shared caseShare
}

// caseShare is what the cases of one file share, made once: each
// context_ref's variables, decoded (each case renders a copy, as a
// template may change a list or dict it is given), each environment's
// Env, and each template parsed in it (where the case names no loader
// and no globals, which a template may change). The chat files render about
// 300 templates over 7,000 cases and read 39 MB of shared contexts.
type caseShare struct {
	mu        sync.Mutex // a render that timed out may still run
	contexts  map[string]map[string]Value
	templates map[string]parsedCase
	envs      map[string]*Env
}

type parsedCase struct {
	tpl *Template
	err error
}

// context returns the variables of doc's context ref, decoded once.
func (doc *oracleFile) context(ref string) (map[string]Value, error) {
	s := &doc.shared
	s.mu.Lock()
	defer s.mu.Unlock()
	if vars, ok := s.contexts[ref]; ok {
		return vars, nil
	}
	vars := map[string]Value{}
	if err := decodeContext(doc.Contexts[ref], vars); err != nil {
		return nil, err
	}
	if s.contexts == nil {
		s.contexts = map[string]map[string]Value{}
	}
	s.contexts[ref] = vars
	return vars, nil
}

// parse parses c's template src, named name, in c's environment: once
// for every case of doc with the same source and environment, in one Env
// for each environment, when the case has no loader and no globals.
func (doc *oracleFile) parse(c *oracleCase, name, src string) (*Template, error) {
	if c.Loader != nil || len(c.Env.Globals) > 0 {
		env, err := oracleEnvironment(c.Env, c.Loader)
		if err != nil {
			return nil, err
		}
		return env.Parse(name, src)
	}
	spec, err := json.Marshal(c.Env)
	if err != nil {
		return nil, err
	}
	key := string(spec) + "\x00" + name + "\x00" + src
	s := &doc.shared
	s.mu.Lock()
	p, ok := s.templates[key]
	env := s.envs[string(spec)]
	s.mu.Unlock()
	if ok {
		return p.tpl, p.err
	}
	if env == nil {
		if env, err = oracleEnvironment(c.Env, nil); err != nil {
			return nil, err
		}
	}
	p.tpl, p.err = env.Parse(name, src)
	s.mu.Lock()
	if s.templates == nil {
		s.templates = map[string]parsedCase{}
		s.envs = map[string]*Env{}
	}
	s.templates[key] = p
	s.envs[string(spec)] = env
	s.mu.Unlock()
	return p.tpl, p.err
}

// copyValue copies the lists and dicts in v, which a render may change.
func copyValue(v Value) Value {
	switch v.kind {
	case KindList, KindTuple:
		items := make([]Value, len(v.Items()))
		for i, it := range v.Items() {
			items[i] = copyValue(it)
		}
		v.ref = &List{Items: items}
	case KindDict:
		d := v.DictOf()
		c := NewDict(d.Len())
		for i, k := range d.keys {
			c.Set(k, copyValue(d.vals[i]))
		}
		v.ref = c
	}
	return v
}

type oracleCase struct {
	ID          string            `json:"id"`
	Template    *string           `json:"template"`
	TemplateRef string            `json:"template_ref"`
	ContextRef  string            `json:"context_ref"`
	Context     json.RawMessage   `json:"context"`
	Env         oracleEnv         `json:"env"`
	Loader      map[string]string `json:"loader"`
	Name        string            `json:"name"`
	Expect      *oracleExpect     `json:"expect"`
	// ExactMessage: an error must also carry Jinja2's message, word for
	// word (the cases where which error is raised is the point).
	ExactMessage bool `json:"exact_message"`
}

type oracleEnv struct {
	TrimBlocks          bool            `json:"trim_blocks"`
	LStripBlocks        bool            `json:"lstrip_blocks"`
	KeepTrailingNewline bool            `json:"keep_trailing_newline"`
	Autoescape          bool            `json:"autoescape"`
	Sandbox             bool            `json:"sandbox"`
	Extensions          []string        `json:"extensions"`
	Profile             string          `json:"profile"`
	Globals             json.RawMessage `json:"globals"`
	Finalize            string          `json:"finalize,omitempty"`
}

type oracleExpect struct {
	Output     *string `json:"output"`
	Error      string  `json:"error"`
	Message    string  `json:"message"`
	Line       int     `json:"line"`
	Normalized string  `json:"normalized"`
}

// outcome is what happened to one case.
type outcome int

const (
	identical outcome = iota
	errorAsExpected
	differs
	// refused: the package raised Unsupported, naming a construct it does
	// not implement, where Jinja2 printed or raised something else.
	refused
)

func TestOracle(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(oracleDir, "cases", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no case files in %s/cases: %v", oracleDir, err)
	}
	known, order, err := readKnownFailures(knownFailures)
	if err != nil {
		t.Fatal(err)
	}
	unsupported, _, err := readKnownFailures(unsupportedList)
	if err != nil {
		t.Fatal(err)
	}
	refusals := map[string]string{} // id -> the refusal, for the cases run
	type tally struct{ cases, identical, errs, known int }
	bySource := map[string]*tally{}
	var total tally
	failures := map[string]string{} // id -> reason, for the cases run
	ran := map[string]bool{}
	version := ""
	for _, path := range files {
		source := strings.TrimSuffix(filepath.Base(path), ".json")
		doc := readOracleFile(t, path)
		if version == "" {
			version = doc.Jinja2
		}
		if doc.Jinja2 == "" || doc.Jinja2 != version {
			t.Fatalf("%s: made with Jinja2 %q, the others with %q: run oracle.py", path, doc.Jinja2, version)
		}
		t.Run(source, func(t *testing.T) {
			tl := &tally{}
			bySource[source] = tl
			for i := range doc.Cases {
				c := &doc.Cases[i]
				ran[c.ID] = true
				res, reason := runOracleCase(doc, c)
				tl.cases++
				switch res {
				case identical:
					tl.identical++
				case errorAsExpected:
					tl.errs++
				case refused:
					refusals[c.ID] = reason
				default:
					failures[c.ID] = reason
				}
				_, listed := known[c.ID]
				_, listedRefusal := unsupported[c.ID]
				switch {
				case *updateKnown:
				case res == refused && !listedRefusal:
					t.Errorf("%s: %s, which is not listed in %s", c.ID, reason, unsupportedList)
				case res != refused && listedRefusal:
					t.Errorf("%s: no longer refused; remove it from %s (or run -update-known)", c.ID, unsupportedList)
				case res == refused:
				case res == differs && listed:
					tl.known++
				case res == differs:
					t.Errorf("%s: %s", c.ID, reason)
				case listed:
					t.Errorf("%s: now passes; remove it from %s (or run go test ./internal/jinja2 -run TestOracle -update-known)", c.ID, knownFailures)
				}
			}
		})
	}
	for id := range known {
		if !ran[id] && !*updateKnown && len(ran) == countCases(t, files) {
			t.Errorf("%s is listed in %s but is no case", id, knownFailures)
		}
	}
	if *updateKnown {
		for _, id := range order {
			if !ran[id] {
				failures[id] = known[id] // a case this run did not run keeps its entry
			}
		}
		if err := writeCaseList(knownFailures, knownFailuresHeader, failures); err != nil {
			t.Fatal(err)
		}
		if err := writeCaseList(unsupportedList, unsupportedHeader, refusals); err != nil {
			t.Fatal(err)
		}
	}
	names := make([]string, 0, len(bySource))
	for s := range bySource {
		names = append(names, s)
	}
	sort.Strings(names)
	var parts []string
	for _, s := range names {
		tl := bySource[s]
		total.cases += tl.cases
		total.identical += tl.identical
		total.errs += tl.errs
		total.known += tl.known
		parts = append(parts, fmt.Sprintf("%s %d/%d/%d/%d", s, tl.cases, tl.identical, tl.errs, tl.cases-tl.identical-tl.errs))
	}
	summary := fmt.Sprintf("oracle (Jinja2 %s): %d cases, %d identical, %d errors as expected, %d refused as unsupported (%s), %d known failures; by source (cases/identical/errors/other): %s",
		version, total.cases, total.identical, total.errs, len(refusals), unsupportedList, len(failures), strings.Join(parts, ", "))
	t.Log(summary)
	if os.Getenv("ROLEMARK_ORACLE_SUMMARY") != "" {
		fmt.Println(summary)
	}
}

func countCases(t *testing.T, files []string) int {
	n := 0
	for _, p := range files {
		n += len(readOracleFile(t, p).Cases)
	}
	return n
}

func readOracleFile(t *testing.T, path string) *oracleFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc oracleFile
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &doc
}

// runOracleCase renders c and says how it compares with Jinja2.
func runOracleCase(doc *oracleFile, c *oracleCase) (outcome, string) {
	if c.Expect == nil {
		return differs, "no expectation: run oracle.py"
	}
	out, err := renderOracleCase(doc, c)
	res, reason := judge(c.Expect, out, err)
	var je *Error
	if res == errorAsExpected && c.ExactMessage && errors.As(err, &je) && je.Msg != pyCompileLineRE.ReplaceAllString(c.Expect.Message, "") {
		return differs, shorten(fmt.Sprintf("raised %s: %s; Jinja2 raised %s: %s", je.Kind, je.Msg, c.Expect.Error, c.Expect.Message))
	}
	return res, reason
}

// pyCompileLineRE is the end of the message of a SyntaxError of Python's
// compiler, which names a line of the code Jinja2 generated, not of the
// template: left out of the comparison.
var pyCompileLineRE = regexp.MustCompile(` \(<[^>]*>, line [0-9]+\)$`)

// judge compares a render's result with Jinja2's.
func judge(want *oracleExpect, out string, err error) (outcome, string) {
	if want.Normalized == "address" {
		out = addressRE.ReplaceAllString(out, "0xADDR")
		out = recursionIDRE.ReplaceAllString(out, "${1}ADDR")
	}
	var pe *panicError
	if errors.As(err, &pe) {
		return differs, shorten(pe.Error())
	}
	if want.Output != nil {
		var je *Error
		if errors.As(err, &je) && je.Kind == "Unsupported" {
			return refused, shorten("refused: " + je.Msg)
		}
		if err != nil {
			return differs, shorten(fmt.Sprintf("error %v; Jinja2 printed %q", err, *want.Output))
		}
		if out != *want.Output {
			return differs, shorten(diffAt(out, *want.Output))
		}
		return identical, ""
	}
	if err == nil {
		return differs, shorten(fmt.Sprintf("printed %q; Jinja2 raised %s: %s", out, want.Error, want.Message))
	}
	var je *Error
	if errors.As(err, &je) && je.Kind == "Unsupported" && want.Error != "Unsupported" {
		return refused, shorten("refused: " + je.Msg)
	}
	if errors.As(err, &je) && je.Kind != "" && !kindMatches(je.Kind, want.Error) {
		return differs, shorten(fmt.Sprintf("raised %s: %s; Jinja2 raised %s: %s", je.Kind, je.Msg, want.Error, want.Message))
	}
	if je != nil && je.Line > 0 && want.Line > 0 && je.Line != want.Line && want.Error == "TemplateSyntaxError" {
		return differs, shorten(fmt.Sprintf("syntax error on line %d: %s; Jinja2's is on line %d: %s", je.Line, je.Msg, want.Line, want.Message))
	}
	return errorAsExpected, ""
}

// addressRE is an address as oracle.py finds it: upper-cased too (|upper),
// and after %20 (|urlencode), where no word boundary comes before it.
var addressRE = regexp.MustCompile(`(?i)0x[0-9a-f]{6,}\b`)

// recursionIDRE is the id pprint writes of a list, tuple or dict met
// again inside itself (<Recursion on list with id=…>), as oracle.py
// finds it.
var recursionIDRE = regexp.MustCompile(`(Recursion on \w+ with id=)[0-9]+`)

// kindMatches reports whether the package's error kind names Python's
// exception class (or one the package may report for it).
func kindMatches(kind, python string) bool {
	if kind == python {
		return true
	}
	switch python {
	case "SyntaxError": // Jinja2 leaves some checks to Python's compiler ('break' outside loop)
		return kind == "TemplateSyntaxError"
	case "TemplatesNotFound":
		return kind == "TemplateNotFound"
	}
	return false
}

func diffAt(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	for i > 0 && !utf8.RuneStart(want[min(i, len(want)-1)]) {
		i--
	}
	from := max(0, i-20)
	return fmt.Sprintf("differs at byte %d: got %q, Jinja2 %q", i, clip(got[from:], 60), clip(want[from:], 60))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func shorten(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || r == '\r' {
			return ' '
		}
		return r
	}, s)
	return clip(s, maxReasonLength)
}

// panicError is a panic of a render: never what Jinja2 does, even where
// Jinja2 raises.
type panicError struct{ v any }

func (e *panicError) Error() string { return fmt.Sprintf("panic: %v", e.v) }

// renderOracleCase renders c as the package renders it, in its own
// goroutine: a panic is an error and a render that does not end is one.
func renderOracleCase(doc *oracleFile, c *oracleCase) (string, error) {
	type result struct {
		out string
		err error
	}
	done := make(chan result, 1)
	ctx, cancel := context.WithTimeout(context.Background(), oracleTimeout)
	defer cancel()
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: &panicError{r}}
			}
		}()
		out, err := doc.render(ctx, c)
		done <- result{out, err}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-time.After(oracleTimeout + time.Second):
		return "", fmt.Errorf("timeout: the render did not end in %v", oracleTimeout)
	}
}

// render renders case c of doc, sharing what doc.shared keeps.
func (doc *oracleFile) render(ctx context.Context, c *oracleCase) (string, error) {
	name, src, err := caseSource(doc.Templates, c)
	if err != nil {
		return "", err
	}
	vars := map[string]Value{}
	if c.ContextRef != "" {
		shared, err := doc.context(c.ContextRef)
		if err != nil {
			return "", err
		}
		for k, v := range shared {
			vars[k] = copyValue(v)
		}
	}
	if err := decodeContext(c.Context, vars); err != nil {
		return "", err
	}
	tpl, err := doc.parse(c, name, src)
	if err != nil {
		return "", err
	}
	return tpl.Render(ctx, vars)
}

// caseSource returns the name and source of c's template.
func caseSource(templates map[string]string, c *oracleCase) (name, src string, err error) {
	switch {
	case c.Name != "":
		s, ok := c.Loader[c.Name]
		if !ok {
			return "", "", &Error{Kind: "TemplateNotFound", Name: c.Name, Msg: c.Name}
		}
		return c.Name, s, nil
	case c.TemplateRef != "":
		return "<template>", templates[c.TemplateRef], nil
	case c.Template != nil:
		return "<template>", *c.Template, nil
	}
	return "<template>", "", nil
}

// renderCaseIn renders case c in env.
func renderCaseIn(ctx context.Context, env *Env, templates map[string]string, contexts map[string]json.RawMessage, c *oracleCase) (string, error) {
	name, src, err := caseSource(templates, c)
	if err != nil {
		return "", err
	}
	vars := map[string]Value{}
	if c.ContextRef != "" {
		if err := decodeContext(contexts[c.ContextRef], vars); err != nil {
			return "", err
		}
	}
	if err := decodeContext(c.Context, vars); err != nil {
		return "", err
	}
	tpl, err := env.Parse(name, src)
	if err != nil {
		return "", err
	}
	return tpl.Render(ctx, vars)
}

// oracleEnvironment builds the Env a case's env describes.
func oracleEnvironment(spec oracleEnv, loader map[string]string) (*Env, error) {
	var opts []Option
	if spec.Profile == "hf" {
		opts = append(opts, hfProfile()...)
	} else if spec.Profile != "" {
		return nil, fmt.Errorf("unknown profile %q", spec.Profile)
	}
	if spec.TrimBlocks {
		opts = append(opts, TrimBlocks())
	}
	if spec.LStripBlocks {
		opts = append(opts, LStripBlocks())
	}
	if spec.KeepTrailingNewline {
		opts = append(opts, KeepTrailingNewline())
	}
	if spec.Autoescape {
		opts = append(opts, Autoescape(nil))
	}
	if spec.Sandbox {
		opts = append(opts, Sandbox())
	}
	if slices.Contains(spec.Extensions, "loopcontrols") {
		opts = append(opts, LoopControls())
	}
	if slices.Contains(spec.Extensions, "do") {
		opts = append(opts, DoStatement())
	}
	switch spec.Finalize {
	case "":
	case "twice":
		// oracle.py's FINALIZERS["twice"]: a str (Markup or not) twice
		opts = append(opts, WithFinalize(func(v Value) Value {
			if v.kind != KindStr {
				return v
			}
			if v.IsSafe() {
				return SafeV(v.s + v.s)
			}
			return StrV(v.s + v.s)
		}))
	case "none_empty":
		// FINALIZERS["none_empty"]: None prints as nothing
		opts = append(opts, WithFinalize(func(v Value) Value {
			if v.kind == KindNone {
				return StrV("")
			}
			return v
		}))
	default:
		return nil, fmt.Errorf("unknown finalize %q", spec.Finalize)
	}
	if len(spec.Globals) > 0 {
		g := map[string]Value{}
		if err := decodeContext(spec.Globals, g); err != nil {
			return nil, err
		}
		for k, v := range g {
			opts = append(opts, WithGlobal(k, v))
		}
	}
	if loader != nil {
		opts = append(opts, WithLoader(func(name string) (string, error) {
			if s, ok := loader[name]; ok {
				return s, nil
			}
			return "", fmt.Errorf("%w: %s", fs.ErrNotExist, name)
		}))
	}
	return New(opts...), nil
}

// hfProfile is transformers' chat-template environment
// (ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True),
// loopcontrols, {% generation %}, its tojson, raise_exception and
// strftime_now at the pinned time), as oracle.py sets it up.
func hfProfile() []Option {
	return []Option{
		Sandbox(), TrimBlocks(), LStripBlocks(), GenerationTag(), LoopControls(),
		WithAppendFilter("tojson", hfToJSON, appendHFToJSON),
		WithGlobal("raise_exception", FuncV(&Func{Name: "raise_exception", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			msg := ""
			if len(args) > 0 {
				s, err := ToStr(c, args[0])
				if err != nil {
					return Value{}, err
				}
				msg = s
			}
			return Value{}, &Error{Kind: "TemplateError", Msg: msg}
		}})),
		WithGlobal("strftime_now", FuncV(&Func{Name: "strftime_now", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			if len(args) != 1 || args[0].Kind() != KindStr {
				return Value{}, &Error{Kind: "TypeError", Msg: "strftime_now() takes a format string"}
			}
			f, err := ToStr(c, args[0])
			if err != nil {
				return Value{}, err
			}
			return StrV(strftime(f, time.Date(2024, 7, 26, 12, 34, 56, 0, time.UTC))), nil
		}})),
	}
}

// strftime is Python's datetime.strftime for the directives chat
// templates use.
func strftime(f string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 == len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'd':
			fmt.Fprintf(&b, "%02d", t.Day())
		case 'e':
			fmt.Fprintf(&b, "%2d", t.Day())
		case 'm':
			fmt.Fprintf(&b, "%02d", int(t.Month()))
		case 'Y':
			fmt.Fprintf(&b, "%d", t.Year())
		case 'y':
			fmt.Fprintf(&b, "%02d", t.Year()%100)
		case 'H':
			fmt.Fprintf(&b, "%02d", t.Hour())
		case 'I':
			fmt.Fprintf(&b, "%02d", (t.Hour()+11)%12+1)
		case 'M':
			fmt.Fprintf(&b, "%02d", t.Minute())
		case 'S':
			fmt.Fprintf(&b, "%02d", t.Second())
		case 'p':
			b.WriteString(t.Format("PM"))
		case 'b', 'h':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'j':
			fmt.Fprintf(&b, "%03d", t.YearDay())
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(f[i])
		}
	}
	return b.String()
}

// appendHFToJSON is hfToJSON's append form (as chattemplate gives one):
// without arguments, hfToJSON's str appended; with any, the filter, so
// that both paths of a print of the filter are tried.
func appendHFToJSON(c *Ctx, dst []byte, v Value, args []Value, kw []Kwarg) ([]byte, bool, error) {
	if len(args)+len(kw) > 0 {
		return dst, false, nil
	}
	r, err := hfToJSON(c, v, nil, nil)
	if err != nil {
		return dst, false, err
	}
	return append(dst, r.s...), true, nil
}

// hfToJSON is transformers' tojson filter: json.dumps(x,
// ensure_ascii=False, indent=None, separators=None, sort_keys=False).
func hfToJSON(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
	names := []string{"ensure_ascii", "indent", "separators", "sort_keys"}
	params := map[string]Value{}
	if len(args) > len(names) {
		return Value{}, &Error{Kind: "TypeError", Msg: fmt.Sprintf("tojson() takes from 1 to 5 positional arguments but %d were given", len(args)+1)}
	}
	for i, a := range args {
		params[names[i]] = a
	}
	for _, k := range kw {
		if !contains(names, k.Name) {
			return Value{}, &Error{Kind: "TypeError", Msg: fmt.Sprintf("environment.<locals>.tojson() got an unexpected keyword argument '%s'", k.Name)}
		}
		params[k.Name] = k.Value
	}
	d := pyJSON{c: c, itemSep: ", ", keySep: ": "}
	if p, ok := params["ensure_ascii"]; ok {
		d.ascii = p.Truth()
	}
	if p, ok := params["sort_keys"]; ok {
		d.sortKeys = p.Truth()
	}
	// json.dumps: JSONEncoder unpacks the separators first; encode returns
	// a str before it reads the indent; the C encoder (no indent) takes
	// str separators only
	var seps []Value
	if p, ok := params["separators"]; ok && p.Kind() != KindNone {
		items, err := Iterate(c, p)
		if err != nil {
			return Value{}, &Error{Kind: "TypeError", Msg: fmt.Sprintf("cannot unpack non-iterable %s object", TypeName(p))}
		}
		if len(items) > 2 {
			return Value{}, &Error{Kind: "ValueError", Msg: "too many values to unpack (expected 2)"}
		}
		if len(items) < 2 {
			return Value{}, &Error{Kind: "ValueError", Msg: fmt.Sprintf("not enough values to unpack (expected 2, got %d)", len(items))}
		}
		seps = items
	}
	if v.Kind() == KindStr {
		var b bytes.Buffer
		if err := d.write(&b, v, 0); err != nil {
			return Value{}, err
		}
		return StrV(b.String()), nil
	}
	if p, ok := params["indent"]; (!ok || p.Kind() == KindNone) && seps != nil {
		for i, n := range []int{1, 0} {
			if seps[n].Kind() != KindStr {
				return Value{}, &Error{Kind: "TypeError", Msg: fmt.Sprintf("make_encoder() argument %d must be str, not %s", 5+i, TypeName(seps[n]))}
			}
		}
	}
	if p, ok := params["indent"]; ok && p.Kind() != KindNone {
		switch p.Kind() {
		case KindStr:
			s, _ := ToStr(c, p)
			d.indent = &s
		case KindInt, KindBool:
			s, _ := ToStr(c, p)
			n, err := strconv.Atoi(s)
			if p.Kind() == KindBool && p.Truth() {
				n, err = 1, nil
			}
			if err != nil {
				// ' ' * indent of an int past Py_ssize_t
				return Value{}, &Error{Kind: "OverflowError", Msg: "cannot fit 'int' into an index-sized integer"}
			}
			if n > 65536 {
				// chattemplate's limit (Python: MemoryError, or a huge str)
				return Value{}, &Error{Kind: "LimitError", Msg: "tojson's indent is over 65536"}
			}
			ind := strings.Repeat(" ", max(n, 0))
			d.indent = &ind
		default:
			// ' ' * indent
			return Value{}, &Error{Kind: "TypeError", Msg: fmt.Sprintf("can't multiply sequence by non-int of type '%s'", TypeName(p))}
		}
		d.itemSep = ","
	}
	if seps != nil {
		d.itemSep, _ = ToStr(c, seps[0])
		d.keySep, _ = ToStr(c, seps[1])
	}
	var b bytes.Buffer
	if err := d.write(&b, v, 0); err != nil {
		return Value{}, err
	}
	return StrV(b.String()), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// pyJSON writes a Value as Python's json.dumps does.
type pyJSON struct {
	c               *Ctx
	ascii, sortKeys bool
	indent          *string
	itemSep, keySep string
}

func (d *pyJSON) newline(b *bytes.Buffer, level int) {
	if d.indent != nil {
		b.WriteByte('\n')
		b.WriteString(strings.Repeat(*d.indent, level))
	}
}

func (d *pyJSON) write(b *bytes.Buffer, v Value, level int) error {
	switch v.Kind() {
	case KindNone:
		b.WriteString("null")
	case KindBool:
		if v.Truth() {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case KindInt:
		s, err := ToStr(d.c, v)
		if err != nil {
			return err
		}
		b.WriteString(s)
	case KindFloat:
		switch r := Repr(v); r {
		case "inf":
			b.WriteString("Infinity")
		case "-inf":
			b.WriteString("-Infinity")
		case "nan":
			b.WriteString("NaN")
		default:
			b.WriteString(r)
		}
	case KindStr:
		s, err := ToStr(d.c, v)
		if err != nil {
			return err
		}
		d.str(b, s)
	case KindList, KindTuple:
		items, err := Iterate(d.c, v)
		if err != nil {
			return err
		}
		if len(items) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteByte('[')
		for i, it := range items {
			if i > 0 {
				b.WriteString(d.itemSep)
			}
			d.newline(b, level+1)
			if err := d.write(b, it, level+1); err != nil {
				return err
			}
		}
		d.newline(b, level)
		b.WriteByte(']')
	case KindDict:
		if v.flags&flagProxy != 0 {
			return &Error{Kind: "TypeError", Msg: "Object of type mappingproxy is not JSON serializable"}
		}
		return d.dict(b, v, level)
	default:
		if g, ok := v.ref.(*namedTuple); ok && v.kind == KindObject {
			// a _GroupTuple is a tuple
			return d.write(b, TupleV(g.items), level)
		}
		return &Error{Kind: "TypeError", Msg: fmt.Sprintf("Object of type %s is not JSON serializable", pyTypeName(v))}
	}
	return nil
}

func (d *pyJSON) dict(b *bytes.Buffer, v Value, level int) error {
	keys, err := Iterate(d.c, v)
	if err != nil {
		return err
	}
	if len(keys) == 0 {
		b.WriteString("{}")
		return nil
	}
	if d.sortKeys && v.Kind() == KindDict {
		// sorted(d.items()): by the keys' values, as json.dumps sorts
		order, err := jsonKeyOrder(v.dict(), true)
		if err != nil {
			return err
		}
		sorted := make([]Value, len(order))
		for i, j := range order {
			sorted[i] = keys[j]
		}
		keys = sorted
	}
	type kv struct {
		key string
		val Value
	}
	items := make([]kv, 0, len(keys))
	for _, k := range keys {
		val, err := GetItem(d.c, v, k)
		if err != nil {
			return err
		}
		var ks string
		switch k.Kind() {
		case KindStr, KindInt:
			ks, err = ToStr(d.c, k)
		case KindFloat:
			ks = Repr(k)
		case KindBool:
			ks = map[bool]string{true: "true", false: "false"}[k.Truth()]
		case KindNone:
			ks = "null"
		default:
			return &Error{Kind: "TypeError", Msg: fmt.Sprintf("keys must be str, int, float, bool or None, not %s", pyTypeName(k))}
		}
		if err != nil {
			return err
		}
		items = append(items, kv{ks, val})
	}
	b.WriteByte('{')
	for i, it := range items {
		if i > 0 {
			b.WriteString(d.itemSep)
		}
		d.newline(b, level+1)
		d.str(b, it.key)
		b.WriteString(d.keySep)
		if err := d.write(b, it.val, level+1); err != nil {
			return err
		}
	}
	d.newline(b, level)
	b.WriteByte('}')
	return nil
}

func (d *pyJSON) str(b *bytes.Buffer, s string) {
	// json.dumps' str, as chattemplate writes it (a lone surrogate's
	// WTF-8 bytes are one character, escaped when ensure_ascii is on)
	b.Write(pyjson.AppendString(nil, s, d.ascii))
}

func pyTypeName(v Value) string { return TypeName(v) }

// oracleFuncs are the functions a context may hold ({"__func__": name}),
// as oracle.py's FUNCS.
var oracleFuncs = map[string]func(c *Ctx, args []Value) (Value, error){
	"add": func(c *Ctx, args []Value) (Value, error) {
		if len(args) != 2 {
			return Value{}, &Error{Kind: "TypeError", Msg: fmt.Sprintf("<lambda>() takes 2 positional arguments but %d were given", len(args))}
		}
		return BinOp(c, "+", args[0], args[1])
	},
	"count_args": func(c *Ctx, args []Value) (Value, error) { return IntV(int64(len(args))), nil },
	"join_args":  func(c *Ctx, args []Value) (Value, error) { return joinArgs(c, args, "") },
	"join_args_underscore": func(c *Ctx, args []Value) (Value, error) {
		return joinArgs(c, args, "_")
	},
	"noop": func(c *Ctx, args []Value) (Value, error) { return NoneV(), nil },
}

func joinArgs(c *Ctx, args []Value, sep string) (Value, error) {
	parts := make([]string, len(args))
	for i, a := range args {
		if a.Kind() != KindStr {
			return Value{}, &Error{Kind: "TypeError", Msg: fmt.Sprintf("sequence item %d: expected str instance", i)}
		}
		s, err := ToStr(c, a)
		if err != nil {
			return Value{}, err
		}
		parts[i] = s
	}
	return StrV(strings.Join(parts, sep)), nil
}

// decodeContext decodes a JSON object of tagged values (oracle.py's
// encode) into vars, keeping the order of every dict.
func decodeContext(raw json.RawMessage, vars map[string]Value) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("context is not an object")
	}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return err
		}
		v, err := decodeTagged(dec)
		if err != nil {
			return err
		}
		vars[kt.(string)] = v
	}
	_, err := dec.Token()
	return err
}

// decodeTagged reads one JSON value as a Value.
func decodeTagged(dec *json.Decoder) (Value, error) {
	tok, err := dec.Token()
	if err != nil {
		return Value{}, err
	}
	switch t := tok.(type) {
	case nil:
		return NoneV(), nil
	case bool:
		return BoolV(t), nil
	case string:
		return StrV(t), nil
	case json.Number:
		return decodeNumber(string(t))
	case json.Delim:
		switch t {
		case '[':
			items, err := decodeItems(dec)
			if err != nil {
				return Value{}, err
			}
			return ListV(items), nil
		case '{':
			d := NewDict(0)
			first := true
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return Value{}, err
				}
				key := kt.(string)
				if first && strings.HasPrefix(key, "__") {
					if v, ok, err := decodeTag(dec, key); ok || err != nil {
						if err == nil {
							_, err = dec.Token() // the closing brace
						}
						return v, err
					}
				}
				first = false
				v, err := decodeTagged(dec)
				if err != nil {
					return Value{}, err
				}
				d.Set(StrV(key), v)
			}
			if _, err := dec.Token(); err != nil {
				return Value{}, err
			}
			return DictV(d), nil
		}
	}
	return Value{}, fmt.Errorf("unexpected JSON token %v", tok)
}

// decodeItems reads the rest of a JSON array.
func decodeItems(dec *json.Decoder) ([]Value, error) {
	items := []Value{}
	for dec.More() {
		v, err := decodeTagged(dec)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
	}
	_, err := dec.Token()
	return items, err
}

func decodeNumber(s string) (Value, error) {
	if strings.ContainsAny(s, ".eE") {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return Value{}, err
		}
		return FloatV(f), nil
	}
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return Value{}, fmt.Errorf("bad number %s", s)
	}
	return BigIntV(n), nil
}

// decodeTag reads the value of a tagged form ({"__tuple__": …}); false
// when tag is no tag.
func decodeTag(dec *json.Decoder, tag string) (Value, bool, error) {
	str := func() (string, error) {
		tok, err := dec.Token()
		if err != nil {
			return "", err
		}
		s, ok := tok.(string)
		if !ok {
			return "", fmt.Errorf("%s holds %v, not a string", tag, tok)
		}
		return s, nil
	}
	array := func() ([]Value, error) {
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
			return nil, fmt.Errorf("%s holds no array", tag)
		}
		return decodeItems(dec)
	}
	switch tag {
	case "__tuple__":
		items, err := array()
		return TupleV(items), true, err
	case "__dict__":
		d := NewDict(0)
		if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
			return Value{}, true, fmt.Errorf("__dict__ holds no array")
		}
		for dec.More() {
			kv, err := array()
			if err != nil || len(kv) != 2 {
				return Value{}, true, fmt.Errorf("__dict__ holds a bad pair")
			}
			d.Set(kv[0], kv[1])
		}
		_, err := dec.Token()
		return DictV(d), true, err
	case "__markup__":
		s, err := str()
		return SafeV(s), true, err
	case "__float__":
		s, err := str()
		if err != nil {
			return Value{}, true, err
		}
		switch s {
		case "inf":
			return FloatV(math.Inf(1)), true, nil
		case "-inf":
			return FloatV(math.Inf(-1)), true, nil
		case "nan":
			return FloatV(math.NaN()), true, nil
		}
		return Value{}, true, fmt.Errorf("bad float %q", s)
	case "__func__":
		name, err := str()
		if err != nil {
			return Value{}, true, err
		}
		f, ok := oracleFuncs[name]
		if !ok {
			return Value{}, true, fmt.Errorf("unknown function %q", name)
		}
		return FuncV(&Func{Name: name, Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			if len(kw) > 0 {
				return Value{}, &Error{Kind: "TypeError", Msg: fmt.Sprintf("<lambda>() got an unexpected keyword argument '%s'", kw[0].Name)}
			}
			return f(c, args)
		}}), true, nil
	}
	return Value{}, false, nil
}

// readKnownFailures reads "id<TAB>reason" lines ("#" starts a comment).
func readKnownFailures(path string) (map[string]string, []string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	known := map[string]string{}
	var order []string
	for i, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, reason, _ := strings.Cut(line, "\t")
		if _, dup := known[id]; dup {
			return nil, nil, fmt.Errorf("%s:%d: %s listed twice", path, i+1, id)
		}
		known[id] = reason
		order = append(order, id)
	}
	return known, order, nil
}

// knownFailuresHeader and unsupportedHeader head the two lists
// -update-known writes.
const (
	knownFailuresHeader = "# Oracle cases (testdata/oracle/cases) the package does not yet render as Jinja2 does.\n" +
		"# One a line: case id, a tab, why. TestOracle fails on a case that differs and is not\n" +
		"# listed, and on a listed case that passes. Rewrite: go test ./internal/jinja2 -run TestOracle -update-known\n"
	unsupportedHeader = "# Oracle cases the package refuses with an Unsupported error naming the construct (and its\n" +
		"# line and column) where Jinja2 prints a value: what it does not implement (docs/FUZZING.md).\n" +
		"# One a line: case id, a tab, the refusal. Rewrite: go test ./internal/jinja2 -run TestOracle -update-known\n"
)

// writeCaseList writes header, then "id<TAB>reason" lines sorted by id,
// which readKnownFailures reads back.
func writeCaseList(path, header string, reasons map[string]string) error {
	ids := make([]string, 0, len(reasons))
	for id := range reasons {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var b strings.Builder
	b.WriteString(header)
	for _, id := range ids {
		b.WriteString(id + "\t" + reasons[id] + "\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// TestCaseListRoundTrip writes a list as -update-known does and reads it
// back: sorted by id, the header kept, each reason with its id.
func TestCaseListRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "list.txt")
	reasons := map[string]string{"b/2": "why two", "a/1": "why one"}
	require.NoError(t, writeCaseList(path, "# head\n", reasons))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "# head\na/1\twhy one\nb/2\twhy two\n", string(b))
	got, order, err := readKnownFailures(path)
	require.NoError(t, err)
	assert.Equal(t, reasons, got)
	assert.Equal(t, []string{"a/1", "b/2"}, order)
}

// The cases of a file share their context_ref's decoded variables and
// their parsed templates: a case that changes a list or dict it was
// given leaves the next case's copy as the file wrote it.
func TestOracleSharesNoMutableContext(t *testing.T) {
	tpl := func(s string) *string { return &s }
	doc := &oracleFile{
		Contexts: map[string]json.RawMessage{"c": json.RawMessage(`{"xs": [1], "d": {"k": [2]}, "t": {"__tuple__": [[3]]}}`)},
	}
	env := oracleEnv{Extensions: []string{"do"}}
	change := "{% do xs.append(9) %}{% do d.k.append(9) %}{% do d.update(n=1) %}{% do t[0].append(9) %}{{ xs }}{{ d }}{{ t }}"
	show := "{{ xs }}{{ d }}{{ t }}"
	for _, c := range []struct{ src, want string }{
		{change, "[1, 9]{'k': [2, 9], 'n': 1}([3, 9],)"},
		{show, "[1]{'k': [2]}([3],)"},
		{change, "[1, 9]{'k': [2, 9], 'n': 1}([3, 9],)"},
		{show, "[1]{'k': [2]}([3],)"},
	} {
		out, err := doc.render(context.Background(), &oracleCase{Template: tpl(c.src), ContextRef: "c", Env: env})
		require.NoError(t, err)
		assert.Equal(t, c.want, out)
	}
	assert.Len(t, doc.shared.templates, 2, "each template parsed once")
	assert.Len(t, doc.shared.envs, 1, "one Env for the one environment")
}
