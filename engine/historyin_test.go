package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
	"github.com/rolemark/rolemark/roleparse"
)

// The history marker inside a message cannot stand there: the history is
// whole messages, whose first one closes the message the marker is in.
// The markup error that follows says so, in every engine.
func TestHistoryInsideAMessage(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New(), pongo2.New())
	history := engine.History([]chat.Message{chat.Text(chat.RoleUser, "earlier"), chat.Text(chat.RoleAssistant, "reply")})
	for eng, src := range map[string]string{
		"handlebars": `{{#user}}before {{history}} after{{/user}}`,
		"jinja":      `{% user %}before {{ history() }} after{% enduser %}`,
		"pongo2":     `{% user %}before {{ history() }} after{% enduser %}`,
		"gotmpl":     `<message role="user">before {{history}} after</message>`,
	} {
		tpl, err := set.Parse(eng, "t", src)
		require.NoError(t, err)
		_, err = tpl.Messages(context.Background(), nil, history)
		var pe *roleparse.Error
		require.ErrorAs(t, err, &pe, eng)
		assert.ErrorContains(t, err, "the history is placed inside a message", eng)

		// Without history the marker is nothing, and the template renders.
		msgs, err := tpl.Messages(context.Background(), nil)
		require.NoError(t, err, eng)
		assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "before  after")}, msgs, eng)
	}
	// A marker between messages is no problem, and no hint is given for
	// another mistake.
	tpl, err := set.Parse("handlebars", "t", `{{#user}}a{{/user}}{{history}}</message>`)
	require.NoError(t, err)
	_, err = tpl.Messages(context.Background(), nil, history)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "the history is placed inside a message")

	// A marker inside a message opened by a marker function is the idiom
	// of that style: a history the markup cannot hold (a role it does not
	// know) is the history's fault, and the hint would mislead.
	tpl, err = set.Parse("jinja", "t", `{{ role("system") }}S {{ history() }}{{ role("user") }}q`)
	require.NoError(t, err)
	_, err = tpl.Messages(context.Background(), nil, engine.History([]chat.Message{chat.Text("function", "r")}))
	require.ErrorContains(t, err, `unknown role "function"`)
	assert.NotContains(t, err.Error(), "the history is placed inside a message")
}
