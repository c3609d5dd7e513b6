package batch

import (
	"context"
	"errors"
	"strconv"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
	"github.com/rolemark/rolemark/tokens"
)

// AssistantTokens renders msgs with the chat template t, without a
// generation prompt, encodes the text with tk and returns its token ids
// and the assistant mask (1 for a token the assistant writes, else 0), as
// transformers' apply_chat_template(msgs, tokenize=True, return_dict=True,
// return_assistant_tokens_mask=True) gives input_ids and assistant_masks.
// The text the template's {% generation %} blocks write is the
// assistant's (chattemplate.Template.RenderSpans); a template without one
// is chattemplate.ErrNoGeneration. It takes the options Tools, Vars and
// AllowSpecialTokens.
func AssistantTokens(ctx context.Context, t *chattemplate.Template, tk *tokens.Tokenizer, msgs []chat.Message, opts ...OutputOption) (ids, mask []int, err error) {
	s, err := outputOptions("AssistantTokens", optsTokens, opts)
	if err != nil {
		return nil, nil, err
	}
	if err := checkTokenizer(tk); err != nil {
		return nil, nil, err
	}
	return assistantTokens(ctx, t, tk, msgs, &s)
}

// optsTokens are the options of AssistantTokens and TemplateSFTTokens.
const optsTokens = optTools | optVars | optAllowSpecial

func checkTokenizer(tk *tokens.Tokenizer) error {
	if tk.TrimsOffsets() {
		return errors.New("sft tokens: the tokenizer's post-processor trims offsets (trim_offsets), which is not supported")
	}
	return nil
}

func assistantTokens(ctx context.Context, t *chattemplate.Template, tk *tokens.Tokenizer, msgs []chat.Message, o *outputSettings) ([]int, []int, error) {
	fo := []format.Option{format.Tools(o.tools...), format.Vars(o.vars)}
	if o.allowSpecial {
		fo = append(fo, format.AllowSpecialTokens())
	}
	text, spans, err := t.RenderSpans(ctx, msgs, fo...)
	if err != nil {
		return nil, nil, err
	}
	ids, offs := tk.EncodeOffsets(text)
	return ids, AssistantMask(offs, spans), nil
}

// AssistantMask returns the assistant mask of a text whose tokens span
// offsets, given the spans [start, end) of the text the assistant wrote,
// all in bytes: transformers' rule, which for each span in order marks the
// tokens from the one holding its first character to the one holding its
// last (char_to_token of start and of end-1), stops at a span whose first
// character no token holds, and marks to the end of the text when the
// last character's token is none or the first token (its end_token test
// is a truth test).
func AssistantMask(offsets []tokens.Offset, spans [][2]int) []int {
	mask := make([]int, len(offsets))
	for _, sp := range spans {
		start := charToToken(offsets, sp[0])
		if start < 0 {
			break
		}
		end := -1
		if sp[1] > 0 {
			end = charToToken(offsets, sp[1]-1)
		}
		hi := len(offsets)
		if end > 0 {
			hi = end + 1
		}
		for k := start; k < hi; k++ {
			mask[k] = 1
		}
	}
	return mask
}

// charToToken returns the first token whose offsets hold byte i, or -1:
// tokenizers' Encoding.char_to_token, in bytes (a token spans whole
// characters, so holding a character's byte is holding the character).
func charToToken(offsets []tokens.Offset, i int) int {
	for k, o := range offsets {
		if o.Start <= i && i < o.End {
			return k
		}
	}
	return -1
}

// TemplateSFTTokens writes {"input_ids": […], "assistant_masks": […]} per
// row: AssistantTokens of the row's conversation with the chat template t
// and the tokenizer tk. It takes Tools, Vars and AllowSpecialTokens.
func TemplateSFTTokens(t *chattemplate.Template, tk *tokens.Tokenizer, opts ...OutputOption) (Append, error) {
	s, err := outputOptions("sft tokens", optsTokens, opts)
	if err != nil {
		return nil, err
	}
	if err := checkTokenizer(tk); err != nil {
		return nil, err
	}
	return func(ctx context.Context, b []byte, _ int, _ Row, msgs []chat.Message) ([]byte, error) {
		ids, mask, err := assistantTokens(ctx, t, tk, msgs, &s)
		if err != nil {
			return nil, err
		}
		return appendSFTTokens(b, ids, mask), nil
	}, nil
}

func appendSFTTokens(b []byte, ids, mask []int) []byte {
	b = append(b, `{"input_ids":[`...)
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(id), 10)
	}
	b = append(b, `],"assistant_masks":[`...)
	for i, m := range mask {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, byte('0'+m))
	}
	return append(b, "]}\n"...)
}
