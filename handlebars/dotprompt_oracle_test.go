package handlebars_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

// TestDotpromptOracle renders every .prompt case of testdata/dotprompt and
// compares the messages with what Google's dotprompt npm package rendered
// (<case>.expected.json, made by oracle.mjs there), or, where rolemark
// differs on purpose, with <case>.rolemark.json (see docs/dotprompt.md).
func TestDotpromptOracle(t *testing.T) {
	dir := filepath.Join("..", "testdata", "dotprompt")
	fsys := os.DirFS(dir)
	set := engine.NewSet(handlebars.New())
	files, err := filepath.Glob(filepath.Join(dir, "*.prompt"))
	require.NoError(t, err)
	n := 0
	for _, f := range files {
		base := filepath.Base(f)
		if strings.HasPrefix(base, "_") {
			continue
		}
		name := strings.TrimSuffix(base, ".prompt")
		n++
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

			tpl, err := set.ParseFS(fsys, base)
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), in.Input, engine.History(in.History))
			require.NoError(t, err)
			got, err := json.Marshal(msgs)
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(got))
		})
	}
	assert.GreaterOrEqual(t, n, 20)
}
