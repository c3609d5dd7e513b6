package handlebars_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

// TestExpandedMarkers checks templates whose role markers and blocks are
// expanded into message tags at compile time (literal arguments, no ~)
// beside ones that keep the helper call, including standalone block lines.
func TestExpandedMarkers(t *testing.T) {
	sys := chat.Text(chat.RoleSystem, "Be brief.")
	q := chat.Text(chat.RoleUser, "a <b> & c")
	named := chat.Message{Role: chat.RoleUser, Name: "ann", Content: []chat.Part{chat.TextPart("a <b> & c")}}
	tests := []struct {
		name, src string
		want      []chat.Message
	}{
		{"standalone block lines", "{{#system}}\n  Be brief.\n  {{/system}}\n  {{#user}}\n{{q}}\n{{/user}}\n", []chat.Message{sys, q}},
		{"indented blocks in each", "{{#each xs}}\n  {{#user}}\n  {{this}}\n  {{/user}}\n{{/each}}", []chat.Message{q, q}},
		{"message with literal hash", `{{#message role="user" name="ann"}}{{q}}{{/message}}`, []chat.Message{named}},
		{"message with a variable hash keeps the helper", `{{#message role="user" name=n}}{{q}}{{/message}}`, []chat.Message{named}},
		{"tilde keeps the helper", "{{role \"system\"~}}\n Be brief.\n{{~role \"user\"}} {{q}}", []chat.Message{sys, q}},
		{"markers and blocks mixed", "{{role \"system\"}}Be brief.{{#user name=\"ann\"}}{{q}}{{/user}}{{role \"user\"}}{{q}}", []chat.Message{sys, named, q}},
	}
	set := engine.NewSet(handlebars.New())
	vars := map[string]any{"q": "a <b> & c", "n": "ann", "xs": []string{"a <b> & c", "a <b> & c"}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.Parse("handlebars", "t.hbs", tc.src)
			require.NoError(t, err)
			got, err := tpl.Messages(context.Background(), vars)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
