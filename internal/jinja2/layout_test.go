package jinja2

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRenderVars: a render with variables by position gives what Render
// gives with the same variables in a map, wherever the template reads
// them: its top level, a macro at call time, a block, an included
// template, a parent template; a name the Layout lacks is the global of
// that name or undefined, as a name the map lacks is.
func TestRenderVars(t *testing.T) {
	partials := map[string]string{
		"inc":  `[{{ a }}{{ b is defined }}]`,
		"base": `<{% block body %}{{ a }}{% endblock %}|{{ b }}>`,
	}
	env := New(WithLoader(func(name string) (string, error) {
		if s, ok := partials[name]; ok {
			return s, nil
		}
		return "", fmt.Errorf("no %s", name)
	}))
	tests := []struct {
		name, src, want string
	}{
		{"top level", `{{ a }}-{{ b }}-{{ c is defined }}`, "1-two-False"},
		{"global", `{{ range(a + 1)|list }}{{ range is defined }}`, "[0, 1]True"},
		{"shadowing a global", `{{ cycler }}`, "cyc"},
		{"macro at call time", `{% macro m() %}{{ a }}{{ b }}{{ c|default('-') }}{% endmacro %}{{ m() }}`, "1two-"},
		{"set shadows", `{% set a = 5 %}{{ a }}{% macro m() %}{{ a }}{% endmacro %}{{ m() }}`, "55"},
		{"loop", `{% for x in xs %}{{ x }}{{ a }}{% endfor %}`, "x1y1"},
		{"include", `{% include "inc" %}{% include "inc" without context %}`, "[1True][False]"},
		{"extends", `{% extends "base" %}{% block body %}{{ b }}{{ super() }}{% endblock %}`, "<two1|two>"},
		{"self and blocks", `{% block x %}{{ a }}{% endblock %}{{ self.x() }}`, "11"},
		{"unused names", `plain`, "plain"},
	}
	l := NewLayout("a", "unused", "b", "xs", "cycler", "a")
	vals := []Value{IntV(1), StrV("u"), StrV("two"), ListV([]Value{StrV("x"), StrV("y")}), StrV("cyc"), IntV(9)}
	m := map[string]Value{"a": IntV(1), "unused": StrV("u"), "b": StrV("two"), "xs": vals[3], "cycler": StrV("cyc")}
	ctx := context.Background()
	r := env.NewRenderer() // one for every case, in turn
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tmpl, err := env.Parse(tc.name, tc.src)
			require.NoError(t, err)
			want, err := tmpl.Render(ctx, m)
			require.NoError(t, err)
			require.Equal(t, tc.want, want)
			got, err := tmpl.RenderVars(ctx, l, vals)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			buf, err := tmpl.AppendRenderVars(ctx, []byte(">"), l, vals)
			require.NoError(t, err)
			assert.Equal(t, ">"+tc.want, string(buf))
			got, err = tmpl.RenderVarsWith(ctx, r, l, vals)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestRenderVarsWith: a Renderer renders as RenderVars does, one render
// after another, whatever the one before left (a loop, a macro, an error,
// an output too large to keep); it refuses a template of another Env and
// values that do not match the Layout.
func TestRenderVarsWith(t *testing.T) {
	env := New()
	loop, err := env.Parse("loop", `{% macro m(a) %}{% for i in a %}{{ i }}{{ loop.index }}{% endfor %}{% endmacro %}{{ m(xs) }}{{ s }}`)
	require.NoError(t, err)
	fails, err := env.Parse("fails", `{% for i in xs %}{{ i }}{{ 1 // 0 }}{% endfor %}`)
	require.NoError(t, err)
	large, err := env.Parse("large", `{{ s * (70000 // s|length) }}`)
	require.NoError(t, err)
	plain, err := env.Parse("plain", `{{ s }}|{{ xs is defined }}`)
	require.NoError(t, err)
	l := NewLayout("xs", "s")
	vals := []Value{ListV([]Value{StrV("a"), StrV("b")}), StrV("!")}
	ctx := context.Background()
	r := env.NewRenderer()
	for range 2 {
		out, err := loop.RenderVarsWith(ctx, r, l, vals)
		require.NoError(t, err)
		assert.Equal(t, "a1b2!", out)
		_, err = fails.RenderVarsWith(ctx, r, l, vals)
		var e *Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, "ZeroDivisionError", e.Kind)
		out, err = large.RenderVarsWith(ctx, r, l, vals)
		require.NoError(t, err)
		assert.Len(t, out, 70000)
		assert.LessOrEqual(t, cap(r.c.out), maxPooledOutput, "a large output buffer is let go")
		out, err = plain.RenderVarsWith(ctx, r, NewLayout("s"), []Value{StrV("x")})
		require.NoError(t, err)
		assert.Equal(t, "x|False", out)
		// the Renderer keeps the layout and the values' slice between
		// renders: a value changed in place, then another slice
		out, err = plain.RenderVarsWith(ctx, r, l, vals)
		require.NoError(t, err)
		assert.Equal(t, "!|True", out)
		vals[1] = StrV("?")
		out, err = plain.RenderVarsWith(ctx, r, l, vals)
		require.NoError(t, err)
		assert.Equal(t, "?|True", out)
		out, err = plain.RenderVarsWith(ctx, r, l, []Value{NoneV(), StrV("¿")})
		require.NoError(t, err)
		assert.Equal(t, "¿|True", out)
		vals[1] = StrV("!")
	}
	other, err := New().Parse("other", `{{ s }}`)
	require.NoError(t, err)
	_, err = other.RenderVarsWith(ctx, r, l, vals)
	assert.ErrorIs(t, err, errRendererEnv)
	_, err = plain.RenderVarsWith(ctx, r, l, vals[:1])
	assert.ErrorIs(t, err, errLayoutVals)
}

// TestAppendRenderVarsWith: a Renderer appends to the caller's slice what
// RenderVarsWith returns, after what the slice holds, one render after
// another into one buffer of changing lengths; on an error the slice comes
// back as it was, and the Renderer's own buffer is untouched throughout.
func TestAppendRenderVarsWith(t *testing.T) {
	env := New()
	loop, err := env.Parse("loop", `{% macro m(a) %}{% for i in a %}{{ i }}{{ loop.index }}{% endfor %}{% endmacro %}{{ m(xs) }}{{ s }}`)
	require.NoError(t, err)
	fails, err := env.Parse("fails", `{% for i in xs %}{{ i }}{{ 1 // 0 }}{% endfor %}`)
	require.NoError(t, err)
	large, err := env.Parse("large", `{{ s * (70000 // s|length) }}`)
	require.NoError(t, err)
	l := NewLayout("xs", "s")
	vals := []Value{ListV([]Value{StrV("a"), StrV("b")}), StrV("!")}
	ctx := context.Background()
	r := env.NewRenderer()
	buf := []byte("head:")
	for range 2 {
		for _, tc := range []struct {
			tmpl *Template
			want string
		}{
			{loop, "a1b2!"},
			{large, strings.Repeat("!", 70000)},
			{loop, "a1b2!"},
		} {
			own := cap(r.c.out)
			got, err := tc.tmpl.AppendRenderVarsWith(ctx, r, buf[:5], l, vals)
			require.NoError(t, err)
			assert.Equal(t, "head:"+tc.want, string(got))
			buf = got
			assert.Equal(t, own, cap(r.c.out), "the Renderer's own buffer is left as it is")
		}
		got, err := fails.AppendRenderVarsWith(ctx, r, buf[:5], l, vals)
		var e *Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, "ZeroDivisionError", e.Kind)
		assert.Equal(t, "head:", string(got))
		out, err := loop.RenderVarsWith(ctx, r, l, vals)
		require.NoError(t, err)
		assert.Equal(t, "a1b2!", out)
		got, err = loop.AppendRenderVarsWith(ctx, r, nil, l, vals)
		require.NoError(t, err)
		assert.Equal(t, "a1b2!", string(got))
		assert.Equal(t, "a1b2!", out, "a string RenderVarsWith returned stays")
	}
	flat, err := env.Parse("flat", `{% for i in xs %}{{ i }}{{ loop.index }}{% endfor %}{{ s }}`)
	require.NoError(t, err)
	assert.Zero(t, renderAllocs(t, func() { buf, _ = flat.AppendRenderVarsWith(ctx, r, buf[:0], l, vals) }))
	assert.Equal(t, "a1b2!", string(buf))
	other, err := New().Parse("other", `{{ s }}`)
	require.NoError(t, err)
	got, err := other.AppendRenderVarsWith(ctx, r, buf[:2], l, vals)
	assert.ErrorIs(t, err, errRendererEnv)
	assert.Len(t, got, 2)
	got, err = loop.AppendRenderVarsWith(ctx, r, buf[:2], l, vals[:1])
	assert.ErrorIs(t, err, errLayoutVals)
	assert.Len(t, got, 2)
}

// TestRendererKeepsBoundSlots: a Renderer's root frame keeps the slots of
// the names a template reads from its Layout between its renders
// (boundRootFrame), and clears the others; a name the template sets, a
// failed render, another Layout or another template in between change
// nothing in what each render gives, and another template's render finds
// every slot it does not bind cleared.
func TestRendererKeepsBoundSlots(t *testing.T) {
	env := New()
	setsG, err := env.Parse("sets", `{% if not g is defined %}{% set g = false %}{% endif %}{% for m in xs %}{{ m }}{% endfor %}|{{ g }}`)
	require.NoError(t, err)
	fails, err := env.Parse("fails", `{% set g = xs %}{{ g|length }}{{ 1 // 0 }}`)
	require.NoError(t, err)
	locals, err := env.Parse("locals", `{% set a = 'l' %}{% set b = 'm' %}{% set c = 'n' %}{{ a }}{{ b }}{{ c }}{{ s }}`)
	require.NoError(t, err)
	withG := NewLayout("xs", "g")
	noG := NewLayout("xs", "s")
	xs := ListV([]Value{StrV("a"), StrV("b")})
	ctx := context.Background()
	r := env.NewRenderer()
	clearedBut := func(p *program) {
		t.Helper()
		f := &r.c.rootFrame
		slots := f.slots[:cap(f.slots)]
		for i := range slots {
			kept := p != nil && slices.Contains(p.fn.freeSlots, i)
			if !kept {
				assert.Equal(t, Value{}, slots[i], "slot %d", i)
			}
		}
	}
	for range 2 {
		out, err := setsG.RenderVarsWith(ctx, r, withG, []Value{xs, BoolV(true)})
		require.NoError(t, err)
		assert.Equal(t, "ab|True", out)
		clearedBut(setsG.prog)
		out, err = setsG.RenderVarsWith(ctx, r, noG, []Value{xs, StrV("s")})
		require.NoError(t, err)
		assert.Equal(t, "ab|False", out)
		out, err = setsG.RenderVarsWith(ctx, r, noG, []Value{ListV(nil), StrV("s")})
		require.NoError(t, err)
		assert.Equal(t, "|False", out)
		_, err = fails.RenderVarsWith(ctx, r, withG, []Value{xs, NoneV()})
		require.Error(t, err)
		clearedBut(fails.prog)
		out, err = locals.RenderVarsWith(ctx, r, noG, []Value{xs, StrV("s")})
		require.NoError(t, err)
		assert.Equal(t, "lmns", out)
		clearedBut(locals.prog)
		out, err = locals.RenderVarsWith(ctx, r, noG, []Value{xs, StrV("t")})
		require.NoError(t, err)
		assert.Equal(t, "lmnt", out)
	}
	// the root frame taken for anything else is cleared first
	r.c.newFrame(&r.c.rootTC, 1)
	assert.Nil(t, r.c.boundProg)
	clearedBut(nil)
}

// TestRenderVarsLayouts: a template rendered with one Layout, then
// another, then the first again reads each render's own positions.
func TestRenderVarsLayouts(t *testing.T) {
	tmpl, err := New().Parse("t", `{{ a }}{{ b }}`)
	require.NoError(t, err)
	l1, l2 := NewLayout("a", "b"), NewLayout("b", "x", "a")
	ctx := context.Background()
	for range 2 {
		out, err := tmpl.RenderVars(ctx, l1, []Value{StrV("1"), StrV("2")})
		require.NoError(t, err)
		assert.Equal(t, "12", out)
		out, err = tmpl.RenderVars(ctx, l2, []Value{StrV("B"), StrV("X"), StrV("A")})
		require.NoError(t, err)
		assert.Equal(t, "AB", out)
	}
	_, err = tmpl.RenderVars(ctx, l1, []Value{StrV("1")})
	assert.ErrorIs(t, err, errLayoutVals)
	buf, err := tmpl.AppendRenderVars(ctx, []byte("x"), l2, nil)
	assert.ErrorIs(t, err, errLayoutVals)
	assert.Equal(t, "x", string(buf))
	assert.Equal(t, []string{"b", "x", "a"}, l2.Names())
	i, ok := l2.Index("a")
	assert.True(t, ok)
	assert.Equal(t, 2, i)
	_, ok = l2.Index("z")
	assert.False(t, ok)
	assert.Equal(t, 3, l2.Len())
}

// TestRenderVarsConcurrent renders one template with two Layouts in turn
// from many goroutines (run with -race): the binding a template keeps is
// replaced, never changed in place.
func TestRenderVarsConcurrent(t *testing.T) {
	tmpl, err := New().Parse("t", `{% for i in xs %}{{ i }}{{ s }}{% endfor %}`)
	require.NoError(t, err)
	layouts := []*Layout{NewLayout("xs", "s"), NewLayout("s", "xs")}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				xs, s := ListV([]Value{IntV(int64(g))}), StrV(istr(i))
				l := layouts[(g+i)%2]
				vals := []Value{xs, s}
				if l == layouts[1] {
					vals = []Value{s, xs}
				}
				out, err := tmpl.RenderVars(context.Background(), l, vals)
				if want := istr(g) + istr(i); err != nil || out != want {
					errs <- fmt.Sprintf("got %q, %v; want %q", out, err, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
