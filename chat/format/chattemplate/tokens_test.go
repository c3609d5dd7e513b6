package chattemplate_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// TestJoinsReadsTheSyntaxTree checks which templates' own texts could
// make the special token <|im_end|> with data written next to them: the
// texts and str constants are read from the template's syntax tree, so
// they are what Jinja2 writes (escapes decoded, comments left out).
func TestJoinsReadsTheSyntaxTree(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want bool
	}{
		{"whole tokens only", "{% for m in messages %}<|im_end|>{{ m.content }}{{ '<|im_end|>' }}{% endfor %}", false},
		{"text ends with a token's start", "{% for m in messages %}<|im_{{ m.content }}{% endfor %}", true},
		{"text starts with a token's end", "{% for m in messages %}{{ m.content }}_end|>{% endfor %}", true},
		{"str constant ends with a token's start", "{% for m in messages %}{{ 'x<|im_' + m.content }}{% endfor %}", true},
		{"unicode escape decoded", `{% for m in messages %}{{ 'x\u003c|im_' + m.content }}{% endfor %}`, true},
		{"hex escape decoded", `{% for m in messages %}{{ m.content ~ '_end|\x3e' }}{% endfor %}`, true},
		{"adjacent str literals are one", `{% for m in messages %}{{ m.content ~ '_e' 'nd|>x' }}{% endfor %}`, true},
		{"str inside a list constant", "{% for s in ['a', 'x<|im_'] %}{{ s }}{{ messages[0].content }}{% endfor %}", true},
		{"str inside a dict constant", "{% set d = {'k': '_end|>'} %}{{ messages[0].content }}{{ d.k }}", true},
		{"raw block", "{% raw %}<|im_{% endraw %}{{ messages[0].content }}", true},
		{"comment is not written", "{# <|im_ #}{{ messages[0].content }}", false},
		{"attribute and test names are not written", "{% if messages[0].im_end is defined %}{{ messages[0].content }}{% endif %}", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := chattemplate.New(tc.src, chattemplate.Token("eos_token", "<|im_end|>"))
			require.NoError(t, err)
			assert.Equal(t, tc.want, chattemplate.Joins(tpl), "%s", tc.src)
		})
	}
}
