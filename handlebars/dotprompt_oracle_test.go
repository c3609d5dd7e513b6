package handlebars_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

// TestDotpromptOracle renders every case in testdata/dotprompt (a .prompt
// file, with its input and history in <case>.json) and compares the
// messages, in OpenAI form, with <case>.expected.json, which oracle.mjs
// wrote by rendering the same case with the real Dotprompt (npm dotprompt).
// A <case>.rolemark.json, when present, replaces the expected file: those
// are the cases where rolemark differs on purpose (docs/dotprompt.md says
// why). The comparison is semantic (JSONEq): key order and JSON escapes do
// not matter. Files named _NAME.prompt are partials, not cases.
func TestDotpromptOracle(t *testing.T) {
	const dir = "../testdata/dotprompt"
	cases, err := filepath.Glob(filepath.Join(dir, "*.prompt"))
	require.NoError(t, err)
	fsys := os.DirFS(dir)
	n := 0
	for _, path := range cases {
		file := filepath.Base(path)
		if strings.HasPrefix(file, "_") {
			continue
		}
		n++
		name := strings.TrimSuffix(file, ".prompt")
		t.Run(name, func(t *testing.T) {
			var in struct {
				Input   map[string]any `json:"input"`
				History []chat.Message `json:"history"`
			}
			b, err := os.ReadFile(filepath.Join(dir, name+".json"))
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &in))

			want, err := os.ReadFile(filepath.Join(dir, name+".rolemark.json"))
			if os.IsNotExist(err) {
				want, err = os.ReadFile(filepath.Join(dir, name+".expected.json"))
			}
			require.NoError(t, err)

			tpl, err := engine.NewSet(handlebars.New()).ParseFS(fsys, file)
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), in.Input, engine.History(in.History))
			require.NoError(t, err)
			if msgs == nil {
				msgs = []chat.Message{}
			}
			got, err := json.MarshalIndent(msgs, "", "  ")
			require.NoError(t, err)
			require.JSONEq(t, string(want), string(got))
		})
	}
	require.GreaterOrEqual(t, n, 20, "cases in %s", dir)
}
