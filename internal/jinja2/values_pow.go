package jinja2

import (
	"math"
	"math/big"
)

// Correctly rounded x**y for floats: C's pow (which CPython calls) is
// within about half an ulp, Go's math.Pow is not; computing exp(y·ln x)
// with 256 bits and rounding once gives what C gives save in the rarest
// ties.

const powPrec = 256

func bigF() *big.Float { return new(big.Float).SetPrec(powPrec) }

// bigAtanhSeries is 2·atanh(z) = 2(z + z³/3 + z⁵/5 + …) for small |z|.
func bigAtanhSeries(z *big.Float) *big.Float {
	sum := bigF().Set(z)
	z2 := bigF().Mul(z, z)
	term := bigF().Set(z)
	eps := bigF().SetMantExp(big.NewFloat(1), -powPrec-8)
	for k := int64(3); ; k += 2 {
		term.Mul(term, z2)
		t := bigF().Quo(term, bigF().SetInt64(k))
		sum.Add(sum, t)
		if t.Sign() == 0 || bigF().Abs(t).Cmp(eps) < 0 {
			break
		}
	}
	return sum.Mul(sum, bigF().SetInt64(2))
}

// bigLn2 is ln 2 = 2·atanh(1/3).
func bigLn2() *big.Float {
	return bigAtanhSeries(bigF().Quo(bigF().SetInt64(1), bigF().SetInt64(3)))
}

// bigLog is ln x for x > 0.
func bigLog(x *big.Float, ln2 *big.Float) *big.Float {
	m := bigF()
	e := x.MantExp(m) // x = m·2^e, m in [0.5, 1)
	// ln m = 2·atanh((m-1)/(m+1))
	z := bigF().Quo(bigF().Sub(m, bigF().SetInt64(1)), bigF().Add(m, bigF().SetInt64(1)))
	r := bigAtanhSeries(z)
	return r.Add(r, bigF().Mul(ln2, bigF().SetInt64(int64(e))))
}

// bigExp is e^t for |t| < 1000.
func bigExp(t *big.Float, ln2 *big.Float) *big.Float {
	kf, _ := bigF().Quo(t, ln2).Float64()
	k := math.Round(kf)
	r := bigF().Sub(t, bigF().Mul(ln2, bigF().SetFloat64(k)))
	const halvings = 12
	r.SetMantExp(r, -halvings)
	// Taylor series of e^r
	sum := bigF().SetInt64(1)
	term := bigF().SetInt64(1)
	eps := bigF().SetMantExp(big.NewFloat(1), -powPrec-8)
	for n := int64(1); n < 200; n++ {
		term.Mul(term, r)
		term.Quo(term, bigF().SetInt64(n))
		sum.Add(sum, term)
		if term.Sign() == 0 || bigF().Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	for i := 0; i < halvings; i++ {
		sum.Mul(sum, sum)
	}
	return sum.SetMantExp(sum, int(k))
}

// expLogPow is x**y for finite x > 0 and finite y by exp(y·ln x).
func expLogPow(x, y float64) float64 {
	ln2 := bigLn2()
	t := bigF().Mul(bigLog(bigF().SetFloat64(x), ln2), bigF().SetFloat64(y))
	tf, _ := t.Float64()
	switch {
	case tf > 710:
		return math.Inf(1)
	case tf < -746:
		return 0
	}
	f, _ := bigExp(t, ln2).Float64()
	return f
}
