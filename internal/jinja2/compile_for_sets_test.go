package jinja2

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLoopLeadingSets renders loop bodies that start with sets, where a
// set the body's scope need not start (leadingSets) sits beside one that
// reads the value the iteration starts it with; the outputs are Jinja2
// 3.1.6's.
func TestLoopLeadingSets(t *testing.T) {
	ms := ListV([]Value{StrV("a"), StrV("b")})
	for _, c := range []struct{ src, want string }{
		{`{% set x = "o" %}{% for m in ms %}{% set x = x ~ m %}{{ x }}{% endfor %}{{ x }}`, "oaobo"},
		{`{% set x = "o" %}{% for m in ms %}{% set y = m %}{% set x = y ~ x %}{{ x }},{% endfor %}{{ x }}`, "ao,bo,o"},
		{`{% for m in ms %}{% set y = m %}{% set z = y ~ y %}{{ z }}{% endfor %}{{ z is defined }}`, "aabbFalse"},
		{`{% for m in ms %}{{ y is defined }}{% set y = m %}{% endfor %}`, "FalseFalse"},
		{`{% for m in ms %}{% set y = y is defined %}{{ y }}{% endfor %}`, "FalseFalse"},
		{"{% set y = 'o' %}{% for m in ms %}\n{% set y = m %}{{ y }}{% endfor %}{{ y }}", "\na\nbo"},
	} {
		got, err := rtRender(t, New(), c.src, map[string]Value{"ms": ms})
		require.NoError(t, err, c.src)
		require.Equal(t, c.want, got, c.src)
	}
}
