package tokens_test

import (
	"fmt"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/tokens"
)

// Counting with one of OpenAI's encodings: a string's tokens, and a
// conversation as OpenAI counts it for a request (3 tokens a message and 3
// to prime the reply, beside the text).
func Example() {
	tk, err := tokens.OpenAI("o200k_base")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tk.Encode("Hello, world!"))
	fmt.Println(tk.Count("Hello, world!"))
	msgs := []chat.Message{
		chat.Text(chat.RoleSystem, "Be brief."),
		chat.Text(chat.RoleUser, "What is 2+2?"),
	}
	fmt.Println(tokens.CountChat(tk, msgs))
	// Output:
	// [13225 11 2375 0]
	// 4
	// 21
}
