package jinja2

import (
	"context"
	"testing"

	"github.com/rolemark/rolemark/internal/fixture/cpubench"
)

// BenchmarkRenderSelectLoop renders loops over a select of their source
// (compileFor's select path): the user messages of a conversation of 20
// and the letters of a str.
func BenchmarkRenderSelectLoop(b *testing.B) {
	for _, tc := range []struct{ name, src string }{
		{"selectattr", `{% for m in messages|selectattr('role', 'equalto', 'user') %}[{{ m.content }}]{% endfor %}`},
		{"str", `{% for ch in text|reject('in', 'aeiou') %}{{ ch }}{% endfor %}`},
	} {
		b.Run(tc.name, func(b *testing.B) {
			tmpl, err := New().Parse(tc.name, tc.src)
			if err != nil {
				b.Fatal(err)
			}
			vars := chatVars(20)
			vars["text"] = StrV("a sentence of some forty letters or so, plainly")
			ctx := context.Background()
			if _, err := tmpl.Render(ctx, vars); err != nil {
				b.Fatal(err)
			}
			t := cpubench.Start(b)
			for i := 0; i < b.N; i++ {
				if _, err := tmpl.Render(ctx, vars); err != nil {
					b.Fatal(err)
				}
			}
			t.Stop(0)
		})
	}
}
