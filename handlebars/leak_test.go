package handlebars_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/aymerick/raymond"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/handlebars"
)

// badTemplates fail in raymond's parser at different places: a mismatched
// or unclosed block, a bad hash, an unclosed expression (a lexer error) and
// an unsupported partial block.
var badTemplates = []string{
	"{{#user}}hi{{/usr}}",
	"{{#if x}}a",
	"{{#message role=}}x{{/message}}",
	"{{x",
	"{{#> layout}}x{{/layout}}",
	"{{a.b.[c}}",
	"{{#each xs as ||}}{{/each}}",
	"{{{x}}",
}

func goroutines() int {
	// Let goroutines that are finishing finish.
	for i := 0; i < 5; i++ {
		runtime.Gosched()
		time.Sleep(time.Millisecond)
	}
	return runtime.NumGoroutine()
}

// TestNoGoroutineLeak compiles 1,000 bad templates: raymond.Parse leaks the
// goroutine of its lexer on every failed parse; rolemark's compile leaves the
// goroutine count where it was.
func TestNoGoroutineLeak(t *testing.T) {
	e := handlebars.New()
	before := goroutines()
	for i := 0; i < 1000; i++ {
		_, err := e.Compile("bad.hbs", badTemplates[i%len(badTemplates)], driver.Config{})
		require.Error(t, err)
	}
	require.Equal(t, before, goroutines(), "goroutines after 1,000 failed compiles")

	// The same with raymond alone, for contrast: ten parses that fail in
	// the parser before the lexer reached the end, ten goroutines left.
	before = goroutines()
	for i := 0; i < 10; i++ {
		_, err := raymond.Parse([]string{badTemplates[0], badTemplates[2]}[i%2] + " and more text")
		require.Error(t, err)
	}
	require.Equal(t, before+10, goroutines(), "raymond.Parse leaks one goroutine per failed parse")
}
