package jinja2

import (
	"math"
	"math/big"
	"strings"
)

// Python's complex, as far as a template reaches it: a negative number
// raised to a fractional power (float_pow hands it to complex_pow), and
// what is done with the result: its repr, arithmetic with numbers, its
// real, imag and conjugate(), abs, truth and equality (Objects/
// complexobject.c, 3.11). The functions of C's libm it calls (hypot,
// atan2, cos, sin, exp, log, pow) are computed with 256 bits and rounded
// once, which is what glibc gives save in the rarest cases.

type complexObj struct{ re, im float64 }

func complexV(re, im float64) Value { return ObjectV(&complexObj{re, im}) }

func (o *complexObj) TypeName() string { return "complex" }

func (o *complexObj) Truth() bool { return o.re != 0 || o.im != 0 }

func (o *complexObj) Attr(name string) (Value, bool) {
	switch name {
	case "real":
		return FloatV(o.re), true
	case "imag":
		return FloatV(o.im), true
	case "conjugate":
		f := &Func{Name: name}
		f.Call = func(c *Ctx, args []Value, kw []Kwarg) (Value, error) {
			if err := nargs("complex.conjugate", args, kw, 0, 0); err != nil {
				return Value{}, err
			}
			return complexV(o.re, -o.im), nil
		}
		f.Repr = "<built-in method conjugate of complex object at " + addr(f) + ">"
		return FuncV(f), true
	}
	return Value{}, false
}

// Repr is complex_repr: the imaginary part alone when the real part is
// +0, else both in parentheses; each as repr writes a float but without
// ".0".
func (o *complexObj) Repr() string {
	part := func(f float64) string {
		return strings.TrimSuffix(floatRepr(f), ".0")
	}
	if o.re == 0 && !math.Signbit(o.re) {
		return part(o.im) + "j"
	}
	im := part(o.im)
	if im[0] != '-' {
		im = "+" + im
	}
	return "(" + part(o.re) + im + "j)"
}

func (o *complexObj) Equal(v Value) bool {
	if w, ok := v.ref.(*complexObj); ok && v.kind == KindObject {
		return o.re == w.re && o.im == w.im
	}
	if !isNum(v) || o.im != 0 {
		return false
	}
	r, ok := numCmp(FloatV(o.re), v)
	return ok && r == 0
}

// complexOf is v as complex_pow's TO_COMPLEX makes it: ok is false when v
// is no number.
func complexOf(v Value) (c complexObj, ok bool, err error) {
	if w, ok := v.ref.(*complexObj); ok && v.kind == KindObject {
		return *w, true, nil
	}
	if !isNum(v) {
		return complexObj{}, false, nil
	}
	f, err := toFloat(v)
	return complexObj{re: f}, true, err
}

func isComplex(v Value) bool {
	_, ok := v.ref.(*complexObj)
	return ok && v.kind == KindObject
}

// complexArith is a op b where either is complex and the other a number;
// ok is false otherwise.
func complexArith(op string, a, b Value) (r Value, ok bool, err error) {
	if !isComplex(a) && !isComplex(b) {
		return Value{}, false, nil
	}
	x, ok1, err := complexOf(a)
	if !ok1 {
		return Value{}, false, nil
	}
	y, ok2, err2 := complexOf(b)
	if !ok2 {
		return Value{}, false, nil
	}
	if err != nil {
		return Value{}, true, err
	}
	if err2 != nil {
		return Value{}, true, err2
	}
	switch op {
	case "+":
		return complexV(x.re+y.re, x.im+y.im), true, nil
	case "-":
		return complexV(x.re-y.re, x.im-y.im), true, nil
	case "*":
		p := cProd(x, y)
		return complexV(p.re, p.im), true, nil
	case "/":
		q, zero := cQuot(x, y)
		if zero {
			return Value{}, true, pyErr("ZeroDivisionError", "complex division by zero")
		}
		return complexV(q.re, q.im), true, nil
	case "**":
		p, err := complexPow(x, y)
		if err != nil {
			return Value{}, true, err
		}
		return complexV(p.re, p.im), true, nil
	}
	return Value{}, false, nil // // and %: the TypeError of unsupported operands
}

// cProd is _Py_c_prod; the products are rounded before the sums (no fused
// multiply-add).
func cProd(a, b complexObj) complexObj {
	return complexObj{
		re: float64(a.re*b.re) - float64(a.im*b.im),
		im: float64(a.re*b.im) + float64(a.im*b.re),
	}
}

// cQuot is _Py_c_quot (Smith's method); zero reports a zero divisor.
func cQuot(a, b complexObj) (r complexObj, zero bool) {
	absRe, absIm := math.Abs(b.re), math.Abs(b.im)
	switch {
	case absRe >= absIm:
		if absRe == 0 {
			return complexObj{}, true
		}
		ratio := b.im / b.re
		denom := b.re + float64(b.im*ratio)
		return complexObj{re: (a.re + float64(a.im*ratio)) / denom, im: (a.im - float64(a.re*ratio)) / denom}, false
	case absIm >= absRe:
		ratio := b.re / b.im
		denom := float64(b.re*ratio) + b.im
		return complexObj{re: (float64(a.re*ratio) + a.im) / denom, im: (float64(a.im*ratio) - a.re) / denom}, false
	}
	nan := math.NaN()
	return complexObj{re: nan, im: nan}, false
}

// complexPow is complex_pow: a small integral exponent by repeated
// squaring (c_powi), any other by _Py_c_pow.
func complexPow(a, b complexObj) (complexObj, error) {
	var p complexObj
	edom := false
	if b.im == 0 && b.re == math.Floor(b.re) && math.Abs(b.re) <= 100 {
		n := int64(b.re)
		if n > 0 {
			p = cPowu(a, n)
		} else {
			p, edom = cQuot(complexObj{re: 1}, cPowu(a, -n))
		}
	} else {
		switch {
		case b.re == 0 && b.im == 0:
			p = complexObj{re: 1}
		case a.re == 0 && a.im == 0:
			edom = b.im != 0 || b.re < 0
		default:
			vabs := libmHypot(a.re, a.im)
			length := accuratePow(vabs, b.re)
			at := libmAtan2(a.im, a.re)
			phase := float64(at * b.re)
			if b.im != 0 {
				length /= libmExp(float64(at * b.im))
				phase += float64(b.im * libmLog(vabs))
			}
			p = complexObj{re: float64(length * libmCos(phase)), im: float64(length * libmSin(phase))}
		}
	}
	if edom {
		return complexObj{}, pyErr("ZeroDivisionError", "0.0 to a negative or complex power")
	}
	if math.IsInf(p.re, 0) || math.IsInf(p.im, 0) {
		return complexObj{}, pyErr("OverflowError", "complex exponentiation")
	}
	return p, nil
}

// cPowu is c_powu: x**n for n >= 0 by squaring.
func cPowu(x complexObj, n int64) complexObj {
	r, p := complexObj{re: 1}, x
	for mask := int64(1); mask > 0 && n >= mask; mask <<= 1 {
		if n&mask != 0 {
			r = cProd(r, p)
		}
		p = cProd(p, p)
	}
	return r
}

// complexAbs is abs(z): hypot, OverflowError where it overflows.
func complexAbs(o *complexObj) (Value, error) {
	if math.IsInf(o.re, 0) || math.IsInf(o.im, 0) {
		return FloatV(math.Inf(1)), nil
	}
	if math.IsNaN(o.re) || math.IsNaN(o.im) {
		return FloatV(math.NaN()), nil
	}
	r := libmHypot(o.re, o.im)
	if math.IsInf(r, 0) {
		return Value{}, pyErr("OverflowError", "absolute value too large")
	}
	return FloatV(r), nil
}

// The libm functions complex_pow calls, correctly rounded.

func bigFP(prec uint) *big.Float { return new(big.Float).SetPrec(prec) }

func libmHypot(x, y float64) float64 {
	if math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsNaN(x) || math.IsNaN(y) || x == 0 || y == 0 {
		return math.Hypot(x, y) // exact: the special cases and |x| or |y|
	}
	bx, by := bigFP(powPrec).SetFloat64(x), bigFP(powPrec).SetFloat64(y)
	s := bigFP(powPrec).Add(bx.Mul(bx, bx), by.Mul(by, by))
	f, _ := s.Sqrt(s).Float64()
	return f
}

// bigPi is π with prec bits (Machin's formula).
func bigPi(prec uint) *big.Float {
	p := prec + 16
	a := bigAtanSmall(bigFP(p).Quo(bigFP(p).SetInt64(1), bigFP(p).SetInt64(5)), p)
	b := bigAtanSmall(bigFP(p).Quo(bigFP(p).SetInt64(1), bigFP(p).SetInt64(239)), p)
	a.Mul(a, bigFP(p).SetInt64(16))
	b.Mul(b, bigFP(p).SetInt64(4))
	return a.Sub(a, b)
}

// bigAtanSmall is atan(x) for |x| <= 0.25 by its series.
func bigAtanSmall(x *big.Float, prec uint) *big.Float {
	sum := bigFP(prec).Set(x)
	x2 := bigFP(prec).Mul(x, x)
	term := bigFP(prec).Set(x)
	eps := bigFP(prec).SetMantExp(bigFP(prec).SetInt64(1), -int(prec)-4)
	for k := int64(3); ; k += 2 {
		term.Mul(term, x2)
		term.Neg(term)
		t := bigFP(prec).Quo(term, bigFP(prec).SetInt64(k))
		sum.Add(sum, t)
		if t.Sign() == 0 || bigFP(prec).Abs(t).Cmp(eps) < 0 {
			return sum
		}
	}
}

// bigAtan is atan(x) for x >= 0: halved with atan(x) = 2·atan(x/(1+√(1+x²)))
// until small.
func bigAtan(x *big.Float, prec uint) *big.Float {
	x = bigFP(prec).Set(x)
	one := bigFP(prec).SetInt64(1)
	quarter := bigFP(prec).SetFloat64(0.25)
	k := 0
	for x.Cmp(quarter) > 0 {
		s := bigFP(prec).Mul(x, x)
		s.Add(s, one)
		s.Sqrt(s)
		s.Add(s, one)
		x.Quo(x, s)
		k++
	}
	r := bigAtanSmall(x, prec)
	return r.SetMantExp(r, k)
}

func libmAtan2(y, x float64) float64 {
	if math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsNaN(x) || math.IsNaN(y) || x == 0 || y == 0 {
		return math.Atan2(y, x) // the special cases: 0, ±π, ±π/2, ±π/4, ±3π/4
	}
	const prec = powPrec
	t := bigFP(prec).Quo(bigFP(prec).SetFloat64(math.Abs(y)), bigFP(prec).SetFloat64(math.Abs(x)))
	a := bigAtan(t, prec)
	if x < 0 {
		a.Sub(bigPi(prec), a)
	}
	f, _ := a.Float64()
	if y < 0 {
		f = -f
	}
	return f
}

// bigSinCos is sin(x) and cos(x), x reduced by multiples of π/2 with π
// to enough bits for x's size.
func bigSinCos(x float64) (sin, cos float64) {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return math.NaN(), math.NaN()
	}
	if x == 0 {
		return x, 1
	}
	_, e := math.Frexp(x)
	prec := uint(powPrec + max(e, 0))
	halfPi := bigPi(prec)
	halfPi.SetMantExp(halfPi, -1)
	bx := bigFP(prec).SetFloat64(x)
	q := bigFP(prec).Quo(bx, halfPi)
	// the nearest multiple of π/2
	qi, _ := bigFP(prec).Add(q, bigFP(prec).SetFloat64(math.Copysign(0.5, x))).Int(nil)
	r := bigFP(prec).Sub(bx, bigFP(prec).Mul(bigFP(prec).SetInt(qi), halfPi))
	const p = powPrec
	r = bigFP(p).Set(r)
	r2 := bigFP(p).Mul(r, r)
	eps := bigFP(p).SetMantExp(bigFP(p).SetInt64(1), -p-8)
	series := func(term *big.Float, k int64) *big.Float {
		sum := bigFP(p).Set(term)
		for ; ; k += 2 {
			term.Mul(term, r2)
			term.Quo(term, bigFP(p).SetInt64(-k*(k+1)))
			sum.Add(sum, term)
			if term.Sign() == 0 || bigFP(p).Abs(term).Cmp(eps) < 0 {
				return sum
			}
		}
	}
	s := series(bigFP(p).Set(r), 2)
	c := series(bigFP(p).SetInt64(1), 1)
	m := new(big.Int).Mod(qi, big.NewInt(4)).Int64()
	switch m {
	case 1:
		s, c = c, s.Neg(s)
	case 2:
		s, c = s.Neg(s), c.Neg(c)
	case 3:
		s, c = c.Neg(c), s
	}
	sin, _ = s.Float64()
	cos, _ = c.Float64()
	return sin, cos
}

func libmSin(x float64) float64 { s, _ := bigSinCos(x); return s }

func libmCos(x float64) float64 { _, c := bigSinCos(x); return c }

func libmExp(x float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0) || x == 0:
		return math.Exp(x)
	case x > 710:
		return math.Inf(1)
	case x < -746:
		return 0
	}
	ln2 := bigLn2()
	f, _ := bigExp(bigF().SetFloat64(x), ln2).Float64()
	return f
}

func libmLog(x float64) float64 {
	if x <= 0 || math.IsNaN(x) || math.IsInf(x, 0) || x == 1 {
		return math.Log(x)
	}
	f, _ := bigLog(bigF().SetFloat64(x), bigLn2()).Float64()
	return f
}
