package engine_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

// storeDir holds prompts that name registered tools and have variants, and
// what the real Dotprompt (its DirStore and its tool resolver) makes of
// them: expected.json, written by oracle.mjs there.
const storeDir = "../testdata/dotprompt-store"

type storeExpected struct {
	List map[string][]struct {
		Name    string `json:"name"`
		Variant string `json:"variant"`
	} `json:"list"`
	Cases []struct {
		Name       string          `json:"name"`
		Messages   json.RawMessage `json:"messages"`
		Tools      json.RawMessage `json:"tools"`
		Unresolved []string        `json:"unresolved"`
		Error      *string         `json:"error"`
	} `json:"cases"`
}

func loadStore(t *testing.T) (storeExpected, []chat.Tool) {
	t.Helper()
	var want storeExpected
	b, err := os.ReadFile(path.Join(storeDir, "expected.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &want))
	var tools []chat.Tool
	b, err = os.ReadFile(path.Join(storeDir, "tools.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &tools))
	return want, tools
}

// TestDotpromptStore renders every case of testdata/dotprompt-store/cases.json
// (a prompt loaded by name and variant, naming registered tools) and
// compares the messages and the tools with Dotprompt's.
func TestDotpromptStore(t *testing.T) {
	want, tools := loadStore(t)
	b, err := os.ReadFile(path.Join(storeDir, "cases.json"))
	require.NoError(t, err)
	var cases []struct {
		Name, Dir, Prompt, Variant string
		Input                      map[string]any
	}
	require.NoError(t, json.Unmarshal(b, &cases))
	require.Len(t, want.Cases, len(cases))
	for i, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			exp := want.Cases[i]
			require.Equal(t, c.Name, exp.Name)
			set := engine.NewSet(handlebars.New()).Option(engine.Tools(tools...))
			tpl, err := set.ParseFS(os.DirFS(path.Join(storeDir, c.Dir)), c.Prompt+".prompt", engine.Variant(c.Variant))
			var msgs []chat.Message
			if err == nil {
				msgs, err = tpl.Messages(context.Background(), c.Input)
			}
			if exp.Error != nil {
				require.Error(t, err, "Dotprompt: %s", *exp.Error)
				return
			}
			require.NoError(t, err)
			got, err := json.Marshal(msgs)
			require.NoError(t, err)
			assert.JSONEq(t, string(exp.Messages), string(got))
			gotTools := tpl.FrontMatter().Settings().Tools
			if gotTools == nil {
				gotTools = []chat.Tool{}
			}
			got, err = json.Marshal(gotTools)
			require.NoError(t, err)
			assert.JSONEq(t, string(exp.Tools), string(got))
			assert.Empty(t, exp.Unresolved, "rolemark resolves every name or fails")
		})
	}
}

// TestDotpromptStoreList loads each directory of the store with LoadDir and
// compares its prompts and variants with DirStore.list's.
func TestDotpromptStoreList(t *testing.T) {
	want, tools := loadStore(t)
	require.NotEmpty(t, want.List)
	for dir, list := range want.List {
		t.Run(dir, func(t *testing.T) {
			var exp []string
			for _, p := range list {
				exp = append(exp, strings.TrimSuffix(p.Name+"."+p.Variant, "."))
			}
			set := engine.NewSet(handlebars.New())
			if dir != "bad" {
				set.Option(engine.Tools(tools...))
			}
			d, err := set.LoadDir(os.DirFS(storeDir), dir)
			if dir == "bad" {
				// Dotprompt lists it and fails to render it; rolemark
				// fails to load it. The names come from the file names.
				require.Error(t, err)
				var got []string
				require.NoError(t, fs.WalkDir(os.DirFS(path.Join(storeDir, dir)), ".", func(p string, de fs.DirEntry, err error) error {
					if err == nil && !de.IsDir() {
						n, v := engine.SplitVariant(p)
						got = append(got, strings.TrimSuffix(n+"."+v, "."))
					}
					return err
				}))
				assert.Equal(t, exp, got)
				return
			}
			require.NoError(t, err)
			var got []string
			for _, n := range d.Names() {
				if _, ok := d.Template(n); ok {
					got = append(got, n)
				}
				for _, v := range d.Variants(n) {
					got = append(got, n+"."+v)
				}
			}
			sort.Strings(got)
			assert.Equal(t, exp, got)
		})
	}
}
