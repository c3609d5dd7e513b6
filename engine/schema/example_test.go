package schema_test

import (
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/rolemark/rolemark/engine/schema"
)

func Example() {
	var doc yaml.Node
	_ = yaml.Unmarshal([]byte("name: string, the customer's name\nage?: integer\n"), &doc)
	s, js, err := schema.Parse(doc.Content[0], nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(js))
	fmt.Println(s.Check("", map[string]any{"name": "Ann", "age": 41}))
	fmt.Println(s.Check("", map[string]any{"age": 41}))
	// Output:
	// {"type":"object","properties":{"name":{"type":"string","description":"the customer's name"},"age":{"type":["integer","null"]}},"required":["name"],"additionalProperties":false}
	// <nil>
	// input "name" is required but not supplied
}
