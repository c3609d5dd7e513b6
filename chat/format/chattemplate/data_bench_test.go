package chattemplate

import (
	"encoding/json"
	"testing"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format/internal/option"
)

// BenchmarkData converts a tool-call conversation to the template's
// variables and releases them, as every rendering does.
func BenchmarkData(b *testing.B) {
	t, err := New("{{ messages }}", Token("bos_token", "<s>"), Token("eos_token", "</s>"))
	if err != nil {
		b.Fatal(err)
	}
	msgs := benchConversation()
	opts := option.Settings{AddGenerationPrompt: true}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		rd := t.getData()
		if err := t.data(rd, msgs, nil, nil, nil, nil, &opts); err != nil {
			b.Fatal(err)
		}
		rd.reset(t)
		t.putData(rd)
	}
}

// BenchmarkSeenHash is the fingerprint a rendering takes of a
// conversation it does not find kept.
func BenchmarkSeenHash(b *testing.B) {
	t, err := New("{{ messages }}")
	if err != nil {
		b.Fatal(err)
	}
	msgs := benchConversation()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		t.seenHash(msgs)
	}
}

// benchConversation is a tool-call conversation of 7 messages.
func benchConversation() []chat.Message {
	return []chat.Message{
		chat.Text(chat.RoleSystem, "You are a helpful assistant."),
		chat.Text(chat.RoleUser, "Weather and time in Paris?"),
		{Role: chat.RoleAssistant, Content: []chat.Part{{Type: chat.PartText, Text: "Let me check."}}, ToolCalls: []chat.ToolCall{
			{ID: "call00001", Name: "get_weather", Arguments: json.RawMessage(`{"city": "Paris", "unit": "°C"}`)},
			{ID: "call00002", Name: "get_time", Arguments: json.RawMessage(`{"tz": "Europe/Paris"}`)}}},
		{Role: chat.RoleTool, ToolCallID: "call00001", Content: []chat.Part{{Type: chat.PartText, Text: `{"temp": 20}`}}},
		{Role: chat.RoleTool, ToolCallID: "call00002", Content: []chat.Part{{Type: chat.PartText, Text: `"12:00"`}}},
		chat.Text(chat.RoleAssistant, "It is 20 °C and noon."),
		chat.Text(chat.RoleUser, "Thanks!"),
	}
}

// BenchmarkConversationKept finds the kept conversation again: what a
// rendering of the same history pays to know it is the same.
func BenchmarkConversationKept(b *testing.B) {
	t, err := New("{{ messages }}", Token("eos_token", "<|im_end|>"))
	if err != nil {
		b.Fatal(err)
	}
	msgs := benchConversation()
	t.conversation(msgs, true) // seen
	t.conversation(msgs, true) // kept
	if t.conv.Load() == nil {
		b.Fatal("not kept")
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, kc, _ := t.conversation(msgs, true); kc == nil {
			b.Fatal("not kept")
		}
	}
}
