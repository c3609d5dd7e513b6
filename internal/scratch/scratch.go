// Package scratch is the one way a render's messages go into memory that
// the next render writes over (driver.Memory): rolemark's batch package,
// which renders row after row and is done with each row's messages before
// the next, passes the memory in the render's context. The package is
// internal, so no caller outside the module can ask for such messages:
// every string engine.Template.Messages hands to a caller is one that never
// changes, as Go promises of strings.
package scratch

import (
	"context"

	"github.com/rolemark/rolemark/engine/driver"
)

type key struct{}

// With returns ctx carrying m: engine.Template.Messages renders into m
// where the engine renders straight to messages, and the messages, with
// the strings in them, are valid only until the next render with m. Pass
// the context to that render alone, never to code that could render with
// it while the messages are in use.
func With(ctx context.Context, m *driver.Memory) context.Context {
	return context.WithValue(ctx, key{}, m)
}

// From returns the memory ctx carries, or nil.
func From(ctx context.Context) *driver.Memory {
	m, _ := ctx.Value(key{}).(*driver.Memory)
	return m
}
