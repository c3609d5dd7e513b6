package jinja2

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/internal/pyjson"
)

// runtimeCases are testdata/runtime/cases.json, written by gen.py from
// Python's Jinja2.
type runtimeCases struct {
	Jinja2         string        `json:"jinja2"`
	BuiltinFilters []string      `json:"builtin_filters"`
	BuiltinTests   []string      `json:"builtin_tests"`
	BuiltinGlobals []string      `json:"builtin_globals"`
	Methods        []string      `json:"methods"`
	Cases          []runtimeCase `json:"cases"`
}

type runtimeCase struct {
	Name      string            `json:"name"`
	Template  string            `json:"template"`
	Vars      json.RawMessage   `json:"vars"`
	Templates map[string]string `json:"templates"`
	Opts      map[string]bool   `json:"opts"`
	CheckMsg  bool              `json:"check_msg"`
	Out       *string           `json:"out"`
	Error     string            `json:"error"`
	Msg       string            `json:"msg"`
	Line      int               `json:"line"`
}

func (rc runtimeCase) env() *Env {
	opts := []Option{DoStatement(), LoopControls()} // gen.py's environment has jinja2.ext.do and loopcontrols
	if rc.Opts["trim_blocks"] {
		opts = append(opts, TrimBlocks())
	}
	if rc.Opts["lstrip_blocks"] {
		opts = append(opts, LStripBlocks())
	}
	if rc.Opts["keep_trailing_newline"] {
		opts = append(opts, KeepTrailingNewline())
	}
	if rc.Opts["autoescape"] {
		opts = append(opts, Autoescape(nil))
	}
	if rc.Opts["sandbox"] {
		opts = append(opts, Sandbox())
	}
	templates := rc.Templates
	opts = append(opts, WithLoader(func(name string) (string, error) {
		if s, ok := templates[name]; ok {
			return s, nil
		}
		return "", fs.ErrNotExist
	}))
	return New(opts...)
}

// varsOf converts a JSON object to a render's variables, keeping the
// order of every dict inside.
func varsOf(t *testing.T, raw json.RawMessage) map[string]Value {
	v, err := pyjson.Parse(raw)
	require.NoError(t, err)
	vars := map[string]Value{}
	for i, k := range v.Keys {
		vars[k] = FromGo(v.Items[i])
	}
	return vars
}

// missingBuiltin reports whether err is about a built-in filter, test,
// global or method of Jinja2 that the values side does not provide yet.
func missingBuiltin(err error, doc *runtimeCases) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	for _, g := range doc.BuiltinGlobals {
		if e.Msg == pyQuote(g)+" is undefined" {
			return true
		}
	}
	for _, m := range doc.Methods {
		if strings.HasSuffix(e.Msg, "object' has no attribute "+pyQuote(m)) {
			return true
		}
	}
	for _, pre := range []string{"No filter named '", "No test named '"} {
		if rest, ok := strings.CutPrefix(e.Msg, pre); ok {
			name, _, _ := strings.Cut(rest, "'")
			list := doc.BuiltinFilters
			if pre[3] == 't' {
				list = doc.BuiltinTests
			}
			for _, b := range list {
				if b == name {
					return true
				}
			}
		}
	}
	return false
}

func TestRuntimeCases(t *testing.T) {
	data, err := os.ReadFile("testdata/runtime/cases.json")
	require.NoError(t, err)
	var doc runtimeCases
	require.NoError(t, json.Unmarshal(data, &doc))
	for _, rc := range doc.Cases {
		t.Run(rc.Name, func(t *testing.T) {
			env := rc.env()
			out, err := func() (string, error) {
				tmpl, err := env.Parse("t", rc.Template)
				if err != nil {
					return "", err
				}
				return tmpl.Render(context.Background(), varsOf(t, rc.Vars))
			}()
			var e *Error
			if err != nil && errors.As(err, &e) && e.Kind == "Unsupported" {
				t.Skipf("not implemented yet: %v", err)
			}
			if err != nil && missingBuiltin(err, &doc) {
				t.Skipf("built-in not there yet: %v", err)
			}
			if rc.Out != nil {
				require.NoError(t, err, "template %q", rc.Template)
				assert.Equal(t, *rc.Out, out, "template %q", rc.Template)
				return
			}
			require.Error(t, err, "template %q gave %q; Jinja2 raises %s: %s", rc.Template, out, rc.Error, rc.Msg)
			require.True(t, errors.As(err, &e), "%T %v", err, err)
			assert.Equal(t, rc.Error, e.Kind, "template %q: %v", rc.Template, err)
			if rc.CheckMsg {
				assert.Equal(t, rc.Msg, e.Msg, "template %q", rc.Template)
			}
			if rc.Line > 0 && rc.CheckMsg {
				assert.Equal(t, rc.Line, e.Line, "template %q: %v", rc.Template, err)
			}
		})
	}
}

// TestPutCtxResetsKeptStates: a render that used every kind of state a
// Ctx keeps from render to render (a loop's, a filtered loop's, an
// include's, a namespace) leaves none in use and each emptied, whichever
// others it used: resetCtx resets a kind only when it was used.
func TestPutCtxResetsKeptStates(t *testing.T) {
	env := New(WithLoader(func(name string) (string, error) { return `{{ x }}`, nil }))
	for _, src := range []string{
		`{% set ns = namespace(a=xs) %}{% for i in xs if i %}{{ loop.last }}{% endfor %}{% include "inc" %}{{ ns.a|length }}`,
		`{% set ns = namespace(a=xs) %}{{ ns.a|length }}`,
		`{% include "inc" %}`,
		`{% for i in xs if i %}{{ loop.last }}{% endfor %}`,
	} {
		tmpl, err := env.Parse("t", src)
		require.NoError(t, err)
		c := env.getCtx(context.Background())
		require.NoError(t, tmpl.run(c, map[string]Value{"xs": ListV([]Value{IntV(1), IntV(2)}), "x": StrV("!")}))
		used := c.loops.n + c.filters.n + c.includes.n + c.spaces.n
		require.NotZero(t, used, src)
		env.putCtx(c)
		assert.Zero(t, c.loops.n+c.filters.n+c.includes.n+c.spaces.n, src)
		for _, l := range c.loops.all {
			assert.Equal(t, loopObj{}, l, src)
		}
		for _, f := range c.filters.all {
			assert.Equal(t, loopFilter{saved: f.saved[:0], room: f.room[:0]}, f, src)
			for _, v := range f.saved[:cap(f.saved)] {
				assert.Equal(t, Value{}, v, src)
			}
		}
		for _, r := range c.includes.all {
			assert.Equal(t, includeRun{f: frame{slots: r.f.slots[:0]}}, r, src)
			for _, v := range r.f.slots[:cap(r.f.slots)] {
				assert.Equal(t, Value{}, v, src)
			}
		}
		for i := range c.spaces.all {
			n := &c.spaces.all[i]
			assert.Zero(t, n.own.Len(), src)
			assert.True(t, n.d == nil || n.d == &n.own, src) // never used, or reset
		}
	}
}

// TestPutCtxResets checks that a render's state, once back in the pool,
// holds nothing of the render but its reusable memory: putCtx resets
// field by field, and a field it forgets fails here.
func TestPutCtxResets(t *testing.T) {
	env := New(WithLoader(func(name string) (string, error) { return `{% block b %}{{ x }}{% endblock %}`, nil }))
	tmpl, err := env.Parse("t", `{% extends "base" %}{% block b %}{% macro m(a) %}{% for i in a %}{{ i }}{{ loop.index }}{% endfor %}{% endmacro %}{{ m(xs) }}{{ super() }}{% endblock %}`)
	require.NoError(t, err)
	c := env.getCtx(context.Background())
	c.gen = &genTrack{}
	require.NoError(t, tmpl.run(c, map[string]Value{"xs": ListV([]Value{IntV(1), IntV(2)}), "x": StrV("!")}))
	assert.Equal(t, "1122!", string(c.out))
	require.NotZero(t, c.stackHigh)
	require.NotZero(t, c.loops.n)
	env.putCtx(c)
	want := Ctx{env: env, out: c.out[:0], scratch: c.scratch, loops: c.loops, stack: c.stack, suspended: c.suspended[:0], itemsOuter: c.itemsOuter[:0],
		rootFrame: frame{c: c, tc: &c.rootTC, slots: c.rootFrame.slots[:0]}} // the root frame keeps what points into c
	want.inh = &c.rootInh // the context the next render's template enters
	// the root context keeps its root frame and the template's name, which
	// topSet and named say are not set
	want.rootTC.top, want.rootTC.name = &c.rootFrame, "t"
	assert.Equal(t, want, *c)
	for _, l := range c.loops.all {
		assert.Equal(t, loopObj{}, l)
	}
	for _, s := range c.stack {
		assert.Equal(t, frame{}, s.f)
		for _, v := range s.slots {
			assert.Equal(t, Value{}, v)
		}
	}
	for _, v := range c.rootFrame.slots[:cap(c.rootFrame.slots)] {
		assert.Equal(t, Value{}, v)
	}
}
