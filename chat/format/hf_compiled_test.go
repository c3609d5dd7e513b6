package format_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
)

// TestCompiledCorpus is the compiled path's differential test over the
// whole corpus: wherever it accepts a (template, conversation) pair, its
// output is Jinja2's, byte for byte; where Jinja2 raises, it refuses (and
// Render takes the engine's error). It reports how many templates compile.
func TestCompiledCorpus(t *testing.T) {
	sources, convs, results := readCorpus(t)
	byFile := map[string]corpusSource{}
	tpls := map[string]*format.Template{}
	compiled := 0
	var notCompiled []string
	for _, s := range sources {
		byFile[s.File] = s
		tpl, err := s.compile()
		if err != nil {
			continue
		}
		tpls[s.File] = tpl
		if format.Compiled(tpl) {
			compiled++
		} else {
			notCompiled = append(notCompiled, s.File+" "+s.Model)
		}
	}
	var identical, refused, raisedRefused int
	var wrong []string
	for _, r := range results {
		tpl := tpls[r.Template]
		if tpl == nil || !format.Compiled(tpl) {
			continue
		}
		conv := convs[r.Conversation]
		got, ok, err := format.RenderCompiled(context.Background(), tpl, conv.messages(t), format.Options{
			AddGenerationPrompt: conv.AddGenerationPrompt, Tools: conv.tools(), AllowSpecialTokens: true})
		key := r.Template + " " + byFile[r.Template].Model + " / " + r.Conversation
		switch {
		case (!ok || err != nil) && r.Output == nil:
			raisedRefused++
		case err != nil:
			wrong = append(wrong, fmt.Sprintf("%s: the compiled path raises %v, Jinja2 renders %q", key, err, *r.Output))
		case !ok:
			refused++
			t.Logf("refused: %s", key)
		case r.Output == nil:
			wrong = append(wrong, fmt.Sprintf("%s: Jinja2 raises %s (%s), the compiled path renders %q", key, r.ErrorKind, r.Error, got))
		case got == *r.Output:
			identical++
		default:
			wrong = append(wrong, fmt.Sprintf("%s:\n  want %q\n  got  %q", key, *r.Output, got))
		}
	}
	t.Logf("%d of %d templates compile; on their pairs: %d identical to Jinja2, %d where both refuse (Jinja2 raises), %d refused (the engine renders them)",
		compiled, len(sources), identical, raisedRefused, refused)
	for _, n := range notCompiled {
		t.Logf("not compiled: %s", n)
	}
	assert.Empty(t, wrong, "the compiled path differs from Jinja2:\n%s", strings.Join(wrong, "\n"))
	require.Positive(t, compiled)
}

// TestCompiledShapes renders the expression shapes the compiled path
// fuses (+ and ~ chains, x ± n, comparisons with a constant, is defined,
// items and attributes read in place) through Render and through the
// compiled path alone: both give Jinja2's string (3.1, transformers'
// environment); where Jinja2's string depends on Python's version, the
// compiled path gives no string (Render then renders with the engine);
// where Python raises a TypeError on values whose types the compiled path
// knows, both fail with Python's message (the engine would render them).
func TestCompiledShapes(t *testing.T) {
	msgs := []chat.Message{chat.Text(chat.RoleUser, "hi"), chat.Text(chat.RoleAssistant, "yo")}
	tests := []struct{ name, src, want, raises string }{
		{"a chain of strings", "{{ 'a' + 'b' + messages[0].content + 'c' + 'd' }}", "abhicd", ""},
		{"ints plus and minus a constant", "{% set n = 2 %}{{ n + 1 }}{{ n - 1 }}{{ n - -1 }}{{ n + 1 + 1 }}", "3134", ""},
		{"a ~ chain of values", "{{ 'x' ~ 1 ~ none ~ messages[5] ~ 'y' ~ 'z' }}", "x1Noneyz", ""},
		{"a chain of lists", "{% set l = [1, 2] %}{{ l + [3] }}{{ ([0] + l)|length }}", "[1, 2, 3]3", ""},
		{"neighbours by loop.index0", "{% for m in messages %}{{ messages[loop.index0 + 1].role if not loop.last else 'end' }}:{{ loop.index0 == 0 }}:{{ messages[loop.index0 - 1]['content'] }};{% endfor %}", "assistant:True:yo;end:False:hi;", ""},
		{"loop.index and loop.index0", "{% for m in messages %}{{ loop.index == 1 }}{{ loop.index0 == 1 }}{{ messages[loop.index - 1].role }}{{ messages[loop.index0 + 1] is defined }};{% endfor %}", "TrueFalseuserTrue;FalseTrueassistantFalse;", ""},
		{"nested loops' loop", "{% for m in messages %}{% for x in [1, 2] %}{{ loop.index }}{% endfor %}{{ loop.index }}{% endfor %}", "121122", ""},
		{"no loop in else", "{% for x in [] %}{% else %}{{ loop is defined }}{% endfor %}", "False", ""},
		{"no target in else", "{% for m in messages if m.role == 'z' %}{% else %}{{ loop is defined }}{{ m is defined }}{% endfor %}", "FalseFalse", ""},
		{"tests of attributes", "{% for m in messages %}{% if m.tool_calls %}T{% elif m.missing is defined %}D{% elif m.role is undefined %}U{% else %}{{ m.role != 'user' }}{% endif %}{% endfor %}", "FalseTrue", ""},
		{"items and attributes", "{{ messages[0]['role'] ~ messages[1].name ~ messages[-1].content }}", "useryo", ""},
		{"a None item", "{% set d = {'role': none} %}{{ d.role == 'x' }}{{ d.role is defined }}{{ d['role'] }}{{ d.nothing == 'x' }}", "FalseTrueNoneFalse", ""},
		{"repr of text", "{{ ['é中😀'] }}", "['é中😀']", ""},
		// Python 3.11 escapes it, 3.12 prints it: left to the engine.
		{"repr of a character Unicode 15.0 added", "{{ ['\U00031c40'] }}", "", ""},
		{"str + int raises", "{{ messages[0].content + 1 }}", "", `TypeError: can only concatenate str (not "int") to str`},
		{"int + str raises", "{{ 1 + messages[0].content }}", "", `TypeError: unsupported operand type(s) for +: 'int' and 'str'`},
		{"str + none raises", "{{ messages[0].content + none }}", "", `TypeError: can only concatenate str (not "NoneType") to str`},
		{"str + float raises", `{{ "a" + 1.5 }}`, "", `TypeError: can only concatenate str (not "float") to str`},
		{"bool + str raises", `{{ true + "a" }}`, "", `TypeError: unsupported operand type(s) for +: 'bool' and 'str'`},
	}
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := format.NewTemplate(tc.src)
			require.NoError(t, err)
			fast, ok, err := format.RenderCompiled(ctx, tpl, msgs, format.Options{})
			if tc.raises != "" {
				require.True(t, ok, "compiled path")
				assert.EqualError(t, err, "chat template: "+tc.raises, "compiled path")
				_, err = tpl.Render(ctx, msgs, format.Options{})
				var te *format.TemplateError
				require.ErrorAs(t, err, &te, "Render")
				assert.Equal(t, tc.raises, te.Msg, "Render")
				return
			}
			require.NoError(t, err, "compiled path")
			if tc.want == "" {
				assert.False(t, ok, "compiled path")
				return
			}
			got, err := tpl.Render(ctx, msgs, format.Options{})
			require.NoError(t, err)
			assert.Equal(t, tc.want, got, "Render")
			require.True(t, ok, "compiled path")
			assert.Equal(t, tc.want, fast, "compiled path")
		})
	}
}
