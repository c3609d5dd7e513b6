package handlebars_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

// {{#each}} over a Go map visits its entries in the order of their keys, as
// the jinja and gotmpl engines do, so that a prompt renders the same every
// time (raymond alone visits them in Go's random map order). Everything
// else #each does stays raymond's: @index, @key, @first, @last, {{else}},
// slices and structs in their order, a block parameter.
func TestEachMapInKeyOrder(t *testing.T) {
	set := engine.NewSet(handlebars.New())
	m := map[string]any{"f": 6, "b": 2, "e": 5, "a": 1, "d": 4, "c": 3, "é": 7, "B": 0}
	tests := []struct {
		name, src string
		vars      map[string]any
		want      string
	}{
		{"map", `{{#each m}}{{@index}}:{{@key}}={{this}}{{#if @first}}F{{/if}}{{#if @last}}L{{/if}} {{/each}}`, map[string]any{"m": m},
			"0:B=0F 1:a=1 2:b=2 3:c=3 4:d=4 5:e=5 6:f=6 7:é=7L "},
		{"int keys", `{{#each m}}{{@key}}={{this}} {{/each}}`, map[string]any{"m": map[int]string{10: "x", 2: "y", -1: "z"}},
			"-1=z 2=y 10=x "},
		{"block parameter", `{{#each m as |v|}}{{v}}{{/each}}`, map[string]any{"m": m}, "01234567"},
		{"empty map", `{{#each m}}x{{else}}none{{/each}}`, map[string]any{"m": map[string]any{}}, "none"},
		{"slice", `{{#each s}}{{@index}}{{@key}}{{this}}{{#if @last}}L{{/if}},{{/each}}`, map[string]any{"s": []any{"z", "y"}}, "0z,1yL,"},
		{"struct", `{{#each s}}{{@key}}={{this}} {{/each}}`, map[string]any{"s": struct {
			Z, A int
			x    int
		}{1, 2, 3}}, "Z=1 A=2 "},
		{"two block parameters keep raymond's #each", `{{#each s as |v i|}}{{i}}{{v}}{{/each}}{{#each m}}{{/each}}`, map[string]any{"s": []string{"a", "b"}, "m": m}, "0a1b"},
		// NaN is a key no lookup finds (raymond's own #each panics on it)
		{"NaN key", `{{#each m}}{{@key}}={{this}} {{/each}}`, map[string]any{"m": map[float64]int{math.NaN(): 1, 2: 3}}, "NaN=1 2=3 "},
		{"mixed keys", `{{#each m}}{{@key}} {{/each}}`, map[string]any{"m": map[any]int{"b": 1, 2: 2, "a": 3}}, "2 a b "},
		{"empty block", `{{#each m}}{{/each}}.`, map[string]any{"m": m}, "."},
		{"nested", `{{#each m}}{{#each ../m}}{{@../key}}{{@key}} {{/each}}{{/each}}`, map[string]any{"m": map[string]int{"b": 1, "a": 2}},
			"aa ab ba bb "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for range 20 {
				assert.Equal(t, tc.want, render(t, set, tc.src, tc.vars))
			}
		})
	}
}
