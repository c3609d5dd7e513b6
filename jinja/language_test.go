package jinja_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/pyjson"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/roleparse"
)

// TestIdioms renders everyday Jinja2 idioms (issue 23's list among them)
// in a user message and requires Python's Jinja2 output as the message's
// text. testdata/idioms.json was written by testdata/idioms.py with
// Jinja2 3.1; the variables keep their JSON order, as Python's json reads
// them.
func TestIdioms(t *testing.T) {
	b, err := os.ReadFile("testdata/idioms.json")
	require.NoError(t, err)
	var file struct {
		Cases []struct {
			Name, Src, Want string
			Vars            json.RawMessage
		}
	}
	require.NoError(t, json.Unmarshal(b, &file))
	require.GreaterOrEqual(t, len(file.Cases), 30)
	set := engine.NewSet(jinja.New())
	for _, tc := range file.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			pv, err := pyjson.Parse(tc.Vars)
			require.NoError(t, err)
			vars := map[string]any{}
			for i, k := range pv.Keys {
				vars[k] = pv.Items[i]
			}
			tpl, err := set.Parse("jinja", "t.j2", "{% user %}"+tc.Src+"{% enduser %}")
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), vars)
			require.NoError(t, err)
			want := strings.Trim(tc.Want, " \t\r\n")
			if want == "" {
				require.Equal(t, []chat.Message{{Role: chat.RoleUser}}, msgs)
				return
			}
			assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, want)}, msgs)
		})
	}
}

// TestMarkupNamesAsData: a variable named like a markup function or block
// tag is data when it is read, {{ role }}; a call of the bare name,
// {{ role("user") }}, and the block tags are rolemark's, whatever the data
// holds.
func TestMarkupNamesAsData(t *testing.T) {
	vars := map[string]any{
		"role": "a <pirate>", "user": "Ann", "system": "sys", "assistant": "bot",
		"history": "h", "media": "m", "message": "msg",
	}
	tests := []struct {
		name, src string
		want      []chat.Message
	}{
		{"role", `{{ role("system") }}You play {{ role }}.{{ role("user") }}Hi`,
			[]chat.Message{chat.Text(chat.RoleSystem, "You play a <pirate>."), chat.Text(chat.RoleUser, "Hi")}},
		{"role with keywords", `{{ role("user", name=user) }}{{ role|upper }}`,
			[]chat.Message{{Role: chat.RoleUser, Name: "Ann", Content: []chat.Part{chat.TextPart("A <PIRATE>")}}}},
		{"blocks", `{% system %}{{ system }}{% endsystem %}{% user %}{{ user }} {{ message }}{% enduser %}{% assistant %}{{ assistant }}{% endassistant %}`,
			[]chat.Message{chat.Text(chat.RoleSystem, "sys"), chat.Text(chat.RoleUser, "Ann msg"), chat.Text(chat.RoleAssistant, "bot")}},
		{"history and media", `{% user %}{{ history }} {{ media }}{% enduser %}`,
			[]chat.Message{chat.Text(chat.RoleUser, "h m")}},
		{"in a loop", `{% for role in ["user", "assistant"] %}{{ role(role) }}{{ role }}{% endfor %}`,
			[]chat.Message{chat.Text(chat.RoleUser, "user"), chat.Text(chat.RoleAssistant, "assistant")}},
		{"set", `{% set role = "x" %}{{ role("user") }}{{ role }}`,
			[]chat.Message{chat.Text(chat.RoleUser, "x")}},
	}
	set := engine.NewSet(jinja.New())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.Parse("jinja", "t.j2", tc.src)
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), vars)
			require.NoError(t, err)
			assert.Equal(t, tc.want, msgs)
		})
	}
	// Without the data, {{ role }} is a missing variable, not the function.
	tpl, err := set.Parse("jinja", "t.j2", `{{ role("user") }}{{ role }}`)
	require.NoError(t, err)
	_, err = tpl.Messages(context.Background(), nil)
	assert.EqualError(t, err, `t.j2:1:22: variable "role" is not supplied`)
}

// TestPrintedValues: values print as Jinja2 prints them, None too; a whole
// float64 (what encoding/json makes of 5) prints as an int, also when a +
// chain or a ~ chain computed it.
func TestPrintedValues(t *testing.T) {
	set := engine.NewSet(jinja.New())
	tpl, err := set.Parse("jinja", "t.j2", `{% user %}{{ a }}|{{ b }}|{{ c }}|{{ d }}|{{ e }}|{{ f }}|{{ g }}|{{ h }}|{{ i }}|{{ b + b }}|{{ b * 2 }}|{{ b + b + a }}{% enduser %}`)
	require.NoError(t, err)
	msgs, err := tpl.Messages(context.Background(), map[string]any{
		"a": 5.0, "b": 1.5, "c": true, "d": nil, "e": int64(-3), "f": []any{"it's", 1.0, nil},
		"g": map[string]any{"k": false}, "h": roleparse.Markup("<b>"), "i": errors.New("<e>"),
	})
	require.NoError(t, err)
	// a whole float64 of the data is an int, as Python's json.loads reads
	// the JSON it likely came from; a float the template computes prints as
	// Python prints it (1.5 + 1.5 is 3.0)
	assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, `5|1.5|True|None|-3|["it's", 1, None]|{'k': False}|<b>|<e>|3.0|3.0|8.0`)}, msgs)
}

// TestPrintedConstants: a constant prints as the same value in a variable
// does, as in Jinja2.
func TestPrintedConstants(t *testing.T) {
	set := engine.NewSet(jinja.New())
	tpl, err := set.Parse("jinja", "t.j2", `{% user %}{{ none }}|{{ d }}|{{ 2.0 }}|{{ f }}|{{ [none] }}|{{ none if false }}|{{ '<b>' }}{% enduser %}`)
	require.NoError(t, err)
	msgs, err := tpl.Messages(context.Background(), map[string]any{"d": nil, "f": 2.0})
	require.NoError(t, err)
	// the literal 2.0 is Python's float; the data's 2.0 an int (number)
	assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, `None|None|2.0|2|[None]||<b>`)}, msgs)
}

// TestEscapedStrings: a value the template escapes and goes on using is
// the string Jinja2 makes (markupsafe writes " and ' as &#34; and &#39;),
// so its length, a slice or |upper of it is Jinja2's; the rendered markup
// is then Jinja2's with autoescape on, and the message roleparse reads.
// Each want is Jinja2 3.1.6's, with autoescape=True.
func TestEscapedStrings(t *testing.T) {
	set := engine.NewSet(jinja.New())
	const x = `a<b & "c" 'd'`
	for _, tc := range []struct{ src, render, text string }{
		{`{{ x }}`, `a&lt;b &amp; &#34;c&#34; &#39;d&#39;`, x},
		{`{{ x|e|upper }}`, `A&LT;B &AMP; &#34;C&#34; &#39;D&#39;`, `A&LT;B &AMP; "C" 'D'`},
		{`{{ x|e|length }}`, `36`, `36`},
		{`{{ (x|e)[0:8] }}`, `a&lt;b &`, `a<b &`},
		{`{{ x|forceescape|length }}`, `36`, `36`},
		{`{{ x|e|truncate(14) }}`, `a&lt;b...`, `a<b...`},
		{`{{ x|e|wordcount }}`, `10`, `10`},
		{`{% macro m() %}"{% endmacro %}{{ (m() ~ x)|length }}`, `37`, `37`},
		{`{{ x|safe|e|length }}`, `13`, `13`},
		{`{{ x|e|replace("&#34;", "Q") }}`, `a&lt;b &amp; QcQ &#39;d&#39;`, `a<b & QcQ 'd'`},
	} {
		t.Run(tc.src, func(t *testing.T) {
			tpl, err := set.Parse("jinja", "t.j2", tc.src)
			require.NoError(t, err)
			out, err := tpl.Render(context.Background(), map[string]any{"x": x})
			require.NoError(t, err)
			assert.Equal(t, tc.render, out)
			msgs, err := tpl.Messages(context.Background(), map[string]any{"x": x})
			require.NoError(t, err)
			require.Len(t, msgs, 1)
			assert.Equal(t, tc.text, msgs[0].Text())
		})
	}
}

// TestFilteredLoopReadsLoop: a loop with an if filter whose body reads
// loop renders as in Jinja2; the engine's StrictNames made the enclosing
// loop's loop, which the filter would see, a missing variable where no
// loop encloses it, though the filter never read it. Each want is Jinja2
// 3.1.6's.
func TestFilteredLoopReadsLoop(t *testing.T) {
	set := engine.NewSet(jinja.New())
	vars := map[string]any{"d": []any{"a", "", "b"}, "m": []any{[]any{1, 0, 2}, []any{}, []any{3}}}
	for _, tc := range []struct{ src, want string }{
		{`{% for x in d if x %}{{ x }}{{ ', ' if not loop.last }}{% endfor %}`, `a, b`},
		{`{% for x in d if x %}{{ loop.index }}/{{ loop.length }}{% endfor %}`, `1/22/2`},
		{`{% for r in m %}{% for x in r if x %}{{ loop.index }}/{{ loop.length }}{% endfor %};{% endfor %}`, `1/22/2;;1/1;`},
		{`{% for r in m %}{% for x in r if loop.index > 1 %}{{ x }}{{ loop.index }}{% endfor %};{% endfor %}`, `;;31;`},
	} {
		t.Run(tc.src, func(t *testing.T) {
			tpl, err := set.Parse("jinja", "t.j2", tc.src)
			require.NoError(t, err)
			out, err := tpl.Render(context.Background(), vars)
			require.NoError(t, err)
			assert.Equal(t, tc.want, out)
		})
	}
	// the filter reading a loop that is not there is a missing variable
	tpl, err := set.Parse("jinja", "t.j2", `{% for x in d if loop %}{{ x }}{% endfor %}`)
	require.NoError(t, err)
	_, err = tpl.Render(context.Background(), vars)
	assert.EqualError(t, err, `t.j2:1:18: variable "loop" is not supplied`)
}

// TestMissing: a name that nothing defines is an error naming it where a
// render reads it, unless AllowMissing; the tests defined and undefined
// and the filter default accept it; a call of it is an unknown function.
func TestMissing(t *testing.T) {
	fsys := fstest.MapFS{"inc.j2": {Data: []byte("x\n  {{ deep }}")}}
	// allowed is the error with AllowMissing ("" for none, "-" for want):
	// Jinja2's Undefined prints as nothing, and fails when it is used.
	tests := []struct{ name, src, want, allowed string }{
		{"printed", "{% user %}\n  é {{ question }}{% enduser %}", `main.j2:2:8: variable "question" is not supplied`, ""},
		{"in an attribute", `<message role="user" name="{{ who }}">x</message>`, `main.j2:1:31: variable "who" is not supplied`, ""},
		{"function argument", `{{ role(r) }}x`, `main.j2:1:9: variable "r" is not supplied`, `main.j2:1:8: ValueError: role(): the role is empty`},
		{"tag argument", `{% message r %}x{% endmessage %}`, `main.j2:1:12: variable "r" is not supplied`, `main.j2:1:4: ValueError: message(): the role is empty`},
		{"tag keyword", `{% user name=n %}x{% enduser %}`, `main.j2:1:14: variable "n" is not supplied`, ""},
		{"path root", `{{ user.name }}`, `main.j2:1:4: variable "user" is not supplied`, `main.j2:1:8: variable "user" is not supplied`},
		{"loop source", `{% for x in items %}{{ x }}{% endfor %}`, `main.j2:1:13: variable "items" is not supplied`, ""},
		{"condition", `{% if a %}x{% endif %}`, `main.j2:1:7: variable "a" is not supplied`, ""},
		{"in an included file", `{% include "inc.j2" %}`, `inc.j2:2:6: variable "deep" is not supplied`, ""},
		{"first missing in order", `{{ b }}{{ a }}`, `main.j2:1:4: variable "b" is not supplied`, ""},
		{"unknown function", `{{ role("user") }}{{ shout(1) }}`, `main.j2:1:22: unknown function "shout"`, `main.j2:1:27: unknown function "shout"`},
		{"attribute of a value", `{{ role("user") }}{{ m.nope.x }}`, `main.j2:1:28: UndefinedError: 'dict object' has no attribute 'nope'`, "-"},
	}
	for _, allow := range []bool{false, true} {
		set := engine.NewSet(jinja.New())
		if allow {
			set.Option(engine.AllowMissing())
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				fsys := maps(fsys)
				fsys["main.j2"] = &fstest.MapFile{Data: []byte(tc.src)}
				tpl, err := set.ParseFS(fsys, "main.j2")
				require.NoError(t, err)
				_, err = tpl.Messages(context.Background(), map[string]any{"m": map[string]any{}})
				if allow && tc.allowed != "-" {
					if tc.allowed != "" {
						require.EqualError(t, err, tc.allowed)
						return
					}
					require.NoError(t, err)
					return
				}
				require.EqualError(t, err, tc.want)
				var me *engine.MissingError
				if strings.Contains(tc.want, "not supplied") {
					require.ErrorAs(t, err, &me)
				}
			})
		}
	}
	// Lenient uses.
	set := engine.NewSet(jinja.New())
	tpl, err := set.Parse("jinja", "t.j2", `{% user %}{% if x is defined %}x{% endif %}{{ y|default("dflt") }}{% if z is undefined %}!{% endif %}{% enduser %}`)
	require.NoError(t, err)
	msgs, err := tpl.Messages(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "dflt!")}, msgs)
}

// TestVars: check's list of variables, read from the syntax tree.
func TestVars(t *testing.T) {
	fsys := fstest.MapFS{
		"inc.j2": {Data: []byte("{{ deep }}{{ q }}")},
		"main.j2": {Data: []byte(`{% set s = 1 %}{% for it in items %}{{ it.x }}{{ loop.index }}{% endfor %}
{{ role(r) }}{{ q|upper }}{{ shout(q) }}{% if opt is defined %}{{ opt2|default(1) }}{% endif %}
{% macro m(a, b=dflt) %}{{ a }}{{ caller() }}{% endmacro %}{% include "inc.j2" %}{% user name=who %}{{ s }}{{ range(3)|list }}{% enduser %}`)},
	}
	c, err := jinja.New().Compile("main.j2", string(fsys["main.j2"].Data), driver.Config{FS: fsys, Dir: "."})
	require.NoError(t, err)
	got := c.(driver.VarLister).Vars()
	assert.Equal(t, []driver.Var{
		{Name: "items", Template: "main.j2", Line: 1, Col: 29},
		{Name: "r", Template: "main.j2", Line: 2, Col: 9},
		{Name: "q", Template: "main.j2", Line: 2, Col: 17},
		{Name: "shout", Template: "main.j2", Line: 2, Col: 30, Call: true},
		{Name: "dflt", Template: "main.j2", Line: 3, Col: 17},
		{Name: "deep", Template: "inc.j2", Line: 1, Col: 4},
		{Name: "who", Template: "main.j2", Line: 3, Col: 95},
	}, got)
}

// TestErrors: errors name the file, line and column the author wrote, with
// Jinja2's exception and message.
func TestErrors(t *testing.T) {
	fsys := fstest.MapFS{"bad.j2": {Data: []byte("ok\n{% if %}")}}
	tests := []struct{ name, src, want string }{
		{"syntax", "{% user %}\n{{ a + }}{% enduser %}", `main.j2:2:8: TemplateSyntaxError: unexpected 'end of print statement'`},
		{"unclosed block", "{% user %}x", `main.j2:1:11: TemplateSyntaxError: Unexpected end of template. Jinja was looking for the following tags: 'enduser'. The innermost block that needs to be closed is 'user'.`},
		{"unknown tag", "{% usr %}x{% endusr %}", `main.j2:1:4: TemplateSyntaxError: Encountered unknown tag 'usr'.`},
		{"unknown filter", "{{ x|shout }}", `main.j2:1:6: TemplateAssertionError: No filter named 'shout'.`},
		{"broken partial", `{% include "bad.j2" %}`, `bad.j2:2:7: TemplateSyntaxError: Expected an expression, got 'end of statement block'`},
		{"missing partial", `{% include "nope.j2" %}`, `main.j2:1:12: partial "nope.j2" not found: looked for _nope.j2, nope.j2`},
		{"role arguments", `{{ role() }}`, `main.j2:1:4: TypeError: role() missing required argument: 'role'`},
		{"role keyword", `{{ role("user", nme="a") }}`, `main.j2:1:4: TypeError: role() got an unexpected keyword argument 'nme'`},
		{"empty role", `{% message "" %}x{% endmessage %}`, `main.j2:1:4: ValueError: message(): the role is empty`},
		{"division", `{{ role("user") }}{{ 1 // 0 }}`, `main.j2:1:22: ZeroDivisionError: integer division or modulo by zero`},
	}
	set := engine.NewSet(jinja.New())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := maps(fsys)
			fsys["main.j2"] = &fstest.MapFile{Data: []byte(tc.src)}
			tpl, err := set.ParseFS(fsys, "main.j2")
			if err == nil {
				_, err = tpl.Messages(context.Background(), map[string]any{"x": 1})
			}
			require.EqualError(t, err, tc.want)
			var de *engine.Error
			require.ErrorAs(t, err, &de)
		})
	}
}

// TestFuncs: a caller's function is a global; one whose result type is
// roleparse.Markup writes markup; its error fails the render; rolemark's
// names cannot be taken.
func TestFuncs(t *testing.T) {
	fns := map[string]any{
		"sys": func(s string) roleparse.Markup {
			return roleparse.Markup(`<message role="system">` + roleparse.Escape(s) + `</message>`)
		},
		"add":   func(a, b int) int { return a + b },
		"join":  func(sep string, xs ...string) string { return strings.Join(xs, sep) },
		"fail":  func() (string, error) { return "", errors.New("boom") },
		"names": func(xs []any) int { return len(xs) },
	}
	set := engine.NewSet(jinja.New(jinja.Funcs(fns)))
	tpl, err := set.Parse("jinja", "t.j2", `{{ sys(s) }}{% user %}{{ add(2, 3) }} {{ join("-", "a", "b") }} {{ names(["x", 1]) }} {{ s }}{% enduser %}`)
	require.NoError(t, err)
	msgs, err := tpl.Messages(context.Background(), map[string]any{"s": "<x>"})
	require.NoError(t, err)
	assert.Equal(t, []chat.Message{chat.Text(chat.RoleSystem, "<x>"), chat.Text(chat.RoleUser, "5 a-b 2 <x>")}, msgs)

	tpl, err = set.Parse("jinja", "t.j2", `{% user %}{{ fail() }}{% enduser %}`)
	require.NoError(t, err)
	_, err = tpl.Messages(context.Background(), nil)
	assert.EqualError(t, err, "t.j2:1:18: TemplateRuntimeError: fail(): boom")

	_, err = engine.NewSet(jinja.New(jinja.Funcs(map[string]any{"user": strings.ToUpper}))).Parse("jinja", "t.j2", "x")
	assert.EqualError(t, err, `t.j2: Funcs: "user" is one of rolemark's functions`)
}

// TestOptionalInputs: an optional input of the front matter that the
// caller leaves out is not there, as a keyword a Python caller does not
// pass: Jinja2's Undefined, which prints as nothing, is not defined and
// takes default's value; one the caller gives as null is None. A name the
// schema does not make optional stays an error when it is missing.
func TestOptionalInputs(t *testing.T) {
	const front = "---\ninput:\n  schema:\n    q: string\n    note?: string\n---\n"
	tests := []struct {
		name, body string
		vars       map[string]any
		want       string
		err        string
	}{
		{"left out prints nothing", `{% user %}[{{ note }}]{% enduser %}`, map[string]any{"q": "x"}, "[]", ""},
		{"left out, literal tags", `<message role="user">{{ q }} [{{ note }}]</message>`, map[string]any{"q": "x"}, "x []", ""},
		{"left out takes default", `{% user %}{{ note|default('none given') }}{% enduser %}`, map[string]any{"q": "x"}, "none given", ""},
		{"left out is not defined", `{% user %}{{ note is defined }} {{ note is none }}{% enduser %}`, map[string]any{"q": "x"}, "False False", ""},
		{"null is None", `{% user %}[{{ note }}] {{ note is defined }} {{ note|default('d') }}{% enduser %}`, map[string]any{"q": "x", "note": nil}, "[None] True None", ""},
		{"null, literal tags", `<message role="user">[{{ note }}]</message>`, map[string]any{"q": "x", "note": nil}, "[None]", ""},
		{"given", `{% user %}{{ note|default('d') }}{% enduser %}`, map[string]any{"q": "x", "note": "n"}, "n", ""},
		// Jinja2 raises UndefinedError for a call of an Undefined and for
		// its attribute; they said "unknown function" and "not supplied"
		{"left out, called", `{% user %}{{ note() }}{% enduser %}`, map[string]any{"q": "x"}, "", `t.j2:7:18: UndefinedError: 'note' is undefined`},
		{"left out, attribute", `{% user %}{{ note.x }}{% enduser %}`, map[string]any{"q": "x"}, "", `t.j2:7:18: UndefinedError: 'note' is undefined`},
		{"an undeclared name stays strict", `{% user %}{{ other }}{% enduser %}`, map[string]any{"q": "x"}, "", `t.j2:7:14: variable "other" is not supplied`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set := engine.NewSet(jinja.New())
			tpl, err := set.Parse("jinja", "t.j2", front+tt.body)
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), tt.vars)
			if tt.err != "" {
				assert.EqualError(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, tt.want)}, msgs)
		})
	}
}

// TestOptionalInputsFastPath: a template the fast path takes renders the
// same whether an optional input it does not print is given or left out,
// and one it prints left out is Undefined (nothing), given as null None.
func TestOptionalInputsFastPath(t *testing.T) {
	const front = "---\ninput:\n  schema:\n    q: string\n    note?: string\n    extra?: string\n---\n"
	set := engine.NewSet(jinja.New())
	tpl, err := set.Parse("jinja", "t.j2", front+`<message role="user">{{ q }} [{{ note }}]</message>`)
	require.NoError(t, err)
	for _, tt := range []struct {
		vars map[string]any
		want string
	}{
		{map[string]any{"q": "a", "note": "n"}, "a [n]"},
		{map[string]any{"q": "a", "note": "n", "extra": "e"}, "a [n]"},
		{map[string]any{"q": "a"}, "a []"},
		{map[string]any{"q": "a", "note": nil}, "a [None]"},
	} {
		msgs, err := tpl.Messages(context.Background(), tt.vars)
		require.NoError(t, err)
		assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, tt.want)}, msgs, "%v", tt.vars)
	}
}
