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
	n := fixture.EachTemplate(t, ".pongo2", func(t *testing.T, c fixture.Case, name string) {
		parsed, err := set.Parse("pongo2", name, c.Templates[name])
		require.NoError(t, err)
		loaded, err := set.ParseFS(os.DirFS(fixture.Root()), c.Name+"/"+name)
		require.NoError(t, err)
		for _, tpl := range []*engine.Template{parsed, loaded} {
			c.Check(t, tpl, "template:\n%s", c.Templates[name])
		}
	})
	require.Equal(t, 33, n)
}
