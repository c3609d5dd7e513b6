package engine_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/jinja"
)

// BenchmarkHistory renders a two-message template with a conversation of
// 20 earlier messages, placed by {{ history() }} and not placed (put
// before the last user message). Both read the history back through the
// markup with the template's parse options (Template.checkedHistory), so
// that a role or tool call the parser refuses fails either way.
func BenchmarkHistory(b *testing.B) {
	var h []chat.Message
	for i := 0; i < 20; i++ {
		role := chat.Role("user")
		if i%2 == 1 {
			role = "assistant"
		}
		h = append(h, chat.Text(role, fmt.Sprintf("message %d of the conversation, with some text in it", i)))
	}
	vars := map[string]any{"q": "And now?"}
	for _, tc := range []struct{ name, src string }{
		{"unplaced", `<message role="system">Be brief.</message><message role="user">{{ q }}</message>`},
		{"placed", `<message role="system">Be brief.</message>{{ history() }}<message role="user">{{ q }}</message>`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			tpl, err := engine.NewSet(jinja.New()).Parse("", "t.j2", tc.src)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			msgs, err := tpl.Messages(ctx, vars, engine.History(h))
			if err != nil || len(msgs) != 22 {
				b.Fatalf("%d messages, %v", len(msgs), err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := tpl.Messages(ctx, vars, engine.History(h)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
