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
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
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

// Check finds a template's problems without data, at the place in the
// template where each was written.
func ExampleTemplate_Check() {
	set := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New())
	fsys := fstest.MapFS{"greet.hbs": {Data: []byte(`---
input:
  schema:
    name: string
---
{{role "user"}}Hello {{nmae}}
{{role "wizard"}}Abracadabra, {{name}}
`)}}
	tpl, err := set.ParseFS(fsys, "greet.hbs")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tpl.Check(context.Background()))
	// Output:
	// greet.hbs:6:24: variable "nmae" is not declared in the input schema (declared: name)
	// greet.hbs:7:1: rendered markup: unknown role "wizard"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)
}

// Render returns the markup itself: the front matter's lines are empty
// lines, values are escaped, and the history stands where {{history}}
// places it.
func ExampleTemplate_Render() {
	prompts := fstest.MapFS{
		"ask.hbs": {Data: []byte("---\nmodel: gpt-4.1-mini\n---\n" +
			`{{#system}}Be brief.{{/system}}{{history}}{{#user}}{{q}}{{/user}}`)},
	}
	tpl, err := engine.NewSet(handlebars.New()).ParseFS(prompts, "ask.hbs")
	if err != nil {
		fmt.Println(err)
		return
	}
	markup, err := tpl.Render(context.Background(), map[string]any{"q": "a < b?"},
		engine.History([]chat.Message{chat.Text(chat.RoleUser, "Hello")}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q\n", markup)
	// Output:
	// "\n\n\n<message role=\"system\">Be brief.</message><message role=\"user\">Hello</message>\n<message role=\"user\">a &lt; b?</message>"
}
