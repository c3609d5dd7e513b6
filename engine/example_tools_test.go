package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
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
