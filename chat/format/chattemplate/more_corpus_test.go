package chattemplate_test

import (
	"context"
	"testing"

	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// TestMoreCorpus renders internal/jinja2's oracle file of real chat
// templates outside this package's corpus (chatmore.json:
// chujiezheng/chat_templates and the model templates of huggingface.js's
// end-to-end test; convert/chatmore.py) through Template, as TestCorpus
// renders the corpus, for every conversation of
// testdata/hf/conversations.json, each rendered by Python's Jinja2 as
// transformers does: byte-identical to Jinja2, or an error where Jinja2
// raises.
func TestMoreCorpus(t *testing.T) {
	_, convs, _ := readCorpus(t)
	doc := readOracleCases(t, "chatmore.json")
	var tally oracleTally
	for i := range doc.Cases {
		c := &doc.Cases[i]
		conv, ok := convs[c.ContextRef]
		if !ok || c.TemplateRef == "" {
			continue
		}
		got, err := renderMore(t, doc.Templates[c.TemplateRef], c.TemplateRef, c.Context.BOS, c.Context.EOS, conv)
		tally.add(c, got, err)
	}
	tally.check(t, "chatmore.json", 300)
}

func renderMore(t testing.TB, src, name, bos, eos string, conv corpusConversation) (string, error) {
	tpl, err := chattemplate.New(src, chattemplate.Name(name), chattemplate.Clock(pinnedClock),
		chattemplate.Token("bos_token", bos), chattemplate.Token("eos_token", eos))
	if err != nil {
		return "", err
	}
	return tpl.Render(context.Background(), conv.messages(t), conv.options()...)
}
