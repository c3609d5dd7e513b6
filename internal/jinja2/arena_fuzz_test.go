package jinja2

import (
	"context"
	"strings"
	"sync"
	"testing"
)

// FuzzArenaStrs guards the render arena's unsafe.String (compile_arena.go):
// a str the arena holds is written over by the next render on the same
// Ctx, so no str a render hands out may be one. The template (the seeds
// are TestArenaStrsOutliveNoRender's ways of handing a joined str to the
// host, the fuzzer mutates them) gives strs to a host function, a host
// filter and finalize, and prints; each str the host kept, and each
// output, must read as it did after three more renders with other
// values, and the output must be what a render on a fresh template
// makes. Its seed corpus runs in CI with go test.
func FuzzArenaStrs(f *testing.F) {
	for _, src := range []string{
		"{% set x = '#' + a + b %}{{ keep(x) }}",
		"{% set x = '#' + a + b %}{% set y = x %}{{ y }}{{ keep(y) }}",
		"{% set x = '#' + a + b %}{% set y = '' + x %}{{ keep(y) }}",
		"{% set x = '#' + a + b %}{{ x|keepf }}",
		"{% set x = '#' + a + b %}{% set l = [x] %}{{ keep(l[0]) }}",
		"{% set ns = namespace() %}{% set x = '#' + a + b %}{% set ns.v = x %}{{ keep(ns.v) }}",
		"{% macro m(v) %}{{ keep(v) }}{% endmacro %}{% set x = '#' + a + b %}{{ m(x) }}",
		"{% for i in [1, 2] %}{% set x = '#' + a + b ~ i %}{{ keep(x) }}{{ x }}{% endfor %}",
		"{% set x = '#' + a + b %}{{ x }}",
		"{% import 'mod' as m with context %}{{ keep(m.x) }}",
		"{% set d = {'k': '#' + a + b} %}{{ keep(d.k) }}{{ d|keepf }}",
		"{% set x = ('#' + a + b)|upper %}{{ keep(x, x[1:]) }}",
		"{% for c in (a + b) %}{% set x = '#' + c + a %}{{ keep(x) }}{% endfor %}",
		"{% set x = '#' + a + b %}{% set y = x + x %}{{ [x, y]|join(',')|keepf }}",
	} {
		f.Add(src, "ab", "cd")
	}
	f.Fuzz(func(t *testing.T, src, a, b string) {
		if len(src) > 2000 || len(a)+len(b) > 200 {
			return
		}
		var mu sync.Mutex
		type keptStr struct{ s, was string }
		var kept []keptStr
		add := func(v Value) {
			if v.kind == KindStr {
				mu.Lock()
				kept = append(kept, keptStr{v.s, strings.Clone(v.s)})
				mu.Unlock()
			}
		}
		opts := func() []Option {
			return []Option{
				Sandbox(),
				WithGlobal("keep", FuncV(&Func{Name: "keep", Call: func(_ *Ctx, args []Value, _ []Kwarg) (Value, error) {
					for _, a := range args {
						add(a)
					}
					return NoneV(), nil
				}})),
				WithFilter("keepf", func(_ *Ctx, v Value, _ []Value, _ []Kwarg) (Value, error) {
					add(v)
					return v, nil
				}),
				WithFinalize(func(v Value) Value { add(v); return v }),
				WithLoader(func(string) (string, error) { return "{% set x = '#' + a + b %}{{ x }}", nil }),
			}
		}
		tpl, err := New(opts()...).Parse("t", src)
		if err != nil {
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		vars := func(a, b string) map[string]Value { return map[string]Value{"a": StrV(a), "b": StrV(b)} }
		type out struct{ s, was string }
		var outs []out
		for _, ab := range [][2]string{{a, b}, {b, a}, {"AB" + a, b + "CD"}, {"", "xyzw"}} {
			s, err := tpl.Render(ctx, vars(ab[0], ab[1]))
			if err != nil {
				continue
			}
			outs = append(outs, out{s, strings.Clone(s)})
			// a fresh template renders the same values to the same text
			fresh, err := New(opts()...).Parse("t", src)
			if err != nil {
				t.Fatalf("parsed once, not twice: %v", err)
			}
			if s2, err := fresh.Render(ctx, vars(ab[0], ab[1])); err == nil && s2 != s && !mayVary(src, s) {
				t.Fatalf("render %q on a used Ctx gave %q, on a fresh one %q", ab, s, s2)
			}
		}
		if len(kept) == 0 && strings.Contains(src, "keep") && len(outs) > 0 && strings.HasPrefix(src, "{% set x = '#'") && t.Name() == "FuzzArenaStrs/seed#0" {
			t.Fatal("the host kept nothing: the harness checks nothing")
		}
		for _, k := range kept {
			if k.s != k.was {
				t.Fatalf("a str the host kept changed after later renders: %q, was %q", k.s, k.was)
			}
		}
		for _, o := range outs {
			if o.s != o.was {
				t.Fatalf("an output changed after later renders: %q, was %q", o.s, o.was)
			}
		}
	})
}

// mayVary reports whether a render of src may differ from render to
// render whatever the arena does: a random choice or an address.
func mayVary(src, out string) bool {
	return strings.Contains(src, "random") || strings.Contains(src, "lipsum") || strings.Contains(out, "0x")
}
