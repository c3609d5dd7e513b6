package engine_test

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
)

// TestMessagesKeepNoLargeBuffer checks that the messages of a small render
// do not keep alive a buffer sized for an earlier large one: the messages
// share the memory they were rendered into.
func TestMessagesKeepNoLargeBuffer(t *testing.T) {
	tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "t", `<message role="user">{{.x}}</message>`)
	require.NoError(t, err)
	ctx := context.Background()
	_, err = tpl.Messages(ctx, map[string]any{"x": strings.Repeat("a", 900<<10)})
	require.NoError(t, err)
	_, err = tpl.Render(ctx, map[string]any{"x": strings.Repeat("b", 900<<10)}) // a large pooled buffer
	require.NoError(t, err)

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := make([][]chat.Message, 100)
	for i := range kept {
		kept[i], err = tpl.Messages(ctx, map[string]any{"x": "short question"})
		require.NoError(t, err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	require.Less(t, grown, int64(10<<20), "100 small results keep %d KB", grown>>10)
	require.Equal(t, "short question", kept[99][0].Text())
	runtime.KeepAlive(kept)
}
