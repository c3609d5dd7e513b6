package engine_test

import (
	"context"
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// TestCRLFTemplates: a template (and a partial) saved with Windows line
// endings renders the same messages in every engine, with LF where the
// file has CRLF or CR, as Jinja2 reads a template; values keep theirs. A
// Dotprompt file keeps its line endings, as Dotprompt does.
func TestCRLFTemplates(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	fsys := fstest.MapFS{
		"p.hbs":        {Data: []byte("<message role=\"system\">a\r\nb\rc {{> part}}</message>\r\n<message role=\"user\">{{v}}\r\nd</message>\r\n")},
		"_part.hbs":    {Data: []byte("p\r\nq")},
		"p.j2":         {Data: []byte("<message role=\"system\">a\r\nb\rc {% include \"_part.j2\" %}</message>\r\n<message role=\"user\">{{ v }}\r\nd</message>\r\n")},
		"_part.j2":     {Data: []byte("p\r\nq")},
		"p.pongo2":     {Data: []byte("<message role=\"system\">a\r\nb\rc {% include \"_part.pongo2\" %}</message>\r\n<message role=\"user\">{{ v }}\r\nd</message>\r\n")},
		"_part.pongo2": {Data: []byte("p\r\nq")},
		"p.tmpl":       {Data: []byte("<message role=\"system\">a\r\nb\rc {{template \"_part\"}}</message>\r\n<message role=\"user\">{{.v}}\r\nd</message>\r\n")},
		"_part.tmpl":   {Data: []byte("p\r\nq")},
		"d.prompt":     {Data: []byte("---\r\nmodel: m\r\n---\r\n{{role \"user\"}}a\r\nb\r\n")},
	}
	want := `[{"role":"system","content":"a\nb\nc p\nq"},{"role":"user","content":"x\r\ny\nd"}]`
	for _, name := range []string{"p.hbs", "p.j2", "p.pongo2", "p.tmpl"} {
		tpl, err := set.ParseFS(fsys, name)
		require.NoError(t, err, name)
		msgs, err := tpl.Messages(context.Background(), map[string]any{"v": "x\r\ny"})
		require.NoError(t, err, name)
		got, _ := json.Marshal(msgs)
		assert.Equal(t, want, string(got), name)
	}
	tpl, err := set.ParseFS(fsys, "d.prompt")
	require.NoError(t, err)
	assert.Equal(t, "m", tpl.FrontMatter().Model)
	msgs, err := tpl.Messages(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, "a\r\nb", msgs[0].Text())
}
