package jinja2

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
