package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// standIn is a model server started by the test: it records each request
// it receives and answers with a stream of server-sent events, a chunk at
// a time with a pause between, so that the page shows the reply growing.
type standIn struct {
	mu       sync.Mutex
	requests []received
	events   []string
}

type received struct {
	Path   string
	Header http.Header
	Body   map[string]any
}

func (s *standIn) start(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(raw, &body); err != nil {
			http.Error(w, `{"error":{"message":"the body is not JSON"}}`, http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.requests = append(s.requests, received{Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range s.events {
			fmt.Fprint(w, ev+"\n\n")
			w.(http.Flusher).Flush()
			time.Sleep(40 * time.Millisecond)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func (s *standIn) last(t *testing.T) received {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	require.NotEmpty(t, s.requests, "the stand-in received no request")
	return s.requests[len(s.requests)-1]
}

// asJSON returns v as a JSON value decoded into any, for comparisons with
// what a stand-in received.
func asJSON(t *testing.T, src string) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(src), &v), src)
	return v
}

const ratePrompt = `---
model: gpt-4o-mini
config: {temperature: 0.2, maxOutputTokens: 300}
input:
  schema:
    currency: string, ISO code
    amount: number
  default: {currency: EUR, amount: 100}
tools:
  - name: get_rate
    description: Exchange rate of a currency against the dollar
    parameters: {type: object, properties: {currency: {type: string}}, required: [currency]}
toolChoice: auto
---
{{#system}}You convert money. Call get_rate for rates.{{/system}}
{{#user}}How much is {{amount}} {{currency}} in dollars?{{/user}}
`

var openaiEvents = []string{
	`data: {"id":"c1","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}`,
	`data: {"choices":[{"index":0,"delta":{"content":"Let me look "}}]}`,
	`data: {"choices":[{"index":0,"delta":{"content":"that up."}}]}`,
	`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_7","type":"function","function":{"name":"get_rate","arguments":""}}]}}]}`,
	`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"curr"}}]}}]}`,
	`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ency\":\"GBP\"}"}}]}}]}`,
	`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`,
	`data: {"choices":[],"usage":{"prompt_tokens":57,"completion_tokens":19,"total_tokens":76}}`,
	`data: [DONE]`,
}

// runState reads what the Run panel shows.
type runState struct {
	State  string   `json:"state"`
	Status string   `json:"status"`
	Reply  string   `json:"reply"`
	Calls  []string `json:"calls"`
	Stats  string   `json:"stats"`
	Error  string   `json:"error"`
}

const runStateJS = `({
  state: document.querySelector('#run').getAttribute('data-state') || '',
  status: document.querySelector('#run-status').textContent,
  reply: document.querySelector('#reply').textContent,
  calls: Array.from(document.querySelectorAll('#calls .toolcall')).map(d =>
    d.querySelector('.tname').textContent + ' ' + d.querySelector('.callid').textContent + ' ' + d.querySelector('.args').textContent),
  stats: document.querySelector('#run-stats').textContent,
  error: document.querySelector('#run-error').textContent,
})`

// pressRun presses Run, waits until the run is over and returns what the
// panel shows; it checks that the reply showed before the run ended.
func pressRun(t *testing.T, ctx context.Context) runState {
	t.Helper()
	require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`document.querySelector('#run-button').click(); true`, nil)))
	var sawPartial bool
	var st runState
	deadline := time.Now().Add(20 * time.Second)
	for {
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(runStateJS, &st)))
		if st.State == "running" && st.Reply != "" {
			sawPartial = true
		}
		if st.State == "done" || st.State == "error" {
			break
		}
		require.True(t, time.Now().Before(deadline), "the run did not end: %+v", st)
		time.Sleep(20 * time.Millisecond)
	}
	if st.State == "done" {
		assert.True(t, sawPartial, "the reply never showed while it streamed")
	}
	return st
}

func TestRunOpenAI(t *testing.T) {
	ctx := browser(t)
	model := &standIn{events: openaiEvents}
	srv := model.start(t)
	dir := filepath.Join(t.TempDir(), "prompts")
	write(t, dir, "rate.prompt", ratePrompt)
	base := serveEnv(t, dir, "OPENAI_BASE_URL="+srv.URL+"/v1", "OPENAI_API_KEY=sk-e2e-secret")
	shots := os.Getenv("ROLEMARK_SCREENSHOTS")

	var html string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(base+"/t/rate.prompt"),
		chromedp.WaitVisible(`#run-button`, chromedp.ByQuery),
		setValue(`[name="v.currency"]`, "GBP"),
		chromedp.Evaluate(`document.documentElement.outerHTML`, &html),
	))
	assert.NotContains(t, html, "sk-e2e-secret", "the key reached the page")
	assert.NotContains(t, html, srv.URL, "the endpoint reached the page")

	st := pressRun(t, ctx)
	assert.Equal(t, "done", st.State, "%+v", st)
	assert.Equal(t, "done (tool_calls)", st.Status)
	assert.Equal(t, "Let me look that up.", st.Reply)
	assert.Equal(t, []string{"get_rate call_7 {\n  \"currency\": \"GBP\"\n}"}, st.Calls)
	assert.Regexp(t, `^57 tokens in · 19 tokens out · first byte \d+ ms · total \d+ ms$`, st.Stats)

	got := model.last(t)
	assert.Equal(t, "/v1/chat/completions", got.Path)
	assert.Equal(t, "Bearer sk-e2e-secret", got.Header.Get("Authorization"))
	assert.Equal(t, asJSON(t, `{
		"model": "gpt-4o-mini",
		"messages": [
			{"role": "system", "content": "You convert money. Call get_rate for rates."},
			{"role": "user", "content": "How much is 100 GBP in dollars?"}
		],
		"tools": [{"type": "function", "function": {"name": "get_rate", "description": "Exchange rate of a currency against the dollar",
			"parameters": {"type": "object", "properties": {"currency": {"type": "string"}}, "required": ["currency"]}}}],
		"tool_choice": "auto",
		"max_completion_tokens": 300,
		"temperature": 0.2,
		"stream": true,
		"stream_options": {"include_usage": true}
	}`), got.Body)
	if shots != "" {
		screenshot(t, ctx, filepath.Join(shots, "preview-run.png"))
	}

	// Model and config overridden for one run.
	require.NoError(t, chromedp.Run(ctx,
		setValue(`#run-model`, "llama3.1:8b"),
		setValue(`#run-config`, `{"temperature": 0, "seed": 42}`),
	))
	st = pressRun(t, ctx)
	assert.Equal(t, "done", st.State, "%+v", st)
	got = model.last(t)
	assert.Equal(t, "llama3.1:8b", got.Body["model"])
	assert.Equal(t, float64(0), got.Body["temperature"])
	assert.Equal(t, float64(42), got.Body["seed"])
	assert.NotContains(t, got.Body, "max_completion_tokens")

	// A config the target cannot carry is the builder's error, on the page.
	require.NoError(t, chromedp.Run(ctx, setValue(`#run-config`, `{"topK": 3}`)))
	st = pressRun(t, ctx)
	assert.Equal(t, "error", st.State)
	assert.Equal(t, "chat: openai request: config.topK: has no openai equivalent", st.Error)
}

// TestRunWithoutKey: with no endpoint set, the button is disabled and says
// what to set.
func TestRunWithoutKey(t *testing.T) {
	ctx := browser(t)
	dir := filepath.Join(t.TempDir(), "prompts")
	write(t, dir, "rate.prompt", ratePrompt)
	base := serveEnv(t, dir)
	var disabled bool
	var hint string
	require.NoError(t, chromedp.Run(ctx,
		chromedp.Navigate(base+"/t/rate.prompt"),
		chromedp.WaitVisible(`#run-button`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector('#run-button').disabled`, &disabled),
		text(`#run-hint`, &hint),
	))
	assert.True(t, disabled)
	assert.True(t, strings.HasPrefix(hint, "To run prompts, restart rolemark serve with OPENAI_API_KEY"), hint)
}
