package jinja2_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/internal/jinja2"
	"github.com/rolemark/rolemark/internal/promptcorpus"
)

// corpusDir holds real prompt templates of other projects and the output
// Python's Jinja2 gives for each value set (written by its render.py).
const corpusDir = "../../testdata/jinja2-prompts"

// TestPromptCorpus renders every template of the prompt corpus with every
// value set, in the Environment its project uses, and compares the output
// with Python's Jinja2 byte for byte.
func TestPromptCorpus(t *testing.T) {
	cases, err := promptcorpus.Load(corpusDir)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(cases), 50)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			tmpl, err := jinja2.New(c.Options()...).Parse(c.Entry.Template, c.Src)
			require.NoError(t, err)
			got, err := tmpl.Render(context.Background(), c.Vars)
			require.NoError(t, err)
			assert.Equal(t, c.Want, got)
		})
	}
}
