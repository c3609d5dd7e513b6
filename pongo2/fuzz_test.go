package pongo2_test

import (
	"strings"
	"testing"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/internal/fixture"
	"github.com/rolemark/rolemark/internal/fixture/injection"
	"github.com/rolemark/rolemark/pongo2"
)

// FuzzEscape holds the injection suite's property for any value: in every
// position of TestInjection (message text in each role style, name and
// tool_call_id attributes, media and image URLs, includes, macros, history
// placed and not), the messages are exactly the intended ones with the value
// intact. The seed corpus (the hostile values) runs in every go test.
func FuzzEscape(f *testing.F) {
	ps := positions()
	injection.Fuzz(f, ps, injection.Compile(f, engine.NewSet(pongo2.New()), ".pongo2", ps))
}

// FuzzCompile compiles and renders arbitrary template source: whatever the
// source, rolemark returns a template or an error; it never panics, hangs
// or crashes (the fuzzing engine reports a hang as a failure), and a
// fmt.Stringer value is never printed unescaped unless the source says
// safe.
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
		`{% include "a.pongo2" %}`,
		`{# c #}{{ "s\"\\" }}`,
		`{{ m[n] }}{{ x.0 }}{{ x[0] }}`,
		// issue 23: {#} opens a comment that pongo2 ends at the next #}
		`{#} {{ " #}{{ s }}{# " }} #}`,
		`{#} {{ " #}{% macro r() %}{{ r() }}{% endmacro %}{{ r() }}{# " }} #}`,
		`{#} {% verbatim %} #}{{ s }}`,
		`{#} {% verbatim %} #}{% comment %}x{% endcomment junk %}`,
		`{# {#} #}{{ s }}{#}#}{{ s }}`,
	}
	vars := map[string]any{"x": "<x>", "l": []int{1, 2}, "m": map[string]int{"a": 1}, "n": nil, "s": injection.Stringer{S: fixture.Evil}}
	injection.FuzzCompile(f, engine.NewSet(pongo2.New()), "pongo2", "f.pongo2", seeds, vars, func(t *testing.T, src, out string) {
		if !strings.Contains(src, "safe") && strings.Contains(out, "forged & <b>") {
			t.Errorf("%q printed a value unescaped: %q", src, out)
		}
	})
}
