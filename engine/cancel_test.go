package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// A render whose context is cancelled while it runs stops with the
// context's error, in every engine: here a function cancels it, and a loop
// follows that prints values, only text, or nothing (gotmpl sees the
// context only where the render writes: a range whose iterations wrote
// nothing ran to its end).
func TestCancelledMidRender(t *testing.T) {
	engines := map[string]func(map[string]any) driver.Engine{
		"handlebars": func(f map[string]any) driver.Engine { return handlebars.New(handlebars.Funcs(f)) },
		"jinja":      func(f map[string]any) driver.Engine { return jinja.New(jinja.Funcs(f)) },
		"pongo2":     func(f map[string]any) driver.Engine { return pongo2.New(pongo2.Funcs(f)) },
		"gotmpl":     func(f map[string]any) driver.Engine { return gotmpl.New(gotmpl.Funcs(f)) },
	}
	tests := []struct{ name, engine, src string }{
		{"values", "handlebars", `{{role "user"}}{{stop}}{{#each xs}}{{this}}{{/each}}`},
		{"values", "jinja", `{{ role("user") }}{{ stop() }}{% for x in xs %}{{ x }}{% endfor %}`},
		{"values", "pongo2", `{{ role("user") }}{{ stop() }}{% for x in xs %}{{ x }}{% endfor %}`},
		{"values", "gotmpl", `{{role "user"}}{{stop}}{{range .xs}}{{.}}{{end}}`},
		{"text", "handlebars", `{{role "user"}}{{stop}}{{#each xs}}.{{/each}}`},
		{"text", "jinja", `{{ role("user") }}{{ stop() }}{% for x in xs %}.{% endfor %}`},
		{"text", "gotmpl", `{{role "user"}}{{stop}}{{range .xs}}.{{end}}`},
		{"nothing", "handlebars", `{{role "user"}}{{stop}}{{#each xs}}{{#if false}}.{{/if}}{{/each}}`},
		{"nothing", "jinja", `{{ role("user") }}{{ stop() }}{% for x in xs %}{% endfor %}`},
		{"text", "pongo2", `{{ role("user") }}{{ stop() }}{% for x in xs %}.{% endfor %}`},
		{"nothing", "pongo2", `{{ role("user") }}{{ stop() }}{% for x in xs %}{% endfor %}`},
		{"role markers", "pongo2", `{{ role("user") }}{{ stop() }}{% for x in xs %}{{ role("user") }}.{% endfor %}`},
		{"nothing, trimmed", "pongo2", "{{ role(\"user\") }}{{ stop() }}{% for x in xs -%}\n{%- endfor %}"},
		{"nothing", "gotmpl", `{{role "user"}}{{stop}}{{range .xs}}{{end}}`},
		{"nothing but an if", "gotmpl", `{{role "user"}}{{stop}}{{range .xs}}{{if false}}.{{end}}{{end}}`},
		{"a continue before the text", "gotmpl", `{{role "user"}}{{stop}}{{range .xs}}{{if true}}{{continue}}{{end}}.{{end}}`},
		{"a variable", "gotmpl", `{{role "user"}}{{stop}}{{range $x := .xs}}{{$y := $x}}{{end}}`},
		{"nested, an int", "gotmpl", `{{role "user"}}{{stop}}{{range .xs}}{{range 10}}{{end}}{{end}}`},
		{"in a define", "gotmpl", `{{define "d"}}{{range .xs}}{{end}}{{end}}{{role "user"}}{{stop}}{{template "d" .}}`},
	}
	for _, tc := range tests {
		t.Run(tc.engine+"/"+tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stop := func() string { cancel(); return "" }
			set := engine.NewSet(engines[tc.engine](map[string]any{"stop": stop}))
			tpl, err := set.Parse(tc.engine, "t", tc.src)
			require.NoError(t, err)
			_, err = tpl.Messages(ctx, map[string]any{"xs": make([]int, 1000)})
			require.ErrorIs(t, err, context.Canceled)
		})
	}
}
