package format

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unsafe"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format/internal/option"
	"github.com/rolemark/rolemark/chat/format/internal/pystr"
	"github.com/rolemark/rolemark/chat/format/internal/special"
	"github.com/rolemark/rolemark/internal/pyjson"
)

// Render writes msgs as one prompt string in the format. It reproduces what
// the model's HuggingFace chat template gives for the same conversation
// (apply_chat_template with add_generation_prompt and
// continue_final_message), including the template's refusals, which come
// back as *Error.
func (f *Format) Render(msgs []chat.Message, opts ...Option) (string, error) {
	b, err := f.appendChecked(nil, msgs, option.Apply(opts))
	if err != nil {
		return "", err
	}
	// The string shares b's memory, which nothing writes again: b is
	// this call's own buffer. Copying it costs 10% or more of a rendering
	// (docs/decisions.md, "unsafe only where…"); FuzzRender guards it.
	return unsafe.String(unsafe.SliceData(b), len(b)), nil
}

// AppendRender appends the prompt string Render returns to dst and returns
// the extended slice, as the built-in append does; on error, dst comes back
// as it was (its spare capacity may have been written).
func (f *Format) AppendRender(dst []byte, msgs []chat.Message, opts ...Option) ([]byte, error) {
	return f.appendChecked(dst, msgs, option.Apply(opts))
}

// appendChecked is AppendRender with its options applied.
func (f *Format) appendChecked(dst []byte, msgs []chat.Message, opts settings) ([]byte, error) {
	if opts.Vars != nil {
		return dst, ErrVars
	}
	if len(msgs) == 0 {
		return dst, ErrNoMessages
	}
	if opts.AddGenerationPrompt && opts.ContinueFinal {
		return dst, ErrContinueConflict
	}
	if err := f.Validate(); err != nil {
		return dst, err
	}
	if err := f.checkParts(msgs, opts); err != nil {
		return dst, err
	}
	var g *special.Guard
	neutral := false
	if !opts.AllowSpecialTokens {
		o := f.ownText()
		if g = o.g; g != nil {
			var hit *special.Hit
			// Vars are nil: a Format refuses them.
			if neutral, hit = g.Check(msgs, opts.Tools, nil); hit != nil {
				return dst, specialTokenError(f.Name, hit)
			}
			neutral = neutral || o.joinsData(f, msgs, &opts)
		}
	}
	start := len(dst)
	out, err := f.appendRender(dst, msgs, opts)
	if err != nil || !neutral {
		return out, err
	}
	nmsgs, nopts := msgs, opts
	nmsgs, nopts.Tools, nopts.Vars = g.Neutral(msgs, opts.Tools, opts.Vars)
	n, err := f.appendRender(nil, nmsgs, nopts)
	if err != nil {
		return dst, &SpecialTokenError{Format: f.Name, Index: -1, Token: "",
			Where: "the prompt could not be checked (the neutral conversation fails: " + err.Error() + ");"}
	}
	if hit := g.Compare(string(out[start:]), string(n)); hit != nil {
		return dst, specialTokenError(f.Name, hit)
	}
	return out, nil
}

// appendRender is AppendRender after the checks of the data.
func (f *Format) appendRender(dst []byte, msgs []chat.Message, opts settings) ([]byte, error) {
	r := renderer{f: f, msgs: msgs, opts: opts, contentStart: -1}
	size := len(f.BOS) + len(f.Begin) + len(f.End) + len(f.GenerationPrompt)
	for i := range msgs {
		size += 48 + len(msgs[i].Text())
	}
	r.b.b = slices.Grow(dst, size)
	if err := r.run(); err != nil {
		return dst, err
	}
	n, err := r.finish()
	if err != nil {
		return dst, err
	}
	return r.b.b[:n], nil
}

// text is what a renderer writes, appended to the caller's slice.
type text struct{ b []byte }

func (t *text) WriteString(s string) { t.b = append(t.b, s...) }

func (t *text) Len() int { return len(t.b) }

type renderer struct {
	f    *Format
	msgs []chat.Message
	opts settings
	b    text

	// Set by system: the system placement in effect, the system text to
	// fold into a message (hasSys), the tool definitions, the index of the
	// first message after a leading system message taken out, and text to
	// append to the first message (a system turn).
	placement Placement
	sysText   string
	hasSys    bool
	defs      string
	offset    int
	appendTo0 string

	// The final message's text as written, for ContinueFinal.
	contentStart, contentEnd int
}

// writeTurn writes s, a text of role's turn; other says the turn is the
// format's Other, whose texts take the role's name for {role} and {Role}
// (substRole). The name is written into the prompt rather than into a new
// string when that gives the same text: s has no brace but those of
// {role}, and the name has none.
func (r *renderer) writeTurn(s string, role chat.Role, other bool) {
	i := -1
	if other {
		i = strings.IndexByte(s, '{')
	}
	if i < 0 {
		r.b.WriteString(s)
		return
	}
	if strings.IndexByte(string(role), '{') >= 0 || strings.IndexByte(string(role), '}') >= 0 {
		r.b.WriteString(substRole(s, role))
		return
	}
	start, rest := r.b.Len(), s
	for ; i >= 0; i = strings.IndexByte(rest, '{') {
		if !strings.HasPrefix(rest[i:], "{role}") {
			// Another brace: substRole reads the text.
			r.b.b = r.b.b[:start]
			r.b.WriteString(substRole(s, role))
			return
		}
		r.b.WriteString(rest[:i])
		r.b.WriteString(string(role))
		rest = rest[i+len("{role}"):]
	}
	r.b.WriteString(rest)
}

func (r *renderer) fail(i int, msg string) error {
	return &Error{Format: r.f.Name, Index: i, Msg: msg}
}

func (r *renderer) run() error {
	r.b.WriteString(r.f.BOS)
	r.b.WriteString(r.f.Begin)
	if err := r.system(); err != nil {
		return err
	}
	if err := r.messages(); err != nil {
		return err
	}
	f := r.f
	switch {
	case !r.opts.AddGenerationPrompt:
		r.b.WriteString(f.End)
	case f.GenerationPrompt != "":
		r.b.WriteString(f.GenerationPrompt)
	case f.Generate != "":
		if t, ok := f.turnFor(f.Generate); ok {
			r.b.WriteString(t.Begin)
		}
	}
	return nil
}

// system handles the system message and tool definitions before the
// messages: it writes what goes first and records what is folded into a
// message later.
func (r *renderer) system() error {
	f, msgs := r.f, r.msgs
	r.placement = f.System.Placement
	if r.placement == "" {
		r.placement = SystemTurn
	}
	leadingSystem := msgs[0].Role == chat.RoleSystem
	if f.Tools != nil && len(r.opts.Tools) > 0 {
		r.defs = f.Tools.definitions(r.opts.Tools)
	}
	toolsInSystem := r.defs != "" && f.Tools.Placement != ToolsBeforeLastUser

	switch r.placement {
	case SystemRefuse:
		if leadingSystem {
			return r.fail(0, f.System.Error)
		}
	case SystemLeading, SystemFirstMessage, SystemLastUser:
		if leadingSystem {
			r.sysText, r.hasSys, r.offset = msgs[0].Text(), true, 1
		} else if f.System.Default != "" {
			r.sysText, r.hasSys = f.System.Default, true
		}
		if toolsInSystem {
			r.sysText += r.defs
			r.hasSys = true
		}
		if r.placement != SystemLeading || !r.hasSys {
			return nil
		}
		t, other, ok := Turn{}, false, true
		if f.System.Turn != nil {
			t = *f.System.Turn
		} else {
			t, other, ok = f.turnOf(chat.RoleSystem)
		}
		if ok {
			r.writeTurn(t.Begin, chat.RoleSystem, other)
			r.mark(r.offset == 1 && len(msgs) == 1, trimIf(t.Trim, r.sysText))
			r.writeTurn(t.End, chat.RoleSystem, other)
		}
	default: // SystemTurn
		text, write := "", false
		if f.System.Default != "" && !hasRole(msgs, chat.RoleSystem) {
			text, write = f.System.Default, true
		}
		if toolsInSystem {
			if leadingSystem {
				r.appendTo0 = r.defs
			} else {
				text += r.defs
				write = true
			}
		}
		if t, other, ok := f.turnOf(chat.RoleSystem); write && ok {
			r.writeTurn(t.Begin, chat.RoleSystem, other)
			r.b.WriteString(trimIf(t.Trim, text))
			r.writeTurn(t.End, chat.RoleSystem, other)
		}
	}
	return nil
}

// messages writes the messages after a leading system message taken out.
func (r *renderer) messages() error {
	f := r.f
	loop := r.msgs[r.offset:]
	if f.Alternate == AlternateSkipTools {
		if err := r.alternateSkippingTools(loop); err != nil {
			return err
		}
	}
	lastUser := lastUserIndex(loop)
	var pos *positions
	if f.hasPositions() {
		pos = newPositions(loop)
	}

	for i := range loop {
		m := &loop[i]
		idx := r.offset + i
		final := idx == len(r.msgs)-1
		if f.Alternate == AlternateStrict && (m.Role == chat.RoleUser) != (i%2 == 0) {
			return r.fail(idx, f.AlternateError)
		}
		if f.Tools != nil && m.Role == chat.RoleTool {
			if err := r.writeResult(loop, i, final); err != nil {
				return err
			}
			continue
		}
		if f.Tools != nil && m.Role == chat.RoleAssistant && len(m.ToolCalls) > 0 {
			if err := r.writeCalls(idx, m, final); err != nil {
				return err
			}
			continue
		}

		t, other, ok := f.turnOf(m.Role)
		if !ok {
			if f.RoleError != "" {
				return r.fail(idx, f.RoleError)
			}
			continue
		}
		if t.Error != "" {
			return r.fail(idx, t.Error)
		}
		text := m.Text()
		partsTrimmed := false
		if f.Image != "" && !m.TextOnly() {
			text, partsTrimmed = f.partsText(m, t.Trim), t.Trim
		}
		if t.SkipEmpty && text == "" {
			continue
		}
		begin, end := t.Begin, t.End
		if pos != nil {
			if e := pos.edges(t, m.Role, i); e != nil {
				begin, end = e.Begin, e.End
			}
		}
		fold := r.hasSys && ((r.placement == SystemFirstMessage && i == 0) ||
			(r.placement == SystemLastUser && i == len(loop)-1 && m.Role == chat.RoleUser))
		switch {
		case fold && f.System.TrimFolded:
			text = trimIf(t.Trim, f.System.Prefix+r.sysText+f.System.Suffix+text)
		case fold:
			text = f.System.Prefix + r.sysText + f.System.Suffix + trimIf(t.Trim, text)
		case partsTrimmed:
		default:
			text = trimIf(t.Trim, text)
		}
		if idx == 0 {
			text += r.appendTo0
		}
		if r.defs != "" && f.Tools.Placement == ToolsBeforeLastUser && m.Role == chat.RoleUser &&
			sameMessage(m, &loop[lastUser]) {
			r.b.WriteString(r.defs)
		}
		r.writeTurn(begin, m.Role, other)
		r.mark(final, text)
		r.writeTurn(end, m.Role, other)
	}
	return nil
}

// alternateSkippingTools checks AlternateSkipTools on loop, the
// messages after a leading system message taken out: counting neither
// tool results nor assistant messages with tool calls, user messages
// stand at even positions and only there.
func (r *renderer) alternateSkippingTools(loop []chat.Message) error {
	n := 0
	for i := range loop {
		m := &loop[i]
		if m.Role == chat.RoleTool || len(m.ToolCalls) > 0 {
			continue
		}
		if (m.Role == chat.RoleUser) != (n%2 == 0) {
			return r.fail(r.offset+i, r.f.AlternateError)
		}
		n++
	}
	return nil
}

// lastUserIndex is the index of loop's last user message, -1 for none.
func lastUserIndex(loop []chat.Message) int {
	for i := len(loop) - 1; i >= 0; i-- {
		if loop[i].Role == chat.RoleUser {
			return i
		}
	}
	return -1
}

// writeResult writes loop[i], a tool result, with the format's tool
// results' marks: a run of results opens and closes around it.
func (r *renderer) writeResult(loop []chat.Message, i int, final bool) error {
	tf, m := r.f.Tools, &loop[i]
	if err := r.checkID(r.offset+i, m.ToolCallID); err != nil {
		return err
	}
	if i == 0 || loop[i-1].Role != chat.RoleTool {
		r.b.WriteString(tf.ResultsBegin)
	}
	r.b.WriteString(withID(tf.ResultBegin, m.ToolCallID))
	r.mark(final, m.Text())
	r.b.WriteString(withID(tf.ResultEnd, m.ToolCallID))
	if i == len(loop)-1 || loop[i+1].Role != chat.RoleTool {
		r.b.WriteString(tf.ResultsEnd)
	}
	return nil
}

func hasRole(msgs []chat.Message, role chat.Role) bool {
	for i := range msgs {
		if msgs[i].Role == role {
			return true
		}
	}
	return false
}

// mark writes text and, when it is the final message's, remembers where.
func (r *renderer) mark(final bool, text string) {
	if final {
		r.contentStart = r.b.Len()
	}
	r.b.WriteString(text)
	if final {
		r.contentEnd = r.b.Len()
	}
}

// finish applies ContinueFinal: the prompt ends after the final message's
// text, as transformers' continue_final_message cuts it. It returns the
// length of r.b that is the prompt (with what the caller's slice held).
func (r *renderer) finish() (int, error) {
	out := r.b.b
	if !r.opts.ContinueFinal {
		return len(out), nil
	}
	final := r.msgs[len(r.msgs)-1].Text()
	stripped := pystr.Trim(final)
	if stripped == "" {
		return len(out), nil
	}
	if r.contentStart < 0 {
		return 0, ErrNotContinuable
	}
	at := bytes.LastIndex(out[r.contentStart:r.contentEnd], []byte(stripped))
	if at < 0 {
		return 0, ErrNotContinuable
	}
	loc := r.contentStart + at
	lstripped := pystr.TrimLeft(final)
	if loc+len(lstripped) <= len(out) && string(out[loc:loc+len(lstripped)]) == final {
		return loc + len(lstripped), nil
	}
	return loc + len(stripped), nil
}

func (r *renderer) checkID(idx int, id string) error {
	tf := r.f.Tools
	if tf.IDLength > 0 && len([]rune(id)) != tf.IDLength {
		return r.fail(idx, tf.IDError)
	}
	return nil
}

func (r *renderer) writeCalls(idx int, m *chat.Message, final bool) error {
	f, tf := r.f, r.f.Tools
	var t Turn
	if tf.CallTurn != nil {
		t = *tf.CallTurn
	} else {
		var ok bool
		if t, ok = f.turnFor(chat.RoleAssistant); !ok {
			return nil
		}
	}
	r.b.WriteString(t.Begin)
	if text := m.Text(); !tf.DropContent && text != "" {
		r.b.WriteString(tf.ContentPrefix)
		r.mark(final, trimIf(t.Trim, text))
	}
	r.b.WriteString(tf.CallsBegin)
	for i, c := range m.ToolCalls {
		if i > 0 {
			r.b.WriteString(tf.CallSep)
		}
		r.b.WriteString(tf.CallBegin)
		r.b.WriteString(`{"name": `)
		r.b.b = pyjson.AppendString(r.b.b, c.Name, false)
		r.b.WriteString(`, "arguments": `)
		var err error
		if r.b.b, err = pystr.AppendJSON(r.b.b, c.Arguments); err != nil {
			return &Error{Format: f.Name, Index: idx, Msg: "tool call " + c.Name + ": arguments: " + err.Error()}
		}
		if tf.CallID {
			if err := r.checkID(idx, c.ID); err != nil {
				return err
			}
			r.b.WriteString(`, "id": `)
			r.b.b = pyjson.AppendString(r.b.b, c.ID, false)
		}
		r.b.WriteString("}")
		r.b.WriteString(tf.CallEnd)
	}
	r.b.WriteString(tf.CallsEnd)
	r.b.WriteString(t.End)
	return nil
}

// definitions writes the tool definitions block.
func (tf *ToolFormat) definitions(tools []chat.Tool) string {
	var b strings.Builder
	b.WriteString(tf.Begin)
	for i, t := range tools {
		if i > 0 {
			b.WriteString(tf.Sep)
		}
		str := pystr.WriteString
		if tf.RawStrings {
			str = func(b *strings.Builder, s string) { b.WriteByte('"'); b.WriteString(s); b.WriteByte('"') }
		}
		b.WriteString(`{"type": "function", "function": {"name": `)
		str(&b, t.Name)
		if t.Description != "" {
			b.WriteString(`, "description": `)
			str(&b, t.Description)
		}
		if len(t.Parameters) > 0 {
			b.WriteString(`, "parameters": `)
			if err := pystr.WriteJSON(&b, t.Parameters); err != nil {
				b.Write(t.Parameters)
			}
		}
		b.WriteString("}}")
	}
	b.WriteString(tf.End)
	return b.String()
}

// checkParts refuses what the format cannot write: media parts it has no
// text for, tool calls and tool definitions without a ToolFormat.
func (f *Format) checkParts(msgs []chat.Message, opts settings) error {
	if f.Tools == nil && len(opts.Tools) > 0 {
		return &PartError{Format: f.Name, Index: -1, Part: "tools"}
	}
	for i := range msgs {
		m := &msgs[i]
		for _, p := range m.Content {
			if p.Type != chat.PartText && !(p.Type == chat.PartImage && f.Image != "") {
				return &PartError{Format: f.Name, Index: i, Part: string(p.Type)}
			}
		}
		if f.Tools == nil && len(m.ToolCalls) > 0 {
			return &PartError{Format: f.Name, Index: i, Part: "tool call"}
		}
	}
	return nil
}

// partsText writes a message's parts: text parts (each trimmed when trim)
// and Image for each image.
func (f *Format) partsText(m *chat.Message, trim bool) string {
	var b strings.Builder
	for _, p := range m.Content {
		if p.Type == chat.PartImage {
			b.WriteString(f.Image)
		} else {
			b.WriteString(trimIf(trim, p.Text))
		}
	}
	return b.String()
}

// Validate reports a format whose enumerated fields (placements,
// alternation) hold unknown values.
func (f *Format) Validate() error {
	switch f.System.Placement {
	case "", SystemTurn, SystemLeading, SystemFirstMessage, SystemLastUser, SystemRefuse:
	default:
		return fmt.Errorf("format %s: unknown system placement %q", f.Name, f.System.Placement)
	}
	switch f.Alternate {
	case "", AlternateStrict, AlternateSkipTools:
	default:
		return fmt.Errorf("format %s: unknown alternation %q", f.Name, f.Alternate)
	}
	if f.Tools != nil {
		switch f.Tools.Placement {
		case "", ToolsInSystem, ToolsBeforeLastUser:
		default:
			return fmt.Errorf("format %s: unknown tool placement %q", f.Name, f.Tools.Placement)
		}
	}
	return nil
}

// turnFor resolves the turn of a role: Roles, then Fallback, then Other
// (with the role's name put in).
func (f *Format) turnFor(role chat.Role) (Turn, bool) {
	t, other, ok := f.turnOf(role)
	if !other {
		return t, ok
	}
	t.Begin, t.End = substRole(t.Begin, role), substRole(t.End, role)
	if t.First != nil {
		t.First = &Edges{Begin: substRole(t.First.Begin, role), End: substRole(t.First.End, role)}
	}
	if t.Last != nil {
		t.Last = &Edges{Begin: substRole(t.Last.Begin, role), End: substRole(t.Last.End, role)}
	}
	return t, true
}

// turnOf is turnFor without the role's name put in: other says the turn is
// Other, whose texts hold {role} and {Role}.
func (f *Format) turnOf(role chat.Role) (t Turn, other, ok bool) {
	if t, ok := f.Roles[role]; ok {
		return t, false, true
	}
	if fb, ok := f.Fallback[role]; ok {
		if t, ok := f.Roles[fb]; ok {
			return t, false, true
		}
	}
	if f.Other == nil {
		return Turn{}, false, false
	}
	return *f.Other, true, true
}

func (f *Format) hasPositions() bool {
	for _, t := range f.Roles {
		if t.First != nil || t.Last != nil {
			return true
		}
	}
	return f.Other != nil && (f.Other.First != nil || f.Other.Last != nil)
}

// positions records the first and last index of each role in a conversation.
type positions struct {
	first, last map[chat.Role]int
}

func newPositions(loop []chat.Message) *positions {
	p := &positions{first: map[chat.Role]int{}, last: map[chat.Role]int{}}
	for i := range loop {
		role := loop[i].Role
		if _, ok := p.first[role]; !ok {
			p.first[role] = i
		}
		p.last[role] = i
	}
	return p
}

func (p *positions) edges(t Turn, role chat.Role, i int) *Edges {
	if t.Last != nil && p.last[role] == i {
		return t.Last
	}
	if t.First != nil && p.first[role] == i {
		return t.First
	}
	return nil
}

// sameMessage reports whether two messages are equal as the template sees
// them (Mistral compares message dicts).
func sameMessage(a, b *chat.Message) bool {
	if a == b {
		return true
	}
	return a.Role == b.Role && a.Name == b.Name && a.ToolCallID == b.ToolCallID &&
		len(a.ToolCalls) == 0 && len(b.ToolCalls) == 0 && a.Text() == b.Text()
}

func withID(s, id string) string {
	if !strings.Contains(s, "{id}") {
		return s
	}
	return strings.ReplaceAll(s, "{id}", id)
}

func substRole(s string, role chat.Role) string {
	if !strings.Contains(s, "{") {
		return s
	}
	s = strings.ReplaceAll(s, "{role}", string(role))
	if strings.Contains(s, "{Role}") {
		s = strings.ReplaceAll(s, "{Role}", pystr.Title(string(role)))
	}
	return s
}

func trimIf(trim bool, s string) string {
	if trim {
		return pystr.Trim(s)
	}
	return s
}

// toolsIn reports whether a message has tool calls or is a tool result.
func toolsIn(msgs []chat.Message) bool {
	for i := range msgs {
		if len(msgs[i].ToolCalls) > 0 || msgs[i].Role == chat.RoleTool {
			return true
		}
	}
	return false
}
