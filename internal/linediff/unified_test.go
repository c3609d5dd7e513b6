package linediff_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolemark/rolemark/internal/linediff"
)

func TestUnifiedDiff(t *testing.T) {
	tests := []struct{ name, a, b, want string }{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"from nothing", "", "a\nb\n", "--- x\n+++ y\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{"to nothing", "a\n", "", "--- x\n+++ y\n@@ -1 +0,0 @@\n-a\n"},
		{"one line changed, context of three", "1\n2\n3\n4\n5\n6\n7\n8\n", "1\n2\n3\n4\nfive\n6\n7\n8\n",
			"--- x\n+++ y\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve\n",
			"--- x\n+++ y\n@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+twelve\n"},
		{"nearby changes share a hunk", "1\n2\n3\n4\n5\n6\n7\n", "one\n2\n3\n4\n5\n6\nseven\n",
			"--- x\n+++ y\n@@ -1,7 +1,7 @@\n-1\n+one\n 2\n 3\n 4\n 5\n 6\n-7\n+seven\n"},
		{"a line added", "a\nc\n", "a\nb\nc\n", "--- x\n+++ y\n@@ -1,2 +1,3 @@\n a\n+b\n c\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, string(linediff.Unified("x", "y", tc.a, tc.b)))
		})
	}
}

// TestUnifiedDiffLong diffs results too long for the table of the longest
// common subsequence: the lines they share at both ends are context, the
// rest is removed and added, in bounded memory and time.
func TestUnifiedDiffLong(t *testing.T) {
	var a, b strings.Builder
	a.WriteString("same\n")
	b.WriteString("same\n")
	for i := range 30000 {
		fmt.Fprintf(&a, "a%d\n", i)
		fmt.Fprintf(&b, "b%d\n", i)
	}
	a.WriteString("end\n")
	b.WriteString("end\n")
	got := string(linediff.Unified("x", "y", a.String(), b.String()))
	lines := strings.Split(got, "\n")
	assert.Equal(t, []string{"--- x", "+++ y", "@@ -1,30002 +1,30002 @@", " same", "-a0"}, lines[:5])
	assert.Equal(t, "-a29999", lines[4+29999])
	assert.Equal(t, "+b0", lines[4+30000])
	assert.Equal(t, []string{"+b29999", " end", ""}, lines[len(lines)-3:])
}
