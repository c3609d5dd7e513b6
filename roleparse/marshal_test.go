package roleparse_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/roleparse"
)

func TestMarshal(t *testing.T) {
	cases := []struct {
		name string
		in   []chat.Message
		want string
	}{
		{name: "nothing", in: nil, want: ""},
		{name: "text only", in: msgs(usr("a < b & c > d \"q\" 'x'")),
			want: "<message role=\"user\">a &lt; b &amp; c &gt; d \"q\" 'x'</message>\n"},
		{name: "attributes escaped", in: msgs(chat.Message{Role: chat.RoleTool, Name: `a"b'<`, ToolCallID: "c&1", Content: []chat.Part{txt("r")}}),
			want: "<message role=\"tool\" name=\"a&quot;b&#39;&lt;\" tool_call_id=\"c&amp;1\">r</message>\n"},
		{name: "edge whitespace as references", in: msgs(usr(" \ta\r\n")),
			want: "<message role=\"user\">&#32;&#9;a&#13;&#10;</message>\n"},
		{name: "empty message", in: msgs(usr("")), want: "<message role=\"user\"></message>\n"},
		{name: "one empty text part", in: msgs(parts(chat.RoleUser, txt(""))), want: "<message role=\"user\"><text></text></message>\n"},
		{name: "parts", in: msgs(parts(chat.RoleUser, txt("a"), chat.Part{Type: chat.PartAudio, URL: "u", MediaType: "audio/wav"}, chat.Part{Type: chat.PartFile, URL: "f"})),
			want: "<message role=\"user\"><text>a</text><audio url=\"u\" mimetype=\"audio/wav\"/><file url=\"f\"/></message>\n"},
		{name: "tool calls", in: msgs(chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{call("", "f", ""), call("c", "g", `{"a":"<"}`)}}),
			want: "<message role=\"assistant\"><tool_call name=\"f\"></tool_call><tool_call id=\"c\" name=\"g\">{\"a\":\"&lt;\"}</tool_call></message>\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := roleparse.Marshal(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			back, err := roleparse.Parse(got)
			require.NoError(t, err, "markup: %q", got)
			assert.Equal(t, tc.in, back, "markup: %q", got)
		})
	}
}

func TestMarshalErrors(t *testing.T) {
	cases := []struct {
		name string
		in   []chat.Message
		err  string
	}{
		{name: "no role", in: msgs(usr("a"), chat.Message{}), err: "roleparse: message 2: no role"},
		// Issue 11, defect 6: these marshalled, and came back as user.
		{name: "alias", in: msgs(chat.Text("Human", "a")), err: `roleparse: message 1: role "Human" would parse as "user"; write "user"`},
		{name: "lower-case alias", in: msgs(chat.Text("bot", "a")), err: `roleparse: message 1: role "bot" would parse as "assistant"; write "assistant"`},
		{name: "upper case", in: msgs(chat.Text("Critic", "a")), err: `roleparse: message 1: role "Critic" would parse as "critic"; write "critic"`},
		{name: "media without URL", in: msgs(parts(chat.RoleUser, chat.Part{Type: chat.PartImage})), err: "roleparse: message 1: part 1: image part has no URL"},
		{name: "unknown part type", in: msgs(parts(chat.RoleUser, txt("a"), chat.Part{Type: "video", URL: "u"})), err: `roleparse: message 1: part 2: unknown part type "video"`},
		{name: "tool call without name", in: msgs(chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c1"}}}), err: `roleparse: message 1: tool call "c1" has no name`},
		{name: "tool call with bad JSON", in: msgs(chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{Name: "f", Arguments: json.RawMessage("{")}}}), err: `roleparse: message 1: tool call "f": arguments are not valid JSON`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := roleparse.Marshal(tc.in)
			require.EqualError(t, err, tc.err)
			assert.Empty(t, got)
		})
	}
}

// TestMarshalOtherRoles: a role other than the five parses back with
// AnyRole or Roles, and without them is an error, never another role
// (issue 11, defect 6).
func TestMarshalOtherRoles(t *testing.T) {
	in := msgs(chat.Text("critic", "too long"), usr("a"))
	out, err := roleparse.Marshal(in)
	require.NoError(t, err)
	for _, opt := range []roleparse.Option{roleparse.AnyRole(), roleparse.Roles("critic")} {
		back, err := roleparse.Parse(out, opt)
		require.NoError(t, err)
		assert.Equal(t, in, back)
	}
	_, err = roleparse.Parse(out)
	require.ErrorContains(t, err, `unknown role "critic"`)
}
