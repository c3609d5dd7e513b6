package driver_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine/driver"
)

func TestCompileSkeletonRefusesHistory(t *testing.T) {
	_, ok := driver.CompileSkeleton([]string{`<message role="user">`, `</message>` + driver.HistoryMarker}, nil)
	require.False(t, ok)
	_, ok = driver.CompileSkeleton([]string{`<message role="user">`, `</message>`}, nil)
	require.True(t, ok)
}

func TestMemoryMessages(t *testing.T) {
	sk, ok := driver.CompileSkeleton([]string{`<message role="system">Hi </message><message role="user">`, `</message>`}, nil)
	require.True(t, ok)
	var mem driver.Memory
	first, err := mem.Messages(sk, []string{"one"})
	require.NoError(t, err)
	require.Equal(t, []chat.Message{chat.Text(chat.RoleSystem, "Hi"), chat.Text(chat.RoleUser, "one")}, first)
	// The next render writes over the first's messages and text.
	second, err := mem.Messages(sk, []string{"two"})
	require.NoError(t, err)
	require.Equal(t, []chat.Message{chat.Text(chat.RoleSystem, "Hi"), chat.Text(chat.RoleUser, "two")}, second)
	require.Equal(t, "two", first[1].Content[0].Text)
	require.Zero(t, testing.AllocsPerRun(100, func() { _, _ = mem.Messages(sk, []string{"three"}) }))
	// A longer text grows the memory.
	long := strings.Repeat("x", 1000)
	msgs, err := mem.Messages(sk, []string{long})
	require.NoError(t, err)
	require.Equal(t, long, msgs[1].Content[0].Text)
	require.GreaterOrEqual(t, cap(mem.Text), len(long))
	// A large text is kept for the renders of its size.
	_, _ = mem.Messages(sk, []string{strings.Repeat("x", 600<<10)})
	big := []string{strings.Repeat("y", 700<<10)}
	_, _ = mem.Messages(sk, big)
	require.Zero(t, testing.AllocsPerRun(10, func() { _, _ = mem.Messages(sk, big) }))
	// Too large a text is not kept.
	_, _ = mem.Messages(sk, []string{strings.Repeat("z", 2<<20)})
	require.LessOrEqual(t, cap(mem.Text), 1<<20)
	// Without memory, every render's messages are their own.
	var none *driver.Memory
	a, err := none.Messages(sk, []string{"a"})
	require.NoError(t, err)
	b, err := none.Messages(sk, []string{"b"})
	require.NoError(t, err)
	require.Equal(t, "a", a[1].Content[0].Text)
	require.Equal(t, "b", b[1].Content[0].Text)
	_, err = mem.Messages(sk, nil)
	require.Error(t, err)
}
