package batch_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

func ExampleRender() {
	set := engine.NewSet(handlebars.New())
	tpl, err := set.Parse("handlebars", "greet.hbs", `{{role "system"}}Be brief.{{role "user"}}Translate {{word}} into {{lang}}.`)
	if err != nil {
		panic(err)
	}
	rows := batch.JSONLines(strings.NewReader(`{"word": "cat", "lang": "French"}
{"word": "dog"}
{"word": "bird", "lang": "German"}
`))
	for res := range batch.Render(context.Background(), tpl, rows, batch.Workers(2)) {
		if res.Err != nil {
			fmt.Println("error:", res.Err)
			continue
		}
		fmt.Println(res.Index, res.Value[1].Text())
	}
	// Output:
	// 0 Translate cat into French.
	// error: row 2: greet.hbs:1:68: variable "lang" is not supplied
	// 2 Translate bird into German.
}

func ExampleRenderAppend() {
	set := engine.NewSet(handlebars.New())
	tpl, err := set.Parse("handlebars", "greet.hbs", `{{role "user"}}Translate {{word}}.`)
	if err != nil {
		panic(err)
	}
	rows := batch.JSONLines(strings.NewReader(`{"word": "cat"}
{"word": "dog"}
`))
	openai, err := batch.OpenAI()
	if err != nil {
		panic(err)
	}
	for res := range batch.RenderAppend(context.Background(), tpl, rows, openai) {
		if res.Err != nil {
			fmt.Println("error:", res.Err)
			continue
		}
		os.Stdout.Write(res.Value) // valid until this iteration ends
	}
	// Output:
	// {"messages":[{"role":"user","content":"Translate cat."}]}
	// {"messages":[{"role":"user","content":"Translate dog."}]}
}
