package jinja2

import "testing"

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
