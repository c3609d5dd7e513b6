package batch_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
)

// benchRows returns n JSON Lines rows of the benchmark prompt's variables
// (testdata/bench/vars.json; the text/template version of the prompt,
// literal.tmpl, renders about 1.5 KB of markup), each
// with its own question.
func benchRows(tb testing.TB, n int) []byte {
	tb.Helper()
	b, err := os.ReadFile("../testdata/bench/vars.json")
	if err != nil {
		tb.Fatal(err)
	}
	var vars map[string]any
	if err := json.Unmarshal(b, &vars); err != nil {
		tb.Fatal(err)
	}
	var out bytes.Buffer
	for i := range n {
		vars["question"] = fmt.Sprintf("Question %d: by how much did revenue rise?", i)
		line, _ := json.Marshal(vars)
		out.Write(line)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// BenchmarkRows renders ROLEMARK_BENCH_ROWS rows (default 100,000) of the
// benchmark prompt from JSON Lines to openai-batch lines and to ChatML
// prompt strings, on one and on two workers, and runs Python Jinja2 doing
// the same beside it (testdata/bench_jinja2.py; skipped without python3 and
// jinja2). Each reports rows/s; Go's runs also report the CPU time and the
// bytes allocated per row. Run with -benchtime 1x: one iteration is the
// whole dataset. Both read the rows from the same file.
func BenchmarkRows(b *testing.B) {
	n := 100_000
	if s := os.Getenv("ROLEMARK_BENCH_ROWS"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	src, err := os.ReadFile("../testdata/bench/literal.tmpl")
	if err != nil {
		b.Fatal(err)
	}
	tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "literal.tmpl", string(src))
	if err != nil {
		b.Fatal(err)
	}
	// Go reads the rows from the file, as Python does: rows held in memory
	// would keep the live heap large and the garbage collector idle.
	file := filepath.Join(b.TempDir(), "rows.jsonl")
	if err := os.WriteFile(file, benchRows(b, n), 0o644); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	chatml, _ := format.Lookup("chatml")
	openaiBatch, err := batch.OpenAIBatch(nil, batch.RequestOptions{Model: "gpt-4o-mini"})
	if err != nil {
		b.Fatal(err)
	}
	outputs := []struct {
		name   string
		output batch.Append
	}{{"openai-batch", openaiBatch}, {"chatml", batch.Prompt(chatml, nil)}}
	for _, o := range outputs {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/go/workers=%d", o.name, workers), func(b *testing.B) {
				cpu0 := cpuTime()
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				for range b.N {
					f, err := os.Open(file)
					if err != nil {
						b.Fatal(err)
					}
					w := bufio.NewWriterSize(discard{}, 256<<10)
					rows := 0
					for res := range batch.RenderAppend(context.Background(), tpl, batch.JSONLines(f), o.output, batch.Workers(workers)) {
						if res.Err != nil {
							b.Fatal(res.Err)
						}
						w.Write(res.Value)
						rows++
					}
					w.Flush()
					f.Close()
					if rows != n {
						b.Fatalf("%d rows, want %d", rows, n)
					}
				}
				b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "rows/s")
				b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(n*b.N), "cpu-µs/row")
				runtime.ReadMemStats(&m1)
				b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(n*b.N), "alloc-B/row")
			})
		}
		b.Run(o.name+"/python-jinja2", func(b *testing.B) {
			if exec.Command("python3", "-c", "import jinja2").Run() != nil {
				b.Skip("python3 with jinja2 is not installed")
			}
			var rate float64
			for range b.N {
				out, err := exec.Command("python3", "testdata/bench_jinja2.py", o.name, file).Output()
				if err != nil {
					b.Fatal(err)
				}
				r, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
				if err != nil {
					b.Fatal(err)
				}
				rate += r
			}
			b.ReportMetric(rate/float64(b.N), "rows/s")
		})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkHandOff measures what RenderFunc adds to rendering a row: a
// one-message template without variables, rendered by RenderOne in a loop
// and by RenderFunc on one and two workers; each reports ns/row.
func BenchmarkHandOff(b *testing.B) {
	tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "t", `<message role="user">x</message>`)
	if err != nil {
		b.Fatal(err)
	}
	count := func(_ context.Context, _ int, _ batch.Row, msgs []chat.Message) (int, error) { return len(msgs), nil }
	const n = 100_000
	rows := func(yield func(batch.Row) bool) {
		vars := map[string]any{}
		for range n {
			if !yield(batch.Row{Vars: vars}) {
				return
			}
		}
	}
	b.Run("RenderOne", func(b *testing.B) {
		for range b.N {
			i := 0
			for r := range rows {
				if _, err := batch.RenderOne(context.Background(), tpl, i, r, count); err != nil {
					b.Fatal(err)
				}
				i++
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/row")
	})
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("RenderFunc/workers=%d", workers), func(b *testing.B) {
			for range b.N {
				for res := range batch.RenderFunc(context.Background(), tpl, rows, count, batch.Workers(workers)) {
					if res.Err != nil {
						b.Fatal(res.Err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/row")
		})
	}
}
