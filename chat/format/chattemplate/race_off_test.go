//go:build !race

package chattemplate

const raceEnabled = false
