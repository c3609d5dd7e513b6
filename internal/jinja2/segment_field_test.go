package jinja2

import (
	"context"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSegmentFieldPrints prints fields of a dict between text (a
// segment's steps): a str and a small int written in the segment's loop,
// the rest by the step's print; with no output limit and with one (the
// loop that tests it). The output is Jinja2 3.1.6's.
func TestSegmentFieldPrints(t *testing.T) {
	src := "a{{ d.s }}b{{ d.i }}c{{ d.b }}d{{ d.f }}e{{ d.n }}f{{ d.missing }}g{{ d['s'] }}h{{ d.big }}"
	d := NewDict(6)
	big, _ := new(big.Int).SetString("1180591620717411303424", 10)
	d.SetStr("s", StrV("x"))
	d.SetStr("i", IntV(42))
	d.SetStr("b", BoolV(true))
	d.SetStr("f", FloatV(1.5))
	d.SetStr("n", NoneV())
	d.SetStr("big", BigIntV(big))
	for _, opts := range [][]Option{nil, {WithLimits(Limits{Output: 1000})}} {
		tmpl, err := New(opts...).Parse("t", src)
		require.NoError(t, err)
		out, err := tmpl.Render(context.Background(), map[string]Value{"d": DictV(d)})
		require.NoError(t, err)
		assert.Equal(t, "axb42cTrued1.5eNonefgxh1180591620717411303424", out)
	}
}
