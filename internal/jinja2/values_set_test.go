package jinja2

import (
	"math"
	"math/big"
	"testing"
)

// pyHash against CPython 3.11's hash() (python3 -c 'print(hash(…))').
func TestPyHash(t *testing.T) {
	bigV := func(s string) Value {
		b, _ := new(big.Int).SetString(s, 10)
		return BigIntV(b)
	}
	tuple := func(items ...Value) Value { return TupleV(items) }
	for _, tc := range []struct {
		name string
		v    Value
		want int64
	}{
		{"-1", IntV(-1), -2},
		{"2**61", IntV(1 << 61), 1},
		{"2**61-1", IntV(1<<61 - 1), 0},
		{"-(2**61)", IntV(-(1 << 61)), -2},
		{"2**63", bigV("9223372036854775808"), 4},
		{"-2**63", IntV(math.MinInt64), -4},
		{"2**64+5", bigV("18446744073709551621"), 13},
		{"True", BoolV(true), 1},
		{"0.5", FloatV(0.5), 1152921504606846976},
		{"-0.0", FloatV(math.Copysign(0, -1)), 0},
		{"1e300", FloatV(1e300), 1224995262755759164},
		{"-1.5", FloatV(-1.5), -1152921504606846977},
		{"inf", FloatV(math.Inf(1)), 314159},
		{"-inf", FloatV(math.Inf(-1)), -314159},
		{"3.0", FloatV(3), 3},
		{"1e-300", FloatV(1e-300), 482449582752280463},
		{"(1, 2)", tuple(IntV(1), IntV(2)), -3550055125485641917},
		{"()", tuple(), 5740354900026072187},
		{"(1, (2, 3.5))", tuple(IntV(1), tuple(IntV(2), FloatV(3.5))), -9148893311433065316},
		{"(-1,)", tuple(IntV(-1)), 8078679518589016365},
	} {
		if got, ok := pyHash(tc.v); !ok || got != tc.want {
			t.Errorf("hash(%s) = %d, %v; want %d", tc.name, got, ok, tc.want)
		}
	}
	for _, v := range []Value{StrV("a"), NoneV(), FloatV(math.NaN()), TupleV([]Value{IntV(1), StrV("a")})} {
		if _, ok := pyHash(v); ok {
			t.Errorf("hash(%s) is known; want unknown (it changes between processes)", Repr(v))
		}
	}
}
