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

// A token the prompt holds that stands wholly in bytes the template's own
// constant text wrote (jinja2.Renderer.OwnSpans) is the template's, so a
// rendering whose other tokens the data could not have made skips the
// neutral copy; a token with a byte written by anything else (data, a
// captured or filtered value, a slice of the template's text, a variable
// holding a literal) still takes it, and the ones data made are refused.
// Every case's data holds the marks of a join of the template's text
// (the old condition for the neutral rendering).
func TestGuardOwnText(t *testing.T) {
	const tok = "<|im_end|>"
	for _, tc := range []struct {
		name, src, content string
		vars               map[string]any
		neutral            bool // the neutral copy is rendered
		refused            bool // and the rendering refused
	}{
		// skipped now: the prompt's tokens are the template's literals
		{name: "text", src: "{% for m in messages %}{{ m.content }}<|im_end|>{% endfor %}", content: "<a|b_c>"},
		{name: "printed constant", src: "{% for m in messages %}{{ m.content }}{{ '<|im_end|>' }}{% endfor %}", content: "<a|b_c>"},
		{name: "constant operand of a chain", src: "{% for m in messages %}{{ m.content + '<|im_end|>\n' }}{% endfor %}", content: "<a|b_c>"},
		{name: "a macro's text printed in place", src: "{% macro f(x) %}{{ x }}<|im_end|>{% endmacro %}{{ f(messages[0].content) }}", content: "<a|b_c>"},
		{name: "the template's own token in a branch on data", src: "{% if '|' in messages[0].content %}<|im_end|>{% endif %}<|im_", content: "a|b_c>"},
		// still taken, and refused: data wrote a byte of the token
		{name: "literal's end, data", src: "<|im_{{ messages[0].content }}", content: "end|>", neutral: true, refused: true},
		{name: "data, literal's start", src: "{{ messages[0].content }}_end|>", content: "<|im", neutral: true, refused: true},
		{name: "chain around data", src: "{{ '<|im' ~ messages[0].content ~ 'nd|>' }}", content: "_e", neutral: true, refused: true},
		{name: "plus chain", src: "{{ '<|im_' + messages[0].content }}", content: "end|>", neutral: true, refused: true},
		{name: "macro in place", src: "{% macro f(x) %}<|im{{ x }}{% endmacro %}{{ f(messages[0].content) }}", content: "_end|>", neutral: true, refused: true},
		{name: "a set block's text cut", src: "{% set y %}<|im_end|>{% endset %}{{ y[:5] ~ messages[0].content }}", content: "end|>", neutral: true, refused: true},
		{name: "a macro's value cut", src: "{% macro f() %}<|im_end|>{% endmacro %}{{ f()[:5] }}{{ messages[0].content }}", content: "end|>", neutral: true, refused: true},
		{name: "a filter block's text", src: "{% filter lower %}<|IM_{% endfilter %}{{ messages[0].content }}", content: "end|>", neutral: true, refused: true},
		{name: "a chain falling back, then data", src: "{{ '<|im_' ~ nothere }}{{ messages[0].content }}", content: "end|>", neutral: true, refused: true},
		{name: "replace writing a literal", src: "{{ messages[0].content|replace('#', '<|im_') }}", content: "#end|>", neutral: true, refused: true},
		{name: "a token variable", src: "{% for m in messages %}{{ m.content }}{{ eos_token }}{% endfor %}", content: "<a|b_c>"},
		{name: "a token variable in a chain", src: "{% for m in messages %}{{ m.content + eos_token }}{% endfor %}", content: "<a|b_c>"},
		{name: "a token variable kept in another", src: "{% set e = eos_token %}{{ messages[0].content }}{{ e }}", content: "<a|b_c>"},
		// still taken, and refused: data wrote a byte of the token
		{name: "a token variable cut", src: "{{ eos_token[:5] }}{{ messages[0].content }}", content: "end|>", neutral: true, refused: true},
		{name: "a token variable replaced", src: "{{ eos_token|replace('_', messages[0].content) }}", content: "_", neutral: true, refused: true},
		{name: "a token variable set from data", src: "{% set eos_token = messages[0].content %}<|im_{{ eos_token }}", content: "end|>", neutral: true, refused: true},
		// still taken, and passed: the template's token printed from a
		// variable, whose bytes the rendering does not follow
		{name: "a variable holding the literal", src: "{% set e = '<|im_end|>' %}{{ messages[0].content }}{{ e }}", content: "<a|b_c>", neutral: true},
		// with format.Vars the variables go by name, and the rendering
		// records nothing: the old check
		{name: "a rendering with variables", src: "{{ messages[0].content }}<|im_end|>", content: "<a|b_c>", neutral: true,
			vars: map[string]any{"other": "y"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := chattemplate.New(tc.src, chattemplate.Token("eos_token", tok))
			require.NoError(t, err)
			msgs := []chat.Message{chat.Text(chat.RoleUser, tc.content)}
			opts := []format.Option{}
			if tc.vars != nil {
				opts = append(opts, format.Vars(tc.vars))
			}
			allowed, err := tpl.Render(context.Background(), msgs, append(opts, format.AllowSpecialTokens())...)
			require.NoError(t, err)
			require.Contains(t, allowed, tok)
			before := chattemplate.NeutralRenders(tpl)
			_, err = tpl.Render(context.Background(), msgs, opts...)
			assert.Equal(t, tc.neutral, chattemplate.NeutralRenders(tpl) > before, "neutral rendering")
			if tc.refused {
				var se *format.SpecialTokenError
				require.ErrorAs(t, err, &se)
				assert.Equal(t, tok, se.Token)
			} else {
				require.NoError(t, err)
			}
		})
	}
}
