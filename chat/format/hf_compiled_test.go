package format_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat/format"
)

// TestCompiledCorpus is the compiled path's differential test over the
// whole corpus: wherever it accepts a (template, conversation) pair, its
// output is Jinja2's, byte for byte; where Jinja2 raises, it refuses (and
// Render takes the engine's error). It reports how many templates compile.
func TestCompiledCorpus(t *testing.T) {
	sources, convs, results := readCorpus(t)
	byFile := map[string]corpusSource{}
	tpls := map[string]*format.Template{}
	compiled := 0
	var notCompiled []string
	for _, s := range sources {
		byFile[s.File] = s
		tpl, err := s.compile()
		if err != nil {
			continue
		}
		tpls[s.File] = tpl
		if format.Compiled(tpl) {
			compiled++
		} else {
			notCompiled = append(notCompiled, s.File+" "+s.Model)
		}
	}
	var identical, refused, raisedRefused int
	var wrong []string
	for _, r := range results {
		tpl := tpls[r.Template]
		if tpl == nil || !format.Compiled(tpl) {
			continue
		}
		conv := convs[r.Conversation]
		got, ok := format.RenderCompiled(context.Background(), tpl, conv.messages(t), format.Options{
			AddGenerationPrompt: conv.AddGenerationPrompt, Tools: conv.tools(), AllowSpecialTokens: true})
		key := r.Template + " " + byFile[r.Template].Model + " / " + r.Conversation
		switch {
		case !ok && r.Output == nil:
			raisedRefused++
		case !ok:
			refused++
			t.Logf("refused: %s", key)
		case r.Output == nil:
			wrong = append(wrong, fmt.Sprintf("%s: Jinja2 raises %s (%s), the compiled path renders %q", key, r.ErrorKind, r.Error, got))
		case got == *r.Output:
			identical++
		default:
			wrong = append(wrong, fmt.Sprintf("%s:\n  want %q\n  got  %q", key, *r.Output, got))
		}
	}
	t.Logf("%d of %d templates compile; on their pairs: %d identical to Jinja2, %d where both refuse (Jinja2 raises), %d refused (the engine renders them)",
		compiled, len(sources), identical, raisedRefused, refused)
	for _, n := range notCompiled {
		t.Logf("not compiled: %s", n)
	}
	assert.Empty(t, wrong, "the compiled path differs from Jinja2:\n%s", strings.Join(wrong, "\n"))
	require.Positive(t, compiled)
}
