package jinja2

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPyIsLowerUpper: str.islower and str.isupper as Python gives them,
// with title case (ǅ) cased but neither, and digits uncased:
//
//	python3 -c "print([(s.islower(), s.isupper()) for s in S])"
func TestPyIsLowerUpper(t *testing.T) {
	for _, tc := range []struct {
		s            string
		lower, upper bool
	}{
		{"abc", true, false}, {"ABC", false, true}, {"aBc", false, false},
		{"ǅa", false, false}, {"ǅ", false, false}, {"123", false, false},
		{"a1", true, false}, {"A1", false, true}, {"", false, false},
		{"ß", true, false}, {"İ", false, true},
	} {
		assert.Equal(t, tc.lower, pyIsLower(tc.s), "%q.islower()", tc.s)
		assert.Equal(t, tc.upper, pyIsUpper(tc.s), "%q.isupper()", tc.s)
	}
}

// appendStrMethod writes what the str method returns, for every ASCII
// str of up to three bytes and some longer ones, and refuses the rest.
func TestAppendStrMethodIsTheMethod(t *testing.T) {
	methods := map[string]func(string) string{
		"upper": pyUpper, "lower": pyLower, "title": pyTitle, "capitalize": pyCapitalize,
		"lstrip": func(s string) string { return pyStrip(s, nil, true, false) },
		"rstrip": func(s string) string { return pyStrip(s, nil, false, true) },
	}
	var strs []string
	for a := 0; a < 128; a++ {
		strs = append(strs, string(rune(a)))
		for b := 0; b < 128; b += 3 {
			strs = append(strs, string([]byte{byte(a), byte(b)}), string([]byte{byte(b), byte(a), 'x'}), string([]byte{'A', byte(a), byte(b)}))
		}
	}
	strs = append(strs, "", "assistant", "GPT4 correct USER", "o'neil 1st x2y_z", " \t\v\f\r\n\x1c\x1d\x1e\x1f tool \x1f")
	for name, py := range methods {
		fn := appendStrMethod(name)
		require.NotNil(t, fn, name)
		for _, s := range strs {
			got, ok := fn([]byte("<"), s)
			require.True(t, ok, "%s(%q)", name, s)
			require.Equal(t, "<"+py(s), string(got), "%s(%q)", name, s)
		}
		for _, s := range []string{"straße", "ǆ", "İ", "ΣΣ", "\u3000x\u00a0"} {
			if got, ok := fn(nil, s); ok {
				require.Equal(t, py(s), string(got), "%s(%q)", name, s)
			}
		}
	}
	require.Nil(t, appendStrMethod("strip"))
	require.Nil(t, appendStrMethod("swapcase"))
}
