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

type withGoFunc struct {
	Name string
	Get  func() string
}

// TestGoFunctionInVars: a Go function in the template variables, at any
// depth, is a callable that refuses to be called, at the call, naming it
// by its key or field (a list's item by the list's key); printed, it is
// <function NAME>; a template that does not call it renders. It was None:
// printed "None", and a call said "'NoneType' object is not callable".
// Python's Jinja2 would call a Python callable; a Go function's
// parameters and results have no Python types to follow.
func TestGoFunctionInVars(t *testing.T) {
	user := []chat.Message{chat.Text(chat.RoleUser, "hi")}
	vars := map[string]any{
		"f":   func() string { return "called" },
		"obj": map[string]any{"g": func(int) int { return 1 }},
		"fs":  []any{func() string { return "y" }},
		"s":   withGoFunc{Name: "ada", Get: func() string { return "got" }},
	}
	tests := []struct{ src, want, err string }{
		{"{{ f() }}", "", "chat template:1:5: Unsupported: calling f, a Go function of the template variables, is not supported: pass its result as data"},
		{"x\n{{ obj.g(1) }}", "", "chat template:2:9: Unsupported: calling g, a Go function of the template variables, is not supported: pass its result as data"},
		{"{{ fs[0]() }}", "", "chat template:1:9: Unsupported: calling fs, a Go function of the template variables, is not supported: pass its result as data"},
		{"{{ s.Get() }}", "", "chat template:1:9: Unsupported: calling Get, a Go function of the template variables, is not supported: pass its result as data"},
		{"{{ f }} {{ obj.g }} {{ s.Get }}", "<function f> <function g> <function Get>", ""},
		{"{{ f is defined }} {{ f is callable }} {{ s.Name }}", "True True ada", ""},
		{"{% if false %}{{ f() }}{% endif %}ok", "ok", ""},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			tpl, err := chattemplate.New(tt.src)
			require.NoError(t, err)
			out, err := tpl.Render(context.Background(), user, format.Vars(vars))
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				var te *chattemplate.TemplateError
				assert.ErrorAs(t, err, &te)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, out)
		})
	}
}
