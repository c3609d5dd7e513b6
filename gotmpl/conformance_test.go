package gotmpl_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/internal/fixture"
)

// TestConversations renders every .tmpl conversation in testdata and
// compares the messages with expected.json byte for byte, with and without
// AllowMissing (which formats each printed value with a function before the
// escaping writer escapes it) and with the markup functions both expanded
// at compile time and called.
func TestConversations(t *testing.T) {
	sets := map[string]*engine.Set{
		"default":                 engine.NewSet(gotmpl.New()),
		"AllowMissing":            engine.NewSet(gotmpl.New()).Option(engine.AllowMissing()),
		"unexpanded":              engine.NewSet(gotmpl.NewUnexpanded()),
		"unexpanded/AllowMissing": engine.NewSet(gotmpl.NewUnexpanded()).Option(engine.AllowMissing()),
	}
	n := 0
	for _, c := range fixture.Load(t, ".tmpl") {
		require.Len(t, c.Templates, 3, "%s: want literal, marker and block templates", c.Name)
		for _, file := range c.TemplateNames() {
			for mode, set := range sets {
				n++
				t.Run(mode+"/"+c.Name+"/"+file, func(t *testing.T) {
					tpl, err := set.Parse("gotmpl", file, c.Templates[file])
					require.NoError(t, err)
					c.Check(t, tpl)
				})
			}
		}
	}
	require.GreaterOrEqual(t, n, 4*27)
}
