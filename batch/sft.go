package batch

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
	"github.com/rolemark/rolemark/chat/format/chattemplate"
)

// ErrSpanToolCalls is returned by Spans for an assistant message with tool
// calls whose written form it cannot tell apart from the rest of the text
// (a format whose other text depends on the calls).
var ErrSpanToolCalls = errors.New("sft: cannot tell where the format writes the assistant's tool calls")

// Spans writes msgs in the chat format f without a generation prompt, and
// returns that text and the spans of it that the assistant messages
// occupy, as the format writes them, in order, each [start, end) in
// characters (Unicode code points, as Python indexes a str) — what
// HuggingFace's {% generation %} blocks and return_assistant_tokens_mask
// mark. An assistant message the format leaves out, or whose written
// content is empty, has no span.
//
// The span of a message's text content is found by writing the
// conversation a second time with the content between two marker
// characters that occur nowhere else: what the two writings share before
// and after the markers is the same text, so what lies between in the
// first is the content (trimmed where the format trims). A message with
// tool calls spans what the model writes for it: its content and its calls
// as the format writes them ("<tool_call>\n{…}\n</tool_call>" in qwen2.5,
// "[TOOL_CALLS] […]" in mistral-v3). That span is found by writing the
// message as the two markers alone, without calls: the text the two
// writings do not share is the message. A format that writes a content
// twice, or whose other text depends on it, gives an error rather than a
// wrong span; a format with no way to write tool calls refuses them
// (*format.PartError).
//
// Spans takes the options Tools, LastOnly, TurnEnds and AllowSpecialTokens.
func Spans(f *format.Format, msgs []chat.Message, opts ...OutputOption) (string, [][2]int, error) {
	s, err := outputOptions("Spans", optsSpans, opts)
	if err != nil {
		return "", nil, err
	}
	return formatSpans(f, msgs, &s)
}

func formatSpans(f *format.Format, msgs []chat.Message, o *outputSettings) (string, [][2]int, error) {
	render := func(m []chat.Message, gen bool) (string, error) {
		return f.Render(m, o.formatOptions(gen)...)
	}
	return spans(render, turnEnds(f), msgs, o)
}

// TemplateSpans is Spans for a model's own chat template t; it also takes
// Vars, the template's variables. The end of an assistant's turn
// (TurnEnds) is what t writes after an assistant's text content, without
// trailing white space ("<|im_end|>", "<|eot_id|>", "</s>").
func TemplateSpans(ctx context.Context, t *chattemplate.Template, msgs []chat.Message, opts ...OutputOption) (string, [][2]int, error) {
	s, err := outputOptions("TemplateSpans", optsSpans|optVars, opts)
	if err != nil {
		return "", nil, err
	}
	return templateSpans(ctx, t, msgs, &s)
}

func templateSpans(ctx context.Context, t *chattemplate.Template, msgs []chat.Message, o *outputSettings) (string, [][2]int, error) {
	render := func(m []chat.Message, gen bool) (string, error) {
		return t.Render(ctx, m, append(o.formatOptions(gen), format.Vars(o.vars))...)
	}
	var ends []string
	const mark = "\ue000\ue001"
	if w, err := render([]chat.Message{chat.Text(chat.RoleUser, "x"), chat.Text(chat.RoleAssistant, mark)}, false); err == nil {
		if _, after, ok := strings.Cut(w, mark); ok {
			ends = append(ends, strings.TrimRight(after, " \t\r\n"))
		}
	}
	return spans(render, ends, msgs, o)
}

// spans is Spans for a conversation that render writes (with the
// generation prompt when gen); ends are the texts that may end an
// assistant's turn, without trailing white space.
func spans(render func(msgs []chat.Message, gen bool) (string, error), ends []string, msgs []chat.Message, o *outputSettings) (string, [][2]int, error) {
	full, err := render(msgs, false)
	if err != nil {
		return "", nil, err
	}
	var which []int
	for i := range msgs {
		if msgs[i].Role == chat.RoleAssistant {
			which = append(which, i)
		}
	}
	if o.lastOnly && len(which) > 1 {
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
		var start, end int
		if len(m.ToolCalls) > 0 {
			var err error
			if start, end, err = callSpan(render, ends, msgs, i, full); err != nil {
				return "", nil, err
			}
		} else {
			text := m.Text()
			mm := m
			mm.Content = []chat.Part{chat.TextPart(open + text + closing)}
			marked[i] = mm
			out, err := render(marked, false)
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
			start, end = len(prefix), len(full)-len(suffix)
		}
		if o.ends {
			for _, e := range ends {
				if e != "" && strings.HasPrefix(full[end:], e) {
					end += len(e)
					break
				}
			}
		}
		if start == end {
			continue
		}
		if start < at {
			return "", nil, fmt.Errorf("message %d: sft: the format writes it before the assistant message before it", i+1)
		}
		runes += utf8.RuneCountInString(full[at:start])
		s := runes
		runes += utf8.RuneCountInString(full[start:end])
		at = end
		spans = append(spans, [2]int{s, runes})
	}
	return full, spans, nil
}

// callSpan finds where full, the conversation msgs as render writes it,
// writes msgs[i], an assistant message with tool calls: what the model
// writes for it. The conversation written without the message shares all
// of full but the message's turn. The span starts where the turn's opening
// ends (the generation prompt, what AddGenerationPrompt adds after the
// messages before it), at the first place the two writings allow where it
// is written; it ends before trailing white space and the turn's end
// (ends). Each call's name must be in it.
func callSpan(render func([]chat.Message, bool) (string, error), ends []string, msgs []chat.Message, i int, full string) (start, end int, err error) {
	fail := fmt.Errorf("message %d: %w", i+1, ErrSpanToolCalls)
	rest := make([]chat.Message, 0, len(msgs)-1)
	rest = append(append(rest, msgs[:i]...), msgs[i+1:]...)
	without, err := render(rest, false)
	if err != nil {
		return 0, 0, fmt.Errorf("message %d: sft: writing without it: %w", i+1, err)
	}
	n := len(full) - len(without)
	if n <= 0 {
		return 0, 0, fail
	}
	pMax := 0
	for pMax < len(without) && full[pMax] == without[pMax] {
		pMax++
	}
	s := 0
	for s < len(without) && full[len(full)-1-s] == without[len(without)-1-s] {
		s++
	}
	pMin := len(without) - s
	before, err := render(msgs[:i], false)
	if err != nil {
		return 0, 0, fmt.Errorf("message %d: sft: writing what comes before it: %w", i+1, err)
	}
	gen, err := render(msgs[:i], true)
	if err != nil {
		return 0, 0, fmt.Errorf("message %d: sft: writing what comes before it: %w", i+1, err)
	}
	opening, _ := strings.CutPrefix(gen, before)
	if !strings.HasPrefix(gen, before) {
		opening = ""
	}
	p := max(pMin, 0)
	for ; p <= pMax && !strings.HasPrefix(full[p:], opening); p++ {
	}
	if p > pMax || p < len(full) && !utf8.RuneStart(full[p]) {
		return 0, 0, fail
	}
	start, end = p+len(opening), p+n
	end = start + len(strings.TrimRight(full[start:end], " \t\r\n"))
	for _, e := range ends {
		if e != "" && strings.HasSuffix(full[start:end], e) {
			end -= len(e)
			break
		}
	}
	if end < len(full) && !utf8.RuneStart(full[end]) {
		return 0, 0, fail
	}
	for _, c := range msgs[i].ToolCalls {
		if !strings.Contains(full[start:end], c.Name) {
			return 0, 0, fail
		}
	}
	return start, end, nil
}

// turnEnds returns the texts that may end an assistant's turn in f, as
// the format declares them, without trailing white space.
func turnEnds(f *format.Format) []string {
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
		return nil
	}
	var ends []string
	if t.Last != nil {
		ends = append(ends, t.Last.End)
	}
	if t.First != nil {
		ends = append(ends, t.First.End)
	}
	ends = append(ends, t.End)
	if f.Tools != nil && f.Tools.CallTurn != nil {
		ends = append(ends, f.Tools.CallTurn.End)
	}
	r := strings.NewReplacer("{role}", "assistant", "{Role}", "Assistant")
	for i, e := range ends {
		ends[i] = strings.TrimRight(r.Replace(e), " \t\r\n")
	}
	return ends
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
