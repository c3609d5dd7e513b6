package gotmpl

import (
	"strings"
	"unicode/utf8"

	"github.com/rolemark/rolemark/internal/textpos"
	"github.com/rolemark/rolemark/internal/unclosed"
)

// maxErrLine bounds the line whose prefixes placeParseError parses.
const maxErrLine = 4096

// maxProbe bounds the bytes placeParseError's parses of prefixes that
// start at the top of the text read together: each reads the text from
// its start, so a long line far into a large template cost the line's
// length times its offset (8 s for a 350 KB template's error).
const maxProbe = 8 << 20

// placeParseError finds the place of a parse error that text/template
// reports with a line only ("template: t:7: bad character U+0022"), and
// the message to give there: the block an unexpected end of the text
// leaves open (unclosed.Locate, which names the block), the action an
// unclosed action or comment opens, the character a lexer's problem is
// at (the shortest prefix of the line that fails with the same message
// ends on it), or, for the parser's other problems, the action that holds
// that character. parse parses a text as the template was parsed. ok is
// false when no place is found.
func placeParseError(msg string, line int, src string, parse func(string) error) (l, col int, newMsg string, ok bool) {
	switch {
	case msg == "unexpected EOF":
		return unclosed.Locate("gotmpl", src, msg, line, 0)
	case strings.HasPrefix(msg, "unclosed action"), msg == "unclosed comment":
		if at, _, ok := unclosed.GoAction(src); ok {
			l, col = textpos.LineCol(src, at)
			// the place is the action's own: no "started at" needed
			m, _, _ := strings.Cut(msg, " started at ")
			return l, col, m, true
		}
		return 0, 0, "", false
	}
	start := 0
	for i := 1; i < line; i++ {
		nl := strings.IndexByte(src[start:], '\n')
		if nl < 0 {
			return 0, 0, "", false
		}
		start += nl + 1
	}
	end := len(src)
	if nl := strings.IndexByte(src[start:], '\n'); nl >= 0 {
		end = start + nl
	}
	if end-start > maxErrLine {
		return 0, 0, "", false
	}
	fails := func(text string) bool {
		err := parse(text)
		if err == nil {
			return false
		}
		_, _, _, got := splitPos(err)
		return got == msg
	}
	// The prefixes begin at the line when the line alone fails so (the
	// common case: its actions open and close on it); else at the top,
	// when that costs at most maxProbe (the first line's always do).
	base := 0
	if start > 0 && fails(src[start:end]) {
		base = start
	} else if start > 0 && (end-start)*(start+end)/2 > maxProbe {
		return 0, 0, "", false
	}
	for p := start; p < end; {
		_, size := utf8.DecodeRuneInString(src[p:])
		p += size
		if !fails(src[base:p]) {
			continue
		}
		at := p - size
		if !lexerProblem(msg) {
			// the parser's problem is the action's, which the prefix
			// has just completed
			if open := strings.LastIndex(src[:at], "{{"); open >= start {
				at = open
			}
		} else if num, found := strings.CutPrefix(msg, `bad number syntax: "`); found {
			at -= len(strings.TrimSuffix(num, `"`)) - 1
		}
		l, col = textpos.LineCol(src, at)
		return l, col, msg, true
	}
	return 0, 0, "", false
}

// lexerProblem reports whether msg is one of text/template's lexer's
// problems, found at a character rather than at a whole action.
func lexerProblem(msg string) bool {
	for _, p := range []string{"bad character", "unterminated", "unrecognized character", "bad number syntax",
		"unexpected right paren", "unclosed left paren", "comment ends before closing delimiter"} {
		if strings.HasPrefix(msg, p) {
			return true
		}
	}
	return false
}
