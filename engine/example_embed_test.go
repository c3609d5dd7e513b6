package engine_test

import (
	"context"
	"embed"
	"fmt"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

// prompts is a prompt directory built into the program. The all: prefix
// keeps the partials: without it, //go:embed leaves out every file whose
// name starts with _.
//
//go:embed all:testdata/embed/prompts
var prompts embed.FS

// withoutPartials is the same directory embedded without all:.
//
//go:embed testdata/embed/prompts
var withoutPartials embed.FS

// A prompt directory embedded in the binary, partials included.
func ExampleSet_LoadDir_embed() {
	set := engine.NewSet(handlebars.New())
	dir, err := set.LoadDir(prompts, "testdata/embed/prompts")
	if err != nil {
		panic(err)
	}
	tpl, _ := dir.Template("greet")
	msgs, err := tpl.Messages(context.Background(), map[string]any{"company": "Acme", "question": "Where is my parcel?"})
	if err != nil {
		panic(err)
	}
	for _, m := range msgs {
		fmt.Printf("%s: %s\n", m.Role, m.Text())
	}

	// Without all:, the partial is missing, and the error says why.
	_, err = set.LoadDir(withoutPartials, "testdata/embed/prompts")
	fmt.Println(err)
	// Output:
	// system: You are the help desk of Acme.
	// user: Where is my parcel?
	// testdata/embed/prompts/greet.hbs:1:12: partial "persona" not found: looked for testdata/embed/prompts/_persona.hbs, testdata/embed/prompts/persona.hbs, testdata/embed/prompts/_persona.prompt, testdata/embed/prompts/persona.prompt, testdata/embed/prompts/_persona.handlebars, testdata/embed/prompts/persona.handlebars; //go:embed leaves out files whose names start with _ or . unless the pattern says all:, as in //go:embed all:prompts
}
