package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
)

var update = flag.Bool("update", false, "rewrite testdata/request.golden.json")

// conversation is a tool-using exchange with an image and the settings of
// its request.
func conversation() ([]chat.Message, chat.Settings) {
	msgs := []chat.Message{
		chat.Text(chat.RoleSystem, "You are a bank manager."),
		{Role: chat.RoleUser, Content: []chat.Part{
			chat.TextPart("What is this note worth in dollars?"),
			{Type: chat.PartImage, URL: "https://example.com/note.jpg"},
		}},
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{
			{ID: "toolu_1", Name: "get_rate", Arguments: json.RawMessage(`{"currency":"EUR"}`)},
		}},
		{Role: chat.RoleTool, ToolCallID: "toolu_1", Content: []chat.Part{chat.TextPart("1.08")}},
	}
	s := chat.Settings{
		Model:  "claude-sonnet-4-5",
		Config: map[string]any{"maxOutputTokens": 1024, "temperature": 0.2, "topK": 40, "stop": "END", "service_tier": "auto"},
		Tools: []chat.Tool{{Name: "get_rate", Description: "Exchange rate of a currency",
			Parameters: json.RawMessage(`{"type":"object","properties":{"currency":{"type":"string"}},"required":["currency"]}`)}},
		ToolChoice: chat.ToolRequired,
		Output: chat.Output{Format: chat.OutputJSON,
			Schema: json.RawMessage(`{"type":"object","properties":{"usd":{"type":"number"}},"required":["usd"],"additionalProperties":false}`)},
	}
	return msgs, s
}

func server(t *testing.T) (*httptest.Server, *[]byte) {
	t.Helper()
	reply, err := os.ReadFile("testdata/reply.json")
	require.NoError(t, err)
	var got []byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/messages" {
			http.Error(w, "unexpected path "+r.URL.Path, http.StatusNotFound)
			return
		}
		got, _ = io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(reply)
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

func TestClientRoundTrip(t *testing.T) {
	srv, body := server(t)
	msgs, s := conversation()
	params, err := Params(msgs, s)
	require.NoError(t, err)

	client := anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
	reply, err := client.Messages.New(context.Background(), params)
	require.NoError(t, err)

	if *update {
		var v any
		require.NoError(t, json.Unmarshal(*body, &v))
		b, _ := json.MarshalIndent(v, "", "  ")
		require.NoError(t, os.WriteFile("testdata/request.golden.json", append(b, '\n'), 0o644))
	}
	golden, err := os.ReadFile("testdata/request.golden.json")
	require.NoError(t, err)
	assert.JSONEq(t, string(golden), string(*body))
	want, err := chat.AnthropicBody(msgs, s)
	require.NoError(t, err)
	assert.JSONEq(t, systemAsBlocks(t, want), string(*body))

	got, err := Reply(reply)
	require.NoError(t, err)
	assert.Equal(t, chat.Message{Role: chat.RoleAssistant,
		Content:   []chat.Part{chat.TextPart("I'll look up the current rate.")},
		ToolCalls: []chat.ToolCall{{ID: "toolu_01A09q90qw90lq917835lq9", Name: "get_rate", Arguments: json.RawMessage(`{"currency": "USD"}`)}},
	}, got)
}

// systemAsBlocks writes a body's system string, and the string content of
// each tool result, as the one text block the client sends for each.
func systemAsBlocks(t *testing.T, body []byte) string {
	var v map[string]any
	require.NoError(t, json.Unmarshal(body, &v))
	if s, ok := v["system"].(string); ok {
		v["system"] = []any{map[string]any{"type": "text", "text": s}}
	}
	for _, m := range v["messages"].([]any) {
		for _, b := range m.(map[string]any)["content"].([]any) {
			b := b.(map[string]any)
			if s, ok := b["content"].(string); ok && b["type"] == "tool_result" {
				b["content"] = []any{map[string]any{"type": "text", "text": s}}
			}
		}
	}
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestMessagesAndTools(t *testing.T) {
	msgs, s := conversation()
	system, params, err := Messages(msgs)
	require.NoError(t, err)
	tools, err := Tools(append(s.Tools, chat.Tool{Name: "now"}))
	require.NoError(t, err)
	got, err := json.Marshal(map[string]any{"system": system, "messages": params, "tools": tools})
	require.NoError(t, err)
	assert.JSONEq(t, `{"system":[{"type":"text","text":"You are a bank manager."}],
	"messages":[
	  {"role":"user","content":[{"type":"text","text":"What is this note worth in dollars?"},{"type":"image","source":{"type":"url","url":"https://example.com/note.jpg"}}]},
	  {"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"get_rate","input":{"currency":"EUR"}}]},
	  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"1.08"}]}]}],
	"tools":[
	  {"name":"get_rate","description":"Exchange rate of a currency","input_schema":{"type":"object","properties":{"currency":{"type":"string"}},"required":["currency"]}},
	  {"name":"now","input_schema":{"type":"object","properties":{}}}]}`, string(got))
}

func TestReply(t *testing.T) {
	tests := []struct {
		name    string
		reply   string
		want    chat.Message
		wantErr string
	}{
		{name: "text", reply: `{"role":"assistant","content":[{"type":"text","text":"1.08 USD."}]}`,
			want: chat.Text(chat.RoleAssistant, "1.08 USD.")},
		{name: "tool use without input", reply: `{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"now"}]}`,
			want: chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "t", Name: "now", Arguments: json.RawMessage(`{}`)}}}},
		{name: "thinking has no chat form", reply: `{"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"s"},{"type":"text","text":"x"}]}`,
			wantErr: `anthropic: content block 1 is "thinking", which has no chat form`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m anthropic.Message
			require.NoError(t, json.Unmarshal([]byte(tt.reply), &m))
			got, err := Reply(&m)
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestParamsErrors(t *testing.T) {
	msgs, s := conversation()
	delete(s.Config, "maxOutputTokens")
	_, err := Params(msgs, s)
	var re *chat.RequestError
	require.True(t, errors.As(err, &re), "%v", err)
	assert.Equal(t, "config.max_tokens", re.Field)
}
