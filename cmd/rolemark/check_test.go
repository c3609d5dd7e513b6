package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestCheckPromptDir runs rolemark check on the shared prompt directory,
// which holds good prompts of every engine, partials (hr/ uses its own
// top-level ones from subdirectories), defaults and required inputs, and bad
// front matter, templates and inputs.
func TestCheckPromptDir(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"check", "../../testdata/promptdir"}, nil, &out, &errOut)
	assert.Equal(t, 1, code)
	assert.Empty(t, errOut.String())
	goldenFile(t, "testdata/promptdir.check.golden", out.String())

	out.Reset()
	code = run(context.Background(), []string{"check", "../../testdata/promptdir/support", "../../testdata/promptdir/ops", "../../testdata/promptdir/sales", "../../testdata/promptdir/hr"}, nil, &out, &errOut)
	assert.Equal(t, 0, code, out.String())
	assert.Empty(t, out.String())
}

// TestCheckBroken runs rolemark check on testdata/check/broken, where every
// file holds one deliberate mistake (a template that only includes a broken
// partial holds none of its own: the partial's mistake is reported once, at
// the partial), and on testdata/check/good, where there is none. The golden
// file holds the one line expected per mistake, at the place in the
// template the author wrote.
func TestCheckBroken(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"check", "../../testdata/check/broken"}, nil, &out, &errOut)
	assert.Equal(t, 1, code)
	assert.Empty(t, errOut.String())
	got := strings.ReplaceAll(out.String(), "../../", "")
	goldenFile(t, "../../testdata/check/broken.golden", got)

	// One line per file, and every file but the two that only include a
	// broken partial.
	entries, err := os.ReadDir("../../testdata/check/broken")
	require.NoError(t, err)
	var files, named []string
	for _, e := range entries {
		if n := e.Name(); n != "hbs_broken_partial.hbs" && n != "j2_broken_partial.j2" {
			files = append(files, "testdata/check/broken/"+n)
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		file, rest, _ := strings.Cut(line, ":")
		assert.Regexp(t, `^\d+:\d+: `, rest, "every problem has a line and a column")
		named = append(named, file)
	}
	assert.Equal(t, files, named)
	assert.GreaterOrEqual(t, len(named), 25)

	out.Reset()
	code = run(context.Background(), []string{"check", "../../testdata/check/good"}, nil, &out, &errOut)
	assert.Equal(t, 0, code)
	assert.Empty(t, out.String())
}
