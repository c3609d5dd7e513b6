package jinja2

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// renderAllocs is testing.AllocsPerRun of a render, which reuses pooled
// state. Under the race detector sync.Pool drops items at random, so the
// count is not the code's: the test is skipped there, and scripts/test-all
// runs the allocation tests again without the race detector.
func renderAllocs(t *testing.T, render func()) float64 {
	t.Helper()
	if raceEnabled {
		t.Skip("allocation counts of a pooled render hold only without -race; scripts/test-all runs them so")
	}
	return testing.AllocsPerRun(100, render)
}

// TestRenderAllocsUsed keeps the allocation tests of a pooled render on
// renderAllocs: testing.AllocsPerRun of a render fails at random under
// -race, which CI runs.
func TestRenderAllocsUsed(t *testing.T) {
	files, err := filepath.Glob("*_test.go")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, name := range files {
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		lines := strings.Split(string(src), "\n")
		for i, line := range lines {
			if !strings.Contains(line, "testing.AllocsPerRun(") || strings.HasPrefix(strings.TrimSpace(line), "//") || name == "alloc_helper_test.go" {
				continue
			}
			near := strings.Join(lines[i:min(i+3, len(lines))], "\n")
			assert.NotContains(t, near, "Render(", "%s:%d: count a render's allocations with renderAllocs", name, i+1)
		}
	}
}
