package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

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

// startServe runs rolemark serve with args on dir and returns the page's
// address; the server stops at the end of the test.
func startServe(t *testing.T, dir string, args ...string) (string, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	done := make(chan int)
	go func() {
		done <- run(ctx, append(append([]string{"serve", "--addr", "127.0.0.1:0", "--count", ""}, args...), dir), nil, out, io.Discard)
	}()
	t.Cleanup(func() {
		cancel()
		assert.Equal(t, 0, <-done)
	})
	re := regexp.MustCompile(`rolemark serve: previewing .* at (http://127\.0\.0\.1:\d+)/\n`)
	var m []string
	require.Eventually(t, func() bool { m = re.FindStringSubmatch(out.String()); return m != nil }, 10*time.Second, 10*time.Millisecond)
	return m[1], out
}

func postCase(t *testing.T, base, path, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(base+"/case/"+path, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// TestServeWriteCases: rolemark serve --write-cases saves the cases the
// page posts, in every engine, and rolemark test then runs them green;
// without the flag the route does not exist and nothing is written.
func TestServeWriteCases(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"bank.prompt":        "---\ninput:\n  schema:\n    q: string\n    n: integer\n---\n{{#system}}Be brief, {{n}} lines.{{/system}}{{#user}}{{q}}{{/user}}",
		"ask.j2":             "---\ninput:\n  schema:\n    n: integer\n    tags(array): string\n---\n{{ role('user') }}{{ n }} {{ n * 2 }} {{ tags|join(',') }} {{ tags }}",
		"plain.tmpl":         "---\ninput:\n  schema:\n    who: string\n---\n<message role=\"user\">Hi {{.who}} &amp; <b>you</b></message>",
		"dj.pongo2":          "{{ role(\"user\") }}{{ x }}",
		"bank.formal.prompt": "---\ninput:\n  schema:\n    q: string\n    n: integer\n---\n{{#user}}Dear customer: {{q}}{{/user}}",
	}
	for name, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}

	base, _ := startServe(t, dir)
	code, _ := postCase(t, base, "bank.prompt", `{"form":"v.q=hi&v.n=2","name":"n"}`)
	assert.Equal(t, 404, code, "a read-only page has no /case route")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, len(files))

	base, out := startServe(t, dir, "--write-cases")
	assert.Contains(t, out.String(), "rolemark serve: Save as case writes test cases (NAME.cases.yaml) under "+dir+"\n")
	for _, tc := range []struct{ path, body, reply string }{
		{"bank.prompt", `{"form":"go=1&v.q=Can+I+borrow%3F&v.n=2&history=%5B%7B%22role%22%3A%22assistant%22%2C%22content%22%3A%22Hello.%22%7D%5D","name":"a loan"}`, `{"file":"bank.cases.yaml","case":"a loan"}`},
		{"bank.formal.prompt", `{"form":"go=1&v.q=Can+I%3F&v.n=1","name":"formally"}`, `{"file":"bank.cases.yaml","case":"formally"}`},
		{"ask.j2", `{"form":"go=1&v.n=21&v.tags=%5B%22a%22%2C%22b%22%5D","name":"numbers"}`, `{"file":"ask.cases.yaml","case":"numbers"}`},
		{"plain.tmpl", `{"form":"go=1&v.who=%3Cscript%3E","name":"markup"}`, `{"file":"plain.cases.yaml","case":"markup"}`},
		{"dj.pongo2", `{"form":"go=1&vars=%7B%22x%22%3A1.5%7D","name":"a float"}`, `{"file":"dj.cases.yaml","case":"a float"}`},
	} {
		code, body := postCase(t, base, tc.path, tc.body)
		require.Equal(t, 200, code, body)
		assert.Equal(t, tc.reply+"\n", body)
	}
	code, body := postCase(t, base, "bank.prompt", `{"form":"v.q=x&v.n=1","name":"a loan"}`)
	assert.Equal(t, 409, code)
	assert.Equal(t, "bank.cases.yaml: case \"a loan\": the cases file already has a case of this name; choose another name\n", body)

	code, outText, errText := runTest(t, "test", dir)
	assert.Equal(t, 0, code, outText+errText)
	assert.Equal(t, "ok\t5 cases in 4 files\n", outText)
	b, err := os.ReadFile(filepath.Join(dir, "ask.cases.yaml"))
	require.NoError(t, err)
	assert.Equal(t, `template: ask.j2
cases:
  - name: numbers
    inputs:
      "n": 21
      tags:
        - a
        - b
    messages:
      - role: user
        content: 21 42 a,b ['a', 'b']
`, string(b))
}

// TestServeRunsOnLoopbackOnly: Run spends the operator's key (or reaches
// the operator's model server) for whoever posts to /run, and its guards
// (JSON only, no foreign Origin) keep other sites' pages out, not other
// machines, which post without an Origin. On an address other machines
// reach, the page offers no Run and the server says why; the preview
// itself is still served.
func TestServeRunsOnLoopbackOnly(t *testing.T) {
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the model was sent a request: %s %s", r.Method, r.URL)
	}))
	defer model.Close()
	t.Setenv("OPENAI_API_KEY", "sk-operator")
	t.Setenv("OPENAI_BASE_URL", model.URL+"/v1")
	t.Setenv("ANTHROPIC_API_KEY", "ak-operator")
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "p.hbs"), []byte(`{{role "user"}}hi`), 0o644))

	ctx, cancel := context.WithCancel(context.Background())
	out := &syncBuffer{}
	done := make(chan int)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", "0.0.0.0:0", "--count", "", dir}, nil, out, io.Discard)
	}()
	defer func() {
		cancel()
		assert.Equal(t, 0, <-done)
	}()
	re := regexp.MustCompile(`rolemark serve: previewing .* at http://[^/]*:(\d+)/\n`)
	var m []string
	require.Eventually(t, func() bool { m = re.FindStringSubmatch(out.String()); return m != nil }, 10*time.Second, 10*time.Millisecond)
	base := "http://127.0.0.1:" + m[1]
	assert.Contains(t, out.String(), "rolemark serve: Run is off: --addr 0.0.0.0:0 is not a loopback address")
	assert.NotContains(t, out.String(), "Run sends to")

	req, err := http.NewRequest("POST", base+"/run/p.hbs", strings.NewReader(`{"form":"","target":"openai","model":"m"}`))
	require.NoError(t, err)
	req.Host = "192.0.2.7:" + m[1] // another machine's view of the server
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.NotContains(t, string(body), `"type":"start"`, "a run started: %s", body)

	resp, err = http.Get(base + "/t/p.hbs")
	require.NoError(t, err)
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, err)
	assert.Equal(t, 200, resp.StatusCode)
	assert.NotContains(t, string(page), "sk-operator")
	assert.Contains(t, string(page), `<span id="run-hint" class="help">Run is off: --addr 0.0.0.0:0 is not a loopback address`)
}

// TestServeTools: serve --tools registers the tools front matter may name,
// as render, check and test do; without it the page shows the front
// matter's error.
func TestServeTools(t *testing.T) {
	dir, tools := namedToolDir(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, `unknown tool &#34;get_weather&#34;`},
		{[]string{"--tools", tools}, `<div class="text">Weather?</div>`},
	} {
		base, _ := startServe(t, dir, tc.args...)
		resp, err := http.Get(base + "/t/w.hbs")
		require.NoError(t, err)
		page, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		assert.Contains(t, string(page), tc.want, "serve %v", tc.args)
	}
}

// namedToolDir writes a prompt directory whose w.hbs names the tool
// get_weather of testdata/tools.json, and returns it and that file's
// absolute path, for the commands that take --tools.
func namedToolDir(t *testing.T) (dir, tools string) {
	t.Helper()
	dir = t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "w.hbs"),
		[]byte("---\nmodel: m\ntools: [get_weather]\n---\n{{role \"user\"}}Weather?"), 0o644))
	tools, err := filepath.Abs("testdata/tools.json")
	require.NoError(t, err)
	return dir, tools
}
