package handlebars_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/internal/dpspec"
)

// The Dotprompt spec suite (testdata/dotprompt-spec, Google's own test
// cases, see SOURCE.md there) run through rolemark's public API.

const specDocs = "../docs/dotprompt.md"

// knownSpecFailures reads the table of cases rolemark does not pass from
// docs/dotprompt.md: the rows after the heading "## Spec cases that differ",
// whose first cell is the case's name in backquotes.
func knownSpecFailures(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(specDocs)
	require.NoError(t, err)
	defer f.Close()
	known := map[string]string{}
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Spec cases that differ"
			continue
		}
		if !in || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(line, "|")
		require.GreaterOrEqual(t, len(cells), 4, "table row %q", line)
		id := strings.Trim(strings.TrimSpace(cells[1]), "`")
		_, dup := known[id]
		require.False(t, dup, "case %s is listed twice", id)
		known[id] = strings.TrimSpace(cells[2])
	}
	require.NoError(t, sc.Err())
	return known
}

// TestDotpromptSpec renders every case of Dotprompt's spec suite through
// the public API and compares the messages (with media parts) and the front
// matter with the case's expectation, exactly. A case that does not pass
// must be listed, with its reason, in the table of docs/dotprompt.md; a
// listed case that passes fails the test too, so that the table stays true.
func TestDotpromptSpec(t *testing.T) {
	cases, err := dpspec.Load()
	require.NoError(t, err)
	known := knownSpecFailures(t)
	require.GreaterOrEqual(t, len(cases), 100, "cases in %s", dpspec.Dir())
	passed := 0
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.ID] = true
		got, want, err := runSpecCase(c)
		ok := err == nil && got == want
		if ok {
			passed++
		}
		reason, listed := known[c.ID]
		t.Run(c.ID, func(t *testing.T) {
			switch {
			case ok && listed:
				t.Errorf("passes, but docs/dotprompt.md lists it as failing (%s): remove it from the table", reason)
			case !ok && !listed:
				if err != nil {
					t.Errorf("%s: fails and is not listed in docs/dotprompt.md: %v", c.ID, err)
				} else {
					t.Errorf("%s: fails and is not listed in docs/dotprompt.md:\n got: %s\nwant: %s", c.ID, got, want)
				}
			}
		})
	}
	for id := range known {
		if !seen[id] {
			t.Errorf("docs/dotprompt.md lists %q, which is not a case of the suite", id)
		}
	}
	t.Logf("Dotprompt spec: %d of %d cases pass exactly", passed, len(cases))
}

// runSpecCase renders one case and returns the result and the expectation
// in the same JSON form. Dotprompt's runner prunes both sides the same way:
// empty lists and maps are left out.
func runSpecCase(c dpspec.Case) (got, want string, err error) {
	fsys := fstest.MapFS{}
	for name, src := range c.Files() {
		fsys[name] = &fstest.MapFile{Data: []byte(src)}
	}
	set := engine.NewSet(handlebars.New())
	if len(c.Schemas) > 0 {
		set.Option(engine.Schemas(c.Schemas))
	}
	tpl, err := set.ParseFS(fsys, "case.prompt")
	if err != nil {
		return "", "", err
	}
	msgs, err := tpl.Messages(context.Background(), c.Vars, engine.History(c.History), engine.Data(c.Data))
	if err != nil {
		return "", "", err
	}

	res := map[string]any{}
	if fm := tpl.FrontMatter(); fm != nil {
		frontMatterResult(res, fm)
	}
	// Render options (Dotprompt's PromptMetadata argument) are merged over
	// the file's metadata; the only one the suite uses is input.default,
	// which a rolemark caller passes under its input (dpspec.Case.Vars).
	if c.OptionDefault != nil {
		in, _ := res["input"].(map[string]any)
		if in == nil {
			in = map[string]any{}
		}
		in["default"] = c.OptionDefault
		res["input"] = in
	}
	if len(msgs) > 0 {
		var out []any
		for _, m := range msgs {
			out = append(out, dpspec.ToDotprompt(m))
		}
		res["messages"] = out
	}
	exp := map[string]any{}
	for k, v := range c.Expect {
		if !empty(v) {
			exp[k] = v
		}
	}
	if _, ok := exp["raw"]; !ok {
		delete(res, "raw") // as Dotprompt's runner: raw is compared only when expected
	}
	if got, err = canonicalJSON(res); err != nil {
		return "", "", err
	}
	want, err = canonicalJSON(exp)
	return got, want, err
}

// canonicalJSON writes v as JSON with every object's keys sorted.
func canonicalJSON(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		return "", err
	}
	b, err = json.Marshal(x)
	return string(b), err
}

// frontMatterResult puts the front matter into Dotprompt's result shape.
func frontMatterResult(res map[string]any, fm *engine.FrontMatter) {
	if fm.Model != "" {
		res["model"] = fm.Model
	}
	if len(fm.Config) > 0 {
		res["config"] = fm.Config
	}
	if len(fm.Raw) > 0 {
		res["raw"] = fm.Raw
	}
	if len(fm.Ext) > 0 {
		res["ext"] = fm.Ext
	}
	in := map[string]any{}
	if fm.InputSchema != nil {
		in["schema"] = fm.InputSchema
	}
	if len(fm.Defaults) > 0 {
		in["default"] = fm.Defaults
	}
	if len(in) > 0 {
		res["input"] = in
	}
	out := map[string]any{}
	if fm.OutputFormat != "" {
		out["format"] = fm.OutputFormat
	}
	if fm.OutputSchema != nil {
		out["schema"] = fm.OutputSchema
	}
	if len(out) > 0 {
		res["output"] = out
	}
}

func empty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}
