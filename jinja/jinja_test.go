package jinja_test

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/jinja"
)

// TestEngine: the engine's name, its extensions, and its options.
func TestEngine(t *testing.T) {
	e := jinja.New()
	require.Equal(t, "jinja", e.Name())
	require.Equal(t, []string{".jinja", ".j2", ".jinja2"}, e.Extensions())
	set := engine.NewSet(e)
	for _, f := range []string{"a.jinja", "a.j2", "a.jinja2", "A.J2"} {
		got, err := set.EngineFor(f)
		require.NoError(t, err)
		require.Equal(t, "jinja", got.Name())
	}
	_, err := set.EngineFor("a.pongo2")
	require.Error(t, err, "the jinja engine does not claim .pongo2")

	tpl, err := engine.NewSet(jinja.New(jinja.Funcs(map[string]any{"shout": strings.ToUpper}))).
		Parse("jinja", "t.j2", `{% user %}{{ shout(q) }}{% enduser %}`)
	require.NoError(t, err)
	msgs, err := tpl.Messages(context.Background(), map[string]any{"q": "a<b"})
	require.NoError(t, err)
	assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "A<B")}, msgs)

	tpl, err = engine.NewSet(jinja.New(jinja.MacroDepth(3))).
		Parse("jinja", "t.j2", `{% macro r() %}{{ r() }}{% endmacro %}{{ r() }}`)
	require.NoError(t, err)
	_, err = tpl.Messages(context.Background(), nil)
	assert.EqualError(t, err, "t.j2:1:20: LimitError: calls nest deeper than the limit of 3")
}

// TestPartialExtensions: a partial named without an extension is tried
// with the including template's own extension first, then .j2, .jinja and
// .jinja2.
func TestPartialExtensions(t *testing.T) {
	fsys := fstest.MapFS{
		"p/x.j2":     {Data: []byte(`j2`)},
		"p/x.jinja":  {Data: []byte(`jinja`)},
		"p/x.jinja2": {Data: []byte(`jinja2`)},
		"p/y.jinja2": {Data: []byte(`only jinja2`)},
	}
	tests := []struct{ main, want string }{
		{"p/m.j2", "j2"},
		{"p/m.jinja", "jinja"},
		{"p/m.jinja2", "jinja2"},
		{"p/m.prompt", "j2"},
	}
	for _, tc := range tests {
		t.Run(tc.main, func(t *testing.T) {
			fsys := maps(fsys)
			src := `{% include "x" %} / {% include "y" %}`
			if strings.HasSuffix(tc.main, ".prompt") {
				src = "---\nengine: jinja\n---\n" + src
			}
			fsys[tc.main] = &fstest.MapFile{Data: []byte(src)}
			tpl, err := engine.NewSet(jinja.New()).ParseFS(fsys, tc.main)
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), nil)
			require.NoError(t, err)
			assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, tc.want+" / only jinja2")}, msgs)
		})
	}
}

func maps(m fstest.MapFS) fstest.MapFS {
	out := fstest.MapFS{}
	for k, v := range m {
		out[k] = v
	}
	return out
}
