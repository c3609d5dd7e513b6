package jinja2

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func rtRender(t *testing.T, env *Env, src string, vars map[string]Value) (string, error) {
	t.Helper()
	tmpl, err := env.Parse("t", src)
	if err != nil {
		return "", err
	}
	return tmpl.Render(context.Background(), vars)
}

func TestGenerationTag(t *testing.T) {
	src := "{% for m in ms %}{% generation %}{{ m }}{% set x = 1 %}{% endgeneration %}[{{ x }}]{% endfor %}"
	vars := map[string]Value{"ms": ListV([]Value{IntV(1), IntV(2)})}
	// transformers renders the body as a call block's: its sets stay inside.
	out, err := rtRender(t, New(GenerationTag()), src, vars)
	require.NoError(t, err)
	assert.Equal(t, "1[]2[]", out)
	_, err = rtRender(t, New(), src, vars)
	e := rtErr(t, err)
	assert.Equal(t, "TemplateSyntaxError", e.Kind)
	assert.Equal(t, "Encountered unknown tag 'generation'. Jinja was looking for the following tags: 'endfor' or 'else'. The innermost block that needs to be closed is 'for'.", e.Msg)
}

// TestLenientNames: a name LenientNames exempts from StrictNames reads as
// Jinja2's Undefined when the context does not hold it (outputs and
// messages from Python's Jinja2 3.1 with the default Undefined); any other
// name stays strict.
func TestLenientNames(t *testing.T) {
	tests := []struct{ src, out, err string }{
		{src: "{{ opt }}|", out: "|"},
		{src: "{% if opt %}y{% endif %}n", out: "n"},
		{src: "{{ opt|default('d') }}", out: "d"},
		{src: "{{ opt ~ 'a' }}", out: "a"},
		{src: "{% for x in opt %}{% endfor %}ok", out: "ok"},
		{src: "{{ opt is defined }}", out: "False"},
		{src: "{% macro m() %}[{{ opt }}]{% endmacro %}{{ m() }}", out: "[]"},
		{src: "{{ opt.x }}", err: "'opt' is undefined"},
		{src: "{{ opt }}{{ nope }}", err: "'nope' is undefined"},
		{src: "{{ here }}{{ opt }}", out: "1"},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			out, err := rtRender(t, New(StrictNames(), LenientNames("opt", "here")), tc.src, map[string]Value{"here": IntV(1)})
			if tc.err == "" {
				require.NoError(t, err)
				assert.Equal(t, tc.out, out)
				return
			}
			e := rtErr(t, err)
			assert.Equal(t, "UndefinedError", e.Kind)
			assert.Equal(t, tc.err, e.Msg)
		})
	}
}

func TestStrictNames(t *testing.T) {
	tests := []struct {
		name, src, out, err string
		line, col           int
	}{
		{name: "missing", src: "a\n  {{ nope }}", err: "'nope' is undefined", line: 2, col: 6},
		{name: "given", src: "{{ here }}", out: "1"},
		{name: "defined test", src: "{{ nope is defined }}{{ nope is undefined }}", out: "FalseTrue"},
		{name: "default filter", src: "{{ nope|default('d') }}", out: "d"},
		{name: "assigned", src: "{% set nope = 2 %}{{ nope }}", out: "2"},
		{name: "loop var", src: "{% for i in [3] %}{{ i }}{% endfor %}", out: "3"},
		{name: "global", src: "{{ range(2)|list }}", out: "[0, 1]"},
		{name: "attribute of missing", src: "{{ nope.x }}", err: "'nope' is undefined", line: 1, col: 4},
		{name: "untaken branch", src: "{% if false %}{{ nope }}{% endif %}ok", out: "ok"},
		// attributes of free names read from their slots (outputs and
		// messages from Python's Jinja2 3.1 with StrictUndefined)
		{name: "chain of missing", src: "{{ nope.x.y }}", err: "'nope' is undefined", line: 1, col: 4},
		{name: "condition of missing", src: "{% if nope.x %}y{% endif %}", err: "'nope' is undefined", line: 1, col: 7},
		{name: "defined of missing", src: "{{ nope.x is defined }}", err: "'nope' is undefined", line: 1, col: 4},
		{name: "missing in loop", src: "{% for i in [1] %}{{ nope.x }}{% endfor %}", err: "'nope' is undefined", line: 1, col: 22},
		{name: "missing in macro", src: "{% macro m() %}{{ d.a.b }}{{ nope.x }}{% endmacro %}{{ m() }}", err: "'nope' is undefined", line: 1, col: 30},
		{name: "condition name missing", src: "{% if nope %}y{% endif %}", err: "'nope' is undefined", line: 1, col: 7},
		{name: "condition names", src: "{% if here and d %}Y{% endif %}{% if not here %}N{% endif %}{% if here or nope %}Y{% endif %}", out: "YY"},
		{name: "condition guarded", src: "{% if nope is defined and nope %}y{% endif %}ok", out: "ok"},
		{name: "condition loop var", src: "{% for i in [0, 1] %}{% if i %}{{ i }}{% endif %}{% endfor %}", out: "1"},
		{name: "condition second missing", src: "{% if d and nope %}Y{% endif %}", err: "'nope' is undefined", line: 1, col: 13},
		{name: "chain given", src: "{{ d.a.b }}{% if d.a.b %}T{% endif %}{{ d.a.c is defined }}", out: "BTFalse"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := NewDict(1)
			a.SetStr("b", StrV("B"))
			d := NewDict(1)
			d.SetStr("a", DictV(a))
			out, err := rtRender(t, New(StrictNames()), tc.src, map[string]Value{"here": IntV(1), "d": DictV(d)})
			if tc.err == "" {
				require.NoError(t, err)
				assert.Equal(t, tc.out, out)
				return
			}
			e := rtErr(t, err)
			assert.Equal(t, "UndefinedError", e.Kind)
			assert.Equal(t, tc.err, e.Msg)
			assert.Equal(t, tc.line, e.Line)
			assert.Equal(t, tc.col, e.Col)
		})
	}
}

// TestErrorPlaces: every error names the template, the line and the
// column (in runes) of the construct that raised it.
func TestErrorPlaces(t *testing.T) {
	tests := []struct {
		name, src, kind string
		line, col       int
	}{
		{"syntax", "ab\ncd {{ 1 +* 2 }}", "TemplateSyntaxError", 2, 10},
		{"syntax after non-ASCII", "é {{ ) }}", "TemplateSyntaxError", 1, 6},
		{"unknown tag", "x\n{% frob %}", "TemplateSyntaxError", 2, 4},
		{"unclosed", "{% if x %}\nabc", "TemplateSyntaxError", 1, 11}, // the line of the last token, as Jinja2,
		{"type error", "x\n  {{ 1 + 'a' }}", "TypeError", 2, 6},
		{"undefined attribute", "{{ a.b.c }}", "UndefinedError", 1, 7},
		{"call", "{% set f = 1 %}{{ f(2) }}", "TypeError", 1, 19}, // at the name f: the call itself fails
		// a method's call: at the method's name, not at its (
		{"method call", "é {{ 'x'.upper(1) }}", "TypeError", 1, 10},
		{"method of a dict", "{{ a.get() }}", "TypeError", 1, 6},
		{"method, spaced", "{{ a . get () }}", "TypeError", 1, 8},
		{"method in a loop", "{% for k in a.items(1) %}{% endfor %}", "TypeError", 1, 15},
		{"method in a print's set", "{% set s = 'a,b'.split(1, 2, 3) %}", "TypeError", 1, 18},
		{"join", "{{ ', '.join() }}", "TypeError", 1, 9},
		{"method's own error", "{{ 'a'.join([1]) }}", "TypeError", 1, 8},
		{"method on a next line", "{{ a.get\n() }}", "TypeError", 2, 1},
		{"call block", "{% macro m() %}{% endmacro %}{% call m() %}{% endcall %}", "TypeError", 1, 38},
		{"in macro", "{% macro m() %}\n{{ 1 // 0 }}{% endmacro %}{{ m() }}", "ZeroDivisionError", 2, 4},
		{"unpack", "{% for a, b in [1] %}{% endfor %}", "TypeError", 1, 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := rtRender(t, New(), tc.src, map[string]Value{"a": DictV(NewDict(0))})
			e := rtErr(t, err)
			assert.Equal(t, tc.kind, e.Kind, "%v", err)
			assert.Equal(t, "t", e.Name)
			assert.Equal(t, tc.line, e.Line, "%v", err)
			assert.Equal(t, tc.col, e.Col, "%v", err)
		})
	}
}

// TestTreeIsKept: the syntax tree stays readable after compiling.
func TestTreeIsKept(t *testing.T) {
	tmpl, err := New().Parse("t", "{% for x in xs %}{{ x.name|upper }}{% endfor %}")
	require.NoError(t, err)
	tree := tmpl.Tree()
	require.Len(t, tree.Body, 1)
	loop, ok := tree.Body[0].(*For)
	require.True(t, ok)
	assert.Equal(t, Pos{Line: 1, Col: 4}, loop.Position())
	pr := loop.Body[0].(*Print)
	f := pr.X.(*FilterExpr)
	assert.Equal(t, "upper", f.Name)
	assert.Equal(t, "name", f.X.(*AttrExpr).Name)
}

// TestConcurrentRenders renders one template from many goroutines (run
// with -race): the pooled render state is never shared.
func TestConcurrentRenders(t *testing.T) {
	tmpl, err := New().Parse("t", "{% for i in xs %}{{ i }}{% if not loop.last %},{% endif %}{% endfor %}")
	require.NoError(t, err)
	done := make(chan string)
	for g := 0; g < 8; g++ {
		go func(g int) {
			xs := []Value{IntV(int64(g)), IntV(int64(g + 1))}
			for i := 0; i < 200; i++ {
				out, err := tmpl.Render(context.Background(), map[string]Value{"xs": ListV(xs)})
				if err != nil || out != istr(g)+","+istr(g+1) {
					done <- "bad: " + out
					return
				}
			}
			done <- ""
		}(g)
	}
	for g := 0; g < 8; g++ {
		assert.Equal(t, "", <-done)
	}
}

// TestAppendRenderAndRenderTo: the two renders into a caller's memory give
// Render's output after what dst holds, leave dst and w as they were when
// the render fails, and count only this render's bytes against the Output
// limit.
func TestAppendRenderAndRenderTo(t *testing.T) {
	ctx := context.Background()
	env := New(WithLimits(Limits{Output: 8}))
	tmpl, err := env.Parse("t", "{% for i in n %}{{ i }}{% endfor %}")
	require.NoError(t, err)
	tests := []struct {
		name, out, err string
		n              int64
	}{
		{name: "fits", n: 8, out: "01234567"},
		{name: "over the limit", n: 9, err: "the output passed the limit of 8 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var n []Value
			for i := range tc.n {
				n = append(n, IntV(i))
			}
			vars := map[string]Value{"n": ListV(n)}
			dst := []byte("prefix:")
			got, err := tmpl.AppendRender(ctx, dst, vars)
			var w strings.Builder
			werr := tmpl.RenderTo(ctx, &w, vars)
			if tc.err != "" {
				assert.Equal(t, tc.err, rtErr(t, err).Msg)
				assert.Equal(t, "prefix:", string(got))
				assert.Equal(t, tc.err, rtErr(t, werr).Msg)
				assert.Empty(t, w.String())
				return
			}
			require.NoError(t, err)
			require.NoError(t, werr)
			assert.Equal(t, "prefix:"+tc.out, string(got))
			assert.Equal(t, tc.out, w.String())
			// The buffer reused: the same output again, without the prefix.
			got, err = tmpl.AppendRender(ctx, got[:0], vars)
			require.NoError(t, err)
			assert.Equal(t, tc.out, string(got))
		})
	}
}

// TestDictAttrAndItem: x.name and x['name'] of a dict read the item
// except where Python's Jinja2 finds a dict method first (x.items), with
// and without the sandbox; a missing key is undefined. Expected outputs
// from Jinja2 3.1 (python3).
func TestDictAttrAndItem(t *testing.T) {
	d := NewDict(4)
	d.SetStr("items", StrV("I"))
	d.SetStr("get", StrV("G"))
	d.SetStr("a", IntV(1))
	big := NewDict(12)
	for i := range 12 {
		big.SetStr("k"+istr(i), IntV(int64(i)))
	}
	vars := map[string]Value{"d": DictV(d), "big": DictV(big)}
	src := `{{ d.a }}|{{ d["a"] }}|{{ d.items()|list|length }}|{{ d["items"] }}|{{ d.get("a") }}|{{ d["get"] }}|` +
		`{{ d.nope is defined }}|{{ d["nope"] is defined }}|{{ big.k11 }}|{{ big["k9"] }}|{{ big.k12 is defined }}`
	for _, env := range []*Env{New(), New(Sandbox())} {
		out, err := rtRender(t, env, src, vars)
		require.NoError(t, err)
		assert.Equal(t, "1|1|3|I|1|G|False|False|11|9|False", out)
	}
}

// TestMethodCalls: x.name(…) of a builtin value calls the method as
// GetAttr then Call would; the sandbox still refuses a mutating method and
// an attribute that is not a method is still not callable. Expected
// outputs from Jinja2 3.1 (python3).
func TestMethodCalls(t *testing.T) {
	d := NewDict(1)
	d.SetStr("k", IntV(1))
	out, err := rtRender(t, New(), `{{ " a ".strip() }}|{{ [1,2].index(2) }}|{{ d.items()|list }}|{{ (5).bit_length() }}|{{ (2.0).is_integer() }}|{{ d.get("k") }}`,
		map[string]Value{"d": DictV(d)})
	require.NoError(t, err)
	assert.Equal(t, "a|1|[('k', 1)]|3|True|1", out)
	_, err = rtRender(t, New(Sandbox()), `{{ l.append(1) }}`, map[string]Value{"l": ListV(nil)})
	e := rtErr(t, err)
	assert.Equal(t, "SecurityError", e.Kind)
	assert.Equal(t, "access to attribute 'append' of 'list' object is unsafe.", e.Msg)
	_, err = rtRender(t, New(), `{{ (1).real() }}`, nil)
	e = rtErr(t, err)
	assert.Equal(t, "TypeError", e.Kind)
	assert.Equal(t, "'int' object is not callable", e.Msg)
}

// TestCallBlockValueEscape: the str a call block's callee returns is
// written as it is (Jinja2 yields it), or, with EscapeFilterBlocks, escaped
// like a printed value; a macro's output is written as the macro wrote it.
func TestCallBlockValueEscape(t *testing.T) {
	forge := FuncV(&Func{Name: "forge", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		return StrV("<x>"), nil
	}})
	const src = `{% macro m() %}<b>{{ caller() }}</b>{% endmacro %}{% call forge() %}{% endcall %}|{% call m() %}{{ '<' }}{% endcall %}`
	for _, tc := range []struct {
		name string
		opts []Option
		want string
	}{
		{"jinja2", []Option{Autoescape(nil)}, "<x>|<b>&lt;</b>"},
		{"boundary", []Option{Autoescape(nil), EscapeFilterBlocks()}, "&lt;x&gt;|<b>&lt;</b>"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := New(append(tc.opts, WithGlobal("forge", forge))...).Parse("t", src)
			require.NoError(t, err)
			got, err := tpl.Render(context.Background(), nil)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
