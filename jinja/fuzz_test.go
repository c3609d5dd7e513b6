package jinja_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/jinja"
)

// FuzzEscape checks the escaping property for the Jinja engine: for any
// string x, a value printed as message text yields exactly the intended
// message with x trimmed of ASCII whitespace, and a value printed as a name
// attribute comes back exactly.
func FuzzEscape(f *testing.F) {
	for _, s := range hostileValues(f) {
		if len(s) < 1000 {
			f.Add(s)
		}
	}
	set := engine.NewSet(jinja.New())
	text, err := set.Parse("jinja", "text.j2", `{% system %}S{% endsystem %}<message role="user">{{ x }}</message>{{ role("assistant") }}{{ x }}`)
	if err != nil {
		f.Fatal(err)
	}
	attr, err := set.Parse("jinja", "attr.j2", `<message role="user" name="{{ x }}">a</message>{% user name=x %}b{% enduser %}`)
	if err != nil {
		f.Fatal(err)
	}
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, x string) {
		vars := map[string]any{"x": x}
		msgs, err := text.Messages(ctx, vars)
		if err != nil {
			t.Fatalf("%q: %v", x, err)
		}
		want := strings.Trim(x, " \t\r\n")
		if len(msgs) != 3 || msgs[0].Role != chat.RoleSystem || msgs[0].Text() != "S" ||
			msgs[1].Role != chat.RoleUser || msgs[1].Text() != want || !msgs[1].TextOnly() ||
			msgs[2].Role != chat.RoleAssistant || msgs[2].Text() != want || !msgs[2].TextOnly() {
			t.Fatalf("%q: got %#v", x, msgs)
		}
		msgs, err = attr.Messages(ctx, vars)
		if err != nil {
			t.Fatalf("%q: %v", x, err)
		}
		if len(msgs) != 2 || msgs[0].Name != x || msgs[0].Text() != "a" || msgs[1].Name != x || msgs[1].Text() != "b" {
			t.Fatalf("%q: got %#v", x, msgs)
		}
	})
}

// FuzzCompile compiles and renders arbitrary template source: whatever the
// source, rolemark returns a template or an error; it never panics, hangs
// or crashes (the fuzzing engine reports a hang as a failure).
func FuzzCompile(f *testing.F) {
	seeds := []string{
		`{% user %}{{ x }}{% enduser %}`,
		`{{ role("user") }}{{ x|upper }}`,
		`{% comment %}x{% endcomment junk %}`,
		`{% comment %}x{% endcomment`,
		`{% comment %}x{% endcomment }}`,
		`{%- comment -%}{% if %}{%- endcomment -%}`,
		`{% macro r() %}{{ r() }}{% endmacro %}{{ r() }}`,
		`{{ 1/0 }}{{ 5 % 0 }}`,
		`{% if l == l %}{% endif %}`,
		`{% for a in l %}{{ forloop.Counter }}{% endfor %}`,
		`{% verbatim %}{{ x }}{% endverbatim %}`,
		`{{- x -}}{%- if x -%}y{%- endif -%}`,
		`{% message "tool" tool_call_id=x %}{{ x }}{% endmessage %}`,
		`{% include "a.j2" %}`,
		`{# c #}{{ "s\"\\" }}`,
		`{{ m[n] }}{{ x.0 }}{{ x[0] }}`,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	set := engine.NewSet(jinja.New())
	vars := map[string]any{"x": "<x>", "l": []int{1, 2}, "m": map[string]int{"a": 1}, "n": nil}
	f.Fuzz(func(t *testing.T, src string) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			tpl, err := set.Parse("jinja", "f.j2", src)
			if err != nil {
				return
			}
			_, _ = tpl.Render(context.Background(), vars)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%q: compile and render did not return in 10s", src)
		}
	})
}
