package pongo2_test

import (
	"context"
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/pongo2"
)

// TestFilterNeedsArgument: each pongo2 built-in filter whose argument is
// required, called without it, is a compile error at the filter's name, in
// {{ }} and in {% filter %}; with the argument its message gives, it
// compiles and renders.
func TestFilterNeedsArgument(t *testing.T) {
	require.Equal(t, []string{"add", "cut", "date", "default", "default_if_none", "divisibleby",
		"get_digit", "length_is", "removetags", "slice", "split", "stringformat", "time",
		"truncatechars", "truncatewords", "urlizetrunc", "wordwrap"}, slices.Sorted(maps.Keys(pongo2.ArgFilters)))
	set := engine.NewSet(pongo2.New()).Option(engine.AllowMissing())
	for name, example := range pongo2.ArgFilters {
		t.Run(name, func(t *testing.T) {
			want := `t.pongo2:2:8: filter "` + name + `" needs its argument, as in |` + example
			_, err := set.Parse("pongo2", "t.pongo2", "{{ x }}\n😀 {{ x|"+name+" }}")
			require.EqualError(t, err, want)
			_, err = set.Parse("pongo2", "t.pongo2", "{{ x }}\n😀 {% filter "+name+" %}x{% endfilter %}")
			require.EqualError(t, err, `t.pongo2:2:13: filter "`+name+`" needs its argument, as in |`+example)
			tpl, err := set.Parse("pongo2", "t.pongo2", "{{ x }}\n{% if x %}{{ x|"+example+" }}{% endif %}")
			require.NoError(t, err)
			_, err = tpl.Render(context.Background(), nil)
			require.NoError(t, err)
		})
	}
	for _, optional := range []string{"join", "floatformat", "pluralize", "yesno", "urlize", "escape"} {
		_, err := set.Parse("pongo2", "t.pongo2", "{{ x|"+optional+" }}")
		require.NoError(t, err, optional)
	}
}
