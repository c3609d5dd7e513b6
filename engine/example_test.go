package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing/fstest"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/react"
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

// The ReAct instruction for a template's tools is a variable like any other,
// so the same idiom works in every engine: render it with package react and
// pass it in. Escaping keeps it exactly as written.
func ExampleTemplate_Messages_reactTools() {
	set := engine.NewSet(gotmpl.New())
	tpl, err := set.Parse("gotmpl", "agent.tmpl", `---
tools:
  - name: get_rate
    description: Exchange rate of a currency.
    parameters: {type: object, properties: {currency: {type: string}}}
---
{{role "user"}}{{.react_tools}}

Question: {{.question}}`)
	if err != nil {
		fmt.Println(err)
		return
	}
	tools := react.FromChatTools(tpl.FrontMatter().Tools)
	msgs, err := tpl.Messages(context.Background(), map[string]any{
		"react_tools": react.Instruction(react.DefaultVariant, tools),
		"question":    "What is the EUR rate?",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(msgs[0].Text() == react.Prompt(react.DefaultVariant, tools, "What is the EUR rate?"))
	// Output:
	// true
}
