package engine_test

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
)

// TestDotpromptDialect: a .prompt file becomes messages as Dotprompt makes
// them, whatever its engine; other files keep the markup's own rules.
func TestDotpromptDialect(t *testing.T) {
	tests := []struct {
		name, file, src string
		history         []chat.Message
		vars            map[string]any
		want            []chat.Message
		err             string
	}{
		{name: "text before the first marker is the user's", file: "a.prompt", src: "Hi {{name}}\n{{role \"model\"}}Hello\n",
			want: []chat.Message{chat.Text(chat.RoleUser, "Hi Ann\n"), chat.Text(chat.RoleAssistant, "Hello\n")}},
		{name: "a marker right after another changes the role", file: "a.prompt", src: "{{role \"user\"}}\n{{role \"system\"}}S\n{{role \"model\"}}",
			want: []chat.Message{chat.Text(chat.RoleSystem, "S\n")}},
		{name: "text after history is the model's", file: "a.prompt", src: "{{role \"system\"}}S\n{{history}}Sure.{{role \"user\"}}Q",
			history: []chat.Message{chat.Text(chat.RoleUser, "hi")},
			want:    []chat.Message{chat.Text(chat.RoleSystem, "S\n"), chat.Text(chat.RoleUser, "hi"), chat.Text(chat.RoleAssistant, "Sure."), chat.Text(chat.RoleUser, "Q")}},
		{name: "media with no marker is a part of the user message", file: "a.prompt", src: "Compare {{media url=\"https://x/a.png\"}} with this.",
			want: []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{chat.TextPart("Compare "), {Type: chat.PartImage, URL: "https://x/a.png"}, chat.TextPart(" with this.")}}}},
		{name: "front matter: the body is trimmed", file: "a.prompt", src: "---\nmodel: m\n---\n\n  Hello {{name}}.  \n\n",
			want: []chat.Message{chat.Text(chat.RoleUser, "Hello Ann.")}},
		{name: "jinja in a .prompt file", file: "a.prompt", src: "---\nengine: jinja\n---\n{{ role(\"system\") }}Be brief.\n{{ role(\"user\") }}{{ name }}\n",
			want: []chat.Message{chat.Text(chat.RoleSystem, "Be brief.\n"), chat.Text(chat.RoleUser, "Ann")}},
		{name: "an error points into the template", file: "a.prompt", src: "---\nmodel: m\n---\nHi\n<message role=\"wizard\">x",
			err: `a.prompt:5:15: rendered markup: unknown role "wizard"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)`},
		{name: "a message of Unicode spaces is content", file: "a.prompt", src: "{{role \"system\"}}S\n{{role \"user\"}}{{name}}",
			vars: map[string]any{"name": "\u0085\u2028\u2029"},
			want: []chat.Message{chat.Text(chat.RoleSystem, "S\n"), chat.Text(chat.RoleUser, "\u0085\u2028\u2029")}},
		{name: "a message of ASCII spaces is dropped", file: "a.prompt", src: "{{role \"system\"}}S\n{{role \"user\"}}{{name}}",
			vars: map[string]any{"name": " \t\r\n"},
			want: []chat.Message{chat.Text(chat.RoleSystem, "S\n")}},
		{name: "a .hbs file trims and keeps empty messages", file: "a.hbs", src: "{{role \"user\"}}\n{{role \"system\"}}S\n",
			want: []chat.Message{{Role: chat.RoleUser}, chat.Text(chat.RoleSystem, "S")}},
	}
	set := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.ParseFS(fstest.MapFS{tc.file: {Data: []byte(tc.src)}}, tc.file)
			require.NoError(t, err)
			vars := tc.vars
			if vars == nil {
				vars = map[string]any{"name": "Ann"}
			}
			got, err := tpl.Messages(context.Background(), vars, engine.History(tc.history))
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}
