package langchaingo

import (
	"context"
	"encoding/json"
	"flag"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/fixture/wiretest"
)

var update = flag.Bool("update", false, "rewrite testdata/request.golden.json")

func conversation() ([]chat.Message, chat.Settings) {
	msgs := wiretest.Conversation("c1", `{"currency":"EUR"}`, chat.Part{Type: chat.PartImage, URL: "https://example.com/note.jpg", Detail: "low"})
	s := chat.Settings{
		Model:      "gpt-4.1-mini",
		Config:     map[string]any{"temperature": 0.2, "maxOutputTokens": 300, "seed": 7, "stop": "END"},
		Tools:      []chat.Tool{wiretest.GetRate()},
		ToolChoice: "get_rate",
	}
	return msgs, s
}

func TestClientRoundTrip(t *testing.T) {
	srv, body := wiretest.Server(t, "")

	msgs, s := conversation()
	content, err := Messages(msgs)
	require.NoError(t, err)
	opts, err := Options(s)
	require.NoError(t, err)
	llm, err := openai.New(openai.WithBaseURL(srv.URL), openai.WithToken("test"), openai.WithModel("unused"))
	require.NoError(t, err)
	resp, err := llm.GenerateContent(context.Background(), content, opts...)
	require.NoError(t, err)

	wiretest.Golden(t, *body, *update)

	got, err := Reply(resp)
	require.NoError(t, err)
	assert.Equal(t, chat.Message{Role: chat.RoleAssistant, Content: []chat.Part{chat.TextPart("Let me look that up.")},
		ToolCalls: []chat.ToolCall{{ID: "call_7qRHzAe8oXqbq1rGSpcYBKtd", Name: "get_rate", Arguments: json.RawMessage(`{"currency":"USD"}`)}},
	}, got)
}

func TestMessages(t *testing.T) {
	msgs := []chat.Message{
		chat.Text(chat.RoleDeveloper, "Be brief."),
		{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartImage, URL: chat.DataURI("image/png", []byte("PNG"))},
			{Type: chat.PartFile, URL: "data:;base64,JVBERi0=", MediaType: "application/pdf"}}},
		{Role: chat.RoleAssistant, Content: []chat.Part{chat.TextPart("Checking.")}, ToolCalls: []chat.ToolCall{{ID: "a", Name: "now"}}},
		{Role: chat.RoleTool, ToolCallID: "a", Content: []chat.Part{chat.TextPart("noon")}},
	}
	got, err := Messages(msgs)
	require.NoError(t, err)
	assert.Equal(t, []llms.MessageContent{
		{Role: llms.ChatMessageTypeSystem, Parts: []llms.ContentPart{llms.TextContent{Text: "Be brief."}}},
		{Role: llms.ChatMessageTypeHuman, Parts: []llms.ContentPart{llms.BinaryContent{MIMEType: "image/png", Data: []byte("PNG")},
			llms.BinaryContent{MIMEType: "application/pdf", Data: []byte("%PDF-")}}},
		{Role: llms.ChatMessageTypeAI, Parts: []llms.ContentPart{llms.TextContent{Text: "Checking."},
			llms.ToolCall{ID: "a", Type: "function", FunctionCall: &llms.FunctionCall{Name: "now", Arguments: "{}"}}}},
		{Role: llms.ChatMessageTypeTool, Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: "a", Name: "now", Content: "noon"}}},
	}, got)
}

func TestErrors(t *testing.T) {
	_, s := conversation()
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"participant name", func() error {
			_, err := Messages([]chat.Message{{Role: chat.RoleUser, Name: "alice", Content: []chat.Part{chat.TextPart("hi")}}})
			return err
		}, `langchaingo: message 1: langchaingo messages have no participant name ("alice")`},
		{"audio by URL", func() error {
			_, err := Messages([]chat.Message{{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartAudio, URL: "https://x/a.wav"}}}})
			return err
		}, `langchaingo: message 1: audio "https://x/a.wav": langchaingo takes audio and files only as data (a data: URI)`},
		{"unknown parameter", func() error {
			_, err := Options(chat.Settings{Model: "m", Config: map[string]any{"thinking": true}})
			return err
		}, "langchaingo: config.thinking: langchaingo has no call option for it"},
		{"parameter of the wrong type", func() error {
			_, err := Options(chat.Settings{Model: "m", Config: map[string]any{"max_tokens": 1.5}})
			return err
		}, "langchaingo: config.max_tokens: want an integer, not 1.5"},
		{"output schema", func() error {
			_, err := Options(chat.Settings{Model: "m", Output: chat.Output{Format: chat.OutputJSON, Schema: json.RawMessage(`{}`)}})
			return err
		}, "langchaingo: output.schema: langchaingo takes a JSON schema only as a provider's client option (such as openai.WithResponseFormat), not per call"},
		{"tool choice of an unknown tool", func() error {
			s := s
			s.ToolChoice = "get_time"
			_, err := Options(s)
			return err
		}, `langchaingo: tool_choice: "get_time" is neither auto, none nor required, nor the name of one of the request's tools`},
		{"reply arguments not JSON", func() error {
			_, err := Reply(&llms.ContentResponse{Choices: []*llms.ContentChoice{{ToolCalls: []llms.ToolCall{{ID: "a", FunctionCall: &llms.FunctionCall{Name: "f", Arguments: "{x"}}}}}})
			return err
		}, `langchaingo: tool call "a": arguments are not valid JSON: "{x"`},
		{"reply arguments not JSON, long: the error quotes their start", func() error {
			_, err := Reply(&llms.ContentResponse{Choices: []*llms.ContentChoice{{ToolCalls: []llms.ToolCall{{ID: "a", FunctionCall: &llms.FunctionCall{Name: "f", Arguments: strings.Repeat("[", 100000)}}}}}})
			return err
		}, `langchaingo: tool call "a": arguments are not valid JSON: "` + strings.Repeat("[", 80) + `"… (100000 bytes)`},
		{"no choices", func() error { _, err := Reply(&llms.ContentResponse{}); return err }, "langchaingo: the response has no choices"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.EqualError(t, tt.run(), tt.want)
		})
	}
}
