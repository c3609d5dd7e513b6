package pyjson

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/internal/fixture/cpubench"
)

// BenchmarkAppendHTMLSafeString escapes 5,000 bytes of test-runner output
// (lines of about 40 bytes, each ending in a newline), as mini-swe-agent's
// observation template prints a long command output with tojson. CPU
// time per call is cpu-ns/op (a busy machine disturbs it less).
func BenchmarkAppendHTMLSafeString(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 5000; i++ {
		fmt.Fprintf(&sb, "line %05d: collected test_refund_%d PASSED\n", i, i)
	}
	s := sb.String()[:5000]
	b.SetBytes(int64(len(s)))
	var buf []byte
	cpu0 := cpubench.Now()
	for b.Loop() {
		buf = AppendHTMLSafeString(buf[:0], s)
	}
	b.ReportMetric(float64(cpubench.Now()-cpu0)/float64(b.N), "cpu-ns/op")
}
