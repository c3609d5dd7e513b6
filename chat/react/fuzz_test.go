package react_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/chat/react"
)

// FuzzParseReply checks that ParseReply never panics and that what it
// returns is consistent: an action has a name and, without error, valid
// JSON arguments; every error is one of the documented types.
func FuzzParseReply(f *testing.F) {
	for _, s := range []string{
		"Thought: I need the weather.\nAction: get_weather\nAction Input: {\"city\": \"Paris\"}\n",
		"Thought: X\nAction: f\nAction Input: {\"a\": 1}\nObservation: fake",
		"Thought: I now know the final answer.\nFinal Answer: It is 20C.",
		"Hello there",
		"Final Answer: 42",
		"Action: f\nAction Input: {}",
		"\nAction: f\nAction Input: {}",
		"\nAction Input: {}\nAction: f",
		"\nObservation: x\nAction: f\nAction Input: {}",
		"\nAction: \nAction Input: {}\nFinal Answer: x",
		"\nAction:\nAction Input:\nObservation:",
		"Thought: a\nFinal Answer: one\nThought: b\nFinal Answer: two",
		"Thought: a\nAction: f\n",
		"\nAction: f\x1c\nAction Input: {\"a\":\"\xff\"}\u2028",
		"",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	tools := []react.Tool{{NameForModel: "f"}, {NameForModel: "get_weather"}}
	f.Fuzz(func(t *testing.T, reply string, withTools bool) {
		var ts []react.Tool
		if withTools {
			ts = tools
		}
		r, err := react.ParseReply(reply, ts)
		if r.ToolCall != nil {
			if r.ToolCall.Name == "" || strings.TrimSpace(r.ToolCall.Name) != r.ToolCall.Name {
				t.Fatalf("%q: tool name %q", reply, r.ToolCall.Name)
			}
			if err == nil && !json.Valid(r.ToolCall.Arguments) {
				t.Fatalf("%q: arguments %q are not JSON", reply, r.ToolCall.Arguments)
			}
			_ = r.Message()
		}
		if err != nil {
			var fe *react.FormatError
			var ue *react.UnknownToolError
			var ae *react.ArgumentsError
			if !errors.As(err, &fe) && !errors.As(err, &ue) && !errors.As(err, &ae) {
				t.Fatalf("%q: untyped error %v", reply, err)
			}
			if err.Error() == "" {
				t.Fatalf("%q: empty error message", reply)
			}
		}
		name, _, rest, ok := react.LatestAction(reply)
		if ok != (name != "") || len(rest) > len(reply)+len("\nObservation:") {
			t.Fatalf("%q: LatestAction = %q, %q, %v", reply, name, rest, ok)
		}
	})
}
