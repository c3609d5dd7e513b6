package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryFlagIsDocumented: every flag of every command is in its usage
// line (what rolemark with no arguments lists) and in docs/cli.md, the
// command line's reference, so that no flag is known only to -h.
func TestEveryFlagIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/cli.md")
	require.NoError(t, err)
	flagLine := regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`)
	for _, c := range commands() {
		var out, errOut bytes.Buffer
		args := append(strings.Fields(c.name), "-h")
		require.Equal(t, 0, run(context.Background(), args, strings.NewReader(""), &out, &errOut), errOut.String())
		for _, m := range flagLine.FindAllStringSubmatch(out.String(), -1) {
			flag := "--" + m[1]
			assert.True(t, strings.Contains(c.args, "["+flag+" ") || strings.Contains(c.args, "["+flag+"]") || strings.HasPrefix(c.args, flag+" "),
				"rolemark %s: %s is not in its usage line %q", c.name, flag, c.args)
			assert.Contains(t, string(doc), "`"+flag, "rolemark %s: %s is not in docs/cli.md", c.name, flag)
		}
	}
}

// TestWorkersDefaultIsTheMachines: batch's --workers defaults to
// runtime.NumCPU(), which -h prints as this machine's number ("(default
// 2)" where it was written); docs/cli.md says what the default is on every
// machine, as the README does ("default: all").
func TestWorkersDefaultIsTheMachines(t *testing.T) {
	doc, err := os.ReadFile("../../docs/cli.md")
	require.NoError(t, err)
	row := regexp.MustCompile("(?m)^\\| `--workers N` \\|.*$").FindString(string(doc))
	require.NotEmpty(t, row, "docs/cli.md has no row for --workers")
	assert.Contains(t, row, "the number of CPUs", "docs/cli.md gives --workers a default of one machine: %s", row)
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"batch", "-h"}, strings.NewReader(""), &out, &errOut), errOut.String())
	assert.Contains(t, out.String(), fmt.Sprintf("render N rows at once (default %d)", runtime.NumCPU()))
}
