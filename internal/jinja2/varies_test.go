package jinja2

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A render that reads a random number or an object's address moves
// VaryCount; one that reads only its variables and its own text does
// not (two such renders with the same variables write the same).
func TestVaryCount(t *testing.T) {
	env := New(Sandbox())
	for _, tc := range []struct {
		name, src string
		varies    bool
	}{
		{"variables", "{% for m in ms %}<|{{ m.k }}|>{{ m.k|upper }}{{ loop.index }}{% endfor %}{{ ms|tojson }}", false},
		{"random", "{{ ms|random }}", true},
		{"random by map", "{{ [ms]|map('random')|list|length }}", true},
		{"lipsum", "{{ lipsum(1)|length > 0 }}", true},
		{"a cycler's repr", "{{ (cycler(1)|string)[:6] }}", true},
		{"a method's repr", "{{ ('x'.upper|string)[:6] }}", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmpl, err := env.Parse("t", tc.src)
			require.NoError(t, err)
			ms := ListV([]Value{DictV(StrDict([]Value{StrV("k"), StrV("a")}))})
			before := VaryCount()
			_, err = tmpl.Render(context.Background(), map[string]Value{"ms": ms})
			require.NoError(t, err)
			assert.Equal(t, tc.varies, VaryCount() != before)
		})
	}
}
