package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
)

// TestRenderOptionsApplyOnce: a render applies its options once, into the
// request's own memory, so an option costs no allocation of its own (the
// budget check applied them a second time into settings of their own,
// which escaped to the heap).
func TestRenderOptionsApplyOnce(t *testing.T) {
	set := engine.NewSet(gotmpl.New())
	tpl, err := set.Parse("gotmpl", "t", `<message role="user">Hi {{.name}}</message>`)
	require.NoError(t, err)
	ctx := context.Background()
	vars := map[string]any{"name": "Ann"}
	opt := engine.Data(map[string]any{"x": 1}) // made once: the closure is an allocation

	msgs, err := tpl.Messages(ctx, vars, opt)
	require.NoError(t, err)
	assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "Hi Ann")}, msgs)

	without := testing.AllocsPerRun(100, func() { _, _ = tpl.Messages(ctx, vars) })
	with := testing.AllocsPerRun(100, func() { _, _ = tpl.Messages(ctx, vars, opt) })
	assert.Equal(t, without, with)
}

// BenchmarkMessagesOption is a fast-path render with and without an option.
func BenchmarkMessagesOption(b *testing.B) {
	set := engine.NewSet(gotmpl.New())
	tpl, err := set.Parse("gotmpl", "t", `<message role="user">Hi {{.name}}</message>`)
	require.NoError(b, err)
	ctx := context.Background()
	vars := map[string]any{"name": "Ann"}
	for _, c := range []struct {
		name string
		opts []engine.RenderOption
	}{{"none", nil}, {"data", []engine.RenderOption{engine.Data(map[string]any{"x": 1})}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := tpl.Messages(ctx, vars, c.opts...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
