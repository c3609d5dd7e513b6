package jinja2

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMethodsAgainstPython checks every call in testdata/methods.txt,
// which Python wrote (testdata/methods.py): str, list and dict methods,
// format() and % formatting. A list's insert answers with the list after
// the call.
func TestMethodsAgainstPython(t *testing.T) {
	failures := 0
	for _, parts := range pyRows(t, "testdata/methods.txt", 5, 1313) {
		recv, name, want := parsePyLit(t, parts[0]), parts[1], parts[4]
		args := parsePyLit(t, parts[2]).Items()
		var kw []Kwarg
		d := parsePyLit(t, parts[3]).DictOf()
		for i, k := range d.Keys() {
			kw = append(kw, Kwarg{Name: k.Str(), Value: d.Values()[i]})
		}
		var got string
		switch {
		case name == "format" && recv.Kind() == KindNone:
			s, err := FormatValue(nil, args[0], args[1].Str())
			got = answer(StrV(s), err)
		case name == "%":
			got = answer(BinOp(nil, "%", recv, args[0]))
		case name == "insert": // the list after the call, as methods.py writes it
			_, err := CallMethod(nil, recv, name, args, kw)
			got = answer(recv, err)
		default:
			got = answer(CallMethod(nil, recv, name, args, kw))
		}
		if got != want {
			failures++
			if failures <= 60 {
				t.Errorf("%s.%s(%s, %s): got %s, want %s", parts[0], name, parts[2], parts[3], got, want)
			}
		}
	}
	if failures > 0 {
		t.Errorf("%d calls differ from Python", failures)
	}
}

// TestBoundMethodRepr: a builtin method read without a call prints as
// Python's repr of it, with one address per bound method, made when it is
// printed rather than when it is read (boundMethod built it at each read:
// a Sprintf and an Sscanf that a call never used).
func TestBoundMethodRepr(t *testing.T) {
	addr := `0x7f[0-9a-f]{10}`
	for _, tc := range []struct{ src, want string }{
		{`{{ "x".upper }}`, `^<built-in method upper of str object at ` + addr + `>$`},
		{`{{ [1].count }}`, `^<built-in method count of list object at ` + addr + `>$`},
		{`{{ (1.5).fromhex }}`, `^<built-in method fromhex of type object at ` + addr + `>$`},
		{`{{ "x".upper.__class__ }}`, `^<class 'builtin_function_or_method'>$`},
		{`{{ ["x".upper] }}`, `^\[<built-in method upper of str object at ` + addr + `>\]$`},
		{`{% set u = "x".upper %}{{ u is callable }} {{ u() }}`, `^True X$`},
	} {
		out, err := rtRender(t, New(), tc.src, nil)
		require.NoError(t, err, tc.src)
		assert.Regexp(t, tc.want, out, tc.src)
	}
	out, err := rtRender(t, New(), `{% set u = "x".upper %}{{ u }}|{{ u }}|{{ "x".upper }}`, nil)
	require.NoError(t, err)
	parts := strings.Split(out, "|")
	require.Len(t, parts, 3)
	assert.Equal(t, parts[0], parts[1], "one bound method, one address")
	assert.NotEqual(t, parts[0], parts[2], "another bound method, another address")
}
