package preview

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/internal/run"
)

const runPrompt = "---\nmodel: gpt-test\nconfig: {temperature: 0.5}\ninput:\n  schema:\n    q: string\n---\n" +
	"{{#system}}Be brief.{{/system}}{{#user}}{{q}}{{/user}}"

// openAIStandIn answers one streamed reply and records the body it got.
func openAIStandIn(t *testing.T, got *string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		*got = r.Method + " " + r.URL.Path + " " + r.Header.Get("Authorization") + "\n" + string(b)
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Four.\"}}]}\n\n"+
			"data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":2}}\n\ndata: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func postRun(t *testing.T, h http.Handler, path, body string, header map[string]string) (int, string) {
	t.Helper()
	req := httptest.NewRequest("POST", path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

func TestRunStreamsTheReply(t *testing.T) {
	var got string
	model := openAIStandIn(t, &got)
	s := newServer(t, writeDir(t, map[string]string{"ask.hbs": runPrompt}),
		Targets(Target{Name: "openai", Endpoint: run.Endpoint{Protocol: run.OpenAI, BaseURL: model.URL, APIKey: "sk-secret"}}))

	code, body := postRun(t, s, "/run/ask.hbs", `{"form":"go=1&v.q=2%2B2%3F","target":"openai"}`, nil)
	require.Equal(t, 200, code)
	assert.Equal(t, "POST /chat/completions Bearer sk-secret\n"+
		`{"model":"gpt-test","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"2+2?"}],"temperature":0.5,"stream":true,"stream_options":{"include_usage":true}}`, got)
	lines := strings.Split(strings.TrimSpace(body), "\n")
	require.Len(t, lines, 5, body)
	assert.Equal(t, `{"model":"gpt-test","target":"openai","type":"start"}`, lines[0])
	assert.Equal(t, `{"type":"text","text":"Four.","index":0}`, lines[1])
	assert.Equal(t, `{"type":"stop","index":0,"stop_reason":"stop"}`, lines[2])
	assert.Equal(t, `{"type":"usage","index":0,"input_tokens":9,"output_tokens":2}`, lines[3])
	assert.Regexp(t, `^\{"first_byte_ms":\d+,"input_tokens":9,"latency_ms":\d+,"output_tokens":2,"stop_reason":"stop","type":"done"\}$`, lines[4])
	assert.NotContains(t, body, "sk-secret")

	// Model and config are overridden for one run.
	code, _ = postRun(t, s, "/run/ask.hbs", `{"form":"v.q=hi","target":"openai","model":"other","config":"{\"seed\": 7}"}`, nil)
	require.Equal(t, 200, code)
	assert.Contains(t, got, `{"model":"other","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"hi"}],"seed":7,"stream":true`)

	// The page never shows the key.
	code, page := get(t, s, "/t/ask.hbs")
	require.Equal(t, 200, code)
	assert.NotContains(t, page, "sk-secret")
	assert.NotContains(t, page, model.URL)
	assert.Contains(t, page, `<button type="button" id="run-button">Run</button>`)
	assert.Contains(t, page, `id="run-model" value="gpt-test"`)
	assert.Contains(t, page, `id="run-config" value="{&#34;temperature&#34;:0.5}"`)
}

func TestRunRefusals(t *testing.T) {
	var got string
	model := openAIStandIn(t, &got)
	target := Targets(Target{Name: "openai", Endpoint: run.Endpoint{Protocol: run.OpenAI, BaseURL: model.URL}})
	dir := writeDir(t, map[string]string{"ask.hbs": runPrompt, "nomodel.hbs": "{{#user}}hi{{/user}}", "broken.hbs": "{{#if x}}"})
	s := newServer(t, dir, target)
	for _, tc := range []struct {
		name, path, body string
		header           map[string]string
		code             int
		want             string
	}{
		{"another site", "/run/ask.hbs", `{"form":"","target":"openai"}`, map[string]string{"Origin": "http://evil.example"}, 403, "a run starts from the page only\n"},
		{"a plain form", "/run/ask.hbs", `form=`, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, 415, "a run is posted as application/json\n"},
		{"unknown target", "/run/ask.hbs", `{"form":"","target":"http://elsewhere"}`, nil, 200, `{"msg":"no target named \"http://elsewhere\"","type":"error"}` + "\n"},
		{"no model", "/run/nomodel.hbs", `{"form":"","target":"openai"}`, nil, 200,
			`{"msg":"no model: the front matter declares none (model:); name one for this run","type":"error"}` + "\n"},
		{"bad config", "/run/ask.hbs", `{"form":"v.q=x","target":"openai","config":"[1]"}`, nil, 200, `{"msg":"config: [1] is not a JSON object","type":"error"}` + "\n"},
		{"does not parse", "/run/broken.hbs", `{"form":"","target":"openai"}`, nil, 200, "the template does not render: broken.hbs:1:"},
		{"not a template", "/run/notes.txt", `{}`, nil, 404, "404 page not found\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got = ""
			code, body := postRun(t, s, tc.path, tc.body, tc.header)
			assert.Equal(t, tc.code, code)
			if strings.HasSuffix(tc.want, "\n") {
				assert.Equal(t, tc.want, body)
			} else {
				assert.Contains(t, body, tc.want)
			}
			assert.Empty(t, got, "the model was called")
		})
	}

	// Without a target the button is disabled and says what to set.
	s = newServer(t, dir)
	_, page := get(t, s, "/t/ask.hbs")
	assert.Contains(t, page, `<button type="button" id="run-button" disabled>Run</button> <span id="run-hint" class="help">To run prompts, restart rolemark serve with OPENAI_API_KEY`)
	_, body := postRun(t, s, "/run/ask.hbs", `{"form":"","target":"openai"}`, nil)
	assert.Contains(t, body, `"msg":"To run prompts, restart rolemark serve with OPENAI_API_KEY`)
}

// TestRunOff: with RunOff the page offers no Run, says why instead of what
// to set, and /run starts nothing, though targets were given.
func TestRunOff(t *testing.T) {
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the model was called: %s", r.URL)
	}))
	defer model.Close()
	dir := writeDir(t, map[string]string{"ask.hbs": `{{role "user"}}hi`})
	s := newServer(t, dir, Targets(Target{Name: "openai", Endpoint: run.Endpoint{Protocol: run.OpenAI, BaseURL: model.URL, APIKey: "sk"}}),
		RunOff("Run is off: the page listens where other machines reach it."))
	_, page := get(t, s, "/t/ask.hbs")
	assert.Contains(t, page, `<button type="button" id="run-button" disabled>Run</button> <span id="run-hint" class="help">Run is off: the page listens where other machines reach it.</span>`)
	_, body := postRun(t, s, "/run/ask.hbs", `{"form":"","target":"openai"}`, nil)
	assert.Contains(t, body, `"msg":"Run is off: the page listens where other machines reach it."`)
}
