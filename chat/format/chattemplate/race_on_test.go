//go:build race

package chattemplate

// raceEnabled: the race detector's sync.Pool drops some of what is put
// back, so a render under it allocates the pooled state again.
const raceEnabled = true
