package cases_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/cases"
	"github.com/rolemark/rolemark/handlebars"
)

// A program that edits prompts keeps the inputs an author tried, with the
// messages they gave, in the prompt's cases file; rolemark test renders
// them again.
func ExampleSave() {
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
	file, err := cases.Save(set, dir, "bank.prompt", cases.Case{Name: "a house", Inputs: inputs, Want: &cases.Result{Messages: msgs}})
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
