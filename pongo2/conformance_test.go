package pongo2_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/internal/fixture"
	"github.com/rolemark/rolemark/pongo2"
)

// TestConformance renders every conversation's literal.pongo2, marker.pongo2 and
// block.pongo2, parsed from source and loaded from the file system, and compares
// the messages with expected.json byte for byte.
func TestConformance(t *testing.T) {
	set := engine.NewSet(pongo2.New())
	cases := fixture.Load(t, ".pongo2")
	require.NotEmpty(t, cases)
	n := 0
	for _, c := range cases {
		require.Len(t, c.Templates, 3, "%s: want literal.pongo2, marker.pongo2 and block.pongo2", c.Name)
		for _, name := range c.TemplateNames() {
			n++
			t.Run(c.Name+"/"+name, func(t *testing.T) {
				parsed, err := set.Parse("pongo2", name, c.Templates[name])
				require.NoError(t, err)
				loaded, err := set.ParseFS(os.DirFS(fixture.Root()), c.Name+"/"+name)
				require.NoError(t, err)
				for _, tpl := range []*engine.Template{parsed, loaded} {
					c.Check(t, tpl, "template:\n%s", c.Templates[name])
				}
			})
		}
	}
	require.Equal(t, 33, n)
}
