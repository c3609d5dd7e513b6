package jinja2

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/internal/pyjson"
)

// AppendJSON writes, for every value and every option, the bytes pyjson
// writes for ToPyJSON's tree (with sort_keys, the tree's keys sorted as
// Python sorts them), and fails where that tree fails.
func TestAppendJSONMatchesTree(t *testing.T) {
	inner := NewDict(3)
	inner.SetStr("zeta", StrV("it's \"q\" \\ \n\t\u00a0\u200b😀"))
	inner.SetStr("alpha", ListV([]Value{IntV(-3), FloatV(math.Copysign(0, -1)), FloatV(1e16), FloatV(math.Inf(1)), FloatV(math.NaN()), NoneV(), BoolV(true)}))
	inner.SetStr("é", TupleV([]Value{SafeV("<b>"), ListV(nil), DictV(NewDict(0))}))
	outer := NewDict(2)
	outer.SetStr("type", StrV("function"))
	outer.SetStr("function", DictV(inner))
	intKeys := NewDict(2)
	intKeys.Set(IntV(2), StrV("two"))
	intKeys.Set(BoolV(true), StrV("t"))
	intKeys.Set(StrV("1"), FloatV(0.5))
	numKeys := NewDict(3)
	numKeys.Set(IntV(10), StrV("ten"))
	numKeys.Set(FloatV(2.5), NoneV())
	numKeys.Set(BoolV(false), IntV(0))
	deep := StrV("x")
	for range 450 {
		deep = ListV([]Value{deep})
	}
	tooDeep := deep
	for range 100 {
		tooDeep = ListV([]Value{tooDeep})
	}
	bigInt := Value{kind: KindInt, ref: new(big.Int).Lsh(big.NewInt(1), 70)}
	values := map[string]Value{
		"tool":       DictV(outer),
		"int keys":   DictV(intKeys),
		"num keys":   DictV(numKeys),
		"big int":    ListV([]Value{bigInt, IntV(math.MinInt64)}),
		"deep":       deep,
		"too deep":   tooDeep,
		"undefined":  ListV([]Value{IntV(1), Undef("u")}),
		"named":      ObjectV(&namedTuple{items: []Value{IntV(1), StrV("a")}}),
		"str":        StrV("plain"),
		"empty list": ListV(nil),
	}
	options := map[string][]pyjson.Option{
		"none":       nil,
		"indent":     {pyjson.Indent(2)},
		"tab":        {pyjson.IndentString("\t")},
		"separators": {pyjson.Separators(",", ":"), pyjson.SortKeys(true)},
		"sorted":     {pyjson.SortKeys(true), pyjson.EnsureASCII(true)},
		"all":        {pyjson.SortKeys(true), pyjson.EnsureASCII(true), pyjson.Indent(0)},
	}
	for vn, v := range values {
		for on, opts := range options {
			w := pyjson.NewWriter(opts...)
			got, err := AppendJSON([]byte("prefix:"), v, &w)
			pv, terr := toPyJSON(v, nil, w.SortKeys())
			if terr != nil {
				require.Error(t, err, "%s / %s", vn, on)
				assert.Equal(t, terr.Error(), err.Error(), "%s / %s", vn, on)
				continue
			}
			require.NoError(t, err, "%s / %s", vn, on)
			pw := w.Presorted()
			assert.Equal(t, "prefix:"+string(pw.Value(nil, pv, 0)), string(got), "%s / %s", vn, on)
		}
	}
}

// Writing a tool's JSON into a buffer with room builds nothing.
func TestAppendJSONDoesNotAllocate(t *testing.T) {
	params := NewDict(2)
	params.SetStr("type", StrV("object"))
	params.SetStr("required", ListV([]Value{StrV("city")}))
	fn := NewDict(3)
	fn.SetStr("name", StrV("get_weather"))
	fn.SetStr("description", StrV("Get the weather"))
	fn.SetStr("parameters", DictV(params))
	v := DictV(fn)
	w := pyjson.NewWriter(pyjson.Indent(4), pyjson.SortKeys(true))
	buf := make([]byte, 0, 1024)
	assert.Zero(t, testing.AllocsPerRun(100, func() { buf, _ = AppendJSON(buf[:0], v, &w) }))
}
