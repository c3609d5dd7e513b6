package jinja_test

import (
	"testing"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/internal/fixture/injection"
	"github.com/rolemark/rolemark/jinja"
)

// FuzzEscape holds the injection suite's property for any value: in every
// position of TestInjection (message text in each role style, name and
// tool_call_id attributes, media and image URLs, includes, macros, filter
// blocks with data arguments, history placed and not), the messages are
// exactly the intended ones with the value intact. The seed corpus (the
// hostile values) runs in every go test.
func FuzzEscape(f *testing.F) {
	ps := positions()
	injection.Fuzz(f, ps, injection.Compile(f, engine.NewSet(jinja.New()), ".j2", ps))
}

// FuzzCompile compiles and renders arbitrary template source: whatever the
// source, rolemark returns a template or an error; it never panics, hangs
// or crashes (the fuzzing engine reports a hang as a failure).
func FuzzCompile(f *testing.F) {
	seeds := []string{
		`{% user %}{{ x }}{% enduser %}`,
		`{{ role("user") }}{{ x|upper }}`,
		`{{ role("tool", tool_call_id=x) }}{{ role }}`,
		`{% macro r() %}{{ r() }}{% endmacro %}{{ r() }}`,
		`{{ 1/0 }}{{ 5 % 0 }}{{ 7 // 0 }}`,
		`{% for a in l %}{{ loop.index }}{{ loop.last }}{% endfor %}`,
		`{% raw %}{{ x }}{% endraw %}`,
		`{#} {% raw %} #}{{ x }}`,
		`{{- x -}}{%- if x -%}y{%- endif -%}`,
		`{% message "tool" tool_call_id=x %}{{ x }}{% endmessage %}`,
		`{% include "a.j2" %}{% import "b.j2" as b %}{% extends x %}`,
		`{{ "s\"\\" }}{{ m[n] }}{{ l[-1] }}{{ x[1:] }}`,
		`{% for k, v in m.items() %}{{ k }}={{ v }}{% endfor %}{{ m }}`,
		`{{ x|default('a') ~ l|join(', ') }}{{ '%s'|format(x) }}{{ l|map('string')|list }}`,
		`{% set ns = namespace(n=0) %}{% for a in l recursive %}{{ loop(a) }}{% endfor %}`,
		`{% call role("user") %}x{% endcall %}{% user name=x, tool_call_id=1 %}{% enduser %}`,
		`{{ 2**1000 }}{{ 'a'*1000000 }}{{ range(100000)|list|length }}`,
	}
	vars := map[string]any{"x": "<x>", "l": []int{1, 2}, "m": map[string]int{"a": 1}, "n": nil}
	injection.FuzzCompile(f, engine.NewSet(jinja.New()), "jinja", "f.j2", seeds, vars, nil)
}
