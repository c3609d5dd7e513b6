package format

import (
	"slices"
	"strings"
	"sync/atomic"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format/internal/special"
)

// ownText is what the special-token rule needs of a Format alone: the guard
// of its tokens, and whether its own text could make a token with data
// written next to it (Guard.Joins). It depends only on the fields copied
// into text, and is reused for every Format whose fields are the same
// (sameText), so that rendering many conversations in one format does
// not redo it for each.
type ownText struct {
	// text holds the fields the rest was computed from, copied deeply; the
	// other fields are zero.
	text Format
	g    *special.Guard // nil when the format has no special token
	// joins: a piece of the format's own text that is written whatever the
	// conversation holds (all but the tool format's and the Other turn's)
	// joins; tools: a piece of the tool format's text, which counts only
	// when tools are written.
	joins, tools bool
	// other[i]: the Other turn with the i-th role of stdRole put in
	// joins.
	other [5]bool
}

// ownTexts are the ownText of the last formats rendered, a few, shared by
// every rendering. An entry is used only for a Format whose fields equal
// its own (sameText), so what a rendering gets from it is what computing
// afresh gives: no caller can tell the entries are there, and they hold no
// caller's Format.
var (
	ownTexts    [8]atomic.Pointer[ownText]
	ownTextNext atomic.Uint32
)

// ownText returns f's ownText, computed once for each text of a format.
func (f *Format) ownText() *ownText {
	for i := range ownTexts {
		if o := ownTexts[i].Load(); o != nil && sameText(&o.text, f) {
			return o
		}
	}
	o := newOwnText(f)
	ownTexts[ownTextNext.Add(1)%uint32(len(ownTexts))].Store(o)
	return o
}

// newOwnText computes f's ownText.
func newOwnText(f *Format) *ownText {
	o := &ownText{text: cloneText(f)}
	f = &o.text // what is computed is what sameText compares
	var buf [8]string
	if o.g = special.New(f.specialTokens(buf[:0])); o.g == nil {
		return o
	}
	g := o.g
	f.ownLiterals(func(s string) bool {
		o.joins = pieces(g, s, false)
		return !o.joins
	})
	// The system text folded into a message is trimmed with its prefix
	// and suffix (Turn.Trim, System.TrimFolded).
	o.joins = o.joins || g.JoinsTrimmed(f.System.Prefix) || g.JoinsTrimmed(f.System.Suffix)
	f.toolLiterals(func(s string) bool {
		o.tools = pieces(g, s, false)
		return !o.tools
	})
	if f.Other != nil {
		for _, role := range [...]chat.Role{chat.RoleSystem, chat.RoleUser, chat.RoleAssistant, chat.RoleTool, chat.RoleDeveloper} {
			o.other[stdRole(role)] = f.otherJoins(g, role)
		}
	}
	return o
}

// stdRole is the index of a role in ownText.other, or -1.
func stdRole(r chat.Role) int {
	switch r {
	case chat.RoleSystem:
		return 0
	case chat.RoleUser:
		return 1
	case chat.RoleAssistant:
		return 2
	case chat.RoleTool:
		return 3
	case chat.RoleDeveloper:
		return 4
	}
	return -1
}

// specialTokens returns Special with BOS and EOS appended to buf, in no
// order, empty ones included (the guard skips them).
func (f *Format) specialTokens(buf []string) []string {
	return append(append(buf, f.BOS, f.EOS), f.Special...)
}

// joins reports whether a piece of the format's own text that this
// conversation has it write could make a special token with data written
// next to it (Guard.Joins). f's fields are those of o.text.
func (o *ownText) joinsData(f *Format, msgs []chat.Message, opts *settings) bool {
	if o.joins || o.tools && (len(opts.Tools) > 0 || toolsIn(msgs)) {
		return true
	}
	if f.Other == nil {
		return false
	}
	// The Other turn with each role that takes it put in: the role is the
	// template author's, as is the text of the turn (a role "end" making
	// <|end|> of phi3's <|{role}|> is not data's).
	for i := range msgs {
		role := msgs[i].Role
		if _, other, _ := f.turnOf(role); !other {
			continue
		}
		if k := stdRole(role); k >= 0 {
			if o.other[k] {
				return true
			}
			continue
		}
		if !roleSeen(msgs[:i], role) && f.otherJoins(o.g, role) {
			return true
		}
	}
	return false
}

// otherJoins reports whether a piece of the Other turn's text, with role
// put in, joins (Guard.Joins). It runs once per format for the standard
// roles (ownText.other) and per rendering for the others.
func (f *Format) otherJoins(g *special.Guard, role chat.Role) bool {
	for _, s := range [...]string{f.Other.Begin, f.Other.End, edge(f.Other.First, true), edge(f.Other.First, false),
		edge(f.Other.Last, true), edge(f.Other.Last, false)} {
		if pieces(g, substRole(s, role), false) {
			return true
		}
	}
	return false
}

// cloneText returns a Format holding a deep copy of the fields of f that
// ownText is computed from (specialTokens, ownLiterals, toolLiterals,
// System.Prefix and Suffix, Other); its other fields are zero.
func cloneText(f *Format) Format {
	c := Format{BOS: f.BOS, EOS: f.EOS, Begin: f.Begin, End: f.End, GenerationPrompt: f.GenerationPrompt, Image: f.Image,
		Special: slices.Clone(f.Special), Other: cloneTurn(f.Other),
		System: System{Prefix: f.System.Prefix, Suffix: f.System.Suffix, Default: f.System.Default, Turn: cloneTurn(f.System.Turn)}}
	if len(f.Roles) > 0 {
		c.Roles = make(map[chat.Role]Turn, len(f.Roles))
		for role, t := range f.Roles {
			c.Roles[role] = *cloneTurn(&t)
		}
	}
	if f.Tools != nil {
		t := *f.Tools
		t.CallTurn = cloneTurn(t.CallTurn)
		c.Tools = &t
	}
	return c
}

// cloneTurn copies a turn's texts.
func cloneTurn(t *Turn) *Turn {
	if t == nil {
		return nil
	}
	c := &Turn{Begin: t.Begin, End: t.End}
	if t.First != nil {
		e := *t.First
		c.First = &e
	}
	if t.Last != nil {
		e := *t.Last
		c.Last = &e
	}
	return c
}

// sameText reports whether f's fields that cloneText copies equal c's, a
// clone.
func sameText(c, f *Format) bool {
	if c.BOS != f.BOS || c.EOS != f.EOS || c.Begin != f.Begin || c.End != f.End ||
		c.GenerationPrompt != f.GenerationPrompt || c.Image != f.Image ||
		!slices.Equal(c.Special, f.Special) || !sameTurn(c.Other, f.Other) ||
		c.System.Prefix != f.System.Prefix || c.System.Suffix != f.System.Suffix ||
		c.System.Default != f.System.Default || !sameTurn(c.System.Turn, f.System.Turn) ||
		len(c.Roles) != len(f.Roles) || (c.Tools == nil) != (f.Tools == nil) {
		return false
	}
	if c.Tools != nil {
		a, b := *c.Tools, *f.Tools
		if !sameTurn(a.CallTurn, b.CallTurn) {
			return false
		}
		a.CallTurn, b.CallTurn = nil, nil
		if a != b {
			return false
		}
	}
	for role, t := range f.Roles {
		u, ok := c.Roles[role]
		if !ok || !sameTurn(&u, &t) {
			return false
		}
	}
	return true
}

// sameTurn reports whether two turns have the same texts.
func sameTurn(a, b *Turn) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Begin == b.Begin && a.End == b.End && sameEdges(a.First, b.First) && sameEdges(a.Last, b.Last)
}

func sameEdges(a, b *Edges) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// edge is an Edges' begin or end, "" when there is none.
func edge(e *Edges, begin bool) string {
	switch {
	case e == nil:
		return ""
	case begin:
		return e.Begin
	}
	return e.End
}

// pieces reports whether a piece of s cut at {id}, which the renderer
// replaces with a tool call ID, joins (Guard.Joins; Guard.JoinsTrimmed
// when trimmed, for text the renderer may trim).
func pieces(g *special.Guard, s string, trimmed bool) bool {
	for {
		at := strings.Index(s, "{id}")
		if at < 0 {
			return g.JoinsMaybeTrimmed(s, trimmed)
		}
		if g.JoinsMaybeTrimmed(s[:at], trimmed) {
			return true
		}
		s = s[at+len("{id}"):]
	}
}

func roleSeen(msgs []chat.Message, role chat.Role) bool {
	for i := range msgs {
		if msgs[i].Role == role {
			return true
		}
	}
	return false
}

// ownLiterals yields every text the format writes of its own between two
// strings of data, but for the tool format's (toolLiterals) and the Other
// turn's (with the roles put in, otherJoins), until yield returns false.
func (f *Format) ownLiterals(yield func(string) bool) {
	turn := func(t *Turn) bool {
		if t == nil {
			return true
		}
		if !yield(t.Begin) || !yield(t.End) {
			return false
		}
		for _, e := range []*Edges{t.First, t.Last} {
			if e != nil && (!yield(e.Begin) || !yield(e.End)) {
				return false
			}
		}
		return true
	}
	for _, s := range [...]string{f.BOS, f.EOS, f.Begin, f.End, f.GenerationPrompt, f.Image,
		f.System.Prefix, f.System.Suffix, f.System.Default} {
		if !yield(s) {
			return
		}
	}
	for role := range f.Roles {
		t := f.Roles[role]
		if !turn(&t) {
			return
		}
	}
	turn(f.System.Turn)
}

// toolLiterals yields the texts of the tool format, joined with the JSON
// the renderer writes around tool calls and definitions, until yield
// returns false; a rendering writes them only when it writes tools.
func (f *Format) toolLiterals(yield func(string) bool) {
	tf := f.Tools
	if tf == nil {
		return
	}
	if t := tf.CallTurn; t != nil {
		if !yield(t.Begin) || !yield(t.End) {
			return
		}
		for _, e := range []*Edges{t.First, t.Last} {
			if e != nil && (!yield(e.Begin) || !yield(e.End)) {
				return
			}
		}
	}
	const (
		def   = `{"type": "function", "function": {"name": "`
		name  = `{"name": "`
		endC  = `}`
		endCS = `"}`
	)
	for _, s := range [...]string{
		// Tool definitions.
		tf.Begin + def, `", "description": "`, `", "parameters": `, `"}}` + tf.Sep + def, `}}` + tf.Sep + def,
		`"}}` + tf.End, `}}` + tf.End,
		// Tool calls, after the turn's begin or its text.
		tf.ContentPrefix, tf.CallsBegin + tf.CallBegin + name, `", "arguments": `, `, "id": "`,
		endC + tf.CallEnd + tf.CallSep + tf.CallBegin + name, endCS + tf.CallEnd + tf.CallSep + tf.CallBegin + name,
		endC + tf.CallEnd + tf.CallsEnd, endCS + tf.CallEnd + tf.CallsEnd,
		// Tool results.
		tf.ResultsBegin + tf.ResultBegin, tf.ResultEnd + tf.ResultBegin, tf.ResultEnd + tf.ResultsEnd,
		tf.ResultBegin, tf.ResultEnd, tf.ResultsBegin, tf.ResultsEnd} {
		if !yield(s) {
			return
		}
	}
}
