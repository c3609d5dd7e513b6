package jinja2

import (
	"context"
	"io/fs"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// moduleEnv is an Env whose loader reads templates.
func moduleEnv(templates map[string]string, opts ...Option) *Env {
	return New(append(opts, WithLoader(func(name string) (string, error) {
		if s, ok := templates[name]; ok {
			return s, nil
		}
		return "", fs.ErrNotExist
	}))...)
}

// TestImportModuleShared renders templates that import a module twice
// and checks both outputs (Python's Jinja2 gives them for a fresh
// Environment) and whether the module was kept for later renders: only
// when nothing in it can change once built.
func TestImportModuleShared(t *testing.T) {
	cases := []struct {
		name    string
		module  string
		main    string
		sandbox bool
		want    string
		shared  bool
	}{
		{
			name:   "macro setting the caller's namespace",
			module: `{%- macro init(ns) -%}{%- set ns.bod = "<|b|>" -%}{%- endmacro -%}`,
			main:   `{% set s = namespace() %}{% from 'm' import init %}{{ init(s) }}[{{ s.bod }}]`,
			want:   `[<|b|>]`,
			shared: true,
		},
		{
			name:   "macro reading the module's values at call time",
			module: `{% set _p = 'p:' %}{% set t = (1, 'a', none, 2.5) %}{% macro m(x) %}{{ _p }}{{ x }}{{ t }}{% endmacro %}`,
			main:   `{% import 'm' as mod %}{{ mod.m(1) }}{{ mod.t[1] }}`,
			want:   `p:1(1, 'a', None, 2.5)a`,
			shared: true,
		},
		{
			name:   "a global function read by the module",
			module: `{% set n = range(3)|list|length %}`,
			main:   `{% from 'm' import n %}{{ n }}`,
			want:   `3`,
			shared: true,
		},
		{
			name:    "a list under the sandbox",
			module:  `{% set lst = [1, ('k', (2,))] %}`,
			main:    `{% from 'm' import lst %}{{ lst }}`,
			sandbox: true,
			want:    `[1, ('k', (2,))]`,
			shared:  true,
		},
		{
			// the sandbox lets a set block and dict.update through the
			// class change a dict, so a module holding one is built anew
			name:    "a dict under the sandbox, changed by a set block",
			module:  `{% set d = {'k': 1} %}`,
			main:    `{% from 'm' import d %}{% set d.a %}{{ d|length }}{% endset %}{{ d }}`,
			sandbox: true,
			want:    `{'k': 1, 'a': '1'}`,
		},
		{
			name:    "a dict under the sandbox, changed through the class",
			module:  `{% set l = [{'k': 1}] %}`,
			main:    `{% from 'm' import l %}{{ dict.update(l[0], a=l[0]|length) }}{{ l }}`,
			sandbox: true,
			want:    `None[{'k': 1, 'a': 1}]`,
		},
		{
			name:   "a list without the sandbox",
			module: `{% set lst = [1] %}`,
			main:   `{% from 'm' import lst %}{{ lst.append(2) }}{{ lst }}`,
			want:   `None[1, 2]`,
		},
		{
			name:   "a macro reading a list without the sandbox",
			module: `{% set _l = [] %}{% macro add(x) %}{{ _l.append(x) }}{{ _l|length }}{% endmacro %}`,
			main:   `{% from 'm' import add %}{{ add(1) }}`,
			want:   `None1`,
		},
		{
			name:   "a namespace",
			module: `{% set ns = namespace(a=1) %}`,
			main:   `{% from 'm' import ns %}{% set ns.a = ns.a + 1 %}{{ ns.a }}`,
			want:   `2`,
		},
		{
			name:    "a namespace under the sandbox",
			module:  `{% set ns = namespace(a=1) %}`,
			main:    `{% from 'm' import ns %}{% set ns.a = ns.a + 1 %}{{ ns.a }}`,
			sandbox: true,
			want:    `2`,
		},
		{
			name:   "a cycler",
			module: `{% set c = cycler('a', 'b') %}`,
			main:   `{% from 'm' import c %}{{ c.next() }}`,
			want:   `a`,
		},
		{
			name:   "imported with context",
			module: `{% set v = x %}`,
			main:   `{% from 'm' import v with context %}{{ v }}`,
			want:   `1`,
		},
		{
			name:   "a macro the module imported",
			module: `{% from 'n' import nm %}`,
			main:   `{% from 'm' import nm %}{{ nm() }}`,
			want:   `n`,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var opts []Option
			if tc.sandbox {
				opts = append(opts, Sandbox())
			}
			env := moduleEnv(map[string]string{"m": tc.module, "n": `{% macro nm() %}n{% endmacro %}`}, opts...)
			tmpl, err := env.Parse("main", tc.main)
			require.NoError(t, err)
			for i := range 3 {
				got, err := tmpl.Render(context.Background(), map[string]Value{"x": IntV(1)})
				require.NoError(t, err)
				assert.Equal(t, tc.want, got, "render %d", i+1)
			}
			mod, err := env.load("m")
			require.NoError(t, err)
			assert.Equal(t, tc.shared, mod.module.Load() != nil)
		})
	}
}

// TestImportModuleAutoescapeBlock: a module is built with the Env's
// autoescape wherever the import is (Jinja2's make_module starts a new
// context), so one built inside an autoescape block that changes the
// setting is kept, and a render outside such a block reads the same.
func TestImportModuleAutoescapeBlock(t *testing.T) {
	env := moduleEnv(map[string]string{"m": `{% set s %}<{{ '&' }}>{% endset %}`}, Autoescape(nil))
	off, err := env.Parse("off", `{% autoescape false %}{% from 'm' import s %}{{ s }}{% endautoescape %}`)
	require.NoError(t, err)
	on, err := env.Parse("on", `{% from 'm' import s %}{{ s }}`)
	require.NoError(t, err)
	got, err := off.Render(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, `<&amp;>`, got)
	mod, err := env.load("m")
	require.NoError(t, err)
	assert.NotNil(t, mod.module.Load(), "built with the Env's setting")
	got, err = on.Render(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, `<&amp;>`, got)
}

// TestImportModuleIterations: a kept module's loops count against the
// limit of every render that imports it, as when it is built.
func TestImportModuleIterations(t *testing.T) {
	env := moduleEnv(map[string]string{"m": `{% for i in range(5) %}{% endfor %}{% set n = 1 %}`}, WithLimits(Limits{Iterations: 6}))
	alone, err := env.Parse("alone", `{% from 'm' import n %}{{ n }}`)
	require.NoError(t, err)
	after, err := env.Parse("after", `{% for i in range(2) %}{% endfor %}{% from 'm' import n %}{{ n }}`)
	require.NoError(t, err)
	got, err := alone.Render(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, "1", got)
	mod, err := env.load("m")
	require.NoError(t, err)
	require.NotNil(t, mod.module.Load(), "the module is kept")
	_, err = after.Render(context.Background(), nil)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "LimitError", e.Kind)
}

// TestImportModuleAllocs: importing a kept module and calling its macro
// allocates nothing (building the module took 15 allocations a render).
func TestImportModuleAllocs(t *testing.T) {
	env := moduleEnv(map[string]string{"m": `{% set p = 'x' %}{% macro m(a) %}{{ p }}{{ a }}{% endmacro %}`})
	tmpl, err := env.Parse("main", `{% from 'm' import m %}{{ m('y') }}`)
	require.NoError(t, err)
	var buf []byte
	allocs := renderAllocs(t, func() {
		buf, err = tmpl.AppendRender(context.Background(), buf[:0], nil)
	})
	require.NoError(t, err)
	assert.Equal(t, "xy", string(buf))
	assert.Zero(t, allocs)
}

// TestImportModuleConcurrent renders, in goroutines at once, templates
// sharing a kept module whose macros read its values and set the caller's
// namespace (run it with -race).
func TestImportModuleConcurrent(t *testing.T) {
	env := moduleEnv(map[string]string{
		"m": `{% set pre = 'n=' %}{% macro init(ns, v) %}{% set ns.v = pre ~ v %}{% endmacro %}{% macro show(v) %}<{{ pre }}{{ v }}>{% endmacro %}`,
	})
	tmpl, err := env.Parse("main", `{% set s = namespace() %}{% import 'm' as m %}{{ m.init(s, x) }}{{ s.v }}{% from 'm' import show %}{{ show(x) }}`)
	require.NoError(t, err)
	var wg sync.WaitGroup
	errs := make([]error, 8)
	outs := make([][]string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				out, err := tmpl.Render(context.Background(), map[string]Value{"x": IntV(int64(g*100 + i))})
				if err != nil {
					errs[g] = err
					return
				}
				outs[g] = append(outs[g], out)
			}
		}()
	}
	wg.Wait()
	for g := range 8 {
		require.NoError(t, errs[g])
		for i, out := range outs[g] {
			x := strconv.Itoa(g*100 + i)
			assert.Equal(t, "n="+x+"<n="+x+">", out)
		}
	}
	mod, err := env.load("m")
	require.NoError(t, err)
	assert.NotNil(t, mod.module.Load())
}

// TestSharedModuleAutoescapeRace: renders running at once call the macros
// of one shared module, whose autoescape tags change the eval context;
// nothing of it is written into the module (go test -race).
func TestSharedModuleAutoescapeRace(t *testing.T) {
	env := moduleEnv(map[string]string{"m": `{% macro m(x) %}{% autoescape false %}{{ x }}{{ caller() }}{% endautoescape %}{{ x }}{% endmacro %}`}, Autoescape(nil))
	tpl, err := env.Parse("t", `{% import 'm' as mm %}{% call mm.m('<') %}{{ ['<', '&'|safe]|join }}{% endcall %}`)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				got, err := tpl.Render(context.Background(), nil)
				assert.NoError(t, err)
				assert.Equal(t, "<&lt;&&lt;", got)
			}
		}()
	}
	wg.Wait()
	mod, err := env.load("m")
	require.NoError(t, err)
	assert.NotNil(t, mod.module.Load(), "the module is shared")
}

// TestSandboxDictLiteralFresh: under the sandbox a dict literal is built
// at every evaluation, as in Python, since a set block and dict.update
// through the class change it; one built once would carry a render's
// change into the next (and race between renders running at once).
func TestSandboxDictLiteralFresh(t *testing.T) {
	for _, src := range []string{
		"{% set d = {'k': 1} %}{% set d.a %}{{ d|length }}{% endset %}{{ d }}",
		"{% set d = [{'k': 1}][0] %}{{ dict.update(d, a=d|length) }}{{ d }}",
	} {
		tmpl, err := New(Sandbox()).Parse("t", src)
		require.NoError(t, err)
		var outs []string
		for range 3 {
			out, err := tmpl.Render(context.Background(), nil)
			require.NoError(t, err)
			outs = append(outs, out)
		}
		assert.Equal(t, outs[0], outs[1], src)
		assert.Equal(t, outs[0], outs[2], src)
	}
}

// TestSandboxDictLiteralFrozen: where nothing in the template can change a
// dict (no set block on an attribute, no dict, no other template), the
// sandbox builds a dict literal of constants once, as Jinja2's optimizer
// folds it: a render into a reused buffer allocates nothing for it. Where
// the template can change one, each render builds its own.
func TestSandboxDictLiteralFrozen(t *testing.T) {
	for _, c := range []struct {
		src    string
		allocs bool
	}{
		{"{% set d = {'a': {'b': 'x'}, 'c': 'y'} %}{{ d.a.b }}{{ d['c'] }}", false},
		{"{% set d = {'a': {'b': 'x'}} %}{{ d.a.b }}{% if false %}{{ dict }}{% endif %}", true},
		{"{% set d = {'a': {'b': 'x'}} %}{{ d.a.b }}{% set d.z %}{% endset %}", true},
		{"{% set d = {'a': {'b': 'x'}} %}{{ d.a.b }}{% block b %}{% endblock %}", true},
	} {
		tmpl, err := New(Sandbox()).Parse("t", c.src)
		require.NoError(t, err)
		ctx := context.Background()
		buf, err := tmpl.AppendRender(ctx, nil, nil)
		require.NoError(t, err, c.src)
		allocs := renderAllocs(t, func() {
			buf, err = tmpl.AppendRender(ctx, buf[:0], nil)
		})
		require.NoError(t, err, c.src)
		assert.Equal(t, c.allocs, allocs > 0, "%s: %v allocs", c.src, allocs)
	}
}
