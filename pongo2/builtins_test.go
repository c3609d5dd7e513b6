package pongo2_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/pongo2"
)

// TestWidthratio: pongo2's widthratio, whose arithmetic rolemark keeps,
// except for a zero maximum, where pongo2 v6 printed
// -9223372036854775808 (a division by zero converted to an int as it is):
// 0, as Django prints it; an infinite value prints as empty.
func TestWidthratio(t *testing.T) {
	vars := map[string]any{"v": 175, "max": 200, "zero": 0, "inf": 1e308}
	tests := []struct{ src, want string }{
		{"{% widthratio v max 100 %}", "88"},
		{"{% widthratio 1 3 100 %}", "34"},
		{"{% widthratio v zero 100 %}", "0"},
		{"{% widthratio 0 0 100 %}", "0"},
		{"{% widthratio inf 1 inf %}", ""},
		{"{% widthratio v max 100 as w %}[{{ w }}]", "[88]"},
		{"{% widthratio v zero 100 as w %}[{{ w }}]", "[0]"},
		{"a\n {% widthratio v max 100 %}\n b", "a\n 88\n b"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			tpl, err := engine.NewSet(pongo2.New()).Parse("pongo2", "t.pongo2", tt.src)
			require.NoError(t, err)
			out, err := tpl.Render(context.Background(), vars)
			require.NoError(t, err)
			assert.Equal(t, tt.want, out)
		})
	}
	for _, src := range []string{"{% widthratio v max %}", "{% widthratio v max 100 as %}", "{% widthratio v max 100 junk %}"} {
		t.Run(src, func(t *testing.T) {
			_, err := engine.NewSet(pongo2.New()).Parse("pongo2", "t.pongo2", src)
			require.Error(t, err)
		})
	}
}

// TestForOverANonList: a for loop over a number, a bool or a struct is an
// error at the loop, as Django's TypeError; pongo2 v6 looped zero times
// and printed nothing. A list, a map, a string and nil loop as before.
func TestForOverANonList(t *testing.T) {
	vars := map[string]any{"n": 5, "b": true, "f": 1.5, "s": struct{ A int }{1}, "l": []int{1, 2}, "m": map[string]int{"k": 1}, "str": "ab", "none": nil}
	tests := []struct{ src, want string }{
		{"x\n{% for x in n %}{{ x }}{% endfor %}", `t.pongo2:2:14: for cannot loop over 5, a value of type int`},
		{"{% for x in b %}{{ x }}{% endfor %}", `t.pongo2:1:14: for cannot loop over true, a value of type bool`},
		{"{% for x in f %}{{ x }}{% endfor %}", `t.pongo2:1:14: for cannot loop over 1.5, a value of type float64`},
		{"{% for k, v in s %}{{ k }}{% endfor %}", `t.pongo2:1:17: for cannot loop over {1}, a value of type struct { A int }`},
		{"{% for x in l %}{{ x }}{% endfor %}|{% for k in m %}{{ k }}{% endfor %}|{% for c in str %}{{ c }}{% endfor %}|{% for x in none %}{{ x }}{% endfor %}", "12|k|ab|"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			tpl, err := engine.NewSet(pongo2.New()).Parse("pongo2", "t.pongo2", tt.src)
			require.NoError(t, err)
			out, err := tpl.Render(context.Background(), vars)
			if err != nil {
				assert.Equal(t, tt.want, err.Error())
				return
			}
			assert.Equal(t, tt.want, out)
		})
	}
}
