package prompter

import (
	"testing"

	"github.com/rolemark/rolemark/chat"
)

func benchPrompter(b *testing.B) (*Prompter, map[string]string) {
	b.Helper()
	p, err := NewChat("You answer questions about {topic} from the context.",
		ExtraKeys("context"),
		Tools(getWeather()),
		Pairs([2]string{"Hi", "Hello! How can I help?"}, [2]string{"What is Go?", "A programming language."}),
		UseMarkers(QwenMarkers()))
	if err != nil {
		b.Fatal(err)
	}
	return p, map[string]string{"topic": "geography", "context": "Paris is the capital of France.", "question": "Where is Paris?"}
}

func BenchmarkPrompt(b *testing.B) {
	p, input := benchPrompter(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := p.Prompt(input); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMessages(b *testing.B) {
	p, input := benchPrompter(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := p.Messages(input); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPromptCallOptions measures a call whose options rebuild the
// instruction and add history.
func BenchmarkPromptCallOptions(b *testing.B) {
	p, input := benchPrompter(b)
	opts := []Option{UserInstruction("Q: "), History(chat.Text(chat.RoleUser, "Thanks"))}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := p.Prompt(input, opts...); err != nil {
			b.Fatal(err)
		}
	}
}
