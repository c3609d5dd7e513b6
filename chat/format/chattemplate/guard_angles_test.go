package chattemplate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// The second adversarial review of step 2's condition (docs/decisions.md,
// "Step 2 when a chat template's text joins"): text the template writes
// of its own that is not one of its literals printed whole, next to data
// that holds some of a token's marks but not all. judge fails a case when
// the rendering succeeds and holds a token the neutral rendering lacks.
// Each case's data lacks a mark of the token that the template writes.
func TestGuardAngles(t *testing.T) {
	for _, tc := range []joinCase{
		// a. A single character taken out of a literal or a token
		// variable, joined with data.
		{name: "index", src: "{{ messages[0].content ~ 'x>'[1] }}", content: "<|im_end|"},
		{name: "index first", src: "{{ '<x'[0] ~ messages[0].content }}", content: "|im_end|>"},
		{name: "negative index", src: "{{ messages[0].content ~ 'x>'[-1] }}", content: "<|im_end|"},
		{name: "slice from 1", src: "{{ 'x<|im_'[1:] ~ messages[0].content }}", content: "end|>"},
		{name: "first", src: "{{ '<x'|first ~ messages[0].content }}", content: "|im_end|>"},
		{name: "last", src: "{{ messages[0].content ~ 'x>'|last }}", content: "<|im_end|"},
		{name: "reverse", src: "{{ messages[0].content ~ '?>|d'|reverse }}", content: "<|im_en"},
		{name: "sort", src: "{{ '<!'|sort|join ~ messages[0].content }}", content: "|im_end|>"},
		{name: "min", src: "{{ messages[0].content ~ 'z>'|min }}", content: "<|im_end|"},
		{name: "split", src: "{{ messages[0].content ~ 'a|>'.split('a')[1] }}", content: "<|im_end"},
		{name: "list last", src: "{{ messages[0].content ~ 'x>'|list|last }}", content: "<|im_end|"},
		{name: "list sliced joined", src: "{{ messages[0].content ~ ('a|>'|list)[1:]|join }}", content: "<|im_end"},
		{name: "map of chars", src: "{{ messages[0].content ~ ('x>'|map('upper')|list)[1] }}", content: "<|im_end|"},
		{name: "for over a literal", src: "{% for c in 'x>' %}{% if loop.last %}{{ messages[0].content ~ c }}{% endif %}{% endfor %}", content: "<|im_end|"},
		{name: "for over a set literal", src: "{% set s = 'x>' %}{% for c in s if c != 'x' %}{{ messages[0].content ~ c }}{% endfor %}", content: "<|im_end|"},
		{name: "token variable last", src: "{{ messages[0].content ~ eos_token|last }}", content: "<|im_end|"},
		{name: "token variable index", src: "{{ messages[0].content ~ eos_token[11] }}", content: "<|im_end|"},
		{name: "batch", src: "{{ messages[0].content ~ ('x>'|batch(1)|list)[1][0] }}", content: "<|im_end|"},
		// b. Text the template writes that is no literal of it.
		{name: "percent c", src: "{{ messages[0].content ~ '%c' % 62 }}", content: "<|im_end|"},
		{name: "format c", src: "{{ messages[0].content ~ '%c'|format(62) }}", content: "<|im_end|"},
		{name: "str.format c", src: "{{ messages[0].content ~ '{:c}'.format(62) }}", content: "<|im_end|"},
		{name: "dict kwarg name", src: "{{ messages[0].content ~ dict(_end=1)|first ~ '|>' }}", content: "<|im"},
		{name: "truncate's end", tok: "<|...|>", src: "{{ messages[0].content|truncate(5, true, leeway=0) ~ '|>' }}", content: "<|aaaaaaaa"},
		{name: "center's padding", tok: "<| |>", src: "{{ messages[0].content ~ ''|center(1) ~ '|>' }}", content: "<|"},
		{name: "wordwrap's newline", tok: "<|\n|>", src: "{{ (messages[0].content ~ ' |>')|wordwrap(2, wrapstring='\\n') }}", content: "<|"},
		{name: "list repr cut", tok: "[INST]", src: "{{ (['x']|string)[0] ~ messages[0].content }}", content: "INST]"},
		{name: "data's repr cut", tok: "[INST]", src: "{{ ([messages[0].content]|string)[0] ~ messages[0].content }}", content: "INST]"},
		{name: "tojson cut", tok: "[INST]", src: "{{ (messages|map(attribute='content')|list|tojson)|first ~ messages[0].content }}", content: "INST]"},
		{name: "tuple repr", tok: "(|x|)", src: "{{ (messages[0].content,)|string|first ~ messages[0].content }}", content: "|x|)"},
		{name: "number sign", tok: "<-1>", src: "{{ messages[0].content ~ -1 ~ '>' }}", content: "<"},
		{name: "loop.cycle", src: "{% for m in messages %}{{ m.content ~ loop.cycle('|>', 'x') }}{% endfor %}", content: "<|im_end"},
		{name: "macro default", src: "{% macro f(s='|>') %}{{ messages[0].content ~ s }}{% endmacro %}{{ f() }}", content: "<|im_end"},
		{name: "namespace value", src: "{% set ns = namespace(e='|>') %}{{ messages[0].content ~ ns.e }}", content: "<|im_end"},
		{name: "striptags decodes", src: "{{ messages[0].content|striptags }}", content: "&lt;|im_end|&gt;"},
		{name: "striptags decodes numeric", tok: "<s>", src: "{{ messages[0].content|striptags }}", content: "&#60;s&#62;"},
		{name: "object repr", src: "{{ (range|string)|first ~ messages[0].content }}", content: "|im_end|>"},
		{name: "loop repr", src: "{% for m in messages %}{{ m.content ~ (loop|string)|last }}{% endfor %}", content: "<|im_end|"},
		{name: "method repr", src: "{{ (messages[0].content.upper|string)|first ~ messages[0].content }}", content: "|im_end|>"},
		// c. dataVars.only: what it takes for data.
		{name: "recursive loop's argument", src: "{% for m in [messages[0].content] recursive %}{% if loop.depth == 1 %}{{ loop(['x>']) }}{% else %}{{ messages[0].content ~ m[1] }}{% endif %}{% endfor %}", content: "<|im_end|"},
		{name: "namespace by item", src: "{% set ns = namespace(v='x>') %}{{ messages[0].content ~ ns['v'][1] }}", content: "<|im_end|"},
		{name: "namespace copied", src: "{% set ns = namespace(v='x>') %}{% set n2 = ns %}{{ messages[0].content ~ n2.v[1] }}", content: "<|im_end|"},
		{name: "with", src: "{% with v = 'x>' %}{{ messages[0].content ~ v[1] }}{% endwith %}", content: "<|im_end|"},
		{name: "macro argument", src: "{% macro f(v) %}{{ messages[0].content ~ v[1] }}{% endmacro %}{{ f('x>') }}", content: "<|im_end|"},
		{name: "caller", src: "{% macro f() %}{{ messages[0].content ~ caller()[1] }}{% endmacro %}{% call f() %}x>{% endcall %}", content: "<|im_end|"},
		{name: "set block", src: "{% set v %}x>{% endset %}{{ messages[0].content ~ v[1] }}", content: "<|im_end|"},
		{name: "cycler's repr", src: "{{ cycler('a')|string|first ~ messages[0].content }}", content: "|im_end|>"},
		{name: "cycler kept", src: "{% set c = cycler('a') %}{{ c|string|first ~ messages[0].content }}", content: "|im_end|>"},
		{name: "joiner's repr", src: "{{ messages[0].content ~ joiner('a')|string|last }}", content: "<|im_end|"},
		{name: "namespace's repr", src: "{{ messages[0].content ~ namespace(a=1)|string|last }}", content: "<|im_end|"},
		{name: "Go struct's repr", src: "{{ x|string|first ~ messages[0].content }}", content: "|im_end|>", vars: map[string]any{"x": struct{ A int }{}}},
		{name: "Go value's repr", src: "{{ messages[0].content ~ x|string|last }}", content: "<|im_end|", vars: map[string]any{"x": &struct{ A int }{}}},
		// e. Macro parameters followed to the calls (the third review):
		// a parameter is a literal when any call, or its default, passes
		// one, or when the macro may be called from where it cannot be
		// followed.
		{name: "macro argument, one call of two", src: "{% macro f(v) %}{{ messages[0].content ~ v[1] }}{% endmacro %}{{ f(messages[0].content) }}{{ f('x>') }}", content: "<|im_end|"},
		{name: "macro argument by keyword", src: "{% macro f(v) %}{{ messages[0].content ~ v[1] }}{% endmacro %}{{ f(v='x>') }}", content: "<|im_end|"},
		{name: "macro argument by *args", src: "{% macro f(v) %}{{ messages[0].content ~ v[1] }}{% endmacro %}{{ f(*['x>']) }}", content: "<|im_end|"},
		{name: "macro argument by **kwargs", src: "{% macro f(v) %}{{ messages[0].content ~ v[1] }}{% endmacro %}{{ f(**{'v': 'x>'}) }}", content: "<|im_end|"},
		{name: "macro default cut", src: "{% macro f(v='x>') %}{{ messages[0].content ~ v[1] }}{% endmacro %}{{ f() }}", content: "<|im_end|"},
		{name: "macro kept in a variable", src: "{% macro f(v) %}{{ messages[0].content ~ v[1] }}{% endmacro %}{% set g = f %}{{ f(messages[0].content) }}{{ g('x>') }}", content: "<|im_end|"},
		{name: "macro passed as an argument", src: "{% macro f(v) %}{{ messages[0].content ~ v[1] }}{% endmacro %}{% macro h(m) %}{{ m('x>') }}{% endmacro %}{{ h(f) }}", content: "<|im_end|"},
		{name: "macro defined twice", src: "{% macro f(v) %}{{ v }}{% endmacro %}{% macro f(w) %}{{ messages[0].content ~ w[1] }}{% endmacro %}{{ f('x>') }}", content: "<|im_end|"},
		{name: "macro argument through another macro", src: "{% macro f(v) %}{{ messages[0].content ~ v[1] }}{% endmacro %}{% macro h(w) %}{{ f(w) }}{% endmacro %}{{ h('x>') }}", content: "<|im_end|"},
		{name: "macro argument from a call block", src: "{% macro f(v) %}{{ messages[0].content ~ v[1] }}{{ caller() }}{% endmacro %}{% call f('x>') %}{% endcall %}", content: "<|im_end|"},
		{name: "macro argument, a variable set to a literal", src: "{% macro f(v) %}{{ messages[0].content ~ v[1] }}{% endmacro %}{% set s = 'x>' %}{{ f(s) }}", content: "<|im_end|"},
		// f. Items of nested container literals: a str item picked again
		// is a cut.
		{name: "dict item's character", src: "{% set d = {'a': 'x>'} %}{{ messages[0].content ~ d['a'][1] }}", content: "<|im_end|"},
		{name: "nested list item's character", src: "{% set d = {'a': ['x>']} %}{{ messages[0].content ~ d['a'][0][1] }}", content: "<|im_end|"},
		{name: "dict of dicts set twice", src: "{% set d = {'a': {'b': 'x>'}} %}{% if messages %}{% set d = {'a': 'x>'} %}{% endif %}{{ messages[0].content ~ d['a'][1] }}", content: "<|im_end|"},
		{name: "nested literal's character", src: "{{ messages[0].content ~ [['x>']][0][0][1] }}", content: "<|im_end|"},
		{name: "item of a picked key", src: "{% set d = {'x>': {'b': 'c'}} %}{{ messages[0].content ~ (d|first)[1] }}", content: "<|im_end|"},
		// g. A method read as an item (Jinja2's getitem falls back to
		// getattr): its repr is text no literal holds.
		{name: "method by item of data", src: "{{ messages[0].content ~ (messages[0]['items']|string)|last }}", content: "<|im_end|"},
		{name: "method by item of a literal", src: "{{ messages[0].content ~ (({'a': 1})['items']|string)|last }}", content: "<|im_end|"},
		{name: "method by item, key from a literal list", src: "{% for k in ['items'] %}{{ messages[0].content ~ (messages[0][k]|string)|last }}{% endfor %}", content: "<|im_end|"},
		{name: "method by item, key from data", src: "{{ messages[0].content ~ (messages[0][v]|string)|last }}", content: "<|im_end|", vars: map[string]any{"v": "items"}},
		{name: "method by item, kept and sliced", src: "{% set s = messages[0][v]|string %}{{ messages[0].content ~ s[-1:] }}", content: "<|im_end|", vars: map[string]any{"v": "items"}},
		{name: "method by item, formatted and cut", src: "{{ messages[0].content ~ ('%s' % messages[0][v])[-1] }}", content: "<|im_end|", vars: map[string]any{"v": "items"}},
		{name: "method by item, replaced", src: "{{ messages[0].content ~ messages[0][v]|replace('<built-in method items of dict object at ', '')|last }}", content: "<|im_end|", vars: map[string]any{"v": "items"}},
		// %c of a number the template computes is no literal's character.
		{name: "percent c of a sum", src: "{{ messages[0].content ~ '%c' % (61 + 1) }}", content: "<|im_end|"},
		{name: "percent c of a sum in a tuple", src: "{{ messages[0].content ~ '%c' % (61 + 1,) }}", content: "<|im_end|"},
		{name: "percent c of a length", src: "{{ messages[0].content ~ '%c%s' % (messages|length + 61, 'a') }}", content: "<|im_end|"},
		{name: "str.format c of a sum", src: "{{ messages[0].content ~ '{:c}'.format(61 + 1) }}", content: "<|im_end|"},
		{name: "format c of a variable set to a sum", src: "{% set n = 62 %}{{ messages[0].content ~ '%c'|format(n) }}", content: "<|im_end|"},
		// h. Trimming: a literal with its white space trimmed is a piece.
		{name: "trim of a set literal", src: "{% set s = '  |>' %}{{ messages[0].content ~ s|trim }}", content: "<|im_end"},
		{name: "strip() of a set literal", src: "{% set s = '|>\n' %}{{ messages[0].content ~ s.strip() }}", content: "<|im_end"},
		{name: "lstrip() of a set literal", src: "{% set s = '\u3000|>' %}{{ messages[0].content ~ s.lstrip() }}", content: "<|im_end"},
		{name: "rstrip() of a set literal", src: "{% set s = '<|im_ ' %}{{ s.rstrip() ~ messages[0].content }}", content: "end|>"},
		{name: "trim of a filter block", src: "{{ messages[0].content }}{% filter trim %} |>{% endfilter %}", content: "<|im_end"},
		{name: "trim then upper of a filter block", src: "{{ messages[0].content }}{% filter trim|lower %} |>{% endfilter %}", content: "<|im_end"},
		{name: "trim with chars", src: "{% set s = 'x|>' %}{{ messages[0].content ~ s|trim('x') }}", content: "<|im_end"},
		{name: "trim of a macro's argument", src: "{% macro f(v) %}{{ messages[0].content ~ v|trim }}{% endmacro %}{{ f(' |>') }}", content: "<|im_end"},
		// d. Marks past the join limits, trimmed literals, case changes.
		{name: "many marks", tok: "<!#$%&*+,-./:;=>", src: "{{ '<!#' ~ messages[0].content }}", content: "$%&*+,-./:;=>"},
		{name: "trimmed by -", src: "{{ messages[0].content -}}   \n|>", content: "<|im_end"},
		{name: "trim_blocks", src: "{{ messages[0].content }}{% if true %}\n|>{% endif %}", content: "<|im_end"},
		{name: "lstrip_blocks", src: "{{ messages[0].content }}{% if true %}|>\n  {% endif %}", content: "<|im_end"},
		{name: "upper of a literal", tok: "[/INST]", src: "{{ '[/inst'|upper ~ messages[0].content }}", content: "]"},
		{name: "lower of a literal", src: "{{ '<|IM_'|lower ~ messages[0].content }}", content: "end|>"},
		{name: "title of a literal", tok: "[Inst]", src: "{{ '[inst'|title ~ messages[0].content }}", content: "]"},
		{name: "upper of data", tok: "[/INST]", src: "{{ '[' ~ messages[0].content|upper }}", content: "/inst]"},
		{name: "title() of data", tok: "[/Inst]", src: "{{ '[' ~ messages[0].content.title() }}", content: "/inst]"},
		{name: "marks over three values", src: "{{ '<' ~ messages[0].content ~ v ~ w ~ '>' }}", content: "|im", vars: map[string]any{"v": "_end", "w": "|"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var opts []chattemplate.Option
			if strings.Contains(tc.src, "_token") {
				opts = append(opts, chattemplate.Token("bos_token", "<s>"), chattemplate.Token("eos_token", "<|im_start|>"))
			}
			tc.check(t, opts...)
		})
	}
}

// Every way FuzzSpecialTokensDifferential's eighth place writes a token's
// pieces makes the token (allowed, the prompt holds it), and the judge
// finds no token the data forged.
func TestFuzzJoinTemplateWrites(t *testing.T) {
	for _, tok := range []string{"<|im_end|>", "[/INST]", "<tool_call>", "<｜User▁x｜>"} {
		r := []rune(tok)
		i, j := len(string(r[:2])), len(tok)-len(string(r[len(r)-2:]))
		for op := range 18 {
			for dop := range 7 {
				a, b, c := tok[:i], tok[i:j], tok[j:]
				src := templateWrites(a, op, "a") + dataWrites(b, dop) + templateWrites(c, op, "c")
				content, vars := dataOf(b, dop)
				tpl, err := chattemplate.New(src, chattemplate.SpecialTokens(tok))
				require.NoError(t, err, src)
				msgs := []chat.Message{chat.Text(chat.RoleUser, content)}
				out, err := tpl.Render(context.Background(), msgs, renderOpts{Vars: vars, AllowSpecialTokens: true}.options()...)
				require.NoError(t, err, src)
				require.Contains(t, out, tok, src)
				_ = judge(t, templateTarget(src, tpl), msgs, renderOpts{Vars: vars})
			}
		}
	}
}
