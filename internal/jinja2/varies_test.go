package jinja2

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// variesCases are renders that read something that may differ at the
// next render with the same variables (a random number, lipsum, an
// object's address, a caller's function calling Ctx.Varies) and renders
// that read only their variables and their own text.
var variesCases = []struct {
	name, src string
	varies    bool
	sandbox   bool // in a sandboxed Env (range is then a function)
}{
	{"variables", "{% for m in ms %}<|{{ m.k }}|>{{ m.k|upper }}{{ loop.index }}{% endfor %}{{ ms|tojson }}", false, false},
	{"classes and ranges", "{{ cycler }}{{ range }}{{ namespace }}{{ range(3) }}{{ ms[0].items() }}", false, false},
	{"the sandbox's range", "{{ range }}", true, true},
	{"the sandbox's range called", "{{ range(2)|list }}", false, true},
	{"a macro", "{% macro m() %}{% endmacro %}{{ m }}{{ [m] }}{{ ms|pprint }}", false, false},
	{"clock-free global", "{{ now_free() }}", false, false},
	{"random", "{{ ms|random }}", true, false},
	{"random by map", "{{ [ms]|map('random')|list|length }}", true, false},
	{"lipsum", "{{ lipsum(1)|length > 0 }}", true, false},
	{"lipsum's repr", "{{ lipsum }}", true, false},
	{"a cycler printed", "{{ cycler(1) }}", true, false},
	{"a cycler's repr", "{{ (cycler(1)|string)[:6] }}", true, false},
	{"a joiner in a list", "{{ [joiner()]|length }}{{ [joiner()] }}", true, false},
	{"a method's repr", "{{ ('x'.upper|string)[:6] }}", true, false},
	{"a method in a dict view", "{{ dict(a='x'.upper).items() }}", true, false},
	{"%r", "{{ '%r'|format(joiner()) }}", true, false},
	{"{!r}", "{{ '{!r}'.format(joiner()) }}", true, false},
	{"{!a}", "{{ '{!a}'.format(joiner()) }}", true, false},
	{"__repr__", "{{ [joiner()].__repr__() }}", true, false},
	{"__str__", "{{ [joiner()].__str__() }}", true, false},
	{"pprint", "{{ {'a': joiner()}|pprint }}", true, false},
	{"the caller's clock", "{{ now() }}", true, false},
}

func variesEnv(sandbox bool) *Env {
	var opts []Option
	if sandbox {
		opts = append(opts, Sandbox())
	}
	return New(append(opts,
		WithGlobal("now", FuncV(&Func{Name: "now", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			c.Varies()
			return StrV("12:00"), nil
		}})),
		WithGlobal("now_free", FuncV(&Func{Name: "now_free", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			return StrV("12:00"), nil
		}})))...)
}

func variesVars() (*Layout, []Value) {
	ms := ListV([]Value{DictV(StrDict([]Value{StrV("k"), StrV("a")}))})
	return NewLayout("ms"), []Value{ms}
}

// A render reports whether it read something that varies (Renderer.
// Varied), with RenderVarsWith and AppendRenderVarsWith, and the next
// render with the same Renderer reports its own.
func TestRendererVaried(t *testing.T) {
	l, vals := variesVars()
	for _, tc := range variesCases {
		t.Run(tc.name, func(t *testing.T) {
			env := variesEnv(tc.sandbox)
			r := env.NewRenderer()
			assert.False(t, r.Varied(), "before the first render")
			plain, err := env.Parse("plain", "{{ ms[0].k }}")
			require.NoError(t, err)
			tmpl, err := env.Parse("t", tc.src)
			require.NoError(t, err)
			_, err = tmpl.RenderVarsWith(context.Background(), r, l, vals)
			require.NoError(t, err)
			assert.Equal(t, tc.varies, r.Varied(), "RenderVarsWith")
			_, err = plain.RenderVarsWith(context.Background(), r, l, vals)
			require.NoError(t, err)
			assert.False(t, r.Varied(), "the next render")
			_, err = tmpl.AppendRenderVarsWith(context.Background(), r, nil, l, vals)
			require.NoError(t, err)
			assert.Equal(t, tc.varies, r.Varied(), "AppendRenderVarsWith")
		})
	}
}

// Renders in two goroutines, one varying and one not, each report their
// own (a count shared between renders made the second look varying).
func TestRendererVariedConcurrent(t *testing.T) {
	env := variesEnv(true)
	l, vals := variesVars()
	const n = 200
	var wg sync.WaitGroup
	for _, tc := range []struct {
		src    string
		varies bool
	}{{"{{ ms|random }}{{ cycler(1) }}{{ lipsum(1)|length }}", true}, {"{{ ms[0].k }}{{ range(2) }}", false}} {
		tmpl, err := env.Parse("t", tc.src)
		require.NoError(t, err)
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := env.NewRenderer()
			for i := range n {
				if _, err := tmpl.RenderVarsWith(context.Background(), r, l, vals); err != nil {
					t.Error(err)
					return
				}
				if r.Varied() != tc.varies {
					t.Errorf("%s: render %d: Varied() = %v", tc.src, i, r.Varied())
					return
				}
			}
		}()
	}
	wg.Wait()
}

// A render that does not vary reports so though another render varies
// while it runs: the one waits in a global of the caller's until the
// other has read the caller's clock.
func TestRendererVariedInterleaved(t *testing.T) {
	read := make(chan struct{})
	env := New(Sandbox(),
		WithGlobal("now", FuncV(&Func{Name: "now", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			c.Varies()
			close(read)
			return StrV("12:00"), nil
		}})),
		WithGlobal("wait", FuncV(&Func{Name: "wait", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			<-read
			return StrV(""), nil
		}})))
	l, vals := variesVars()
	plain, err := env.Parse("plain", "{{ ms[0].k }}{{ wait() }}{{ ms[0].k }}")
	require.NoError(t, err)
	clock, err := env.Parse("clock", "{{ now() }}")
	require.NoError(t, err)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r := env.NewRenderer()
		_, err := clock.RenderVarsWith(context.Background(), r, l, vals)
		assert.NoError(t, err)
		assert.True(t, r.Varied(), "the clock's render")
	}()
	r := env.NewRenderer()
	out, err := plain.RenderVarsWith(context.Background(), r, l, vals)
	require.NoError(t, err)
	assert.Equal(t, "aa", out)
	assert.False(t, r.Varied(), "the render that waited for the clock's")
	wg.Wait()
}

// A render whose output is too large to keep its buffer (the Renderer
// takes a new Ctx) still reports whether it varied.
func TestRendererVariedLargeOutput(t *testing.T) {
	env := variesEnv(true)
	_, vals := variesVars()
	r := env.NewRenderer()
	for _, tc := range []struct {
		src    string
		varies bool
	}{{"{{ lipsum(1)|length * 0 }}{{ 'x' * n }}", true}, {"{{ 'x' * n }}", false}} {
		tmpl, err := env.Parse("t", "{% set n = 2 * size %}"+tc.src)
		require.NoError(t, err)
		big := append(slices.Clone(vals), IntV(maxPooledOutput))
		_, err = tmpl.RenderVarsWith(context.Background(), r, NewLayout("ms", "size"), big)
		require.NoError(t, err)
		assert.Equal(t, tc.varies, r.Varied(), "%s: RenderVarsWith", tc.src)
		_, err = tmpl.AppendRenderVarsWith(context.Background(), r, nil, NewLayout("ms", "size"), big)
		require.NoError(t, err)
		assert.Equal(t, tc.varies, r.Varied(), "%s: AppendRenderVarsWith", tc.src)
	}
}
