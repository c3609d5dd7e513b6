package pongo2

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rolemark/rolemark/internal/textpos"
	"github.com/rolemark/rolemark/roleparse"
)

// The rewriter turns a template's source into the source pongo2 parses.
// It follows pongo2 v6's lexer (lexer.go) token by token so that it sees
// exactly the tags and variables pongo2 will see, and it makes these edits:
//
//   - {{ expr }} becomes {% rolemark_print expr %}: every printed value goes
//     through one tag that escapes it with roleparse's rules whatever its
//     type (printNode in tags.go). {{- and -}} keep their meaning.
//   - the tags message, system, user, assistant and their end tags are
//     renamed to rolemark_message, endrolemark_message ... so that the
//     tags rolemark registers in pongo2's global registry carry a prefix
//     no other program is likely to use; widthratio becomes
//     rolemark_widthratio (tags.go) the same way.
//   - the tags that evaluate expressions at render time (if, for, set …)
//     are preceded by {% rolemark_at %}, which records where a panic
//     happens.
//   - the body of every {% for %} starts with {% rolemark_tick %}, where a
//     render whose context is done stops.
//   - the body of every {% macro %} is wrapped in {% rolemark_macro %} ...
//     {% endrolemark_macro %}, which bounds the depth of macro calls.
//
// It also refuses, before pongo2 sees them: a code region of more than
// maxTokens tokens and block tags nested more than maxNesting deep (pongo2
// parses and renders both by recursion, and a deep enough nesting
// overflows the goroutine stack, which kills the process); an endcomment tag with anything
// but whitespace before its %} (pongo2 v6 loops forever on it), an include
// whose file name is not a string literal (pongo2 would read the file at
// render time, outside rolemark's control) and include … only (it would drop
// the render's context).
//
// Every edit either keeps the length of what it replaces or inserts text
// without a newline; insertions are recorded so that pongo2's line and
// column can be mapped back to the source the user wrote.

// marked are the pongo2 tags that evaluate expressions at render time; each
// gets a {% rolemark_at %} before it, which records its position so that a
// panic while it runs can be placed.
var marked = map[string]bool{
	"if": true, "for": true, "set": true, "with": true, "ifequal": true, "ifnotequal": true,
	"include": true, "widthratio": true, "filter": true,
}

const (
	keysFilter  = "rolemark_keys"
	atTag       = "rolemark_at"
	tickTag     = "rolemark_tick"
	printTag    = "rolemark_print"
	macroTag    = "rolemark_macro"
	endMacroTag = "endrolemark_macro"
	tagPrefix   = "rolemark_"
)

// renamed are the user-facing tags the rewriter prefixes with tagPrefix.
var renamed = map[string]bool{
	"message": true, "endmessage": true,
	"system": true, "endsystem": true,
	"user": true, "enduser": true,
	"assistant": true, "endassistant": true,
	"widthratio": true, // rolemark's: pongo2's prints -9223372036854775808 for a zero maximum
}

// source is one template file before and after rewriting.
type source struct {
	name    string
	orig    string
	out     string
	inserts []insertion // in increasing order of at
	// idents are the identifiers in the code regions pongo2 will see
	// (role markers expanded into tags are gone).
	idents map[string]bool
	// plain: the source is text, comments, role markers expanded into
	// tags, fixed-role blocks without arguments ({% user %}…{% enduser %})
	// and {{ name }}, all without whitespace control; prints are the names
	// the {{ name }} print, in order.
	plain  bool
	prints []string
}

// insertion is text of length n that the rewriter inserted at offset at of
// the rewritten source.
type insertion struct{ at, n int }

// rewriteError is a construct the rewriter refuses, at a byte offset of the
// original source.
type rewriteError struct {
	off int
	msg string
}

// token is a token of a code region ({{ … }} or {% … %}).
type token struct {
	kind       tokKind
	val        string // for strings, the text between the quotes
	start, end int    // byte offsets in the original source
}

type tokKind int

const (
	tokSymbol tokKind = iota
	tokIdent
	tokNumber
	tokString
)

var symbols = []string{
	"{{-", "-}}", "{%-", "-%}",
	"==", ">=", "<=", "&&", "||", "{{", "}}", "{%", "%}", "!=", "<>",
	"(", ")", "+", "-", "*", "<", ">", "/", "^", ",", ".", "!", "|", ":", "=", "%", "[", "]",
}

const (
	identChars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_"
	digits     = "0123456789"
)

// maxTokens bounds the tokens of one {{ }} or {% %}, and maxNesting the
// depth of block tags in one file. A million nested parentheses (a 2 MB
// template) or block tags overflow the stack in pongo2 v6; these bounds
// are far below that, and far above what a prompt needs.
const (
	maxTokens  = 10000
	maxNesting = 200
)

// blockTags are the tags of pongo2 v6 and of rolemark that have an end tag
// (end + name), whose bodies pongo2 parses and renders by recursion.
var blockTags = map[string]bool{
	"if": true, "ifchanged": true, "ifequal": true, "ifnotequal": true, "for": true, "with": true,
	"block": true, "macro": true, "filter": true, "spaceless": true, "autoescape": true,
	"message": true, "system": true, "user": true, "assistant": true,
}

type rewriter struct {
	src string
	pos int
	// depth is the nesting of block tags; inComment is true between
	// {% comment %} and {% endcomment %}, whose tags pongo2 skips.
	depth     int
	inComment bool
	b         strings.Builder
	copied    int // src[:copied] has been written to b
	ins       []insertion
	idents    map[string]bool
	plain     bool
	prints    []string

	expandRole bool
}

// copyTo writes the source up to offset i.
func (w *rewriter) copyTo(i int) {
	w.b.WriteString(w.src[w.copied:i])
	w.copied = i
}

// insert writes s at the current output position and records it.
func (w *rewriter) insert(s string) {
	w.ins = append(w.ins, insertion{at: w.b.Len(), n: len(s)})
	w.b.WriteString(s)
}

// replace writes s, of the same length, in place of src[i:i+len(s)].
func (w *rewriter) replace(i int, s string) {
	w.copyTo(i)
	w.b.WriteString(s)
	w.copied = i + len(s)
}

// rewrite rewrites the source of the template named name.
// With expandRole, role markers with a literal role become message tags
// (false when the caller's Funcs replace role).
func rewrite(name, src string, expandRole bool) (*source, *rewriteError) {
	if i := strings.IndexByte(src, 0x01); i >= 0 {
		// pongo2 v6's lexer returns its EOF token kind, 1, as the rune it
		// read at the end, so it takes a U+0001 for the end: the rest of
		// the file would be dropped without a word.
		return nil, &rewriteError{off: i, msg: "U+0001 cannot stand in a pongo2 template: pongo2 v6 reads it as the end of the template and drops what follows (a value may hold it)"}
	}
	w := &rewriter{src: src, expandRole: expandRole, plain: true}
	w.b.Grow(len(src) + len(src)/8)
	if err := w.run(); err != nil {
		return nil, err
	}
	w.copyTo(len(src))
	s := &source{name: name, orig: src, out: w.b.String(), inserts: w.ins, idents: w.idents, plain: w.plain, prints: w.prints}
	if off, ok := endcommentHang(s.out); ok {
		return nil, &rewriteError{off: s.origOff(off), msg: "endcomment takes no arguments and must be closed by %} on the same line"}
	}
	return s, nil
}

// endcommentHang is a second guard against the endcomment tag that makes
// pongo2 v6 loop forever (see edit), which does not depend on the
// rewriter lexing as pongo2 does: it looks at the text pongo2 will read,
// and reports the offset of the first "endcomment" that follows {% or {%-
// and is not followed by %} or -%} on the same line. It can refuse such
// text where pongo2 would not read it as a tag (in a string literal, in
// verbatim), which costs nothing a prompt needs.
func endcommentHang(out string) (int, bool) {
	for i := 0; ; {
		j := strings.Index(out[i:], "endcomment")
		if j < 0 {
			return 0, false
		}
		at := i + j
		i = at + len("endcomment")
		before := strings.TrimRight(out[:at], " \t\r")
		if !strings.HasSuffix(before, "{%") && !strings.HasSuffix(before, "{%-") {
			continue
		}
		if i < len(out) && strings.IndexByte(identChars+digits, out[i]) >= 0 {
			continue // another identifier, such as endcomments
		}
		after := strings.TrimLeft(out[i:], " \t\r")
		if !strings.HasPrefix(after, "%}") && !strings.HasPrefix(after, "-%}") {
			return at, true
		}
	}
}

// run mirrors pongo2's lexer.run. When pongo2's lexer would fail, run stops
// rewriting and leaves the rest as it is: pongo2 reports the error.
func (w *rewriter) run() *rewriteError {
	src := w.src
	inVerbatim := false
	for {
		if inVerbatim {
			if strings.HasPrefix(src[w.pos:], "{% endverbatim %}") {
				w.pos += len("{% endverbatim %}")
				inVerbatim = false
			}
		} else if strings.HasPrefix(src[w.pos:], "{% verbatim %}") {
			w.pos += len("{% verbatim %}")
			inVerbatim = true
			w.plain = false
		}
		if !inVerbatim {
			if strings.HasPrefix(src[w.pos:], "{#") {
				// pongo2 looks for the end after the {#: {#} opens a
				// comment and does not close it.
				body := src[w.pos+2:]
				end := strings.Index(body, "#}")
				nl := strings.IndexByte(body, '\n')
				if end < 0 || (nl >= 0 && nl < end) {
					return nil // pongo2: comment not closed
				}
				w.pos += 2 + end + 2
				continue
			}
			if strings.HasPrefix(src[w.pos:], "{{") || strings.HasPrefix(src[w.pos:], "{%") {
				ok, err := w.code()
				if err != nil || !ok {
					w.plain = false
					return err
				}
				continue
			}
		}
		if w.pos >= len(src) {
			return nil
		}
		_, n := utf8.DecodeRuneInString(src[w.pos:])
		w.pos += n
	}
}

// code reads one code region starting at w.pos, as pongo2's stateCode does,
// and rewrites it. It returns false when pongo2's lexer would fail.
func (w *rewriter) code() (bool, *rewriteError) {
	src := w.src
	var toks []token
	closed := false
scan:
	for w.pos < len(src) {
		c := src[w.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			w.pos++
			continue
		case c == '\n':
			return false, nil // pongo2: newline not allowed within tag
		case strings.IndexByte(identChars, c) >= 0:
			start := w.pos
			for w.pos < len(src) && strings.IndexByte(identChars+digits, src[w.pos]) >= 0 {
				w.pos++
			}
			toks = append(toks, token{kind: tokIdent, val: src[start:w.pos], start: start, end: w.pos})
			continue
		case strings.IndexByte(digits, c) >= 0:
			start := w.pos
			for w.pos < len(src) && strings.IndexByte(digits, src[w.pos]) >= 0 {
				w.pos++
			}
			kind := tokNumber
			if w.pos < len(src) && strings.IndexByte(identChars, src[w.pos]) >= 0 {
				kind = tokIdent
				for w.pos < len(src) && strings.IndexByte(identChars+digits, src[w.pos]) >= 0 {
					w.pos++
				}
			}
			toks = append(toks, token{kind: kind, val: src[start:w.pos], start: start, end: w.pos})
			continue
		case c == '"' || c == '\'':
			start := w.pos
			w.pos++
			for {
				if w.pos >= len(src) {
					return false, nil
				}
				d := src[w.pos]
				if d == c {
					w.pos++
					break
				}
				switch d {
				case '\\':
					if w.pos+1 >= len(src) || (src[w.pos+1] != '"' && src[w.pos+1] != '\\') {
						return false, nil
					}
					w.pos += 2
					continue
				case '\n':
					return false, nil
				}
				w.pos++
			}
			toks = append(toks, token{kind: tokString, val: src[start+1 : w.pos-1], start: start, end: w.pos})
			continue
		}
		if len(toks) > maxTokens {
			return false, &rewriteError{off: toks[0].start, msg: fmt.Sprintf("a {{ }} or {%% %%} of more than %d tokens is not supported", maxTokens)}
		}
		for _, sym := range symbols {
			if strings.HasPrefix(src[w.pos:], sym) {
				toks = append(toks, token{kind: tokSymbol, val: sym, start: w.pos, end: w.pos + len(sym)})
				w.pos += len(sym)
				if sym == "%}" || sym == "-%}" || sym == "}}" || sym == "-}}" {
					closed = true
					break scan
				}
				continue scan
			}
		}
		break // pongo2 ends the code region here and lexes on as text
	}
	return true, w.edit(toks, closed)
}

func isSym(t token, vals ...string) bool {
	if t.kind != tokSymbol {
		return false
	}
	for _, v := range vals {
		if t.val == v {
			return true
		}
	}
	return false
}

// edit applies the rewrites to one code region.
func (w *rewriter) edit(toks []token, closed bool) *rewriteError {
	if len(toks) == 0 {
		return nil
	}
	// pongo2 v6 skips a comment's body by looking for the tokens {% and
	// endcomment anywhere in the token stream (even inside another tag) and
	// then loops, consuming nothing, until the next token is %}: anything
	// else there hangs the parser.
	for i := 0; i+1 < len(toks); i++ {
		if isSym(toks[i], "{%", "{%-") && toks[i+1].kind == tokIdent && toks[i+1].val == "endcomment" &&
			(i+2 >= len(toks) || !isSym(toks[i+2], "%}", "-%}")) {
			return &rewriteError{off: toks[i+1].start, msg: "endcomment takes no arguments and must be closed by %} on the same line"}
		}
	}
	if err := w.nest(toks); err != nil {
		return err
	}
	if closed && w.expandRole && w.expand(toks) {
		return nil
	}
	w.notePlain(toks, closed)
	for _, t := range toks {
		if t.kind == tokIdent {
			if w.idents == nil {
				w.idents = map[string]bool{}
			}
			w.idents[t.val] = true
		}
	}
	first, last := toks[0], toks[len(toks)-1]
	if isSym(first, "{{", "{{-") {
		if !closed || !isSym(last, "}}", "-}}") {
			return nil // pongo2 reports '}}' expected
		}
		w.replace(first.start, "{%")
		w.copyTo(first.end)
		w.insert(printTag + " ")
		w.renameCalls(toks)
		w.replace(last.end-2, "%}")
		return nil
	}
	if !isSym(first, "{%", "{%-") || len(toks) < 2 || toks[1].kind != tokIdent {
		return nil
	}
	name := toks[1]
	if marked[name.val] && closed {
		w.copyTo(first.start)
		if isSym(first, "{%-") {
			w.insert("{%- " + atTag + " %}")
			w.replace(first.start, "{% ")
		} else {
			w.insert("{% " + atTag + " %}")
		}
	}
	if renamed[name.val] {
		at := name.start
		if strings.HasPrefix(name.val, "end") {
			at += 3
		}
		w.copyTo(at)
		w.insert(tagPrefix)
	}
	w.renameCalls(toks[1:])
	switch {
	case name.val == "include":
		if len(toks) < 3 || toks[2].kind != tokString {
			return &rewriteError{off: name.start, msg: "include takes a file name in quotes; a file name computed at render time is not supported"}
		}
		for _, t := range toks[3:] {
			if t.kind == tokIdent && t.val == "only" {
				return &rewriteError{off: t.start, msg: "include … only is not supported: rolemark's functions and limits reach an included file through the render's context; pass values with include … with"}
			}
		}
	case name.val == "for" && closed:
		w.orderFor(toks)
		// an iteration whose first code is a print stops there when the
		// render's context is done (printNode); another runs
		// {% rolemark_tick %} first, which does that and nothing else:
		// pongo2 cannot be interrupted, and a loop that prints nothing
		// ran to its end
		if printsFirst(w.src[last.end:]) {
			break
		}
		if isSym(last, "-%}") {
			w.replace(last.start, " ") // the trim moves to the tick
			w.copyTo(last.end)
			w.insert("{% " + tickTag + " -%}")
		} else {
			w.copyTo(last.end)
			w.insert("{% " + tickTag + " %}")
		}
	case name.val == "macro" && closed:
		if isSym(last, "-%}") {
			w.replace(last.start, " ")
			w.copyTo(last.end)
			w.insert("{% " + macroTag + " -%}")
		} else {
			w.copyTo(last.end)
			w.insert("{% " + macroTag + " %}")
		}
	case name.val == "endmacro":
		if isSym(first, "{%-") {
			w.copyTo(first.start)
			w.insert("{%- " + endMacroTag + " %}")
			w.replace(first.start, "{% ")
		} else {
			w.copyTo(first.start)
			w.insert("{% " + endMacroTag + " %}")
		}
	}
	return nil
}

// orderFor makes a for loop over a Go map visit the map's keys in order,
// where pongo2 v6 takes Go's random map order unless the loop says sorted:
// a loop with one variable gets keysFilter after its object (when the
// object is a path with filters, which that filter then follows), a loop
// with two (for k, v in m: a map's keys and values) the sorted keyword
// and keysFilter:2. Lists and strings keep their order under one variable;
// two variables over a list or a string (the second one always empty in
// pongo2) is no loop a template means, and visits its items sorted. toks is the whole tag: {% for a [, b] in OBJECT
// [reversed] [sorted] %}.
func (w *rewriter) orderFor(toks []token) {
	end := len(toks) - 1 // %} or -%}
	i := 3
	if i >= end || toks[2].kind != tokIdent {
		return
	}
	two := isSym(toks[i], ",")
	if two {
		i += 2
	}
	if i >= end || toks[i].kind != tokIdent || toks[i].val != "in" {
		return
	}
	start, stop := i+1, end
	keyword := func(k string) bool {
		if stop-1 > start && toks[stop-1].kind == tokIdent && toks[stop-1].val == k {
			stop--
			return true
		}
		return false
	}
	if keyword("sorted") || stop <= start {
		return
	}
	keyword("reversed")
	for _, t := range toks[start:stop] {
		switch {
		case t.kind == tokSymbol && !isSym(t, ".", "|", ":", "[", "]"),
			t.kind == tokIdent && (t.val == "and" || t.val == "or" || t.val == "not" || t.val == "in" || t.val == "is"):
			return // an expression a filter after it would not apply to whole
		}
	}
	w.copyTo(toks[stop-1].end)
	if !two {
		w.insert("|" + keysFilter)
		return
	}
	// keysFilter:2 leaves a map as it is for sorted, and makes a string,
	// which pongo2 v6 cannot sort (it panics), the list of its bytes.
	w.insert("|" + keysFilter + ":2")
	w.copyTo(toks[end].start)
	w.insert(" sorted ")
}

// printsFirst reports whether the first code region of src is a print
// ({{ … }}), before any tag or comment, that stays one: not a role marker,
// which expand makes text.
func printsFirst(src string) bool {
	i := strings.Index(src, "{{")
	if i < 0 {
		return false
	}
	j := strings.Index(src[:i], "{%")
	k := strings.Index(src[:i], "{#")
	return j < 0 && k < 0 && !strings.HasPrefix(strings.TrimLeft(src[i+2:], "- \t\r\n"), "role")
}

// renameCalls prefixes with tagPrefix every call of one of rolemark's
// functions (role(…), history(), media(…)) among toks, a code region
// without its first token: the call reaches the function under its
// internal name, and the bare name stays free for a variable of that name
// ({{ role }} prints the data's role). An attribute (x.role(…)) is not
// renamed.
func (w *rewriter) renameCalls(toks []token) {
	for i := 1; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != tokIdent || ownFuncs[t.val] == nil || !isSym(toks[i+1], "(") || isSym(toks[i-1], ".") {
			continue
		}
		w.copyTo(t.start)
		w.insert(tagPrefix)
		w.idents[tagPrefix+t.val] = true
	}
}

// nest follows the depth of block tags and refuses more than maxNesting.
func (w *rewriter) nest(toks []token) *rewriteError {
	if len(toks) < 2 || !isSym(toks[0], "{%", "{%-") || toks[1].kind != tokIdent {
		return nil
	}
	name := toks[1]
	switch {
	case w.inComment:
		w.inComment = name.val != "endcomment"
	case name.val == "comment":
		w.inComment = true
	case blockTags[name.val]:
		w.depth++
		if w.depth > maxNesting {
			return &rewriteError{off: name.start, msg: fmt.Sprintf("block tags nested more than %d deep are not supported", maxNesting)}
		}
	case strings.HasPrefix(name.val, "end") && blockTags[name.val[3:]] && w.depth > 0:
		w.depth--
	}
	return nil
}

// notePlain records whether one code region (not an expanded role marker)
// keeps the source plain: {{ name }}, or a fixed-role block's start or end
// tag without arguments.
func (w *rewriter) notePlain(toks []token, closed bool) {
	if !w.plain {
		return
	}
	if !closed || len(toks) != 3 || toks[1].kind != tokIdent {
		w.plain = false
		return
	}
	switch name := toks[1].val; {
	case isSym(toks[0], "{{") && isSym(toks[2], "}}"):
		w.prints = append(w.prints, name)
	case isSym(toks[0], "{%") && isSym(toks[2], "%}") && renamed[name] && !strings.HasSuffix(name, "message"):
	default:
		w.plain = false
	}
}

// origOff maps a byte offset of the rewritten source to the offset in the
// original of the text it was copied from (an inserted text maps to where
// it was inserted).
func (s *source) origOff(off int) int {
	shift := 0
	for _, in := range s.inserts {
		if in.at >= off {
			break
		}
		if off < in.at+in.n {
			shift += off - in.at
			break
		}
		shift += in.n
	}
	return off - shift
}

// origPos maps a pongo2 position (1-based line, 1-based byte column) in the
// rewritten source to a 1-based line and rune column in the original.
func (s *source) origPos(line, col int) (int, int) {
	if line <= 0 {
		return 0, 0
	}
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(s.out[off:], '\n')
		if i < 0 {
			return line, col
		}
		off += i + 1
	}
	off += col - 1
	if off > len(s.out) {
		off = len(s.out)
	}
	return textpos.LineCol(s.orig, s.origOff(off))
}

// placer maps many pongo2 positions of one source, asked in about
// increasing order, as origPos does, in time linear in the source, where
// origPos counts from the start at each call (a template of 40,000
// variables compiled in five seconds). Not for concurrent use.
type placer struct {
	s         *source
	line, off int // the line asked last in s.out, and its start
	cur       *textpos.Cursor
}

func newPlacer(s *source) *placer { return &placer{s: s, line: 1, cur: textpos.NewCursor(s.orig)} }

func (p *placer) origPos(line, col int) (int, int) {
	if line <= 0 {
		return 0, 0
	}
	if line < p.line {
		p.line, p.off = 1, 0
	}
	for p.line < line {
		i := strings.IndexByte(p.s.out[p.off:], '\n')
		if i < 0 {
			return line, col
		}
		p.off += i + 1
		p.line++
	}
	return p.cur.LineCol(p.s.origOff(min(p.off+col-1, len(p.s.out))))
}

// publicName turns the internal names of rolemark's tags in a pongo2 message
// back into the names the user wrote.
func publicName(msg string) string {
	if !strings.Contains(msg, tagPrefix) {
		return msg
	}
	msg = strings.ReplaceAll(msg, endMacroTag, "endmacro")
	msg = strings.ReplaceAll(msg, "end"+tagPrefix, "end")
	msg = strings.ReplaceAll(msg, printTag, "{{ }}")
	return strings.ReplaceAll(msg, tagPrefix, "")
}

func (e *rewriteError) Error() string { return e.msg }

// literal returns the value of a string token that holds no escape.
func literal(t token) (string, bool) {
	return t.val, t.kind == tokString && t.val != "" && !strings.Contains(t.val, "\\")
}

// expand replaces a role marker whose argument is a literal, and that uses
// no whitespace control, by the message tag it writes: {{ role("user") }}
// becomes <message role="user">, and rendering makes no function call for
// it. It reports whether it did.
func (w *rewriter) expand(toks []token) bool {
	first, last := toks[0], toks[len(toks)-1]
	if len(toks) != 6 || !isSym(first, "{{") || !isSym(last, "}}") || toks[1].kind != tokIdent || toks[1].val != "role" ||
		!isSym(toks[2], "(") || !isSym(toks[4], ")") {
		return false
	}
	role, ok := literal(toks[3])
	if !ok {
		return false
	}
	// The tag is longer than the marker: replace in place and insert the
	// rest, so that positions map back as for the other edits.
	text := string(roleparse.MessageTag(role))
	n := last.end - first.start
	if len(text) < n {
		return false
	}
	w.replace(first.start, text[:n])
	w.insert(text[n:])
	return true
}
