package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// TestParseByExtension: Set.Parse with no engine name takes the engine the
// front matter names, else the one the name's extension selects, as
// ParseFS does; ErrNoEngine only when neither says.
func TestParseByExtension(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	for name, src := range map[string]string{
		"a.hbs":    `{{role "user"}}{{x}}`,
		"a.prompt": `{{role "user"}}{{x}}`,
		"a.j2":     `{{ role("user") }}{{ x }}`,
		"a.pongo2": `{{ role("user") }}{{ x }}`,
		"a.tmpl":   `{{role "user"}}{{.x}}`,
		"a":        "---\nengine: jinja\n---\n{{ role(\"user\") }}{{ x }}",
		"a.tmpl.x": "---\nengine: handlebars\n---\n{{role \"user\"}}{{x}}",
	} {
		tpl, err := set.Parse("", name, src)
		require.NoError(t, err, name)
		msgs, err := tpl.Messages(context.Background(), map[string]any{"x": "hi"})
		require.NoError(t, err, name)
		assert.Equal(t, "hi", msgs[0].Text(), name)
	}
	for _, name := range []string{"a", "-", "a.txt"} {
		_, err := set.Parse("", name, "hi")
		assert.ErrorIs(t, err, engine.ErrNoEngine, name)
	}
}
