package preview

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// TestServeSurvivesHostileChatTemplates: rolemark serve --format hf:FILE
// renders every page's prompt string with a model's chat template, data
// from the internet. Each template of issue 24's reproducers either fails
// to compile (serve then refuses to start) or fails its rendering with the
// limit's error on the page; the server then goes on serving.
func TestServeSurvivesHostileChatTemplates(t *testing.T) {
	hostile := []struct{ name, src string }{
		{"recursive macro", "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}"},
		{"nested parentheses", "{{ " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + " }}"},
		{"nested ifs", strings.Repeat("{% if true %}", 20000) + strings.Repeat("{% endif %}", 20000)},
		{"indent(10**10)", "{{ 'a\nb' | indent(10**10) }}"},
		{"tojson(indent=10**9)", "{{ {'a': [1, 2]} | tojson(indent=10**9) }}"},
		{"a string doubled in a loop", "{% set ns = namespace(s='ab') %}{% for i in range(100) %}{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s | length }}"},
		{"two nested range(100000)", "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"},
		{"a replace doubling loop", "{% set ns = namespace(s='ab') %}{% for i in range(100) %}{% set ns.s = ns.s.replace('a', 'aa') %}{% endfor %}{{ ns.s | length }}"},
		{"a string times a huge int", "{{ 'a' * 10**10 }}"},
	}
	dir := writeDir(t, files)
	for _, tc := range hostile {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := chattemplate.New(tc.src, chattemplate.Name("hostile.jinja"))
			if err != nil {
				var te *chattemplate.TemplateError
				require.ErrorAs(t, err, &te, "refused at start, as serve refuses to start")
				return
			}
			// A limit, not serve's deadline, must end the rendering: the
			// deadline is long here because five million empty iterations
			// take over 10 s under -race on a loaded machine.
			s := newServer(t, dir, ChatTemplate("hf:hostile.jinja", tpl), DefaultFormat("hf:hostile.jinja"), RenderTimeout(2*time.Minute))
			code, body := get(t, s, "/t/greet.hbs")
			require.Equal(t, 200, code)
			assert.Regexp(t, `hostile\.jinja:\d+:\d+: \w*Error`, body, "the page shows the rendering's error, at its place")
			code, body = get(t, s, "/t/greet.hbs?format=chatml")
			require.Equal(t, 200, code, "the server goes on serving")
			assert.Contains(t, body, "Hi Ada x2")
		})
	}
}

// TestRenderTimeout: a rendering that outlasts RenderTimeout ends with the
// context's error on the page, and the next request is served. The limit
// must leave an ordinary rendering room under -race on a loaded machine
// (20 ms did not), and the slow template must outlast it within the
// iteration limit: a million iterations of 0.1–3 ms each.
func TestRenderTimeout(t *testing.T) {
	tpl, err := chattemplate.New("{% for i in range(1000) %}{% for j in range(1000) %}{% set s = ('x' * 100000)|replace('x', 'yy') %}{% endfor %}{% endfor %}")
	require.NoError(t, err)
	s := newServer(t, writeDir(t, files), ChatTemplate("hf:slow.jinja", tpl), DefaultFormat("hf:slow.jinja"), RenderTimeout(3*time.Second))
	code, body := get(t, s, "/t/greet.hbs")
	require.Equal(t, 200, code)
	assert.Contains(t, body, "context deadline exceeded")
	code, body = get(t, s, "/t/greet.hbs?format=chatml")
	require.Equal(t, 200, code)
	assert.Contains(t, body, "Hi Ada x2")
}
