package jinja_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/internal/promptcorpus"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/roleparse"
)

// corpusDir holds real prompt templates of other projects, with the
// output Python's Jinja2 gives for each value set (see its SOURCES.md).
const corpusDir = "../testdata/jinja2-prompts"

// TestPromptCorpus renders every template of the prompt corpus with the
// jinja engine, through ParseFS as a caller would, and requires one user
// message whose text is Jinja2's output as the engine's settings give it
// (Jinja2's default whitespace and StrictUndefined: Case.EngineWant),
// as roleparse reads it: the templates' own text is markup with no message
// tag, so the whole output is one user message, trimmed, where a
// reference such as &amp; is decoded (and an empty output no message).
func TestPromptCorpus(t *testing.T) {
	cases, err := promptcorpus.Load(corpusDir)
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(cases), 50)
	set := engine.NewSet(jinja.New())
	fsys := os.DirFS(corpusDir)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			tpl, err := set.ParseFS(fsys, c.Entry.Template, engine.UseEngine("jinja"))
			require.NoError(t, err)
			vars := map[string]any{}
			for k, v := range c.Vars {
				vars[k] = v
			}
			msgs, err := tpl.Messages(context.Background(), vars)
			require.NoError(t, err)
			want, err := roleparse.Parse(c.EngineWant)
			require.NoError(t, err, "Jinja2's output is not markup of one message")
			assert.Equal(t, want, msgs)
		})
	}
}
