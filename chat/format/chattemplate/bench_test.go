package chattemplate_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rolemark/rolemark/chat/format"
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
	opts := format.Options{AddGenerationPrompt: c.AddGenerationPrompt, Tools: tools}
	ctx := context.Background()
	if _, err := tpl.Render(ctx, msgs, opts); err != nil {
		b.Fatal(err)
	}
	pyNs := 0.0
	out, err := exec.Command("python3", filepath.Join("testdata", "hf", "bench.py"), src.File, conversation).Output()
	if err == nil {
		pyNs, _ = strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	} else {
		b.Logf("python3 testdata/hf/bench.py: %v (no Jinja2 figure)", err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := tpl.Render(ctx, msgs, opts); err != nil {
			b.Fatal(err)
		}
	}
	goNs := float64(cpuTime()-cpu0) / float64(b.N)
	b.StopTimer()
	b.ReportMetric(goNs, "cpu-ns/op")
	if pyNs > 0 {
		b.ReportMetric(pyNs, "jinja2-cpu-ns/op")
		b.ReportMetric(pyNs/goNs, "x-faster")
	}
}

// cpuTime is the process's user and system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
