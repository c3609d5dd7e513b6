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

// namedMap is a caller's own map type: FromGo reads it through reflect.
type namedMap map[string]any

// TestVarHoldingItself: a variable of format.Vars that holds itself (a
// map, a list, a named map type, a pointer) made the conversion recurse
// until the Go runtime killed the process; it is a *DepthError naming the
// variable, inside the *TemplateError, and data that nests as deep as
// Jinja2's recursion limit allows still renders.
func TestVarHoldingItself(t *testing.T) {
	cyc := map[string]any{"a": 1}
	cyc["self"] = cyc
	lst := make([]any, 2)
	lst[0], lst[1] = "x", lst
	nm := namedMap{}
	nm["self"] = nm
	ptr := new(any)
	*ptr = ptr
	deep := any("leaf")
	for range chattemplate.MaxDepth + 1 {
		deep = []any{deep}
	}
	tpl, err := chattemplate.New(`{{ messages[0].content }}{{ x is defined }}`, chattemplate.Name("t.jinja"))
	require.NoError(t, err)
	msgs := []chat.Message{chat.Text(chat.RoleUser, "hi")}
	for name, v := range map[string]any{"map": cyc, "list": lst, "named": nm, "pointer": ptr, "deep": deep} {
		t.Run(name, func(t *testing.T) {
			_, err := tpl.Render(context.Background(), msgs, format.Vars(map[string]any{"x": v, "y": 1}))
			var de *chattemplate.DepthError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, "x", de.Name)
			var te *chattemplate.TemplateError
			require.ErrorAs(t, err, &te)
			assert.EqualError(t, err, `t.jinja: variable "x" nests more than 1000 maps and lists deep (a map or list that holds itself?)`)
		})
	}
	ok := any("leaf")
	for range chattemplate.MaxDepth - 1 {
		ok = map[string]any{"k": ok}
	}
	out, err := tpl.Render(context.Background(), msgs, format.Vars(map[string]any{"x": ok}))
	require.NoError(t, err)
	assert.Equal(t, "hiTrue", out)
}
