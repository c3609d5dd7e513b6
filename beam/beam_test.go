package beam_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/beam"
)

func TestMain(m *testing.M) {
	ptest.MainWithDefault(m, "direct")
}

const template = `---
model: gpt-4o-mini
config: {max_tokens: 50}
---
{{role "system"}}Answer briefly.
{{role "user"}}{{q}}
`

const rows = `{"id": "a1", "q": "What is 2+2?"}
{"id": "b2", "q": "Grüß 😀 <x> & \"y\""}
{"id": "c3"}
not json
{"id": "d4", "q": ""}
`

// TestPipeline runs a small pipeline on Beam's direct runner: it reads a
// JSON Lines file, renders every row and writes the lines and the failures
// to files.
func TestPipeline(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "rows.jsonl")
	require.NoError(t, os.WriteFile(in, []byte(rows), 0o644))
	out, failed := filepath.Join(dir, "out.jsonl"), filepath.Join(dir, "failed.txt")

	p, s := abeam.NewPipelineWithRoot()
	lines, failures, err := beam.Render(s, beam.Config{Name: "ask.hbs", Source: template, Format: "openai-batch", IDField: "id"},
		textio.Read(s, in))
	require.NoError(t, err)
	textio.Write(s, out, lines)
	textio.Write(s, failed, failures)
	require.NoError(t, ptest.Run(p))

	assert.Equal(t, []string{
		`{"custom_id":"a1","method":"POST","url":"/v1/chat/completions","body":{"model":"gpt-4o-mini","messages":[{"role":"system","content":"Answer briefly."},{"role":"user","content":"What is 2+2?"}],"max_tokens":50}}`,
		`{"custom_id":"b2","method":"POST","url":"/v1/chat/completions","body":{"model":"gpt-4o-mini","messages":[{"role":"system","content":"Answer briefly."},{"role":"user","content":"Grüß 😀 <x> & \"y\""}],"max_tokens":50}}`,
		`{"custom_id":"d4","method":"POST","url":"/v1/chat/completions","body":{"model":"gpt-4o-mini","messages":[{"role":"system","content":"Answer briefly."},{"role":"user","content":""}],"max_tokens":50}}`,
	}, sortedLines(t, out))
	assert.Equal(t, []string{
		`c3: ask.hbs:6:18: variable "q" is not supplied`,
		`not json: invalid JSON: invalid character 'o' in literal null (expecting 'u')`,
	}, sortedLines(t, failed))
}

func TestRenderChecksTheConfig(t *testing.T) {
	_, s := abeam.NewPipelineWithRoot()
	rows := abeam.Create(s, `{"q": "x"}`)
	_, _, err := beam.Render(s, beam.Config{Name: "ask.hbs", Source: template, Format: "openai-batch"}, rows)
	assert.EqualError(t, err, "the openai-batch output needs an IDField: a runner gives rows no order, so row-N ids would not tie results back to rows")
	_, _, err = beam.Render(s, beam.Config{Name: "ask.hbs", Source: "{{#if}}", Format: "openai"}, rows)
	assert.ErrorContains(t, err, "ask.hbs:1:")
	_, _, err = beam.Render(s, beam.Config{Name: "ask.txt", Source: template}, rows)
	assert.EqualError(t, err, `ask.txt: no engine for extension ".txt"`)
	_, _, err = beam.Render(s, beam.Config{Name: "ask.hbs", Source: template, Format: "sft"}, rows)
	assert.EqualError(t, err, "the sft output needs a chat format")
}

func sortedLines(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	sort.Strings(lines)
	return lines
}
