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

// TestCRFrontMatterPositions: in a file whose lines end with a lone CR
// (front matter included), a problem in the template is named at its line
// counting every CR, as each engine counts them and as an editor shows
// them: a compile error and one Check finds. The other engines read the
// file with LF for CR, a Dotprompt file is read with its CRs.
func TestCRFrontMatterPositions(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	const head = "---\rinput:\r  schema:\r    name: string\r---\r"
	for _, tc := range []struct{ name, src, want string }{
		{"t.hbs", head + "{{#user}}\r😀 {{nmae}}{{/user}}", `t.hbs:7:5: variable "nmae" is not declared in the input schema (declared: name)`},
		{"t.j2", head + "{{ role(\"user\") }}\r😀 {{ nmae }}", `t.j2:7:6: variable "nmae" is not declared in the input schema (declared: name)`},
		{"t.pongo2", head + "{{ role(\"user\") }}\r😀 {{ nmae }}", `t.pongo2:7:6: variable "nmae" is not declared in the input schema (declared: name)`},
		{"t.tmpl", head + "{{role \"user\"}}\r😀 {{.nmae}}", `t.tmpl:7:5: variable "nmae" is not declared in the input schema (declared: name)`},
		{"u.hbs", head + "{{#user}}\r😀 {{#if}}x{{/if}}{{/user}}", "u.hbs:7:3: #if takes 1 argument(s), found 0"},
		{"u.j2", head + "{{ role(\"user\") }}\r😀 {{ name|shout }}", "u.j2:7:11: TemplateAssertionError: No filter named 'shout'."},
		{"u.pongo2", head + "{{ role(\"user\") }}\r😀 {{ name|shout }}", "u.pongo2:7:11: Filter 'shout' does not exist."},
		{"u.tmpl", head + "{{role \"user\"}}\r😀 {{shout .name}}", `u.tmpl:7:5: function "shout" not defined`},
		// a Dotprompt file keeps its line endings: the first line after
		// the front matter is the file's, and a lone CR in the body ends
		// a line too (it did not: "w.prompt:6:6" on the line before)
		{"v.prompt", head + "😀 {{#if}}x{{/if}}", "v.prompt:6:3: #if takes 1 argument(s), found 0"},
		{"w.prompt", head + "Hi\r😀 {{#if}}x{{/if}}", "w.prompt:7:3: #if takes 1 argument(s), found 0"},
		{"x.prompt", head + "Hi\r😀 {{nmae}}", `x.prompt:7:5: variable "nmae" is not declared in the input schema (declared: name)`},
	} {
		tpl, err := set.ParseFS(fstest.MapFS{tc.name: {Data: []byte(tc.src)}}, tc.name)
		if err == nil {
			err = tpl.Check(context.Background())
		}
		assert.EqualError(t, err, tc.want)
	}
}
