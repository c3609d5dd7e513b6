//go:build !race

package jinja2

const raceEnabled = false
