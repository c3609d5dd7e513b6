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
	"time"

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
	tpl := literalTemplate(b)
	// Go reads the rows from the file, as Python does: rows held in memory
	// would keep the live heap large and the garbage collector idle.
	dir := b.TempDir()
	file := filepath.Join(dir, "rows.jsonl")
	bin := "" // the rolemark command, built when a command run needs it
	if err := os.WriteFile(file, benchRows(b, n), 0o644); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	chatml, _ := format.Lookup("chatml")
	openaiBatch, err := batch.OpenAIBatch(nil, batch.Model("gpt-4o-mini"))
	if err != nil {
		b.Fatal(err)
	}
	chatmlPrompt, err := batch.Prompt(chatml)
	if err != nil {
		b.Fatal(err)
	}
	outputs := []struct {
		name   string
		output batch.Append
	}{{"openai-batch", openaiBatch}, {"chatml", chatmlPrompt}}
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
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/command/workers=%d", o.name, workers), func(b *testing.B) {
				if bin == "" {
					bin = build(b, dir)
				}
				args := []string{"batch", "--in", file, "--out", os.DevNull, "--format", o.name, "--workers", strconv.Itoa(workers)}
				if o.name == "openai-batch" {
					// 100,000 requests are two files of OpenAI's; the
					// benchmark measures one run into one output.
					args = append(args, "--no-file-limits")
				}
				if o.name == "openai-batch" {
					args = append(args, "--model", "gpt-4o-mini")
				}
				args = append(args, "../testdata/bench/literal.tmpl")
				var wall, cpu time.Duration
				var rss int64
				for range b.N {
					w, c, r := runCommand(b, dir, bin, args)
					wall, cpu, rss = wall+w, cpu+c, max(rss, r)
				}
				b.ReportMetric(float64(n*b.N)/wall.Seconds(), "rows/s")
				b.ReportMetric(float64(cpu.Microseconds())/float64(n*b.N), "cpu-µs/row")
				if rss > 0 {
					b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MB")
				}
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

// build builds the rolemark command into dir and returns its path.
func build(b *testing.B, dir string) string {
	b.Helper()
	bin := filepath.Join(dir, "rolemark")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/rolemark").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v: %s", err, out)
	}
	return bin
}

// runCommand runs bin with args and returns its wall time, its CPU time and
// its peak resident set size. The size is measured by GNU time
// (/usr/bin/time), when it is installed, and is 0 otherwise: the rusage of
// a child started from this process counts this process's own memory, which
// the child shares until it execs.
func runCommand(b *testing.B, dir, bin string, args []string) (wall, cpu time.Duration, rss int64) {
	b.Helper()
	gnuTime := "/usr/bin/time"
	if _, err := os.Stat(gnuTime); err != nil {
		gnuTime = ""
	}
	cmd := exec.Command(bin, args...)
	report := filepath.Join(dir, "time.txt")
	if gnuTime != "" {
		cmd = exec.Command(gnuTime, append([]string{"-f", "%M", "-o", report, bin}, args...)...)
	}
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v: %s", err, out)
	}
	wall = time.Since(start)
	cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	if gnuTime != "" {
		out, err := os.ReadFile(report)
		if err != nil {
			b.Fatal(err)
		}
		kb, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
		if err != nil {
			b.Fatalf("GNU time's report %q: %v", out, err)
		}
		rss = kb << 10
	}
	return wall, cpu, rss
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// BenchmarkHandOff measures what a run adds to rendering a row: a
// one-message template without variables, rendered by RenderOne in a loop
// and by Render on one and two workers; each reports ns/row.
func BenchmarkHandOff(b *testing.B) {
	tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "t", `<message role="user">x</message>`)
	if err != nil {
		b.Fatal(err)
	}
	count := func(_ context.Context, b []byte, _ int, _ batch.Row, msgs []chat.Message) ([]byte, error) {
		return b, nil
	}
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
				if _, err := batch.RenderOne(context.Background(), tpl, nil, i, r, count); err != nil {
					b.Fatal(err)
				}
				i++
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/row")
	})
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("Render/workers=%d", workers), func(b *testing.B) {
			for range b.N {
				for res := range batch.Render(context.Background(), tpl, rows, batch.Workers(workers)) {
					if res.Err != nil {
						b.Fatal(res.Err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*b.N), "ns/row")
		})
	}
}

// BenchmarkJSONLines reads 10,000 rows of BenchmarkRows from memory with
// JSONLines, without decoding them: the reader's own cost per row.
func BenchmarkJSONLines(b *testing.B) {
	data := benchRows(b, 10_000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for r := range batch.JSONLines(bytes.NewReader(data)) {
			if r.Err != nil {
				b.Fatal(r.Err)
			}
			n++
		}
		if n != 10_000 {
			b.Fatalf("%d rows", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(10_000*b.N), "ns/row")
}
