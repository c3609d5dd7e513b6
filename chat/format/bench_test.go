package format_test

import (
	"fmt"
	"testing"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
)

// benchConversation is 20 alternating user and assistant messages, a
// conversation every preset accepts.
func benchConversation() []chat.Message {
	msgs := make([]chat.Message, 0, 20)
	for i := 0; i < 10; i++ {
		msgs = append(msgs,
			chat.Text(chat.RoleUser, fmt.Sprintf("Question %d: what is the capital of the country with the code %02d, and why?", i, i)),
			chat.Text(chat.RoleAssistant, fmt.Sprintf("Answer %d: the capital is the city where the government sits; for code %02d it is the largest one.", i, i)))
	}
	return msgs
}

func BenchmarkRender(b *testing.B) {
	msgs := benchConversation()
	opts := []format.Option{format.GenerationPrompt()}
	for _, name := range format.Names() {
		f, _ := format.Lookup(name)
		if _, err := f.Render(msgs, opts...); err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := f.Render(msgs, opts...); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
