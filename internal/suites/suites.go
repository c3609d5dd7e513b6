// Package suites runs the converted test suites of the libraries under
// rolemark's handlebars, gotmpl and pongo2 engines (mustache/spec,
// raymond's tests, text/template's execTests, pongo2's template_tests):
// each case renders with the raw library and, wrapped in a user message,
// with rolemark's engine, and the message's content is compared with the
// library's output. scripts/suites/convert.go writes the case files; the
// README beside each engine's cases lists the rules a difference may follow.
package suites

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/roleparse"
)

// Case is one converted case (see scripts/suites/convert.go). Expected is
// what the suite itself expects (informative: the oracle is the raw
// library); OK is false for a text/template case the suite expects to fail;
// Skip says why a case is not run (its data is Go code, say). Helpers
// names a raymond case's helpers: the package of the test and the name of
// the Go function, which the test writes again; Private is a raymond
// case's private data (its @-variables).
type Case struct {
	File     string            `json:"file"`
	Name     string            `json:"name"`
	Template string            `json:"template"`
	Data     any               `json:"data,omitempty"`
	DataExpr string            `json:"data_expr,omitempty"`
	Partials map[string]string `json:"partials,omitempty"`
	Helpers  map[string]string `json:"helpers,omitempty"`
	Private  map[string]any    `json:"private,omitempty"`
	Expected any               `json:"expected,omitempty"`
	OK       *bool             `json:"ok,omitempty"`
	Skip     string            `json:"skip,omitempty"`
}

// ID names the case in rules and failures: its file and name.
func (c Case) ID() string { return c.File + "/" + c.Name }

// Load reads a case file; JSON integers become int, other numbers float64.
func Load(t testing.TB, path string) []Case {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var cases []Case
	if err := dec.Decode(&cases); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for i := range cases {
		cases[i].Data = numbers(cases[i].Data)
		numbers(cases[i].Private)
	}
	return cases
}

func numbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		if i, err := strconv.Atoi(string(v)); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	case map[string]any:
		for k, x := range v {
			v[k] = numbers(x)
		}
	case []any:
		for i, x := range v {
			v[i] = numbers(x)
		}
	}
	return v
}

// Wrap puts a template in the user message the suites render it in.
func Wrap(src string) string { return `<message role="user">` + src + `</message>` }

// Outcome is how rolemark's render of a case compares with the raw
// library's.
type Outcome string

// The outcomes. Identical and BothFail agree; Decoded, Missing, LineEnds,
// Edges and Ruled
// differ by a rule of the README; Differs is a bug.
const (
	Identical Outcome = "identical"       // content == library output, byte for byte
	BothFail  Outcome = "both fail"       // the library and rolemark both return an error
	Decoded   Outcome = "markup decoded"  // content == the library output read as markup (escapes decoded once)
	Missing   Outcome = "missing refused" // rolemark refuses an unsupplied variable; with AllowMissing it agrees
	LineEnds  Outcome = "line ends"       // equal once the library's CRLF and CR read as LF
	Edges     Outcome = "message edges"   // equal to the library's render of the wrapped template (standalone lines, trimming)
	Ruled     Outcome = "by rule"         // listed in the engine's rules with its reason
	Differs   Outcome = "differs"
	Skipped   Outcome = "skipped"
)

// Render is one side's result: the output (the library's text, or
// rolemark's messages) or an error.
type Render struct {
	Out  string
	Msgs []chat.Message
	Err  error
}

// Content is the text of the single user message rolemark made, with
// ok false when the messages are anything else.
func (r Render) Content() (string, bool) {
	switch {
	case len(r.Msgs) == 0:
		return "", true
	case len(r.Msgs) == 1 && r.Msgs[0].Role == chat.RoleUser && r.Msgs[0].TextOnly():
		return r.Msgs[0].Text(), true
	}
	return "", false
}

// Decode reads the library's output as the text of a user message, as
// rolemark reads a template's literal text: the five XML entities and
// numeric references decoded once, edge whitespace kept.
func Decode(out string) (string, bool) {
	msgs, err := roleparse.Parse(Wrap(out), roleparse.KeepSpace())
	if err != nil {
		return "", false
	}
	return Render{Msgs: msgs}.Content()
}

// Sides are the renders of one case: the library's of the template and
// of the template wrapped in the message tags, and rolemark's.
type Sides struct {
	Raw, Wrapped, Ours Render
	// Decode says whether the library's output read as markup is the
	// content rolemark must give: true when the library escapes values
	// as HTML (raymond, pongo2) or the template's own text holds a
	// character reference, which rolemark reads as markup.
	Decode bool
}

// Compare classifies one case.
func Compare(s Sides) Outcome {
	var missing *engine.MissingError
	switch {
	case s.Raw.Err != nil && s.Ours.Err != nil:
		return BothFail
	case s.Raw.Err == nil && errors.As(s.Ours.Err, &missing):
		return Missing
	case s.Raw.Err != nil || s.Ours.Err != nil:
		return Differs
	}
	got, ok := s.Ours.Content()
	if !ok {
		return Differs
	}
	if got == s.Raw.Out {
		return Identical
	}
	if !s.Decode {
		if got == LF(s.Raw.Out) {
			return LineEnds
		}
	} else if dec, ok := Decode(s.Raw.Out); ok && dec == got {
		return Decoded
	} else if dec, ok := Decode(LF(s.Raw.Out)); ok && dec == got {
		return LineEnds
	}
	if s.Wrapped.Err == nil {
		want, ok := s.Wrapped.Out, true
		if s.Decode {
			var msgs []chat.Message
			msgs, err := roleparse.Parse(LF(want), roleparse.KeepSpace())
			want, ok = Render{Msgs: msgs}.Content()
			ok = ok && err == nil
		} else {
			want = strings.TrimSuffix(strings.TrimPrefix(LF(want), `<message role="user">`), "</message>")
		}
		if ok && want == got {
			return Edges
		}
	}
	return Differs
}

// LF reads CRLF and CR as LF, as engine.Set reads a template.
func LF(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// Tally counts outcomes and reports them.
type Tally map[Outcome]int

// Report logs the counts in a fixed order.
func (t Tally) Report(tb testing.TB, suite string) {
	tb.Helper()
	keys := make([]string, 0, len(t))
	total := 0
	for k, n := range t {
		keys = append(keys, fmt.Sprintf("%s %d", k, n))
		total += n
	}
	sort.Strings(keys)
	tb.Logf("%s: %d cases: %s", suite, total, strings.Join(keys, ", "))
}
