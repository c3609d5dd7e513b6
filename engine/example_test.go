package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing/fstest"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
)

func Example() {
	prompts := fstest.MapFS{
		"bank.tmpl": {Data: []byte(`{{role "system"}}You are a bank manager.
{{role "user"}}I want to {{.input}}`)},
	}
	set := engine.NewSet(gotmpl.New())
	tpl, err := set.ParseFS(prompts, "bank.tmpl")
	if err != nil {
		fmt.Println(err)
		return
	}
	msgs, err := tpl.Messages(context.Background(), map[string]any{"input": "buy a house"},
		engine.History([]chat.Message{chat.Text(chat.RoleUser, "Hello"), chat.Text(chat.RoleAssistant, "Hi!")}))
	if err != nil {
		fmt.Println(err)
		return
	}
	body, _ := json.Marshal(msgs)
	fmt.Println(string(body))
	// Output:
	// [{"role":"system","content":"You are a bank manager."},{"role":"user","content":"Hello"},{"role":"assistant","content":"Hi!"},{"role":"user","content":"I want to buy a house"}]
}

func ExampleTemplate_Messages_missingVariable() {
	set := engine.NewSet(gotmpl.New())
	tpl, _ := set.Parse("gotmpl", "greet.tmpl", `{{role "user"}}Hello {{.name}}`)
	_, err := tpl.Messages(context.Background(), map[string]any{})
	fmt.Println(err)
	// Output:
	// greet.tmpl:1:24: variable "name" is not supplied
}
