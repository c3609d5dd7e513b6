package jinja2

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// arenaNames takes a name only where every read of it copies the str or
// hands it to another such name.
func TestArenaNames(t *testing.T) {
	jf := func(_ *Ctx, v Value, _ []Value, _ []Kwarg) (Value, error) { return v, nil }
	ja := func(_ *Ctx, dst []byte, _ Value, _ []Value, _ []Kwarg) ([]byte, bool, error) { return dst, false, nil }
	for _, tc := range []struct {
		src  string
		opts []Option
		want []string
	}{
		{src: "{% set x = a + b %}{{ x }}", want: []string{"x"}},
		{src: "{% set x = a + '-' + b %}{{ '<' + x + '>' }}{{ x ~ 1 }}", want: []string{"x"}},
		{src: "{% for m in ms %}{% set c = '<' + m + '>' %}{% set c = bos + c %}{{ c }}{% endfor %}", want: []string{"c"}},
		{src: "{% set d = 'x' + today %}{% if s %}{% set s2 = s %}{% else %}{% set s2 = d %}{% endif %}{{ '[' + s2 + ']' }}", want: []string{"d"}},
		{src: "{% set x = a + b %}{% set y = x %}{{ y }}", want: []string{"x"}},
		{src: "{% set x = a ~ b ~ 1 %}{{ x }}{% set y = '<' ~ x %}{{ y ~ '>' }}", want: []string{"x", "y"}},
		{src: "{% set x = a ~ b %}{% set y = x + c %}{{ y }}", want: []string{"x", "y"}},
		{src: "{% set x = a ~ b %}{{ x|length }}"},
		{src: "{% set x = a ~ b %}{% set y = '<' ~ x %}{{ keep(y) }}"},
		// a read that keeps the str, or could
		{src: "{% set x = a + b %}{{ keep(x) }}"},
		{src: "{% set x = a + b %}{{ x|upper }}"},
		{src: "{% set x = a + b %}{% if x %}{{ x }}{% endif %}"},
		{src: "{% set x = a + b %}{% set ns.v = x %}"},
		{src: "{% set x = a + b %}{% set l = [x] %}{{ l }}"},
		{src: "{% set x = a + b %}{% set y = x %}{{ y.strip() }}"},
		{src: "{% set x = a + b %}{% set y = x + c %}{{ keep(y) }}"},
		{src: "{% set x = a + b %}{% macro m(v=x) %}{{ v }}{% endmacro %}{{ m() }}"},
		{src: "{% set x = a + b %}{% set p, q = x, 1 %}{{ p }}"},
		{src: "{% set x = a + b %}{{ x }}{% include 'other' %}"},
		{src: "{% set x = a + b %}{{ x }}{% import 'other' as o %}"},
		{src: "{% set x = a + b %}{{ x }}{% block b %}{% endblock %}"},
		// hooks of the host's see the printed value
		{src: "{% set x = a + b %}{{ x }}", opts: []Option{WithFinalize(func(v Value) Value { return v })}},
		{src: "{% set x = a + b %}{{ x }}", opts: []Option{Autoescape(strings.ToUpper)}},
		// a slice printed, an if-else printed that gives the name
		{src: "{% set x = a + b %}{{ x[:-1] }}{{ '<' + x[1:] }}{{ x[::2] ~ 1 }}", want: []string{"x"}},
		{src: "{% set x = a + b %}{{ (x if c else '') }}{{ 'p' + (x if c) }}{{ (d if c else x[1:]) }}", want: []string{"x"}},
		{src: "{% set x = a + b %}{{ x[0] }}"},
		{src: "{% set x = a + b %}{{ x[:x|length] }}"},
		{src: "{% set x = a + b %}{{ (c if x else '') }}"},
		{src: "{% set x = a + b %}{{ (x if c else '')|length }}"},
		{src: "{% set x = a + b %}{% set y = (x if c else '') %}{{ keep(y) }}"},
		// a filter with an append form
		{src: "{% set x = v|j %}{{ x[:-1] }}{% set y = v|j(1) %}{{ y }}", opts: []Option{WithAppendFilter("j", jf, ja)}, want: []string{"x", "y"}},
		{src: "{% set x = v|j %}{{ x }}", opts: []Option{WithAppendFilter("j", jf, ja), WithFilter("j", jf)}},
		{src: "{% set x = v|j %}{{ x|length }}", opts: []Option{WithAppendFilter("j", jf, ja)}},
		// no + chain assigned: nothing to join
		{src: "{% set x = a %}{{ x }}"},
	} {
		t.Run(tc.src, func(t *testing.T) {
			env := New(tc.opts...)
			tpl, err := env.Parse("t", tc.src)
			require.NoError(t, err)
			var got []string
			for name := range arenaNames(env, tpl.Tree().Body) {
				got = append(got, name)
			}
			assert.ElementsMatch(t, tc.want, got)
		})
	}
}

// A str the arena holds is written over by the next render on the same
// Ctx, so none may reach anything that outlives the render: a host's
// function, a value the caller passed, the caller. Each template here
// hands a joined str to the host in a way arenaNames must refuse; the
// strs the host kept must read the same after more renders.
func TestArenaStrsOutliveNoRender(t *testing.T) {
	var mu sync.Mutex
	var kept []string
	keep := FuncV(&Func{Name: "keep", Call: func(_ *Ctx, args []Value, _ []Kwarg) (Value, error) {
		mu.Lock()
		defer mu.Unlock()
		for _, a := range args {
			kept = append(kept, a.s)
		}
		return NoneV(), nil
	}})
	finalize := func(v Value) Value {
		if v.kind == KindStr && strings.HasPrefix(v.s, "#") {
			mu.Lock()
			kept = append(kept, v.s)
			mu.Unlock()
		}
		return v
	}
	for _, tc := range []struct {
		name string
		src  string
		opts []Option
	}{
		{name: "call", src: "{% set x = '#' + a + b %}{{ keep(x) }}"},
		{name: "call of a copy", src: "{% set x = '#' + a + b %}{% set y = x %}{{ y }}{{ keep(y) }}"},
		{name: "chain of a copy", src: "{% set x = '#' + a + b %}{% set y = '' + x %}{{ keep(y) }}"},
		{name: "filter", src: "{% set x = '#' + a + b %}{{ x|keepf }}"},
		{name: "list", src: "{% set x = '#' + a + b %}{% set l = [x] %}{{ keep(l[0]) }}"},
		{name: "namespace", src: "{% set ns = namespace() %}{% set x = '#' + a + b %}{% set ns.v = x %}{{ keep(ns.v) }}"},
		{name: "macro", src: "{% macro m(v) %}{{ keep(v) }}{% endmacro %}{% set x = '#' + a + b %}{{ m(x) }}"},
		{name: "loop", src: "{% for i in [1] %}{% set x = '#' + a + b %}{{ keep(x) }}{% endfor %}"},
		{name: "finalize", src: "{% set x = '#' + a + b %}{{ x }}", opts: []Option{WithFinalize(finalize)}},
		{name: "import", src: "{% import 'mod' as m with context %}{{ keep(m.x) }}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kept = nil
			opts := append([]Option{
				WithGlobal("keep", keep),
				WithFilter("keepf", func(_ *Ctx, v Value, _ []Value, _ []Kwarg) (Value, error) {
					kept = append(kept, v.s)
					return v, nil
				}),
				WithLoader(func(string) (string, error) { return "{% set x = '#' + a + b %}{{ x }}", nil }),
			}, tc.opts...)
			tpl, err := New(opts...).Parse("t", tc.src)
			require.NoError(t, err)
			ctx := context.Background()
			for _, ab := range [][2]string{{"ab", "cd"}, {"AB", "CD"}, {"xy", "zw"}} {
				_, err := tpl.Render(ctx, map[string]Value{"a": StrV(ab[0]), "b": StrV(ab[1])})
				require.NoError(t, err)
			}
			assert.Equal(t, []string{"#abcd", "#ABCD", "#xyzw"}, kept)
		})
	}
}

// A + chain assigned to a name that is only printed joins into the
// render's string arena: the render allocates nothing but its output,
// and the output is the same render after render.
func TestArenaChainsAllocateNothing(t *testing.T) {
	src := "{% set d = 'Today is ' + today + '.' %}{% for m in ms %}" +
		"{% set c = '<' + m + '>' %}{% if loop.first %}{% set c = bos + c %}{% endif %}{{ c }}" +
		"{% endfor %}{{ '[' + d + ']' }}"
	tpl, err := New(Sandbox()).Parse("t", src)
	require.NoError(t, err)
	ctx := context.Background()
	vars := func(today string, ms ...string) map[string]Value {
		items := make([]Value, len(ms))
		for i, m := range ms {
			items[i] = StrV(m)
		}
		return map[string]Value{"today": StrV(today), "bos": StrV("^"), "ms": ListV(items)}
	}
	a, b := vars("Monday", "hi", "there"), vars("Tuesday", "a long message to make the arena grow "+strings.Repeat("x", 2000), "b", "c")
	buf, err := tpl.AppendRender(ctx, nil, a)
	require.NoError(t, err)
	assert.Equal(t, "^<hi><there>[Today is Monday.]", string(buf))
	assert.Zero(t, renderAllocs(t, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], a) }))
	for range 3 {
		out, err := tpl.Render(ctx, b)
		require.NoError(t, err)
		assert.Equal(t, "^<a long message to make the arena grow "+strings.Repeat("x", 2000)+"><b><c>[Today is Tuesday.]", out)
		out, err = tpl.Render(ctx, a)
		require.NoError(t, err)
		assert.Equal(t, "^<hi><there>[Today is Monday.]", out)
	}
}

// Renders on several goroutines each have their own arena (run with
// -race).
func TestArenaConcurrentRenders(t *testing.T) {
	tpl, err := New().Parse("t", "{% for m in ms %}{% set c = '<' + m + '>' %}{{ c }}{% endfor %}")
	require.NoError(t, err)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := strings.Repeat(string(rune('a'+g)), 10+g)
			want := "<" + m + "><" + m + ">"
			for range 200 {
				out, err := tpl.Render(context.Background(), map[string]Value{"ms": ListV([]Value{StrV(m), StrV(m)})})
				if !assert.NoError(t, err) || !assert.Equal(t, want, out) {
					return
				}
			}
		}()
	}
	wg.Wait()
}
