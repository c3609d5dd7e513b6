package jinja2

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCallOfAttrNoBuiltinHas calls x.name(…) where no builtin type has a
// method name (compileMethodCall's path that skips the method lookup): a
// callable of the data, a macro held in a dict, what is not callable and
// what is missing. The outputs and errors are Jinja2 3.1.6's (save the
// Go function that fails, which has none).
func TestCallOfAttrNoBuiltinHas(t *testing.T) {
	tool := NewDict(1)
	tool.Set(StrV("to_code_prompt"), FuncV(&Func{Name: "to_code_prompt", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		return StrV("def f(): ..." + string(rune('0'+len(args)))), nil
	}}))
	tool.Set(StrV("fails"), FuncV(&Func{Name: "fails", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		return Value{}, &Error{Kind: "ValueError", Msg: "no"}
	}}))
	vars := map[string]Value{"tool": DictV(tool), "ns": NoneV()}
	for _, tc := range []struct{ name, src, out, kind, msg string }{
		{"data callable", "{{ tool.to_code_prompt() }}|{{ tool.to_code_prompt(1, 2) }}", "def f(): ...0|def f(): ...2", "", ""},
		{"in a loop", "{% for t in [tool, tool] %}{{ t.to_code_prompt() }};{% endfor %}", "def f(): ...0;def f(): ...0;", "", ""},
		{"raises", "{% set t = tool %}\n{{ t.fails() }}", "", "ValueError", "no"},
		{"macro in a dict", "{% macro m(x='a') %}<{{ x }}>{% endmacro %}{% set d = {'f': m} %}{{ d.f() }}{{ d.f('b') }}", "<a><b>", "", ""},
		{"not callable", "{% set d = {'f': 1} %}{{ d.f() }}", "", "TypeError", "'int' object is not callable"},
		{"missing key", "{% set d = {} %}{{ d.nope() }}", "", "UndefinedError", "'dict object' has no attribute 'nope'"},
		{"of None", "{{ ns.to_code_prompt() }}", "", "UndefinedError", "'None' has no attribute 'to_code_prompt'"},
		{"object", "{% set n = namespace(f=cycler) %}{{ n.f(1, 2).next() }}", "1", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmpl, err := New().Parse("t", tc.src)
			require.NoError(t, err)
			out, err := tmpl.Render(context.Background(), vars)
			if tc.kind == "" {
				require.NoError(t, err)
				assert.Equal(t, tc.out, out)
				return
			}
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tc.kind, e.Kind)
			assert.Equal(t, tc.msg, e.Msg)
			assert.Positive(t, e.Line, "the error has its place")
		})
	}
}
