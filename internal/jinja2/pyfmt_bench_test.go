package jinja2

import (
	"context"
	"testing"
)

// BenchmarkPercentPad renders % formatting of text in a width (%s, %c, the
// 0 flag), the layout padText does.
func BenchmarkPercentPad(b *testing.B) {
	env := New()
	tpl, err := env.Parse("p", `{{ '%5s|%-3c|%05s' % (a, 65, a) }}`)
	if err != nil {
		b.Fatal(err)
	}
	vars := map[string]Value{"a": StrV("ab")}
	for b.Loop() {
		if _, err := tpl.Render(context.Background(), vars); err != nil {
			b.Fatal(err)
		}
	}
}
