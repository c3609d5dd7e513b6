package format

import (
	"strconv"
	"strings"

	"github.com/rolemark/rolemark/chat"
)

// SpecialTokenError is a message whose content holds one of the model's
// special tokens. The tokenizer would read that text as the token itself,
// so a user could close a turn and forge another (prompt injection through
// the chat format). Options.AllowSpecialTokens turns the check off.
type SpecialTokenError struct {
	// Format is the format's or template's name.
	Format string
	// Index is the position of the message.
	Index int
	// Token is the special token found.
	Token string
	// Where says which part of the message holds it ("content", "name",
	// "tool call arguments", …).
	Where string
}

func (e *SpecialTokenError) Error() string {
	var b strings.Builder
	b.WriteString("format")
	if e.Format != "" {
		b.WriteString(" " + e.Format)
	}
	b.WriteString(": message ")
	b.WriteString(strconv.Itoa(e.Index))
	b.WriteString(" (" + e.Where + ") holds the special token ")
	b.WriteString(strconv.Quote(e.Token))
	b.WriteString("; refused so that content cannot forge a turn (Options.AllowSpecialTokens allows it)")
	return b.String()
}

// checkSpecial returns a *SpecialTokenError for the first message that
// holds one of the special tokens in its text, name, tool call names and
// arguments, or tool call ID, naming the token that comes first, the
// longest where several start at one place (special is in any order; empty
// tokens are skipped).
func checkSpecial(format string, msgs []chat.Message, special []string) error {
	ts := tokenSet{special: special}
	// The bytes a special token starts with: a text is searched for them
	// once, and only where one stands are the tokens compared.
	for _, tok := range special {
		if tok != "" && !ts.first[tok[0]] {
			ts.first[tok[0]], ts.only = true, tok[0]
			ts.n++
		}
	}
	if ts.n == 0 {
		return nil // no token, or only empty ones
	}
	for i := range msgs {
		if where, tok := ts.inMessage(&msgs[i]); tok != "" {
			return &SpecialTokenError{Format: format, Index: i, Token: tok, Where: where}
		}
	}
	return nil
}

// tokenSet is the special tokens searched for, with the bytes they start
// with (n of them; only, when n is 1).
type tokenSet struct {
	special []string
	first   [256]bool
	only    byte
	n       int
}

// inMessage returns the first special token in m and where it stands, or
// "".
func (ts *tokenSet) inMessage(m *chat.Message) (where, tok string) {
	for j := range m.Content {
		p := &m.Content[j]
		if tok = ts.find(p.Text); tok == "" {
			tok = ts.find(p.URL)
		}
		if tok != "" {
			return "content", tok
		}
	}
	if tok = ts.find(m.Name); tok != "" {
		return "name", tok
	}
	if tok = ts.find(m.ToolCallID); tok != "" {
		return "tool_call_id", tok
	}
	for j := range m.ToolCalls {
		c := &m.ToolCalls[j]
		if tok = ts.find(c.Name); tok != "" {
			return "tool call name", tok
		}
		if tok = ts.find(string(c.Arguments)); tok != "" {
			return "tool call arguments", tok
		}
		if tok = ts.find(c.ID); tok != "" {
			return "tool call id", tok
		}
	}
	return "", ""
}

// find returns the special token that comes first in s (the longest where
// several start at one place), or "".
func (ts *tokenSet) find(s string) string {
	if s == "" {
		return ""
	}
	return ts.findIn(s)
}

func (ts *tokenSet) findIn(s string) string {
	for at := 0; at < len(s); at++ {
		k := indexAnyByte(s[at:], &ts.first, ts.only, ts.n)
		if k < 0 {
			return ""
		}
		at += k
		best := ""
		for _, tok := range ts.special { // the longest wins a tie
			if len(tok) > len(best) && strings.HasPrefix(s[at:], tok) {
				best = tok
			}
		}
		if best != "" {
			return best
		}
	}
	return ""
}

// indexAnyByte is the index of the first byte of s in set (which holds n
// bytes, only when n is 1), or -1.
func indexAnyByte(s string, set *[256]bool, only byte, n int) int {
	if n == 1 {
		return strings.IndexByte(s, only)
	}
	for i := 0; i < len(s); i++ {
		if set[s[i]] {
			return i
		}
	}
	return -1
}
