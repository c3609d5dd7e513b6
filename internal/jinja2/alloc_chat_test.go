package jinja2

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/internal/pyjson"
)

// Calling a str method of no arguments that builds no new str
// (x.strip(), x|trim) allocates nothing: the method is looked up once
// per call site, and its name for errors built once.
func TestStrMethodCallsDoNotAllocate(t *testing.T) {
	for _, opts := range [][]Option{nil, {Sandbox()}} {
		tpl, err := New(opts...).Parse("t", "{{ s.strip() }}|{{ s|trim }}|{{ s.rstrip() }}|{{ s.lstrip() }}|{{ s.isspace() }}")
		require.NoError(t, err)
		vars := map[string]Value{"s": StrV(" ab ")}
		ctx := context.Background()
		buf, err := tpl.AppendRender(ctx, nil, vars)
		require.NoError(t, err)
		assert.Equal(t, "ab|ab| ab|ab |False", string(buf))
		allocs := renderAllocs(t, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) })
		assert.Zero(t, allocs)
	}
}

// A step-1 slice of a tuple, or of a list under the sandbox
// (loop_messages = messages[1:]), shares the items it selects: one
// allocation, the list's own, where a copy takes two; under the sandbox
// a slice with constant bounds of the same items as its evaluation
// before takes none (constStrSlice's memo). Outside the sandbox a list's
// slice is a copy, which changing the original does not change.
func TestSliceSharesItemsWhereNothingChangesThem(t *testing.T) {
	src := "{% set rest = xs[1:] %}{% set back = xs[::-1] %}{% set tail = ts[1:] %}{{ rest }}{{ back }}{{ tail }}"
	for _, tc := range []struct {
		opts   []Option
		allocs float64
	}{{nil, 5}, {[]Option{Sandbox()}, 2}} {
		tpl, err := New(tc.opts...).Parse("t", src)
		require.NoError(t, err)
		vars := map[string]Value{"xs": ListV([]Value{IntV(1), IntV(2), IntV(3)}), "ts": TupleV([]Value{IntV(1), IntV(2)})}
		ctx := context.Background()
		buf, err := tpl.AppendRender(ctx, nil, vars)
		require.NoError(t, err)
		assert.Equal(t, "[2, 3][3, 2, 1](2,)", string(buf))
		assert.Equal(t, tc.allocs, renderAllocs(t, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) }))
	}
	tpl, err := New().Parse("t", "{% set rest = xs[1:] %}{{ xs.pop(1) }}{{ rest.append(9) }}{{ xs }}{{ rest }}")
	require.NoError(t, err)
	out, err := tpl.Render(context.Background(), map[string]Value{"xs": ListV([]Value{IntV(1), IntV(2), IntV(3)})})
	require.NoError(t, err)
	assert.Equal(t, "2None[1, 3][2, 3, 9]", out)
}

// JSONString writes in the render's working memory: a filter built on it
// allocates the str it returns and nothing else.
func TestJSONStringAllocatesItsStrOnly(t *testing.T) {
	w := pyjson.NewWriter(pyjson.Indent(4))
	tojson := func(c *Ctx, v Value, _ []Value, _ []Kwarg) (Value, error) {
		s, err := JSONString(c, v, &w)
		return StrV(s), err
	}
	tpl, err := New(WithFilter("tojson", tojson)).Parse("t", "{{ d|tojson }}|{{ d.f|tojson }}")
	require.NoError(t, err)
	f := NewDict(2)
	f.SetStr("name", StrV("get_weather"))
	f.SetStr("arguments", ListV([]Value{StrV("Paris, France"), IntV(3), FloatV(0.5), NoneV()}))
	d := NewDict(1)
	d.SetStr("f", DictV(f))
	vars := map[string]Value{"d": DictV(d)}
	ctx := context.Background()
	buf, err := tpl.AppendRender(ctx, nil, vars)
	require.NoError(t, err)
	assert.Contains(t, string(buf), "\"Paris, France\",\n")
	assert.Equal(t, 2.0, renderAllocs(t, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) }))
}

// A missing attribute of a namespace or of the loop variable, tested
// ({% if ns.found is defined %}, as chat templates do per message),
// allocates nothing: its Undefined makes its message only when used.
func TestMissingNamespaceAttributeDoesNotAllocate(t *testing.T) {
	for _, opts := range [][]Option{nil, {Sandbox()}} {
		tpl, err := New(opts...).Parse("t", "{% set ns = namespace(a=1) %}{% for x in xs %}{{ ns.b is defined }}{% if ns.b %}Y{% endif %}{% if loop.nothere is undefined %}u{% endif %}{% endfor %}")
		require.NoError(t, err)
		ctx := context.Background()
		allocsFor := func(n int) float64 {
			items := make([]Value, n)
			for i := range items {
				items[i] = IntV(int64(i))
			}
			vars := map[string]Value{"xs": ListV(items)}
			buf, err := tpl.AppendRender(ctx, nil, vars)
			require.NoError(t, err)
			assert.Equal(t, strings.Repeat("Falseu", n), string(buf))
			return renderAllocs(t, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) })
		}
		// the namespace's own allocations, whatever the number of items
		assert.Equal(t, allocsFor(1), allocsFor(20))
	}
}

// A filter's or a call's constant arguments are made once, at compile
// time: {{ xs|keep('a', 1, n=2) }}, f('a', n=1) and {{ ss|join(', ') }}
// pass them without building an argument list per call (join(', ')
// allocates what join alone does), and a filter may keep them (select's
// generator reads them when it is consumed).
func TestConstantArgumentsDoNotAllocate(t *testing.T) {
	var seen []Value
	keep := func(c *Ctx, v Value, args []Value, kw []Kwarg) (Value, error) {
		seen = args
		return IntV(int64(len(args) + len(kw))), nil
	}
	call := FuncV(&Func{Name: "f", Call: func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
		return IntV(int64(len(args) + len(kw))), nil
	}})
	env := New(WithFilter("keep", keep), WithGlobal("f", call))
	vars := map[string]Value{"xs": ListV([]Value{IntV(1), IntV(2), IntV(3)}), "ss": ListV([]Value{StrV("a"), StrV("b")})}
	ctx := context.Background()
	render := func(src string) (string, float64) {
		tpl, err := env.Parse("t", src)
		require.NoError(t, err)
		buf, err := tpl.AppendRender(ctx, nil, vars)
		require.NoError(t, err)
		out := string(buf)
		return out, renderAllocs(t, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) })
	}
	out, _ := render("{{ xs|keep('a', 1, 2.5, true, none, n=2) }}|{{ xs|select('odd')|list }}|{{ xs|keep }}")
	assert.Equal(t, "6|[1, 3]|0", out)
	assert.Nil(t, seen, "no arguments: no list")

	out, allocs := render("{{ xs|keep('a', 1, n=2) }}{{ f('a', n=1) }}")
	assert.Equal(t, "32", out)
	assert.Zero(t, allocs)
	require.Len(t, seen, 2)
	assert.Equal(t, "a", seen[0].s)
	assert.Equal(t, IntV(1), seen[1])
	assert.Equal(t, len(seen), cap(seen), "a callee appending copies")

	out, joinSep := render("{{ ss|join(', ') }}")
	assert.Equal(t, "a, b", out)
	_, join := render("{{ ss|join }}")
	assert.Equal(t, join, joinSep)
}

// A for loop over select, reject, selectattr or rejectattr with constant
// arguments (a chat template picking a message's text or image parts)
// tests each item as it reaches it, with the attribute's path and the
// test looked up at compile time: no generator, no list, nothing
// allocated. With loop in the body it takes the generator as before.
func TestSelectAttrLoopDoesNotAllocate(t *testing.T) {
	part := func(typ, text string) Value {
		d := NewDict(2)
		d.SetStr("type", StrV(typ))
		d.SetStr("text", StrV(text))
		return DictV(d)
	}
	m1, m2 := NewDict(1), NewDict(1)
	m1.SetStr("content", ListV([]Value{part("text", "a"), part("image", ""), part("text", "b")}))
	m2.SetStr("content", StrV("hi"))
	vars := map[string]Value{"messages": ListV([]Value{DictV(m1), DictV(m2)}), "xs": ListV([]Value{IntV(1), IntV(2), IntV(3)})}
	for _, opts := range [][]Option{nil, {Sandbox()}} {
		tpl, err := New(opts...).Parse("t", "{% for m in messages %}{% for c in m['content']|selectattr('type', 'equalto', 'text') %}{{ c.text }}{% endfor %}"+
			"{% for c in m.content|rejectattr('type', 'eq', 'text') %}[{{ c.type }}]{% else %}-{% endfor %}{% endfor %}|"+
			"{% for x in xs|select('odd') %}{{ x }}{% endfor %}{% for x in xs|reject %}{{ x }}{% else %}E{% endfor %}")
		require.NoError(t, err)
		ctx := context.Background()
		buf, err := tpl.AppendRender(ctx, nil, vars)
		require.NoError(t, err)
		assert.Equal(t, "ab[image][][]|13E", string(buf), "a str's characters have no type")
		assert.Zero(t, renderAllocs(t, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) }))
	}
}

// The same loop whose arguments after the test's name are not constants
// (096's param_fields.keys()|reject("in", handled_keys)) evaluates them
// once per loop, where the filter's call would, and makes no generator;
// a builtin test keeps no argument, so they are evaluated into the Ctx's
// stack of them (pushArgs) and the loops allocate nothing; a dict's
// keys() or values() as the source are read in place, without the view.
// A test of the Env's own may keep its arguments: one allocation, the
// arguments', per loop.
func TestSelectLoopWithArgumentsAllocatesOnce(t *testing.T) {
	d := NewDict(3)
	d.SetStr("type", IntV(1))
	d.SetStr("x", IntV(2))
	d.SetStr("enum", IntV(3))
	vars := map[string]Value{"d": DictV(d), "ks": ListV([]Value{StrV("type"), StrV("enum")}), "xs": ListV([]Value{IntV(1), IntV(5)}), "n": IntV(2)}
	tpl, err := New().Parse("t", "{% for k in d|reject('in', ks) %}{{ k }}{% endfor %}|{% for x in xs|select('gt', n) %}{{ x }}{% endfor %}"+
		"|{% for k in d.keys()|reject('in', ks) %}{{ k }}{% endfor %}|{% for v in d.values()|select('odd') %}{{ v }}{% endfor %}")
	require.NoError(t, err)
	ctx := context.Background()
	buf, err := tpl.AppendRender(ctx, nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "x|5|x|13", string(buf))
	assert.Equal(t, 0.0, renderAllocs(t, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) }), "d.keys() and d.values() read in place")

	var kept [][]Value
	own := New(WithTest("among", func(_ *Ctx, v Value, args []Value, _ []Kwarg) (bool, error) {
		kept = append(kept, args)
		for _, it := range args[0].list().Items {
			if Equal(it, v) {
				return true, nil
			}
		}
		return false, nil
	}))
	tpl, err = own.Parse("t", "{% for x in xs|select('among', ys) %}{% for y in xs|reject('in', zs) %}{{ x }}{{ y }},{% endfor %}{% endfor %}")
	require.NoError(t, err)
	buf, err = tpl.AppendRender(ctx, buf[:0], map[string]Value{"xs": ListV([]Value{IntV(1), IntV(5)}), "ys": ListV([]Value{IntV(5)}), "zs": ListV([]Value{IntV(1)})})
	require.NoError(t, err)
	assert.Equal(t, "55,", string(buf))
	require.NotEmpty(t, kept)
	for _, args := range kept {
		assert.Equal(t, "[5]", Repr(args[0]), "a test of the Env's own keeps arguments no later loop writes over")
	}
}

// A dict's items as tuples (110's tool.items() with a loop filter and
// loop.last, |items, dictsort) take three allocations whatever their
// number: the list, the pairs' items, the tuples (two a pair before:
// 15 for the loop, 37 for the second template).
func TestDictItemsShareArrays(t *testing.T) {
	d := NewDict(4)
	for _, k := range []string{"name", "description", "parameters", "return"} {
		d.SetStr(k, StrV(k[:2]))
	}
	vars := map[string]Value{"d": DictV(d)}
	tpl, err := New().Parse("t", "{% for k, v in d.items() if k != 'return' %}{{ k }}={{ v }}{{ '' if loop.last else ',' }}{% endfor %}")
	require.NoError(t, err)
	ctx := context.Background()
	buf, err := tpl.AppendRender(ctx, nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "name=na,description=de,parameters=pa", string(buf))
	all := renderAllocs(t, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) })
	items, err := New().Parse("t", "{{ d|items|list|length }}{{ d|dictsort|length }}")
	require.NoError(t, err)
	buf, err = items.AppendRender(ctx, buf[:0], vars)
	require.NoError(t, err)
	assert.Equal(t, "44", string(buf))
	assert.LessOrEqual(t, all, 9.0)
	assert.LessOrEqual(t, renderAllocs(t, func() { buf, _ = items.AppendRender(ctx, buf[:0], vars) }), 25.0)
}

// A slice an expression keeps for the next evaluation (constStrSlice's
// memo) is the slice of that evaluation's items: other lists in turn,
// empty slices, tuples, and a list of the same length written over in
// place; and a template that names sameas makes a new list at each
// evaluation, as Python does. Expectations are Jinja2 3.1.6's.
func TestSliceMemo(t *testing.T) {
	env := New(Sandbox())
	tpl, err := env.Parse("t", "{% for i in range(2) %}{{ xs[1:] }}{{ xs[:-1] }}{{ xs[5:] }}{{ ts[-1:] }}{% endfor %}")
	require.NoError(t, err)
	ctx := context.Background()
	xs := []Value{IntV(1), IntV(2), IntV(3)}
	for _, tc := range []struct {
		vars map[string]Value
		want string
	}{
		{map[string]Value{"xs": ListV(xs), "ts": TupleV([]Value{IntV(1), IntV(2)})}, "[2, 3][1, 2][](2,)[2, 3][1, 2][](2,)"},
		{map[string]Value{"xs": ListV([]Value{IntV(4)}), "ts": TupleV(nil)}, "[][][]()[][][]()"},
		{map[string]Value{"xs": ListV(xs[:2]), "ts": ListV(xs)}, "[2][1][][3][2][1][][3]"},
		{map[string]Value{"xs": ListV(xs), "ts": ListV(xs)}, "[2, 3][1, 2][][3][2, 3][1, 2][][3]"},
	} {
		out, err := tpl.Render(ctx, tc.vars)
		require.NoError(t, err)
		assert.Equal(t, tc.want, out)
	}
	xs[1] = StrV("b")
	out, err := tpl.Render(ctx, map[string]Value{"xs": ListV(xs), "ts": TupleV(xs)})
	require.NoError(t, err)
	assert.Equal(t, "['b', 3][1, 'b'][](3,)['b', 3][1, 'b'][](3,)", out)

	tpl, err = env.Parse("s", "{% set ns = namespace(prev=none) %}{% for i in range(2) %}{% set cur = xs[1:] %}"+
		"{{ cur is sameas ns.prev }}{% set ns.prev = cur %}{% endfor %}")
	require.NoError(t, err)
	out, err = tpl.Render(ctx, map[string]Value{"xs": ListV(xs)})
	require.NoError(t, err)
	assert.Equal(t, "FalseFalse", out)
}

// A loop with a filter and loop (`for k, v in d.items() if k != "x"`,
// `loop.last`) keeps its filter's state in the Ctx, as loop states are
// kept, and the room of its kept items too; d.items()'s pairs, which the
// body sees only unpacked, are made in the Ctx's room for them
// (pushPairs): it allocates nothing. Each render starts from a clean
// state: the next render, on other data, prints its own items.
func TestFilteredLoopStateKeptInCtx(t *testing.T) {
	src := "{% for k, v in d.items() if k != 'x' %}{{ k }}={{ v }}{% if not loop.last %},{% endif %}{% endfor %}" +
		"|{% for s in ss if s %}{{ s }}{{ loop.last }}{% endfor %}"
	tpl, err := New(Sandbox()).Parse("t", src)
	require.NoError(t, err)
	d := NewDict(3)
	d.SetStr("a", IntV(1))
	d.SetStr("x", IntV(2))
	d.SetStr("b", IntV(3))
	vars := map[string]Value{"d": DictV(d), "ss": ListV([]Value{StrV("p"), StrV(""), StrV("q"), StrV("")})}
	ctx := context.Background()
	buf, err := tpl.AppendRender(ctx, nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "a=1,b=3|pFalseqTrue", string(buf))
	assert.Equal(t, float64(0), renderAllocs(t, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) }))
	d2 := NewDict(2)
	d2.SetStr("x", IntV(0))
	d2.SetStr("c", IntV(4))
	buf, err = tpl.AppendRender(ctx, buf[:0], map[string]Value{"d": DictV(d2), "ss": ListV([]Value{StrV(""), StrV("r")})})
	require.NoError(t, err)
	assert.Equal(t, "c=4|rTrue", string(buf))
}

// namespace(…) with keywords that are not constants (Qwen3's
// namespace(multi_step_tool=true, last_query_index=messages|length - 1))
// evaluates them in its caller's frame, not into a new slice: with the
// namespace from the Ctx's room, the render allocates nothing.
func TestNamespaceArgsAllocNothing(t *testing.T) {
	tpl, err := New(Sandbox()).Parse("t", "{% set ns = namespace(multi_step_tool=true, last_query_index=ms|length - 1) %}"+
		"{% for m in ms %}{% set n2 = namespace(i=loop.index, r=m) %}{{ n2.i ~ n2.r }}{% endfor %}{{ ns.last_query_index }}")
	require.NoError(t, err)
	vars := map[string]Value{"ms": ListV([]Value{StrV("a"), StrV("b")})}
	ctx := context.Background()
	buf, err := tpl.AppendRender(ctx, nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "1a2b1", string(buf))
	assert.Equal(t, float64(0), renderAllocs(t, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) }))
}

// A loop over a slice of a list with constant bounds, whose loop
// variable does not outlive it (Qwen3's {% for message in
// messages[::-1] %} reading loop.index0), takes the slice from the Ctx's
// room: the render allocates nothing.
func TestSlicedLoopAllocNothing(t *testing.T) {
	tpl, err := New(Sandbox()).Parse("t", "{% for m in ms[::-1] %}{{ m ~ loop.index0 }}{% endfor %}|{% for m in ms[1:] if m %}{{ m }}{% if not loop.last %},{% endif %}{% endfor %}")
	require.NoError(t, err)
	vars := map[string]Value{"ms": ListV([]Value{StrV("a"), StrV("b"), StrV("c")})}
	ctx := context.Background()
	buf, err := tpl.AppendRender(ctx, nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "c0b1a2|b,c", string(buf))
	assert.Equal(t, float64(0), renderAllocs(t, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) }))
}

// x.split(sep)[-1] and [0] of a str (the reasoning templates'
// content.split('</think>')[-1].lstrip('\n')) take the piece without the
// list of pieces: the render allocates nothing.
func TestSplitPieceAllocNothing(t *testing.T) {
	tpl, err := New(Sandbox()).Parse("t", "{% for m in ms %}{% set c = m.split('</think>')[-1].lstrip('\\n') %}"+
		"{{ c ~ '|' ~ m.split('</think>')[0] }};{% endfor %}")
	require.NoError(t, err)
	vars := map[string]Value{"ms": ListV([]Value{StrV("<think>r</think>\n\na"), StrV("b")})}
	ctx := context.Background()
	buf, err := tpl.AppendRender(ctx, nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "a|<think>r;b|b;", string(buf))
	assert.Equal(t, float64(0), renderAllocs(t, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) }))
}

// x|selectattr(…)|list over a list makes the list alone (its items and
// the List), not the generator, its source and closures, and a copy of
// what the generator gave (transformers' Mistral templates:
// loop_messages | selectattr("role", "equalto", "user") | list).
func TestSelectListMakesTheListAlone(t *testing.T) {
	tpl, err := New(Sandbox()).Parse("t", "{% set u = ms|selectattr('role', 'equalto', 'user')|list %}{{ u|length }}{{ u[-1].c }}")
	require.NoError(t, err)
	m := func(role, c string) Value {
		d := NewDict(2)
		d.SetStr("role", StrV(role))
		d.SetStr("c", StrV(c))
		return DictV(d)
	}
	vars := map[string]Value{"ms": ListV([]Value{m("user", "a"), m("assistant", "b"), m("user", "c")})}
	ctx := context.Background()
	buf, err := tpl.AppendRender(ctx, nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "2c", string(buf))
	assert.Equal(t, float64(2), renderAllocs(t, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) }))
}
