package chattemplate_test

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
	"github.com/rolemark/rolemark/internal/fixture/cpubench"
)

// BenchmarkTemplateVsJinja2 renders one real template (Qwen2.5 Instruct's,
// with tools) on one conversation of the corpus (a tool-call cycle with
// two calls and a final answer), and in the same run times Python's Jinja2
// on the same pair with testdata/hf/bench.py. Besides ns/op it reports CPU
// time, which a busy shared machine disturbs less than wall time:
// cpu-ns/op for Go (the process's user and system time over the loop),
// jinja2-cpu-ns/op for Python, and x-faster, their ratio.
func BenchmarkTemplateVsJinja2(b *testing.B) {
	const conversation = "tools-two-calls-answer"
	sources, convs, _ := readCorpus(b)
	var src corpusSource
	for _, s := range sources {
		if s.from("oracle.py QWEN25") {
			src = s
		}
	}
	tpl, err := src.compile()
	if err != nil {
		b.Fatal(err)
	}
	c := convs[conversation]
	msgs, tools := c.messages(b), c.tools()
	opts := []format.Option{format.Tools(tools...)}
	if c.AddGenerationPrompt {
		opts = append(opts, format.GenerationPrompt())
	}
	ctx := context.Background()
	if _, err := tpl.Render(ctx, msgs, opts...); err != nil {
		b.Fatal(err)
	}
	pyNs := cpubench.Python(b, filepath.Join("testdata", "hf", "bench.py"), src.File, conversation)
	t := cpubench.Start(b)
	for i := 0; i < b.N; i++ {
		if _, err := tpl.Render(ctx, msgs, opts...); err != nil {
			b.Fatal(err)
		}
	}
	t.Stop(pyNs)
}

// benchInput is c's messages and options for a benchmark of tpl, which
// renders them once: with AllowSpecialTokens where c holds one of the
// template's tokens (the rendering without the guard, as TestCorpus
// renders it). what names the pair in a failure.
func (c corpusConversation) benchInput(b *testing.B, tpl *chattemplate.Template, what string) ([]chat.Message, []format.Option) {
	b.Helper()
	msgs := c.messages(b)
	opts := []format.Option{format.Tools(c.tools()...)}
	if c.AddGenerationPrompt {
		opts = append(opts, format.GenerationPrompt())
	}
	if _, err := tpl.Render(context.Background(), msgs, opts...); err != nil {
		opts = append(opts, format.AllowSpecialTokens())
		if _, err := tpl.Render(context.Background(), msgs, opts...); err != nil {
			b.Fatalf("%s: %v", what, err)
		}
	}
	return msgs, opts
}

// BenchmarkCorpusVsJinja2 renders every template of the corpus on one
// conversation each (the first of testdata/hf/bench_all.py's PREFERRED
// that Jinja2 renders: the tool-call cycle where the template has tools),
// one sub-benchmark per template reporting cpu-ns/op, Python's Jinja2's
// figure for the same pair (timed by bench_all.py in the same run) and
// x-faster; the last line logs how many templates are at least 20×.
// Go's figure is Render, a fresh string per rendering, as Python's
// render() returns a fresh str (BenchmarkCorpusAppendVsJinja2 is the
// same into one reused buffer). Keep it short on a shared machine:
//
//	go test ./chat/format/chattemplate -run '^$' -bench CorpusVsJinja2 -benchtime 2000x
//
// A short run holds few of the collector's cycles, so a small template's
// figure moves with where they fall; -benchtime 200000x (about 30 s)
// gives the steady state docs/PERFORMANCE.md reports beside it.
func BenchmarkCorpusVsJinja2(b *testing.B) {
	corpusVsJinja2(b, func(b *testing.B, tpl *chattemplate.Template, msgs []chat.Message, opts []format.Option) {
		ctx := context.Background()
		for i := 0; i < b.N; i++ {
			if _, err := tpl.Render(ctx, msgs, opts...); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkCorpusAppendVsJinja2 is BenchmarkCorpusVsJinja2 with Go's
// figure taken by AppendRender into one buffer reused from rendering to
// rendering (buf[:0]), against the same Python figure: Python's render()
// makes a fresh str each time, but reference counting frees it as soon
// as the caller drops it and CPython's allocator hands the same warm
// block to the next rendering, which is what the reused buffer is in Go;
// the fresh string of BenchmarkCorpusVsJinja2 also pays for Go's
// collector. Both counts are reported (docs/PERFORMANCE.md):
//
//	go test ./chat/format/chattemplate -run '^$' -bench 'CorpusAppendVsJinja2$' -benchtime 2000x
func BenchmarkCorpusAppendVsJinja2(b *testing.B) {
	corpusVsJinja2(b, func(b *testing.B, tpl *chattemplate.Template, msgs []chat.Message, opts []format.Option) {
		ctx := context.Background()
		var buf []byte
		for i := 0; i < b.N; i++ {
			var err error
			if buf, err = tpl.AppendRender(ctx, buf[:0], msgs, opts...); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// corpusVsJinja2 is BenchmarkCorpusVsJinja2 with loop rendering b.N
// times between the CPU-time readings.
func corpusVsJinja2(b *testing.B, loop func(*testing.B, *chattemplate.Template, []chat.Message, []format.Option)) {
	sources, convs, _ := readCorpus(b)
	out, err := exec.Command("python3", filepath.Join("testdata", "hf", "bench_all.py")).Output()
	if err != nil {
		b.Skipf("python3 testdata/hf/bench_all.py: %v", err)
	}
	var py map[string]struct {
		Conversation string  `json:"conversation"`
		Ns           float64 `json:"ns"`
	}
	if err := json.Unmarshal(out, &py); err != nil {
		b.Fatal(err)
	}
	ratios := map[string]float64{}
	for _, s := range sources {
		p, ok := py[s.File]
		if !ok {
			continue
		}
		tpl, err := s.compile()
		if err != nil {
			b.Fatal(err)
		}
		msgs, opts := convs[p.Conversation].benchInput(b, tpl, s.File+" / "+p.Conversation)
		b.Run(strings.TrimSuffix(s.File, ".jinja"), func(b *testing.B) {
			t := cpubench.Start(b)
			loop(b, tpl, msgs, opts)
			ratios[s.File] = t.Stop(p.Ns)
		})
	}
	files := slices.Sorted(maps.Keys(ratios))
	slices.SortStableFunc(files, func(x, y string) int { return cmp.Compare(ratios[x], ratios[y]) })
	at20 := 0
	for _, f := range files {
		if ratios[f] >= 20 {
			at20++
		}
	}
	if len(files) > 0 {
		b.Logf("%d of %d templates at least 20x Python's Jinja2; slowest: %s %.1fx, median %.1fx",
			at20, len(files), files[0], ratios[files[0]], ratios[files[len(files)/2]])
	}
}
