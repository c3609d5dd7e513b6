package jinja2

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wrap is a block function: it writes [args|kwargs: body].
var wrap = &Func{Name: "wrap", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	var parts []string
	var caller Value
	for _, a := range args {
		parts = append(parts, Repr(a))
	}
	for _, k := range kw {
		if k.Name == "caller" {
			caller = k.Value
			continue
		}
		parts = append(parts, k.Name+"="+Repr(k.Value))
	}
	body, err := c.Call(caller, nil, nil)
	if err != nil {
		return Value{}, err
	}
	return SafeV("[" + strings.Join(parts, ",") + ": " + body.Str() + "]"), nil
}}

var shout = &Func{Name: "shout", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
	return StrV(strings.ToUpper(args[0].Str()) + "!"), nil
}}

func TestExtensions(t *testing.T) {
	env := New(WithBlockTag("wrap", wrap), WithCallName("shout", shout), WithBlockTag("if", wrap),
		WithFinalize(func(v Value) Value {
			if v.Kind() == KindNone {
				return StrV("")
			}
			return v
		}))
	tests := []struct{ name, src, want string }{
		{"block tag", `{% wrap %}x{% endwrap %}`, `[: x]`},
		{"arguments", `{% wrap "a", 1 k=v %}{{ v }}{% endwrap %}`, `['a',1,k='<v>': <v>]`},
		{"spaces between", `{% wrap 1 2 k=3 %}{% endwrap %}`, `[1,2,k=3: ]`},
		{"nested", `{% wrap 1 %}{% wrap 2 %}y{% endwrap %}{% endwrap %}`, `[1: [2: y]]`},
		{"a tag named like Jinja2's stays Jinja2's", `{% if true %}t{% endif %}`, `t`},
		{"call name", `{{ shout("a") }} {{ shout }}`, `A! data`},
		{"call name beats assignments", `{% set shout = "s" %}{{ shout("b") }}{{ shout }}`, `B!s`},
		{"attribute call is not the name", `{{ d.shout() }}`, `method`},
		{"finalize", `[{{ none }}][{{ n }}][{{ 0 }}]`, `[][][0]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := env.Parse("t", tc.src)
			require.NoError(t, err)
			d := NewDict(1)
			d.SetStr("shout", FuncV(&Func{Name: "m", Call: func(*Ctx, []Value, []Kwarg) (Value, error) { return StrV("method"), nil }}))
			out, err := tpl.Render(context.Background(), map[string]Value{"v": StrV("<v>"), "shout": StrV("data"), "n": NoneV(), "d": DictV(d)})
			require.NoError(t, err)
			assert.Equal(t, tc.want, out)
		})
	}
	for _, tc := range []struct{ src, msg string }{
		{`{% wrap %}x`, "Unexpected end of template. Jinja was looking for the following tags: 'endwrap'. The innermost block that needs to be closed is 'wrap'."},
		{`{% wrap k=1 2 %}{% endwrap %}`, "positional argument follows keyword argument"},
		{`{% endwrap %}`, "Encountered unknown tag 'endwrap'."},
	} {
		_, err := env.Parse("t", tc.src)
		assert.Equal(t, tc.msg, rtErr(t, err).Msg, tc.src)
	}
	// Without the options, the tags are unknown and the names ordinary.
	_, err := New().Parse("t", `{% wrap %}{% endwrap %}`)
	assert.Equal(t, "Encountered unknown tag 'wrap'.", rtErr(t, err).Msg)
}

// Under autoescape, Jinja2 escapes a constant before it finalizes it
// ({{ none }} reaches finalize as Markup('None')), a value computed at
// render time after; FinalizeBeforeEscape finalizes both first.
func TestFinalizeConstants(t *testing.T) {
	noneEmpty := WithFinalize(func(v Value) Value {
		if v.Kind() == KindNone {
			return StrV("<none>")
		}
		return v
	})
	src := `[{{ none }}][{{ n }}][{{ none if true }}][{{ 1 }}]{% autoescape false %}[{{ none }}]{% endautoescape %}`
	for _, tc := range []struct {
		name string
		opts []Option
		want string
	}{
		{"Jinja2", []Option{Autoescape(nil), noneEmpty}, `[None][&lt;none&gt;][None][1][<none>]`},
		{"no autoescape", []Option{noneEmpty}, `[<none>][<none>][<none>][1][<none>]`},
		{"finalize before escape", []Option{Autoescape(nil), noneEmpty, FinalizeBeforeEscape()}, `[&lt;none&gt;][&lt;none&gt;][&lt;none&gt;][1][<none>]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := New(tc.opts...).Parse("t", src)
			require.NoError(t, err)
			out, err := tpl.Render(context.Background(), map[string]Value{"n": NoneV()})
			require.NoError(t, err)
			assert.Equal(t, tc.want, out)
		})
	}
}

func TestLoadAndBuiltinFilter(t *testing.T) {
	reads := 0
	env := New(WithLoader(func(name string) (string, error) {
		reads++
		return "<{{ x }}>", nil
	}))
	p, err := env.Load("p")
	require.NoError(t, err)
	tpl, err := env.Parse("t", `{% include "p" %}`)
	require.NoError(t, err)
	out, err := tpl.Render(context.Background(), map[string]Value{"x": IntV(1)})
	require.NoError(t, err)
	assert.Equal(t, "<1>", out)
	assert.Equal(t, 1, reads, "the include took the loaded template")
	assert.Equal(t, "p", p.Name())

	v, err := BuiltinFilter("upper")(nil, StrV("a"), nil, nil)
	require.NoError(t, err)
	assert.Equal(t, "A", v.Str())
	assert.Nil(t, BuiltinFilter("nope"))
}

func TestStrDict(t *testing.T) {
	d := StrDict([]Value{StrV("b"), StrV("a"), IntV(1), IntV(2)})
	assert.Equal(t, "{'b': 1, 'a': 2}", Repr(DictV(d)))
	d.SetStr("c", IntV(3))
	v, ok := d.GetStr("a")
	assert.True(t, ok)
	assert.Equal(t, "2", Repr(v))
	assert.Equal(t, "{'b': 1, 'a': 2, 'c': 3}", Repr(DictV(d)), "appending does not write over the values")
	kv := make([]Value, 40)
	for i := range 20 {
		kv[i], kv[20+i] = StrV(string(rune('a'+i))), IntV(int64(i))
	}
	big := StrDict(kv)
	v, ok = big.GetStr("t")
	assert.True(t, ok)
	assert.Equal(t, "19", Repr(v))
}
