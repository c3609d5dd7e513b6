package pongo2_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/pongo2"
)

// A for loop over a Go map visits its keys in order (pongo2's sorted
// order: numbers by value, anything else by its text), as the jinja and
// gotmpl engines do, so that a prompt renders the same every time: pongo2
// v6 alone takes Go's random map order unless the loop says sorted. Loops
// over lists and strings keep their order.
func TestForOverMapInKeyOrder(t *testing.T) {
	set := engine.NewSet(pongo2.New())
	vars := map[string]any{
		"m":     map[string]any{"f": 6, "b": 2, "e": 5, "a": 1, "d": 4, "c": 3},
		"n":     map[int]string{10: "x", 2: "y", -1: "z"},
		"empty": map[string]any{},
		"l":     []any{"z", "a", "m"},
		"s":     "zab",
		"o":     map[string]any{"m": map[string]int{"y": 1, "x": 2}},
	}
	tests := []struct{ name, src, want string }{
		{"keys", `{% for k in m %}{{ k }}{% endfor %}`, "abcdef"},
		{"keys and values", `{% for k, v in m %}{{ k }}={{ v }},{% endfor %}`, "a=1,b=2,c=3,d=4,e=5,f=6,"},
		{"reversed", `{% for k, v in m reversed %}{{ k }}{% endfor %}|{% for k in m reversed %}{{ k }}{% endfor %}`, "fedcba|fedcba"},
		{"sorted already", `{% for k in m sorted %}{{ k }}{% endfor %}`, "abcdef"},
		{"int keys", `{% for k, v in n %}{{ k }}{{ v }} {% endfor %}`, "-1z 2y 10x"},
		{"forloop and empty", `{% for k in m %}{{ forloop.Counter }}{% if forloop.Last %}.{% endif %}{% endfor %}{% for k in empty %}x{% empty %}none{% endfor %}`, "123456.none"},
		{"filtered and nested", `{% for k in o.m|default:m %}{{ k }}{% endfor %}`, "xy"},
		{"list", `{% for x in l %}{{ x }}{% endfor %}{% for x in l reversed %}{{ x }}{% endfor %}`, "zammaz"},
		{"string", `{% for c in s %}{{ c }}{% endfor %}`, "zab"},
		{"two variables over a string", `{% for a, b in s %}{{ a }}{% endfor %}`, "abz"},
		{"trim markers", `{%- for k in m -%}{{ k }}{%- endfor -%}`, "abcdef"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.Parse("pongo2", "t.pongo2", `{% user %}`+tc.src+`{% enduser %}`)
			require.NoError(t, err)
			for range 20 {
				msgs, err := tpl.Messages(context.Background(), vars)
				require.NoError(t, err)
				require.Len(t, msgs, 1)
				assert.Equal(t, tc.want, msgs[0].Text())
			}
		})
	}
}
