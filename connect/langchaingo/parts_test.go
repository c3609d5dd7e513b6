package langchaingo

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/fixture/wiretest"
)

// TestEveryPartKind sends a message of every kind through langchaingo's
// OpenAI client to a test server and asserts the exact body it sends.
func TestEveryPartKind(t *testing.T) {
	srv, body := wiretest.Server(t, "")
	msgs := []chat.Message{
		chat.Text(chat.RoleSystem, "S1"),
		{Role: chat.RoleUser, Content: []chat.Part{chat.TextPart("look"),
			{Type: chat.PartImage, URL: "https://example.com/a.png", Detail: "low"},
			{Type: chat.PartImage, URL: "data:image/png;base64,iVBORw0KGgo=", MediaType: "image/png"},
			{Type: chat.PartAudio, URL: "data:audio/wav;base64,UklGRg==", MediaType: "audio/wav"},
			{Type: chat.PartFile, URL: "data:application/pdf;base64,JVBERi0=", MediaType: "application/pdf"}}},
		chat.Text(chat.RoleSystem, "S2 in the middle"),
		{Role: chat.RoleAssistant, Content: []chat.Part{chat.TextPart("calling")},
			ToolCalls: []chat.ToolCall{{ID: "c1", Name: "get_rate", Arguments: json.RawMessage(`{"currency":"EUR"}`)}}},
		{Role: chat.RoleTool, Name: "get_rate", ToolCallID: "c1", Content: []chat.Part{chat.TextPart("1.08")}},
	}
	content, err := Messages(msgs)
	require.NoError(t, err)
	llm, err := openai.New(openai.WithBaseURL(srv.URL), openai.WithToken("test"), openai.WithModel("gpt-4.1-mini"))
	require.NoError(t, err)
	_, err = llm.GenerateContent(context.Background(), content)
	require.NoError(t, err)
	// langchaingo's OpenAI client writes inline media (llms.BinaryContent)
	// as a "binary" part, and leaves out the tool result's name, which the
	// connector now carries (it was refused as a participant's name).
	assert.JSONEq(t, `{"model":"gpt-4.1-mini","temperature":0,"messages":[
		{"role":"system","content":"S1"},
		{"role":"user","content":[{"text":"look","type":"text"},
			{"type":"image_url","image_url":{"detail":"low","url":"https://example.com/a.png"}},
			{"type":"binary","binary":{"data":"iVBORw0KGgo=","mime_type":"image/png"}},
			{"type":"binary","binary":{"data":"UklGRg==","mime_type":"audio/wav"}},
			{"type":"binary","binary":{"data":"JVBERi0=","mime_type":"application/pdf"}}]},
		{"role":"system","content":"S2 in the middle"},
		{"role":"assistant","content":"calling","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_rate","arguments":"{\"currency\":\"EUR\"}"}}]},
		{"role":"tool","content":"1.08","tool_call_id":"c1"}]}`, string(*body))
	got, err := Messages(msgs[3:])
	require.NoError(t, err)
	assert.Equal(t, llms.ToolCallResponse{ToolCallID: "c1", Name: "get_rate", Content: "1.08"}, got[1].Parts[0])

	for _, tc := range []struct {
		name    string
		msg     chat.Message
		wantErr string
	}{
		{"audio by URL", chat.Message{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartAudio, URL: "https://example.com/a.wav"}}},
			`langchaingo: message 2: audio "https://example.com/a.wav": langchaingo takes audio and files only as data (a data: URI)`},
		{"participant's name", chat.Message{Role: chat.RoleUser, Name: "alice", Content: []chat.Part{chat.TextPart("hi")}},
			`langchaingo: message 2: langchaingo messages have no participant name ("alice")`},
		{"a tool result named otherwise than its call", chat.Message{Role: chat.RoleTool, Name: "get_time", ToolCallID: "c1", Content: []chat.Part{chat.TextPart("1")}},
			`langchaingo: message 2: the tool result is named "get_time", its call "get_rate"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Messages([]chat.Message{msgs[3], tc.msg})
			require.EqualError(t, err, tc.wantErr)
		})
	}
}
