package jinja2

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An Env's own test named like one the fast paths compute (defined,
// undefined, none) is the one a condition and a print call: compiling
// it recursed through compileExpr and compileCond until the stack ran out.
func TestOwnTestOfAFastName(t *testing.T) {
	always := func(c *Ctx, v Value, args []Value, kw []Kwarg) (bool, error) { return true, nil }
	for _, name := range []string{"defined", "undefined", "none"} {
		t.Run(name, func(t *testing.T) {
			src := "{% if x is " + name + " %}y{% endif %}{{ x is " + name + " }}{{ x is not " + name + " }}"
			tpl, err := New(WithTest(name, always)).Parse("t", src)
			require.NoError(t, err)
			out, err := tpl.Render(context.Background(), map[string]Value{"x": IntV(1)})
			require.NoError(t, err)
			assert.Equal(t, "yTrueFalse", out)
		})
	}
}
