package batch

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
)

// SFTOptions configure Spans.
type SFTOptions struct {
	// LastOnly gives the span of the last assistant message only.
	LastOnly bool
	// WithEnd extends each span over the end of the assistant's turn as the
	// format declares it (the assistant turn's End without trailing white
	// space: "<|im_end|>" in chatml, "<|eot_id|>" in llama3, " </s>" in
	// llama2), so that a model learns to stop.
	WithEnd bool
}

// ErrSpanToolCalls is returned by Spans for an assistant message with tool
// calls in a format that writes them: its spans would have to cover the
// calls as the format writes them, which Spans does not find yet.
var ErrSpanToolCalls = errors.New("sft: assistant messages with tool calls are not supported")

// Spans writes msgs in the chat format f without a generation prompt, and
// returns that text and the spans of it that the assistant messages'
// contents occupy, as the format writes them (trimmed where the format
// trims), in order, each [start, end) in characters (Unicode code points,
// as Python indexes a str) — what HuggingFace's {% generation %} blocks and
// return_assistant_tokens_mask mark. An assistant message the format leaves
// out, or whose written content is empty, has no span.
//
// A span is found by writing the conversation a second time with the
// message's content between two marker characters that occur nowhere else:
// what the two writings share before and after the markers is the same
// text, so what lies between in the first is the content. A format that
// writes a content twice, or whose other text depends on it, gives an
// error rather than a wrong span.
func Spans(f *format.Format, msgs []chat.Message, tools []chat.Tool, o SFTOptions) (string, [][2]int, error) {
	opts := format.Options{Tools: tools}
	full, err := f.Render(msgs, opts)
	if err != nil {
		return "", nil, err
	}
	var which []int
	for i := range msgs {
		if msgs[i].Role == chat.RoleAssistant {
			which = append(which, i)
		}
	}
	if o.LastOnly && len(which) > 1 {
		which = which[len(which)-1:]
	}
	if len(which) == 0 {
		return full, nil, nil
	}
	open, closing := markers(full, msgs)
	marked := make([]chat.Message, len(msgs))
	copy(marked, msgs)
	var spans [][2]int
	runes, at := 0, 0 // the rune offset of byte offset at
	for _, i := range which {
		m := msgs[i]
		if f.Tools != nil && len(m.ToolCalls) > 0 {
			return "", nil, fmt.Errorf("message %d: %w", i+1, ErrSpanToolCalls)
		}
		text := m.Text()
		mm := m
		mm.Content = []chat.Part{chat.TextPart(open + text + closing)}
		marked[i] = mm
		out, err := f.Render(marked, opts)
		marked[i] = m
		if err != nil {
			return "", nil, fmt.Errorf("message %d: sft: writing with markers: %w", i+1, err)
		}
		a, b := strings.Index(out, open), strings.Index(out, closing)
		if a < 0 && b < 0 {
			continue // the format leaves the message out
		}
		prefix, suffix := out[:max(a, 0)], ""
		if b >= 0 {
			suffix = out[b+len(closing):]
		}
		if a < 0 || b < a || strings.Count(out, open) != 1 || strings.Count(out, closing) != 1 ||
			len(prefix)+len(suffix) > len(full) ||
			!strings.HasPrefix(full, prefix) || !strings.HasSuffix(full, suffix) {
			if strings.TrimSpace(text) == "" {
				continue // an empty message the format leaves out
			}
			return "", nil, fmt.Errorf("message %d: sft: cannot tell where the format writes the assistant's content", i+1)
		}
		start, end := len(prefix), len(full)-len(suffix)
		if o.WithEnd {
			end += turnEnd(f, full[end:])
		}
		if start == end {
			continue
		}
		runes += utf8.RuneCountInString(full[at:start])
		s := runes
		runes += utf8.RuneCountInString(full[start:end])
		at = end
		spans = append(spans, [2]int{s, runes})
	}
	return full, spans, nil
}

// turnEnd returns the length of the assistant turn's end at the start of
// rest, or 0.
func turnEnd(f *format.Format, rest string) int {
	t, ok := f.Roles[chat.RoleAssistant]
	if !ok {
		if fb, isFB := f.Fallback[chat.RoleAssistant]; isFB {
			t, ok = f.Roles[fb]
		}
	}
	if !ok && f.Other != nil {
		t, ok = *f.Other, true
	}
	if !ok {
		return 0
	}
	var ends []string
	if t.Last != nil {
		ends = append(ends, t.Last.End)
	}
	if t.First != nil {
		ends = append(ends, t.First.End)
	}
	ends = append(ends, t.End)
	for _, e := range ends {
		e = strings.NewReplacer("{role}", "assistant", "{Role}", "Assistant").Replace(e)
		e = strings.TrimRight(e, " \t\r\n")
		if e != "" && strings.HasPrefix(rest, e) {
			return len(e)
		}
	}
	return 0
}

// markers returns two private-use characters that occur neither in the text
// nor in any message.
func markers(full string, msgs []chat.Message) (string, string) {
	used := func(s string) bool {
		if strings.Contains(full, s) {
			return true
		}
		for i := range msgs {
			if strings.Contains(msgs[i].Text(), s) {
				return true
			}
		}
		return false
	}
	for r := rune(0xE000); r < 0xF8FF; r += 2 {
		a, b := string(r), string(r+1)
		if !used(a) && !used(b) {
			return a, b
		}
	}
	return "\U000F0000", "\U000F0001"
}
