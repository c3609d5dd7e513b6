package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/internal/preview"
	modelrun "github.com/rolemark/rolemark/internal/run"
)

func TestRunTargetsFromTheEnvironment(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want []preview.Target
	}{
		{"nothing set", nil, nil},
		{"openai key", map[string]string{"OPENAI_API_KEY": "sk"},
			[]preview.Target{{Name: "openai", Endpoint: modelrun.Endpoint{Protocol: modelrun.OpenAI, APIKey: "sk"}}}},
		{"local server without key", map[string]string{"OPENAI_BASE_URL": "http://localhost:11434/v1"},
			[]preview.Target{{Name: "openai", Endpoint: modelrun.Endpoint{Protocol: modelrun.OpenAI, BaseURL: "http://localhost:11434/v1"}}}},
		{"anthropic base without key is not enough", map[string]string{"ANTHROPIC_BASE_URL": "http://x"}, nil},
		{"both", map[string]string{"OPENAI_API_KEY": "sk", "ANTHROPIC_API_KEY": "ak", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9"},
			[]preview.Target{
				{Name: "openai", Endpoint: modelrun.Endpoint{Protocol: modelrun.OpenAI, APIKey: "sk"}},
				{Name: "anthropic", Endpoint: modelrun.Endpoint{Protocol: modelrun.Anthropic, BaseURL: "http://127.0.0.1:9", APIKey: "ak"}},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, runTargets(func(k string) string { return tc.env[k] }))
		})
	}
}

// TestServeRunsCasesAsTestDoes: the page of rolemark serve runs a
// directory's cases with rolemark test's runner and formats (a preset, a
// model's chat template named relative to the cases file, markup), so
// the two agree on every case.
func TestServeRunsCasesAsTestDoes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("sub/p.hbs", `<message role="user">{{q}}</message>`)
	write("chat.jinja", `{% for m in messages %}[{{ m.role }}] {{ m.content }}{% endfor %}`)
	write("sub/p.cases.yaml", `template: p.hbs
cases:
  - name: chatml
    format: chatml
    inputs: {q: hi}
    prompt: "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"
  - name: hf
    format: hf:../chat.jinja
    inputs: {q: hi}
    prompt: '[user] hi'
  - name: markup
    format: markup
    inputs: {q: hi}
    prompt: '<message role="user">bye</message>'
`)
	code, out, _ := runTest(t, "test", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "FAIL "+filepath.Join(dir, "sub", "p.cases.yaml")+": markup differs\n")
	assert.True(t, strings.HasSuffix(out, "FAIL\t1 of 3 cases differ; rolemark test --update records what they render now\n"), out)

	srv, err := preview.New(dir, newSet(), preview.CaseFormats(writeCaseFormat, checkCaseFormat))
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest("GET", "/t/sub/p.hbs?cases=run", nil))
	require.Equal(t, 200, rec.Code)
	page := rec.Body.String()
	assert.Contains(t, page, `<span class="tally">2 passed, 1 failed</span>`)
	for name, verdict := range map[string]string{"chatml": "pass", "hf": "pass", "markup": "fail"} {
		assert.Contains(t, page, `<span class="verdict">`+verdict+`</span> <span class="cname">`+name+`</span>`)
	}
}
