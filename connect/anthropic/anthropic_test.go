package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/fixture/wiretest"
)

var update = flag.Bool("update", false, "rewrite testdata/request.golden.json")

// conversation is a tool-using exchange with an image and the settings of
// its request.
func conversation() ([]chat.Message, chat.Settings) {
	msgs := wiretest.Conversation("toolu_1", `{"currency":"EUR"}`, chat.Part{Type: chat.PartImage, URL: "https://example.com/note.jpg"})
	s := chat.Settings{
		Model:      "claude-sonnet-4-5",
		Config:     map[string]any{"maxOutputTokens": 1024, "temperature": 0.2, "topK": 40, "stop": "END", "service_tier": "auto"},
		Tools:      []chat.Tool{wiretest.GetRate()},
		ToolChoice: chat.ToolRequired,
		Output: chat.Output{Format: chat.OutputJSON,
			Schema: json.RawMessage(`{"type":"object","properties":{"usd":{"type":"number"}},"required":["usd"],"additionalProperties":false}`)},
	}
	return msgs, s
}

func TestClientRoundTrip(t *testing.T) {
	srv, body := wiretest.Server(t, "/v1/messages")
	msgs, s := conversation()
	params, err := Params(msgs, s)
	require.NoError(t, err)

	client := anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
	reply, err := client.Messages.New(context.Background(), params)
	require.NoError(t, err)

	wiretest.Golden(t, *body, *update)
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
	t.Helper()
	return textBlocks(t, body, func(v map[string]any) []string {
		if v["type"] == "tool_result" {
			return []string{"content"}
		}
		if _, ok := v["messages"]; ok {
			return []string{"system"}
		}
		return nil
	})
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
	wiretest.Replies(t, []wiretest.ReplyCase{
		{Name: "text", Reply: `{"role":"assistant","content":[{"type":"text","text":"1.08 USD."}]}`,
			Want: chat.Text(chat.RoleAssistant, "1.08 USD.")},
		{Name: "tool use without input", Reply: `{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"now"}]}`,
			Want: chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "t", Name: "now", Arguments: json.RawMessage(`{}`)}}}},
		{Name: "thinking has no chat form", Reply: `{"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"s"},{"type":"text","text":"x"}]}`,
			WantErr: `anthropic: content block 1 is "thinking", which has no chat form`},
	}, Reply)
}

func TestParamsErrors(t *testing.T) {
	msgs, s := conversation()
	delete(s.Config, "maxOutputTokens")
	_, err := Params(msgs, s)
	var re *chat.RequestError
	require.True(t, errors.As(err, &re), "%v", err)
	assert.Equal(t, "config.max_tokens", re.Field)
}
