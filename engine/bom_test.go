package engine_test

import (
	"context"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// A file saved by a Windows editor starts with a UTF-8 byte order mark. It
// is the file's encoding, not its text: the front matter after it is front
// matter, and no U+FEFF reaches the messages (where it would be text outside
// a message, an error), whether the file is a template or a partial.
func TestLeadingByteOrderMark(t *testing.T) {
	const bom = "\ufeff"
	fm := "---\ninput:\n  schema:\n    x: string\n---\n"
	fsys := fstest.MapFS{
		"a.hbs":        {Data: []byte(bom + fm + `<message role="user">hi {{x}}{{> p}}</message>`)},
		"_p.hbs":       {Data: []byte(bom + "!")},
		"a.j2":         {Data: []byte(bom + fm + `<message role="user">hi {{ x }}{% include "p.j2" %}</message>`)},
		"_p.j2":        {Data: []byte(bom + "!")},
		"a.pongo2":     {Data: []byte(bom + fm + `<message role="user">hi {{ x }}{% include "p.pongo2" %}</message>`)},
		"_p.pongo2":    {Data: []byte(bom + "!")},
		"a.tmpl":       {Data: []byte(bom + fm + `<message role="user">hi {{.x}}{{template "p"}}</message>`)},
		"_p.tmpl":      {Data: []byte(bom + "!")},
		"dot.prompt":   {Data: []byte(bom + "---\nengine: jinja\n---\n" + `<message role="user">hi {{ x }}!</message>`)},
		"nomarkup.hbs": {Data: []byte(bom + "hi {{x}}!")},
	}
	set := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New(), pongo2.New())
	want := []chat.Message{chat.Text(chat.RoleUser, "hi 1!")}
	for _, name := range []string{"a.hbs", "a.j2", "a.pongo2", "a.tmpl", "dot.prompt", "nomarkup.hbs"} {
		t.Run(name, func(t *testing.T) {
			tpl, err := set.ParseFS(fsys, name)
			require.NoError(t, err)
			if name != "nomarkup.hbs" {
				require.NotNil(t, tpl.FrontMatter(), "the front matter after the byte order mark is read")
			}
			msgs, err := tpl.Messages(context.Background(), map[string]any{"x": "1"})
			require.NoError(t, err)
			assert.Equal(t, want, msgs)
		})
	}
	t.Run("Set.Parse", func(t *testing.T) {
		tpl, err := set.Parse("", "s", bom+"---\nengine: gotmpl\n---\n{{role \"user\"}}hi")
		require.NoError(t, err)
		msgs, err := tpl.Messages(context.Background(), nil)
		require.NoError(t, err)
		assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "hi")}, msgs)
	})
}
