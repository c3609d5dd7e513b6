package tokens

import (
	"encoding/json"
	"testing"

	"github.com/rolemark/rolemark/chat"
	"github.com/stretchr/testify/assert"
)

// The cookbook's example conversation ("How to count tokens with
// tiktoken"): it reports 129 prompt tokens for GPT-4 (cl100k_base) and 124
// for GPT-4o (o200k_base), as the API does.
var cookbook = []chat.Message{
	chat.Text(chat.RoleSystem, "You are a helpful, pattern-following assistant that translates corporate jargon into plain English."),
	named(chat.Text(chat.RoleSystem, "New synergies will help drive top-line growth."), "example_user"),
	named(chat.Text(chat.RoleSystem, "Things working well together will increase revenue."), "example_assistant"),
	named(chat.Text(chat.RoleSystem, "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage."), "example_user"),
	named(chat.Text(chat.RoleSystem, "Let's talk later when we're less busy about how to do better."), "example_assistant"),
	chat.Text(chat.RoleUser, "This late pivot means we don't have time to boil the ocean for the client deliverable."),
}

func named(m chat.Message, name string) chat.Message {
	m.Name = name
	return m
}

func TestCountChat(t *testing.T) {
	assert.Equal(t, 124, CountChat(tokenizer(t, "o200k_base"), cookbook))
	assert.Equal(t, 129, CountChat(tokenizer(t, "cl100k_base"), cookbook))
}

func TestCountMessageParts(t *testing.T) {
	tk := tokenizer(t, "o200k_base")
	tests := []struct {
		name string
		msg  chat.Message
		want int
	}{
		{"empty", chat.Message{Role: chat.RoleUser}, TokensPerMessage + 1},
		{"image not counted", chat.Message{Role: chat.RoleUser, Content: []chat.Part{
			chat.TextPart("Hello"), {Type: chat.PartImage, URL: "https://example.com/a.png"}}}, TokensPerMessage + 1 + 1},
		{"tool call", chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{
			{ID: "c1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}}},
			TokensPerMessage + tk.Count("assistant") + tk.Count("get_weather") + tk.Count(`{"city":"Paris"}`)},
		{"tool result", chat.Message{Role: chat.RoleTool, ToolCallID: "c1", Content: []chat.Part{chat.TextPart("sunny")}},
			TokensPerMessage + tk.Count("tool") + tk.Count("c1") + tk.Count("sunny")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, CountMessage(tk, tt.msg))
		})
	}
}
