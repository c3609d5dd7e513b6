package chattemplate_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// The adversarial review of step 2's condition (docs/decisions.md, "Step
// 2 when a chat template's text joins"): templates whose own text, written
// some way other than a literal printed whole, joins data into a token.
// judge fails the test when the rendering succeeds and holds a token the
// neutral rendering lacks; each case's data holds a mark of the token.
func TestGuardJoinsOtherThanWholeLiterals(t *testing.T) {
	const tok = "<|im_end|>"
	for _, tc := range []struct {
		name, src, content string
		vars               map[string]any
	}{
		// A literal the template cuts, with data in the cut.
		{"percent", "{{ '<|%s|>' % messages[0].content }}", "im_end", nil},
		{"percent via set", "{% set f = '<|%s|>' %}{{ f % messages[0].content }}", "im_end", nil},
		{"format filter", "{{ '<|%s|>'|format(messages[0].content) }}", "im_end", nil},
		{"str.format", "{{ '<|{}|>'.format(messages[0].content) }}", "im_end", nil},
		{"replace filter", "{{ '<|ROLE|>'|replace('ROLE', messages[0].content) }}", "im_end", nil},
		{"str.replace", "{{ '<|ROLE|>'.replace('ROLE', messages[0].content) }}", "im_end", nil},
		{"slice", "{{ '<|im_start|>'[:5] ~ messages[0].content }}", "end|>", nil},
		{"filter block", "{% filter replace('ROLE', messages[0].content) %}<|ROLE|>{% endfilter %}", "im_end", nil},
		{"set block filtered", "{% set s | replace('ROLE', messages[0].content) %}<|ROLE|>{% endset %}{{ s }}", "im_end", nil},
		{"literal in a list", "{% set l = ['<|im_start|>'] %}{{ l[0][:5] ~ messages[0].content }}", "end|>", nil},
		{"literal by default", "{{ (x|default('<|im_start|>'))[:5] ~ messages[0].content }}", "end|>", nil},
		{"token variable sliced", "{{ eos_token[:5] ~ messages[0].content }}", "end|>", nil},
		{"set block sliced", "{% set s %}<|im_start|>{% endset %}{{ s[:5] ~ messages[0].content }}", "end|>", nil},
		{"trim", "{{ messages[0].content ~ ' |>'|trim }}", "<|im_end", nil},
		{"strip chars", "{{ messages[0].content ~ 'x|>'.strip('x') }}", "<|im_end", nil},
		// Punctuation the template writes of its own.
		{"repr of a list", "{{ [messages[0].content] }}", "<|im_end|>"[1:], nil},
		{"tojson", "{{ messages[0].content|tojson }}", "im_end", nil},
		{"join with data", "{{ messages[0].content.join(['<|', '|>']) }}", "im_end", nil},
		{"join of data", "{{ ['<|', '|>']|join(messages[0].content) }}", "im_end", nil},
		{"token variable", "{{ bos_token ~ messages[0].content }}", "im_end|>", map[string]any{}},
		{"marks over two values", "{{ '<|' ~ messages[0].content ~ v ~ '>' }}", "im_", map[string]any{"v": "end|"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := chattemplate.New(tc.src, chattemplate.SpecialTokens(tok), chattemplate.Token("bos_token", "<|"),
				chattemplate.Token("eos_token", "<|im_start|>"))
			require.NoError(t, err)
			tg := target{name: tc.name, tokens: tpl.SpecialTokens(),
				render: func(m []chat.Message, o renderOpts) (string, error) {
					return tpl.Render(context.Background(), m, o.options()...)
				}}
			_ = judge(t, tg, []chat.Message{chat.Text(chat.RoleUser, tc.content)}, renderOpts{Vars: tc.vars})
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
	} {
		tpl, err := chattemplate.New(src)
		require.NoError(t, err)
		assert.False(t, chattemplate.Joins(tpl), src)
	}
	for _, src := range []string{
		"{% set c = '<|' %}{{ c[:1] }}",
		"{% for m in messages %}{% set c = m.content if loop.first else '<|im_' %}{{ c|replace('x', '') }}{% endfor %}",
		"{% macro f(s='<|im_') %}{{ s.strip('x') }}{% endmacro %}",
	} {
		tpl, err := chattemplate.New(src, chattemplate.SpecialTokens("<|im_end|>"))
		require.NoError(t, err)
		assert.True(t, chattemplate.Joins(tpl), src)
	}
}
