package jinja2

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCallbackKeepsValue: what the package doc says of values a Go
// callback receives. A namespace lives in the render's memory: one a
// callback keeps reads as empty once the render ends (it did not panic)
// and holds the next render's names while that one runs (a Renderer's
// memory here, deterministically; the Env's pool does the same). What the
// callback converted while it ran stays its own; a kept loop reads as done.
func TestCallbackKeepsValue(t *testing.T) {
	var kept, keptLoop Value
	var copied []string
	var during []bool // whether the first render's namespace had a, during each render
	keep := func(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
		if kept.kind == KindObject {
			_, has := kept.ref.(Object).Attr("a")
			during = append(during, has)
		} else {
			kept = v
		}
		keptLoop = args[0]
		a, err := GetAttr(c, v, "a")
		if err != nil {
			return Value{}, err
		}
		s, err := ToStr(c, a)
		copied = append(copied, s)
		return NoneV(), err
	}
	env := New(WithFilter("keep", keep))
	tmpl, err := env.Parse("t", "{% set ns = namespace(a=x) %}{% for i in [1] %}{{ ns|keep(loop) }}{% endfor %}")
	require.NoError(t, err)
	r := env.NewRenderer()
	l := NewLayout("x")
	for _, x := range []string{"first", "second"} {
		_, err := tmpl.RenderVarsWith(context.Background(), r, l, []Value{StrV(x)})
		require.NoError(t, err)
		_, has := kept.ref.(Object).Attr("a")
		assert.False(t, has, "after the render")
	}
	assert.Equal(t, []string{"first", "second"}, copied)
	assert.Equal(t, []bool{true}, during, "the first render's namespace during the second")
	cur, ok := keptLoop.ref.(Object).Attr("_current")
	require.True(t, ok)
	assert.Equal(t, "missing", Repr(cur))
}
