package roleparse_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/roleparse"
)

// roundTrip is what ReadBack must equal: Parse of Marshal's markup.
func roundTrip(msgs []chat.Message, opts ...roleparse.Option) ([]chat.Message, error) {
	m, err := roleparse.Marshal(msgs)
	if err != nil {
		return nil, err
	}
	return roleparse.Parse(m, opts...)
}

func TestReadBack(t *testing.T) {
	tests := []struct {
		name string
		msgs []chat.Message
		err  string
	}{
		{"plain", []chat.Message{chat.Text(chat.RoleSystem, "be brief"), chat.Text(chat.RoleUser, " a <b> & c\n"), chat.Text(chat.RoleAssistant, "ok\tdone")}, ""},
		{"unknown role", []chat.Message{chat.Text("bogus", "x")}, `line 1, col 15: unknown role "bogus"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)`},
		{"alias", []chat.Message{chat.Text("Human", "x")}, `roleparse: message 1: role "Human" would parse as "user"; write "user"`},
		{"tool call in a user message", []chat.Message{{Role: chat.RoleUser, ToolCalls: []chat.ToolCall{{ID: "1", Name: "f"}}}}, "roleparse: message 1: tool calls in a user message; only an assistant message makes tool calls"},
		{"tool result", []chat.Message{{Role: chat.RoleTool, ToolCallID: "c1", Content: []chat.Part{{Type: chat.PartText, Text: "42"}}}}, ""},
		{"carriage return", []chat.Message{chat.Text(chat.RoleUser, "a\r\nb")}, ""},
		{"empty text", []chat.Message{chat.Text(chat.RoleUser, "")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := roleparse.ReadBack(tt.msgs)
			want, wantErr := roundTrip(tt.msgs)
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				require.EqualError(t, wantErr, tt.err)
				return
			}
			require.NoError(t, err)
			require.NoError(t, wantErr)
			assert.Equal(t, want, got)
		})
	}
}

// FuzzReadBack: ReadBack gives what Parse of Marshal's markup gives, with
// and without KeepSpace, for messages built from the fuzzer's strings.
func FuzzReadBack(f *testing.F) {
	for _, s := range []string{"hi", " a ", "a\r\nb", "\x00", "\x85", "é", "<b>&amp;", "\xff", "a\n\tb", "&#32;"} {
		f.Add("user", s, "")
	}
	f.Add("assistant", "x", "n")
	f.Add("tool", "x", "")
	f.Add("Human", "x", "")
	f.Fuzz(func(t *testing.T, role, text, name string) {
		msgs := []chat.Message{{Role: chat.Role(role), Name: name, Content: []chat.Part{{Type: chat.PartText, Text: text}}}, chat.Text(chat.RoleUser, text)}
		for _, opts := range [][]roleparse.Option{nil, {roleparse.KeepSpace()}} {
			got, err := roleparse.ReadBack(msgs, opts...)
			want, wantErr := roundTrip(msgs, opts...)
			if wantErr != nil {
				require.Error(t, err)
				continue
			}
			require.NoError(t, err)
			require.Equal(t, want, got)
		}
	})
}
