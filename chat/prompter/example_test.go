package prompter_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/prompter"
)

// A Chat prompter with an instruction slot, history and a tool, rendered as
// the string a local model reads and as the messages a chat API takes.
func Example() {
	p, err := prompter.NewChat("Answer from this context: {context}",
		prompter.Tools(chat.Tool{Name: "search"}))
	if err != nil {
		log.Fatal(err)
	}
	input := map[string]string{"context": "Paris is in France.", "question": "Where is Paris?"}
	history := prompter.Pairs([2]string{"Hi", "Hello! How can I help?"})

	s, err := p.Prompt(input, history)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", s)

	res, err := p.Messages(input, history)
	if err != nil {
		log.Fatal(err)
	}
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(b))
	// Output:
	// "<|start_system|>You are an AI-Agent developed by LazyLLM.Answer from this context: Paris is in France.\n\n### Function-call Tools. \n\n[{\"type\": \"function\", \"function\": {\"name\": \"search\"}}]\n\n<|end_system|>\n\n<|Human|>:Hi<|Assistant|>:Hello! How can I help?\n<|Human|>:\nWhere is Paris?\n<|Assistant|>:\n"
	// {
	//   "messages": [
	//     {
	//       "role": "system",
	//       "content": "You are an AI-Agent developed by LazyLLM.\nAnswer from this context: Paris is in France.\n\n"
	//     },
	//     {
	//       "role": "user",
	//       "content": "Hi"
	//     },
	//     {
	//       "role": "assistant",
	//       "content": "Hello! How can I help?"
	//     },
	//     {
	//       "role": "user",
	//       "content": "Where is Paris?"
	//     }
	//   ],
	//   "tools": [
	//     {
	//       "type": "function",
	//       "function": {
	//         "name": "search"
	//       }
	//     }
	//   ]
	// }
}

// An Alpaca prompter: a single string input fills the instruction's one
// slot.
func ExampleNewAlpaca() {
	p, err := prompter.NewAlpaca("Add the numbers: {numbers}", prompter.UseRelease(prompter.Release2605))
	if err != nil {
		log.Fatal(err)
	}
	s, err := p.Prompt("2+3")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", s)
	fmt.Printf("%q\n", p.Response(s+"5"))
	// Output:
	// "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n### Instruction:\nAdd the numbers: 2+3\n\n\n\n### Response:\n"
	// "5"
}

// Markers frame each role for a particular model; the instruction can be
// split into a system-level and a user-level part.
func ExampleUseMarkers() {
	p, err := prompter.NewChat("You add numbers.",
		prompter.UserInstruction("Add: "),
		prompter.System(""),
		prompter.UseMarkers(prompter.QwenMarkers()))
	if err != nil {
		log.Fatal(err)
	}
	s, err := p.Prompt("2+3")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", s)
	// Output:
	// "<|im_start|>system\nYou add numbers.<|im_end|>\n\n\n\n<|im_start|>user\n\nAdd: 2+3\n<|im_end|>\n<|im_start|>assistant\n\n"
}

// A bad input is an error that says what is wrong.
func ExampleError() {
	p, err := prompter.NewChat("Context: {context}")
	if err != nil {
		log.Fatal(err)
	}
	_, err = p.Prompt(map[string]string{"question": "Where is Paris?"})
	fmt.Println(err)
	// Output:
	// prompter: input has no key "context" for the instruction's {context}
}
