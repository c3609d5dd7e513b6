package handlebars_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

// The Dotprompt spec suite (testdata/dotprompt-spec, Google's own test
// cases, see SOURCE.md there) run through rolemark's public API.

const (
	specDir  = "../testdata/dotprompt-spec"
	specDocs = "../docs/dotprompt.md"
)

type specSuite struct {
	Name             string            `yaml:"name"`
	Template         string            `yaml:"template"`
	Data             specData          `yaml:"data"`
	Schemas          map[string]any    `yaml:"schemas"`
	Partials         map[string]string `yaml:"partials"`
	ResolverPartials map[string]string `yaml:"resolverPartials"`
	Tests            []specTest        `yaml:"tests"`
}

type specData struct {
	Input    map[string]any   `yaml:"input"`
	Messages []map[string]any `yaml:"messages"`
	Context  map[string]any   `yaml:"context"`
}

type specTest struct {
	Desc    string         `yaml:"desc"`
	Data    specData       `yaml:"data"`
	Options map[string]any `yaml:"options"`
	Expect  map[string]any `yaml:"expect"`
}

// specCase is one test of one suite, named "FILE SUITE/N" (N counts the
// suite's tests from 1), as in the table of docs/dotprompt.md.
type specCase struct {
	id    string
	suite specSuite
	test  specTest
}

func loadSpecCases(t *testing.T) []specCase {
	t.Helper()
	var cases []specCase
	err := fs.WalkDir(os.DirFS(specDir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".yaml" {
			return err
		}
		b, err := os.ReadFile(path.Join(specDir, p))
		if err != nil {
			return err
		}
		var suites []specSuite
		if err := yaml.Unmarshal(b, &suites); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		for _, s := range suites {
			for i, tc := range s.Tests {
				cases = append(cases, specCase{id: fmt.Sprintf("%s %s/%d", p, s.Name, i+1), suite: s, test: tc})
			}
		}
		return nil
	})
	require.NoError(t, err)
	return cases
}

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
	cases := loadSpecCases(t)
	known := knownSpecFailures(t)
	require.GreaterOrEqual(t, len(cases), 100, "cases in %s", specDir)
	passed := 0
	seen := map[string]bool{}
	for _, c := range cases {
		seen[c.id] = true
		got, want, err := runSpecCase(c)
		ok := err == nil && got == want
		if ok {
			passed++
		}
		reason, listed := known[c.id]
		t.Run(c.id, func(t *testing.T) {
			switch {
			case ok && listed:
				t.Errorf("passes, but docs/dotprompt.md lists it as failing (%s): remove it from the table", reason)
			case !ok && !listed:
				if err != nil {
					t.Errorf("%s: fails and is not listed in docs/dotprompt.md: %v", c.id, err)
				} else {
					t.Errorf("%s: fails and is not listed in docs/dotprompt.md:\n got: %s\nwant: %s", c.id, got, want)
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
func runSpecCase(c specCase) (got, want string, err error) {
	fsys := fstest.MapFS{"case.prompt": {Data: []byte(c.suite.Template)}}
	for name, src := range c.suite.Partials {
		fsys["_"+name+".prompt"] = &fstest.MapFile{Data: []byte(src)}
	}
	for name, src := range c.suite.ResolverPartials {
		fsys["_"+name+".prompt"] = &fstest.MapFile{Data: []byte(src)}
	}
	set := engine.NewSet(handlebars.New())
	if len(c.suite.Schemas) > 0 {
		schemas := map[string]json.RawMessage{}
		for name, s := range c.suite.Schemas {
			b, err := json.Marshal(s)
			if err != nil {
				return "", "", err
			}
			schemas[name] = b
		}
		set.Option(engine.Schemas(schemas))
	}
	tpl, err := set.ParseFS(fsys, "case.prompt")
	if err != nil {
		return "", "", err
	}

	// Dotprompt's runner merges the suite's data and the test's.
	vars := map[string]any{}
	// Render options (Dotprompt's PromptMetadata argument) are merged over
	// the file's metadata; the only one the suite uses is input.default,
	// which a rolemark caller passes as data under its own.
	var optDefault map[string]any
	if in, ok := c.test.Options["input"].(map[string]any); ok {
		optDefault, _ = in["default"].(map[string]any)
	}
	for k, v := range optDefault {
		vars[k] = v
	}
	for k, v := range c.suite.Data.Input {
		vars[k] = v
	}
	for k, v := range c.test.Data.Input {
		vars[k] = v
	}
	var history []chat.Message
	for _, m := range append(append([]map[string]any(nil), c.suite.Data.Messages...), c.test.Data.Messages...) {
		history = append(history, fromDotprompt(m))
	}
	data := map[string]any{}
	for k, v := range c.suite.Data.Context {
		data[k] = v
	}
	for k, v := range c.test.Data.Context {
		data[k] = v
	}
	msgs, err := tpl.Messages(context.Background(), vars, engine.History(history), engine.Data(data))
	if err != nil {
		return "", "", err
	}

	res := map[string]any{}
	if fm := tpl.FrontMatter(); fm != nil {
		frontMatterResult(res, fm)
	}
	if optDefault != nil {
		in, _ := res["input"].(map[string]any)
		if in == nil {
			in = map[string]any{}
		}
		in["default"] = optDefault
		res["input"] = in
	}
	if len(msgs) > 0 {
		var out []any
		for _, m := range msgs {
			out = append(out, toDotprompt(m))
		}
		res["messages"] = out
	}
	exp := map[string]any{}
	for k, v := range c.test.Expect {
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
	if ext := namespaces(fm.Ext); len(ext) > 0 {
		res["ext"] = ext
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

// toDotprompt writes a message as Dotprompt's {role, content, metadata}:
// text parts {text}, media parts {media: {url, contentType}}. Dotprompt's
// role "model" is rolemark's assistant.
func toDotprompt(m chat.Message) map[string]any {
	role := string(m.Role)
	if m.Role == chat.RoleAssistant {
		role = "model"
	}
	var content []any
	for _, p := range m.Content {
		switch p.Type {
		case chat.PartText:
			content = append(content, map[string]any{"text": p.Text})
		default:
			media := map[string]any{"url": p.URL}
			if p.MediaType != "" {
				media["contentType"] = p.MediaType
			}
			content = append(content, map[string]any{"media": media})
		}
	}
	out := map[string]any{"role": role}
	if len(content) > 0 {
		out["content"] = content
	}
	return out
}

// fromDotprompt reads a history message written in Dotprompt's form.
func fromDotprompt(m map[string]any) chat.Message {
	role, _ := m["role"].(string)
	msg := chat.Message{Role: chat.Role(role)}
	if role == "model" {
		msg.Role = chat.RoleAssistant
	}
	parts, _ := m["content"].([]any)
	for _, p := range parts {
		p, _ := p.(map[string]any)
		if text, ok := p["text"].(string); ok {
			msg.Content = append(msg.Content, chat.TextPart(text))
		}
		if media, ok := p["media"].(map[string]any); ok {
			url, _ := media["url"].(string)
			ct, _ := media["contentType"].(string)
			msg.Content = append(msg.Content, chat.Part{Type: chat.PartImage, URL: url, MediaType: ct})
		}
	}
	return msg
}

// namespaces groups front-matter keys with a dot as Dotprompt's ext does:
// "ext1.sub.foo: x" is ext["ext1.sub"]["foo"].
func namespaces(ext map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range ext {
		i := strings.LastIndexByte(k, '.')
		if i < 0 {
			continue
		}
		ns, _ := out[k[:i]].(map[string]any)
		if ns == nil {
			ns = map[string]any{}
			out[k[:i]] = ns
		}
		ns[k[i+1:]] = v
	}
	return out
}
