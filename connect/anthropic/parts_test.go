package anthropic

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/fixture/wiretest"
)

// TestEveryPartKind sends a message of every kind the Messages API takes
// through the official client to a test server and asserts the exact body:
// text, images by URL and inline, a PDF, a system message in the middle
// (joined into the system prompt, the API's only place for it), an
// assistant's text with a tool call, and the tool's result. Audio, which
// the API has no form for, is an error naming it.
func TestEveryPartKind(t *testing.T) {
	srv, body := wiretest.Server(t, "/v1/messages")
	msgs := []chat.Message{
		chat.Text(chat.RoleSystem, "S1"),
		{Role: chat.RoleUser, Content: []chat.Part{chat.TextPart("look"),
			{Type: chat.PartImage, URL: "https://example.com/a.png"},
			{Type: chat.PartImage, URL: "data:image/png;base64,iVBORw0KGgo=", MediaType: "image/png"},
			{Type: chat.PartFile, URL: "data:application/pdf;base64,JVBERi0=", MediaType: "application/pdf"}}},
		chat.Text(chat.RoleSystem, "S2 in the middle"),
		{Role: chat.RoleAssistant, Content: []chat.Part{chat.TextPart("calling")},
			ToolCalls: []chat.ToolCall{{ID: "c1", Name: "get_rate", Arguments: json.RawMessage(`{"currency":"EUR"}`)}}},
		{Role: chat.RoleTool, ToolCallID: "c1", Content: []chat.Part{chat.TextPart("1.08")}},
	}
	s := chat.Settings{Model: "claude-sonnet-4-5", Config: map[string]any{"maxOutputTokens": 100}}
	params, err := Params(msgs, s)
	require.NoError(t, err)
	client := anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
	_, err = client.Messages.New(context.Background(), params)
	require.NoError(t, err)
	assert.JSONEq(t, `{"model":"claude-sonnet-4-5","max_tokens":100,
		"system":[{"type":"text","text":"S1\n\nS2 in the middle"}],
		"messages":[
		{"role":"user","content":[{"type":"text","text":"look"},
			{"type":"image","source":{"type":"url","url":"https://example.com/a.png"}},
			{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}},
			{"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBERi0="}}]},
		{"role":"assistant","content":[{"type":"text","text":"calling"},{"type":"tool_use","id":"c1","name":"get_rate","input":{"currency":"EUR"}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":[{"type":"text","text":"1.08"}]}]}]}`, string(*body))

	audio := []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{chat.TextPart("hear"), {Type: chat.PartAudio, URL: "data:audio/wav;base64,UklGRg=="}}}}
	_, err = Params(audio, s)
	require.EqualError(t, err, "chat: message 1: audio parts have no Anthropic form")
}
