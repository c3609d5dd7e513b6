package jinja2

import (
	"math/big"
	"strings"
)

// int.to_bytes and int.from_bytes as CPython 3.11 has them: Argument
// Clinic's binding (at most three arguments, two by position, signed by
// keyword only), then the conversions in parameter order, then the
// checks of the C function.

// clinicBind binds args and kw to params as _PyArg_UnpackKeywords does
// for a function taking at most maxpos arguments by position and
// requiring the first minpos: the count of all arguments, then of the
// positional ones, then a missing required one, then one given twice,
// then an unknown keyword.
func clinicBind(name string, args []Value, kw []Kwarg, params []string, maxpos, minpos int) ([]Value, []bool, error) {
	n := len(args) + len(kw)
	if n > len(params) {
		keyword := ""
		if len(args) == 0 {
			keyword = "keyword "
		}
		return nil, nil, typeErr("%s() takes at most %d %sargument%s (%d given)", name, len(params), keyword, plural(len(params)), n)
	}
	if len(args) > maxpos {
		return nil, nil, typeErr("%s() takes at most %d positional argument%s (%d given)", name, maxpos, plural(maxpos), len(args))
	}
	out := make([]Value, len(params))
	set := make([]bool, len(params))
	copy(out, args)
	for i := range args {
		set[i] = true
	}
	used := 0
	for i := len(args); i < len(params); i++ {
		for _, k := range kw {
			if k.Name == params[i] {
				out[i], set[i] = k.Value, true
				used++
				break
			}
		}
		if !set[i] && i < minpos {
			return nil, nil, typeErr("%s() missing required argument '%s' (pos %d)", name, params[i], i+1)
		}
	}
	if used < len(kw) {
		for i := range args {
			for _, k := range kw {
				if k.Name == params[i] {
					return nil, nil, typeErr("argument for %s() given by name ('%s') and position (%d)", name, params[i], i+1)
				}
			}
		}
		for _, k := range kw {
			known := false
			for _, p := range params[len(args):] {
				known = known || p == k.Name
			}
			if !known {
				return nil, nil, typeErr("'%s' is an invalid keyword argument for %s()", k.Name, name)
			}
		}
	}
	return out, set, nil
}

// byteorderArg is the byteorder argument: a str, "little" or "big";
// the type is checked where Argument Clinic converts it, the value by
// the function (checkByteorder).
func byteorderArg(name string, v Value, set bool) (string, error) {
	if !set {
		return "big", nil
	}
	if v.kind != KindStr {
		return "", typeErr("%s() argument 'byteorder' must be str, not %s", name, badArgName(v))
	}
	return v.s, nil
}

// orderAndSign reads the byteorder and signed arguments of to_bytes and
// from_bytes (a[1] and a[2], clinicBind's): the byteorder's type checked,
// signed's truth taken, then the byteorder's value checked.
func orderAndSign(name string, a []Value, set []bool) (string, bool, error) {
	order, err := byteorderArg(name, a[1], set[1])
	if err != nil {
		return "", false, err
	}
	signed := set[2] && a[2].Truth()
	if err := checkByteorder(order); err != nil {
		return "", false, err
	}
	return order, signed, nil
}

func checkByteorder(order string) error {
	if order != "little" && order != "big" {
		return valueErr("byteorder must be either 'little' or 'big'")
	}
	return nil
}

// intToBytes is recv.to_bytes(length=1, byteorder='big', *, signed=False).
func intToBytes(recv Value, args []Value, kw []Kwarg) (Value, error) {
	a, set, err := clinicBind("to_bytes", args, kw, []string{"length", "byteorder", "signed"}, 2, 0)
	if err != nil {
		return Value{}, err
	}
	length := int64(1)
	if set[0] {
		if length, err = intArg(a[0]); err != nil {
			return Value{}, err
		}
	}
	order, signed, err := orderAndSign("to_bytes", a, set)
	if err != nil {
		return Value{}, err
	}
	if length < 0 {
		return Value{}, valueErr("length argument must be non-negative")
	}
	x := bigOf(recv)
	if x.Sign() < 0 && !signed {
		return Value{}, pyErr("OverflowError", "can't convert negative int to unsigned")
	}
	// the bits the value needs: a signed one a sign bit more
	need := x.BitLen()
	if signed {
		if x.Sign() < 0 {
			// -2**(k-1) fits k bits: the bits of -x-1, and the sign
			need = new(big.Int).Not(x).BitLen()
		}
		if need > 0 || length > 0 {
			// CPython checks no sign bit in no bytes: 0 and -1 fit
			need++
		}
	}
	if int64(need) > length*8 {
		return Value{}, pyErr("OverflowError", "int too big to convert")
	}
	u := x
	if x.Sign() < 0 {
		// two's complement in length bytes
		u = new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), uint(length*8)), x)
	}
	b := make([]byte, length)
	u.FillBytes(b)
	if order == "little" {
		for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
	}
	return ObjectV(&bytesObj{b: string(b)}), nil
}

// intFromBytes is int.from_bytes(bytes, byteorder='big', *,
// signed=False), called on an int or a bool (a bool's class makes a
// bool of the result).
func intFromBytes(c *Ctx, recv Value, args []Value, kw []Kwarg) (Value, error) {
	a, set, err := clinicBind("from_bytes", args, kw, []string{"bytes", "byteorder", "signed"}, 2, 1)
	if err != nil {
		return Value{}, err
	}
	order, signed, err := orderAndSign("from_bytes", a, set)
	if err != nil {
		return Value{}, err
	}
	b, err := bytesFromObject(c, a[0])
	if err != nil {
		return Value{}, err
	}
	if order == "little" {
		r := []byte(b)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		b = string(r)
	}
	x := new(big.Int).SetBytes([]byte(b))
	if signed && len(b) > 0 && b[0]&0x80 != 0 {
		x.Sub(x, new(big.Int).Lsh(big.NewInt(1), uint(len(b)*8)))
	}
	if recv.kind == KindBool {
		return BoolV(x.Sign() != 0), nil
	}
	return BigIntV(x), nil
}

// bytesFromObject is PyBytes_FromObject: bytes as they are, the ints of
// an iterable other than a str, each in range(0, 256).
func bytesFromObject(c *Ctx, v Value) (string, error) {
	if v.kind == KindObject {
		if o, ok := v.ref.(*bytesObj); ok {
			return o.b, nil
		}
	}
	cannot := typeErr("cannot convert '%s' object to bytes", TypeName(v))
	switch v.kind {
	case KindStr, KindInt, KindBool, KindFloat, KindNone, KindFunc:
		return "", cannot
	}
	items, err := Iterate(c, v)
	if err != nil {
		if e, ok := err.(*Error); ok && e.Kind == "TypeError" && strings.HasSuffix(e.Msg, "is not iterable") {
			return "", cannot
		}
		return "", err
	}
	var sb strings.Builder
	for _, it := range items {
		if !isIntLike(it) {
			return "", typeErr("'%s' object cannot be interpreted as an integer", TypeName(it))
		}
		if it.isBig() || it.n < 0 || it.n > 255 {
			return "", valueErr("bytes must be in range(0, 256)")
		}
		sb.WriteByte(byte(it.n))
	}
	return sb.String(), nil
}
