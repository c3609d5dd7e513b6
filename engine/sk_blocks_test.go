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
)

// TestSemanticKernelMessageBlocks: the cases of SK Python's
// test_handlebars_prompt_template.py for its {{#message role=…}} block
// helper (test_helpers_message_*), with each engine's message block; a
// history given as data is written with the block, as SK's tests do.
func TestSemanticKernelMessageBlocks(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	loop := map[string]string{
		"hbs":    "{{#each chat_history}}\n    {{#message role=role}}\n    {{~content~}}\n    {{/message}}\n{{/each}}",
		"j2":     "{% for m in chat_history %}\n    {% message m.role %}{{ m.content }}{% endmessage %}\n{% endfor %}",
		"pongo2": "{% for m in chat_history %}\n    {% message m.role %}{{ m.content }}{% endmessage %}\n{% endfor %}",
		"tmpl":   "{{range .chat_history}}\n    {{message .role .content}}\n{{end}}",
	}
	fallback := map[string]string{
		"hbs":    `{{#message role="user"}}Hello world{{/message}}`,
		"j2":     `{% message "user" %}Hello world{% endmessage %}`,
		"pongo2": `{% message "user" %}Hello world{% endmessage %}`,
		"tmpl":   `{{message "user" "Hello world"}}`,
	}
	emptyFallback := map[string]string{
		"hbs":    `{{#message role="user"}}{{/message}}`,
		"j2":     `{% message "user" %}{% endmessage %}`,
		"pongo2": `{% message "user" %}{% endmessage %}`,
		"tmpl":   `{{message "user" ""}}`,
	}
	history := func(m ...map[string]any) map[string]any {
		list := make([]any, len(m))
		for i := range m {
			list[i] = m[i]
		}
		return map[string]any{"chat_history": list}
	}
	tests := []struct {
		name string
		srcs map[string]string
		vars map[string]any
		want []chat.Message
	}{
		{"test_helpers_message_escapes_xml_metacharacters", loop, history(map[string]any{"role": "user", "content": `What does a < b & a > c & "d" mean?`}),
			[]chat.Message{chat.Text(chat.RoleUser, `What does a < b & a > c & "d" mean?`)}},
		{"test_helpers_message_uses_text_element", loop,
			history(map[string]any{"role": "user", "content": "User message"}, map[string]any{"role": "assistant", "content": "Assistant message"}),
			[]chat.Message{chat.Text(chat.RoleUser, "User message"), chat.Text(chat.RoleAssistant, "Assistant message")}},
		{"test_helpers_message_empty_content", loop, history(map[string]any{"role": "user", "content": ""}),
			[]chat.Message{{Role: chat.RoleUser}}},
		{"test_helpers_message_fallback_empty_content", emptyFallback, nil, []chat.Message{{Role: chat.RoleUser}}},
		{"test_helpers_message_fallback_with_content", fallback, nil, []chat.Message{chat.Text(chat.RoleUser, "Hello world")}},
	}
	for _, tc := range tests {
		for ext, src := range tc.srcs {
			t.Run(tc.name+"/"+ext, func(t *testing.T) {
				tpl, err := set.Parse("", "sk."+ext, src)
				require.NoError(t, err, src)
				got, err := tpl.Messages(context.Background(), tc.vars)
				require.NoError(t, err, src)
				assert.Equal(t, tc.want, got, src)
			})
		}
	}
}
