package engine

import (
	"context"

	"github.com/rolemark/rolemark/chat"
)

// Trimmed reports what a HistoryBudget left out of a render.
type Trimmed struct {
	// Dropped are the history messages left out, oldest first.
	Dropped []chat.Message
	// Tokens is the count of the messages rendered.
	Tokens int
	// Over is set when the messages exceed the budget even with every
	// history message that may go left out.
	Over bool
}

type budget struct {
	max    int
	count  func([]chat.Message) int
	report *Trimmed
}

// HistoryBudget keeps the newest history messages whose render fits
// maxTokens as count counts the whole list of messages (tokens.CountChat
// with a tokenizer, say, or the tokens of a chat format's text). An
// assistant message with tool calls and the tool messages answering it go
// or stay together; the history's system and developer messages always
// stay, as does everything the template writes. When report is not nil,
// Messages fills it in. Render ignores the option: only messages are
// counted.
func HistoryBudget(maxTokens int, count func([]chat.Message) int, report *Trimmed) RenderOption {
	return func(r *renderSettings) { r.budget = &budget{max: maxTokens, count: count, report: report} }
}

// historyUnits cuts history into the pieces that are dropped whole: an
// assistant message with tool calls together with the tool messages that
// follow it, or one message. Pinned messages (system, developer) are in no
// unit.
func historyUnits(history []chat.Message) (units [][2]int, pinned []bool) {
	pinned = make([]bool, len(history))
	for i := 0; i < len(history); {
		m := history[i]
		if m.Role == chat.RoleSystem || m.Role == chat.RoleDeveloper {
			pinned[i] = true
			i++
			continue
		}
		j := i + 1
		if m.Role == chat.RoleAssistant && len(m.ToolCalls) > 0 {
			for j < len(history) && history[j].Role == chat.RoleTool {
				j++
			}
		}
		units = append(units, [2]int{i, j})
		i = j
	}
	return units, pinned
}

// messagesWithin renders with the newest history that fits the budget,
// finding how many units to keep by bisection (the count only grows with
// the history kept).
func (t *Template) messagesWithin(ctx context.Context, vars map[string]any, opts []RenderOption, b *budget, history []chat.Message) ([]chat.Message, error) {
	units, pinned := historyUnits(history)
	keep := func(k int) []chat.Message { // the pinned messages and the newest k units
		from := len(history)
		if k > 0 {
			from = units[len(units)-k][0]
		}
		var h []chat.Message
		for i, m := range history {
			if pinned[i] || i >= from {
				h = append(h, m)
			}
		}
		return h
	}
	render := func(k int) ([]chat.Message, int, error) {
		o := append(append([]RenderOption(nil), opts...), History(keep(k)), func(r *renderSettings) { r.budget = nil })
		msgs, err := t.Messages(ctx, vars, o...)
		if err != nil {
			return nil, 0, err
		}
		return msgs, b.count(msgs), nil
	}
	msgs, n, err := render(len(units))
	if err != nil {
		return nil, err
	}
	k := len(units)
	if n > b.max {
		lo, hi := 0, len(units)-1 // the largest k that fits is in [lo-1, hi]
		var best []chat.Message
		bestN, bestK := 0, -1
		for lo <= hi {
			mid := (lo + hi) / 2
			m, c, err := render(mid)
			if err != nil {
				return nil, err
			}
			if c <= b.max {
				best, bestN, bestK = m, c, mid
				lo = mid + 1
			} else {
				hi = mid - 1
			}
		}
		if bestK < 0 {
			if msgs, n, err = render(0); err != nil {
				return nil, err
			}
			k = 0
		} else {
			msgs, n, k = best, bestN, bestK
		}
	}
	if b.report != nil {
		*b.report = Trimmed{Tokens: n, Over: n > b.max}
		from := len(history)
		if k > 0 {
			from = units[len(units)-k][0]
		}
		for i, m := range history[:from] {
			if !pinned[i] {
				b.report.Dropped = append(b.report.Dropped, m)
			}
		}
	}
	return msgs, nil
}
