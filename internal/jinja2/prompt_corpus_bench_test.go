package jinja2_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/internal/fixture/cpubench"
	"github.com/rolemark/rolemark/internal/jinja2"
	"github.com/rolemark/rolemark/internal/promptcorpus"
)

// BenchmarkPromptCorpus renders every case of the prompt corpus (real
// prompt templates of other projects, testdata/jinja2-prompts) and, in the
// same run, times Python's Jinja2 rendering the same cases in the same
// Environments with the corpus's render.py --bench (timeit in one python3
// process, CPU time, median of 5 rounds).
//
// Go renders each case twice over: first b.N times into a buffer it reuses
// (AppendRender, what RenderTo and the jinja engine's Execute do), whose
// CPU time per render is cpu-ns/op and whose ratio to Jinja2's is
// x-faster; then b.N times to a fresh string (Render, what the jinja
// engine hands the markup parser for messages), string-cpu-ns/op and
// string-x-faster. Python's render returns a fresh str, but reference
// counting frees it at once and the allocator hands the same memory back
// to the next render: the reused buffer is Go's equivalent, while Go's
// fresh string pays for new memory (and a collector that a benchmark with
// a small heap runs very often). CPU time is the process's user and
// system time over the loop, which a busy shared machine disturbs less
// than wall time; since it counts the collector's threads too, each loop
// starts after a collection, so that no case pays for the garbage of the
// loop before it. The run ends with a log of the ratios, slowest first.
// Without python3 and Jinja2 it reports Go's figures alone, and so it
// does with JINJA2_BENCH_NO_PYTHON=1 (profiling one case, where Python's
// minute over all 86 cases is in the way).
//
//	flock /work/tools/bench.lock go test ./internal/jinja2 -run '^$' -bench PromptCorpus -benchtime 200ms -count 5
func BenchmarkPromptCorpus(b *testing.B) {
	cases, err := promptcorpus.Load(corpusDir)
	if err != nil {
		b.Fatal(err)
	}
	py := map[string]float64{}
	if os.Getenv("JINJA2_BENCH_NO_PYTHON") == "" {
		out, err := exec.Command("python3", filepath.Join(corpusDir, "render.py"), "--bench").Output()
		if err == nil {
			err = json.Unmarshal(out, &py)
		}
		if err != nil {
			b.Logf("python3 render.py --bench: %v (no Jinja2 figures)", err)
		}
	}
	ctx := context.Background()
	ratios := map[string]float64{}
	for _, c := range cases {
		tmpl, err := jinja2.New(c.Options()...).Parse(c.Entry.Template, c.Src)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tmpl.Render(ctx, c.Vars); err != nil {
			b.Fatal(err)
		}
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			// CPU time is the whole process's: collect the garbage of
			// the cases before (their fresh strings) before timing,
			// or the collector's work on it is charged to this case.
			runtime.GC()
			cpu0 := cpubench.Now()
			for b.Loop() {
				var err error
				if buf, err = tmpl.AppendRender(ctx, buf[:0], c.Vars); err != nil {
					b.Fatal(err)
				}
			}
			goNs := float64(cpubench.Now()-cpu0) / float64(b.N)
			runtime.GC()
			cpu0 = cpubench.Now()
			for range b.N {
				if _, err := tmpl.Render(ctx, c.Vars); err != nil {
					b.Fatal(err)
				}
			}
			strNs := float64(cpubench.Now()-cpu0) / float64(b.N)
			b.ReportMetric(goNs, "cpu-ns/op")
			b.ReportMetric(strNs, "string-cpu-ns/op")
			if pyNs := py[c.Name]; pyNs > 0 && goNs > 0 && strNs > 0 {
				b.ReportMetric(pyNs, "jinja2-cpu-ns/op")
				b.ReportMetric(pyNs/goNs, "x-faster")
				b.ReportMetric(pyNs/strNs, "string-x-faster")
				ratios[c.Name] = pyNs / goNs
			}
		})
	}
	if len(ratios) == 0 {
		return
	}
	names := make([]string, 0, len(ratios))
	for n := range ratios {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return ratios[names[i]] < ratios[names[j]] })
	var sb strings.Builder
	under := 0
	for _, n := range names {
		if ratios[n] < 20 {
			under++
		}
		fmt.Fprintf(&sb, "\n%6.1fx  %s", ratios[n], n)
	}
	b.Logf("Go (into a reused buffer) vs Jinja2, CPU time per render, slowest first; %d of %d cases under 20x:%s", under, len(names), sb.String())
}
