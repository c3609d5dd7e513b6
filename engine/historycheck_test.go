package engine_test

import (
	"context"
	"errors"
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

// TestUnplacedHistoryIsCheckedAsPlaced: history a template does not place
// (it goes before the last user message) was inserted as given, so a role
// the parser refuses, a tool call in a user message or a role alias
// passed, where the same history placed with {{history}} fails. Both now
// read it alike, in every engine and on the fast paths.
func TestUnplacedHistoryIsCheckedAsPlaced(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	templates := []struct{ engine, name, unplaced, placed string }{
		{"handlebars", "t.hbs", `<message role="user">hi {{x}}</message>`, `{{history}}<message role="user">hi {{x}}</message>`},
		{"jinja", "t.j2", `<message role="user">hi {{ x }}</message>`, `{{ history() }}<message role="user">hi {{ x }}</message>`},
		{"pongo2", "t.pongo2", `<message role="user">hi {{ x }}</message>`, `{{ history() }}<message role="user">hi {{ x }}</message>`},
		{"gotmpl", "t.tmpl", `<message role="user">hi {{.x}}</message>`, `{{history}}<message role="user">hi {{.x}}</message>`},
	}
	histories := []struct {
		name    string
		history []chat.Message
		want    []chat.Message // the history as read; nil: an error
	}{
		{"unknown role", []chat.Message{chat.Text("bogus", "x")}, nil},
		{"tool call in a user message", []chat.Message{{Role: chat.RoleUser, ToolCalls: []chat.ToolCall{{ID: "1", Name: "f"}}}}, nil},
		{"role alias (Marshal refuses it)", []chat.Message{chat.Text("Human", "a")}, nil},
		{"spaces kept", []chat.Message{chat.Text(chat.RoleUser, " a "), chat.Text(chat.RoleAssistant, "<b>")},
			[]chat.Message{chat.Text(chat.RoleUser, " a "), chat.Text(chat.RoleAssistant, "<b>")}},
	}
	for _, tt := range templates {
		for _, h := range histories {
			t.Run(tt.engine+"/"+h.name, func(t *testing.T) {
				for _, src := range []string{tt.unplaced, tt.placed} {
					tpl, err := set.Parse(tt.engine, tt.name, src)
					require.NoError(t, err)
					got, err := tpl.Messages(context.Background(), map[string]any{"x": "there"}, engine.History(h.history))
					if h.want == nil {
						require.Error(t, err, "%s: %v", src, got)
						var ee *engine.Error
						assert.True(t, errors.As(err, &ee), "%v", err)
						continue
					}
					require.NoError(t, err, src)
					assert.Equal(t, append(append([]chat.Message(nil), h.want...), chat.Text(chat.RoleUser, "hi there")), got, src)
				}
			})
		}
	}
}

// TestUnplacedHistoryErrorNamesTheMessage: the error names the message of
// the history at fault, not a place in the markup written for it.
func TestUnplacedHistoryErrorNamesTheMessage(t *testing.T) {
	set := engine.NewSet(handlebars.New())
	tpl, err := set.Parse("handlebars", "t.hbs", `<message role="user">hi</message>`)
	require.NoError(t, err)
	_, err = tpl.Messages(context.Background(), nil, engine.History([]chat.Message{chat.Text(chat.RoleUser, "a\nb"), chat.Text("bogus", "x")}))
	require.EqualError(t, err, `t.hbs: history: message 2: unknown role "bogus"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)`)
}
