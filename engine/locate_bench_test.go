package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/roleparse"
)

// BenchmarkMarkupErrorPosition measures what placing a markup error in the
// template costs, on the error path only: "search" is the search of the
// source for the rendered text that markupError does, "map" adds the marked
// compile and render of sourcePos. A render that succeeds runs neither.
func BenchmarkMarkupErrorPosition(b *testing.B) {
	srcs := map[string]string{
		"handlebars": "{{#system}}You are a clerk at {{bank}}.{{/system}}\n{{#user}}Hi, I am {{name}}.{{/user}}\n<message role=\"wizard\">{{name}}</message>\n",
		"jinja":      "{% message \"system\" %}You are a clerk at {{ bank }}.{% endmessage %}\n{% user %}Hi, I am {{ name }}.{% enduser %}\n<message role=\"wizard\">{{ name }}</message>\n",
		"gotmpl":     "{{role \"system\"}}You are a clerk at {{.bank}}.\n{{role \"user\"}}Hi, I am {{.name}}.\n<message role=\"wizard\">{{.name}}</message>\n",
	}
	set := NewSet(handlebars.New(), jinja.New(), gotmpl.New())
	vars := map[string]any{"bank": "Acme", "name": "Ada"}
	for _, eng := range []string{"gotmpl", "handlebars", "jinja"} {
		t, err := set.Parse(eng, "t", srcs[eng])
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		out, err := t.Render(ctx, vars)
		if err != nil {
			b.Fatal(err)
		}
		_, perr := roleparse.Parse(out)
		var pe *roleparse.Error
		if !errors.As(perr, &pe) {
			b.Fatal("no markup error")
		}
		r := &driver.Request{Vars: vars}
		if _, _, _, ok := t.sourcePos(ctx, r, nil, pe); !ok {
			b.Fatal("not placed")
		}
		b.Run(eng+"/search", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_ = t.markupError(out, perr)
			}
		})
		b.Run(eng+"/map", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				_ = t.markupErrorFor(ctx, r, nil, out, perr)
			}
		})
	}
}
