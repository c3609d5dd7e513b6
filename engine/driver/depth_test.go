package driver

import "testing"

// BenchmarkCheckDepth checks a conversation's worth of JSON-decoded data:
// 50 messages, each a map with a list of two parts.
func BenchmarkCheckDepth(b *testing.B) {
	msgs := make([]any, 50)
	for i := range msgs {
		msgs[i] = map[string]any{
			"role":    "user",
			"content": []any{map[string]any{"type": "text", "text": "hello"}, map[string]any{"type": "text", "text": "again"}},
		}
	}
	v := map[string]any{"messages": msgs, "n": 3}
	for b.Loop() {
		if err := CheckDepth("data", v); err != nil {
			b.Fatal(err)
		}
	}
}
