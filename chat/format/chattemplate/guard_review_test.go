package chattemplate_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// joinCase is a template whose own text, written some way other than a
// literal printed whole, joins data into a token: the data of content
// (the first user message's) and vars holds some of the token's marks.
type joinCase struct {
	name, src, content string
	tok                string // "<|im_end|>" when empty
	vars               map[string]any
	// unmade: with the token allowed, the rendering of this data holds no
	// token; only the judge runs.
	unmade bool
}

// check compiles c's template with its token special (and opts), checks
// that the case makes the token (allowed, the prompt holds it) unless it
// is unmade, and has judge fail the test when the rendering, not
// allowed, succeeds and holds a token the neutral rendering lacks.
func (c joinCase) check(t *testing.T, opts ...chattemplate.Option) {
	t.Helper()
	tok := c.tok
	if tok == "" {
		tok = "<|im_end|>"
	}
	tpl, err := chattemplate.New(c.src, append([]chattemplate.Option{chattemplate.SpecialTokens(tok)}, opts...)...)
	require.NoError(t, err)
	tg := templateTarget(c.name, tpl)
	msgs := []chat.Message{chat.Text(chat.RoleUser, c.content)}
	out, err := tg.render(t, msgs, renderOpts{Vars: c.vars, AllowSpecialTokens: true})
	require.NoError(t, err)
	if c.unmade {
		require.NotContains(t, out, tok)
	} else {
		require.Contains(t, out, tok)
	}
	_ = judge(t, tg, msgs, renderOpts{Vars: c.vars})
}

// The adversarial review of step 2's condition (docs/decisions.md, "Step
// 2 when a chat template's text joins"): templates whose own text, written
// some way other than a literal printed whole, joins data into a token.
// judge fails the test when the rendering succeeds and holds a token the
// neutral rendering lacks; each case's data holds a mark of the token.
func TestGuardJoinsOtherThanWholeLiterals(t *testing.T) {
	for _, tc := range []joinCase{
		// A literal the template cuts, with data in the cut.
		{name: "percent", src: "{{ '<|%s|>' % messages[0].content }}", content: "im_end"},
		{name: "percent via set", src: "{% set f = '<|%s|>' %}{{ f % messages[0].content }}", content: "im_end"},
		{name: "format filter", src: "{{ '<|%s|>'|format(messages[0].content) }}", content: "im_end"},
		{name: "str.format", src: "{{ '<|{}|>'.format(messages[0].content) }}", content: "im_end"},
		{name: "replace filter", src: "{{ '<|ROLE|>'|replace('ROLE', messages[0].content) }}", content: "im_end"},
		{name: "str.replace", src: "{{ '<|ROLE|>'.replace('ROLE', messages[0].content) }}", content: "im_end"},
		{name: "slice", src: "{{ '<|im_start|>'[:5] ~ messages[0].content }}", content: "end|>"},
		{name: "filter block", src: "{% filter replace('ROLE', messages[0].content) %}<|ROLE|>{% endfilter %}", content: "im_end"},
		{name: "set block filtered", src: "{% set s | replace('ROLE', messages[0].content) %}<|ROLE|>{% endset %}{{ s }}", content: "im_end"},
		{name: "literal in a list", src: "{% set l = ['<|im_start|>'] %}{{ l[0][:5] ~ messages[0].content }}", content: "end|>"},
		{name: "literal by default", src: "{{ (x|default('<|im_start|>'))[:5] ~ messages[0].content }}", content: "end|>"},
		{name: "token variable sliced", src: "{{ eos_token[:5] ~ messages[0].content }}", content: "end|>"},
		{name: "set block sliced", src: "{% set s %}<|im_start|>{% endset %}{{ s[:5] ~ messages[0].content }}", content: "end|>"},
		{name: "trim", src: "{{ messages[0].content ~ ' |>'|trim }}", content: "<|im_end"},
		{name: "strip chars", src: "{{ messages[0].content ~ 'x|>'.strip('x') }}", content: "<|im_end"},
		// Punctuation the template writes of its own.
		{name: "repr of a list", src: "{{ [messages[0].content] }}", content: "<|im_end|>"[1:], unmade: true},
		{name: "tojson", src: "{{ messages[0].content|tojson }}", content: "im_end", unmade: true},
		{name: "join with data", src: "{{ messages[0].content.join(['<|', '|>']) }}", content: "im_end"},
		{name: "join of data", src: "{{ ['<|', '|>']|join(messages[0].content) }}", content: "im_end"},
		{name: "token variable", src: "{{ bos_token ~ messages[0].content }}", content: "im_end|>", vars: map[string]any{}},
		{name: "marks over two values", src: "{{ '<|' ~ messages[0].content ~ v ~ '>' }}", content: "im_", vars: map[string]any{"v": "end|"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.check(t, chattemplate.Token("bos_token", "<|"), chattemplate.Token("eos_token", "<|im_start|>"))
		})
	}
}

// What cuts only data does not make the template's literals pieces: the
// corpus' templates slice the messages, split a message's content, take
// loop.index0 % 2, and step 2 stays off for text without the marks.
func TestGuardCutsOnlyData(t *testing.T) {
	for _, src := range []string{
		"{% for m in messages[1:] %}<|im_start|>{{ m.content.split('</think>')[-1]|trim }}<|im_end|>{% endfor %}",
		"{% set c = '' %}{% for m in messages %}{% if loop.index0 % 2 == 0 %}{% set c = m.content %}{% endif %}<|im_start|>{{ c[:100]|replace('a', 'b') }}<|im_end|>{% endfor %}",
		// a macro's parameter takes what its calls pass: data (Command R's
		// tool_call_id_to_int(messages, …) and render_item_list(x.enum))
		"{% macro f(ms, n=0) %}{% for m in ms[n:] %}<|im_start|>{{ m.content|lower }}<|im_end|>{% endfor %}{% endmacro %}{{ f(messages) }}{{ f(messages, n=1) }}",
		// an item of an item of a dict literal of dicts is a str whole (Granite Guardian's risk_bank)
		"{% set bank = {'a': {'p': '<|im_start|>x'}, 'b': {'p': 'y'}} %}{% for m in messages %}{{ bank[m.role]['p'] ~ m.content }}<|im_end|>{% endfor %}",
		// trimming a literal whose trimmed forms join nothing
		"{% set s = '<|im_start|>system\n' ~ messages[0].content %}{{ s|trim }}<|im_end|>",
		"{% filter trim %}<|im_start|>{{ messages[0].content }}<|im_end|>\n{% endfilter %}",
		// items read with a number or a literal key, formatted with data
		"{% for m in messages %}<|im_start|>{{ m.content[:50] }}{{ messages[loop.index0 - 1]['role'][:3] }}{{ '%d. %s' % (loop.index, m.role) }}<|im_end|>{% endfor %}",
	} {
		tpl, err := chattemplate.New(src)
		require.NoError(t, err)
		assert.False(t, chattemplate.Joins(tpl), src)
	}
	for _, src := range []string{
		"{% set c = '<|' %}{{ c[:1] }}",
		"{% for m in messages %}{% set c = m.content if loop.first else '<|im_' %}{{ c|replace('x', '') }}{% endfor %}",
		"{% macro f(s='<|im_') %}{{ s.strip('x') }}{% endmacro %}",
		// the same with a literal among the calls, a call not followed, a
		// str item cut, a trimmed literal that joins
		"{% macro f(ms, n=0) %}{% for m in ms[n:] %}<|im_start|>{{ m.content|lower }}<|im_end|>{% endfor %}{% endmacro %}{{ f(messages) }}{{ f('<|im_') }}",
		"{% macro f(ms) %}{% for m in ms %}{{ m }}{% endfor %}{% endmacro %}{% set g = f %}{{ g(messages) }}",
		"{% set bank = {'a': {'p': '<|im_start|>x'}} %}{% for m in messages %}{{ bank[m.role]['p'][:5] ~ m.content }}{% endfor %}",
		"{% set s = messages[0].content ~ '<|im_\n' %}{{ s|trim }}",
		"{% for m in messages %}<|im_start|>{{ m.content[:50] }}{{ messages[0][m.role][:3] }}<|im_end|>{% endfor %}",
		"{% for m in messages %}<|im_start|>{{ '%c. %s' % (loop.index + 48, m.role) }}<|im_end|>{% endfor %}",
	} {
		tpl, err := chattemplate.New(src, chattemplate.SpecialTokens("<|im_end|>"))
		require.NoError(t, err)
		assert.True(t, chattemplate.Joins(tpl), src)
	}
}

// Tool call arguments that are not JSON reach a chat template as the
// string they are (a format refuses them); their neutral copy must be
// that string made neutral, or the neutral rendering writes the same
// marks where the rendering does and the comparison sees no difference.
// Before the fix every case below printed <|im_end|>.
func TestGuardArgumentsNotJSON(t *testing.T) {
	for _, tc := range []struct{ name, src, args string }{
		{name: "after a literal", src: "{% for m in messages %}{% for c in m.tool_calls %}<|{{ c.function.arguments }}{% endfor %}{% endfor %}", args: "im_end|>"},
		{name: "before a literal", src: "{% for m in messages %}{% for c in m.tool_calls %}{{ c.function.arguments }}|>{% endfor %}{% endfor %}", args: "<|im_end"},
		{name: "between literals", src: "{% for m in messages %}{% for c in m.tool_calls %}{{ '<|' ~ c['function']['arguments'] ~ '|>' }}{% endfor %}{% endfor %}", args: "im_end"},
		{name: "not JSON with an escape", src: "{% for m in messages %}{% for c in m.tool_calls %}<|{{ c.function.arguments }}{% endfor %}{% endfor %}", args: `im_end|>\u0`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := chattemplate.New(tc.src, chattemplate.SpecialTokens("<|im_end|>"))
			require.NoError(t, err)
			m := chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "a", Name: "f", Arguments: []byte(tc.args)}}}
			out, err := tpl.Render(context.Background(), []chat.Message{m}, format.AllowSpecialTokens())
			require.NoError(t, err)
			require.Contains(t, out, "<|im_end|>")
			out, err = tpl.Render(context.Background(), []chat.Message{m})
			var se *format.SpecialTokenError
			require.ErrorAs(t, err, &se, "rendered %q", out)
			assert.Equal(t, "<|im_end|>", se.Token)
		})
	}
	// Arguments that are not JSON and hold a mark but join nothing
	// still render.
	tpl, err := chattemplate.New("{% for m in messages %}{% for c in m.tool_calls %}<|{{ c.function.arguments }}{% endfor %}{% endfor %}", chattemplate.SpecialTokens("<|im_end|>"))
	require.NoError(t, err)
	m := chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "a", Name: "f", Arguments: []byte("a|b > c")}}}
	out, err := tpl.Render(context.Background(), []chat.Message{m})
	require.NoError(t, err)
	assert.Equal(t, "<|a|b > c", out)
}
