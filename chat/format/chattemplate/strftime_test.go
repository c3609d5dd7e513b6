package chattemplate

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
)

// strftime_now's text is kept while the second, the zone and the format
// are the same (templates call it at every rendering): a rendering in
// the same second allocates its output alone; another second, another
// zone, another format or microseconds give their own text.
func TestStrftimeNowKept(t *testing.T) {
	now := time.Date(2024, 7, 26, 9, 5, 7, 250_000_000, time.UTC)
	tpl, err := New(`{{ strftime_now("%d %b %Y %H:%M:%S") }}|{{ strftime_now("%Y-%m-%d") }}|{{ strftime_now("%S.%f") }}`,
		Clock(func() time.Time { return now }))
	require.NoError(t, err)
	msgs := []chat.Message{chat.Text(chat.RoleUser, "hi")}
	ctx := context.Background()
	render := func() string {
		out, err := tpl.Render(ctx, msgs, format.GenerationPrompt())
		require.NoError(t, err)
		return out
	}
	assert.Equal(t, "26 Jul 2024 09:05:07|2024-07-26|07.250000", render())
	now = now.Add(500 * time.Millisecond)
	assert.Equal(t, "26 Jul 2024 09:05:07|2024-07-26|07.750000", render())
	now = now.Add(500 * time.Millisecond)
	assert.Equal(t, "26 Jul 2024 09:05:08|2024-07-26|08.250000", render())
	now = now.In(time.FixedZone("X", -10*3600))
	assert.Equal(t, "25 Jul 2024 23:05:08|2024-07-25|08.250000", render())

	one, err := New(`{{ strftime_now("%d %b %Y") }}`, Clock(func() time.Time { return now }))
	require.NoError(t, err)
	out, err := one.Render(ctx, msgs)
	require.NoError(t, err)
	assert.Equal(t, "25 Jul 2024", out)
	if !raceEnabled {
		assert.Equal(t, 1.0, testing.AllocsPerRun(100, func() { _, _ = one.Render(ctx, msgs) }))
	}
}

// TestToolsVerdictKeptConcurrent: goroutines rendering three tool lists
// in turn (two clean, one holding a special token) share the memo's
// entries and the verdicts kept with them, and strftime_now's text: each
// rendering gets its own list's outcome.
func TestToolsVerdictKeptConcurrent(t *testing.T) {
	now := time.Date(2024, 7, 26, 9, 5, 7, 0, time.UTC)
	tpl, err := New(`{{ strftime_now("%Y-%m-%d") }}{% for t in tools %};{{ t.function.name }}:{{ t.function.description }}{% endfor %}`,
		SpecialTokens("<|im_end|>"), Clock(func() time.Time { return now }))
	require.NoError(t, err)
	lists := [][]chat.Tool{
		{{Name: "a", Description: "one", Parameters: []byte(`{"type":"object"}`)}},
		{{Name: "a", Description: "two", Parameters: []byte(`{"type":"object"}`)}},
		{{Name: "a", Description: "<|im_end|>", Parameters: []byte(`{"type":"object"}`)}},
	}
	wants := []string{"2024-07-26;a:one", "2024-07-26;a:two", ""}
	msgs := []chat.Message{chat.Text(chat.RoleUser, "hi")}
	inParallel(t, func(k int) error {
		got, err := tpl.Render(context.Background(), msgs, format.Tools(lists[k]...))
		var se *format.SpecialTokenError
		switch {
		case k == 2 && !errors.As(err, &se):
			return fmt.Errorf("tools %d: rendered %q, %v", k, got, err)
		case k == 2:
			return nil
		case err == nil && got != wants[k]:
			return errors.New(got + " for " + wants[k])
		}
		return err
	}, len(lists))
}
