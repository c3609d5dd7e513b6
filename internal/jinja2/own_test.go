package jinja2

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// OwnSpans holds the bytes the template's own constant text wrote and
// nothing else: what a capture (a macro's value, a set block, a filter
// block, a call block), a chain that falls back to its general path or a
// variable wrote is outside, even where a recorded span stood before the
// output was cut back. The special-token guard of chat templates skips a
// token that lies wholly within them (chat/format/chattemplate), so a byte
// the variables wrote inside one would let data forge a token.
func TestOwnSpans(t *testing.T) {
	e := New()
	l := NewLayout("x", "ms", "n", "b", "ds")
	msg := func(role string, content Value) Value {
		d := NewDict(2)
		d.SetStr("role", StrV(role))
		d.SetStr("content", content)
		return DictV(d)
	}
	vals := []Value{StrV("X"), ListV([]Value{StrV("a"), StrV("b")}), IntV(7), OwnStrV("<s>"),
		ListV([]Value{msg("u", StrV("c")), msg("a", IntV(7))})}
	for _, tc := range []struct {
		src, out string
		own      []Span
	}{
		{"<a>{{ x }}</a>", "<a>X</a>", []Span{{0, 3}, {4, 8}}},
		{"{{ '<a>' }}{{ x }}{{ 1 }}", "<a>X1", []Span{{0, 3}, {4, 5}}},
		{"{% if x %}{{- '\n<t>' -}}{% endif %}", "\n<t>", []Span{{0, 4}}},
		// the constant operands of a printed chain, not its variables
		{"{{ '<a>' ~ x ~ '<b>' }}", "<a>X<b>", []Span{{0, 3}, {4, 7}}},
		{"{% for m in ms %}{{- '<s>' + m + '\n' }}{% endfor %}", "<s>a\n<s>b\n", []Span{{0, 3}, {4, 8}, {9, 10}}},
		// a chain that falls back to its general path (a list operand):
		// what it wrote is cut back and written again as one str
		{"{{ '<a>' ~ [1] ~ x }}", "<a>[1]X", nil},
		{"<p>{{ '<a>' ~ [1] ~ '<b>' }}", "<p><a>[1]<b>", []Span{{0, 3}}},
		{"<p>{{ '<a>' ~ nothere ~ x }}", "<p><a>X", []Span{{0, 3}}},
		// a macro printed writes in place; its value kept or filtered is
		// a str of its own
		{"{% macro f(a) %}<m>{{ a }}</m>{% endmacro %}{{ f(x) }}|{% set y = f(x) %}{{ y }}", "<m>X</m>|<m>X</m>", []Span{{0, 3}, {4, 9}}},
		{"{% macro f(a) %}<m>{{ a }}</m>{% endmacro %}{{ f(x)|upper }}", "<M>X</M>", nil},
		// a set block, then a slice of it next to data: none of its text
		// was written where it stands now
		{"{% set y %}<|im_end|>{% endset %}{{ y[:4] ~ x }}", "<|imX", nil},
		{"{% set y %}<|im_end|>{% endset %}<{{ y }}", "<<|im_end|>", []Span{{0, 1}}},
		{"{% filter upper %}<s>{{ x }}{% endfilter %}!", "<S>X!", []Span{{4, 5}}},
		{"{% macro c() %}[{{ caller() }}]{% endmacro %}{% call c() %}<q>{{ x }}{% endcall %}", "[<q>X]", []Span{{0, 4}, {5, 6}}},
		{"{{ x }}{{ n }}{{ '%s|' % x }}<e>", "X7X|<e>", []Span{{4, 7}}},
		// a str of the template's own (OwnStrV: a chat template's token
		// variable) printed whole; what is made of it is not
		{"{{ b }}", "<s>", []Span{{0, 3}}},
		{"{{ x }}{{ b }}{{ x }}", "X<s>X", []Span{{1, 4}}},
		{"{{ b + '[' + x }}", "<s>[X", []Span{{0, 4}}},
		{"{% for m in ms %}{{ b }}{% endfor %}", "<s><s>", []Span{{0, 6}}},
		{"{{ b[:2] }}{{ b|upper }}{{ b ~ x }}{{ (b ~ x)[:3] }}{{ b|replace('s', x) }}", "<s<S><s>X<s><X>", []Span{{5, 8}}},
		{"{% set b = x %}{{ b }}", "X", nil},
		// a chain of constants and fields of a loop's dict, written in
		// place (streamRuns), and the same chain given an int: cut back
		// and written again by the general path
		{"{% for m in ds %}{{ '<' ~ m.role ~ '>' ~ m['content'] ~ '</>' }}{% endfor %}", "<u>c</><a>7</>",
			[]Span{{0, 1}, {2, 3}, {4, 8}, {9, 10}, {11, 14}}},
		{"{% for m in ds %}{% if m.role == 'u' %}{{ '<|' + m['role'] + '|>' + m.content + '<e>' }}{% endif %}{% endfor %}", "<|u|>c<e>",
			[]Span{{0, 2}, {3, 5}, {6, 9}}},
		{"{% for m in ms %}{{ '[' + m|trim + ']' }}{% endfor %}", "[a][b]", []Span{{0, 1}, {2, 4}, {5, 6}}},
		{"{% for m in ds %}{{ b + m.role + '|' }}{% endfor %}", "<s>u|<s>a|", []Span{{0, 3}, {4, 8}, {9, 10}}},
		{"{% for m in ds %}{{ m.role + b + m.role }}{% endfor %}", "u<s>ua<s>a", []Span{{1, 4}, {6, 9}}},
		{"{% macro f() %}{{ b }}{% endmacro %}{{ f()|lower }}{% set y = f() %}{{ y }}", "<s><s>", nil},
	} {
		tp, err := e.Parse("t", tc.src)
		require.NoError(t, err, tc.src)
		r := e.NewRenderer()
		r.TrackOwn(true)
		out, err := tp.RenderVarsWith(context.Background(), r, l, vals)
		require.NoError(t, err, tc.src)
		assert.Equal(t, tc.out, out, tc.src)
		got := r.OwnSpans()
		if len(got) == 0 {
			got = nil
		}
		assert.Equal(t, tc.own, got, tc.src)
		r.TrackOwn(false)
		assert.Nil(t, r.OwnSpans())
		_, err = tp.RenderVarsWith(context.Background(), r, l, vals)
		require.NoError(t, err)
		assert.Nil(t, r.OwnSpans(), "not tracked: %s", tc.src)
	}
}
