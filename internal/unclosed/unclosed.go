// Package unclosed finds where a template that ends too early went wrong:
// the engines report the end of the file (text/template, with no column)
// or the end of the tag that opened the block (Jinja, pongo2); the author
// needs the start of the construct left open. `rolemark check`, the
// language server and the preview move such errors there with Locate.
package unclosed

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rolemark/rolemark/internal/textpos"
)

// Locate returns the position and message to show for an error that
// the engine named engineName reported at line:col with message msg in
// src. ok is false when the error is not one about an early end.
func Locate(engineName, src, msg string, line, col int) (nline, ncol int, nmsg string, ok bool) {
	switch {
	case engineName == "gotmpl" && strings.HasSuffix(msg, "unexpected EOF"):
		start, word, found := GoAction(blankFrontMatter(src))
		if !found {
			return 0, 0, "", false
		}
		l, c := position(src, start)
		if word == "" {
			return l, c, "the action opened here has no closing }} (text/template: unexpected EOF)", true
		}
		return l, c, fmt.Sprintf("{{%s}} is not closed: expected {{end}} before the end of the template (text/template: unexpected EOF)", word), true
	case (engineName == "jinja" || engineName == "pongo2") &&
		(strings.Contains(msg, "Unexpected end of template") || strings.Contains(msg, "Unexpected EOF")):
		start, found := unclosedTag(blankFrontMatter(src))
		if !found {
			return 0, 0, "", false
		}
		l, c := position(src, start)
		return l, c, msg, true
	case (engineName == "jinja" || engineName == "pongo2") && neverClosed(msg) != "":
		// a {{ … }} or {% … %} whose end never comes: at its start, as
		// text/template's and Handlebars' are
		open, end := neverClosed(msg), map[string]string{"{{": "}}", "{%": "%}"}[neverClosed(msg)]
		body := blankFrontMatter(src)
		start := strings.LastIndex(body, open)
		if start < 0 || strings.Contains(body[start:], end) {
			return 0, 0, "", false
		}
		l, c := position(src, start)
		return l, c, msg, true
	}
	return 0, 0, "", false
}

// neverClosed returns the delimiter ({{ or {%) of the print statement or
// tag that Jinja's or pongo2's error msg says the text ends inside, or "".
func neverClosed(msg string) string {
	switch {
	case strings.Contains(msg, "expected 'end of print statement'"), msg == "'}}' expected":
		return "{{"
	case strings.Contains(msg, "expected 'end of statement block'"), msg == "Unexpectedly reached EOF, no tag end found.":
		return "{%"
	}
	return ""
}

// position turns a byte offset of src into a 1-based line and rune column.
func position(src string, off int) (line, col int) {
	before := src[:off]
	line = strings.Count(before, "\n") + 1
	return line, utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
}

// blankFrontMatter returns src with its front matter, if any, turned into
// spaces (newlines kept), so that offsets stay those of the file.
func blankFrontMatter(src string) string {
	end := textpos.FrontMatterEnd(src)
	if end == 0 {
		return src
	}
	b := []byte(src)
	for i := 0; i < end; i++ {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}

// blockWords are the text/template actions that open a block closed by
// {{end}}.
var blockWords = map[string]bool{"if": true, "range": true, "with": true, "block": true, "define": true}

// GoAction scans text/template source (default delimiters) and
// returns the byte offset of the innermost block action still open at the
// end, with its keyword, or of an action or comment whose }} never comes,
// with an empty keyword.
func GoAction(src string) (off int, word string, ok bool) {
	type open struct {
		off  int
		word string
	}
	var stack []open
	i := 0
	for {
		k := strings.Index(src[i:], "{{")
		if k < 0 {
			break
		}
		start := i + k
		j := start + 2
		if strings.HasPrefix(src[j:], "- ") {
			j += 2
		}
		body := strings.TrimLeft(src[j:], " \t\r\n")
		j = len(src) - len(body)
		if strings.HasPrefix(body, "/*") {
			e := strings.Index(src[j:], "*/")
			if e < 0 {
				return start, "", true
			}
			c := strings.Index(src[j+e:], "}}")
			if c < 0 {
				return start, "", true
			}
			i = j + e + c + 2
			continue
		}
		end := closeEnd(src, j, "}}", true)
		if end < 0 {
			return start, "", true
		}
		w := body
		if n := strings.IndexFunc(w, func(r rune) bool { return !('a' <= r && r <= 'z') }); n >= 0 {
			w = w[:n]
		}
		switch {
		case blockWords[w]:
			stack = append(stack, open{start, w})
		case w == "end" && len(stack) > 0:
			stack = stack[:len(stack)-1]
		}
		i = end
	}
	if len(stack) == 0 {
		return 0, "", false
	}
	top := stack[len(stack)-1]
	return top.off, top.word, true
}

// closeEnd returns the offset after end ("}}" or "%}") that closes the
// action or tag whose text starts at j, skipping quoted strings, or -1. In
// a text/template action (goAction) a quote also stops at a newline and a
// raw `string` is skipped as well.
func closeEnd(src string, j int, end string, goAction bool) int {
	for j < len(src) {
		switch c := src[j]; {
		case c == '"' || c == '\'':
			j++
			for j < len(src) && src[j] != c && !(goAction && src[j] == '\n') {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j++
		case c == '`' && goAction:
			e := strings.IndexByte(src[j+1:], '`')
			if e < 0 {
				return -1
			}
			j += e + 2
		case c == end[0] && strings.HasPrefix(src[j:], end):
			return j + len(end)
		default:
			j++
		}
	}
	return -1
}

// jinjaBlocks are the Jinja and Django tags that open a block closed by
// end<name>, rolemark's role blocks among them.
var jinjaBlocks = map[string]bool{
	"if": true, "for": true, "macro": true, "call": true, "filter": true, "block": true, "with": true,
	"autoescape": true, "raw": true, "trans": true, "set": true, "spaceless": true, "comment": true,
	"ifchanged": true, "ifequal": true, "ifnotequal": true, "verbatim": true, "sandbox": true,
	"message": true, "user": true, "system": true, "assistant": true,
}

// unclosedTag scans Jinja (or Django) source and returns the byte offset of
// the {% of the innermost block tag still open at the end, or of a tag or
// comment whose end never comes.
func unclosedTag(src string) (off int, ok bool) {
	var stack []int
	var words []string
	i := 0
	for {
		k := strings.IndexByte(src[i:], '{')
		if k < 0 {
			break
		}
		start := i + k
		switch {
		case strings.HasPrefix(src[start:], "{#"):
			e := strings.Index(src[start+2:], "#}")
			if e < 0 {
				return start, true
			}
			i = start + 2 + e + 2
			continue
		case !strings.HasPrefix(src[start:], "{%"):
			i = start + 1
			continue
		}
		j := start + 2
		if j < len(src) && (src[j] == '-' || src[j] == '+') {
			j++
		}
		end := closeEnd(src, j, "%}", false)
		if end < 0 {
			return start, true
		}
		body := strings.TrimSpace(strings.TrimRight(src[j:end-2], "-+"))
		w := body
		if n := strings.IndexFunc(w, func(r rune) bool { return !('a' <= r && r <= 'z' || r == '_') }); n >= 0 {
			w = w[:n]
		}
		switch {
		case strings.HasPrefix(w, "end") && len(stack) > 0:
			stack, words = stack[:len(stack)-1], words[:len(words)-1]
		case jinjaBlocks[w] && !(w == "set" && strings.Contains(body, "=")):
			stack, words = append(stack, start), append(words, w)
		}
		i = end
		if len(words) > 0 && (words[len(words)-1] == "raw" || words[len(words)-1] == "verbatim") {
			// Nothing inside raw is a tag until its end tag.
			closing := "end" + words[len(words)-1]
			for {
				k := strings.Index(src[i:], "{%")
				if k < 0 {
					return stack[len(stack)-1], true
				}
				e := closeEnd(src, i+k+2, "%}", false)
				if e < 0 {
					return i + k, true
				}
				if strings.Contains(src[i+k:e], closing) {
					stack, words = stack[:len(stack)-1], words[:len(words)-1]
					i = e
					break
				}
				i = e
			}
		}
	}
	if len(stack) == 0 {
		return 0, false
	}
	return stack[len(stack)-1], true
}
