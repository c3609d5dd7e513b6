package engine

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/textpos"
	"github.com/rolemark/rolemark/roleparse"
)

// Where in the template a markup error was written.
//
// A rendered byte comes either from the template's text, copied as it is,
// or from an action (a variable, a helper, a partial). To map an offset in
// the rendered markup back to the template, the template is compiled once
// more from a source with a marker — one private-use rune, U+F0000 plus its
// number — at the start of every run of text and before every action, and
// rendered with the same request. The markers come out where the text and
// the actions' output begin; removing them gives the markup again, with the
// offset of each marker in it. The error's offset then lies after the last
// marker before it: in a run of text (the exact byte of the template), or
// in an action's output (the action's first character).
//
// The map is built only when an error needs it, so that rendering pays
// nothing for it (docs/PERFORMANCE.md): one more compile and render of the
// template, on the error path only. When the marked render does not fail in
// the same way (markers can stop whitespace control from trimming, and a
// line with a block tag from being standalone, which only changes
// whitespace), the caller falls back to searching the source for the text.

// markerBase is the first marker rune: plane 15's private-use area.
const markerBase = 0xF0000

// maxMarkers is the number of markers there is room for.
const maxMarkers = 0xFFFD

// mark is one marker: where it was put in the source, and whether it
// starts a run of text (else an action).
type mark struct {
	src  int
	text bool
	file string // the partial's path in the file system; "" for the template
}

// markSource returns src with a marker at the start of every run of text
// and before every action of the engine's syntax, and the markers.
func markSource(engineName, src string) (string, []mark, bool) {
	if strings.ContainsFunc(src, isMarker) {
		return "", nil, false
	}
	open := []string{"{{"}
	if engineName == "jinja" || engineName == "pongo2" {
		open = []string{"{{", "{%", "{#"}
	}
	var b strings.Builder
	var marks []mark
	put := func(at int, text bool) bool {
		if len(marks) == maxMarkers {
			return false
		}
		b.WriteRune(rune(markerBase + len(marks)))
		marks = append(marks, mark{src: at, text: text})
		return true
	}
	if !put(0, true) {
		return "", nil, false
	}
	i := 0
	for {
		j, delim := nextOpen(src, i, open)
		if j < 0 {
			b.WriteString(src[i:])
			break
		}
		if engineName == "handlebars" && j > 0 && src[j-1] == '\\' {
			// \{{ is literal text in Handlebars
			b.WriteString(src[i : j+2])
			i = j + 2
			continue
		}
		b.WriteString(src[i:j])
		end := actionEnd(engineName, src, j, delim)
		if end < 0 {
			return "", nil, false
		}
		if !put(j, false) {
			return "", nil, false
		}
		b.WriteString(src[j:end])
		if !put(end, true) {
			return "", nil, false
		}
		i = end
	}
	return b.String(), marks, true
}

func isMarker(r rune) bool { return r >= markerBase && r < markerBase+maxMarkers }

// nextOpen finds the first opening delimiter at or after i.
func nextOpen(src string, i int, open []string) (int, string) {
	best, delim := -1, ""
	for _, o := range open {
		if k := strings.Index(src[i:], o); k >= 0 && (best < 0 || i+k < best) {
			best, delim = i+k, o
		}
	}
	return best, delim
}

// actionEnd returns the offset just after the action that opens at j, or -1.
func actionEnd(engineName, src string, j int, delim string) int {
	rest := src[j:]
	closeWith, quoted := "}}", true
	switch {
	case delim == "{%":
		closeWith = "%}"
	case delim == "{#":
		closeWith, quoted = "#}", false
	case engineName == "handlebars" && strings.HasPrefix(rest, "{{!--"):
		closeWith, quoted = "--}}", false
	case engineName == "handlebars" && strings.HasPrefix(rest, "{{!"):
		quoted = false
	case engineName == "handlebars" && strings.HasPrefix(rest, "{{{{"):
		closeWith = "}}}}"
	case engineName == "handlebars" && strings.HasPrefix(rest, "{{{"):
		closeWith = "}}}"
	case engineName == "gotmpl" && (strings.HasPrefix(rest, "{{/*") || strings.HasPrefix(rest, "{{- /*")):
		closeWith, quoted = "*/", false
	}
	// Skip quoted strings, in which a closing delimiter is not one.
	k := len(delim)
	for k < len(rest) {
		c := rest[k]
		switch {
		case quoted && (c == '"' || c == '\'' || (c == '`' && engineName == "gotmpl")):
			e := strings.IndexByte(rest[k+1:], c)
			if e < 0 {
				return -1
			}
			k += e + 2
		case strings.HasPrefix(rest[k:], closeWith):
			end := j + k + len(closeWith)
			if closeWith == "*/" {
				c := strings.Index(src[end:], "}}")
				if c < 0 {
					return -1
				}
				end += c + 2
			}
			return end
		default:
			k++
		}
	}
	return -1
}

// sourcePos returns the file, line and column (1-based, in runes) of the
// template source that wrote the markup which failed to parse with pe,
// found with the markers described above, for a render of request r with
// history: the template's name, or the path of a partial (markedFS).
func (t *Template) sourcePos(ctx context.Context, r *driver.Request, history []chat.Message, pe *roleparse.Error) (file string, line, col int, ok bool) {
	return t.sourcePosOf(ctx, r, history, pe, func(markup string) *roleparse.Error {
		if f := t.faults(markup, 1); len(f) == 1 {
			return f[0]
		}
		return nil
	})
}

// sourcePosOf is sourcePos for the problem pe that find finds in the
// markup.
func (t *Template) sourcePosOf(ctx context.Context, r *driver.Request, history []chat.Message, pe *roleparse.Error, find func(markup string) *roleparse.Error) (file string, line, col int, ok bool) {
	switch t.engine.Name() {
	case "handlebars", "jinja", "pongo2", "gotmpl":
	default:
		return "", 0, 0, false // the markers follow these engines' syntax
	}
	if t.cfg == nil {
		return "", 0, 0, false
	}
	marked, marks, ok := markSource(t.engine.Name(), t.src)
	if !ok {
		return "", 0, 0, false
	}
	cfg := *t.cfg
	srcs := map[string]string{}
	if cfg.FS != nil {
		cfg.FS = &markedFS{FS: cfg.FS, engine: t.engine.Name(), marks: &marks, srcs: srcs, done: map[string][]byte{}}
	}
	var c driver.Compiled
	var out bytes.Buffer
	err := t.guard(ctx, func() error {
		var err error
		if c, err = t.engine.Compile(t.name, marked, cfg); err != nil {
			return err
		}
		return c.Execute(ctx, &out, &driver.Request{Vars: r.Vars, Data: r.Data})
	})
	if err != nil {
		return "", 0, 0, false
	}
	placed, _, err := t.placeHistory(out.String(), history)
	if err != nil {
		return "", 0, 0, false
	}
	// Remove the markers, noting where each stood.
	type at struct{ out, id int }
	var ats []at
	stripped := make([]byte, 0, len(placed))
	b := []byte(placed)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if isMarker(r) && int(r-markerBase) < len(marks) {
			ats = append(ats, at{out: len(stripped), id: int(r - markerBase)})
		} else {
			stripped = append(stripped, b[:size]...)
		}
		b = b[size:]
	}
	pe2 := find(string(stripped))
	if pe2 == nil || pe2.Msg != pe.Msg {
		return "", 0, 0, false
	}
	off := pe2.Offset
	last := -1
	for i, a := range ats {
		if a.out > off {
			break
		}
		last = i
	}
	if last < 0 {
		return "", 0, 0, false
	}
	// before returns the index in ats of the last marker at or before
	// offset o of the markup, -1 for none.
	before := func(o int) int {
		k := -1
		for i, a := range ats {
			if a.out > o {
				break
			}
			k = i
		}
		return k
	}
	if marks[ats[last].id].file != "" && strings.HasSuffix(pe2.Msg, nestedOpens) {
		// A message opened in a partial, inside one the template
		// opened: the template's {{> partial}} nests it.
		outer := prevMessageTag(string(stripped), off)
		if k := before(outer); outer >= 0 && k >= 0 && marks[ats[k].id].file == "" {
			for last >= 0 && marks[ats[last].id].file != "" {
				last--
			}
		}
		if last < 0 {
			return "", 0, 0, false
		}
	}
	m := marks[ats[last].id]
	file, src := t.name, t.src
	if m.file != "" {
		file, src = m.file, srcs[m.file]
	}
	pos := m.src
	if m.text {
		// The bytes since the marker must be the source's text as
		// written; when they are not, the map cannot say.
		n := off - ats[last].out
		if m.src+n > len(src) || string(stripped[ats[last].out:off]) != src[m.src:m.src+n] {
			return "", 0, 0, false
		}
		pos = m.src + n
	}
	line, col = textpos.LineCol(src, pos)
	return file, line, col, true
}

// markupErrorFor is markupError for a render of request r, placed in the
// template by sourcePos where it can be.
func (t *Template) markupErrorFor(ctx context.Context, r *driver.Request, history []chat.Message, out string, err error) error {
	var pe *roleparse.Error
	if errors.As(err, &pe) {
		if moved := nestedFault(out, pe); moved != pe {
			err, pe = moved, moved
		}
	}
	e := t.markupError(out, err)
	var ee *Error
	var me *markupError
	if pe != nil && errors.As(e, &ee) && errors.As(e, &me) {
		if file, line, col, ok := t.sourcePos(ctx, r, history, pe); ok {
			ee.Template, ee.Line, ee.Col, me.located = file, line, col, true
		}
	}
	return e
}

// parseMarkup parses markup the template rendered as Messages reads it
// and returns the parser's error, placed in markup.
func (t *Template) parseMarkup(markup string) error {
	if t.dotprompt {
		_, err := t.dotpromptParse(markup)
		return err
	}
	_, err := roleparse.Parse(markup, t.parse...)
	return err
}

// faults returns up to n problems of markup the template rendered, each
// placed in markup where the author would fix it (nestedFault): the first
// is the parser's error; the parse then goes on from the next <message
// tag after the problem, which starts a message afresh, for the next one.
// A problem that hides a later one (text outside a message, a bad role,
// tool call arguments that are not JSON) thus does not hide it.
func (t *Template) faults(markup string, n int) []*roleparse.Error {
	var out []*roleparse.Error
	rest := markup
	for len(out) < n {
		var pe *roleparse.Error
		if !errors.As(t.parseMarkup(rest), &pe) {
			break
		}
		out = append(out, nestedFault(rest, pe))
		next := nextMessageTag(markup, pe.Offset+1)
		if next < 0 {
			break
		}
		// What was read is blanked, not cut, so that a place the
		// parser names in its message ("opened at line 7, col 22") is
		// markup's: outside a message, whitespace is nothing.
		rest = blank(markup[:next]) + markup[next:]
	}
	return out
}

// blank returns s with every byte but a line break a space.
func blank(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c != '\n' && c != '\r' {
			b[i] = ' '
		}
	}
	return string(b)
}

// nextMessageTag returns the offset of the first <message tag at or after
// i in markup, -1 for none.
func nextMessageTag(markup string, i int) int {
	for i < len(markup) {
		k := strings.IndexByte(markup[i:], '<')
		if k < 0 {
			return -1
		}
		i += k
		if roleparse.MessageTagAt(markup, i) {
			return i
		}
		i++
	}
	return -1
}

// prevMessageTag returns the offset of the last <message tag that opens
// before offset i of markup, -1 for none.
func prevMessageTag(markup string, i int) int {
	for i = strings.LastIndexByte(markup[:i], '<'); i >= 0; i = strings.LastIndexByte(markup[:i], '<') {
		if roleparse.MessageTagAt(markup, i) {
			return i
		}
	}
	return -1
}

// nestedMsg ends roleparse's message for an end tag that closes no message
// because the message before it opened inside another one.
const nestedMsg = "(messages do not nest: the <message> opened inside the one before closed it)"

// nestedOpens ends nestedFault's message, after the tag.
const nestedOpens = " opens inside another message and closes it, so the </message> meant for that one closes no message; messages do not nest: close the one before first, or move this one out"

// nestedFault returns pe, the parser's error in markup, moved to where the
// author would fix it. A </message> that closes no message because the
// <message> before it opened inside another message, which it closed, is
// the end tag meant for that other message: the mistake is the <message>
// (a {{#user}} block inside a {{#system}} one, say), the last message tag
// before the end tag, and the error is placed there.
func nestedFault(markup string, pe *roleparse.Error) *roleparse.Error {
	if !strings.HasSuffix(pe.Msg, nestedMsg) || pe.Offset > len(markup) {
		return pe
	}
	at := prevMessageTag(markup, pe.Offset)
	if at < 0 {
		return pe
	}
	tag := "<message>"
	if end := strings.IndexByte(markup[at:], '>'); end > 0 && end < 60 && !strings.ContainsAny(markup[at+1:at+end], "\n<") {
		tag = markup[at : at+end+1]
	}
	line, col := textpos.LineCol(markup, at)
	return &roleparse.Error{Line: line, Col: col, Offset: at, Msg: tag + nestedOpens}
}
