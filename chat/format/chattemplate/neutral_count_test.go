package chattemplate_test

import (
	"context"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// maxCorpusNeutrals bounds the neutral renderings (the special-token
// guard's step 2) over the pairs of the corpus Jinja2 renders, each
// rendered once with the guard on: the figure of docs/PERFORMANCE.md's
// guard reviews (49, 38, then none since the rendering tells where the
// template's own text and token variables wrote), kept from growing back.
const maxCorpusNeutrals = 0

// TestNeutralRendersOverTheCorpus renders every pair of the corpus that
// Jinja2 renders with the special-token guard on and counts the neutral
// renderings, naming the templates that take them.
func TestNeutralRendersOverTheCorpus(t *testing.T) {
	sources, convs, results := readCorpus(t)
	tpls := map[string]*chattemplate.Template{}
	for _, s := range sources {
		if tpl, err := s.compile(); err == nil {
			tpls[s.File] = tpl
		}
	}
	pairs, total := 0, uint64(0)
	by := map[string]uint64{}
	for _, r := range results {
		tpl := tpls[r.Template]
		if r.Output == nil || tpl == nil {
			continue
		}
		pairs++
		conv := convs[r.Conversation]
		opts := []format.Option{format.Tools(conv.tools()...)}
		if conv.AddGenerationPrompt {
			opts = append(opts, format.GenerationPrompt())
		}
		before := chattemplate.NeutralRenders(tpl)
		_, _ = tpl.Render(context.Background(), conv.messages(t), opts...)
		if n := chattemplate.NeutralRenders(tpl) - before; n > 0 {
			total += n
			by[r.Template] += n
		}
	}
	names := make([]string, 0, len(by))
	for n := range by {
		names = append(names, n)
	}
	sort.Strings(names)
	t.Logf("%d pairs, %d neutral renderings: %v", pairs, total, names)
	assert.LessOrEqual(t, total, uint64(maxCorpusNeutrals))
}
