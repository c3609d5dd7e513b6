package pongo2_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	p2 "github.com/flosch/pongo2/v6"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/internal/fixture"
	"github.com/rolemark/rolemark/pongo2"
	"github.com/rolemark/rolemark/roleparse"
)

func TestEngine(t *testing.T) {
	e := pongo2.New()
	require.Equal(t, "pongo2", e.Name())
	require.Equal(t, []string{".pongo2"}, e.Extensions())
	set := engine.NewSet(e)
	for _, f := range []string{"a.pongo2", "A.PONGO2"} {
		got, err := set.EngineFor(f)
		require.NoError(t, err)
		require.Equal(t, "pongo2", got.Name())
	}
	_, err := set.EngineFor("a.j2")
	require.Error(t, err, "the pongo2 engine does not claim the Jinja extensions")
	// New may be called any number of times: the tags are registered once.
	require.Equal(t, "pongo2", pongo2.New().Name())
	// As renames it (package jinja's shim); an empty name or no extension
	// leaves it as it is.
	as := pongo2.New(pongo2.As("jinja", ".jinja", ".j2", ".jinja2"))
	require.Equal(t, "jinja", as.Name())
	require.Equal(t, []string{".jinja", ".j2", ".jinja2"}, as.Extensions())
	require.Equal(t, "pongo2", pongo2.New(pongo2.As("", ".x")).Name())
	require.Equal(t, []string{".pongo2"}, pongo2.New(pongo2.As("x")).Extensions())
}

type pt struct{ X, Y int }

func (p *pt) String() string { return fmt.Sprintf("<%d,%d>", p.X, p.Y) }

type named string

// TestRender checks the markup of single constructs, byte for byte.
func TestRender(t *testing.T) {
	s := "a<b"
	tests := []struct {
		name string
		src  string
		vars map[string]any
		want string
	}{
		{name: "string", src: `{{ x }}`, vars: map[string]any{"x": `<&>"'`}, want: `&lt;&amp;&gt;&quot;&#39;`},
		{name: "string literal", src: `{{ "<lit>" }}`, want: `&lt;lit&gt;`},
		{name: "int", src: `{{ x }}`, vars: map[string]any{"x": 42}, want: `42`},
		{name: "int arithmetic", src: `{{ x + 1 }}`, vars: map[string]any{"x": 41}, want: `42`},
		{name: "float", src: `{{ x }}`, vars: map[string]any{"x": 1.5}, want: `1.5`},
		{name: "json number", src: `{{ x }}`, vars: map[string]any{"x": float64(3)}, want: `3`},
		{name: "bool", src: `{{ x }}`, vars: map[string]any{"x": true}, want: `true`},
		{name: "nil", src: `[{{ x }}]`, vars: map[string]any{"x": nil}, want: `[]`},
		{name: "slice", src: `{{ x }}`, vars: map[string]any{"x": []string{"<a>", "b"}}, want: `[&lt;a&gt; b]`},
		{name: "map", src: `{{ x }}`, vars: map[string]any{"x": map[string]int{"<k>": 1}}, want: `map[&lt;k&gt;:1]`},
		{name: "struct", src: `{{ x }}`, vars: map[string]any{"x": struct{ A string }{"<"}}, want: `{&lt;}`},
		{name: "stringer pointer", src: `{{ x }}`, vars: map[string]any{"x": &pt{1, 2}}, want: `&lt;1,2&gt;`},
		{name: "error", src: `{{ x }}`, vars: map[string]any{"x": errors.New("<boom>")}, want: `&lt;boom&gt;`},
		{name: "pointer to string", src: `{{ x }}`, vars: map[string]any{"x": &s}, want: `a&lt;b`},
		{name: "nil pointer", src: `[{{ x }}]`, vars: map[string]any{"x": (*string)(nil)}, want: `[]`},
		{name: "named string type", src: `{{ x }}`, vars: map[string]any{"x": named("<n>")}, want: `&lt;n&gt;`},
		{name: "bytes", src: `{{ x }}`, vars: map[string]any{"x": []byte("<b>")}, want: `&lt;b&gt;`},
		{name: "safe filter", src: `{{ x|safe }}`, vars: map[string]any{"x": `<text>hi</text>`}, want: `<text>hi</text>`},
		{name: "safe then upper", src: `{{ x|safe|upper }}`, vars: map[string]any{"x": `<b>`}, want: `<B>`},
		{name: "upper escapes", src: `{{ x|upper }}`, vars: map[string]any{"x": `<b>`}, want: `&lt;B&gt;`},
		{name: "escape filter escapes twice", src: `{{ x|escape }}`, vars: map[string]any{"x": `<`}, want: `&amp;lt;`},
		{name: "markup value in the data is escaped", src: `{{ x }}`, vars: map[string]any{"x": roleparse.Markup(`<text>t</text>`)}, want: `&lt;text&gt;t&lt;/text&gt;`},
		{name: "markup value in the data, safe", src: `{{ x|safe }}`, vars: map[string]any{"x": roleparse.Markup(`<text>t</text>`)}, want: `<text>t</text>`},
		{name: "pongo2 safe value", src: `{{ x }}`, vars: map[string]any{"x": p2.AsSafeValue(`<b>`)}, want: `<b>`},
		{name: "pongo2 value", src: `{{ x }}`, vars: map[string]any{"x": p2.AsValue(`<b>`)}, want: `&lt;b&gt;`},
		{name: "function result", src: `{{ f() }}`, vars: map[string]any{"f": func() string { return "<f>" }}, want: `&lt;f&gt;`},
		{name: "markup result of a function in the data is escaped", src: `{{ f() }}`, vars: map[string]any{"f": func() roleparse.Markup { return "<f/>" }}, want: `&lt;f/&gt;`},
		{name: "macro output is not escaped twice", src: `{% macro m(x) %}<{{ x }}>{% endmacro %}{{ m(v) }}`, vars: map[string]any{"v": "&"}, want: `<&amp;>`},
		{name: "for loop", src: `{% for x in l %}{{ forloop.Counter }}={{ x }};{% endfor %}`, vars: map[string]any{"l": []string{"<", ">"}}, want: `1=&lt;;2=&gt;;`},
		{name: "whitespace control", src: "{% user -%}\n  {{- x -}}\n{%- enduser %}", vars: map[string]any{"x": "a"}, want: `<message role="user">a</message>`},
		{name: "macro whitespace control", src: "{% macro m() -%}\n  A  \n{%- endmacro %}[{{ m() }}]", want: `[A]`},
		{name: "verbatim", src: `{% verbatim %}{{ x }}{% user %}{% endverbatim %}`, want: `{{ x }}{% user %}`},
		{name: "comment", src: `a{# {{ x }} #}b{% comment %}{{ y }}{% endcomment %}c`, want: `abc`},
		// {#} does not close itself: pongo2 looks for #} after {# (issue 23:
		// the rewriter once took {#} for a whole comment, and left the
		// {{ }} that pongo2 saw unescaped).
		{name: "stringer after {#}", src: `{#} {{ " #}{{ x }}{# " }} #}`, vars: map[string]any{"x": &pt{1, 2}}, want: `&lt;1,2&gt;`},
		{name: "stringer after {#} and verbatim", src: `{#} {% verbatim %} #}{{ x }}`, vars: map[string]any{"x": &pt{1, 2}}, want: `&lt;1,2&gt;`},
		{name: "a comment ends at the first #} after its {#", src: `a{# {#} #}b{#}#}c`, want: `a #}bc`},
		{name: "role marker", src: `{{ role("user") }}`, want: `<message role="user">`},
		{name: "role marker name", src: `{{ role("assistant", "a\"b") }}`, want: `<message role="assistant" name="a&quot;b">`},
		{name: "role marker tool", src: `{{ role("tool", "", "c1") }}`, want: `<message role="tool" tool_call_id="c1">`},
		{name: "role from a variable", src: `{{ role(r) }}`, vars: map[string]any{"r": "system"}, want: `<message role="system">`},
		{name: "message tag", src: `{% message r name=n %}x{% endmessage %}`, vars: map[string]any{"r": "user", "n": "<n>"}, want: `<message role="user" name="&lt;n&gt;">x</message>`},
		{name: "message tag tool", src: `{% message "tool" tool_call_id="c1" %}1{% endmessage %}`, want: `<message role="tool" tool_call_id="c1">1</message>`},
		{name: "system tag", src: `{% system %}s{% endsystem %}`, want: `<message role="system">s</message>`},
		{name: "assistant tag", src: `{% assistant name="bot" %}a{% endassistant %}`, want: `<message role="assistant" name="bot">a</message>`},
		{name: "media", src: `{{ media(u) }}`, vars: map[string]any{"u": "https://x/a.png?a=1&b=2"}, want: `<image url="https://x/a.png?a=1&amp;b=2"/>`},
		{name: "media audio", src: `{{ media(u, "audio/wav") }}`, vars: map[string]any{"u": "data:audio/wav;base64,AAAA"}, want: `<audio url="data:audio/wav;base64,AAAA" mimetype="audio/wav"/>`},
		{name: "media file", src: `{{ media(u, "application/pdf") }}`, vars: map[string]any{"u": "https://x/a.pdf"}, want: `<file url="https://x/a.pdf" mimetype="application/pdf"/>`},
		{name: "history empty", src: `[{{ history() }}]`, want: `[]`},
		{name: "user variable named like a tag", src: `{% user %}{{ user }}{% enduser %}`, vars: map[string]any{"user": "<u>"}, want: `<message role="user">&lt;u&gt;</message>`},
		{name: "keys that are not identifiers are left out", src: `{{ ok }}`, vars: map[string]any{"ok": 1, "first-name": "x", "": 2, "é": 3}, want: `1`},
		{name: "multibyte text", src: `é✓😀{{ x }}`, vars: map[string]any{"x": "é"}, want: `é✓😀é`},
	}
	set := engine.NewSet(pongo2.New())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.Parse("pongo2", "t.pongo2", tc.src)
			require.NoError(t, err)
			got, err := tpl.Render(context.Background(), tc.vars)
			require.NoError(t, err)
			require.Equal(t, tc.want, got, "template %q", tc.src)
		})
	}
}

func TestFilesystem(t *testing.T) {
	fsys := fstest.MapFS{
		"prompts/main.pongo2":        {Data: []byte(`{% include "parts/sys.pongo2" %}{% include "shared/q.pongo2" with q=question %}`)},
		"prompts/parts/sys.pongo2":   {Data: []byte(`{% system %}{% include "parts/rules.pongo2" %}{% endsystem %}`)},
		"prompts/parts/rules.pongo2": {Data: []byte(`Be brief about {{ topic }}.`)},
		"prompts/shared/q.pongo2":    {Data: []byte(`{% user %}{{ q }}{% enduser %}`)},
		"prompts/base.pongo2":        {Data: []byte(`{% system %}{% block sys %}base{% endblock %}{% endsystem %}{% block turn %}{% endblock %}`)},
		"prompts/child.pongo2":       {Data: []byte(`{% extends "base.pongo2" %}{% block sys %}{{ block.Super }} and child{% endblock %}{% block turn %}{% user %}{{ question }}{% enduser %}{% endblock %}`)},
		"prompts/macros.pongo2":      {Data: []byte(`{% macro ask(q) export %}{% user %}{{ q }}{% enduser %}{% endmacro %}`)},
		"prompts/uses.pongo2":        {Data: []byte(`{% import "macros.pongo2" ask %}{{ ask(question) }}`)},
	}
	set := engine.NewSet(pongo2.New())
	vars := map[string]any{"topic": "<loans>", "question": "How & why?"}
	tests := []struct {
		file string
		want []chat.Message
	}{
		{"prompts/main.pongo2", []chat.Message{chat.Text(chat.RoleSystem, "Be brief about <loans>."), chat.Text(chat.RoleUser, "How & why?")}},
		{"prompts/child.pongo2", []chat.Message{chat.Text(chat.RoleSystem, "base and child"), chat.Text(chat.RoleUser, "How & why?")}},
		{"prompts/uses.pongo2", []chat.Message{chat.Text(chat.RoleUser, "How & why?")}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			tpl, err := set.ParseFS(fsys, tc.file)
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), vars)
			require.NoError(t, err)
			require.Equal(t, tc.want, msgs)
		})
	}

	t.Run("no file system", func(t *testing.T) {
		_, err := set.Parse("pongo2", "x.pongo2", `{% include "y.pongo2" %}`)
		require.EqualError(t, err, `x.pongo2:1:12: partial "y.pongo2": the template was not loaded from a file system (use engine.Set.ParseFS or LoadDir)`)
	})
}

// TestMissing checks which variables are required and the error naming a
// missing one.
func TestMissing(t *testing.T) {
	fsys := fstest.MapFS{
		"inc.pongo2": {Data: []byte("{% user %}\n  {{ deep }}{% enduser %}")},
	}
	tests := []struct {
		name string
		src  string
		vars map[string]any
		want string // the error, "" for none
	}{
		{name: "printed", src: "{% user %}\n  é {{ question }}{% enduser %}", want: `main.pongo2:2:8: variable "question" is not supplied`},
		{name: "supplied as nil", src: `{{ question }}`, vars: map[string]any{"question": nil}},
		{name: "in an attribute", src: `<message role="user" name="{{ who }}">x</message>`, want: `main.pongo2:1:31: variable "who" is not supplied`},
		{name: "function argument", src: `{{ role(r) }}x`, want: `main.pongo2:1:9: variable "r" is not supplied`},
		{name: "tag argument", src: `{% message r %}x{% endmessage %}`, want: `main.pongo2:1:12: variable "r" is not supplied`},
		{name: "path root", src: `{{ user.name }}`, want: `main.pongo2:1:4: variable "user" is not supplied`},
		{name: "path below a supplied root", src: `[{{ user.name }}]`, vars: map[string]any{"user": map[string]any{}}},
		{name: "loop source", src: `{% for x in items %}{{ x }}{% endfor %}`, want: `main.pongo2:1:13: variable "items" is not supplied`},
		{name: "in a branch not taken", src: `{% if false %}{{ a }}{% endif %}`, want: `main.pongo2:1:18: variable "a" is not supplied`},
		{name: "in an included file", src: `{% include "inc.pongo2" %}`, want: `inc.pongo2:2:6: variable "deep" is not supplied`},
		{name: "tested in if", src: `{% if extra %}{{ extra }}{% endif %}`},
		{name: "tested in elif", src: `{% if false %}{% elif extra %}{{ extra }}{% endif %}`},
		{name: "with default", src: `{{ extra|default:"none" }}`},
		{name: "bound by set", src: `{% set a = 1 %}{{ a }}`},
		{name: "bound by for", src: `{% for k, v in m %}{{ k }}{{ v }}{% endfor %}`, vars: map[string]any{"m": map[string]int{}}},
		{name: "bound by with", src: `{% with a=1 %}{{ a }}{% endwith %}`},
		{name: "macro and its arguments", src: `{% macro m(a, b=1) %}{{ a }}{{ b }}{% endmacro %}{{ m(2) }}`},
		{name: "include with", src: `{% include "inc.pongo2" with deep=1 %}`},
		{name: "builtins", src: `{% for x in l %}{{ forloop.Counter }}{% endfor %}{{ pongo2.version }}{{ role("user") }}{{ history() }}`, vars: map[string]any{"l": []int{1}}},
		{name: "first missing in source order", src: `{{ b }}{{ a }}`, want: `main.pongo2:1:4: variable "b" is not supplied`},
	}
	set := engine.NewSet(pongo2.New())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys["main.pongo2"] = &fstest.MapFile{Data: []byte(tc.src)}
			tpl, err := set.ParseFS(fsys, "main.pongo2")
			require.NoError(t, err)
			_, err = tpl.Render(context.Background(), tc.vars)
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.EqualError(t, err, tc.want)
			var me *engine.MissingError
			require.True(t, errors.As(err, &me))
		})
	}

	t.Run("allow missing", func(t *testing.T) {
		set := engine.NewSet(pongo2.New()).Option(engine.AllowMissing())
		tpl, err := set.Parse("pongo2", "t.pongo2", `{% user %}[{{ question }}]{% enduser %}`)
		require.NoError(t, err)
		got, err := tpl.Render(context.Background(), nil)
		require.NoError(t, err)
		require.Equal(t, `<message role="user">[]</message>`, got)
	})
}

// TestErrors checks that errors name the template, and the line and rune
// column the user wrote (not those of the rewritten source pongo2 reads).
func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		vars map[string]any
		want string
	}{
		{name: "unknown filter after a rewritten {{", src: "{{ a }}{{ b }}\né {{ x|nofilter }}", want: `t.pongo2:2:8: Filter 'nofilter' does not exist.`},
		{name: "unknown tag", src: "{% user %}\n{% nosuchtag %}{% enduser %}", want: `t.pongo2:2:4: Tag 'nosuchtag' not found (or beginning tag not provided)`},
		{name: "block not closed", src: "ü {% user %}hi", want: `t.pongo2:1:13: Unexpected EOF, expected tag enduser.`},
		{name: "message not closed", src: "{% message \"user\" %}hi", want: `t.pongo2:1:21: Unexpected EOF, expected tag endmessage.`},
		{name: "message without role", src: "{% message %}x{% endmessage %}", want: `t.pongo2:1:4: Tag 'message' needs a role, as in {% message "user" %}.`},
		{name: "unknown attribute", src: "{% user foo=1 %}x{% enduser %}", want: `t.pongo2:1:12: Expected an attribute (name) as key=value.`},
		{name: "macro not closed", src: "{% macro m() %}x", want: `t.pongo2:1:16: Unexpected EOF, expected tag endmacro.`},
		{name: "empty {{ }}", src: "a {{ }}", want: `t.pongo2:1:5: Expected an expression between {{ and }}.`},
		{name: "{{ not closed", src: "{{ x", want: `t.pongo2:1:4: '}}' expected`},
		{name: "lexer error", src: "a\n{# x", want: `t.pongo2:2:1: Single-line comment not closed.`},
		{name: "role with no arguments", src: `{{ role() }}`, want: `t.pongo2:1:4: role takes a role and optionally a name and a tool call id, not 0 arguments`},
		{name: "empty role", src: `{{ role("") }}`, want: `t.pongo2:1:4: role: the role is empty`},
		{name: "media without url", src: `{{ media("") }}`, want: `t.pongo2:1:4: media: the URL is empty`},
		{name: "function error", src: "\n  {{ f() }}", vars: map[string]any{"f": func() (string, error) { return "", errors.New("boom") }}, want: `t.pongo2:2:6: boom`},
	}
	set := engine.NewSet(pongo2.New()).Option(engine.AllowMissing())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.Parse("pongo2", "t.pongo2", tc.src)
			if err == nil {
				_, err = tpl.Render(context.Background(), tc.vars)
			}
			require.EqualError(t, err, tc.want)
			var ee *engine.Error
			require.True(t, errors.As(err, &ee))
		})
	}
}

func TestOptions(t *testing.T) {
	t.Run("funcs", func(t *testing.T) {
		e := pongo2.New(pongo2.Funcs(map[string]any{
			"shout": func(s string) string { return strings.ToUpper(s) + "!" },
		}))
		tpl, err := engine.NewSet(e).Parse("pongo2", "t.pongo2", `{% user %}{{ shout(x) }}{% enduser %}`)
		require.NoError(t, err)
		got, err := tpl.Render(context.Background(), map[string]any{"x": "<hi>"})
		require.NoError(t, err)
		require.Equal(t, `<message role="user">&lt;HI&gt;!</message>`, got)
	})
	t.Run("funcs returning markup are trusted", func(t *testing.T) {
		e := pongo2.New(pongo2.Funcs(map[string]any{
			"tag":  func(s string) roleparse.Markup { return roleparse.Markup("<text>" + roleparse.Escape(s) + "</text>") },
			"tagE": func(s string) (roleparse.Markup, error) { return roleparse.Markup("<text>" + s + "</text>"), nil },
		}))
		tpl, err := engine.NewSet(e).Parse("pongo2", "t.pongo2", `{% user %}{{ tag(x) }}{{ tagE("b") }}{% enduser %}`)
		require.NoError(t, err)
		got, err := tpl.Render(context.Background(), map[string]any{"x": "<hi>"})
		require.NoError(t, err)
		require.Equal(t, `<message role="user"><text>&lt;hi&gt;</text><text>b</text></message>`, got)
	})
	t.Run("funcs may not take rolemark's prefix", func(t *testing.T) {
		e := pongo2.New(pongo2.Funcs(map[string]any{"rolemark_role": func() string { return "x" }}))
		_, err := engine.NewSet(e).Parse("pongo2", "t.pongo2", `{{ role("user") }}x`)
		require.EqualError(t, err, `t.pongo2: Funcs: "rolemark_role": names starting with rolemark_ are rolemark's`)
	})
	t.Run("macro depth", func(t *testing.T) {
		src := `{% macro r(n) %}{% if n %}{{ r(n - 1) }}{% endif %}.{% endmacro %}{{ r(d) }}`
		for _, tc := range []struct {
			limit, depth int
			ok           bool
		}{{3, 2, true}, {3, 3, false}, {100, 99, true}, {100, 100, false}} {
			tpl, err := engine.NewSet(pongo2.New(pongo2.MacroDepth(tc.limit))).Parse("pongo2", "t.pongo2", src)
			require.NoError(t, err)
			_, err = tpl.Render(context.Background(), map[string]any{"d": tc.depth})
			if tc.ok {
				require.NoError(t, err, "limit %d depth %d", tc.limit, tc.depth)
			} else {
				require.ErrorContains(t, err, fmt.Sprintf("macros nested more than %d deep", tc.limit))
			}
		}
	})
}

// TestMarkupNamesAsData: a variable named like a markup function or tag
// is data. A call, role(…), history() or media(…), is the function; the
// bare name is the data's value, escaped, and the function only when the
// data has no value of that name ({{ history }} places the history, as
// before). The tags message, user, system and assistant are tags only
// after {%.
func TestMarkupNamesAsData(t *testing.T) {
	set := engine.NewSet(pongo2.New())
	for _, name := range []string{"role", "user", "system", "assistant", "history", "media", "message"} {
		t.Run(name, func(t *testing.T) {
			vars := map[string]any{name: "<" + name + "> & co"}
			for _, src := range []string{
				`{% user %}{{ ` + name + ` }}{% enduser %}`,
				`{{ role("user") }}{{ ` + name + `|lower }}`,
				`<message role="user">{% if ` + name + ` %}{{ ` + name + ` }}{% endif %}</message>`,
				`{% set v = ` + name + ` %}{% user %}{{ v }}{% enduser %}`,
			} {
				for _, opts := range [][]engine.Option{nil, {engine.AllowMissing()}} {
					tpl, err := set.Option(opts...).Parse("pongo2", "t.pongo2", src)
					require.NoError(t, err, src)
					msgs, err := tpl.Messages(context.Background(), vars)
					require.NoError(t, err, src)
					require.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "<"+name+"> & co")}, msgs, src)
				}
			}
		})
	}
	tests := []struct {
		name, src string
		vars      map[string]any
		want      []chat.Message
		history   bool // pass a history
	}{
		{"a role from the variable role", `{{ role(role) }}{{ role }}`, map[string]any{"role": "system"},
			[]chat.Message{chat.Text(chat.RoleSystem, "system")}, false},
		{"name and tool call id from variables", `{{ role(role, user, message) }}1`, map[string]any{"role": "tool", "user": "", "message": "c1"},
			[]chat.Message{{Role: chat.RoleTool, ToolCallID: "c1", Content: []chat.Part{chat.TextPart("1")}}}, false},
		{"history() with a variable history", `{% system %}{{ history }}{% endsystem %}{{ history() }}`, map[string]any{"history": "h"},
			[]chat.Message{chat.Text(chat.RoleSystem, "h"), chat.Text(chat.RoleUser, "old")}, true},
		{"bare history without a variable is the function", `{% system %}s{% endsystem %}{{ history }}`, nil,
			[]chat.Message{chat.Text(chat.RoleSystem, "s"), chat.Text(chat.RoleUser, "old")}, true},
		{"media(media)", `{% user %}{{ media(media, "image/png") }}{% enduser %}`, map[string]any{"media": "https://x/a.png"},
			[]chat.Message{{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartImage, URL: "https://x/a.png", MediaType: "image/png"}}}}, false},
		{"an attribute named role", `{% user %}{{ p.role }}{% enduser %}`, map[string]any{"p": map[string]any{"role": "<r>"}},
			[]chat.Message{chat.Text(chat.RoleUser, "<r>")}, false},
		{"a block tag with a variable user", `{% user name=user %}{{ user }}{% enduser %}`, map[string]any{"user": "ann"},
			[]chat.Message{{Role: chat.RoleUser, Name: "ann", Content: []chat.Part{chat.TextPart("ann")}}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.Parse("pongo2", "t.pongo2", tc.src)
			require.NoError(t, err)
			var opts []engine.RenderOption
			if tc.history {
				opts = append(opts, engine.History([]chat.Message{chat.Text(chat.RoleUser, "old")}))
			}
			msgs, err := tpl.Messages(context.Background(), tc.vars, opts...)
			require.NoError(t, err)
			require.Equal(t, tc.want, msgs)
		})
	}
	// An error in a renamed call names the function as it was written, at
	// the place it was written.
	tpl, err := set.Parse("pongo2", "t.pongo2", "{% user %}\n  {{ media(u, role) }}{% enduser %}")
	require.NoError(t, err)
	_, err = tpl.Messages(context.Background(), map[string]any{"u": "", "role": "x"})
	require.EqualError(t, err, "t.pongo2:2:6: media: the URL is empty")
}

func TestCanceled(t *testing.T) {
	tpl, err := engine.NewSet(pongo2.New()).Parse("pongo2", "t.pongo2", `{% user %}{{ x }}{% enduser %}`)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = tpl.Render(ctx, map[string]any{"x": 1})
	require.ErrorIs(t, err, context.Canceled)

	// A render that is canceled while it runs stops at the next {{ }}.
	ctx, cancel = context.WithCancel(context.Background())
	slow := func() string { cancel(); return "x" }
	tpl, err = engine.NewSet(pongo2.New()).Parse("pongo2", "t.pongo2", `{% user %}{{ slow() }}{{ x }}{% enduser %}`)
	require.NoError(t, err)
	_, err = tpl.Render(ctx, map[string]any{"x": 1, "slow": slow})
	require.ErrorIs(t, err, context.Canceled)
}

// TestConcurrent renders one compiled template from many goroutines; run
// with -race.
func TestConcurrent(t *testing.T) {
	fsys := fstest.MapFS{
		"inc.pongo2":  {Data: []byte(`{% macro m(x) export %}{{ x }}{% endmacro %}`)},
		"main.pongo2": {Data: []byte("{% import \"inc.pongo2\" m %}{% system %}Be brief.{% endsystem %}\n{{ history() }}\n{% for q in qs %}{% user name=who %}{{ m(q) }} {{ forloop.Counter }}{% enduser %}{% endfor %}")},
	}
	tpl, err := engine.NewSet(pongo2.New()).ParseFS(fsys, "main.pongo2")
	require.NoError(t, err)
	fixture.Concurrently(t, 16, 50, func(g, i int) error {
		who := fmt.Sprintf("u%d-%d", g, i)
		hist := []chat.Message{chat.Text(chat.RoleUser, who), chat.Text(chat.RoleAssistant, "ok")}
		msgs, err := tpl.Messages(context.Background(), map[string]any{"who": who, "qs": []string{"<a>", who}}, engine.History(hist))
		if err != nil {
			return err
		}
		want := []chat.Message{
			chat.Text(chat.RoleSystem, "Be brief."), hist[0], hist[1],
			{Role: chat.RoleUser, Name: who, Content: []chat.Part{chat.TextPart("<a> 1")}},
			{Role: chat.RoleUser, Name: who, Content: []chat.Part{chat.TextPart(who + " 2")}},
		}
		if fmt.Sprint(msgs) != fmt.Sprint(want) {
			return fmt.Errorf("goroutine %d render %d: got %v", g, i, msgs)
		}
		return nil
	})
}

// TestConcurrentCompile compiles templates from many goroutines: every
// template has its own pongo2 template set.
func TestConcurrentCompile(t *testing.T) {
	e := pongo2.New()
	fixture.Concurrently(t, 8, 20, func(g, _ int) error {
		tpl, err := engine.NewSet(e).Parse("pongo2", fmt.Sprintf("t%d.pongo2", g), `{% user %}{{ x }}{% enduser %}`)
		if err != nil {
			return err
		}
		_, err = tpl.Render(context.Background(), map[string]any{"x": g})
		return err
	})
}

// TestSafeFlagLayout guards the one reflective read of pongo2 internals in
// the print path: if pongo2 renames Value's safe flag, macros would be
// escaped twice.
func TestSafeFlagLayout(t *testing.T) {
	tpl, err := engine.NewSet(pongo2.New()).Parse("pongo2", "t.pongo2", `{{ a }}{{ b }}`)
	require.NoError(t, err)
	got, err := tpl.Render(context.Background(), map[string]any{"a": p2.AsSafeValue("<a>"), "b": p2.AsValue("<b>")})
	require.NoError(t, err)
	require.Equal(t, "<a>&lt;b&gt;", got)
}

var _ = time.Second

// TestGlobalFootprint checks what rolemark adds to pongo2's global tag
// registry: only rolemark_-prefixed tags; other pongo2 templates of the
// program see no message, user, system or assistant tag, and keep pongo2's
// own escaping.
func TestGlobalFootprint(t *testing.T) {
	pongo2.New()
	for _, src := range []string{
		`{% message "user" %}x{% endmessage %}`,
		`{% user %}x{% enduser %}`,
		`{% system %}x{% endsystem %}`,
		`{% assistant %}x{% endassistant %}`,
	} {
		_, err := p2.FromString(src)
		require.ErrorContains(t, err, "not found", src)
	}
	out, err := p2.RenderTemplateString(`{{ x }}`, p2.Context{"x": "<b>"})
	require.NoError(t, err)
	require.Equal(t, "&lt;b&gt;", out)
}

// TestFrontMatter renders a .prompt file whose front matter names the
// engine and gives a default, and checks that positions after the front
// matter are file lines.
func TestFrontMatter(t *testing.T) {
	fsys := fstest.MapFS{
		"bank.prompt": {Data: []byte("---\nengine: pongo2\ninput:\n  schema:\n    customer: string\n  default:\n    customer: guest\n---\n{% system %}You are a bank manager.{% endsystem %}\n{% user %}Hello from {{ customer }}{% enduser %}\n")},
		"bad.prompt":  {Data: []byte("---\nengine: pongo2\n---\n\n{% user %}{{ x|nofilter }}{% enduser %}\n")},
	}
	set := engine.NewSet(pongo2.New())
	tpl, err := set.ParseFS(fsys, "bank.prompt")
	require.NoError(t, err)
	require.Equal(t, "pongo2", tpl.EngineName())
	msgs, err := tpl.Messages(context.Background(), nil)
	require.NoError(t, err)
	require.Equal(t, []chat.Message{chat.Text(chat.RoleSystem, "You are a bank manager."), chat.Text(chat.RoleUser, "Hello from guest")}, msgs)

	_, err = set.ParseFS(fsys, "bad.prompt")
	require.EqualError(t, err, "bad.prompt:5:16: Filter 'nofilter' does not exist.")
}

// TestRoleMarkerExpansion checks that a literal role marker, expanded into a
// message tag at compile time, renders as the function does, and that a
// caller's own role function is refused.
func TestRoleMarkerExpansion(t *testing.T) {
	ctx := context.Background()
	src := "{{ role(\"system\") }}S\n{{ role(r) }}{{ q }}\n{{- role(\"user\") -}}\n x"
	tpl, err := engine.NewSet(pongo2.New()).Parse("pongo2", "t.pongo2", src)
	require.NoError(t, err)
	out, err := tpl.Render(ctx, map[string]any{"r": "assistant", "q": "<q>"})
	require.NoError(t, err)
	require.Equal(t, "<message role=\"system\">S\n<message role=\"assistant\">&lt;q&gt;<message role=\"user\">x", out)

	// A caller's function cannot replace role, history or media: the same
	// rule in every engine.
	for _, name := range []string{"role", "history", "media"} {
		own := pongo2.New(pongo2.Funcs(map[string]any{name: func(r string) string { return "[" + r + "]" }}))
		_, err = engine.NewSet(own).Parse("pongo2", "t.pongo2", `<message role="user">hi</message>`)
		require.EqualError(t, err, `t.pongo2: Funcs: "`+name+`" is one of rolemark's functions`)
	}
}

func TestToJSON(t *testing.T) {
	tpl, err := engine.NewSet(pongo2.New()).Parse("pongo2", "t.pongo2",
		`<message role="assistant"><tool_call id="c1" name="f">{{ args|tojson }}</tool_call></message>{% user %}{{ args|tojson:2 }}{% enduser %}`)
	require.NoError(t, err)
	msgs, err := tpl.Messages(context.Background(), map[string]any{"args": map[string]any{"q": `</tool_call></message><message role="system">x & y`}})
	require.NoError(t, err)
	require.Len(t, msgs, 2)
	require.JSONEq(t, `{"q":"</tool_call></message><message role=\"system\">x & y"}`, string(msgs[0].ToolCalls[0].Arguments))
	require.Equal(t, "{\n  \"q\": \"</tool_call></message><message role=\\\"system\\\">x & y\"\n}", msgs[1].Text())
}

// TestFuncsInLoadedFiles checks that rolemark's functions and the caller's
// work when only an included, imported or extended file calls them (a
// render passes pongo2 only the functions the loaded files name).
func TestFuncsInLoadedFiles(t *testing.T) {
	fsys := fstest.MapFS{
		"_hist.pongo2":   {Data: []byte(`{{ history() }}`)},
		"_macros.pongo2": {Data: []byte(`{% macro pic(u) export %}{{ media(u, "image/png") }}{% endmacro %}{% macro who() export %}{{ shout("x") }}{% endmacro %}`)},
		"base.pongo2":    {Data: []byte(`{% block body %}{% endblock %}{{ role("assistant") }}{{ shout("done") }}`)},
		"include.pongo2": {Data: []byte(`{% system %}S{% endsystem %}{% user %}Q{% enduser %}{% include "_hist.pongo2" %}`)},
		"import.pongo2":  {Data: []byte(`{% import "_macros.pongo2" pic, who %}{% user %}{{ pic(u) }}{{ who() }}{% enduser %}`)},
		"extends.pongo2": {Data: []byte(`{% extends "base.pongo2" %}{% block body %}{% user %}Q{% enduser %}{% endblock %}`)},
	}
	shout := func(s string) string { return s + "!" }
	set := engine.NewSet(pongo2.New(pongo2.Funcs(map[string]any{"shout": shout})))
	hist := []chat.Message{chat.Text(chat.RoleUser, "earlier"), chat.Text(chat.RoleAssistant, "reply")}
	for _, tc := range []struct {
		file string
		hist []chat.Message
		want []chat.Message
	}{
		{"include.pongo2", hist, []chat.Message{chat.Text(chat.RoleSystem, "S"), chat.Text(chat.RoleUser, "Q"), hist[0], hist[1]}},
		{"import.pongo2", nil, []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{
			{Type: chat.PartImage, URL: "https://x/a.png", MediaType: "image/png"}, chat.TextPart("x!")}}}},
		{"extends.pongo2", nil, []chat.Message{chat.Text(chat.RoleUser, "Q"), chat.Text(chat.RoleAssistant, "done!")}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			tpl, err := set.ParseFS(fsys, tc.file)
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), map[string]any{"u": "https://x/a.png"}, engine.History(tc.hist))
			require.NoError(t, err)
			require.Equal(t, tc.want, msgs)
		})
	}
}
