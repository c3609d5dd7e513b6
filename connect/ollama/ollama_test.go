package ollama

import (
	"context"
	"encoding/json"
	"flag"
	"net/url"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/fixture/wiretest"
)

var update = flag.Bool("update", false, "rewrite testdata/request.golden.json")

func conversation() ([]chat.Message, chat.Settings) {
	msgs := wiretest.Conversation("c1", `{"currency":"EUR","date":"today"}`, chat.Part{Type: chat.PartImage, URL: chat.DataURI("image/png", []byte("\x89PNG"))})
	s := chat.Settings{
		Model:  "qwen3:8b",
		Config: map[string]any{"temperature": 0.2, "maxOutputTokens": 300, "num_ctx": 8192, "stop": "END"},
		Tools: []chat.Tool{{Name: "get_rate", Description: "Exchange rate of a currency",
			Parameters: json.RawMessage(`{"type":"object","properties":{"currency":{"type":"string","enum":["EUR","USD"]},"date":{"type":"string"}},"required":["currency"]}`)}},
		Output: chat.Output{Format: chat.OutputJSON,
			Schema: json.RawMessage(`{"type":"object","properties":{"usd":{"type":"number"}},"required":["usd"]}`)},
	}
	return msgs, s
}

func TestClientRoundTrip(t *testing.T) {
	srv, body := wiretest.Server(t, "/api/chat")

	msgs, s := conversation()
	req, err := ChatRequest(msgs, s)
	require.NoError(t, err)
	base, err := url.Parse(srv.URL)
	require.NoError(t, err)
	var resp api.ChatResponse
	err = api.NewClient(base, srv.Client()).Chat(context.Background(), req, func(r api.ChatResponse) error {
		resp = r
		return nil
	})
	require.NoError(t, err)

	wiretest.Golden(t, *body, *update)

	got, err := Reply(resp)
	require.NoError(t, err)
	assert.Equal(t, chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{
		{ID: "call_m0ul1x7q", Name: "get_rate", Arguments: json.RawMessage(`{"currency":"USD","date":"today"}`)},
	}}, got)
}

func TestErrors(t *testing.T) {
	msgs, s := conversation()
	with := func(f func(*chat.Settings)) chat.Settings {
		c := s
		c.Config = map[string]any{}
		f(&c)
		return c
	}
	tests := []struct {
		name string
		msgs []chat.Message
		s    chat.Settings
		want string
	}{
		{"no model", msgs, chat.Settings{}, "ollama: model: a request needs a model"},
		{"image by URL", []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartImage, URL: "https://x/a.png"}}}}, s,
			`ollama: message 1: image "https://x/a.png": Ollama takes images as bytes: give a data: URI`},
		{"audio", []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartAudio, URL: "data:audio/wav;base64,UklGRg=="}}}}, s,
			"ollama: message 1: audio parts have no Ollama form"},
		{"participant name", []chat.Message{{Role: chat.RoleUser, Name: "alice"}}, s,
			`ollama: message 1: Ollama messages have no participant name ("alice")`},
		{"arguments not an object", []chat.Message{{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "a", Name: "f", Arguments: json.RawMessage(`[1]`)}}}}, s,
			`ollama: message 1: tool call "a": Ollama needs the arguments as a JSON object, not [1]`},
		{"unknown option", msgs, with(func(s *chat.Settings) { s.Config["logit_bias"] = 1 }),
			"ollama: config.logit_bias: Ollama has no such option"},
		{"option twice", msgs, with(func(s *chat.Settings) { s.Config["max_tokens"] = 1; s.Config["num_predict"] = 2 }),
			"num_predict is given twice (under two of its names)"},
		{"tool choice", msgs, with(func(s *chat.Settings) { s.ToolChoice = chat.ToolRequired }),
			`ollama: tool_choice: "required": Ollama always lets the model choose (auto)`},
		{"schema keyword Ollama drops", msgs, with(func(s *chat.Settings) {
			s.Tools = []chat.Tool{{Name: "f", Parameters: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}`)}}
		}), `ollama: tool "f": Ollama's tool schema cannot hold {"type":"object","properties":{"n":{"type":"integer","minimum":1}}} (it keeps {"type":"object","properties":{"n":{"type":"integer"}}})`},
		{"output format", msgs, with(func(s *chat.Settings) { s.Output = chat.Output{Format: "media"} }),
			`ollama: output.format: "media": Ollama takes text or json`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ChatRequest(tt.msgs, tt.s)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
