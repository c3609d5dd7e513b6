package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/internal/dpspec"
	"github.com/rolemark/rolemark/roleparse"
)

// TestDotpromptSpecCommandLine renders every case of Dotprompt's spec suite
// (testdata/dotprompt-spec) with rolemark render, from files on disk, and
// checks it with rolemark check: render --format markup prints the messages the library
// gives (handlebars/dotprompt_spec_test.go compares those with the spec),
// or fails with the library's error; check finds no problem.
func TestDotpromptSpecCommandLine(t *testing.T) {
	cases, err := dpspec.Load()
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(cases), 100)
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			dir := t.TempDir()
			for name, src := range c.Files() {
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
			}
			write := func(name string, v any) string {
				b, err := json.Marshal(v)
				require.NoError(t, err)
				p := filepath.Join(dir, name)
				require.NoError(t, os.WriteFile(p, b, 0o644))
				return p
			}
			if c.History == nil {
				c.History = []chat.Message{}
			}
			file := filepath.Join(dir, "case.prompt")
			args := []string{"render", "--format", "markup", "--vars", write("vars.json", c.Vars), "--history", write("history.json", c.History),
				"--data", write("data.json", c.Data)}
			set := newSet()
			if c.Schemas != nil {
				args = append(args, "--schemas", write("schemas.json", c.Schemas))
				set.Option(engine.Schemas(c.Schemas))
			}
			args = append(args, file)

			// The library, as the spec test calls it, on the same files.
			var want []chat.Message
			tpl, libErr := set.ParseFS(os.DirFS(dir), "case.prompt")
			if libErr == nil {
				want, libErr = tpl.Messages(context.Background(), c.Vars, engine.History(c.History), engine.Data(c.Data))
			}

			var out, errOut bytes.Buffer
			code := run(context.Background(), args, strings.NewReader(""), &out, &errOut)
			if libErr != nil {
				require.Equal(t, 1, code, "stderr: %s", errOut.String())
				require.Equal(t, strings.Replace(libErr.Error(), "case.prompt", file, 1)+"\n", errOut.String())
				return
			}
			require.Equal(t, 0, code, "stderr: %s", errOut.String())
			// Canonical markup holds every message the library gives (the
			// OpenAI form takes no video or audio URL).
			wantMarkup, err := roleparse.Marshal(want)
			require.NoError(t, err)
			require.Equal(t, wantMarkup, out.String())

			if c.Schemas != nil {
				return // check has no --schemas: the named types are unknown to it
			}
			out.Reset()
			errOut.Reset()
			code = run(context.Background(), []string{"check", dir}, strings.NewReader(""), &out, &errOut)
			require.Equal(t, 0, code, "check: %s%s", out.String(), errOut.String())
			require.Empty(t, out.String()+errOut.String())
		})
	}
}
