// Package bench compares rolemark with the raw template engines it wraps and
// with peer libraries (Google's Dotprompt in Go, langchaingo), all rendering
// the same prompt: testdata/bench in the main module. It is its own module so
// that the peers never enter rolemark's go.mod. See README.md.
package bench
