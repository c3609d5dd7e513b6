package jinja2

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// pyLit reads the Python literals testdata/ops.py writes: numbers (with
// ** and unary minus), float('inf'), strings with escapes, None, True,
// False, lists, tuples and dicts.
type pyLit struct {
	s string
	i int
}

func parsePyLit(t *testing.T, s string) Value {
	t.Helper()
	p := &pyLit{s: s}
	v := p.expr(t)
	require.Equal(t, len(s), p.i, "literal %q not read to its end", s)
	return v
}

func (p *pyLit) peek(prefix string) bool { return strings.HasPrefix(p.s[p.i:], prefix) }

func (p *pyLit) skip() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *pyLit) expr(t *testing.T) Value {
	p.skip()
	if p.peek("-") {
		p.i++
		v, err := UnaryOp(nil, "-", p.expr(t))
		require.NoError(t, err)
		return v
	}
	v := p.atom(t)
	p.skip()
	if p.peek("**") {
		p.i += 2
		w := p.atom(t)
		r, err := BinOp(nil, "**", v, w)
		require.NoError(t, err)
		return r
	}
	return v
}

func (p *pyLit) atom(t *testing.T) Value {
	p.skip()
	switch {
	case p.peek("None"):
		p.i += 4
		return NoneV()
	case p.peek("True"):
		p.i += 4
		return BoolV(true)
	case p.peek("False"):
		p.i += 5
		return BoolV(false)
	case p.peek("float('inf')"):
		p.i += 12
		return FloatV(math.Inf(1))
	case p.peek("float('nan')"):
		p.i += 12
		return FloatV(math.NaN())
	case p.peek("'"), p.peek("\""):
		return StrV(p.str(t))
	case p.peek("["), p.peek("("):
		closer := "]"
		if p.s[p.i] == '(' {
			closer = ")"
		}
		p.i++
		var items []Value
		for {
			p.skip()
			if p.peek(closer) {
				p.i++
				break
			}
			items = append(items, p.expr(t))
			p.skip()
			if p.peek(",") {
				p.i++
			}
		}
		if closer == ")" {
			return TupleV(items)
		}
		return ListV(items)
	case p.peek("{"):
		p.i++
		d := NewDict(0)
		for {
			p.skip()
			if p.peek("}") {
				p.i++
				break
			}
			k := p.expr(t)
			p.skip()
			require.True(t, p.peek(":"))
			p.i++
			d.Set(k, p.expr(t))
			p.skip()
			if p.peek(",") {
				p.i++
			}
		}
		return DictV(d)
	}
	j := p.i
	for j < len(p.s) && strings.IndexByte("0123456789.e-+", p.s[j]) >= 0 && !(j > p.i && (p.s[j] == '-' || p.s[j] == '+') && p.s[j-1] != 'e') {
		j++
	}
	lit := p.s[p.i:j]
	p.i = j
	if strings.ContainsAny(lit, ".e") {
		f, err := strconv.ParseFloat(lit, 64)
		require.NoError(t, err, lit)
		return FloatV(f)
	}
	n, err := strconv.ParseInt(lit, 10, 64)
	require.NoError(t, err, lit)
	return IntV(n)
}

func (p *pyLit) str(t *testing.T) string {
	q := p.s[p.i]
	p.i++
	var b strings.Builder
	for p.s[p.i] != q {
		c := p.s[p.i]
		if c != '\\' {
			b.WriteByte(c)
			p.i++
			continue
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			r, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
			require.NoError(t, err)
			b.WriteRune(rune(r))
			p.i += n
		default:
			b.WriteByte(e)
		}
	}
	p.i++
	return b.String()
}

// answer writes a result as testdata/ops.py does.
func answer(v Value, err error) string {
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return "!" + e.Kind + ": " + e.Msg
		}
		return "!" + err.Error()
	}
	return TypeName(v) + ":" + Repr(v)
}

// TestOpsAgainstPython checks every operation in testdata/ops.txt, which
// Python wrote (testdata/ops.py).
func TestOpsAgainstPython(t *testing.T) {
	failures := 0
	for _, parts := range pyRows(t, "testdata/ops.txt", 4, 47108) {
		op, want := parts[0], parts[3]
		a := parsePyLit(t, parts[1])
		var got string
		switch op {
		case "str":
			s, err := ToStr(nil, a)
			got = answer(StrV(s), err)
		case "repr":
			got = answer(StrV(Repr(a)), nil)
		case "bool":
			got = answer(BoolV(a.Truth()), nil)
		case "neg":
			got = answer(UnaryOp(nil, "-", a))
		case "len":
			n, err := Len(a)
			got = answer(IntV(int64(n)), err)
		case "==", "!=", "<", "<=", ">", ">=", "in":
			r, err := Compare(nil, op, a, parsePyLit(t, parts[2]))
			got = answer(BoolV(r), err)
		default:
			got = answer(BinOp(nil, op, a, parsePyLit(t, parts[2])))
		}
		if got != want && !(op == "%" && a.kind == KindStr) {
			failures++
			if failures <= 40 {
				t.Errorf("%s %s %s: got %s, want %s", parts[1], op, parts[2], got, want)
			}
		}
	}
	if failures > 0 {
		t.Errorf("%d operations differ from Python", failures)
	}
}

func bigPow10(n int64) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(n), nil) }

// TestSliceAgainstPython checks every slice in testdata/slices.txt, which
// Python wrote (testdata/slices.py): str slices of ASCII and of other
// text by every step, list and tuple slices, bounds past either end.
func TestSliceAgainstPython(t *testing.T) {
	for _, parts := range pyRows(t, "testdata/slices.txt", 5, 2916) {
		var b [3]Value
		for i, s := range parts[1:4] {
			if s != "" {
				b[i] = parsePyLit(t, s)
			}
		}
		got := answer(Slice(nil, parsePyLit(t, parts[0]), b[0], b[1], b[2]))
		require.Equal(t, parts[4], got, "%s[%s:%s:%s]", parts[0], parts[1], parts[2], parts[3])
	}
	// A Go string that is not UTF-8 slices as the str of its runes, each
	// invalid byte a U+FFFD.
	for _, step := range []Value{{}, IntV(-1)} {
		got, err := Slice(nil, StrV("a\xffb\xe9"), IntV(1), Value{}, step)
		require.NoError(t, err)
		if step.kind == KindUndefined {
			require.Equal(t, "\ufffdb\ufffd", got.s)
		} else {
			require.Equal(t, "\ufffda", got.s)
		}
	}
}

// TestASCIIPrefix: the word-at-a-time scan stops at the first non-ASCII
// byte wherever it falls in a word or a 32-byte block, and Len counts
// the runes after it.
func TestASCIIPrefix(t *testing.T) {
	for n := range 100 {
		a := strings.Repeat("a", n)
		require.Equal(t, n, asciiPrefix(a))
		require.Equal(t, n, asciiPrefix(a+"é"+a))
		require.Equal(t, n, asciiPrefix(a+"\xff"))
		l, err := Len(StrV(a + "é😀" + a))
		require.NoError(t, err)
		require.Equal(t, 2*n+2, l)
	}
}

// TestStrASCIIFlag: a str that enters from Go knows whether it is ASCII,
// a slice of an ASCII str keeps knowing it (and stays Markup when it was),
// and Len and Slice agree with the str's code points either way.
func TestStrASCIIFlag(t *testing.T) {
	long := strings.Repeat("line: ok\n", 2000)
	for _, tc := range []struct {
		s     string
		ascii bool
	}{{long, true}, {"", true}, {long + "é", false}, {"\xff", false}} {
		v := FromGo(tc.s)
		require.Equal(t, tc.ascii, v.flags&flagASCII != 0, "%.20q", tc.s)
		n, err := Len(v)
		require.NoError(t, err)
		require.Equal(t, utf8.RuneCountInString(tc.s), n)
	}
	v := FromGo(long)
	head, err := Slice(nil, v, Value{}, IntV(5000), Value{})
	require.NoError(t, err)
	require.Equal(t, long[:5000], head.s)
	require.NotZero(t, head.flags&flagASCII)
	tail, err := Slice(nil, SafeV(long), IntV(-5000), Value{}, Value{})
	require.NoError(t, err)
	require.Equal(t, long[len(long)-5000:], tail.s)
	require.True(t, tail.IsSafe())
	require.NotZero(t, tail.flags&flagASCII)
	d := FromGo(map[string]any{"output": long, "list": []string{"a", "é"}})
	out, err := GetItem(nil, d, StrV("output"))
	require.NoError(t, err)
	require.NotZero(t, out.flags&flagASCII)
}
