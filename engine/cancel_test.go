package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// A render whose context is cancelled while it runs stops with the
// context's error, in every engine, in the loop: here a function that
// prints nothing cancels it (or, in pongo2, gives the loop its list), a
// loop follows that prints values, only text, or nothing, and a call after
// the loop must not be made (gotmpl and pongo2 see the context only where
// the render writes: a loop whose iterations wrote nothing ran to its end).
func TestCancelledMidRender(t *testing.T) {
	engines := map[string]func(map[string]any) driver.Engine{
		"handlebars": func(f map[string]any) driver.Engine { return handlebars.New(handlebars.Funcs(f)) },
		"jinja":      func(f map[string]any) driver.Engine { return jinja.New(jinja.Funcs(f)) },
		"pongo2":     func(f map[string]any) driver.Engine { return pongo2.New(pongo2.Funcs(f)) },
		"gotmpl":     func(f map[string]any) driver.Engine { return gotmpl.New(gotmpl.Funcs(f)) },
	}
	tests := []struct{ name, engine, src string }{
		{"values", "handlebars", `{{role "user"}}{{#if (stop)}}{{/if}}{{#each xs}}{{this}}{{/each}}`},
		{"values", "jinja", `{{ role("user") }}{% set _ = stop() %}{% for x in xs %}{{ x }}{% endfor %}`},
		{"values", "pongo2", `{{ role("user") }}{% for x in stop() %}{{ x }}{% endfor %}`},
		{"values", "gotmpl", `{{role "user"}}{{$_ := stop}}{{range .xs}}{{.}}{{end}}`},
		{"text", "handlebars", `{{role "user"}}{{#if (stop)}}{{/if}}{{#each xs}}.{{/each}}`},
		{"text", "jinja", `{{ role("user") }}{% set _ = stop() %}{% for x in xs %}.{% endfor %}`},
		{"text", "gotmpl", `{{role "user"}}{{$_ := stop}}{{range .xs}}.{{end}}`},
		{"nothing", "handlebars", `{{role "user"}}{{#if (stop)}}{{/if}}{{#each xs}}{{#if false}}.{{/if}}{{/each}}`},
		{"nothing", "jinja", `{{ role("user") }}{% set _ = stop() %}{% for x in xs %}{% endfor %}`},
		{"text", "pongo2", `{{ role("user") }}{% for x in stop() %}.{% endfor %}`},
		{"nothing", "pongo2", `{{ role("user") }}{% for x in stop() %}{% endfor %}`},
		{"role markers", "pongo2", `{{ role("user") }}{% for x in stop() %}{{ role("user") }}.{% endfor %}`},
		{"nothing, trimmed", "pongo2", "{{ role(\"user\") }}{% for x in stop() -%}\n{%- endfor %}"},
		{"nothing", "gotmpl", `{{role "user"}}{{$_ := stop}}{{range .xs}}{{end}}`},
		{"nothing but an if", "gotmpl", `{{role "user"}}{{$_ := stop}}{{range .xs}}{{if false}}.{{end}}{{end}}`},
		{"a continue before the text", "gotmpl", `{{role "user"}}{{$_ := stop}}{{range .xs}}{{if true}}{{continue}}{{end}}.{{end}}`},
		{"a variable", "gotmpl", `{{role "user"}}{{$_ := stop}}{{range $x := .xs}}{{$y := $x}}{{end}}`},
		{"nested, an int", "gotmpl", `{{role "user"}}{{$_ := stop}}{{range .xs}}{{range 10}}{{end}}{{end}}`},
		{"in a define", "gotmpl", `{{define "d"}}{{range .xs}}{{end}}{{end}}{{role "user"}}{{$_ := stop}}{{template "d" .}}`},
	}
	// after the loop, a call that a render stopped in the loop never makes
	// (the context's error alone would come from the check after the
	// render too); pongo2's print sees the context before it calls
	afterLoop := map[string]string{"handlebars": "{{after}}", "jinja": "{{ after() }}", "pongo2": "{% if after() %}{% endif %}", "gotmpl": "{{after}}"}
	for _, tc := range tests {
		t.Run(tc.engine+"/"+tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// stop cancels and returns the list to loop over (pongo2's
			// rolemark_at before the for tag sees a context done before)
			stop := func() []int { cancel(); return make([]int, 1000) }
			ran := false // the loop ran to its end
			after := func() string { ran = true; return "" }
			set := engine.NewSet(engines[tc.engine](map[string]any{"stop": stop, "after": after}))
			tpl, err := set.Parse(tc.engine, "t", tc.src+afterLoop[tc.engine])
			require.NoError(t, err)
			_, err = tpl.Messages(ctx, map[string]any{"xs": make([]int, 1000)})
			require.ErrorIs(t, err, context.Canceled)
			assert.False(t, ran, "the render went on past the loop")
		})
	}
}
