package unclosed

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestConstruct(t *testing.T) {
	for _, tc := range []struct {
		name, engine, src, msg string
		line, col              int
		want                   string // "L:C msg", empty for not ok
	}{
		{"gotmpl if", "gotmpl", "a\n  {{if .n}}\nb\n", "unexpected EOF", 4, 0,
			"2:3 {{if}} is not closed: expected {{end}} before the end of the template (text/template: unexpected EOF)"},
		{"gotmpl inner", "gotmpl", "{{range .x}}\n{{- if .y}}\n{{end}}\n", "unexpected EOF", 4, 0,
			"1:1 {{range}} is not closed: expected {{end}} before the end of the template (text/template: unexpected EOF)"},
		{"gotmpl strings and comments", "gotmpl", "{{/* {{if}} */}}{{printf \"}}{{end}}\"}}é{{with .x}}\n", "unexpected EOF", 2, 0,
			"1:40 {{with}} is not closed: expected {{end}} before the end of the template (text/template: unexpected EOF)"},
		{"gotmpl front matter", "gotmpl", "---\ndescription: '{{if'\n---\nx{{define \"a\"}}", "unexpected EOF", 4, 0,
			"4:2 {{define}} is not closed: expected {{end}} before the end of the template (text/template: unexpected EOF)"},
		{"gotmpl unclosed action", "gotmpl", "ok {{end}}\nx {{ .a \n", "unexpected EOF", 3, 0,
			"2:3 the action opened here has no closing }} (text/template: unexpected EOF)"},
		{"gotmpl other error", "gotmpl", "{{if}}", "missing value for if", 1, 0, ""},
		{"jinja", "jinja", "x\né {% if x %}\nhello\n", "TemplateSyntaxError: Unexpected end of template. Jinja was looking for 'endif'", 3, 1,
			"2:3 TemplateSyntaxError: Unexpected end of template. Jinja was looking for 'endif'"},
		{"jinja nested, strings, comments, raw, set", "jinja",
			"{% for a in b %}{# {% if %} #}{% set x = 1 %}{% set y %}{% endset %}{% raw %}{% if %}{% endraw %}\n  {%- if \"%}\" -%}\n{% endif %}x",
			"TemplateSyntaxError: Unexpected end of template.", 3, 12, "1:1 TemplateSyntaxError: Unexpected end of template."},
		{"jinja inner", "jinja", "{% for a in b %}\n  {%- if c %}\n", "TemplateSyntaxError: Unexpected end of template.", 2, 13,
			"2:3 TemplateSyntaxError: Unexpected end of template."},
		{"pongo2", "pongo2", "{%- for x in y -%}", "Unexpected EOF, expected tag endfor.", 1, 19, "1:1 Unexpected EOF, expected tag endfor."},
		{"jinja other error", "jinja", "{% if x %}", "TemplateSyntaxError: expected token", 1, 8, ""},
		{"jinja nothing open", "jinja", "{{ x }}", "TemplateSyntaxError: Unexpected end of template.", 1, 8, ""},
		// a print statement or tag whose end never comes
		{"jinja print never closed", "jinja", "a {{ b }}\n😀 {{ x", "TemplateSyntaxError: unexpected end of template, expected 'end of print statement'.", 2, 6,
			"2:3 TemplateSyntaxError: unexpected end of template, expected 'end of print statement'."},
		{"jinja tag never closed", "jinja", "a\n😀 {% if x", "TemplateSyntaxError: unexpected end of template, expected 'end of statement block'.", 2, 9,
			"2:3 TemplateSyntaxError: unexpected end of template, expected 'end of statement block'."},
		{"pongo2 print never closed", "pongo2", "a\n😀 {{ x", "'}}' expected", 2, 6, "2:3 '}}' expected"},
		{"pongo2 tag never closed", "pongo2", "a\n😀 {% if x", "Unexpectedly reached EOF, no tag end found.", 2, 9, "2:3 Unexpectedly reached EOF, no tag end found."},
		{"pongo2 a token where }} is expected", "pongo2", "{{ x y }}", "'}}' expected", 1, 6, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, c, m, ok := Locate(tc.engine, tc.src, tc.msg, tc.line, tc.col)
			if tc.want == "" {
				assert.False(t, ok)
				return
			}
			assert.True(t, ok)
			assert.Equal(t, tc.want, fmt.Sprintf("%d:%d %s", l, c, m))
		})
	}
}
