package pongo2_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	p2 "github.com/flosch/pongo2/v6"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/pongo2"
)

// plainVars need no escaping and print the same in rolemark and pongo2.
var plainVars = map[string]any{
	"x": "plain", "y": "other", "n": 3, "l": []string{"a", "b", "c"},
	"m": map[string]any{"k": "v", "n": 2}, "empty": "",
}

// TestSameAsPongo2 renders templates that use pongo2's constructs with
// values that need no escaping, and checks that rolemark's output is
// exactly raw pongo2's: rewriting {{ }} changes escaping, nothing else.
func TestSameAsPongo2(t *testing.T) {
	srcs := []string{
		`a{{ x }}b`,
		`{{x}}{{ y}}{{n }}`,
		`{{ x|upper }} {{ x|length }} {{ l|join:", " }} {{ x|default:"d" }} {{ empty|default:"d" }}`,
		`{{ "}}" }}{{ '%}' }}{{ "{{" }}{{ "\"q\"" }}{{ "a\\b" }}`,
		`{{ x|cut:"}}" }}{{ "a}}b"|cut:"}" }}`,
		`{% if x == "plain" %}yes{% elif y %}no{% else %}never{% endif %}`,
		`{% for i in l %}{{ forloop.Counter }}:{{ i }}{% if not forloop.Last %},{% endif %}{% empty %}none{% endfor %}`,
		`{% for k, v in m sorted %}{{ k }}={{ v }};{% endfor %}`,
		`{% set z = x|upper %}{{ z }}`,
		`{% with a=x b=n %}{{ a }}{{ b }}{% endwith %}`,
		`{% macro m(a, b="B") %}[{{ a }}{{ b }}]{% endmacro %}{{ m(x) }}{{ m(x, y) }}`,
		"{% macro m() -%}\n  M  \n{%- endmacro %}<{{ m() }}>",
		"a  {{- x -}}  b\n{%- if true -%}\n  c\n{%- endif -%}\n d",
		`{% filter upper %}{{ x }} text{% endfilter %}`,
		`{% verbatim %}{{ x }}{% if %}{% endverbatim %}{{ x }}`,
		`{# {{ x }} #}{{ x }}{% comment %}{{ y }}{% endcomment %}`,
		`{% spaceless %} <a> {{ x }} </a> <b> </b> {% endspaceless %}`,
		`{% ifequal x "plain" %}eq{% endifequal %}{% ifnotequal x y %}ne{% endifnotequal %}`,
		`{% templatetag openvariable %} x {% templatetag closevariable %}`,
		`{% widthratio n 10 100 %}`,
		`{{ n + 1 }} {{ n * 2 - 1 }} {{ n / 2 }} {{ (n + 1) * 2 }} {{ -n }}`,
		`{{ l.0 }}{{ l[1] }}{{ m.k }}{{ m["k"] }}`,
		`{% if x and not empty or n > 2 %}t{% endif %}{% if "la" in x %}in{% endif %}`,
		`{{ x|slice:":2" }}{{ x|truncatechars:4 }}{{ "a b c"|wordcount }}`,
		`{% block b %}block {{ x }}{% endblock %}`,
		`multi
line {{ x }}
	tab {{ y }} é {{ n }}`,
		`{% now "2006" fake %}`,
	}
	set := engine.NewSet(pongo2.New())
	for i, src := range srcs {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			raw, err := p2.FromString(src)
			require.NoError(t, err, src)
			want, err := raw.Execute(plainVars)
			require.NoError(t, err, src)
			tpl, err := set.Parse("pongo2", "t.pongo2", src)
			require.NoError(t, err, src)
			got, err := tpl.Render(context.Background(), plainVars)
			require.NoError(t, err, src)
			require.Equal(t, want, got, src)
		})
	}
}

// FuzzRewrite checks that rewriting never changes whether pongo2 accepts a
// template, for templates that use none of the constructs rolemark adds,
// renames or refuses.
func FuzzRewrite(f *testing.F) {
	for _, s := range []string{
		`a{{ x }}b`, `{{ "}}" }}`, `{% if x %}{{ x }}{% endif %}`, `{% verbatim %}{{ x }}{% endverbatim %}`,
		`{# c #}{{- x -}}`, `{{ x|cut:"}}" }}`, `{% macro m(a) %}{{ a }}{% endmacro %}{{ m(x) }}`,
		`{#} {{ " #}{{ x }}{# " }} #}`, `{#} {% verbatim %} #}{{ x }}`, `{# {#} #}{{ x }}`,
		`{{ x`, `{{ x %}`, `{% if x }}`, `{{ 'a\'b' }}`, "{{ x\n}}", `{{ é }}`, `{{}}`,
	} {
		f.Add(s)
	}
	skip := []string{
		"comment", "include", "import", "extends", "ssi", "cycle", "ifchanged", "firstof",
		"autoescape", "lorem", "_html", "rolemark", "message", "system", "user", "assistant",
	}
	set := engine.NewSet(pongo2.New())
	f.Fuzz(func(t *testing.T, src string) {
		for _, s := range skip {
			if strings.Contains(src, s) {
				return
			}
		}
		rawErr := func() (err error) {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("panic: %v", p)
				}
			}()
			_, err = p2.FromString(src)
			return err
		}()
		tpl, err := set.Parse("pongo2", "f.pongo2", src)
		if (rawErr == nil) != (err == nil) {
			t.Fatalf("%q: pongo2: %v; rolemark: %v", src, rawErr, err)
		}
		if err != nil || strings.Contains(src, "macro") {
			return // a recursive macro would crash raw pongo2
		}
		// Both accept it: with values that print alike in both, the output
		// must be the same, once pongo2's True/False and %f floats are
		// written as rolemark writes them.
		vars := map[string]any{"x": "a<b", "y": "", "n": 3}
		want, rawErr := func() (out string, err error) {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("panic: %v", p)
				}
			}()
			raw, _ := p2.FromString(src)
			return raw.Execute(vars)
		}()
		got, err := tpl.Render(context.Background(), vars)
		if rawErr != nil || err != nil {
			return // errors are compared by the tests of each fault
		}
		if normalize(want) != normalize(got) {
			t.Fatalf("%q:\npongo2:   %q\nrolemark: %q", src, want, got)
		}
	})
}

var sixDecimals = regexp.MustCompile(`-?\d+\.\d{6}`)

func normalize(s string) string {
	s = strings.NewReplacer("True", "true", "False", "false").Replace(s)
	return sixDecimals.ReplaceAllStringFunc(s, func(f string) string {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return f
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	})
}

// TestUnguarded: Compile's check of pongo2's parse tree finds a {{ }} that
// pongo2 prints itself and a macro without the depth guard, at any depth
// and in a block, and nothing in what the rewriter writes.
func TestUnguarded(t *testing.T) {
	const print = "{{ }} that pongo2 would print without rolemark's escaping"
	const macro = "macro without rolemark's bound on the depth of calls"
	tests := []struct{ src, want string }{
		{`{% rolemark_print x %}`, ""},
		{`{% macro m() %}{% rolemark_macro %}{% rolemark_print x %}{% endrolemark_macro %}{% endmacro %}`, ""},
		{`text only`, ""},
		{`{{ x }}`, print},
		{`{% if a %}{% for i in l %}{% with y=i %}{{ y }}{% endwith %}{% endfor %}{% endif %}`, print},
		{`{% block b %}{{ x }}{% endblock %}`, print},
		{`{% rolemark_user %}{{ x }}{% endrolemark_user %}`, print},
		{`{% macro m() %}x{% endmacro %}`, macro},
		{`{% macro m() %} {% rolemark_macro %}x{% endrolemark_macro %}{% endmacro %}`, macro},
		{`{% if a %}{% macro m() %}{{ m() }}{% endmacro %}{% endif %}`, macro},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			got, err := pongo2.Unguarded(tc.src)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

// TestEndcommentHang: the second guard against pongo2 v6's endcomment
// hang reads the text pongo2 will lex, wherever the rewriter thought it was.
func TestEndcommentHang(t *testing.T) {
	tests := []struct {
		out  string
		off  int
		hang bool
	}{
		{`{% comment %}x{% endcomment %}`, 0, false},
		{`{% comment %}x{%- endcomment -%}`, 0, false},
		{"{% comment %}x{%endcomment\t%}", 0, false},
		{`{% endcomments junk %}`, 0, false},
		{`endcomment junk`, 0, false},
		{`{% comment %}x{% endcomment junk %}`, 17, true},
		{`{% comment %}x{%- endcomment`, 18, true},
		{`{% comment %}x{% endcomment }}`, 17, true},
		{`{% verbatim %}{% endcomment x %}{% endverbatim %}`, 17, true},
		{"{% endcomment %} {% endcomment\n%}", 20, true},
	}
	for _, tc := range tests {
		t.Run(tc.out, func(t *testing.T) {
			off, hang := pongo2.EndcommentHang(tc.out)
			require.Equal(t, tc.hang, hang)
			require.Equal(t, tc.off, off)
		})
	}
}
