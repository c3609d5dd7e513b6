package chattemplate_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// TestHostileTemplatesEndWithAnError: a chat template is data from the
// internet. Where Python's Jinja2 raises RecursionError or MemoryError, or
// runs for minutes, a rendering ends with an error naming the limit (or,
// for the parser, the nesting), never a fatal error of the process, and
// before the render's deadline. The deadline is generous: five million
// empty iterations take about 2 s on a loaded machine and several times
// that under -race, while without the limit the loop would run for hours.
func TestHostileTemplatesEndWithAnError(t *testing.T) {
	user := []chat.Message{chat.Text(chat.RoleUser, "hi")}
	tests := []struct{ name, src, want string }{
		{"recursive macro", "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", "LimitError"},
		{"nested parentheses", "{{ " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + " }}", "RecursionError"},
		{"nested ifs", strings.Repeat("{% if true %}", 20000) + strings.Repeat("{% endif %}", 20000), "RecursionError"},
		{"indent(10**10)", "{{ 'a\nb' | indent(10**10) }}", "Error"},
		{"tojson(indent=10**9)", "{{ {'a': [1, 2]} | tojson(indent=10**9) }}", "Error"},
		{"a string doubled in a loop", "{% set ns = namespace(s='ab') %}{% for i in range(100) %}{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s | length }}", "LimitError"},
		{"two nested range(100000)", "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", "LimitError"},
		{"a replace doubling loop", "{% set ns = namespace(s='ab') %}{% for i in range(100) %}{% set ns.s = ns.s.replace('a', 'aa') %}{% endfor %}{{ ns.s | length }}", "LimitError"},
		{"a string times a huge int", "{{ 'a' * 10**10 }}", "Error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			tpl, err := chattemplate.New(tc.src, chattemplate.Name("hostile.jinja"))
			if err == nil {
				_, err = tpl.Render(ctx, user)
			}
			require.Error(t, err)
			assert.False(t, errors.Is(err, context.DeadlineExceeded), "the deadline, not a limit, ended it: %v", err)
			var te *chattemplate.TemplateError
			require.ErrorAs(t, err, &te)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
