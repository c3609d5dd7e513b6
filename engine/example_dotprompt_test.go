package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing/fstest"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

// A Dotprompt file: its output schema, in Picoschema with a named schema,
// compiled to JSON Schema, and @-data from the render context.
func ExampleSchemas() {
	prompts := fstest.MapFS{
		"extract.prompt": {Data: []byte(`---
output:
  schema:
    city: string, the city's name
    country?: Country
---
{{role "system"}}Extract the city, for {{@auth.email}}.
{{role "user"}}{{text}}
`)},
	}
	set := engine.NewSet(handlebars.New()).Option(engine.Schemas(map[string]json.RawMessage{
		"Country": json.RawMessage(`{"type": "string", "description": "ISO 3166 code"}`),
	}))
	tpl, err := set.ParseFS(prompts, "extract.prompt")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(tpl.FrontMatter().OutputSchema))
	msgs, err := tpl.Messages(context.Background(), map[string]any{"text": "Lyon is lovely."},
		engine.Data(map[string]any{"auth": map[string]any{"email": "ann@example.com"}}))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range msgs {
		fmt.Printf("%s %q\n", m.Role, m.Text())
	}
	// Output:
	// {"type":"object","properties":{"city":{"type":"string","description":"the city's name"},"country":{"type":["string","null"],"description":"ISO 3166 code"}},"required":["city"],"additionalProperties":false}
	// system "Extract the city, for ann@example.com.\n"
	// user "Lyon is lovely."
}
