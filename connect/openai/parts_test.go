package openai

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/fixture/wiretest"
)

// everyPart is a conversation with every kind of part and message: text,
// an image by URL and inline, audio, a file, a participant's name, a
// system message in the middle, an assistant's text with a tool call, and
// the tool's result.
func everyPart() []chat.Message {
	return []chat.Message{
		chat.Text(chat.RoleSystem, "S1"),
		{Role: chat.RoleUser, Name: "alice", Content: []chat.Part{chat.TextPart("look"),
			{Type: chat.PartImage, URL: "https://example.com/a.png", Detail: "low"},
			{Type: chat.PartImage, URL: "data:image/png;base64,iVBORw0KGgo=", MediaType: "image/png"},
			{Type: chat.PartAudio, URL: "data:audio/wav;base64,UklGRg==", MediaType: "audio/wav"}}},
		chat.Text(chat.RoleSystem, "S2 in the middle"),
		{Role: chat.RoleAssistant, Content: []chat.Part{chat.TextPart("calling")},
			ToolCalls: []chat.ToolCall{{ID: "c1", Name: "get_rate", Arguments: json.RawMessage(`{"currency":"EUR"}`)}}},
		{Role: chat.RoleTool, ToolCallID: "c1", Content: []chat.Part{chat.TextPart("1.08")}},
		{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartFile, URL: "data:application/pdf;base64,JVBERi0=", MediaType: "application/pdf"}}},
	}
}

// TestEveryPartKind sends everyPart through the official client to a test
// server and asserts the exact body it sends. A request without tools has
// no "tools" member: the client sent "tools": [], which the API refuses
// (an empty array), and which chat.OpenAIBody does not write. A tool
// message's name, which chat.OpenAIBody writes and the client has no field
// for, was dropped; it is an error naming it.
func TestEveryPartKind(t *testing.T) {
	srv, body := wiretest.Server(t, "/chat/completions")
	params, err := Params(everyPart(), chat.Settings{Model: "gpt-4.1-mini"})
	require.NoError(t, err)
	client := openai.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
	_, err = client.Chat.Completions.New(context.Background(), params)
	require.NoError(t, err)
	assert.JSONEq(t, `{"model":"gpt-4.1-mini","messages":[
		{"role":"system","content":"S1"},
		{"role":"user","name":"alice","content":[{"type":"text","text":"look"},
			{"type":"image_url","image_url":{"url":"https://example.com/a.png","detail":"low"}},
			{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}},
			{"type":"input_audio","input_audio":{"data":"UklGRg==","format":"wav"}}]},
		{"role":"system","content":"S2 in the middle"},
		{"role":"assistant","content":"calling","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_rate","arguments":"{\"currency\":\"EUR\"}"}}]},
		{"role":"tool","content":"1.08","tool_call_id":"c1"},
		{"role":"user","content":[{"type":"file","file":{"file_data":"data:application/pdf;base64,JVBERi0="}}]}]}`, string(*body))
	want, err := chat.OpenAIBody(everyPart(), chat.Settings{Model: "gpt-4.1-mini"})
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(*body), "the client sends what chat.OpenAIBody writes")

	named := everyPart()
	named[4].Name = "get_rate"
	_, err = Params(named, chat.Settings{Model: "gpt-4.1-mini"})
	require.EqualError(t, err, `openai: message 5: the client has no field for "name": it would drop it`)

	for _, p := range []chat.Part{{Type: chat.PartAudio, URL: "https://example.com/a.wav"}, {Type: "video", URL: "https://example.com/v.mp4"}} {
		_, err = Params([]chat.Message{{Role: chat.RoleUser, Content: []chat.Part{p}}}, chat.Settings{Model: "m"})
		require.Error(t, err, "%v", p)
		assert.Contains(t, err.Error(), string(p.Type))
	}
}
