// Command ratios reads `go test -bench` output and prints, as Markdown, the
// medians of every benchmark and the ratios docs/PERFORMANCE.md reports.
//
//	go test -run '^$' -bench . -benchmem -count=10 -timeout 60m ./... | tee out.txt
//	go run ./cmd/ratios < out.txt
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// line matches "BenchmarkX/y-2   1000   1234 ns/op ..." and captures the
// name without the GOMAXPROCS suffix and the ns/op.
var line = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op(.*)$`)

type result struct {
	ns     []float64
	allocs []float64
	mbs    []float64
	perMsg []float64
}

// opt formats the median of xs, or "" when the benchmark does not report it.
func opt(xs []float64, format string) string {
	if len(xs) == 0 {
		return ""
	}
	return fmt.Sprintf(format, median(xs))
}

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "ratios:", err)
		os.Exit(1)
	}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

func field(rest, unit string) (float64, bool) {
	f := strings.Fields(rest)
	for i := 1; i < len(f); i++ {
		if f[i] == unit {
			v, err := strconv.ParseFloat(f[i-1], 64)
			return v, err == nil
		}
	}
	return 0, false
}

func run(in io.Reader, out io.Writer) error {
	res, names, err := readResults(in)
	if err != nil {
		return err
	}
	writeMedians(out, res, names)
	writeRatios(out, func(name string) float64 {
		if r := res[name]; r != nil {
			return median(r.ns)
		}
		return 0
	})
	return nil
}

// readResults reads the benchmark lines of in: each benchmark's results
// by name, and the names in the order they first come.
func readResults(in io.Reader) (map[string]*result, []string, error) {
	res := map[string]*result{}
	var names []string
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		r := res[m[1]]
		if r == nil {
			r = &result{}
			res[m[1]] = r
			names = append(names, m[1])
		}
		ns, _ := strconv.ParseFloat(m[2], 64)
		r.ns = append(r.ns, ns)
		if v, ok := field(m[3], "allocs/op"); ok {
			r.allocs = append(r.allocs, v)
		}
		if v, ok := field(m[3], "MB/s"); ok {
			r.mbs = append(r.mbs, v)
		}
		if v, ok := field(m[3], "allocs/msg"); ok {
			r.perMsg = append(r.perMsg, v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	if len(names) == 0 {
		return nil, nil, fmt.Errorf("no benchmark lines on standard input")
	}
	return res, names, nil
}

// writeMedians writes the table of each benchmark's medians.
func writeMedians(out io.Writer, res map[string]*result, names []string) {
	fmt.Fprintln(out, "| benchmark | runs | median ns/op | median allocs/op | median MB/s | median allocs/msg |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|")
	for _, n := range names {
		r := res[n]
		fmt.Fprintf(out, "| %s | %d | %.0f | %.0f | %s | %s |\n", n, len(r.ns), median(r.ns), median(r.allocs), opt(r.mbs, "%.0f"), opt(r.perMsg, "%.3g"))
	}
}

// writeRatios writes the table of the ratios docs/PERFORMANCE.md reports,
// from ns, a benchmark's median ns/op by name (0 for one not run).
func writeRatios(out io.Writer, ns func(name string) float64) {
	ratio := func(a, b float64) string {
		if a == 0 || b == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.2f", a/b)
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "| ratio | value |")
	fmt.Fprintln(out, "|---|---|")
	raw := map[string]string{"gotmpl": "text-template", "handlebars": "raymond", "jinja": "pongo2"}
	for _, e := range []string{"gotmpl", "handlebars", "jinja"} {
		for _, s := range []string{"literal", "marker", "block"} {
			// Against the raw engine rendering into a fresh buffer, then
			// into one reused from call to call.
			for _, kind := range []string{"raw", "raw-reused"} {
				fmt.Fprintf(out, "| rolemark %s %s / %s/%s | %s |\n", e, s, kind, raw[e],
					ratio(ns("BenchmarkRender/rolemark/"+e+"/"+s), ns("BenchmarkRender/"+kind+"/"+raw[e])))
			}
		}
	}
	for _, e := range []string{"gotmpl", "handlebars", "jinja"} {
		// The general path: values of a named string type, which the fast
		// paths leave to the engine, against the raw engine on the same data.
		fmt.Fprintf(out, "| rolemark %s typed / raw-reused-typed/%s | %s |\n", e, raw[e],
			ratio(ns("BenchmarkRender/rolemark/"+e+"/typed"), ns("BenchmarkRender/raw-reused-typed/"+raw[e])))
	}
	hbs := ns("BenchmarkRender/rolemark/handlebars/marker")
	rawHbs := ns("BenchmarkRender/raw/raymond")
	dpc := ns("BenchmarkRender/dotprompt/compiled")
	// What each adds to raymond, while rolemark runs raymond; once rolemark's
	// fast path renders without it, the plain ratio is the one to read.
	if hbs > rawHbs {
		fmt.Fprintf(out, "| (Dotprompt compiled − raw raymond) / (rolemark hbs marker − raw raymond) | %s |\n", ratio(dpc-rawHbs, hbs-rawHbs))
	}
	fmt.Fprintf(out, "| Dotprompt compiled / rolemark hbs marker | %s |\n", ratio(dpc, hbs))
	fmt.Fprintf(out, "| Dotprompt Render / rolemark hbs marker | %s |\n", ratio(ns("BenchmarkRender/dotprompt/render"), hbs))
	fmt.Fprintf(out, "| langchaingo gotemplate / rolemark gotmpl literal | %s |\n", ratio(ns("BenchmarkRender/langchaingo/gotemplate"), ns("BenchmarkRender/rolemark/gotmpl/literal")))
	fmt.Fprintf(out, "| langchaingo jinja2 / rolemark jinja literal | %s |\n", ratio(ns("BenchmarkRender/langchaingo/jinja2"), ns("BenchmarkRender/rolemark/jinja/literal")))
	for _, s := range []string{"1.5KB", "64KB", "1MB", "1MB-gap280", "1MB-gap70", "1MB-gap14"} {
		// Both benchmarks read the same input, so the throughput ratio is
		// the inverse of the time ratio.
		fmt.Fprintf(out, "| parse %s throughput / floor throughput | %s |\n", s, ratio(ns("BenchmarkFloor/"+s), ns("BenchmarkParse/"+s)))
	}
	fmt.Fprintf(out, "| parse 1.5KB / raw text/template render | %s |\n", ratio(ns("BenchmarkParse/1.5KB"), ns("BenchmarkRender/raw/text-template")))
	for _, e := range []string{"gotmpl", "handlebars", "jinja", "raw-text-template", "raw-raymond", "raw-pongo2"} {
		fmt.Fprintf(out, "| RunParallel speed-up %s (serial ns / parallel ns) | %s |\n", e, ratio(ns("BenchmarkParallelSerial/"+e), ns("BenchmarkParallel/"+e)))
	}
}
