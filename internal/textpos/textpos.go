// Package textpos finds positions in template text: the line and column of
// a byte offset, the one helper every error position in rolemark is
// computed with, and where a prompt file's front matter ends.
package textpos

import (
	"strings"
	"unicode/utf8"
)

// LineCol returns the 1-based line and column of byte offset off in s. The
// column counts runes (a tab is one), as every rolemark error does. A line
// ends with LF, CRLF or a lone CR (LineBreak), as LSP and editors count
// lines and as the engines read a template (a Dotprompt file keeps its
// CRs). An offset past the end is the end; a negative one is the start.
func LineCol(s string, off int) (line, col int) {
	off = max(0, min(off, len(s)))
	n, after := breaks(s, 0, off)
	return 1 + n, 1 + utf8.RuneCountInString(s[after:off])
}

// breaks counts the line breaks of s that end in s[from:to] (a CR that an
// LF follows in s is not one: the LF ends the line) and returns the offset
// just after the last of them, or from when there is none.
func breaks(s string, from, to int) (n, after int) {
	seg := s[from:to]
	if strings.IndexByte(seg, '\r') < 0 {
		n = strings.Count(seg, "\n")
		return n, from + strings.LastIndexByte(seg, '\n') + 1
	}
	after = from
	for i := from; i < to; i++ {
		if s[i] == '\n' || s[i] == '\r' && (i+1 == len(s) || s[i+1] != '\n') {
			n++
			after = i + 1
		}
	}
	return n, after
}

// LineBreak returns the end of s's first line and the offset just after
// its line break: LF, CRLF or a lone CR, as Dotprompt's front-matter
// pattern takes them. ok is false when s holds no line break.
func LineBreak(s string) (end, next int, ok bool) {
	i := strings.IndexAny(s, "\r\n")
	if i < 0 {
		return len(s), len(s), false
	}
	if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
		return i, i + 2, true
	}
	return i, i + 1, true
}

// FrontMatterEnd returns the offset just after the closing --- line of the
// front matter at the top of s, or 0 when s has none. Blank lines and #
// comments may come before the opening ---, as package engine reads it;
// lines end with LF, CRLF or CR (LineBreak).
func FrontMatterEnd(s string) int {
	at, opened := 0, false
	for at < len(s) {
		end, next, ok := LineBreak(s[at:])
		if !ok {
			return 0
		}
		l := strings.TrimRight(s[at:at+end], " \t")
		at += next
		switch {
		case l == "---" && opened:
			return at
		case l == "---":
			opened = true
		case !opened && l != "" && !strings.HasPrefix(l, "#"):
			return 0
		}
	}
	return 0
}

// LF returns s with each CRLF and each lone CR replaced by LF, as Jinja2
// reads a template's source, so that a template saved with Windows line
// endings renders the same in every engine. s is returned as it is when it
// holds no CR.
func LF(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// Cursor gives LineCol's answers for many offsets of one text: asked in
// increasing order, all of them together take time linear in the text,
// where LineCol takes time linear in the offset for each (a template of
// 100,000 variables compiled in quadratic time). An offset before the last
// one asked counts again from the start.
type Cursor struct {
	s              string
	off, line, col int // the place of the offset asked last
}

// NewCursor returns a Cursor over s.
func NewCursor(s string) *Cursor { return &Cursor{s: s, line: 1, col: 1} }

// LineCol returns LineCol(s, off) for the Cursor's text s.
func (c *Cursor) LineCol(off int) (line, col int) {
	off = max(0, min(off, len(c.s)))
	if off < c.off {
		c.off, c.line, c.col = 0, 1, 1
	}
	line, col = c.line, c.col
	if n, after := breaks(c.s, c.off, off); n > 0 {
		line += n
		col = 1 + utf8.RuneCountInString(c.s[after:off])
	} else {
		col += utf8.RuneCountInString(c.s[c.off:off])
	}
	if off == len(c.s) || utf8.RuneStart(c.s[off]) {
		// counting on from inside a rune would count its bytes apart
		c.off, c.line, c.col = off, line, col
	}
	return line, col
}
