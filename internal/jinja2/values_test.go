package jinja2

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func errKind(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind + ": " + e.Msg
	}
	if err != nil {
		return err.Error()
	}
	return ""
}

// The messages are Jinja2 3.1's, from python3 with jinja2 3.1.6.
func TestLookupsGiveJinja2Undefined(t *testing.T) {
	d := DictV(NewDict(0))
	l := ListV(nil)
	cases := []struct {
		name string
		get  func() (Value, error)
		want string // the message of using the result
	}{
		{"dict attribute", func() (Value, error) { return GetAttr(nil, d, "y") }, "UndefinedError: 'dict object' has no attribute 'y'"},
		{"dict element", func() (Value, error) { return GetItem(nil, d, IntV(0)) }, "UndefinedError: dict object has no element 0"},
		{"list element", func() (Value, error) { return GetItem(nil, l, IntV(5)) }, "UndefinedError: list object has no element 5"},
		{"None attribute", func() (Value, error) { return GetAttr(nil, NoneV(), "y") }, "UndefinedError: 'None' has no attribute 'y'"},
		{"str attribute", func() (Value, error) { return GetAttr(nil, StrV(""), "y") }, "UndefinedError: 'str object' has no attribute 'y'"},
		{"list item by str", func() (Value, error) { return GetItem(nil, l, StrV("a")) }, "UndefinedError: 'list object' has no attribute 'a'"},
		{"undefined name", func() (Value, error) { return UndefName("x"), nil }, "UndefinedError: 'x' is undefined"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := tc.get()
			require.NoError(t, err)
			assert.True(t, v.IsUndefined())
			s, err := ToStr(nil, v)
			require.NoError(t, err)
			assert.Equal(t, "", s)
			assert.False(t, v.Truth())
			_, err = BinOp(nil, "+", v, IntV(1))
			assert.Equal(t, tc.want, errKind(err))
			_, err = GetAttr(nil, v, "z")
			assert.Equal(t, tc.want, errKind(err))
		})
	}
}

func TestUndefinedBehavesAsJinja2(t *testing.T) {
	u := UndefName("x")
	items, err := Iterate(nil, u)
	require.NoError(t, err)
	assert.Empty(t, items)
	n, err := Len(u)
	require.NoError(t, err)
	assert.Equal(t, 0, n)
	eq, err := Compare(nil, "==", u, UndefName("y"))
	require.NoError(t, err)
	assert.True(t, eq)
	eq, err = Compare(nil, "==", u, NoneV())
	require.NoError(t, err)
	assert.False(t, eq)
	_, err = Compare(nil, "<", u, IntV(1))
	assert.Equal(t, "UndefinedError: 'x' is undefined", errKind(err))
	in, err := Compare(nil, "in", IntV(1), u)
	require.NoError(t, err)
	assert.False(t, in)
	assert.Equal(t, "Undefined", Repr(u))
}

func TestGetAttrPrefersAttributeGetItemPrefersItem(t *testing.T) {
	d := NewDict(0)
	d.Set(StrV("items"), StrV("key"))
	d.Set(StrV("a"), IntV(1))
	dv := DictV(d)
	v, err := GetAttr(nil, dv, "items")
	require.NoError(t, err)
	assert.Equal(t, KindFunc, v.Kind())
	v, err = GetItem(nil, dv, StrV("items"))
	require.NoError(t, err)
	assert.Equal(t, "'key'", Repr(v))
	v, err = GetAttr(nil, dv, "a")
	require.NoError(t, err)
	assert.Equal(t, "1", Repr(v))
	v, err = GetItem(nil, ListV([]Value{IntV(1), IntV(2)}), IntV(-1))
	require.NoError(t, err)
	assert.Equal(t, "2", Repr(v))
	v, err = GetItem(nil, StrV("héllo"), IntV(1))
	require.NoError(t, err)
	assert.Equal(t, "'é'", Repr(v))
}

func TestSliceAsPython(t *testing.T) {
	// python3: 'héllo'[::-1], 'héllo'[1:3], [1,2,3,4][-5000:], [1,2,3,4][::2], 'abc'[5:], [1,2,3][:-1]
	s := StrV("héllo")
	l := ListV([]Value{IntV(1), IntV(2), IntV(3), IntV(4)})
	cases := []struct {
		v                 Value
		start, stop, step Value
		want              string
	}{
		{s, Value{}, Value{}, IntV(-1), "'olléh'"},
		{s, IntV(1), IntV(3), Value{}, "'él'"},
		{l, IntV(-5000), Value{}, Value{}, "[1, 2, 3, 4]"},
		{l, Value{}, Value{}, IntV(2), "[1, 3]"},
		{StrV("abc"), IntV(5), Value{}, Value{}, "''"},
		{l, Value{}, IntV(-1), Value{}, "[1, 2, 3]"},
		{l, IntV(3), IntV(0), IntV(-1), "[4, 3, 2]"},
		{TupleV([]Value{IntV(1), IntV(2)}), IntV(1), Value{}, Value{}, "(2,)"},
	}
	for _, tc := range cases {
		got, err := Slice(nil, tc.v, tc.start, tc.stop, tc.step)
		require.NoError(t, err)
		assert.Equal(t, tc.want, Repr(got))
	}
	_, err := Slice(nil, l, Value{}, Value{}, IntV(0))
	assert.Equal(t, "ValueError: slice step cannot be zero", errKind(err))
}

func TestFromGo(t *testing.T) {
	type tool struct {
		Name   string `json:"name"`
		Params map[string]any
		hidden int
	}
	v := FromGo(map[string]any{
		"b": []any{1, 2.0, "it's", nil, true},
		"a": tool{Name: "t", Params: map[string]any{"x": uint64(1 << 63)}, hidden: 1},
	})
	assert.Regexp(t, `^\{'a': <tool object at 0x[0-9a-f]+>, 'b': \[1, 2\.0, "it's", None, True\]\}$`, Repr(v))
	a, err := GetItem(nil, v, StrV("a"))
	require.NoError(t, err)
	name, err := GetAttr(nil, a, "name")
	require.NoError(t, err)
	assert.Equal(t, "'t'", Repr(name))
	name, err = GetAttr(nil, a, "Name")
	require.NoError(t, err)
	assert.Equal(t, "'t'", Repr(name))
	p, err := GetAttr(nil, a, "Params")
	require.NoError(t, err)
	assert.Equal(t, "{'x': 9223372036854775808}", Repr(p))
	h, err := GetAttr(nil, a, "hidden")
	require.NoError(t, err)
	assert.True(t, h.IsUndefined())
}

// A Go map keyed by structs (or pointers to them) converts with its keys
// in one order every time, in a template's render as by FromGo: their
// reprs hold the addresses of the objects made for them at each
// conversion, which followed the map's random order.
func TestFromGoStructKeysInOneOrder(t *testing.T) {
	type key struct{ A int }
	byValue, byPointer := map[key]int{}, map[*key]int{}
	for i := range 12 {
		byValue[key{i}] = i
		byPointer[&key{i}] = i
	}
	holder := struct{ M map[key]int }{byValue}
	tmpl, err := New().Parse("t", "{% for k, v in h.M|items %}{{ v }},{% endfor %}")
	require.NoError(t, err)
	for name, conv := range map[string]func() (string, error){
		"FromGo, values": func() (string, error) {
			v := FromGo(byValue)
			return Repr(ListV(v.dict().vals)), nil
		},
		"FromGo, pointers": func() (string, error) {
			v := FromGo(byPointer)
			return Repr(ListV(v.dict().vals)), nil
		},
		"a struct's field": func() (string, error) {
			return tmpl.Render(context.Background(), map[string]Value{"h": FromGo(&holder)})
		},
	} {
		first, err := conv()
		require.NoError(t, err, name)
		for range 20 {
			again, err := conv()
			require.NoError(t, err, name)
			require.Equal(t, first, again, name)
		}
	}
}

// TestFromGoRawJSON: a json.RawMessage is what json.loads reads from its
// text (python3: repr(json.loads(text))), at the top, inside a map or
// slice and as a struct's field; text that is not JSON is a str.
func TestFromGoRawJSON(t *testing.T) {
	type doc struct{ Meta json.RawMessage }
	for _, tc := range []struct {
		v    any
		want string
	}{
		{json.RawMessage(`{"b": [1, 2.0, null, true], "a": 100000000000000000000, "c": 1e400}`), "{'b': [1, 2.0, None, True], 'a': 100000000000000000000, 'c': inf}"},
		{json.RawMessage(`"it's"`), `"it's"`},
		{json.RawMessage(`[]`), "[]"},
		{json.RawMessage(`{not json`), "'{not json'"},
		{json.RawMessage(nil), "None"},
		{map[string]any{"d": json.RawMessage(`{"z": 1, "y": 2}`)}, "{'d': {'z': 1, 'y': 2}}"},
		{[]json.RawMessage{[]byte(`{"z": 1, "y": 2}`)}, "[{'z': 1, 'y': 2}]"},
	} {
		assert.Equal(t, tc.want, Repr(FromGo(tc.v)))
	}
	meta, err := GetAttr(nil, FromGo(doc{Meta: json.RawMessage(`{"z": 1, "y": 2}`)}), "Meta")
	require.NoError(t, err)
	assert.Equal(t, "{'z': 1, 'y': 2}", Repr(meta))
}

func TestSandboxUnsafeAttribute(t *testing.T) {
	c := &Ctx{env: New(Sandbox())}
	l := ListV([]Value{IntV(1)})
	v, err := GetAttr(c, l, "append")
	require.NoError(t, err)
	assert.True(t, v.IsUndefined())
	_, err = callValue(c, v, []Value{IntV(2)}, nil)
	assert.Equal(t, "SecurityError: access to attribute 'append' of 'list' object is unsafe.", errKind(err))
	_, err = CallMethod(c, l, "append", []Value{IntV(2)}, nil)
	assert.Equal(t, "SecurityError: access to attribute 'append' of 'list' object is unsafe.", errKind(err))
	v, err = GetAttr(c, DictV(NewDict(0)), "__class__")
	require.NoError(t, err)
	_, err = BinOp(c, "+", v, IntV(1))
	assert.Equal(t, "SecurityError: access to attribute '__class__' of 'dict' object is unsafe.", errKind(err))
}

// TestSandboxGoStructPrivate: a Go struct's field named by a json tag
// such as "_id" is a private attribute the sandbox refuses (outside it,
// the field).
func TestSandboxGoStructPrivate(t *testing.T) {
	type rec struct {
		ID int `json:"_id"`
	}
	c := &Ctx{env: New(Sandbox())}
	v, err := GetAttr(c, FromGo(rec{ID: 7}), "_id")
	require.NoError(t, err)
	_, err = BinOp(c, "+", v, IntV(1))
	assert.Equal(t, "SecurityError: access to attribute '_id' of 'rec' object is unsafe.", errKind(err))
	v, err = GetAttr(nil, FromGo(rec{ID: 7}), "_id")
	require.NoError(t, err)
	assert.Equal(t, "7", Repr(v))
}

func TestStringGrowthIsBounded(t *testing.T) {
	_, err := BinOp(nil, "*", StrV("a"), BigIntV(bigPow10(10)))
	assert.Equal(t, "MemoryError: ", errKind(err))
}

// TestObjectTypeRepr: an Undefined's message names a type as Jinja2's
// object_type_repr does, with its module unless that is builtins.
func TestObjectTypeRepr(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`{{ namespace().a.b }}`, `'jinja2.utils.Namespace object' has no attribute 'a'`},
		{`{{ ('x'|safe).a.b }}`, `'markupsafe.Markup object' has no attribute 'a'`},
		{`{{ cycler(1)[5].b }}`, `jinja2.utils.Cycler object has no element 5`},
		{`{% macro m() %}{% endmacro %}{{ m.a.b }}`, `'jinja2.runtime.Macro object' has no attribute 'a'`},
		{`{{ 'x'.upper.a.b }}`, `'builtin_function_or_method object' has no attribute 'a'`},
		{`{% for x in [1] %}{{ loop.a.b }}{% endfor %}`, `'jinja2.runtime.LoopContext object' has no attribute 'a'`},
		{`{{ [1].a.b }}`, `'list object' has no attribute 'a'`},
	} {
		tpl, err := New().Parse("t", tc.src)
		require.NoError(t, err)
		_, err = tpl.Render(context.Background(), nil)
		var je *Error
		require.ErrorAs(t, err, &je, tc.src)
		assert.Equal(t, "UndefinedError", je.Kind, tc.src)
		assert.Equal(t, tc.want, je.Msg, tc.src)
	}
}
