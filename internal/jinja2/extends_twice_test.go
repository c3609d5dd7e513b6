package jinja2

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExtendsTwiceBeforeItsName: Jinja2 tests that a template has not
// extended another before it evaluates the name of the one an extends
// names (compiler.py's visit_Extends writes the test, then
// get_template of the expression), so a second extends whose name
// raises gives "extended multiple times", not the name's error (Jinja2
// 3.1.6's messages).
func TestExtendsTwiceBeforeItsName(t *testing.T) {
	env := moduleEnv(map[string]string{"a": `A{% block b %}{% endblock %}`})
	for _, tc := range []struct{ name, src, kind, msg string }{
		{"constant", `{% extends 'a' %}{% extends 'a' %}`, "TemplateRuntimeError", "extended multiple times"},
		{"undefined attribute", `{% extends 'a' %}{% extends nope.x %}`, "TemplateRuntimeError", "extended multiple times"},
		{"in an if", `{% if true %}{% extends 'a' %}{% endif %}{% extends nope.x %}`, "TemplateRuntimeError", "extended multiple times"},
		{"first name raises", `{% extends nope.x %}`, "UndefinedError", "'nope' is undefined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmpl, err := env.Parse("t", tc.src)
			require.NoError(t, err)
			_, err = tmpl.Render(context.Background(), nil)
			var e *Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tc.kind, e.Kind)
			assert.Equal(t, tc.msg, e.Msg)
		})
	}
}
