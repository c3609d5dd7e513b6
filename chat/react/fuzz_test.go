package react_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/chat"
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

// FuzzConvert checks that Convert never panics, whatever the order of roles,
// and that what it returns has the documented shape.
func FuzzConvert(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3}, "Thought: x\n")
	f.Add([]byte{1, 2, 3, 2, 3, 0}, "")
	f.Add([]byte{4, 0}, " \n")
	f.Add([]byte{0, 5, 3, 3}, "{}")
	f.Add([]byte{2, 0}, "x")
	f.Fuzz(func(t *testing.T, roles []byte, text string) {
		var msgs []chat.Message
		for i, r := range roles {
			var m chat.Message
			switch r % 6 {
			case 0:
				m = chat.Text(chat.RoleUser, text)
			case 1:
				m = chat.Text(chat.RoleAssistant, text)
			case 2:
				m = chat.Text(chat.RoleAssistant, text)
				m.ToolCalls = []chat.ToolCall{{ID: "a", Name: "f", Arguments: json.RawMessage(text)}}
			case 3:
				m = chat.Text(chat.RoleTool, text)
				m.ToolCallID = "a"
			case 4:
				m = chat.Text(chat.RoleSystem, text)
			case 5:
				m = chat.Text(chat.RoleAssistant, "")
				m.ToolCalls = []chat.ToolCall{{ID: "a", Name: "f"}, {ID: "b", Name: "g"}}
			}
			if i > 40 {
				break
			}
			msgs = append(msgs, m)
		}
		for _, tools := range [][]react.Tool{nil, {{NameForModel: "f"}}} {
			got, err := react.Convert(react.VariantAPI, tools, msgs)
			if err != nil {
				var ce *react.ConversationError
				if !errors.As(err, &ce) || ce.Index >= len(msgs) {
					t.Fatalf("%v: error %v", roles, err)
				}
				continue
			}
			if len(got) < 2 || got[0].Role != chat.RoleSystem {
				t.Fatalf("%v: got %v", roles, got)
			}
			for i, m := range got[1:] {
				want := chat.RoleUser
				if i%2 == 1 {
					want = chat.RoleAssistant
				}
				if m.Role != want {
					t.Fatalf("%v: message %d is %s", roles, i+1, m.Role)
				}
			}
		}
	})
}
