package prompter_test

import (
	"fmt"
	"log"

	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/prompter"
)

// A prompter's messages go through any chat format to become the prompt
// string of another model than LazyLLM's own markers describe.
func ExamplePrompter_Messages_format() {
	p, err := prompter.NewChat("Answer from this context: {context}")
	if err != nil {
		log.Fatal(err)
	}
	res, err := p.Messages(map[string]string{"context": "Paris is in France.", "question": "Where is Paris?"})
	if err != nil {
		log.Fatal(err)
	}
	chatml, _ := format.Lookup("chatml")
	s, err := chatml.Render(res.Messages, format.GenerationPrompt(), format.Tools(res.Tools...))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(s)
	// Output:
	// <|im_start|>system
	// You are an AI-Agent developed by LazyLLM.
	// Answer from this context: Paris is in France.
	//
	// <|im_end|>
	// <|im_start|>user
	// Where is Paris?<|im_end|>
	// <|im_start|>assistant
}
