// Package dpspec loads Google Dotprompt's spec suite (testdata/dotprompt-
// spec) for the tests that run it through rolemark: the library's
// (handlebars/dotprompt_spec_test.go) and the command line's.
package dpspec

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"

	"go.yaml.in/yaml/v3"

	"github.com/rolemark/rolemark/chat"
)

// Case is one test of one suite of the spec, ready to render.
type Case struct {
	// ID is "FILE SUITE/N" (N counts the suite's tests from 1), as in the
	// table of docs/dotprompt.md.
	ID string
	// Template is the source of the .prompt file.
	Template string
	// Partials are the suite's partials and resolver partials by name;
	// each is the file _NAME.prompt beside the template.
	Partials map[string]string
	// Schemas are the named schemas the suite registers.
	Schemas map[string]json.RawMessage
	// Vars are the input: the render option input.default, under the
	// suite's input, under the test's.
	Vars map[string]any
	// OptionDefault is the test's render option input.default, which
	// Dotprompt merges over the file's metadata.
	OptionDefault map[string]any
	// History is the suite's and the test's messages.
	History []chat.Message
	// Data is the suite's and the test's context (the @-variables).
	Data map[string]any
	// Expect is the test's expectation as written.
	Expect map[string]any
}

type suite struct {
	Name             string            `yaml:"name"`
	Template         string            `yaml:"template"`
	Data             data              `yaml:"data"`
	Schemas          map[string]any    `yaml:"schemas"`
	Partials         map[string]string `yaml:"partials"`
	ResolverPartials map[string]string `yaml:"resolverPartials"`
	Tests            []test            `yaml:"tests"`
}

type data struct {
	Input    map[string]any   `yaml:"input"`
	Messages []map[string]any `yaml:"messages"`
	Context  map[string]any   `yaml:"context"`
}

type test struct {
	Desc    string         `yaml:"desc"`
	Data    data           `yaml:"data"`
	Options map[string]any `yaml:"options"`
	Expect  map[string]any `yaml:"expect"`
}

// Dir returns the path of testdata/dotprompt-spec.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "dotprompt-spec")
}

// Load reads every case of every spec file, in file order.
func Load() ([]Case, error) {
	dir := Dir()
	var cases []Case
	err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".yaml" {
			return err
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		if err != nil {
			return err
		}
		var suites []suite
		if err := yaml.Unmarshal(b, &suites); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		for _, s := range suites {
			for i, t := range s.Tests {
				c, err := newCase(fmt.Sprintf("%s %s/%d", p, s.Name, i+1), s, t)
				if err != nil {
					return fmt.Errorf("%s: %w", p, err)
				}
				cases = append(cases, c)
			}
		}
		return nil
	})
	return cases, err
}

func newCase(id string, s suite, t test) (Case, error) {
	c := Case{ID: id, Template: s.Template, Partials: map[string]string{}, Vars: map[string]any{}, Data: map[string]any{}, Expect: t.Expect}
	for name, src := range s.Partials {
		c.Partials[name] = src
	}
	for name, src := range s.ResolverPartials {
		c.Partials[name] = src
	}
	if len(s.Schemas) > 0 {
		c.Schemas = map[string]json.RawMessage{}
		for name, v := range s.Schemas {
			b, err := json.Marshal(v)
			if err != nil {
				return c, err
			}
			c.Schemas[name] = b
		}
	}
	if in, ok := t.Options["input"].(map[string]any); ok {
		c.OptionDefault, _ = in["default"].(map[string]any)
	}
	for _, m := range []map[string]any{c.OptionDefault, s.Data.Input, t.Data.Input} {
		for k, v := range m {
			c.Vars[k] = v
		}
	}
	for _, m := range append(append([]map[string]any(nil), s.Data.Messages...), t.Data.Messages...) {
		c.History = append(c.History, FromDotprompt(m))
	}
	for _, m := range []map[string]any{s.Data.Context, t.Data.Context} {
		for k, v := range m {
			c.Data[k] = v
		}
	}
	return c, nil
}

// FromDotprompt reads a message written in Dotprompt's form, {role,
// content: [{text} | {media: {url, contentType}}]}; Dotprompt's role
// "model" is rolemark's assistant.
func FromDotprompt(m map[string]any) chat.Message {
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

// ToDotprompt writes a message in Dotprompt's form: text parts {text},
// media parts {media: {url, contentType}}; rolemark's assistant is
// Dotprompt's "model".
func ToDotprompt(m chat.Message) map[string]any {
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

// Files returns the case's files: case.prompt and a _NAME.prompt for each
// partial.
func (c Case) Files() map[string]string {
	files := map[string]string{"case.prompt": c.Template}
	for name, src := range c.Partials {
		files["_"+name+".prompt"] = src
	}
	return files
}
