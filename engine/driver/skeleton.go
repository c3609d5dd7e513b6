package driver

import (
	"strings"
	"unsafe"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/roleparse"
)

// CompileSkeleton is roleparse.CompileSkeleton for the texts of an
// engine's template (those around the values it prints, in the markup
// Execute writes): it also reports false when a text holds HistoryMarker,
// which the markup's reader replaces and a skeleton would keep as text.
// An engine that has a skeleton for a template implements
// MessagesExecuter with it (and Memory.Messages).
func CompileSkeleton(texts []string, opts []roleparse.Option) (*roleparse.Skeleton, bool) {
	for _, t := range texts {
		if strings.Contains(t, HistoryMarker) {
			return nil, false
		}
	}
	return roleparse.CompileSkeleton(texts, opts...)
}

// maxKept is the capacity beyond which a Memory's text is not kept for the
// next render: one very long render does not hold its memory for the rest.
const maxKept = 1 << 20

// Messages returns the messages of sk with values in its holes
// (Skeleton.Messages). With a nil m they are new; otherwise they, their
// text parts and their text are in m, valid until the next render with m
// writes over them (see Memory).
func (m *Memory) Messages(sk *roleparse.Skeleton, values []string) ([]chat.Message, error) {
	if m == nil {
		return sk.Messages(values)
	}
	text, err := sk.AppendText(m.Text[:0], values)
	if err != nil {
		return nil, err
	}
	if cap(text) <= maxKept {
		m.Text = text
	}
	n := sk.Len()
	if len(m.Msgs) < n {
		m.Msgs = make([]chat.Message, n)
	}
	if len(m.Parts) < n {
		m.Parts = make([]chat.Part, n)
	}
	msgs, parts := m.Msgs[:n:n], m.Parts[:n:n]
	// The messages' strings lie over m.Text, which the next render with m
	// writes over: Memory's contract, which only rolemark's batch package
	// asks for (internal/scratch), and which keeps a row's text from
	// being allocated (docs/decisions.md, "unsafe").
	if err := sk.Fill(msgs, parts, unsafe.String(unsafe.SliceData(text), len(text)), values); err != nil {
		return nil, err
	}
	return msgs, nil
}
