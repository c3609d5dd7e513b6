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
// arguments, or tool call ID, naming the token that comes first (special is
// sorted longest first).
func checkSpecial(format string, msgs []chat.Message, special []string) error {
	if len(special) == 0 {
		return nil
	}
	// The bytes a special token starts with: a text is searched for them
	// once, and only where one stands are the tokens compared.
	var first [256]bool
	var only byte
	n := 0
	for _, tok := range special {
		if !first[tok[0]] {
			first[tok[0]], only = true, tok[0]
			n++
		}
	}
	for i := range msgs {
		m := &msgs[i]
		check := func(where, s string) error {
			if s == "" {
				return nil
			}
			if tok := findSpecial(s, special, &first, only, n); tok != "" {
				return &SpecialTokenError{Format: format, Index: i, Token: tok, Where: where}
			}
			return nil
		}
		for _, p := range m.Content {
			if err := check("content", p.Text); err != nil {
				return err
			}
			if err := check("content", p.URL); err != nil {
				return err
			}
		}
		if err := check("name", m.Name); err != nil {
			return err
		}
		if err := check("tool_call_id", m.ToolCallID); err != nil {
			return err
		}
		for _, c := range m.ToolCalls {
			if err := check("tool call name", c.Name); err != nil {
				return err
			}
			if err := check("tool call arguments", string(c.Arguments)); err != nil {
				return err
			}
			if err := check("tool call id", c.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// findSpecial returns the special token that comes first in s (the
// longest where several start at one place), or "". first holds the bytes
// the tokens start with (n of them; only, when n is 1).
func findSpecial(s string, special []string, first *[256]bool, only byte, n int) string {
	for at := 0; at < len(s); at++ {
		k := indexAnyByte(s[at:], first, only, n)
		if k < 0 {
			return ""
		}
		at += k
		for _, tok := range special { // longest first, so the longest wins a tie
			if strings.HasPrefix(s[at:], tok) {
				return tok
			}
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
