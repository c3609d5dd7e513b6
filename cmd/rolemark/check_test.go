package main

import (
	"bytes"
	"context"
	"flag"
	"os"
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
	const golden = "testdata/promptdir.check.golden"
	if *update {
		require.NoError(t, os.WriteFile(golden, out.Bytes(), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), out.String())

	out.Reset()
	code = run(context.Background(), []string{"check", "../../testdata/promptdir/support", "../../testdata/promptdir/ops", "../../testdata/promptdir/sales", "../../testdata/promptdir/hr"}, nil, &out, &errOut)
	assert.Equal(t, 0, code, out.String())
	assert.Empty(t, out.String())
}
