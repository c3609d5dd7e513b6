package jinja_test

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	p2 "github.com/flosch/pongo2/v6"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/roleparse"
)

// loopSrc is a prompt with a loop, a condition, filters and numbers that
// reads the same in Jinja2 and in pongo2, so that the jinja engine's
// render to messages can be set beside pongo2's raw render of the same
// text. It takes the general path (a loop: no fast path).
const loopSrc = `<message role="system">You are {{ name|title }}, an order clerk at {{ company|upper }}. Answer in one short paragraph.</message>
<message role="user">Here are my orders:
{% for o in orders %}- {{ o.sku|lower }}: {{ o.qty }} x {{ o.price }} cents{% if o.rush %} (rush){% endif %}
{% endfor %}That is {{ orders|length }} orders. {{ question }}</message>`

// loopVars are loopSrc's data, as a Go program builds it (ints, where
// pongo2 and Jinja2 print the same text).
func loopVars(tb testing.TB) map[string]any {
	tb.Helper()
	var orders []any
	for i := range 10 {
		orders = append(orders, map[string]any{"sku": "SKU-" + string(rune('A'+i)), "qty": i + 1, "price": 150 * (i + 1), "rush": i%3 == 0})
	}
	return map[string]any{"name": "ada lovelace", "company": "Acme & Sons", "orders": orders,
		"question": "Which ones ship today, and what do they cost in all?"}
}

// TestLoopPromptSameText: the jinja engine's messages are those of
// pongo2's raw output of the same text, parsed.
func TestLoopPromptSameText(t *testing.T) {
	vars := loopVars(t)
	raw, err := p2.FromString(loopSrc)
	require.NoError(t, err)
	out, err := raw.Execute(p2.Context(vars))
	require.NoError(t, err)
	want, err := roleparse.Parse(out)
	require.NoError(t, err)
	require.Len(t, want, 2)
	tpl, err := engine.NewSet(jinja.New()).Parse("jinja", "loop.j2", loopSrc)
	require.NoError(t, err)
	got, err := tpl.Messages(context.Background(), vars)
	require.NoError(t, err)
	require.Equal(t, want, got)
}

// BenchmarkLoopPrompt renders loopSrc to messages with the jinja engine
// (Jinja2 render, escaping, markup parse), beside pongo2's raw render of
// the same text into a reused buffer (no escaping, no messages). The
// figures of record are in docs/PERFORMANCE.md.
func BenchmarkLoopPrompt(b *testing.B) {
	vars := loopVars(b)
	ctx := context.Background()
	b.Run("jinja/messages", func(b *testing.B) {
		tpl, err := engine.NewSet(jinja.New()).Parse("jinja", "loop.j2", loopSrc)
		require.NoError(b, err)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := tpl.Messages(ctx, vars); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("raw-pongo2/render", func(b *testing.B) {
		tpl, err := p2.FromString(loopSrc)
		require.NoError(b, err)
		var buf bytes.Buffer
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			if err := tpl.ExecuteWriterUnbuffered(p2.Context(vars), &buf); err != nil {
				b.Fatal(err)
			}
			_ = buf.String()
		}
	})
}

// BenchmarkLoopPromptRatio runs the two sides of BenchmarkLoopPrompt in
// turns of 50 renders each, b.N turns each, and reports the median time
// of a jinja turn over the median time of a pongo2 turn as
// jinja/pongo2: on a machine shared with other work, turns that alternate
// see the same load, where two benchmarks run one after the other do not.
func BenchmarkLoopPromptRatio(b *testing.B) {
	vars := loopVars(b)
	ctx := context.Background()
	tpl, err := engine.NewSet(jinja.New()).Parse("jinja", "loop.j2", loopSrc)
	require.NoError(b, err)
	raw, err := p2.FromString(loopSrc)
	require.NoError(b, err)
	var buf bytes.Buffer
	const turn = 50
	var js, ps []time.Duration
	for b.Loop() {
		start := time.Now()
		for range turn {
			if _, err := tpl.Messages(ctx, vars); err != nil {
				b.Fatal(err)
			}
		}
		mid := time.Now()
		for range turn {
			buf.Reset()
			if err := raw.ExecuteWriterUnbuffered(p2.Context(vars), &buf); err != nil {
				b.Fatal(err)
			}
			_ = buf.String()
		}
		js, ps = append(js, mid.Sub(start)), append(ps, time.Since(mid))
	}
	slices.Sort(js)
	slices.Sort(ps)
	b.ReportMetric(float64(js[len(js)/2])/float64(ps[len(ps)/2]), "jinja/pongo2")
	b.ReportMetric(float64(js[len(js)/2].Nanoseconds())/turn, "jinja-ns/render")
	b.ReportMetric(float64(ps[len(ps)/2].Nanoseconds())/turn, "pongo2-ns/render")
}
