package chattemplate

import (
	"slices"
	"sync/atomic"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format/internal/special"
	"github.com/rolemark/rolemark/internal/jinja2"
)

// A chat application renders a conversation's history again at every
// turn, so a Template keeps the last conversation it rendered: each
// message's dict (the sandbox keeps every list and dict as it is, so
// renderings may share them) and what the special-token scan found in it.
// A message equal, field by field, to the one at its place in the kept
// conversation is neither converted nor scanned again.

// maxKeptMessages bounds the conversation a Template keeps.
const maxKeptMessages = 1024

// convKept is a conversation a Template rendered, immutable once kept.
type convKept struct {
	snaps []msgSnap       // what was read of each message, copied
	vals  []jinja2.Value  // each message's dict
	marks []special.Marks // each message's marks (the scan found no token)
	all   special.Marks   // all of them
	// neutralAlone is the special-token guard's verdict on all alone
	// (no tools, no variables): whether step 2 is needed.
	neutralAlone bool
	// forge is, when neutralAlone, the tokens all could make
	// (special.Guard.Forgers), which step 2 seeks in the prompt.
	forge *special.Forgers
	list  jinja2.Value // the messages list, holding vals
	// neutral is the conversation's neutral copy (the special-token
	// guard's step 2), converted, made by the first rendering that needs
	// it.
	neutral atomic.Pointer[convNeutral]
	// withTools is the guard's verdict on the conversation with the
	// first tool list of the memo it was rendered with (no variables):
	// the conversation and the tools' verdict are immutable, so the
	// verdict on the two is made once, not at every rendering.
	withTools atomic.Pointer[keptVerdict]
	// clean is the rendering of the conversation that step 2's first
	// test found holds no token the data could have made (the prompt
	// and where the template's own text wrote it): made once, by the
	// first such rendering that read nothing that varies from rendering
	// to rendering (jinja2.Renderer.Varied). Another rendering of it with the
	// same tools and flags writes the same prompt, the same spans of the
	// template's own text: its verdict is the same, and it is rendered
	// without either.
	clean atomic.Pointer[cleanRender]
}

// cleanRender is what a rendering of a kept conversation was given
// besides it: the tool list's entry in the memo (nil without tools) and
// the generation and continuation flags.
type cleanRender struct {
	te        *toolsEntry
	gen, cont bool
}

// keptVerdict is the special-token guard's verdict on a kept
// conversation with the tools whose verdict is tv: whether step 2 is
// needed, and then the tokens the marks of both could make.
type keptVerdict struct {
	tv      *special.ToolsVerdict
	neutral bool
	forge   *special.Forgers
}

// convNeutral is the neutral copy of a kept conversation: the messages
// and their list.
type convNeutral struct {
	msgs []chat.Message
	list jinja2.Value
}

// msgSnap is a copy of what conversion and scan read of a message.
type msgSnap struct {
	role         chat.Role
	name, callID string
	parts        []chat.Part
	calls        []callSnap
	// roleK is role as one of the roles of package chat (roleOther for
	// any other), and text is set when parts is one text part and
	// nothing else, txt its text (here, so that same reads it without
	// going through parts): what same compares first, without a call.
	// plain is set for the usual message, one text part of a role of
	// package chat with no name and no calls, which heldBy compares
	// itself.
	roleK uint8
	text  bool
	plain bool
	txt   string
}

type callSnap struct{ id, name, args string }

// The roles of package chat, as msgSnap.roleK holds them.
const (
	roleOther = iota
	roleUser
	roleAssistant
	roleSystem
	roleTool
)

func roleKind(r chat.Role) uint8 {
	switch r {
	case chat.RoleUser:
		return roleUser
	case chat.RoleAssistant:
		return roleAssistant
	case chat.RoleSystem:
		return roleSystem
	case chat.RoleTool:
		return roleTool
	}
	return roleOther
}

func snapOf(m *chat.Message) msgSnap {
	s := msgSnap{role: m.Role, name: m.Name, callID: m.ToolCallID, parts: slices.Clone(m.Content), roleK: roleKind(m.Role)}
	if s.text = len(s.parts) == 1 && textPart(&s.parts[0]); s.text {
		s.txt = s.parts[0].Text
	}
	s.plain = s.text && s.roleK != roleOther && s.name == "" && len(m.ToolCalls) == 0
	if len(m.ToolCalls) > 0 {
		s.calls = make([]callSnap, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			s.calls[i] = callSnap{id: c.ID, name: c.Name, args: string(c.Arguments)}
		}
	}
	return s
}

// textPart reports whether p is a text part with no other field set.
func textPart(p *chat.Part) bool {
	return p.Type == chat.PartText && len(p.URL) == 0 && len(p.MediaType) == 0 && len(p.Detail) == 0
}

// eqStr is a == b with no call when either is empty or they share their
// bytes (jinja2.SameStr): the == of two strings of one length is a call.
func eqStr(a, b string) bool { return len(a) == len(b) && (len(a) == 0 || jinja2.SameStr(a, b)) }

// same reports whether m holds what s copied: its fields' lengths in
// one test, its role against a constant when it is one of package
// chat's, and a string field's bytes only when its length is not zero.
func (s *msgSnap) same(m *chat.Message) bool {
	if (len(s.name)^len(m.Name))|(len(s.callID)^len(m.ToolCallID))|
		(len(s.parts)^len(m.Content))|(len(s.calls)^len(m.ToolCalls)) != 0 {
		return false
	}
	if s.roleK != roleOther {
		if !knownRole(s.roleK, m.Role) {
			return false
		}
	} else if s.role != m.Role {
		return false
	}
	if s.text {
		p := &m.Content[0]
		if len(p.URL)|len(p.MediaType)|len(p.Detail) != 0 || p.Type != chat.PartText || !jinja2.SameStr(p.Text, s.txt) {
			return false
		}
	} else {
		for i := range s.parts {
			if s.parts[i] != m.Content[i] {
				return false
			}
		}
	}
	if len(s.name)|len(s.callID) != 0 && (!eqStr(s.name, m.Name) || !eqStr(s.callID, m.ToolCallID)) {
		return false
	}
	for i := range s.calls {
		c, k := &m.ToolCalls[i], &s.calls[i]
		if !eqStr(k.id, c.ID) || !eqStr(k.name, c.Name) || k.args != string(c.Arguments) {
			return false
		}
	}
	return true
}

// conversation returns msgs as the template's messages list and, when
// the template has special tokens, the marks the scan found in them, with
// kc, the conversation kept for msgs (its neutral copy is msgs'); or kc
// nil when the caller is to convert and scan msgs itself, in the
// rendering's memory.
//
// The kept conversation is used when msgs holds it (the same messages, or
// them and more after): its messages' dicts and marks are taken, the
// others converted and scanned, and the whole is kept for the next
// rendering. Another conversation is kept when it is the one the
// rendering before saw (hash): keeping costs memory that a Template
// rendering many conversations in turn would spend at every rendering for
// nothing. A message holding a special token is the Hit when check is
// set; without check it is converted all the same, and the conversation
// is not kept.
func (t *Template) conversation(msgs []chat.Message, check bool) (list jinja2.Value, marks special.Marks, kc *convKept, hit *special.Hit) {
	old := t.conv.Load()
	n := old.heldBy(msgs)
	switch {
	case old != nil && n == len(old.snaps) && n == len(msgs):
		return old.list, old.all, old, nil
	case len(msgs) > maxKeptMessages:
		return jinja2.Value{}, special.Marks{}, nil, nil
	case old != nil && n == len(old.snaps):
		// the kept conversation, continued
	default:
		n = 0
		h := t.seenHash(msgs)
		if t.lastSeen.Swap(h) != h {
			return jinja2.Value{}, special.Marks{}, nil, nil
		}
	}
	kc = &convKept{snaps: make([]msgSnap, len(msgs)), vals: make([]jinja2.Value, len(msgs)), marks: make([]special.Marks, len(msgs))}
	if n > 0 {
		copy(kc.snaps, old.snaps)
		copy(kc.vals, old.vals)
		copy(kc.marks, old.marks)
		kc.all = old.all
	}
	mem := newRenderMem(msgs[n:]) // not pooled: what it holds is kept
	keep := true
	for i := n; i < len(msgs); i++ {
		m := &msgs[i]
		if t.guard != nil {
			mk, hit := t.guard.ScanMessage(i, m)
			if hit != nil && check {
				return jinja2.Value{}, special.Marks{}, nil, hit
			}
			keep = keep && hit == nil
			kc.marks[i] = mk
		}
		kc.snaps[i] = snapOf(m)
		kc.vals[i] = t.messageValue(mem, m)
		kc.all.Add(kc.marks[i])
	}
	kc.list = jinja2.ListV(kc.vals)
	if t.guard != nil {
		_, kc.neutralAlone, _ = t.guard.CheckScannedVerdict(kc.all, nil, nil)
		if kc.neutralAlone {
			kc.forge = t.guard.Forgers(kc.all)
		}
	}
	if keep {
		t.conv.Store(kc)
	}
	return kc.list, kc.all, kc, nil
}

// knownRole reports whether r is the role of package chat that k names
// (roleUser, …; not roleOther).
func knownRole(k uint8, r chat.Role) bool {
	switch k {
	case roleUser:
		return r == chat.RoleUser
	case roleAssistant:
		return r == chat.RoleAssistant
	case roleSystem:
		return r == chat.RoleSystem
	}
	return r == chat.RoleTool
}

// heldBy returns how many of kc's messages msgs holds at their place
// (none when kc is nil). A rendering of a kept conversation compares
// every message it holds: a plain one (msgSnap.plain) here, without a
// call but the text's, every other with same.
func (kc *convKept) heldBy(msgs []chat.Message) int {
	if kc == nil || len(kc.snaps) > len(msgs) {
		return 0
	}
	snaps := kc.snaps
	msgs = msgs[:len(snaps)]
	for n := range snaps {
		s, m := &snaps[n], &msgs[n]
		if !s.plain {
			if !s.same(m) {
				return n
			}
			continue
		}
		if (len(m.Content)^1)|len(m.Name)|len(m.ToolCalls)|(len(m.ToolCallID)^len(s.callID)) != 0 ||
			!jinja2.SameStr(string(m.Role), string(s.role)) {
			return n
		}
		p := &m.Content[0]
		if len(p.URL)|len(p.MediaType)|len(p.Detail) != 0 || p.Type != chat.PartText || !jinja2.SameStr(p.Text, s.txt) ||
			len(s.callID) != 0 && !jinja2.SameStr(m.ToolCallID, s.callID) {
			return n
		}
	}
	return len(kc.snaps)
}

// neutralOf returns the neutral copy of kc's conversation, msgs, with its
// list: kept with kc, so that rendering the same conversation again
// neither copies nor converts it again. kc nil: the copy, and the zero
// list (converted in the rendering's memory).
func (t *Template) neutralOf(kc *convKept, msgs []chat.Message) ([]chat.Message, jinja2.Value) {
	if kc == nil {
		nmsgs, _, _ := t.guard.Neutral(msgs, nil, nil)
		return nmsgs, jinja2.Value{}
	}
	if n := kc.neutral.Load(); n != nil {
		return n.msgs, n.list
	}
	nmsgs, _, _ := t.guard.Neutral(msgs, nil, nil)
	mem := newRenderMem(nmsgs) // not pooled: what it holds is kept
	vals := make([]jinja2.Value, len(nmsgs))
	for i := range nmsgs {
		vals[i] = t.messageValue(mem, &nmsgs[i])
	}
	n := &convNeutral{msgs: nmsgs, list: jinja2.ListV(vals)}
	kc.neutral.Store(n)
	t.neutralConverted.Add(1)
	return n.msgs, n.list
}

// seenHash is a fingerprint of msgs: the lengths of what conversion and
// scan read of each message. It only decides what is kept, never what a
// rendering reads, so it is made to be cheap (a few operations a
// message) rather than to tell every two conversations apart: two
// conversations in turn whose strings have the same lengths are kept in
// turn, at a cost, never read wrong.
func (t *Template) seenHash(msgs []chat.Message) uint64 {
	h := t.seed
	for i := range msgs {
		m := &msgs[i]
		x := uint64(len(m.Role)) ^ uint64(len(m.Name))<<8 ^ uint64(len(m.ToolCallID))<<16 ^
			uint64(len(m.Content))<<24 ^ uint64(len(m.ToolCalls))<<32
		for j := range m.Content {
			p := &m.Content[j]
			x += uint64(len(p.Text))*0x9e3779b97f4a7c15 + uint64(len(p.URL))*0xc2b2ae3d27d4eb4f +
				uint64(len(p.Type)+len(p.MediaType)<<8+len(p.Detail)<<16)
		}
		for j := range m.ToolCalls {
			c := &m.ToolCalls[j]
			x += uint64(len(c.Arguments))*0x165667b19e3779f9 + uint64(len(c.ID)+len(c.Name)<<16)
		}
		h = (h ^ x) * 0x100000001b3
		h ^= h >> 29
	}
	return h
}

// newRenderMem returns memory of the size converting msgs takes.
func newRenderMem(msgs []chat.Message) *renderData {
	nv, nd, nl := 0, 0, 0
	for i := range msgs {
		m := &msgs[i]
		nv += 5
		nd++
		if !m.TextOnly() {
			nv += len(m.Content) * 5
			nd += len(m.Content)
			nl++
		}
		if len(m.ToolCalls) > 0 {
			nv += len(m.ToolCalls) * 6
			nd += len(m.ToolCalls) * 2
			nl++
		}
	}
	return &renderData{vals: jinja2.MakeSlab(nv), dicts: make([]jinja2.Dict, 0, nd), lists: make([]jinja2.List, 0, nl)}
}
