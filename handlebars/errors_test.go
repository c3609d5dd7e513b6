package handlebars_test

import (
	"context"
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/handlebars"
)

var errHelper = errors.New("helper failed")

func faultySet() *engine.Set {
	return engine.NewSet(handlebars.New(handlebars.Funcs(map[string]any{
		"boom": func() string { panic("boom") },
		"nilDeref": func() string {
			var m map[string]*int
			return string(rune(*m["x"]))
		},
		"fail":  func() string { panic(errHelper) },
		"upper": func(s string) string { return s },
		"twice": func(n int) int { return 2 * n },
	})))
}

// TestCompileErrors shows the error a user gets for each template problem
// that is found before rendering.
func TestCompileErrors(t *testing.T) {
	partials := fstest.MapFS{
		"p/self.hbs":   {Data: []byte("x{{> self}}")},
		"p/_a.hbs":     {Data: []byte("a\n{{> b}}")},
		"p/b.hbs":      {Data: []byte("{{> a}}")},
		"p/_bad.hbs":   {Data: []byte("ok\n{{#if x}}")},
		"p/_hello.hbs": {Data: []byte("{{nohelper 1}}")},
	}
	tests := []struct {
		name, src, want string
	}{
		{"unclosed block", "{{#user}}hi", "t.hbs:1:1: {{#user}} is not closed: expected {{/user}} before the end of the template"},
		{"mismatched block", "{{#user}}hi\n  {{/usr}}", "t.hbs:2:6: {{/usr}} does not close {{#user}}"},
		{"unclosed expression", "hello\n{{x", "t.hbs:2:1: unclosed expression"},
		{"unclosed expression after others", "a {{b}}\n😀 {{#if c}}d{{/if}} {{e f", "t.hbs:2:21: unclosed expression"},
		{"unclosed raw block", "x\n😀 {{{{raw}}}} y", "t.hbs:2:3: unclosed raw block"},
		{"unclosed comment", "{{!-- x", "t.hbs:1:1: unclosed comment"},
		{"unterminated string", "x\n{{foo \"ab}}", "t.hbs:2:7: unterminated string"},
		{"unterminated single-quoted string", "{{#message role='user}}x", "t.hbs:1:17: unterminated string"},
		{"bad hash", `{{#message role=}}x{{/message}}`, `t.hbs:1:17: expected a name, found "}}"`},
		{"bad number", "{{msgs.0.role}}", `t.hbs:1:8: bad number syntax: "0.r"`},
		{"partial block", "{{#> layout}}x{{/layout}}", "t.hbs:1:4: unexpected character in expression: '>'"},
		{"unknown helper", `{{shout "hi"}}`, `t.hbs:1:1: unknown helper "shout" (known: assistant, boom, each, equal, fail, history, if, ifEquals, json, lookup, media, message, nilDeref, role, section, system, twice, unless, unlessEquals, upper, user, with)`},
		{"unknown block helper", "\n {{#loud x}}a{{/loud}}", `t.hbs:2:2: unknown helper "loud" (known: assistant, boom, each, equal, fail, history, if, ifEquals, json, lookup, media, message, nilDeref, role, section, system, twice, unless, unlessEquals, upper, user, with)`},
		{"unknown helper in a subexpression", `{{upper (shout x)}}`, `t.hbs:1:9: unknown helper "shout" (known: assistant, boom, each, equal, fail, history, if, ifEquals, json, lookup, media, message, nilDeref, role, section, system, twice, unless, unlessEquals, upper, user, with)`},
		{"data path with arguments", `{{a.b "x"}}`, `t.hbs:1:1: a.b is not a helper name: only a helper takes arguments`},
		{"if without a block", "{{#each xs}}{{if x}}{{/each}}", "t.hbs:1:13: if is a block helper: write {{#if …}}…{{/if}}"},
		{"equal as a subexpression", "{{upper (equal a b)}}", "t.hbs:1:9: equal is a block helper: write {{#equal …}}…{{/equal}}"},
		{"if arity", "{{#if}}x{{/if}}", "t.hbs:1:1: #if takes 1 argument(s), found 0"},
		{"log", `{{log "x"}}`, "t.hbs:1:1: the log helper writes to the process's log and is not available in rolemark"},
		{"role as a block", `{{#role "user"}}x{{/role}}`, `t.hbs:1:1: role is a marker that runs until the next one: write {{role "user"}}, or {{#message role="user"}}…{{/message}} for a block`},
		{"role without a role", `{{role name="x"}}`, `t.hbs:1:1: role takes one argument, the role: {{role "user" name=…}}`},
		{"user with arguments, no block", `{{user name="x"}}`, "t.hbs:1:1: user is a block helper: write {{#user}}…{{/user}} ({{user}} without arguments prints the variable user)"},
		{"message without a block", `{{message role="user"}}`, `t.hbs:1:1: message is a block helper: write {{#message role="user"}}…{{/message}}, or the marker {{role "user"}}`},
		{"message without a role", `{{#message name="x"}}y{{/message}}`, `t.hbs:1:1: message needs a role: {{#message role="user"}}`},
		{"unknown hash key", `{{#user nme="x"}}y{{/user}}`, "t.hbs:1:9: user does not take nme= (it takes name=)"},
		{"else in a role block", "{{#user}}a{{else}}b{{/user}}", "t.hbs:1:1: {{#user}} has no {{else}} part"},
		{"history with arguments", `{{history "x"}}`, "t.hbs:1:1: history takes no arguments"},
		{"history as a block", "{{#history}}x{{/history}}", "t.hbs:1:1: history inserts the conversation's history and cannot be used as {{#history}}"},
		{"media without url", `{{media mimetype="image/png"}}`, "t.hbs:1:1: media needs a url: {{media url=… mimetype=…}}"},
		{"media in an expression", `{{upper (media url=x)}}`, "t.hbs:1:9: media writes markup and cannot be used inside an expression"},
		{"dynamic partial", `{{> (which)}}`, "t.hbs:1:1: partial names must be written out ({{> name}}): dynamic partials are not supported"},
		{"partial without a file system", `{{> header}}`, `t.hbs:1:1: partial "header": the template was not loaded from a file system (use engine.Set.ParseFS or LoadDir)`},
	}
	set := faultySet()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := set.Parse("handlebars", "t.hbs", tc.src)
			require.Error(t, err, tc.src)
			require.Equal(t, tc.want, err.Error(), tc.src)
			var ee *engine.Error
			require.ErrorAs(t, err, &ee)
		})
	}

	fileTests := []struct {
		name, file, want string
	}{
		{"partial includes itself", "p/self.hbs", `p/self.hbs:1:2: partial "self" includes itself (self -> self): recursive partials are not supported`},
		{"partials include each other", "p/_a.hbs", `p/_a.hbs:2:1: partial "b" includes itself (b -> a -> b): recursive partials are not supported`},
		{"syntax error in a partial", "p/bad-user.hbs", "p/_bad.hbs:2:1: {{#if}} is not closed: expected {{/if}} before the end of the template"},
		{"unknown helper in a partial", "p/hello-user.hbs", `p/_hello.hbs:1:1: unknown helper "nohelper" (known: assistant, boom, each, equal, fail, history, if, ifEquals, json, lookup, media, message, nilDeref, role, section, system, twice, unless, unlessEquals, upper, user, with)`},
		{"missing partial", "p/missing.hbs", `p/missing.hbs:1:4: partial "nope" not found: looked for p/_nope.hbs, p/nope.hbs, p/_nope.prompt, p/nope.prompt, p/_nope.handlebars, p/nope.handlebars`},
		{"partial outside the directory", "p/escape.hbs", `p/escape.hbs:1:1: partial "../secret": a partial name is a relative slash-separated path without "." or ".." elements`},
	}
	fsys := fstest.MapFS{}
	for k, v := range partials {
		fsys[k] = v
	}
	fsys["p/bad-user.hbs"] = &fstest.MapFile{Data: []byte("{{> bad}}")}
	fsys["p/hello-user.hbs"] = &fstest.MapFile{Data: []byte("{{> hello}}")}
	fsys["p/missing.hbs"] = &fstest.MapFile{Data: []byte("hi {{> nope}}")}
	fsys["p/escape.hbs"] = &fstest.MapFile{Data: []byte("{{> ../secret}}")}
	fsys["secret.hbs"] = &fstest.MapFile{Data: []byte("s")}
	for _, tc := range fileTests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := set.ParseFS(fsys, tc.file)
			require.Error(t, err)
			require.Equal(t, tc.want, err.Error())
		})
	}
}

// TestRenderErrors shows the error a user gets for each fault found while
// rendering: the faults of raymond listed in the dependency research, which
// would otherwise crash the process or render silently wrong output.
func TestRenderErrors(t *testing.T) {
	tests := []struct {
		name, src string
		vars      map[string]any
		want      string
		check     func(t *testing.T, err error)
	}{
		{name: "string panic in a helper", src: "{{#user}}{{boom}}{{/user}}", want: "t.hbs: template engine panicked: boom",
			check: func(t *testing.T, err error) {
				var pe *engine.PanicError
				require.ErrorAs(t, err, &pe)
				require.Equal(t, "boom", pe.Value)
			}},
		{name: "nil dereference in a helper", src: "{{nilDeref}}", want: "t.hbs: template engine panicked: runtime error: invalid memory address or nil pointer dereference"},
		{name: "panic in a function in the data", src: "{{f}}", vars: map[string]any{"f": func() string { panic("data func") }}, want: `t.hbs:1:3: calling "f": panic: data func`},
		{name: "error from a helper", src: "{{fail}}", want: "t.hbs:1:3: helper failed",
			check: func(t *testing.T, err error) { require.ErrorIs(t, err, errHelper) }},
		{name: "missing variable", src: "{{#system}}Hi\n  {{company}}{{/system}}", want: `t.hbs:2:5: variable "company" is not supplied`,
			check: func(t *testing.T, err error) {
				var me *engine.MissingError
				require.ErrorAs(t, err, &me)
				require.Equal(t, "company", me.Name)
			}},
		{name: "missing nested variable", src: "{{user.name}}", vars: map[string]any{"user": map[string]any{"id": 1}}, want: `t.hbs:1:3: variable "user.name" is not supplied`},
		{name: "missing hash argument", src: "{{#user name=who}}x{{/user}}", want: `t.hbs:1:14: variable "who" is not supplied`},
		{name: "missing media url", src: "{{#user}}{{media url=u}}{{/user}}", want: `t.hbs:1:22: variable "u" is not supplied`},
		{name: "missing @root variable inside each", src: "{{#each xs}}{{@root.top}}{{/each}}", vars: map[string]any{"xs": []int{1}}, want: `t.hbs:1:16: variable "@root.top" is not supplied`},
		{name: "missing variable in each's else", src: "{{#each xs}}x{{else}}{{none}}{{/each}}", vars: map[string]any{"xs": []int{}}, want: `t.hbs:1:24: variable "none" is not supplied`},
		{name: "field of a number", src: "{{n.x}}", vars: map[string]any{"n": 3}, want: `t.hbs:1:3: variable "n.x" is not supplied`},
		{name: "index out of range", src: "{{xs.[2]}}", vars: map[string]any{"xs": []int{1}}, want: `t.hbs:1:3: variable "xs.[2]" is not supplied`},
		{name: "wrong argument type", src: "{{#user}}\n{{twice xs}}{{/user}}", vars: map[string]any{"xs": "a"}, want: "t.hbs:2:9: Helper twice called with argument 0 with type string but it should be int"},
		{name: "position after expanded role markers", src: "{{role \"system\"}}S {{user}}\n{{role \"user\"}}\n{{twice xs}}", vars: map[string]any{"xs": "a", "user": "u"},
			want: "t.hbs:3:9: Helper twice called with argument 0 with type string but it should be int"},
		{name: "empty role", src: "{{role r}}x", vars: map[string]any{"r": ""}, want: "t.hbs:1:3: role: the role is empty"},
		{name: "unknown role", src: "{{role r}}x", vars: map[string]any{"r": "boss"}, want: `t.hbs:1:1: rendered markup: unknown role "boss"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)`},
	}
	set := faultySet()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.Parse("handlebars", "t.hbs", tc.src)
			require.NoError(t, err)
			_, err = tpl.Messages(context.Background(), tc.vars)
			require.Error(t, err)
			require.Equal(t, tc.want, err.Error())
			var ee *engine.Error
			require.ErrorAs(t, err, &ee)
			if tc.check != nil {
				tc.check(t, err)
			}
		})
	}
}

// TestNotChecked lists what the missing-variable check cannot see: it
// passes these renders with the variable absent.
func TestNotChecked(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"inside each", "{{#each xs}}[{{name}}]{{/each}}", "[]"},
		{"inside with", "{{#with o}}[{{name}}]{{/with}}", "[]"},
		{"if condition", "{{#if flag}}yes{{else}}no{{/if}}", "no"},
		{"inside equal", "{{#equal 1 1}}[{{name}}]{{/equal}}", "[]"},
		{"unless condition", "{{#unless flag}}no flag{{/unless}}", "no flag"},
		{"section", "{{#flag}}yes{{/flag}}{{^flag}}no{{/flag}}", "no"},
		{"parent path", "{{#with o}}{{../name}}{{/with}}", ""},
		{"AllowMissing", "{{name}}", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set := engine.NewSet(handlebars.New())
			if tc.name == "AllowMissing" {
				set.Option(engine.AllowMissing())
			}
			tpl, err := set.Parse("handlebars", "t.hbs", tc.src)
			require.NoError(t, err)
			out, err := tpl.Render(context.Background(), map[string]any{"xs": []map[string]any{{}}, "o": map[string]any{"k": 1}})
			require.NoError(t, err)
			require.Equal(t, tc.want, out)
		})
	}
}

// TestPartials renders partials found beside the template.
func TestPartials(t *testing.T) {
	fsys := fstest.MapFS{
		"prompts/bank.hbs":              {Data: []byte("{{> header}}\n{{> common/ask}}")},
		"prompts/_header.hbs":           {Data: []byte(`{{#system}}You work for {{company}}.{{/system}}`)},
		"prompts/header.hbs":            {Data: []byte("shadowed by _header.hbs")},
		"prompts/common/ask.hbs":        {Data: []byte(`{{#user}}{{> quote q=question}}{{/user}}`)},
		"prompts/_quote.hbs":            {Data: []byte(`"{{q}}"`)},
		"prompts/twice.hbs":             {Data: []byte(`{{> quote q="a"}}{{> quote q="b"}}{{> quote q="a"}}`)},
		"prompts/fromother.prompt":      {Data: []byte(`{{> p}}`)},
		"prompts/_p.prompt":             {Data: []byte(`prompt partial`)},
		"prompts/_p.hbs":                {Data: []byte(`hbs partial`)},
		"prompts/unreadable/_x.hbs":     {Mode: fs.ModeDir},
		"prompts/nested/deep/n.hbs":     {Data: []byte(`{{> leaf}}`)},
		"prompts/nested/deep/_leaf.hbs": {Data: []byte(`leaf`)},
	}
	set := engine.NewSet(handlebars.New())
	tests := []struct{ file, want string }{
		// A partial alone on its line takes the line with it (Handlebars'
		// standalone rule), and text in a partial is the author's, not escaped.
		{"prompts/bank.hbs", `<message role="system">You work for Acme &amp; Co.</message><message role="user">"a &lt;b&gt;"</message>`},
		{"prompts/twice.hbs", `"a""b""a"`},
		{"prompts/fromother.prompt", "prompt partial"},
		{"prompts/nested/deep/n.hbs", "leaf"},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			tpl, err := set.ParseFS(fsys, tc.file)
			require.NoError(t, err)
			out, err := tpl.Render(context.Background(), map[string]any{"company": "Acme & Co", "question": "a <b>"})
			require.NoError(t, err)
			require.Equal(t, tc.want, out)
		})
	}
}

// TestContextCanceled stops a render whose context is done.
func TestContextCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tpl, err := handlebars.New().Compile("t.hbs", `{{#user}}x{{/user}}`, driver.Config{})
	require.NoError(t, err)
	err = tpl.Execute(ctx, new(discard), &driver.Request{})
	require.ErrorIs(t, err, context.Canceled)
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// TestConditionalCheck checks that a variable used only in a branch is
// required only when that branch runs, by raymond's truthiness.
func TestConditionalCheck(t *testing.T) {
	fsys := fstest.MapFS{
		"t.hbs":  {Data: []byte(`{{#if a}}{{> p}}{{/if}}`)},
		"_p.hbs": {Data: []byte(`{{q}}`)},
	}
	set := engine.NewSet(handlebars.New())
	withPartial, err := set.ParseFS(fsys, "t.hbs")
	require.NoError(t, err)
	tests := []struct {
		name, src string
		vars      map[string]any
		want      string // output, or the error
	}{
		{"optional value", "{{#if extra}}Extra: {{extra}}{{/if}}", nil, ""},
		{"optional value present", "{{#if extra}}Extra: {{extra}}{{/if}}", map[string]any{"extra": "x"}, "Extra: x"},
		{"branch runs", "{{#if a}}{{b}}{{/if}}", map[string]any{"a": true}, `t.hbs:1:12: variable "b" is not supplied`},
		{"branch does not run", "{{#if a}}{{b}}{{/if}}", map[string]any{"a": 0}, ""},
		{"else runs", "{{#if a}}x{{else}}{{b}}{{/if}}", nil, `t.hbs:1:21: variable "b" is not supplied`},
		{"else does not run", "{{#if a}}x{{else}}{{b}}{{/if}}", map[string]any{"a": []int{1}}, "x"},
		{"unless", "{{#unless a}}{{b}}{{/unless}}", map[string]any{"a": ""}, `t.hbs:1:16: variable "b" is not supplied`},
		{"unless truthy", "{{#unless a}}{{b}}{{/unless}}", map[string]any{"a": "y"}, ""},
		{"else if runs", "{{#if a}}{{else if b}}{{c}}{{/if}}", map[string]any{"b": 1}, `t.hbs:1:25: variable "c" is not supplied`},
		{"else if does not run", "{{#if a}}{{else if b}}{{c}}{{/if}}", map[string]any{"b": false}, ""},
		{"each else does not run", "{{#each xs}}{{this}}{{else}}{{none}}{{/each}}", map[string]any{"xs": []int{7}}, "7"},
		{"section else runs", "{{#s}}x{{else}}{{none}}{{/s}}", nil, `t.hbs:1:18: variable "none" is not supplied`},
		{"inverse section", "{{^s}}{{none}}{{/s}}", map[string]any{"s": map[string]any{"k": 1}}, ""},
		{"nested conditions", "{{#if a}}{{#unless b}}{{c}}{{/unless}}{{/if}}", map[string]any{"a": 1, "b": 0}, `t.hbs:1:25: variable "c" is not supplied`},
		{"equal is not evaluated", "{{#equal a 1}}{{c}}{{/equal}}", map[string]any{"a": 1}, ""},
		{"method condition is not evaluated", "{{#if o.Fn}}{{c}}{{/if}}", map[string]any{"o": cond{}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.Parse("handlebars", "t.hbs", tc.src)
			require.NoError(t, err)
			out, err := tpl.Render(context.Background(), tc.vars)
			if err != nil {
				out = err.Error()
			}
			require.Equal(t, tc.want, out)
		})
	}
	out, err := withPartial.Render(context.Background(), nil)
	require.NoError(t, err)
	require.Equal(t, "", out)
	_, err = withPartial.Render(context.Background(), map[string]any{"a": true})
	require.EqualError(t, err, `_p.hbs:1:3: variable "q" is not supplied`)
}

type cond struct{}

func (cond) Fn() bool { return false }
