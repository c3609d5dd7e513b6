package pongo2_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/pongo2"
)

// within runs f and fails the test if it does not return in d: the guard
// for constructs that hang pongo2 v6.
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("did not return within %v", d)
	}
}

// TestPongo2Faults shows the error a user gets for each input that panics,
// hangs, crashes or escapes the sandbox in raw pongo2 v6 (see
// docs/research deps.md §2.9).
func TestPongo2Faults(t *testing.T) {
	fsys := fstest.MapFS{
		"p/self.pongo2":   {Data: []byte(`{% include "self.pongo2" %}`)},
		"p/a.pongo2":      {Data: []byte(`{% include "b.pongo2" %}`)},
		"p/b.pongo2":      {Data: []byte(`{% include "a.pongo2" %}`)},
		"p/hang.pongo2":   {Data: []byte("ok\n{% comment %}x{% endcomment junk %}")},
		"p/ok.pongo2":     {Data: []byte(`{% user %}ok{% enduser %}`)},
		"p/ctl.pongo2":    {Data: []byte("ok\n.\x01 text after it")},
		"secret.txt":      {Data: []byte("top secret")},
		"p/macros.pongo2": {Data: []byte(`{% macro r() export %}{{ r() }}{% endmacro %}`)},
	}
	vars := map[string]any{
		"l": []int{1}, "m": map[string]int{"a": 1}, "n": nil, "zero": 0, "name": "p/ok.pongo2", "x": "a",
		"f": func() string { panic("data func") },
	}
	tests := []struct {
		name    string
		src     string
		compile bool // the error comes from Compile, not from the render
		file    string
		line    int
		col     int
		msg     string
		panic   bool // the error wraps an *engine.PanicError
	}{
		{name: "integer division by zero", src: "{% user %}\n{{ 1/0 }}{% enduser %}",
			file: "p/main.pongo2", line: 2, col: 4, msg: "template engine panicked: runtime error: integer divide by zero", panic: true},
		{name: "division by a zero variable", src: "{% user %}{{ 10 / zero }}{% enduser %}",
			file: "p/main.pongo2", line: 1, col: 14, msg: "integer divide by zero", panic: true},
		{name: "modulo zero", src: "{% user %}{{ 5 % 0 }}{% enduser %}",
			file: "p/main.pongo2", line: 1, col: 14, msg: "integer divide by zero", panic: true},
		{name: "cycle without arguments", src: "{% for x in l %}{% cycle %}{% endfor %}", compile: true,
			file: "p/main.pongo2", line: 1, col: 20, msg: `tag "cycle" is not allowed in rolemark templates`},
		{name: "slice comparison", src: "{% user %}\n  {%- if l == l %}a{% endif %}{% enduser %}",
			file: "p/main.pongo2", line: 2, col: 3, msg: "comparing uncomparable type []int", panic: true},
		{name: "map comparison", src: "{% for x in l %}{% if m == m %}a{% endif %}{% endfor %}",
			file: "p/main.pongo2", line: 1, col: 17, msg: "comparing uncomparable type map[string]int", panic: true},
		{name: "division by zero in a set", src: "{% set a = 1 %}\n{% set b = 1 / 0 %}",
			file: "p/main.pongo2", line: 2, col: 1, msg: "integer divide by zero", panic: true},
		{name: "subscript with nil", src: "{% user %}{{ m[n] }}{% enduser %}",
			file: "p/main.pongo2", line: 1, col: 14, msg: "reflect: call of reflect.Value.Type on zero Value", panic: true},
		{name: "endcomment with arguments", src: "hi\n{% comment %}x{% endcomment junk %}", compile: true,
			file: "p/main.pongo2", line: 2, col: 18, msg: "endcomment takes no arguments"},
		{name: "endcomment not closed", src: "{% comment %}x{% endcomment", compile: true,
			file: "p/main.pongo2", line: 1, col: 18, msg: "endcomment takes no arguments"},
		{name: "endcomment closed by }}", src: "{% comment %}x{% endcomment }}", compile: true,
			file: "p/main.pongo2", line: 1, col: 18, msg: "endcomment takes no arguments"},
		{name: "recursive macro after {#}", src: `{#} {{ " #}{% macro r() %}{{ r() }}{% endmacro %}{{ r() }}{# " }} #}`,
			file: "p/main.pongo2", line: 1, col: 30, msg: "macros nested more than 100 deep"},
		{name: "endcomment hang after {#} and verbatim", src: "{#} {% verbatim %} #}{% comment %}x{% endcomment junk %}", compile: true,
			file: "p/main.pongo2", line: 1, col: 39, msg: "endcomment takes no arguments"},
		{name: "parentheses nested too deep", src: "{{ " + strings.Repeat("(", 6000) + "1" + strings.Repeat(")", 6000) + " }}", compile: true,
			file: "p/main.pongo2", line: 1, col: 1, msg: "of more than 10000 tokens is not supported"},
		{name: "blocks nested too deep", src: "{% user %}" + strings.Repeat("{% if 1 %}", 200) + "x" + strings.Repeat("{% endif %}", 200) + "{% enduser %}", compile: true,
			file: "p/main.pongo2", line: 1, col: 2004, msg: "block tags nested more than 200 deep are not supported"},
		{name: "endcomment inside another tag", src: "{% comment %}xx{% en{% endcomment junk %}", compile: true,
			file: "p/main.pongo2", line: 1, col: 24, msg: "endcomment takes no arguments"},
		{name: "endcomment hang in an included file", src: `{% include "hang.pongo2" %}`, compile: true,
			file: "p/hang.pongo2", line: 2, col: 18, msg: "endcomment takes no arguments"},
		{name: "recursive macro", src: "{% macro r() %}{{ r() }}{% endmacro %}\n{% user %}{{ r() }}{% enduser %}",
			file: "p/main.pongo2", line: 1, col: 19, msg: "macros nested more than 100 deep (recursive macro?)"},
		{name: "mutually recursive macros", src: "{% macro a() %}{{ b() }}{% endmacro %}{% macro b() %}{{ a() }}{% endmacro %}{{ a() }}",
			file: "p/main.pongo2", line: 1, col: 57, msg: "macros nested more than 100 deep"},
		{name: "recursive imported macro", src: `{% import "macros.pongo2" r %}{{ r() }}`,
			file: "p/macros.pongo2", line: 1, col: 26, msg: "macros nested more than 100 deep"},
		{name: "include of an absolute path", src: `{% include "/etc/hostname" %}`, compile: true,
			file: "p/main.pongo2", line: 1, col: 12, msg: `partial "/etc/hostname": a partial name is a relative slash-separated path without "." or ".." elements`},
		{name: "include climbing out of the file system", src: `{% include "../../etc/hostname" %}`, compile: true,
			file: "p/main.pongo2", line: 1, col: 12, msg: `partial "../../etc/hostname": a partial name is a relative slash-separated path without "." or ".." elements`},
		{name: "include of a missing file", src: `{% include "nope.pongo2" %}`, compile: true,
			file: "p/main.pongo2", line: 1, col: 12, msg: `partial "nope.pongo2" not found: looked for p/_nope.pongo2, p/nope.pongo2`},
		{name: "include with a computed name", src: `{% include name %}`, compile: true,
			file: "p/main.pongo2", line: 1, col: 4, msg: "include takes a file name in quotes"},
		{name: "include only", src: `{% include "ok.pongo2" with a=1 only %}`, compile: true,
			file: "p/main.pongo2", line: 1, col: 33, msg: "include … only is not supported"},
		{name: "ssi", src: `{% ssi "/etc/hostname" %}`, compile: true,
			file: "p/main.pongo2", line: 1, col: 4, msg: `tag "ssi" is not allowed in rolemark templates`},
		{name: "ssi parsed", src: `{% ssi "/etc/hostname" parsed %}`, compile: true,
			file: "p/main.pongo2", line: 1, col: 4, msg: `tag "ssi" is not allowed`},
		{name: "extends an absolute path", src: `{% extends "/etc/hostname" %}`, compile: true,
			file: "p/main.pongo2", line: 1, col: 12, msg: `a partial name is a relative slash-separated path without "." or ".." elements`},
		{name: "import an absolute path", src: `{% import "/etc/passwd" x %}`, compile: true,
			file: "p/main.pongo2", line: 1, col: 4, msg: `a partial name is a relative slash-separated path without "." or ".." elements`},
		{name: "template including itself", src: `{% include "self.pongo2" %}`, compile: true,
			file: "p/self.pongo2", line: 1, col: 12, msg: "more than 500 template files loaded"},
		{name: "the template including itself", src: `{% include "main.pongo2" %}`, compile: true,
			file: "p/main.pongo2", line: 1, col: 12, msg: `partial "p/main.pongo2": the template includes itself; recursive includes are not supported`},
		{name: "templates including each other", src: `{% include "a.pongo2" %}`, compile: true,
			file: "p/a.pongo2", line: 1, col: 12, msg: "more than 500 template files loaded"},
		{name: "lorem", src: `{% lorem 100000000 w %}`, compile: true,
			file: "p/main.pongo2", line: 1, col: 4, msg: `tag "lorem" is not allowed`},
		{name: "autoescape off", src: `{% autoescape off %}{{ x }}{% endautoescape %}`, compile: true,
			file: "p/main.pongo2", line: 1, col: 4, msg: `tag "autoescape" is not allowed`},
		{name: "truncatechars_html", src: `{{ x|truncatechars_html:5 }}`, compile: true,
			file: "p/main.pongo2", line: 1, col: 25, msg: `filter "truncatechars_html" is not allowed`},
		{name: "center with a huge width", src: "{% user %}\n{{ x|center:1000000000 }}{% enduser %}", compile: true,
			file: "p/main.pongo2", line: 2, col: 13, msg: `filter "center" is not allowed in rolemark templates: its output is unbounded`},
		{name: "ljust with a huge width", src: `{{ x|ljust:1000000000 }}`, compile: true,
			file: "p/main.pongo2", line: 1, col: 12, msg: `filter "ljust" is not allowed in rolemark templates: its output is unbounded`},
		{name: "rjust with a huge width", src: `{{ x|rjust:1000000000 }}`, compile: true,
			file: "p/main.pongo2", line: 1, col: 12, msg: `filter "rjust" is not allowed in rolemark templates: its output is unbounded`},
		{name: "U+0001 in the template text", src: "{% user %}a\x01b {{ x }}{% enduser %}", compile: true,
			file: "p/main.pongo2", line: 1, col: 12, msg: "U+0001 cannot stand in a pongo2 template"},
		{name: "U+0001 in an included file", src: `{% include "ctl.pongo2" %}`, compile: true,
			file: "p/ctl.pongo2", line: 2, col: 2, msg: "U+0001 cannot stand in a pongo2 template"},
		{name: "string panic in a function", src: "{% user %}\n  {{ boom() }}{% enduser %}",
			file: "p/main.pongo2", line: 2, col: 6, msg: "template engine panicked: boom", panic: true},
		{name: "nil dereference in a function", src: "{% user %}{{ nilDeref() }}{% enduser %}",
			file: "p/main.pongo2", line: 1, col: 14, msg: "template engine panicked: runtime error: invalid memory address or nil pointer dereference", panic: true},
		{name: "panic in a function in the data", src: "{% user %}{{ f() }}{% enduser %}",
			file: "p/main.pongo2", line: 1, col: 14, msg: `calling "f": panic: data func`, panic: true},
	}
	set := engine.NewSet(pongo2.New(pongo2.Funcs(map[string]any{
		"boom": func() string { panic("boom") },
		"nilDeref": func() string {
			var p *struct{ s string }
			return p.s
		},
	})))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			within(t, 10*time.Second, func() {
				fsys["p/main.pongo2"] = &fstest.MapFile{Data: []byte(tc.src)}
				tpl, err := set.ParseFS(fsys, "p/main.pongo2")
				if !tc.compile {
					require.NoError(t, err)
					_, err = tpl.Messages(context.Background(), vars)
				}
				require.Error(t, err)
				var ee *engine.Error
				require.True(t, errors.As(err, &ee), "%T %v", err, err)
				require.Contains(t, ee.Err.Error(), tc.msg)
				if tc.file != "" {
					require.Equal(t, tc.file, ee.Template, "%v", err)
				}
				require.Equal(t, tc.line, ee.Line, "%v", err)
				require.Equal(t, tc.col, ee.Col, "%v", err)
				var pe *engine.PanicError
				require.Equal(t, tc.panic, errors.As(err, &pe), "%v", err)
				t.Logf("%s\n  -> %v", tc.src, err)
			})
		})
	}
}

// TestNoTrimBlocksMutation checks that rendering a template many times gives
// the same output each time: pongo2 v6's TrimBlocks re-trims tokens on every
// Execute, so rolemark does not enable it.
func TestNoTrimBlocksMutation(t *testing.T) {
	tpl, err := engine.NewSet(pongo2.New()).Parse("pongo2", "t.pongo2", "{% user %}{% if true %}\n\n\nX{% endif %}{% enduser %}")
	require.NoError(t, err)
	first, err := tpl.Render(context.Background(), nil)
	require.NoError(t, err)
	require.Equal(t, "<message role=\"user\">\n\n\nX</message>", first)
	for i := 0; i < 5; i++ {
		got, err := tpl.Render(context.Background(), nil)
		require.NoError(t, err)
		require.Equal(t, first, got)
	}
}
