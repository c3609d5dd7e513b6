package openai

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/fixture/wiretest"
)

var update = flag.Bool("update", false, "rewrite testdata/request.golden.json")

// conversation is a tool-using exchange with an image and the settings of
// its request.
func conversation() ([]chat.Message, chat.Settings) {
	msgs := wiretest.Conversation("c1", `{"currency":"EUR"}`, chat.Part{Type: chat.PartImage, URL: "https://example.com/note.jpg", Detail: "low"})
	msgs[1].Name = "alice"
	s := chat.Settings{
		Model:      "gpt-4.1-mini",
		Config:     map[string]any{"temperature": 0.2, "maxOutputTokens": 300, "seed": 7, "repetition_penalty": 1.05},
		Tools:      []chat.Tool{wiretest.GetRate()},
		ToolChoice: "get_rate",
		Output: chat.Output{Format: chat.OutputJSON, Name: "answer", Strict: true,
			Schema: json.RawMessage(`{"type":"object","properties":{"usd":{"type":"number"}},"required":["usd"],"additionalProperties":false}`)},
	}
	return msgs, s
}

func TestClientRoundTrip(t *testing.T) {
	srv, body := wiretest.Server(t, "/chat/completions")
	msgs, s := conversation()
	params, err := Params(msgs, s)
	require.NoError(t, err)

	client := openai.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
	completion, err := client.Chat.Completions.New(context.Background(), params)
	require.NoError(t, err)

	// The body the client sent is the committed golden body, and it says
	// what chat.OpenAIBody says.
	wiretest.Golden(t, *body, *update)
	want, err := chat.OpenAIBody(msgs, s)
	require.NoError(t, err)
	assert.JSONEq(t, withoutNullContent(t, want), string(*body))

	// The recorded reply comes back as an assistant message with its tool
	// call, ready to append to the history.
	reply, err := Reply(completion)
	require.NoError(t, err)
	assert.Equal(t, chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{
		{ID: "call_7qRHzAe8oXqbq1rGSpcYBKtd", Name: "get_rate", Arguments: json.RawMessage(`{"currency":"USD"}`)},
	}}, reply)
}

// withoutNullContent removes "content": null from a body's messages, as the
// client does when it sends them (the API reads a missing content as null).
func withoutNullContent(t *testing.T, body []byte) string {
	t.Helper()
	var v map[string]any
	require.NoError(t, json.Unmarshal(body, &v))
	for _, m := range v["messages"].([]any) {
		m := m.(map[string]any)
		if c, ok := m["content"]; ok && c == nil {
			delete(m, "content")
		}
	}
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestMessage(t *testing.T) {
	wiretest.Replies(t, []wiretest.ReplyCase{
		{Name: "text", Reply: `{"role":"assistant","content":"1 EUR is 1.08 USD."}`,
			Want: chat.Text(chat.RoleAssistant, "1 EUR is 1.08 USD.")},
		{Name: "text and two tool calls", Reply: `{"role":"assistant","content":"Checking.","tool_calls":[` +
			`{"id":"a","type":"function","function":{"name":"f","arguments":"{\"x\":1}"}},` +
			`{"id":"b","type":"function","function":{"name":"g","arguments":""}}]}`,
			Want: chat.Message{Role: chat.RoleAssistant, Content: []chat.Part{chat.TextPart("Checking.")}, ToolCalls: []chat.ToolCall{
				{ID: "a", Name: "f", Arguments: json.RawMessage(`{"x":1}`)}, {ID: "b", Name: "g", Arguments: json.RawMessage(``)}}}},
		{Name: "refusal is the text", Reply: `{"role":"assistant","content":null,"refusal":"I cannot help with that."}`,
			Want: chat.Text(chat.RoleAssistant, "I cannot help with that.")},
		{Name: "custom tool call", Reply: `{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"custom","custom":{"name":"f","input":"x"}}]}`,
			WantErr: `openai: tool call "a" has type "custom"; only function calls have a chat form`},
		{Name: "arguments not JSON", Reply: `{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{x"}}]}`,
			WantErr: `openai: tool call "a": arguments are not valid JSON: "{x"`},
		{Name: "long arguments not JSON: the error quotes their start", Reply: `{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"` + strings.Repeat("[", 100000) + `"}}]}`,
			WantErr: `openai: tool call "a": arguments are not valid JSON: "` + strings.Repeat("[", 80) + `"… (100000 bytes)`},
		{Name: "audio", Reply: `{"role":"assistant","content":null,"audio":{"id":"au_1","data":"UklGRg==","expires_at":1,"transcript":"hi"}}`,
			WantErr: "openai: audio replies have no chat form"},
	}, func(m *openai.ChatCompletionMessage) (chat.Message, error) { return Message(*m) })
}

func TestParamsErrors(t *testing.T) {
	msgs, s := conversation()
	s.Config["top_k"] = 40
	_, err := Params(msgs, s)
	var re *chat.RequestError
	require.True(t, errors.As(err, &re), "%v", err)
	assert.Equal(t, "config.top_k", re.Field)

	_, err = Reply(&openai.ChatCompletion{})
	require.EqualError(t, err, "openai: the completion has no choices")
}
