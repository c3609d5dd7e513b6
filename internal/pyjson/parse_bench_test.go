package pyjson

import "testing"

// BenchmarkParse reads the parameters of two tools, JSON Schemas of
// nested objects and arrays (about 900 bytes), as chat templates' tools
// and tool-call arguments are read before a render (chattemplate, the
// prompters).
func BenchmarkParse(b *testing.B) {
	src := []byte(`[{"type": "object", "properties": {"location": {"type": "string", "description": "The city and state, e.g. San Francisco, CA"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}, "days": {"type": "integer", "minimum": 1, "maximum": 14}}, "required": ["location"]},
 {"type": "object", "properties": {"query": {"type": "string"}, "filters": {"type": "array", "items": {"type": "object", "properties": {"field": {"type": "string"}, "op": {"type": "string", "enum": ["eq", "ne", "lt", "gt"]}, "value": {"type": ["string", "number", "boolean", "null"]}}, "required": ["field", "op", "value"]}}, "limit": {"type": "integer", "default": 10}, "sort": {"type": "array", "items": {"type": "string"}}, "weights": [0.5, 1.25, -3e2, 42], "flags": {"exact": true, "fuzzy": false, "lang": null}}, "required": ["query"]}]`)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}
