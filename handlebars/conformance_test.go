package handlebars_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/internal/fixture"
)

// TestConformance renders every .hbs template of testdata/conversations and
// compares its messages with expected.json byte for byte.
func TestConformance(t *testing.T) {
	set := engine.NewSet(handlebars.New())
	cases := fixture.Load(t, ".hbs")
	n := 0
	for _, c := range cases {
		require.Len(t, c.Templates, 3, "%s: want literal.hbs, marker.hbs and block.hbs", c.Name)
		for _, name := range c.TemplateNames() {
			n++
			t.Run(c.Name+"/"+name, func(t *testing.T) {
				tpl, err := set.ParseFS(os.DirFS(c.Dir), name)
				require.NoError(t, err)
				c.Check(t, tpl, "template:\n%s", c.Templates[name])
			})
		}
	}
	require.GreaterOrEqual(t, n, 27)
}
