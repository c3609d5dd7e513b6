package handlebars_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

// TestDotprompt renders the body of Dotprompt-style templates: role markers,
// history, media with contentType=, and the json, ifEquals, unlessEquals
// and section helpers.
func TestDotprompt(t *testing.T) {
	tests := []struct {
		name, src string
		vars      map[string]any
		want      string
	}{
		{"markers and history", "{{role \"system\"}}Be brief.\n{{history}}\n{{role \"user\"}}{{q}}", map[string]any{"q": "a<b"},
			"<message role=\"system\">Be brief.\n<message role=\"user\">hi</message>\n<message role=\"assistant\">\n<message role=\"user\">a&lt;b"},
		{"model role", `{{role "model"}}ok`, nil, `<message role="model">ok`},
		{"media contentType", `{{role "user"}}{{media url=u contentType="image/jpeg"}}`, map[string]any{"u": "https://x/a.jpg"},
			`<message role="user"><image url="https://x/a.jpg" mimetype="image/jpeg"/>`},
		{"media detail", `{{media url=u detail="low"}}`, map[string]any{"u": "https://x/a.png"}, `<image url="https://x/a.png" detail="low"/>`},
		{"json", `{{json v}}`, map[string]any{"v": map[string]any{"a": "</message>"}}, `{&quot;a&quot;:&quot;&lt;/message&gt;&quot;}`},
		{"json indent", `{{json v indent=2}}`, map[string]any{"v": []int{1}}, "[\n  1\n]"},
		{"ifEquals", `{{#ifEquals a 1}}one{{else}}other{{/ifEquals}}{{#ifEquals b "x"}}x{{else}}not x{{/ifEquals}}`, map[string]any{"a": 1.0, "b": "y"}, "onenot x"},
		{"unlessEquals", `{{#unlessEquals a "x"}}not x{{/unlessEquals}}`, map[string]any{"a": "y"}, "not x"},
		{"section renders nothing", `{{role "system"}}Be brief. {{section "output"}}Stop.{{section s}}`, map[string]any{"s": "history"},
			`<message role="system">Be brief. Stop.`},
	}
	set := engine.NewSet(handlebars.New())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.Parse("handlebars", "t.prompt", tc.src)
			require.NoError(t, err)
			out, err := tpl.Render(context.Background(), tc.vars, engine.History([]chat.Message{chat.Text(chat.RoleUser, "hi")}))
			require.NoError(t, err)
			require.Equal(t, tc.want, out)
		})
	}
	_, err := set.Parse("handlebars", "t.prompt", `{{section}}`)
	require.EqualError(t, err, "t.prompt:1:1: section takes 1 argument(s), found 0")
	_, err = set.Parse("handlebars", "t.prompt", `{{json v pretty=true}}`)
	require.EqualError(t, err, "t.prompt:1:10: json takes no named arguments but indent=")
}

// TestDotpromptFile loads a Dotprompt file with front matter and a partial.
func TestDotpromptFile(t *testing.T) {
	fsys := fstest.MapFS{
		"greet.prompt":    {Data: []byte("---\nmodel: googleai/gemini-2.0-flash\ninput:\n  schema:\n    name: string\n---\n{{role \"system\"}}\n{{> persona}}\n{{role \"user\"}}Hello, I am {{name}}.\n{{missing}}")},
		"_persona.prompt": {Data: []byte("You are a pirate.")},
	}
	tpl, err := engine.NewSet(handlebars.New()).ParseFS(fsys, "greet.prompt")
	require.NoError(t, err)
	require.Equal(t, "handlebars", tpl.EngineName())
	_, err = tpl.Messages(context.Background(), map[string]any{"name": "Ann"})
	require.EqualError(t, err, `greet.prompt:10:3: variable "missing" is not supplied`)
	fsys["greet.prompt"].Data = []byte(strings.Replace(string(fsys["greet.prompt"].Data), "\n{{missing}}", "", 1))
	tpl, err = engine.NewSet(handlebars.New()).ParseFS(fsys, "greet.prompt")
	require.NoError(t, err)
	msgs, err := tpl.Messages(context.Background(), map[string]any{"name": "Ann"})
	require.NoError(t, err)
	// Whitespace is kept as Dotprompt keeps it: the newline after the role
	// marker is the system message's (the partial's line is standalone).
	require.Equal(t, []chat.Message{chat.Text(chat.RoleSystem, "\nYou are a pirate."), chat.Text(chat.RoleUser, "Hello, I am Ann.")}, msgs)
}

// TestSectionFunc: a caller's Funcs may define section, to put something
// where a Dotprompt file asks for a section.
func TestSectionFunc(t *testing.T) {
	e := handlebars.New(handlebars.Funcs(map[string]any{"section": func(name string) string { return "[" + name + "]" }}))
	tpl, err := engine.NewSet(e).Parse("handlebars", "t.prompt", `{{role "user"}}Hi{{section "output"}}`)
	require.NoError(t, err)
	msgs, err := tpl.Messages(context.Background(), nil)
	require.NoError(t, err)
	require.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "Hi[output]")}, msgs)
}

// TestDotpromptMissingData: an @-variable of the render context that the
// request lacks renders as empty in a Dotprompt file, as in Dotprompt (its
// spec's metadata_context_variables), and is an error naming it elsewhere.
func TestDotpromptMissingData(t *testing.T) {
	set := engine.NewSet(handlebars.New())
	src := "Hello {{name}} ({{@auth.email}}, {{@user.role}})"
	data := engine.Data(map[string]any{"auth": map[string]any{"email": "bob@example.com"}})
	vars := map[string]any{"name": "Bob"}

	tpl, err := set.Parse("handlebars", "t.prompt", src)
	require.NoError(t, err)
	msgs, err := tpl.Messages(context.Background(), vars, data)
	require.NoError(t, err)
	require.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "Hello Bob (bob@example.com, )")}, msgs)

	tpl, err = set.Parse("handlebars", "t.hbs", src)
	require.NoError(t, err)
	_, err = tpl.Messages(context.Background(), vars, data)
	require.EqualError(t, err, `t.hbs:1:37: variable "@user" is not supplied`)

	// A missing input variable stays an error in a Dotprompt file.
	tpl, err = set.Parse("handlebars", "t.prompt", src)
	require.NoError(t, err)
	_, err = tpl.Messages(context.Background(), nil, data)
	require.EqualError(t, err, `t.prompt:1:9: variable "name" is not supplied`)
}
