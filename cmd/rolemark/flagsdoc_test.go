package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
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
