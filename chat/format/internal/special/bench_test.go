package special

import (
	"encoding/json"
	"testing"

	"github.com/rolemark/rolemark/chat"
)

// BenchmarkCheck is step 1 over a tool-call conversation with one tool,
// the same at every call, as a chat application renders its history.
func BenchmarkCheck(b *testing.B) {
	g := New([]string{"<|im_start|>", "<|im_end|>", "<|endoftext|>"})
	msgs := []chat.Message{
		chat.Text(chat.RoleSystem, "You are a helpful assistant that answers briefly and calls tools when it needs data."),
		chat.Text(chat.RoleUser, "What's the weather like in Paris and in Berlin today? I am packing for a trip."),
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{
			{ID: "call_1", Name: "get_weather", Arguments: json.RawMessage(`{"city": "Paris", "unit": "celsius"}`)},
			{ID: "call_2", Name: "get_weather", Arguments: json.RawMessage(`{"city": "Berlin", "unit": "celsius"}`)}}},
		{Role: chat.RoleTool, ToolCallID: "call_1", Content: []chat.Part{{Type: chat.PartText, Text: `{"temperature": 21, "sky": "clear"}`}}},
		{Role: chat.RoleTool, ToolCallID: "call_2", Content: []chat.Part{{Type: chat.PartText, Text: `{"temperature": 17, "sky": "rain"}`}}},
		chat.Text(chat.RoleAssistant, "Paris is sunny at 21°C; Berlin is rainy at 17°C, so pack an umbrella."),
	}
	tools := []chat.Tool{{Name: "get_weather", Description: "Get the current weather of a city.",
		Parameters: json.RawMessage(`{"type": "object", "properties": {"city": {"type": "string", "description": "The city, e.g. Paris"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}}, "required": ["city"]}`)}}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, hit := g.Check(msgs, tools, nil); hit != nil {
			b.Fatal(hit)
		}
	}
}

// BenchmarkCheckScanned is step 1 for messages scanned before (a kept
// conversation): what a rendering pays for the verdict, with no data
// beside the messages, and with one tool, the same at every call.
func BenchmarkCheckScanned(b *testing.B) {
	g := New([]string{"<s>", "</s>", "[INST]", "[/INST]"})
	marks, h := g.ScanMessage(0, &chat.Message{Role: chat.RoleUser, Content: []chat.Part{chat.TextPart("What's the weather like in Paris?")}})
	if h != nil {
		b.Fatal(h)
	}
	tools := []chat.Tool{{Name: "get_weather", Description: "Get the current weather of a city.",
		Parameters: json.RawMessage(`{"type": "object", "properties": {"city": {"type": "string", "description": "The city, e.g. Paris"}}, "required": ["city"]}`)}}
	for _, c := range []struct {
		name  string
		tools []chat.Tool
	}{{"messages", nil}, {"tools", tools}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, hit := g.CheckScanned(marks, c.tools, nil); hit != nil {
					b.Fatal(hit)
				}
			}
		})
	}
}
