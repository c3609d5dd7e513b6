package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing/fstest"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

// Front matter names a tool that the program registers, and the caller
// chooses a Dotprompt variant of the prompt.
func ExampleTools() {
	prompts := fstest.MapFS{
		"weather.prompt":       {Data: []byte("---\ntools: [get_weather]\n---\nWeather in {{city}}?")},
		"weather.short.prompt": {Data: []byte("---\ntools: [get_weather]\n---\nWeather in {{city}}, in one word?")},
	}
	getWeather := chat.Tool{Name: "get_weather", Description: "Weather in a city",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}
	set := engine.NewSet(handlebars.New()).Option(engine.Tools(getWeather))
	dir, err := set.LoadDir(prompts, ".")
	if err != nil {
		panic(err)
	}
	fmt.Println(dir.Names(), dir.Variants("weather"))
	tpl, _ := dir.Variant("weather", "short")
	msgs, err := tpl.Messages(context.Background(), map[string]any{"city": "Paris"})
	if err != nil {
		panic(err)
	}
	fmt.Println(msgs[0].Text())
	fmt.Println(tpl.FrontMatter().Settings().Tools[0].Description)
	// Output:
	// [weather] [short]
	// Weather in Paris, in one word?
	// Weather in a city
}

// A program that edits prompts keeps the inputs an author tried, with the
// messages they gave, in the prompt's cases file; rolemark test renders
// them again.
func ExampleSet_SaveCase() {
	dir, err := os.MkdirTemp("", "prompts")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "bank.prompt"), []byte("I want to {{input}}."), 0o644); err != nil {
		panic(err)
	}
	set := engine.NewSet(handlebars.New())
	tpl, err := set.ParseFS(os.DirFS(dir), "bank.prompt")
	if err != nil {
		panic(err)
	}
	inputs := map[string]any{"input": "buy a house"}
	msgs, err := tpl.Messages(context.Background(), inputs)
	if err != nil {
		panic(err)
	}
	file, err := set.SaveCase(dir, "bank.prompt", engine.Case{Name: "a house", Inputs: inputs, Want: &engine.Result{Messages: msgs}})
	if err != nil {
		panic(err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		panic(err)
	}
	fmt.Println(filepath.Base(file))
	fmt.Print(string(b))
	// Output:
	// bank.cases.yaml
	// template: bank.prompt
	// cases:
	//   - name: a house
	//     inputs:
	//       input: buy a house
	//     messages:
	//       - role: user
	//         content: I want to buy a house.
}
