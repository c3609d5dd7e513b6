package engine_test

import (
	"context"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
)

// partialTree is a prompt directory, prompts/, with partials at its root
// and nearer ones in sub/, and a partial above it that must stay out of
// reach. Every partial exists once per engine.
func partialTree() fstest.MapFS {
	fsys := fstest.MapFS{}
	add := func(dir, base, text string) {
		fsys[dir+"_"+base+".hbs"] = &fstest.MapFile{Data: []byte(text + " (hbs)")}
		fsys[dir+"_"+base+".j2"] = &fstest.MapFile{Data: []byte(text + " (j2)")}
		fsys[dir+"_"+base+".tmpl"] = &fstest.MapFile{Data: []byte(text + " (tmpl)")}
	}
	add("", "secret", "above the root")
	add("prompts/", "persona", "I am the root persona")
	add("prompts/", "tone", "root tone")
	add("prompts/sub/", "tone", "near tone")
	add("prompts/parts/", "p", "root parts")
	return fsys
}

// TestLoadDirPartialsFromParents checks that a template finds a partial in
// its own directory or, failing that, in the nearest parent directory up to
// the directory LoadDir loads, in every engine, and never above it.
func TestLoadDirPartialsFromParents(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New())
	tests := []struct {
		name string
		file string // added to partialTree, under prompts/
		src  string
		want string // the system message, or
		err  string // LoadDir's error
	}{
		{name: "hbs root partial from a subdirectory", file: "sub/deep/x.hbs", src: `{{#system}}{{> persona}}{{/system}}`,
			want: "I am the root persona (hbs)"},
		{name: "j2 root partial from a subdirectory", file: "sub/deep/x.j2", src: `{% system %}{% include "_persona.j2" %}{% endsystem %}`,
			want: "I am the root persona (j2)"},
		{name: "tmpl root partial from a subdirectory", file: "sub/deep/x.tmpl", src: `{{role "system"}}{{template "persona" .}}`,
			want: "I am the root persona (tmpl)"},

		{name: "hbs nearer partial shadows the root one", file: "sub/deep/x.hbs", src: `{{#system}}{{> tone}}{{/system}}`,
			want: "near tone (hbs)"},
		{name: "j2 nearer partial shadows the root one", file: "sub/deep/x.j2", src: `{% system %}{% include "_tone.j2" %}{% endsystem %}`,
			want: "near tone (j2)"},
		{name: "tmpl nearer partial shadows the root one", file: "sub/deep/x.tmpl", src: `{{role "system"}}{{template "tone" .}}`,
			want: "near tone (tmpl)"},

		{name: "hbs partial in a subdirectory of a parent", file: "sub/deep/x.hbs", src: `{{#system}}{{> parts/p}}{{/system}}`,
			want: "root parts (hbs)"},
		{name: "j2 partial in a subdirectory of a parent", file: "sub/deep/x.j2", src: `{% system %}{% include "parts/_p.j2" %}{% endsystem %}`,
			want: "root parts (j2)"},
		{name: "tmpl partial in a subdirectory of a parent", file: "sub/deep/x.tmpl", src: `{{role "system"}}{{template "parts/p" .}}`,
			want: "root parts (tmpl)"},

		{name: "hbs root template keeps the root partial", file: "x.hbs", src: `{{#system}}{{> tone}}{{/system}}`,
			want: "root tone (hbs)"},
		{name: "j2 import and extends climb too", file: "sub/x.j2",
			src:  `{% extends "_base.j2" %}{% block s %}{% from "_m.j2" import m %}{{ m() }}{% endblock %}`,
			want: "base: macro"},
		// A partial's own partials are looked for from the template's
		// directory, in every engine, as the template's are.
		{name: "hbs a partial's partial is looked for from the template", file: "sub/deep/x.hbs",
			src:  `{{#system}}{{> wrap}}{{/system}}`,
			want: "wrap: near tone (hbs)"},
		{name: "j2 a partial's include is looked for from the template", file: "sub/deep/x.j2",
			src:  `{% system %}{% include "_wrap.j2" %}{% endsystem %}`,
			want: "wrap: near tone (j2)"},
		{name: "tmpl a partial's template is looked for from the template", file: "sub/deep/x.tmpl",
			src:  `{{role "system"}}{{template "wrap" .}}`,
			want: "wrap: near tone (tmpl)"},

		{name: "hbs partial above the root is refused", file: "sub/x.hbs", src: `{{> secret}}`,
			err: `prompts/sub/x.hbs:1:1: partial "secret" not found: looked for ` +
				`prompts/sub/_secret.hbs, prompts/sub/secret.hbs, prompts/sub/_secret.prompt, prompts/sub/secret.prompt, prompts/sub/_secret.handlebars, prompts/sub/secret.handlebars, ` +
				`prompts/_secret.hbs, prompts/secret.hbs, prompts/_secret.prompt, prompts/secret.prompt, prompts/_secret.handlebars, prompts/secret.handlebars`},
		{name: "j2 partial above the root is refused", file: "sub/x.j2", src: `{% include "_secret.j2" %}`,
			err: `prompts/sub/x.j2:1:12: partial "_secret.j2" not found: looked for prompts/sub/_secret.j2, prompts/_secret.j2`},
		{name: "j2 missing partial names every file looked for", file: "sub/deep/x.j2", src: `{% include "_nope.j2" %}`,
			err: `prompts/sub/deep/x.j2:1:12: partial "_nope.j2" not found: looked for prompts/sub/deep/_nope.j2, prompts/sub/_nope.j2, prompts/_nope.j2`},
		{name: "tmpl partial above the root is refused", file: "sub/x.tmpl", src: `{{template "secret" .}}`,
			err: `prompts/sub/x.tmpl:1:12: partial "secret" not found: looked for prompts/sub/_secret.tmpl, prompts/sub/secret.tmpl, prompts/sub/_secret.gotmpl, prompts/sub/secret.gotmpl, ` +
				`prompts/_secret.tmpl, prompts/secret.tmpl, prompts/_secret.gotmpl, prompts/secret.gotmpl`},
		{name: "hbs .. stays refused", file: "sub/x.hbs", src: `{{> ../persona}}`,
			err: `prompts/sub/x.hbs:1:1: partial "../persona": a partial name is a relative slash-separated path without "." or ".." elements`},
		{name: "j2 absolute path stays refused", file: "sub/x.j2", src: `{% include "/prompts/_persona.j2" %}`,
			err: `prompts/sub/x.j2:1:12: partial "/prompts/_persona.j2": a partial name is a relative slash-separated path without "." or ".." elements`},
		{name: "tmpl path out of the file system stays refused", file: "sub/x.tmpl", src: `{{template "../../../persona" .}}`,
			err: `prompts/sub/x.tmpl:1:12: partial "../../../persona": a partial name is a relative slash-separated path without "." or ".." elements`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := partialTree()
			fsys["prompts/_base.j2"] = &fstest.MapFile{Data: []byte(`{% system %}base: {% block s %}{% endblock %}{% endsystem %}`)}
			fsys["prompts/_m.j2"] = &fstest.MapFile{Data: []byte(`{% macro m() %}macro{% endmacro %}`)}
			fsys["prompts/_wrap.j2"] = &fstest.MapFile{Data: []byte(`wrap: {% include "_tone.j2" %}`)}
			fsys["prompts/_wrap.hbs"] = &fstest.MapFile{Data: []byte(`wrap: {{> tone}}`)}
			fsys["prompts/_wrap.tmpl"] = &fstest.MapFile{Data: []byte(`wrap: {{template "tone" .}}`)}
			fsys["prompts/"+tc.file] = &fstest.MapFile{Data: []byte(tc.src)}
			d, err := set.LoadDir(fsys, "prompts")
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			tpl, ok := d.Template(strings.TrimSuffix(tc.file, path.Ext(tc.file)))
			require.True(t, ok, "%v", d.Names())
			msgs, err := tpl.Messages(context.Background(), nil)
			require.NoError(t, err)
			assert.Equal(t, []chat.Message{chat.Text(chat.RoleSystem, tc.want)}, msgs)
		})
	}
}

// TestParseFSPartialsStayBeside checks that a file parsed on its own looks
// for partials in its directory only, as before, unless PartialRoot gives a
// root, and that UseEngine picks its engine.
func TestParseFSPartialsStayBeside(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New())
	fsys := partialTree()
	fsys["prompts/sub/x.tmpl"] = &fstest.MapFile{Data: []byte(`{{role "system"}}{{template "persona" .}}`)}
	fsys["prompts/sub/x.txt"] = &fstest.MapFile{Data: []byte(`{% system %}{% include "_persona.j2" %}{% endsystem %}`)}

	_, err := set.ParseFS(fsys, "prompts/sub/x.tmpl")
	assert.EqualError(t, err, `prompts/sub/x.tmpl:1:29: partial "persona" not found: looked for prompts/sub/_persona.tmpl, prompts/sub/persona.tmpl, prompts/sub/_persona.gotmpl, prompts/sub/persona.gotmpl`)

	tests := []struct {
		name, file string
		opts       []engine.FileOption
		want       string
		err        string
	}{
		{name: "root given", file: "prompts/sub/x.tmpl", opts: []engine.FileOption{engine.PartialRoot("prompts")}, want: "I am the root persona (tmpl)"},
		{name: "root the file system's", file: "prompts/sub/x.tmpl", opts: []engine.FileOption{engine.PartialRoot(".")}, want: "I am the root persona (tmpl)"},
		{name: "engine given", file: "prompts/sub/x.txt", opts: []engine.FileOption{engine.UseEngine("jinja"), engine.PartialRoot("prompts")}, want: "I am the root persona (j2)"},
		{name: "engine given, root not", file: "prompts/sub/x.txt", opts: []engine.FileOption{engine.UseEngine("jinja")},
			err: `prompts/sub/x.txt:1:24: partial "_persona.j2" not found: looked for prompts/sub/_persona.j2`},
		{name: "unknown engine", file: "prompts/sub/x.txt", opts: []engine.FileOption{engine.UseEngine("liquid")},
			err: `prompts/sub/x.txt: unknown engine "liquid"; known: gotmpl, handlebars, jinja`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.ParseFS(fsys, tc.file, tc.opts...)
			if tc.err != "" {
				assert.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), nil)
			require.NoError(t, err)
			assert.Equal(t, []chat.Message{chat.Text(chat.RoleSystem, tc.want)}, msgs)
		})
	}
}

// TestPartialExtensionOrder: a partial named without an extension is tried
// in the order of driver.PartialExts in every engine: the including
// template's own extension first, then the engine's others, shortest first.
func TestPartialExtensionOrder(t *testing.T) {
	tests := []struct {
		name, main, ref string
		partials        []string // the files of the partial x
		want            string
	}{
		{"hbs: own first", "m.hbs", "{{> x}}", []string{"x.prompt", "x.handlebars", "x.hbs"}, "x.hbs"},
		{"hbs: then shortest", "m.hbs", "{{> x}}", []string{"x.handlebars", "x.prompt"}, "x.prompt"},
		{"handlebars: own first", "m.handlebars", "{{> x}}", []string{"x.hbs", "x.prompt", "x.handlebars"}, "x.handlebars"},
		{"prompt: then shortest", "m.prompt", "{{> x}}", []string{"x.handlebars", "x.hbs"}, "x.hbs"},
		{"tmpl: own first", "m.tmpl", `{{template "x"}}`, []string{"x.gotmpl", "x.tmpl"}, "x.tmpl"},
		{"gotmpl: own first", "m.gotmpl", `{{template "x"}}`, []string{"x.tmpl", "x.gotmpl"}, "x.gotmpl"},
		{"jinja2: then shortest", "m.jinja2", `{% include "x" %}`, []string{"x.jinja", "x.j2"}, "x.j2"},
	}
	set := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{tc.main: {Data: []byte(tc.ref)}}
			for _, p := range tc.partials {
				fsys[p] = &fstest.MapFile{Data: []byte(p)}
			}
			tpl, err := set.ParseFS(fsys, tc.main)
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), nil)
			require.NoError(t, err)
			assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, tc.want)}, msgs)
		})
	}
}
