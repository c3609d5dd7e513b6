package ollama

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/fixture/wiretest"
)

// TestEveryPartKind sends a message of every kind Ollama takes through its
// client to a test server and asserts the exact body: text, an inline
// image, a system message in the middle, an assistant's text with a tool
// call, and the tool's result with its name, which is Ollama's tool_name
// (it was refused as a participant's name Ollama has no field for). What
// Ollama has no form for is an error naming it.
func TestEveryPartKind(t *testing.T) {
	srv, body := wiretest.Server(t, "/api/chat")
	msgs := []chat.Message{
		chat.Text(chat.RoleSystem, "S1"),
		{Role: chat.RoleUser, Content: []chat.Part{chat.TextPart("look"),
			{Type: chat.PartImage, URL: "data:image/png;base64,iVBORw0KGgo=", MediaType: "image/png"}}},
		chat.Text(chat.RoleSystem, "S2 in the middle"),
		{Role: chat.RoleAssistant, Content: []chat.Part{chat.TextPart("calling")},
			ToolCalls: []chat.ToolCall{{ID: "c1", Name: "get_rate", Arguments: json.RawMessage(`{"currency":"EUR"}`)}}},
		{Role: chat.RoleTool, Name: "get_rate", ToolCallID: "c1", Content: []chat.Part{chat.TextPart("1.08")}},
		{Role: chat.RoleTool, Name: "get_time", ToolCallID: "c9", Content: []chat.Part{chat.TextPart("noon")}},
	}
	req, err := ChatRequest(msgs, chat.Settings{Model: "qwen3:8b"})
	require.NoError(t, err)
	base, err := url.Parse(srv.URL)
	require.NoError(t, err)
	require.NoError(t, api.NewClient(base, srv.Client()).Chat(context.Background(), req, func(api.ChatResponse) error { return nil }))
	assert.JSONEq(t, `{"model":"qwen3:8b","messages":[
		{"role":"system","content":"S1"},
		{"role":"user","content":"look","images":["iVBORw0KGgo="]},
		{"role":"system","content":"S2 in the middle"},
		{"role":"assistant","content":"calling","tool_calls":[{"id":"c1","function":{"index":0,"name":"get_rate","arguments":{"currency":"EUR"}}}]},
		{"role":"tool","content":"1.08","tool_name":"get_rate","tool_call_id":"c1"},
		{"role":"tool","content":"noon","tool_name":"get_time","tool_call_id":"c9"}],"stream":false,"options":null}`, string(*body))

	for _, tc := range []struct {
		name    string
		msg     chat.Message
		wantErr string
	}{
		{"audio", chat.Message{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartAudio, URL: "data:audio/wav;base64,UklGRg=="}}},
			`ollama: message 2: audio parts have no Ollama form`},
		{"file", chat.Message{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartFile, URL: "data:application/pdf;base64,JVBERi0="}}},
			`ollama: message 2: file parts have no Ollama form`},
		{"image by URL", chat.Message{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartImage, URL: "https://example.com/a.png"}}},
			`ollama: message 2: image "https://example.com/a.png": Ollama takes images as bytes: give a data: URI`},
		{"participant's name", chat.Message{Role: chat.RoleUser, Name: "alice", Content: []chat.Part{chat.TextPart("hi")}},
			`ollama: message 2: Ollama messages have no participant name ("alice")`},
		{"a tool result named otherwise than its call", chat.Message{Role: chat.RoleTool, Name: "get_time", ToolCallID: "c1", Content: []chat.Part{chat.TextPart("1")}},
			`ollama: message 2: the tool result is named "get_time", its call "get_rate"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Messages([]chat.Message{msgs[3], tc.msg})
			require.EqualError(t, err, tc.wantErr)
		})
	}
}
