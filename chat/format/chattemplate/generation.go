package chattemplate

import (
	"context"
	"errors"
	"regexp"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/internal/option"
	"github.com/rolemark/rolemark/internal/jinja2"
)

// ErrNoGeneration is RenderSpans' error for a chat template without a
// {% generation %} block: it cannot say which text is the assistant's.
// transformers warns and gives an assistant mask of zeros instead.
var ErrNoGeneration = errors.New("the chat template has no {% generation %} block to mark what the assistant writes")

// generationTag is the pattern by which transformers tells whether a chat
// template has a generation block.
var generationTag = regexp.MustCompile(`\{%-?\s*generation\s*-?%\}`)

func hasGeneration(src string) bool { return generationTag.MatchString(src) }

// HasGeneration reports whether the template that Render would use with
// opts (the tool_use variant when tools are given and there is one) has a
// {% generation %} block.
func (t *Template) HasGeneration(opts ...format.Option) bool {
	s := option.Apply(opts)
	jt := t.variants["default"]
	if len(s.Tools) > 0 && t.variants["tool_use"] != nil {
		jt = t.variants["tool_use"]
	}
	return jt != nil && jt.gen
}

// RenderSpans is Render that also returns the spans of the text the
// template's {% generation %} blocks wrote, [start, end) in bytes, in the
// order the blocks finished: the assistant's text, as transformers'
// apply_chat_template(..., return_assistant_tokens_mask=True) finds it
// (its AssistantTracker counts characters where RenderSpans counts bytes).
// As there, a block nested in a macro, a call, filter or set block or a
// recursive loop starts where the outermost of those began, and no span is
// recorded until the template has written something or recorded a span (a
// block that opens the output is not the assistant's). A template without
// a generation block is ErrNoGeneration.
func (t *Template) RenderSpans(ctx context.Context, msgs []chat.Message, opts ...format.Option) (string, [][2]int, error) {
	var spans []jinja2.Span
	rd := t.getData()
	option.ApplyTo(&rd.opts, opts)
	out, err := t.checkedRender(ctx, rd, msgs, &spans)
	t.putData(rd)
	if err != nil {
		if len(t.inferred) > 0 {
			t.markFromText(err)
		}
		return "", nil, err
	}
	kept := make([][2]int, 0, len(spans))
	for _, s := range spans {
		// AssistantTracker.is_active: the output yielded so far, or the
		// spans recorded, are not empty (Start is the output's length)
		if s.Start == 0 && len(kept) == 0 {
			continue
		}
		kept = append(kept, [2]int{s.Start, s.End})
	}
	return out, kept, nil
}
