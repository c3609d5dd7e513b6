package jinja2

import (
	"math"
	"math/big"
)

// Python's int and float arithmetic: ints of any size (int64 while they
// fit, *big.Int beyond), floor division and modulo with the divisor's
// sign, true division giving a float, and ** with Python's special cases.

func isNum(v Value) bool { return v.kind == KindInt || v.kind == KindFloat || v.kind == KindBool }

func isIntLike(v Value) bool { return v.kind == KindInt || v.kind == KindBool }

// toFloat is float(v) for an int, bool or float.
func toFloat(v Value) (float64, error) {
	switch {
	case v.kind == KindFloat:
		return v.f(), nil
	case v.isBig():
		f, _ := new(big.Float).SetInt(v.big()).Float64()
		if math.IsInf(f, 0) {
			return 0, pyErr("OverflowError", "int too large to convert to float")
		}
		return f, nil
	}
	return float64(v.n), nil
}

// toFloats is toFloat of a, then of b: the operands of a float
// operation, the first error Python raises converting them.
func toFloats(a, b Value) (x, y float64, err error) {
	if x, err = toFloat(a); err == nil {
		y, err = toFloat(b)
	}
	return x, y, err
}

// normBig returns b as a Value, an int64 when it fits.
func normBig(b *big.Int) Value { return BigIntV(b) }

// maxIntBits bounds the ints ** and * build (Python would build them,
// slowly; a template that asks for 2**10**9 is stopped instead).
const maxIntBits = 1 << 22

func intArith(c *Ctx, op string, a, b Value) (Value, error) {
	if a.ref == nil && b.ref == nil {
		x, y := a.n, b.n
		switch op {
		case "+":
			s := x + y
			if (x >= 0) == (y >= 0) && (s >= 0) != (x >= 0) {
				break
			}
			return IntV(s), nil
		case "-":
			s := x - y
			if (x >= 0) != (y >= 0) && (s >= 0) != (x >= 0) {
				break
			}
			return IntV(s), nil
		case "*":
			if x == 0 || y == 0 {
				return IntV(0), nil
			}
			p := x * y
			if p/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
				break
			}
			return IntV(p), nil
		case "//":
			if y == 0 {
				return Value{}, pyErr("ZeroDivisionError", "integer division or modulo by zero")
			}
			if x == math.MinInt64 && y == -1 {
				break
			}
			q := x / y
			if x%y != 0 && (x < 0) != (y < 0) {
				q--
			}
			return IntV(q), nil
		case "%":
			if y == 0 {
				return Value{}, pyErr("ZeroDivisionError", "integer modulo by zero")
			}
			if y == -1 {
				return IntV(0), nil
			}
			r := x % y
			if r != 0 && (r < 0) != (y < 0) {
				r += y
			}
			return IntV(r), nil
		case "/":
			if y == 0 {
				return Value{}, pyErr("ZeroDivisionError", "division by zero")
			}
			const exact = 1 << 53
			if x <= exact && x >= -exact && y <= exact && y >= -exact {
				return FloatV(float64(x) / float64(y)), nil
			}
		case "**":
			if y < 0 {
				break
			}
			if r, ok := powInt64(x, y); ok {
				return IntV(r), nil
			}
		}
	}
	x, y := bigOf(a), bigOf(b)
	switch op {
	case "+":
		return normBig(new(big.Int).Add(x, y)), nil
	case "-":
		return normBig(new(big.Int).Sub(x, y)), nil
	case "*":
		if x.BitLen()+y.BitLen() > maxIntBits {
			return Value{}, pyErr("MemoryError", "")
		}
		return normBig(new(big.Int).Mul(x, y)), nil
	case "//", "%":
		if y.Sign() == 0 {
			if op == "%" {
				return Value{}, pyErr("ZeroDivisionError", "integer modulo by zero")
			}
			return Value{}, pyErr("ZeroDivisionError", "integer division or modulo by zero")
		}
		q, m := new(big.Int).QuoRem(x, y, new(big.Int)) // truncated
		if m.Sign() != 0 && m.Sign() != y.Sign() {
			// Python's modulo takes the divisor's sign.
			m.Add(m, y)
			q.Sub(q, big.NewInt(1))
		}
		if op == "//" {
			return normBig(q), nil
		}
		return normBig(m), nil
	case "/":
		if y.Sign() == 0 {
			return Value{}, pyErr("ZeroDivisionError", "division by zero")
		}
		f, _ := new(big.Rat).SetFrac(x, y).Float64()
		if f == 0 && x.Sign()*y.Sign() < 0 || x.Sign() == 0 && y.Sign() < 0 {
			f = math.Copysign(0, -1)
		}
		if math.IsInf(f, 0) {
			return Value{}, pyErr("OverflowError", "integer division result too large for a float")
		}
		return FloatV(f), nil
	case "**":
		if y.Sign() < 0 {
			fx, fy, err := toFloats(a, b)
			if err != nil {
				return Value{}, err
			}
			return floatPow(fx, fy)
		}
		if x.BitLen() <= 1 || (x.IsInt64() && (x.Int64() == -1 || x.Int64() == 0 || x.Int64() == 1)) {
			// 0, 1, -1 and 2 stay small enough to compute at once
			if !y.IsInt64() {
				switch x.Int64() {
				case 0, 1:
					return IntV(x.Int64()), nil
				case -1:
					if y.Bit(0) == 0 {
						return IntV(1), nil
					}
					return IntV(-1), nil
				}
			}
		}
		if !y.IsInt64() || int64(x.BitLen())*y.Int64() > maxIntBits {
			return Value{}, pyErr("MemoryError", "")
		}
		if err := grow(c, int(int64(x.BitLen())*y.Int64()/8)); err != nil {
			return Value{}, err
		}
		return normBig(new(big.Int).Exp(x, y, nil)), nil
	}
	return Value{}, typeErr("unsupported operand type(s) for %s: 'int' and 'int'", op)
}

// powInt64 is x**y for y >= 0 when the result fits in an int64.
func powInt64(x, y int64) (int64, bool) {
	r := int64(1)
	for y > 0 {
		if y&1 == 1 {
			p := r * x
			if x != 0 && (p/x != r || (x == -1 && r == math.MinInt64)) {
				return 0, false
			}
			r = p
		}
		y >>= 1
		if y > 0 {
			sq := x * x
			if x != 0 && (sq/x != x || sq < 0) {
				return 0, false
			}
			x = sq
		}
	}
	return r, true
}

func floatArith(op string, x, y float64) (Value, error) {
	switch op {
	case "+":
		return FloatV(x + y), nil
	case "-":
		return FloatV(x - y), nil
	case "*":
		return FloatV(x * y), nil
	case "/":
		if y == 0 {
			return Value{}, pyErr("ZeroDivisionError", "float division by zero")
		}
		return FloatV(x / y), nil
	case "//":
		if y == 0 {
			return Value{}, pyErr("ZeroDivisionError", "float floor division by zero")
		}
		_, d := floatDivmod(x, y)
		return FloatV(d), nil
	case "%":
		if y == 0 {
			return Value{}, pyErr("ZeroDivisionError", "float modulo")
		}
		m, _ := floatDivmod(x, y)
		return FloatV(m), nil
	case "**":
		return floatPow(x, y)
	}
	return Value{}, typeErr("unsupported operand type(s) for %s: 'float' and 'float'", op)
}

// floatDivmod is CPython's float_divmod: the modulo and the floor quotient.
func floatDivmod(vx, wx float64) (mod, floordiv float64) {
	mod = math.Mod(vx, wx)
	div := (vx - mod) / wx
	if mod != 0 {
		if (wx < 0) != (mod < 0) {
			mod += wx
			div -= 1.0
		}
	} else {
		mod = math.Copysign(0, wx)
	}
	if div != 0 {
		floordiv = math.Floor(div)
		if div-floordiv > 0.5 {
			floordiv += 1.0
		}
	} else {
		floordiv = math.Copysign(0, vx/wx)
	}
	return mod, floordiv
}

// floatPow is CPython's float_pow.
func floatPow(x, y float64) (Value, error) {
	if y == 0 {
		return FloatV(1), nil
	}
	if math.IsNaN(x) {
		if y == 0 {
			return FloatV(1), nil
		}
		return FloatV(x), nil
	}
	if math.IsNaN(y) {
		if x == 1 {
			return FloatV(1), nil
		}
		return FloatV(y), nil
	}
	if x == 0 && y < 0 && !math.IsInf(y, 0) {
		return Value{}, pyErr("ZeroDivisionError", "0.0 cannot be raised to a negative power")
	}
	if x < 0 && !math.IsInf(x, 0) && !math.IsInf(y, 0) && y != math.Floor(y) {
		// float_pow hands it to complex_pow
		p, err := complexPow(complexObj{re: x}, complexObj{re: y})
		if err != nil {
			return Value{}, err
		}
		return complexV(p.re, p.im), nil
	}
	r := accuratePow(x, y)
	if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
		return Value{}, pyErr("OverflowError", "(34, 'Numerical result out of range')")
	}
	return FloatV(r), nil
}

// numArith applies op to two numbers (int, bool or float).
func numArith(c *Ctx, op string, a, b Value) (Value, error) {
	if a.kind != KindFloat && b.kind != KindFloat {
		return intArith(c, op, a, b)
	}
	x, y, err := toFloats(a, b)
	if err != nil {
		return Value{}, err
	}
	return floatArith(op, x, y)
}

// numCmp compares two numbers exactly, as Python compares int and float:
// -1, 0 or 1, and false when either is a NaN.
func numCmp(a, b Value) (int, bool) {
	if a.kind != KindFloat && b.kind != KindFloat {
		if a.ref == nil && b.ref == nil {
			switch {
			case a.n < b.n:
				return -1, true
			case a.n > b.n:
				return 1, true
			}
			return 0, true
		}
		return bigOf(a).Cmp(bigOf(b)), true
	}
	if a.kind == KindFloat && b.kind == KindFloat {
		x, y := a.f(), b.f()
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		case x == y:
			return 0, true
		}
		return 0, false
	}
	if a.kind != KindFloat {
		r, ok := numCmp(b, a)
		return -r, ok
	}
	// a is a float, b an int
	x := a.f()
	if math.IsNaN(x) {
		return 0, false
	}
	if math.IsInf(x, 0) {
		if x > 0 {
			return 1, true
		}
		return -1, true
	}
	if b.ref == nil && b.n <= 1<<53 && b.n >= -(1<<53) {
		y := float64(b.n)
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		}
		return 0, true
	}
	fx := new(big.Float).SetFloat64(x)
	fy := new(big.Float).SetInt(bigOf(b))
	return fx.Cmp(fy), true
}

// numNeg is -v for a number.
func numNeg(v Value) Value {
	switch {
	case v.kind == KindFloat:
		return FloatV(-v.f())
	case v.ref == nil && v.n != math.MinInt64:
		return IntV(-v.n)
	}
	return normBig(new(big.Int).Neg(bigOf(v)))
}

// intDigits is str(int) with Python 3.11's limit of 4300 digits.
func intDigits(v Value) (string, error) {
	if v.ref == nil {
		return itoa64(v.n), nil
	}
	b := v.big()
	if b.BitLen() > 14300 { // more than 4300 decimal digits for certain
		return "", valueErr("Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit")
	}
	s := b.String()
	digits := len(s)
	if s[0] == '-' {
		digits--
	}
	if digits > 4300 {
		return "", valueErr("Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit")
	}
	return s, nil
}

// accuratePow is x**y correctly rounded, as C's pow gives it: exactly for
// an integral or half-integral y, by exp(y·ln x) otherwise.
func accuratePow(x, y float64) float64 {
	if math.IsInf(x, 0) || math.IsInf(y, 0) || x == 0 || math.IsNaN(x) || math.IsNaN(y) {
		return math.Pow(x, y)
	}
	twice := y * 2
	if twice != math.Trunc(twice) || math.Abs(y) > 4096 {
		if x < 0 {
			// an integral y (a fractional one is refused before)
			r := expLogPow(-x, y)
			if math.Mod(y, 2) != 0 {
				r = -r
			}
			return r
		}
		return expLogPow(x, y)
	}
	const prec = 256
	neg := y < 0
	ay := math.Abs(y)
	n := int64(ay)
	half := ay != math.Trunc(ay)
	base := new(big.Float).SetPrec(prec).SetFloat64(x)
	r := new(big.Float).SetPrec(prec).SetInt64(1)
	p := new(big.Float).SetPrec(prec).Set(base)
	for e := n; e > 0; e >>= 1 {
		if e&1 == 1 {
			r.Mul(r, p)
		}
		p.Mul(p, p)
	}
	if half {
		if x < 0 {
			return math.NaN()
		}
		r.Mul(r, new(big.Float).SetPrec(prec).Sqrt(base))
	}
	if neg {
		r.Quo(new(big.Float).SetPrec(prec).SetInt64(1), r)
	}
	f, _ := r.Float64()
	return f
}
