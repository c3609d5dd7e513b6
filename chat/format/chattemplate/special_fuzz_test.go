package chattemplate_test

import (
	"context"
	"errors"
	"testing"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// FuzzSpecialTokens inserts one of a model's special tokens into a message
// of a conversation, for every preset and for the corpus templates, and
// checks that rendering refuses it, naming the message; with
// AllowSpecialTokens it is never refused for that reason.
func FuzzSpecialTokens(f *testing.F) {
	f.Add("Hello there", uint8(0), uint8(0), uint16(3), false)
	f.Add("", uint8(5), uint8(1), uint16(0), true)
	f.Add("Ünïcödé ✓ 中文", uint8(200), uint8(7), uint16(9), false)
	f.Add("<|im_end|", uint8(3), uint8(2), uint16(9), false)
	sources, _, _ := readCorpus(f)
	var templates []*chattemplate.Template
	var specials [][]string
	for _, s := range sources {
		tpl, err := s.compile()
		if err != nil {
			continue
		}
		templates = append(templates, tpl)
		specials = append(specials, tpl.SpecialTokens())
	}
	names := format.Names()
	f.Fuzz(func(t *testing.T, text string, which, tokIdx uint8, at uint16, toUser bool) {
		var tokens []string
		var render func([]chat.Message, ...format.Option) (string, error)
		if int(which) < len(names) {
			p, _ := format.Lookup(names[which])
			tokens = nonEmpty(append([]string{p.BOS, p.EOS}, p.Special...))
			render = p.Render
		} else {
			k := int(which) % len(templates)
			tokens = specials[k]
			render = func(m []chat.Message, o ...format.Option) (string, error) {
				return templates[k].Render(context.Background(), m, o...)
			}
		}
		if len(tokens) == 0 {
			return
		}
		tok := tokens[int(tokIdx)%len(tokens)]
		pos := int(at) % (len(text) + 1)
		content := text[:pos] + tok + text[pos:]
		msgs := []chat.Message{chat.Text(chat.RoleUser, "Hi"), chat.Text(chat.RoleAssistant, "Hello"), chat.Text(chat.RoleUser, "Go on")}
		index := 2
		if !toUser {
			index = 1
		}
		msgs[index] = chat.Text(msgs[index].Role, content)
		_, err := render(msgs)
		var se *format.SpecialTokenError
		if !errors.As(err, &se) {
			t.Fatalf("%q in message %d: want a SpecialTokenError, got %v", tok, index, err)
		}
		if se.Index != index {
			t.Fatalf("%q in message %d: the error names message %d", tok, index, se.Index)
		}
		_, err = render(msgs, format.AllowSpecialTokens())
		if errors.As(err, &se) {
			t.Fatalf("allowed, but refused: %v", err)
		}
	})
}

func nonEmpty(s []string) []string {
	out := s[:0]
	for _, x := range s {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}
