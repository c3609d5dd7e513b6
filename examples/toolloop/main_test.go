package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// server plays a model that first calls get_rate and then answers with the
// rate it was given. It records the request bodies.
func server(t *testing.T) (*httptest.Server, *[]map[string]any) {
	t.Helper()
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(b, &body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		bodies = append(bodies, body)
		msgs := body["messages"].([]any)
		last := msgs[len(msgs)-1].(map[string]any)
		w.Header().Set("Content-Type", "application/json")
		if last["role"] == "tool" {
			answer := "100 EUR is " + map[string]string{"1.08": "108"}[last["content"].(string)] + " USD."
			reply, _ := json.Marshal(map[string]any{"id": "c2", "object": "chat.completion", "created": 2, "model": body["model"],
				"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
					"message": map[string]any{"role": "assistant", "content": answer}}}})
			_, _ = w.Write(reply)
			return
		}
		_, _ = io.WriteString(w, `{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"tool_calls",`+
			`"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_rate","arguments":"{\"currency\":\"EUR\"}"}}]}}]}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &bodies
}

func TestRun(t *testing.T) {
	srv, bodies := server(t)
	client := openai.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), client, "", "What is 100 EUR in USD?", &out))
	assert.Equal(t, "tool get_rate({\"currency\":\"EUR\"}) = 1.08\n100 EUR is 108 USD.\n", out.String())

	require.Len(t, *bodies, 2)
	first := (*bodies)[0]
	assert.Equal(t, "gpt-4.1-mini", first["model"])
	assert.Equal(t, 0.0, first["temperature"])
	assert.Equal(t, "get_rate", first["tools"].([]any)[0].(map[string]any)["function"].(map[string]any)["name"])
	// The partial made it into the embedded directory, the history sits
	// between the system prompt and the question.
	msgs, _ := json.Marshal(first["messages"])
	assert.JSONEq(t, `[
	  {"role":"system","content":"You are the currency desk of Acme Bank. Answer in one sentence, and use the\nget_rate tool for every exchange rate: never guess one."},
	  {"role":"user","content":"Do you change money?"},
	  {"role":"assistant","content":"Yes, at today's rate and without a fee."},
	  {"role":"user","content":"What is 100 EUR in USD?"}]`, string(msgs))
	second, _ := json.Marshal((*bodies)[1]["messages"].([]any)[4:])
	assert.JSONEq(t, `[
	  {"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_rate","arguments":"{\"currency\":\"EUR\"}"}}]},
	  {"role":"tool","content":"1.08","tool_call_id":"call_1"}]`, string(second))
}

// TestProgram runs the program itself, configured only by the environment, as
// a user would.
func TestProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the program")
	}
	srv, bodies := server(t)
	cmd := exec.Command("go", "run", ".", "What", "is", "100", "EUR", "in", "USD?")
	cmd.Env = append(os.Environ(), "OPENAI_BASE_URL="+srv.URL, "OPENAI_API_KEY=test", "MODEL=local-model")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, "tool get_rate({\"currency\":\"EUR\"}) = 1.08\n100 EUR is 108 USD.\n", string(out))
	require.Len(t, *bodies, 2)
	assert.Equal(t, "local-model", (*bodies)[0]["model"])
}
