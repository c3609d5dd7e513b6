package jinja2

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFreeNamesAndGlobals: a name the template does not assign is the
// render's variable, else the Env's global, else Jinja2's, else
// Undefined, at the top level, in a macro and in a block, whatever the
// render before saw (the globals are resolved once, at compile time).
// The expected strings are Python Jinja2 3.1's for the same Environment
// (env.globals.update(g='G', range='mine')).
func TestFreeNamesAndGlobals(t *testing.T) {
	env := New(WithGlobal("g", StrV("G")), WithGlobal("range", StrV("mine")))
	tpl, err := env.Parse("t", "{% macro m() %}{{ g }}{{ range }}{{ x is defined }}{% endmacro %}"+
		"{{ g }},{{ range }},{{ x is defined }},{{ m() }},{{ lipsum is callable }},{% block b %}{{ g }}{{ x is defined }}{% endblock %}")
	require.NoError(t, err)
	for i, tc := range []struct {
		vars map[string]Value
		want string
	}{
		{nil, "G,mine,False,GmineFalse,True,GFalse"},
		{map[string]Value{"g": IntV(1), "x": IntV(2), "range": IntV(3)}, "1,3,True,13True,True,1True"},
		{map[string]Value{"lipsum": IntV(0)}, "G,mine,False,GmineFalse,False,GFalse"},
		{nil, "G,mine,False,GmineFalse,True,GFalse"},
	} {
		out, err := tpl.Render(t.Context(), tc.vars)
		require.NoError(t, err)
		assert.Equal(t, tc.want, out, "render %d", i)
	}
}
