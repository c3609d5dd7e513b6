package jinja2

import (
	"context"
	"testing"
)

// BenchmarkLoopBodySets is a loop whose body sets variables, as chat
// templates do per message ({% set content = message['content'] %}):
// each iteration starts those variables from their outer values.
func BenchmarkLoopBodySets(b *testing.B) {
	benchLoopOverThousand(b, "{% for m in ms %}{% set c = m %}{% set d = c %}{{ d }}{% endfor %}")
}

// BenchmarkNegativeIndex reads messages[-1] in a loop, as chat templates
// do to find the last message: -1 is a constant.
func BenchmarkNegativeIndex(b *testing.B) {
	benchLoopOverThousand(b, "{% for m in ms %}{% if ms[-1] == m %}{{ ms[-1] }}{% endif %}{% endfor %}")
}

// benchLoopOverThousand renders src with ms a list of 1,000 strs, into
// one reused buffer.
func benchLoopOverThousand(b *testing.B, src string) {
	b.Helper()
	tpl, err := New().Parse("t", src)
	if err != nil {
		b.Fatal(err)
	}
	items := make([]Value, 1000)
	for i := range items {
		items[i] = StrV("x")
	}
	vars := map[string]Value{"ms": ListV(items)}
	ctx := context.Background()
	buf, err := tpl.AppendRender(ctx, nil, vars)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf, _ = tpl.AppendRender(ctx, buf[:0], vars)
	}
}
