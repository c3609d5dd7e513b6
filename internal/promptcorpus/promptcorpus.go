// Package promptcorpus reads testdata/jinja2-prompts: real Jinja2 prompt
// templates of other projects, each with value sets and the output Python's
// Jinja2 gives for each (written by the folder's render.py). The tests of
// internal/jinja2 and of the jinja engine compare their output with it.
package promptcorpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rolemark/rolemark/internal/jinja2"
	"github.com/rolemark/rolemark/internal/pyjson"
)

// Entry is one template of corpus.json.
type Entry struct {
	Template    string `json:"template"` // path under the corpus folder
	Repo        string `json:"repo"`
	Path        string `json:"path"`
	Commit      string `json:"commit"`
	License     string `json:"license"`
	Partial     bool   `json:"partial"`     // only imported by another template
	Environment string `json:"environment"` // how the project renders it
	Env         Env    `json:"env"`
}

// Env is the Environment a template's project renders it in.
type Env struct {
	TrimBlocks          bool   `json:"trim_blocks"`
	LStripBlocks        bool   `json:"lstrip_blocks"`
	KeepTrailingNewline bool   `json:"keep_trailing_newline"`
	Undefined           string `json:"undefined"` // "strict" for StrictUndefined
	Sandbox             string `json:"sandbox"`   // "sandboxed", "immutable" or ""
}

// Case is one template rendered with one value set.
type Case struct {
	Name  string // TEMPLATE.SET
	Entry Entry
	Dir   string // the folder the template's includes and imports are read from
	Src   string // the template's source
	Vars  map[string]jinja2.Value
	Want  string // what Python's Jinja2 renders
	// EngineWant is what Python's Jinja2 renders in the jinja engine's
	// Environment (default whitespace settings, StrictUndefined): Want,
	// unless the project sets trim_blocks or lstrip_blocks.
	EngineWant string
}

// Options returns the jinja2 options of the Environment the template's
// project uses: whitespace settings, StrictUndefined as StrictNames, the
// immutable sandbox, and a loader on the template's folder. Jinja2's
// SandboxedEnvironment has no counterpart (it only refuses unsafe
// attributes, which these templates do not read).
func (c *Case) Options() []jinja2.Option {
	var opts []jinja2.Option
	e := c.Entry.Env
	if e.TrimBlocks {
		opts = append(opts, jinja2.TrimBlocks())
	}
	if e.LStripBlocks {
		opts = append(opts, jinja2.LStripBlocks())
	}
	if e.KeepTrailingNewline {
		opts = append(opts, jinja2.KeepTrailingNewline())
	}
	if e.Undefined == "strict" {
		opts = append(opts, jinja2.StrictNames())
	}
	if e.Sandbox == "immutable" {
		opts = append(opts, jinja2.Sandbox())
	}
	dir := c.Dir
	opts = append(opts, jinja2.WithLoader(func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		return string(b), err
	}))
	return opts
}

// Load reads every case of the corpus in root.
func Load(root string) ([]Case, error) {
	b, err := os.ReadFile(filepath.Join(root, "corpus.json"))
	if err != nil {
		return nil, err
	}
	var entries []Entry
	if err := json.Unmarshal(b, &entries); err != nil {
		return nil, fmt.Errorf("corpus.json: %w", err)
	}
	var cases []Case
	for _, e := range entries {
		if e.Partial {
			continue
		}
		file := filepath.Join(root, filepath.FromSlash(e.Template))
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		raw, err := os.ReadFile(file + ".vars.json")
		if err != nil {
			return nil, err
		}
		sets, err := pyjson.Parse(raw)
		if err != nil {
			return nil, fmt.Errorf("%s.vars.json: %w", e.Template, err)
		}
		for i, set := range sets.Keys {
			want, err := os.ReadFile(file + "." + set + ".want")
			if err != nil {
				return nil, err
			}
			engineWant := want
			if b, err := os.ReadFile(file + "." + set + ".engine.want"); err == nil {
				engineWant = b
			} else if !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			vars := map[string]jinja2.Value{}
			v := sets.Items[i]
			for j, k := range v.Keys {
				vars[k] = value(&v.Items[j])
			}
			cases = append(cases, Case{
				Name: e.Template + "." + set, Entry: e, Dir: filepath.Dir(file),
				Src: string(src), Vars: vars, Want: string(want), EngineWant: string(engineWant),
			})
		}
	}
	return cases, nil
}

// value converts a JSON value as render.py does: {"$returns": X} is a
// callable that returns X.
func value(v *pyjson.Value) jinja2.Value {
	switch v.Kind {
	case pyjson.Object:
		if len(v.Keys) == 1 && v.Keys[0] == "$returns" {
			ret := value(&v.Items[0])
			return jinja2.FuncV(&jinja2.Func{Name: "function", Call: func(*jinja2.Ctx, []jinja2.Value, []jinja2.Kwarg) (jinja2.Value, error) {
				return ret, nil
			}})
		}
		d := jinja2.NewDict(len(v.Keys))
		for i, k := range v.Keys {
			d.SetStr(k, value(&v.Items[i]))
		}
		return jinja2.DictV(d)
	case pyjson.Array:
		items := make([]jinja2.Value, len(v.Items))
		for i := range v.Items {
			items[i] = value(&v.Items[i])
		}
		return jinja2.ListV(items)
	}
	return jinja2.FromGo(*v)
}
