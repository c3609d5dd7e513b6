package engine_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/internal/fixture"
	"github.com/rolemark/rolemark/roleparse"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestFixtures checks that every conversation's expected.json is what its
// expected.markup parses to (and rewrites it with -update), and that every
// conversation has all nine templates.
func TestFixtures(t *testing.T) {
	cases := fixture.Load(t, "")
	require.GreaterOrEqual(t, len(cases), 8)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			markup, err := os.ReadFile(filepath.Join(c.Dir, "expected.markup"))
			require.NoError(t, err)
			msgs, err := roleparse.Parse(string(markup))
			require.NoError(t, err)
			got, err := fixture.JSON(msgs)
			require.NoError(t, err)
			if *update {
				require.NoError(t, os.WriteFile(filepath.Join(c.Dir, "expected.json"), []byte(got), 0o644))
			}
			require.Equal(t, c.Expected, got)
		})
	}
}
