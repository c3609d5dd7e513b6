package jinja2

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// powNotRounded are the cases of testdata/pow.txt where glibc's pow is
// not correctly rounded (it promises 0.52 ulp) and the package's result,
// correctly rounded, is the other neighbour (checked with Python's
// fractions and decimal).
var powNotRounded = map[string]bool{
	"3.616933412805695\t0.1":    true,
	"-3.1601450155197774\t-5.0": true,
}

// TestFloatPowAsPython checks x ** y for the random floats of
// testdata/pow.txt (testdata/pow.py wrote it with CPython, whose ** is C's
// pow).
func TestFloatPowAsPython(t *testing.T) {
	bad := 0
	for _, p := range pyRows(t, "testdata/pow.txt", 3, 2550) {
		x, err := strconv.ParseFloat(p[0], 64)
		require.NoError(t, err)
		y, err := strconv.ParseFloat(p[1], 64)
		require.NoError(t, err)
		r, err := BinOp(nil, "**", FloatV(x), FloatV(y))
		got := Repr(r)
		if err != nil {
			got = "!" + err.(*Error).Kind
		}
		if got != p[2] && !powNotRounded[p[0]+"\t"+p[1]] {
			bad++
			t.Errorf("%s ** %s: got %s, want %s", p[0], p[1], got, p[2])
		}
	}
	require.Zero(t, bad)
}
