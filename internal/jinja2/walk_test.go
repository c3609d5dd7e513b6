package jinja2

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWalk(t *testing.T) {
	tests := []struct {
		name, src string
		want      string
	}{
		{"print", "a{{ x.y[0] ~ 'b' }}", "Text:a Print Concat ItemExpr AttrExpr Name:x Const:0 Const:b"},
		{"if and for", "{% if a == 1 %}{% for k, v in d|items if v %}{{ k }}{% else %}e{% endfor %}{% endif %}",
			"If CompareExpr Name:a Const:1 For TupleLit Name:k Name:v FilterExpr Name:d Name:v Print Name:k Text:e"},
		{"set, macro, call", "{% set n = [1, {'k': f(*a, z=2)}] %}{% macro m(p='d') %}{{ caller() }}{% endmacro %}{% call m() %}c{% endcall %}",
			"Set Name:n ListLit Const:1 DictLit Const:k CallExpr Name:f Const:2 Name:a Macro Const:d Print CallExpr Name:caller CallBlock CallExpr Name:m Text:c"},
		{"blocks", "{% with w = 1 %}{% filter upper %}{{ -w if w else not w }}{% endfilter %}{% endwith %}{% set s %}x{% endset %}",
			"With Name:w Const:1 FilterBlock FilterExpr Print CondExpr UnaryExpr Name:w Name:w UnaryExpr Name:w SetBlock Name:s Text:x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := New().Parse("t", tc.src)
			require.NoError(t, err)
			var got []string
			Walk(tpl.Tree().Body, func(n Node) bool {
				s := strings.TrimPrefix(fmt.Sprintf("%T", n), "*jinja2.")
				switch x := n.(type) {
				case *Name:
					s += ":" + x.Name
				case *Const:
					s += ":" + fmt.Sprint(Repr(x.Value))
				case *Text:
					s += ":" + x.Text
				}
				got = append(got, strings.ReplaceAll(s, "'", ""))
				return true
			})
			assert.Equal(t, tc.want, strings.Join(got, " "))
		})
	}
}

func TestWalkSkipsChildren(t *testing.T) {
	tpl, err := New().Parse("t", "{% if a %}{{ b }}{% endif %}{{ c }}")
	require.NoError(t, err)
	var names []string
	Walk(tpl.Tree().Body, func(n Node) bool {
		if x, ok := n.(*Name); ok {
			names = append(names, x.Name)
		}
		_, isIf := n.(*If)
		return !isIf
	})
	assert.Equal(t, []string{"c"}, names)
}
