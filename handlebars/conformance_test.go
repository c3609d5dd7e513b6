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
	n := fixture.EachTemplate(t, ".hbs", func(t *testing.T, c fixture.Case, name string) {
		tpl, err := set.ParseFS(os.DirFS(c.Dir), name)
		require.NoError(t, err)
		c.Check(t, tpl, "template:\n%s", c.Templates[name])
	})
	require.GreaterOrEqual(t, n, 27)
}
