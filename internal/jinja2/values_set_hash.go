package jinja2

import (
	"math"
	"math/big"
)

// CPython 3.11's hashes of the values whose hash does not change between
// processes: ints, bools, floats other than nan, and tuples of those. A
// str's (and so a Markup's) is randomized per process (PYTHONHASHSEED),
// None's and nan's come from their addresses: pyHash says so with false.
// Only sets use these (values_set.go): a set's order is its hash table's.

// pyHashModulus is _PyHASH_MODULUS, 2**61 - 1; hash(inf) is _PyHASH_INF.
const (
	pyHashBits    = 61
	pyHashModulus = 1<<pyHashBits - 1
	pyHashInf     = 314159
)

// pyHash is hash(v), and false when Python's is not the same in every
// process.
func pyHash(v Value) (int64, bool) {
	switch v.kind {
	case KindBool:
		return v.n, true
	case KindInt:
		if b, ok := v.ref.(*big.Int); ok {
			m := new(big.Int).Abs(b)
			m.Mod(m, big.NewInt(pyHashModulus))
			return hashSign(m.Int64(), b.Sign() < 0), true
		}
		if v.n < 0 {
			// |n| as uint64 also holds -2**63
			return hashSign(int64(uint64(-v.n)%pyHashModulus), true), true
		}
		return int64(uint64(v.n) % pyHashModulus), true
	case KindFloat:
		return pyHashFloat(math.Float64frombits(uint64(v.n)))
	case KindTuple:
		return pyHashTuple(v.list().Items)
	}
	return 0, false
}

// hashSign is the hash of an int of absolute value's hash x, with
// CPython's -1 (its error value) made -2.
func hashSign(x int64, neg bool) int64 {
	if neg {
		x = -x
	}
	if x == -1 {
		return -2
	}
	return x
}

// pyHashFloat is _Py_HashDouble: 28 bits of the mantissa at a time,
// modulo 2**61 - 1, then the exponent as a rotation.
func pyHashFloat(f float64) (int64, bool) {
	if math.IsNaN(f) {
		return 0, false
	}
	if math.IsInf(f, 0) {
		if f > 0 {
			return pyHashInf, true
		}
		return -pyHashInf, true
	}
	m, e := math.Frexp(f)
	sign := int64(1)
	if m < 0 {
		sign, m = -1, -m
	}
	var x uint64
	for m != 0 {
		x = ((x << 28) & pyHashModulus) | x>>(pyHashBits-28)
		m *= 268435456.0
		e -= 28
		y := uint64(m)
		m -= float64(y)
		x += y
		if x >= pyHashModulus {
			x -= pyHashModulus
		}
	}
	if e >= 0 {
		e %= pyHashBits
	} else {
		e = pyHashBits - 1 - ((-1 - e) % pyHashBits)
	}
	x = ((x << uint(e)) & pyHashModulus) | x>>(pyHashBits-uint(e))
	h := int64(x) * sign
	if h == -1 {
		h = -2
	}
	return h, true
}

// pyHashTuple is tuplehash, CPython's xxHash-based one.
func pyHashTuple(items []Value) (int64, bool) {
	const (
		prime1 uint64 = 11400714785074694791
		prime2 uint64 = 14029467366897019727
		prime5 uint64 = 2870177450012600261
	)
	acc := prime5
	for _, it := range items {
		h, ok := pyHash(it)
		if !ok {
			return 0, false
		}
		acc += uint64(h) * prime2
		acc = acc<<31 | acc>>33
		acc *= prime1
	}
	acc += uint64(len(items)) ^ (prime5 ^ 3527539)
	if acc == math.MaxUint64 {
		return 1546275796, true
	}
	return int64(acc), true
}
