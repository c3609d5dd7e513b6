package chattemplate_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/internal/fixture/cpubench"
)

// BenchmarkCorpusRenderMarked renders every template of the corpus on
// a system message and a user message whose text holds the marks of
// prose and code ("Use snake_case and/or Europe/Paris, a|b."), with the
// generation prompt: the text on which the special-token guard's joins
// decide whether a template renders the neutral copy too
// (docs/decisions.md, "Fourth review").
func BenchmarkCorpusRenderMarked(b *testing.B) {
	sources, _, _ := readCorpus(b)
	msgs := []chat.Message{chat.Text(chat.RoleSystem, "You are a helpful assistant."),
		chat.Text(chat.RoleUser, "Use snake_case and/or Europe/Paris, a|b.")}
	opts := []format.Option{format.GenerationPrompt()}
	for _, s := range sources {
		tpl, err := s.compile()
		if err != nil {
			continue
		}
		ctx := context.Background()
		if _, err := tpl.Render(ctx, msgs, opts...); err != nil {
			continue
		}
		b.Run(strings.TrimSuffix(s.File, ".jinja"), func(b *testing.B) {
			t := cpubench.Start(b)
			for i := 0; i < b.N; i++ {
				if _, err := tpl.Render(ctx, msgs, opts...); err != nil {
					b.Fatal(err)
				}
			}
			t.Stop(0)
		})
	}
}
