package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestREADMETokenCounts runs the commands of README.md's token-count
// section and checks that each prints the output the README shows after it
// (standard error and standard output, in the order written), so that the
// figures there are the program's.
func TestREADMETokenCounts(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	_, sec, ok := strings.Cut(string(readme), "\n## Token counts")
	require.True(t, ok, "README.md has no token-count section")
	sec, _, _ = strings.Cut(sec, "\n## ")

	type example struct{ cmd, want string }
	var examples []example
	lines := strings.Split(sec, "\n")
	for i := 0; i < len(lines); i++ {
		cmd, ok := strings.CutPrefix(lines[i], "    go run ./cmd/rolemark ")
		if !ok {
			continue
		}
		j := i + 1
		for j < len(lines) && lines[j] == "" {
			j++
		}
		require.Less(t, j, len(lines))
		require.Equal(t, "```text", lines[j], "README.md: no output shown after %q", cmd)
		var want strings.Builder
		for j++; j < len(lines) && lines[j] != "```"; j++ {
			want.WriteString(lines[j] + "\n")
		}
		examples = append(examples, example{cmd, want.String()})
		i = j
	}
	require.Len(t, examples, 4)

	t.Chdir("../..")
	for _, ex := range examples {
		t.Run(ex.cmd, func(t *testing.T) {
			var out bytes.Buffer
			code := run(context.Background(), strings.Fields(ex.cmd), strings.NewReader(""), &out, &out)
			assert.Equal(t, 0, code, out.String())
			assert.Equal(t, ex.want, out.String())
		})
	}
}
