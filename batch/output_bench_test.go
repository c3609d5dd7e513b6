package batch_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
)

// literalTemplate is the template of BenchmarkRows.
func literalTemplate(tb testing.TB) *engine.Template {
	tb.Helper()
	src, err := os.ReadFile("../testdata/bench/literal.tmpl")
	if err != nil {
		tb.Fatal(err)
	}
	tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "literal.tmpl", string(src))
	if err != nil {
		tb.Fatal(err)
	}
	return tpl
}

// BenchmarkPromptLine writes the ChatML prompt line of one row of
// BenchmarkRows (its messages rendered once; a line of 1.3 KB): the cost of
// batch.Prompt's output alone, escaping the prompt into a JSON string.
func BenchmarkPromptLine(b *testing.B) {
	tpl := literalTemplate(b)
	var vars map[string]any
	if err := json.Unmarshal(benchRows(b, 1), &vars); err != nil {
		b.Fatal(err)
	}
	msgs, err := tpl.Messages(context.Background(), vars)
	if err != nil {
		b.Fatal(err)
	}
	chatml, _ := format.Lookup("chatml")
	line, err := batch.Prompt(chatml)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var buf []byte
	for b.Loop() {
		if buf, err = line(ctx, buf[:0], 0, batch.Row{}, msgs); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkRequestLine writes the request line of one row of BenchmarkRows
// (its messages rendered once) for each batch API: the cost of
// OpenAIBatch's and AnthropicBatch's output alone.
func BenchmarkRequestLine(b *testing.B) {
	tpl := literalTemplate(b)
	var vars map[string]any
	if err := json.Unmarshal(benchRows(b, 1), &vars); err != nil {
		b.Fatal(err)
	}
	msgs, err := tpl.Messages(context.Background(), vars)
	if err != nil {
		b.Fatal(err)
	}
	fm := &engine.FrontMatter{Config: map[string]any{"max_tokens": 100}}
	for _, tc := range []struct {
		name   string
		output func(*engine.FrontMatter, ...batch.OutputOption) (batch.Append, error)
		model  string
	}{
		{"openai-batch", batch.OpenAIBatch, "gpt-4o-mini"},
		{"anthropic-batch", batch.AnthropicBatch, "claude-sonnet-4-5"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			line, err := tc.output(fm, batch.Model(tc.model))
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			var buf []byte
			cpu0 := cpuTime()
			for b.Loop() {
				if buf, err = line(ctx, buf[:0], 0, batch.Row{}, msgs); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
			b.SetBytes(int64(len(buf)))
		})
	}
}
