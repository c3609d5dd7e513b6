package format_test

import (
	"encoding/json"
	"fmt"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
)

func Example() {
	msgs := []chat.Message{
		chat.Text(chat.RoleSystem, "You are a helpful assistant."),
		chat.Text(chat.RoleUser, "Hello!"),
	}
	f, _ := format.Lookup("llama3")
	prompt, err := f.Render(msgs, format.GenerationPrompt())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q\n", prompt)

	// Gemma's template has no system turn and refuses one.
	gemma, _ := format.Lookup("gemma")
	_, err = gemma.Render(msgs)
	fmt.Println(err)
	// Output:
	// "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nYou are a helpful assistant.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHello!<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"
	// format gemma: System role not supported
}

// A format of your own, loaded from JSON.
func ExampleFormat_Render() {
	var f format.Format
	err := json.Unmarshal([]byte(`{
		"roles": {
			"user": {"begin": "### Human: ", "end": "\n"},
			"assistant": {"begin": "### Assistant: ", "end": "\n"}
		},
		"system": {"placement": "first-message", "suffix": "\n\n"},
		"generation_prompt": "### Assistant:"
	}`), &f)
	if err != nil {
		fmt.Println(err)
		return
	}
	prompt, _ := f.Render([]chat.Message{
		chat.Text(chat.RoleSystem, "Be brief."),
		chat.Text(chat.RoleUser, "Why is the sky blue?"),
		chat.Text(chat.RoleAssistant, "Rayleigh scattering"),
	}, format.ContinueFinal())
	fmt.Printf("%q\n", prompt)
	// Output:
	// "### Human: Be brief.\n\nWhy is the sky blue?\n### Assistant: Rayleigh scattering"
}
