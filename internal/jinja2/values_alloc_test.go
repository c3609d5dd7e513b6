package jinja2

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The operations a render runs most take Values by value and allocate
// nothing for ints, short strings and lookups.
func TestHotPathsDoNotAllocate(t *testing.T) {
	d := NewDict(4)
	d.SetStr("role", StrV("user"))
	d.SetStr("content", StrV("hi"))
	dv := DictV(d)
	big := NewDict(20)
	for _, k := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		big.SetStr(k, IntV(1))
	}
	bv := DictV(big)
	l := ListV([]Value{IntV(1), IntV(2), IntV(3)})
	cases := map[string]func(){
		"int +":          func() { _, _ = BinOp(nil, "+", IntV(40), IntV(2)) },
		"int //":         func() { _, _ = BinOp(nil, "//", IntV(-7), IntV(2)) },
		"float *":        func() { _, _ = BinOp(nil, "*", FloatV(1.5), IntV(2)) },
		"compare ints":   func() { _, _ = Compare(nil, "<", IntV(1), IntV(2)) },
		"compare strs":   func() { _, _ = Compare(nil, "==", StrV("user"), StrV("user")) },
		"in list":        func() { _, _ = Compare(nil, "in", IntV(3), l) },
		"dict attribute": func() { _, _ = GetAttr(nil, dv, "role") },
		"dict item":      func() { _, _ = GetItem(nil, dv, StrV("content")) },
		"big dict item":  func() { _, _ = GetItem(nil, bv, StrV("k")) },
		"list index":     func() { _, _ = GetItem(nil, l, IntV(-1)) },
		"truth":          func() { _ = dv.Truth() },
		"str of str":     func() { _, _ = ToStr(nil, StrV("x")) },
		"len":            func() { _, _ = Len(l) },
		"iterate list":   func() { _, _ = Iterate(nil, l) },
	}
	for name, f := range cases {
		assert.Zero(t, testing.AllocsPerRun(100, f), name)
	}
}

// Printing a float, list or dict writes its repr into the output: a render
// into a reused buffer allocates nothing for it, however deep the nesting.
func TestPrintContainerDoesNotAllocate(t *testing.T) {
	item := NewDict(3)
	item.SetStr("description", StrV("Trail Tent, 2 person, it's $249.99\n"))
	item.SetStr("item_number", IntV(303030))
	item.SetStr("price", FloatV(249.99))
	order := NewDict(2)
	order.SetStr("items", ListV([]Value{DictV(item), TupleV([]Value{NoneV(), BoolV(true)})}))
	order.SetStr("date", StrV("2023-05-02 – ü"))
	vars := map[string]Value{"d": DictV(order), "f": FloatV(0.1), "l": ListV([]Value{StrV("a\\b")})}
	tmpl, err := New().Parse("t", "{{ d }}|{{ f }}|{{ l }}")
	require.NoError(t, err)
	buf, err := tmpl.AppendRender(context.Background(), nil, vars)
	require.NoError(t, err)
	assert.Equal(t, `{'items': [{'description': "Trail Tent, 2 person, it's $249.99\n", 'item_number': 303030, 'price': 249.99}, (None, True)], 'date': '2023-05-02 – ü'}|0.1|['a\\b']`, string(buf))
	assert.Zero(t, renderAllocs(t, func() {
		buf, _ = tmpl.AppendRender(context.Background(), buf[:0], vars)
	}))
}

// A macro printed by {{ m(…) }} or by a call block writes its body into
// the output: a render allocates the macros (their definitions, the call
// block's caller) and nothing per call.
func TestPrintMacroCallDoesNotAllocate(t *testing.T) {
	tmpl, err := New().Parse("t", `{% macro m(a, b=1) %}<{{ a }}{{ b }}>{% endmacro %}{% macro w(n) %}({{ caller() }}{{ n }}){% endmacro %}`+
		`{{ m(x) }}{{ m(x, b=y) }}{% call w(y) %}[{{ m(x) }}]{% endcall %}`)
	require.NoError(t, err)
	vars := map[string]Value{"x": StrV("X"), "y": IntV(2)}
	buf, err := tmpl.AppendRender(context.Background(), nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "<X1><X2>([<X1>]2)", string(buf))
	assert.Equal(t, 3.0, renderAllocs(t, func() {
		buf, _ = tmpl.AppendRender(context.Background(), buf[:0], vars)
	}), "m, w and the call block's caller")
}

// A loop over d.items(), d.values() or d.keys() walks the dict in place:
// no view, no list, no pair per item.
func TestLoopOverDictViewDoesNotAllocate(t *testing.T) {
	d := NewDict(3)
	d.SetStr("a", IntV(1))
	d.SetStr("b", StrV("two"))
	d.SetStr("c", ListV([]Value{IntV(3)}))
	tmpl, err := New().Parse("t", `{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}|{% for v in d.values() %}{{ v }}{% endfor %}|{% for k in d.keys() %}{{ loop.index }}{{ k }}{% endfor %}`)
	require.NoError(t, err)
	vars := map[string]Value{"d": DictV(d)}
	buf, err := tmpl.AppendRender(context.Background(), nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "a=1;b=two;c=[3];|1two[3]|1a2b3c", string(buf))
	assert.Zero(t, renderAllocs(t, func() {
		buf, _ = tmpl.AppendRender(context.Background(), buf[:0], vars)
	}))
}

// A loop over d|items (the builtin filter) walks the dict in place, as
// over d.items(): no generator, no list, no pair per item.
func TestLoopOverItemsFilterDoesNotAllocate(t *testing.T) {
	d := NewDict(3)
	d.SetStr("a", IntV(1))
	d.SetStr("b", StrV("two"))
	d.SetStr("c", ListV([]Value{IntV(3)}))
	vars := map[string]Value{"d": DictV(d)}
	for _, opts := range [][]Option{nil, {Sandbox()}} {
		tmpl, err := New(opts...).Parse("t", `{% for k, v in d|items %}{{ k }}={{ v }};{% endfor %}|{% for k, v in nothere|items %}{% else %}none{% endfor %}`)
		require.NoError(t, err)
		buf, err := tmpl.AppendRender(context.Background(), nil, vars)
		require.NoError(t, err)
		assert.Equal(t, "a=1;b=two;c=[3];|none", string(buf))
		tmpl, err = New(opts...).Parse("t", `{% for k, v in d|items %}{{ k }}={{ v }};{% endfor %}`)
		require.NoError(t, err)
		assert.Zero(t, renderAllocs(t, func() {
			buf, _ = tmpl.AppendRender(context.Background(), buf[:0], vars)
		}))
		tmpl, err = New(opts...).Parse("t", `{% for k, v in d.c|items %}{% endfor %}`)
		require.NoError(t, err)
		_, err = tmpl.Render(context.Background(), vars)
		assert.ErrorContains(t, err, "TypeError: Can only get item pairs from a mapping.")
	}
	// An items filter of the caller's is called.
	tmpl, err := New(WithFilter("items", func(c *Ctx, v Value, _ []Value, _ []Kwarg) (Value, error) {
		return ListV([]Value{TupleV([]Value{StrV("k"), StrV("v")})}), nil
	})).Parse("t", `{% for k, v in d|items %}{{ k }}={{ v }};{% endfor %}`)
	require.NoError(t, err)
	out, err := tmpl.Render(context.Background(), vars)
	require.NoError(t, err)
	assert.Equal(t, "k=v;", out)
}

// A builtin test of one argument given by position (is in(seq),
// is eq(x), is divisibleby(n), is sameas(x)) binds it without
// allocating; through select and reject, it binds the filter's argument
// list without a copy.
func TestOneArgumentTestsDoNotAllocate(t *testing.T) {
	tmpl, err := New().Parse("t", `{% if a is in(s) %}in{% endif %}{% if a is eq(b) %}eq{% endif %}{% if a is ne b %}ne{% endif %}`+
		`{% if n is divisibleby(m) %}div{% endif %}{% if z is sameas(none) %}same{% endif %}|`+
		`{{ "w" is not in(skip) }}`)
	require.NoError(t, err)
	vars := map[string]Value{"a": StrV("x"), "b": StrV("x"), "s": ListV([]Value{StrV("w"), StrV("x")}), "n": IntV(4), "m": IntV(2),
		"z": NoneV(), "skip": ListV([]Value{StrV("w")})}
	buf, err := tmpl.AppendRender(context.Background(), nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "ineqdivsame|False", string(buf))
	assert.Zero(t, renderAllocs(t, func() {
		buf, _ = tmpl.AppendRender(context.Background(), buf[:0], vars)
	}))
	// Keywords and missing arguments are bound as before.
	for src, want := range map[string]string{
		`{{ a is in(seq=s) }}`:          "True",
		`{{ n is divisibleby(num=m) }}`: "True",
	} {
		tmpl, err := New().Parse("t", src)
		require.NoError(t, err)
		out, err := tmpl.Render(context.Background(), vars)
		require.NoError(t, err, src)
		assert.Equal(t, want, out, src)
	}
	for src, msg := range map[string]string{
		`{{ a is in }}`:             "test_in() missing 1 required positional argument: 'seq'",
		`{{ a is sameas }}`:         "test_sameas() missing 1 required positional argument: 'other'",
		`{{ a is divisibleby }}`:    "test_divisibleby() missing 1 required positional argument: 'num'",
		`{{ a is in(s, s) }}`:       "test_in() takes 2 positional arguments but 3 were given",
		`{{ a is eq(other=b) }}`:    "_operator.eq() takes no keyword arguments",
		`{{ a is eq(b, other=b) }}`: "_operator.eq() takes no keyword arguments",
		`{{ a is eq(b, b) }}`:       "eq expected 2 arguments, got 3",
	} {
		tmpl, err := New().Parse("t", src)
		require.NoError(t, err)
		_, err = tmpl.Render(context.Background(), vars)
		assert.ErrorContains(t, err, msg, src)
	}
}

// A + chain of strs that is not printed at once builds its str in one
// allocation, not one per + (s goes to a filter, so it is no str of the
// render's arena: compile_arena.go).
func TestPlusChainAllocatesOnce(t *testing.T) {
	tpl, err := New().Parse("t", "{% set s = '<' + a + '|' + b|trim + '>' %}{{ s|trim }}")
	require.NoError(t, err)
	vars := map[string]Value{"a": StrV("user"), "b": StrV(" hi ")}
	ctx := context.Background()
	buf, err := tpl.AppendRender(ctx, nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "<user|hi>", string(buf))
	assert.Equal(t, 1.0, renderAllocs(t, func() { buf, _ = tpl.AppendRender(ctx, buf[:0], vars) }))
}

// A dict set item by item (namespace attributes, {% set ns.x %}) grows its
// keys and values together, in one allocation, from room for four: one
// allocation for the first four items, not six.
func TestDictGrowsFromFour(t *testing.T) {
	keys := []Value{StrV("a"), StrV("b"), StrV("c"), StrV("d")}
	allocs := testing.AllocsPerRun(100, func() {
		d := &Dict{}
		for _, k := range keys {
			_ = d.SetKey(k, IntV(1))
		}
	})
	assert.Equal(t, 1.0, allocs)
}

// A printed ~ chain writes its ints and floats without making their str.
func TestPrintConcatNumbersDoesNotAllocate(t *testing.T) {
	tmpl, err := New().Parse("t", `{{ 'n=' ~ n ~ ', f=' ~ x ~ ', big=' ~ b }}`)
	require.NoError(t, err)
	vars := map[string]Value{"n": IntV(-42), "x": FloatV(2.5e-7), "b": FloatV(1e22)}
	buf, err := tmpl.AppendRender(context.Background(), nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "n=-42, f=2.5e-07, big=1e+22", string(buf))
	assert.Zero(t, renderAllocs(t, func() {
		buf, _ = tmpl.AppendRender(context.Background(), buf[:0], vars)
	}))
}

// A filter or test with arguments binds them in stack memory: bind made
// two slices a call (bind1's one-argument tests made none already); the
// list of constant arguments is made once, at compile time (it was the
// three allocations left).
func TestFilterArgumentsBindInPlace(t *testing.T) {
	tmpl, err := New().Parse("t", `{{ x|default('a') }}|{{ n is divisibleby(3) }}|{{ n is eq(9) }}|`+
		`{{ x|default('a', boolean=true) }}|{{ 'b' is in(x) }}`)
	require.NoError(t, err)
	vars := map[string]Value{"x": StrV("-b-"), "n": IntV(9)}
	buf, err := tmpl.AppendRender(context.Background(), nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "-b-|True|True|-b-|True", string(buf))
	assert.Zero(t, renderAllocs(t, func() {
		buf, _ = tmpl.AppendRender(context.Background(), buf[:0], vars)
	}))
}

// The truth of x.values()|list (items, keys) of a dict is whether it has
// items: no view and no list (smolagents' {% if managed_agents and
// managed_agents.values() | list %}); of anything else, what the call and
// the filter give (outputs and errors from Python's Jinja2 3.1).
func TestViewListCondDoesNotAllocate(t *testing.T) {
	tmpl, err := New().Parse("t", `{% if d.values()|list %}y{% else %}n{% endif %}{% if d.items()|list and not e.keys()|list %}Y{% endif %}`)
	require.NoError(t, err)
	full := NewDict(1)
	full.SetStr("a", IntV(1))
	for _, tc := range []struct {
		d    *Dict
		want string
	}{{full, "yY"}, {NewDict(0), "n"}} {
		vars := map[string]Value{"d": DictV(tc.d), "e": DictV(NewDict(0))}
		buf, err := tmpl.AppendRender(context.Background(), nil, vars)
		require.NoError(t, err)
		assert.Equal(t, tc.want, string(buf))
		assert.Zero(t, renderAllocs(t, func() {
			buf, _ = tmpl.AppendRender(context.Background(), buf[:0], vars)
		}))
	}
	for src, msg := range map[string]string{
		`{% if s.keys()|list %}y{% endif %}`: `'str object' has no attribute 'keys'`,
		`{% if u.keys()|list %}y{% endif %}`: `'u' is undefined`,
	} {
		tmpl, err := New().Parse("t", src)
		require.NoError(t, err)
		_, err = tmpl.Render(context.Background(), map[string]Value{"s": StrV("ab")})
		var e *Error
		require.ErrorAs(t, err, &e, src)
		assert.Equal(t, "UndefinedError", e.Kind, src)
		assert.Equal(t, msg, e.Msg, src)
	}
}

// namespace() and setting its attributes allocate nothing once the
// render's Ctx has held a namespace as large (Ctx.newSpace: it was one
// allocation for the namespace and its dict, and another for its first
// attribute's keys and values), and reading an attribute none.
func TestNamespaceAllocs(t *testing.T) {
	tmpl, err := New(Sandbox()).Parse("t", `{% set ns = namespace() %}{% set ns.a = 1 %}{% set ns.b = x %}{% set ns.c = 3 %}{{ ns.a }}{{ ns.b }}{{ ns.c }}`)
	require.NoError(t, err)
	vars := map[string]Value{"x": StrV("two")}
	buf, err := tmpl.AppendRender(context.Background(), nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "1two3", string(buf))
	assert.Zero(t, renderAllocs(t, func() {
		buf, _ = tmpl.AppendRender(context.Background(), buf[:0], vars)
	}))
	assert.Equal(t, "1two3", string(buf))
}

// {{ x.capitalize() }}, .upper() and .lower() of an ASCII str write the
// changed bytes into the output as the filters do: no str per print
// (OpenHands' failing_checks_prompt prints {{ ciSystem.lower() }}).
func TestPrintCaseMethodDoesNotAllocate(t *testing.T) {
	tmpl, err := New().Parse("t", `{% for r in rs %}{{ r.capitalize() }}:{{ r.upper() }}:{{ r.lower() }}|{% endfor %}`)
	require.NoError(t, err)
	vars := map[string]Value{"rs": ListV([]Value{StrV("user"), StrV("ASSISTANT"), StrV("tOOL")})}
	buf, err := tmpl.AppendRender(context.Background(), nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "User:USER:user|Assistant:ASSISTANT:assistant|Tool:TOOL:tool|", string(buf))
	assert.Zero(t, renderAllocs(t, func() {
		buf, _ = tmpl.AppendRender(context.Background(), buf[:0], vars)
	}))
}

// Printing x.lower() (upper, capitalize) of anything but an ASCII str
// outside autoescape is the call's value printed, as Jinja2 prints it.
func TestPrintCaseMethodOtherValues(t *testing.T) {
	d := NewDict(1)
	d.SetStr("lower", FuncV(&Func{Name: "lower", Call: func(*Ctx, []Value, []Kwarg) (Value, error) { return StrV("<item>"), nil }}))
	for _, tc := range []struct {
		name, src, want string
		vars            map[string]Value
		opts            []Option
	}{
		{"non-ASCII", `{{ x.upper() }}|{{ x.capitalize() }}`, "STRASSE Ǆ|Straße ǆ", map[string]Value{"x": StrV("straße Ǆ")}, nil},
		{"dict item", `{{ d.lower() }}`, "<item>", map[string]Value{"d": DictV(d)}, nil},
		{"Markup autoescaped", `{{ x.lower() }}{{ y.upper() }}`, "<b>&lt;I&gt;", map[string]Value{"x": SafeV("<B>"), "y": StrV("<i>")}, []Option{Autoescape(nil)}},
		{"sandbox", `{{ x.upper() }}`, "AB", map[string]Value{"x": StrV("ab")}, []Option{Sandbox()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmpl, err := New(tc.opts...).Parse("t", tc.src)
			require.NoError(t, err)
			got, err := tmpl.Render(context.Background(), tc.vars)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	tmpl, err := New().Parse("t", `{{ n.lower() }}`)
	require.NoError(t, err)
	_, err = tmpl.Render(context.Background(), map[string]Value{"n": IntV(1)})
	assert.EqualError(t, err, "t:1:11: UndefinedError: 'int object' has no attribute 'lower'")
}

// {{ x|capitalize }}, |upper and |lower of an ASCII str write the changed
// bytes into the output: no str per print (distilabel's urial prompt
// capitalizes every message's role).
func TestPrintCaseFilterDoesNotAllocate(t *testing.T) {
	tmpl, err := New().Parse("t", `{% for m in ms %}{{ m.role|capitalize }}:{{ m.role|upper }}:{{ m.role|lower }}|{% endfor %}`)
	require.NoError(t, err)
	msgs := []Value{}
	for _, r := range []string{"user", "ASSISTANT", "tOOL"} {
		d := NewDict(1)
		d.SetStr("role", StrV(r))
		msgs = append(msgs, DictV(d))
	}
	vars := map[string]Value{"ms": ListV(msgs)}
	buf, err := tmpl.AppendRender(context.Background(), nil, vars)
	require.NoError(t, err)
	assert.Equal(t, "User:USER:user|Assistant:ASSISTANT:assistant|Tool:TOOL:tool|", string(buf))
	assert.Zero(t, renderAllocs(t, func() {
		buf, _ = tmpl.AppendRender(context.Background(), buf[:0], vars)
	}))
}

// A slice whose bounds are int constants and whose step is omitted
// (mini-swe-agent's {{ output.output[-5000:] }}) cuts an ASCII str between
// two offsets; every other value takes Slice. Expected outputs are Python
// Jinja2 3.1's.
func TestConstBoundsSlice(t *testing.T) {
	src := `{{ s[:3] }}|{{ s[-3:] }}|{{ s[2:-1] }}|{{ s[5:2] }}|{{ s[-100:] }}|{{ s[:100] }}|{{ s[-2:-5] }}|{{ s[:] }}|{{ s[1:] }}`
	tmpl, err := New().Parse("t", src)
	require.NoError(t, err)
	for _, tc := range []struct {
		s    Value
		want string
	}{
		{StrV("abcdefg"), "abc|efg|cdef||abcdefg|abcdefg||abcdefg|bcdefg"},
		{StrV("héllo wörld"), "hél|rld|llo wörl||héllo wörld|héllo wörld||héllo wörld|éllo wörld"},
		{SafeV("<b>x</b>"), "<b>|/b>|>x</b||<b>x</b>|<b>x</b>||<b>x</b>|b>x</b>"},
		{ListV([]Value{IntV(1), IntV(2), IntV(3), IntV(4), IntV(5), IntV(6)}), "[1, 2, 3]|[4, 5, 6]|[3, 4, 5]|[]|[1, 2, 3, 4, 5, 6]|[1, 2, 3, 4, 5, 6]|[]|[1, 2, 3, 4, 5, 6]|[2, 3, 4, 5, 6]"},
		{TupleV([]Value{IntV(1), IntV(2), IntV(3)}), "(1, 2, 3)|(1, 2, 3)|()|()|(1, 2, 3)|(1, 2, 3)|()|(1, 2, 3)|(2, 3)"},
	} {
		got, err := tmpl.Render(context.Background(), map[string]Value{"s": tc.s})
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
	}
	esc, err := New(Autoescape(nil)).Parse("t", `{{ s[:3] }}{{ u[1:4] }}`)
	require.NoError(t, err)
	got, err := esc.Render(context.Background(), map[string]Value{"s": SafeV("<b>x</b>"), "u": StrV("<i>yy")})
	require.NoError(t, err)
	assert.Equal(t, "<b>i&gt;y", got)
	one, err := New().Parse("t", `{{ s[:3] }}`)
	require.NoError(t, err)
	for _, tc := range []struct {
		vars map[string]Value
		want string
	}{
		{map[string]Value{"s": IntV(5)}, "t:1:5: TypeError: 'int' object is not subscriptable"},
		{map[string]Value{"s": DictV(NewDict(0))}, "t:1:5: TypeError: unhashable type: 'slice'"},
		{map[string]Value{"s": NoneV()}, "t:1:5: TypeError: 'NoneType' object is not subscriptable"},
		{nil, "t:1:5: UndefinedError: 's' is undefined"},
	} {
		_, err := one.Render(context.Background(), tc.vars)
		assert.EqualError(t, err, tc.want)
	}
}
