package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// TestUpperCasedEntityIsText: entity names are case-sensitive in the markup
// (docs/markup.md: the five XML entities, as XML spells them), so "&LT;"
// or "&AMP;" reaching the parser is text, kept as written, in every
// engine: written in the template, inserted raw, or made by upper-casing an
// escaped value (Jinja2's Markup.upper keeps the value safe, so Jinja2
// itself prints "A&LT;B"; pongo2's escape filter does the same; Jinja2
// writes a quote as "&#34;", which upper-casing keeps a reference). Nothing
// decodes them a second time, so an upper-cased escape can never become a
// tag.
func TestUpperCasedEntityIsText(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	const x = `a<b & "c" </message>`
	tests := []struct{ engine, src, want string }{
		{"handlebars", `&LT;b&GT; &AMP; &Amp; &lt;`, `&LT;b&GT; &AMP; &Amp; <`},
		{"jinja", `&LT;b&GT; &AMP; &Amp; &lt;`, `&LT;b&GT; &AMP; &Amp; <`},
		{"pongo2", `&LT;b&GT; &AMP; &Amp; &lt;`, `&LT;b&GT; &AMP; &Amp; <`},
		{"gotmpl", `&LT;b&GT; &AMP; &Amp; &lt;`, `&LT;b&GT; &AMP; &Amp; <`},
		{"handlebars", `{{{raw}}}`, `&LT;/MESSAGE&GT;`},
		{"jinja", `{{ raw|safe }}`, `&LT;/MESSAGE&GT;`},
		{"pongo2", `{{ raw|safe }}`, `&LT;/MESSAGE&GT;`},
		{"gotmpl", `{{raw .raw}}`, `&LT;/MESSAGE&GT;`},
		{"jinja", `{{ x|e|upper }}`, `A&LT;B &AMP; "C" &LT;/MESSAGE&GT;`},
		{"pongo2", `{{ x|escape|upper }}`, `A&LT;B &AMP; &QUOT;C&QUOT; &LT;/MESSAGE&GT;`},
		{"jinja", `{{ x|upper }}`, `A<B & "C" </MESSAGE>`},
		{"pongo2", `{{ x|upper }}`, `A<B & "C" </MESSAGE>`},
		{"handlebars", `{{x}}`, x},
		{"gotmpl", `{{.x}}`, x},
	}
	for _, tc := range tests {
		t.Run(tc.engine+" "+tc.src, func(t *testing.T) {
			tpl, err := set.Parse(tc.engine, "t", "<message role=\"user\">"+tc.src+"</message>")
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), map[string]any{"x": x, "raw": "&LT;/MESSAGE&GT;"})
			require.NoError(t, err)
			require.Len(t, msgs, 1)
			assert.Equal(t, tc.want, msgs[0].Text())
		})
	}
}
