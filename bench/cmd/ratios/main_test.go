package main

import (
	"bytes"
	"strings"
	"testing"
)

const sample = `goos: linux
BenchmarkRender/rolemark/handlebars/marker-2   	  100000	     12000 ns/op	    9000 B/op	      80 allocs/op
BenchmarkRender/rolemark/handlebars/marker-2   	  100000	     14000 ns/op	    9000 B/op	      80 allocs/op
BenchmarkRender/rolemark/handlebars/marker-2   	  100000	     13000 ns/op	    9000 B/op	      80 allocs/op
BenchmarkRender/raw/raymond-2                  	  100000	     10000 ns/op	    8000 B/op	      60 allocs/op
BenchmarkRender/raw-reused/raymond-2           	  100000	      6500 ns/op	    8000 B/op	      60 allocs/op
BenchmarkRender/dotprompt/compiled-2           	  100000	     16000 ns/op	    5000 B/op	     100 allocs/op
BenchmarkParse/1MB-2   	     2000	    500000 ns/op	2000.00 MB/s	  700000 B/op	     700 allocs/op	         0.3300 allocs/msg
BenchmarkFloor/1MB-2   	    20000	     50000 ns/op	20000.00 MB/s
PASS
`

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run(strings.NewReader(sample), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| BenchmarkRender/rolemark/handlebars/marker | 3 | 13000 | 80 |  |  |",
		"| BenchmarkParse/1MB | 1 | 500000 | 700 | 2000 | 0.33 |",
		"| (Dotprompt compiled − raw raymond) / (rolemark hbs marker − raw raymond) | 2.00 |",
		"| parse 1MB throughput / floor throughput | 0.10 |",
		"| rolemark handlebars marker / raw/raymond | 1.30 |",
		"| rolemark handlebars marker / raw-reused/raymond | 2.00 |",
		"| Dotprompt Render / rolemark hbs marker | n/a |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestRunEmpty(t *testing.T) {
	if err := run(strings.NewReader("PASS\n"), &bytes.Buffer{}); err == nil {
		t.Fatal("no error for input without benchmark lines")
	}
}
