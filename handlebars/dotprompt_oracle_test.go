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
// not matter. An expected file {"error": "…"} means the case must fail to
// compile or render: in a .rolemark.json the message is rolemark's and must
// match exactly; in an .expected.json it is Dotprompt's and only the failure
// is required. Files named _NAME.prompt are partials, not cases.
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
			override := err == nil
			if os.IsNotExist(err) {
				want, err = os.ReadFile(filepath.Join(dir, name+".expected.json"))
			}
			require.NoError(t, err)
			var wantErr struct {
				Error *string `json:"error"`
			}
			_ = json.Unmarshal(want, &wantErr) // an array of messages leaves Error nil

			tpl, err := engine.NewSet(handlebars.New()).ParseFS(fsys, file)
			var msgs []chat.Message
			if err == nil {
				msgs, err = tpl.Messages(context.Background(), in.Input, engine.History(in.History))
			}
			if wantErr.Error != nil {
				require.Error(t, err)
				if override {
					require.EqualError(t, err, *wantErr.Error)
				}
				return
			}
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
