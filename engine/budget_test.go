package engine_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// TestHistoryBudget trims a history with a system message, an image and a
// tool call to budgets in every engine. The counter counts messages, so a
// budget of n keeps at most n messages.
func TestHistoryBudget(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	sources := map[string]string{
		"handlebars": `<message role="system">Be brief.</message><message role="user">{{q}}</message>`,
		"jinja":      `<message role="system">Be brief.</message><message role="user">{{ q }}</message>`,
		"pongo2":     `<message role="system">Be brief.</message><message role="user">{{ q }}</message>`,
		"gotmpl":     `<message role="system">Be brief.</message><message role="user">{{.q}}</message>`,
	}
	history := []chat.Message{
		chat.Text(chat.RoleSystem, "Remember the user's name."),
		{Role: chat.RoleUser, Content: []chat.Part{chat.TextPart("What is this?"), {Type: chat.PartImage, URL: "https://example.com/cat.png"}}},
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c1", Name: "look", Arguments: json.RawMessage(`{}`)}}},
		{Role: chat.RoleTool, ToolCallID: "c1", Content: []chat.Part{chat.TextPart("a cat")}},
		chat.Text(chat.RoleAssistant, "A cat."),
		chat.Text(chat.RoleUser, "Thanks."),
		chat.Text(chat.RoleAssistant, "You're welcome."),
	}
	count := func(msgs []chat.Message) int { return len(msgs) }
	tests := []struct {
		max       int
		wantRoles []chat.Role
		dropped   int // the oldest history messages left out
		over      bool
	}{
		{9, []chat.Role{"system", "system", "user", "assistant", "tool", "assistant", "user", "assistant", "user"}, 0, false},
		{8, []chat.Role{"system", "system", "assistant", "tool", "assistant", "user", "assistant", "user"}, 1, false},
		// The tool call goes with its result: 7 would split them, so 6.
		{7, []chat.Role{"system", "system", "assistant", "user", "assistant", "user"}, 3, false},
		{3, []chat.Role{"system", "system", "user"}, 6, false},
		// The system messages stay even over the budget.
		{2, []chat.Role{"system", "system", "user"}, 6, true},
	}
	for eng, src := range sources {
		tpl, err := set.Parse(eng, "budget", src)
		require.NoError(t, err, eng)
		for _, tt := range tests {
			var report engine.Trimmed
			msgs, err := tpl.Messages(context.Background(), map[string]any{"q": "Bye?"},
				engine.History(history), engine.HistoryBudget(tt.max, count, &report))
			require.NoError(t, err, eng)
			var roles []chat.Role
			for _, m := range msgs {
				roles = append(roles, m.Role)
			}
			assert.Equal(t, tt.wantRoles, roles, "%s max %d", eng, tt.max)
			assert.Equal(t, history[1:1+tt.dropped], nilIfEmpty(report.Dropped), "%s max %d", eng, tt.max)
			assert.Equal(t, len(tt.wantRoles), report.Tokens, "%s max %d", eng, tt.max)
			assert.Equal(t, tt.over, report.Over, "%s max %d", eng, tt.max)
			assert.Equal(t, "Bye?", msgs[len(msgs)-1].Text(), eng)
		}
	}
}

func nilIfEmpty(m []chat.Message) []chat.Message {
	if m == nil {
		return []chat.Message{}
	}
	return m
}
