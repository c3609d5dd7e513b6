package pongo2_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	p2 "github.com/flosch/pongo2/v6"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/pongo2"
	"github.com/rolemark/rolemark/roleparse"
)

var styles = []string{"literal", "marker", "block"}

func benchInput(tb testing.TB, style string) (string, map[string]any) {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "bench", style+".pongo2"))
	require.NoError(tb, err)
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "bench", "vars.json"))
	require.NoError(tb, err)
	var vars map[string]any
	require.NoError(tb, json.Unmarshal(raw, &vars))
	return string(src), vars
}

// TestBenchPrompt checks that the benchmarks compare like with like: every
// style renders to the messages that raw pongo2's output parses to.
func TestBenchPrompt(t *testing.T) {
	src, vars := benchInput(t, "literal")
	raw, err := p2.FromString(src)
	require.NoError(t, err)
	out, err := raw.Execute(vars)
	require.NoError(t, err)
	want, err := roleparse.Parse(out)
	require.NoError(t, err)
	require.Len(t, want, 4)
	for _, style := range styles {
		src, vars := benchInput(t, style)
		tpl, err := engine.NewSet(pongo2.New()).Parse("pongo2", style+".pongo2", src)
		require.NoError(t, err)
		got, err := tpl.Messages(context.Background(), vars)
		require.NoError(t, err)
		require.Equal(t, want, got, style)
	}
}

// BenchmarkMessages renders the benchmark prompt to messages (render and
// parse) in each role style.
func BenchmarkMessages(b *testing.B) {
	benchStyles(b, func(ctx context.Context, tpl *engine.Template, vars map[string]any) error {
		_, err := tpl.Messages(ctx, vars)
		return err
	})
}

// BenchmarkRender renders the benchmark prompt's markup only, without
// parsing it, to compare with raw pongo2.
func BenchmarkRender(b *testing.B) {
	benchStyles(b, func(ctx context.Context, tpl *engine.Template, vars map[string]any) error {
		_, err := tpl.Render(ctx, vars)
		return err
	})
}

// benchStyles times run on the benchmark prompt in each role style, one
// sub-benchmark a style.
func benchStyles(b *testing.B, run func(ctx context.Context, tpl *engine.Template, vars map[string]any) error) {
	ctx := context.Background()
	for _, style := range styles {
		b.Run(style, func(b *testing.B) {
			src, vars := benchInput(b, style)
			tpl, err := engine.NewSet(pongo2.New()).Parse("pongo2", style+".pongo2", src)
			require.NoError(b, err)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := run(ctx, tpl, vars); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRawPongo2 renders the same prompt (literal.pongo2) with pongo2 alone,
// into a reused buffer: the floor rolemark's rendering adds to.
func BenchmarkRawPongo2(b *testing.B) {
	src, vars := benchInput(b, "literal")
	tpl, err := p2.FromString(src)
	require.NoError(b, err)
	var buf bytes.Buffer
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf.Reset()
		if err := tpl.ExecuteWriterUnbuffered(vars, &buf); err != nil {
			b.Fatal(err)
		}
		_ = buf.String()
	}
}

// BenchmarkCompile compiles the prompt, against raw pongo2's FromString.
func BenchmarkCompile(b *testing.B) {
	src, _ := benchInput(b, "literal")
	b.Run("rolemark", func(b *testing.B) {
		set := engine.NewSet(pongo2.New())
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := set.Parse("pongo2", "p.pongo2", src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("raw-pongo2", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := p2.FromString(src); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLoop renders a for loop of 20 items to messages: what a loop's
// iteration costs (rolemark_tick runs once an iteration).
func BenchmarkLoop(b *testing.B) {
	tpl, err := engine.NewSet(pongo2.New()).Parse("pongo2", "loop.pongo2", `{% user %}{% for x in xs %}- {{ x.name }}: {{ x.n }}
{% endfor %}{% enduser %}`)
	require.NoError(b, err)
	xs := make([]any, 20)
	for i := range xs {
		xs[i] = map[string]any{"name": "item", "n": i}
	}
	vars := map[string]any{"xs": xs}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tpl.Messages(ctx, vars); err != nil {
			b.Fatal(err)
		}
	}
}
