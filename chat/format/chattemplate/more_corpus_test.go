package chattemplate_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolemark/rolemark/chat/format/chattemplate"
	"github.com/rolemark/rolemark/chat/format/internal/fixture"
)

// moreCorpus is internal/jinja2's oracle file of real chat templates
// outside this package's corpus (chujiezheng/chat_templates and the model
// templates of huggingface.js's end-to-end test; convert/chatmore.py),
// each rendered by Python's Jinja2 as transformers does over the
// conversations of testdata/hf/conversations.json, among others.
var moreCorpus = filepath.Join("..", "..", "..", "internal", "jinja2", "testdata", "oracle", "cases", "chatmore.json")

// TestMoreCorpus renders those templates through Template, as TestCorpus
// renders the corpus, for every conversation of conversations.json:
// byte-identical to Jinja2, or an error where Jinja2 raises; never a
// different string, never an error where Jinja2 renders.
func TestMoreCorpus(t *testing.T) {
	_, convs, _ := readCorpus(t)
	var doc struct {
		Templates map[string]string `json:"templates"`
		Cases     []struct {
			ID          string `json:"id"`
			TemplateRef string `json:"template_ref"`
			ContextRef  string `json:"context_ref"`
			Context     struct {
				BOS string `json:"bos_token"`
				EOS string `json:"eos_token"`
			} `json:"context"`
			Expect struct {
				Output *string `json:"output"`
				Error  string  `json:"error"`
			} `json:"expect"`
		} `json:"cases"`
	}
	fixture.ReadJSON(t, moreCorpus, &doc)
	var n, identical, bothErr int
	var bad []string
	for _, c := range doc.Cases {
		conv, ok := convs[c.ContextRef]
		if !ok || c.TemplateRef == "" {
			continue
		}
		n++
		got, err := renderMore(t, doc.Templates[c.TemplateRef], c.TemplateRef, c.Context.BOS, c.Context.EOS, conv)
		switch want := c.Expect.Output; {
		case want == nil && err != nil:
			bothErr++
		case want == nil:
			bad = append(bad, fmt.Sprintf("%s: Jinja2 raises %s, Render gives %q", c.ID, c.Expect.Error, got))
		case err != nil:
			bad = append(bad, fmt.Sprintf("%s: Jinja2 renders, Render fails: %v", c.ID, err))
		case got == *want:
			identical++
		default:
			bad = append(bad, fmt.Sprintf("%s:\n  want %q\n  got  %q", c.ID, *want, got))
		}
	}
	t.Logf("%d pairs: %d identical, %d raise in both, %d otherwise", n, identical, bothErr, len(bad))
	assert.Greater(t, n, 300)
	assert.Empty(t, bad, "%s", strings.Join(bad, "\n"))
}

func renderMore(t testing.TB, src, name, bos, eos string, conv corpusConversation) (string, error) {
	tpl, err := chattemplate.New(src, chattemplate.Name(name), chattemplate.Clock(pinnedClock),
		chattemplate.Token("bos_token", bos), chattemplate.Token("eos_token", eos))
	if err != nil {
		return "", err
	}
	return tpl.Render(context.Background(), conv.messages(t), conv.options()...)
}
