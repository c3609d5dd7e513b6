//go:build race

package jinja2

// raceEnabled: the race detector's sync.Pool drops a quarter of what is
// put back, so a render under it allocates the pooled state again.
const raceEnabled = true
