package format

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ardanlabs/jinja"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/pyjson"
	"github.com/rolemark/rolemark/internal/textpos"
)

// prepareSource reads a chat template as Jinja2's lexer does with
// transformers' settings (trim_blocks, lstrip_blocks, keep_trailing_newline
// off, newlines normalised) and writes it back in a form the engine renders
// the same way:
//
//   - Whitespace control is applied here, exactly as Jinja2 applies it: the
//   - and + modifiers are removed, and the white space that remains at the
//     ends of a text is written as a string expression, so that the
//     engine's own trimming has nothing to act on. A raw block becomes one
//     string expression.
//   - String literals are decoded with Python's escapes (\u, \x, \r, octal,
//     line continuation…) and written with the escapes the engine reads.
//   - tojson filters are renamed to tojsonName (see hfjinja.go).
//   - A name a for loop's body assigns starts every iteration with the
//     value it had before the loop, as in Jinja2; the engine would carry
//     the last iteration's value into the next (see loopScopes).
//
// It also records what the template does that the engine would not treat
// as Python does (sourceInfo).
func prepareSource(src string) (string, *sourceInfo, *TemplateError) {
	src = strings.ReplaceAll(src, "\r\n", "\n")
	src = strings.ReplaceAll(src, "\r", "\n")
	src = strings.TrimSuffix(src, "\n")
	newParser := func(loopSets map[int][]string) *srcParser {
		return &srcParser{src: src, lineStarting: true, loopSets: loopSets,
			info: &sourceInfo{defined: map[string]bool{}, input: map[string]bool{}, guarded: map[string]bool{}, namespaces: map[string]bool{}}}
	}
	p := newParser(nil)
	if err := p.run(); err != nil {
		return "", nil, err
	}
	if len(p.assigned) > 0 {
		// The first reading found the names each loop assigns; the second
		// writes the loops with them.
		p = newParser(p.assigned)
		if err := p.run(); err != nil {
			return "", nil, err
		}
	}
	p.info.finish()
	p.info.events = p.events
	return p.out.String(), p.info, nil
}

type srcParser struct {
	src          string
	pos          int
	out          strings.Builder
	lineStarting bool
	info         *sourceInfo
	// nl counts the newlines dropped from the source (stripped white
	// space, comments) and not yet written back: they are written inside
	// the next tag, where white space means nothing, so that a line of the
	// written source is the same line of the template and the engine's
	// errors name the template's lines.
	nl int
	// closer is the end of the last tag written, held back so that the
	// newlines dropped after it can go inside it.
	closer string
	// events is the template as the lexer read it (texts after whitespace
	// control, and tags as tokens), for the compiled path (hfc_parse.go).
	events []srcEvent
	// scopes are the open for loops and macros; assigned maps a for tag's
	// offset to the names its body assigns (see loopScopes); loopSets is
	// assigned from an earlier reading, which the loops are written with.
	scopes   []loopScope
	assigned map[int][]string
	loopSets map[int][]string
}

// loopScope is an open for loop (its tag's offset, its targets and the
// names its body assigns) or, with loop false, a macro or call block, whose
// assignments are its own.
type loopScope struct {
	loop     bool
	at       int
	targets  []string
	assigned []string
}

// srcEvent is a text or a tag of the template, as Jinja2's lexer reads it.
type srcEvent struct {
	text  string  // a text (whitespace control applied), when toks is nil
	toks  []token // a tag's tokens
	block bool    // a {% %} tag (else {{ }})
	isTag bool
}

// flush writes the held-back end of the last tag, with the newlines dropped
// since inside it.
func (p *srcParser) flush() {
	if p.closer == "" {
		return
	}
	p.newlines()
	p.out.WriteString(p.closer)
	p.closer = ""
}

// newlines writes the pending newlines (see nl).
func (p *srcParser) newlines() {
	for ; p.nl > 0; p.nl-- {
		p.out.WriteByte('\n')
	}
}

func (p *srcParser) fail(at int, format string, args ...any) *TemplateError {
	line, col := textpos.LineCol(p.src, at)
	return &TemplateError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *srcParser) run() *TemplateError {
	defer p.flush()
	for p.pos < len(p.src) {
		start, kind := p.nextTag(p.pos)
		if start < 0 {
			p.text(p.src[p.pos:])
			p.flush()
			return nil
		}
		text := p.src[p.pos:start]
		opener := start + 2
		mod := byte(0)
		if opener < len(p.src) && (p.src[opener] == '-' || p.src[opener] == '+') {
			mod = p.src[opener]
			opener++
		}
		orig := text
		switch {
		case mod == '-':
			text = strings.TrimRightFunc(text, pyIsSpace)
		case mod != '+' && kind != '{':
			lpos := strings.LastIndexByte(text, '\n') + 1
			if (lpos > 0 || p.lineStarting) && lpos < len(text) && strings.TrimLeftFunc(text[lpos:], pyIsSpace) == "" {
				text = text[:lpos]
			}
		}
		p.nl += strings.Count(orig[len(text):], "\n")
		p.text(text)
		var err *TemplateError
		switch kind {
		case '#':
			err = p.comment(start, opener)
		case '%':
			if m := rawStart(p.src[start:]); m > 0 {
				err = p.raw(start, start+m)
			} else {
				err = p.code(start, opener, "%}")
			}
		default:
			err = p.code(start, opener, "}}")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// nextTag finds the next {{, {% or {# at or after i.
func (p *srcParser) nextTag(i int) (int, byte) {
	for {
		j := strings.IndexByte(p.src[i:], '{')
		if j < 0 || i+j+1 >= len(p.src) {
			return -1, 0
		}
		j += i
		if c := p.src[j+1]; c == '{' || c == '%' || c == '#' {
			return j, c
		}
		i = j + 1
	}
}

// rawStart returns the length of a {% raw %} opener at the start of s, or 0.
func rawStart(s string) int {
	i := 2
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	for i < len(s) && isJinjaSpace(s[i]) {
		i++
	}
	if !strings.HasPrefix(s[i:], "raw") {
		return 0
	}
	i += 3
	for i < len(s) && isJinjaSpace(s[i]) {
		i++
	}
	switch {
	case strings.HasPrefix(s[i:], "-%}"):
		i += 3
		for i < len(s) && isJinjaSpace(s[i]) {
			i++
		}
		return i
	case strings.HasPrefix(s[i:], "%}"):
		return i + 2
	}
	return 0
}

func isJinjaSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// endTag consumes a tag's closer at p.pos (its modifier included) and the
// white space trim_blocks or '-' removes after it.
func (p *srcParser) endTag(mod byte, closer string, block bool) {
	p.pos += len(closer)
	switch {
	case mod == '-':
		rest := strings.TrimLeftFunc(p.src[p.pos:], pyIsSpace)
		consumed := p.src[p.pos : len(p.src)-len(rest)]
		p.pos += len(consumed)
		p.lineStarting = strings.HasSuffix(consumed, "\n")
		p.nl += strings.Count(consumed, "\n")
	case mod != '+' && block && p.pos < len(p.src) && p.src[p.pos] == '\n':
		p.pos++
		p.lineStarting = true
		p.nl++
	default:
		p.lineStarting = false
	}
}

func (p *srcParser) comment(start, opener int) *TemplateError {
	end := strings.Index(p.src[opener:], "#}")
	if end < 0 {
		return p.fail(start, "missing end of comment tag")
	}
	end += opener
	mod := byte(0)
	if end > opener && (p.src[end-1] == '-' || p.src[end-1] == '+') {
		mod = p.src[end-1]
	}
	p.nl += strings.Count(p.src[start:end], "\n")
	p.pos = end
	p.endTag(mod, "#}", true)
	return nil
}

func (p *srcParser) raw(start, bodyStart int) *TemplateError {
	i := bodyStart
	for {
		j := strings.Index(p.src[i:], "{%")
		if j < 0 {
			return p.fail(bodyStart, "missing end of raw directive")
		}
		j += i
		k := j + 2
		mod := byte(0)
		if k < len(p.src) && (p.src[k] == '-' || p.src[k] == '+') {
			mod = p.src[k]
			k++
		}
		for k < len(p.src) && isJinjaSpace(p.src[k]) {
			k++
		}
		if !strings.HasPrefix(p.src[k:], "endraw") {
			i = j + 2
			continue
		}
		k += len("endraw")
		for k < len(p.src) && isJinjaSpace(p.src[k]) {
			k++
		}
		endMod := byte(0)
		if k < len(p.src) && (p.src[k] == '-' || p.src[k] == '+') {
			endMod = p.src[k]
			k++
		}
		if !strings.HasPrefix(p.src[k:], "%}") {
			i = j + 2
			continue
		}
		body := p.src[bodyStart:j]
		p.nl += strings.Count(p.src[start:bodyStart], "\n") + strings.Count(p.src[j:k], "\n")
		orig := body
		switch {
		case mod == '-':
			body = strings.TrimRightFunc(body, pyIsSpace)
		case mod != '+':
			lpos := strings.LastIndexByte(body, '\n') + 1
			if lpos > 0 && lpos < len(body) && strings.TrimLeftFunc(body[lpos:], pyIsSpace) == "" {
				body = body[:lpos]
			}
		}
		p.nl += strings.Count(orig[len(body):], "\n")
		if body != "" {
			p.events = append(p.events, srcEvent{text: body})
		}
		p.expr(body)
		p.pos = k
		p.endTag(endMod, "%}", true)
		return nil
	}
}

// text writes template text: its white space ends as string expressions.
func (p *srcParser) text(s string) {
	if s == "" {
		return
	}
	p.events = append(p.events, srcEvent{text: s})
	core := strings.TrimLeftFunc(s, pyIsSpace)
	lead := s[:len(s)-len(core)]
	rest := strings.TrimRightFunc(core, pyIsSpace)
	trail := core[len(rest):]
	if strings.HasSuffix(rest, "{") { // it would open a tag with what follows
		rest, trail = rest[:len(rest)-1], "{"+trail
	}
	p.expr(lead)
	if rest != "" {
		p.flush()
		p.out.WriteString(rest)
	}
	p.expr(trail)
}

// expr writes s as a string expression.
func (p *srcParser) expr(s string) {
	if s == "" {
		return
	}
	p.flush()
	p.out.WriteString("{{ ")
	p.newlines()
	writeLiteral(&p.out, s)
	p.closer = " }}"
}

// writeLiteral writes s as a string literal the engine decodes back to s,
// newlines as they are, so that lines stay where they were.
func writeLiteral(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\t':
			b.WriteString(`\t`)
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// code copies a {{ }} or {% %} tag, with its modifiers removed, its string
// literals re-encoded and its tojson filters renamed, and records what
// sourceInfo needs.
func (p *srcParser) code(start, opener int, closer string) *TemplateError {
	block := closer == "%}"
	var toks []token
	depth := 0
	i := opener
	for {
		if i >= len(p.src) {
			return p.fail(start, "unclosed tag")
		}
		c := p.src[i]
		if depth == 0 {
			if len(toks) == 0 && (strings.HasPrefix(p.src[i:], closer) || (c == '-' || c == '+') && strings.HasPrefix(p.src[i+1:], closer)) {
				if block {
					return p.fail(start, "tag name expected")
				}
				return p.fail(start, "expected an expression, got the end of the print statement")
			}
			if (c == '-' || c == '+') && strings.HasPrefix(p.src[i+1:], closer) && (c == '-' || block) {
				p.pos = i + 1
				p.emitCode(start, toks, closer)
				p.endTag(c, closer, block)
				return nil
			}
			if strings.HasPrefix(p.src[i:], closer) {
				p.pos = i
				p.emitCode(start, toks, closer)
				p.endTag(0, closer, block)
				return nil
			}
		}
		switch {
		case isJinjaSpace(c):
			i++
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(p.src) && p.src[j] != c {
				if p.src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(p.src) {
				return p.fail(i, "unterminated string")
			}
			val, err := pyUnescape(p.src[i+1 : j])
			if err != nil {
				return p.fail(i, "%v", err)
			}
			toks = append(toks, token{kind: tokStr, text: val, quote: c, start: i, end: j + 1})
			i = j + 1
		case isIdentStart(c) || c >= utf8.RuneSelf:
			j := i
			for j < len(p.src) && (isIdentChar(p.src[j]) || p.src[j] >= utf8.RuneSelf) {
				j++
			}
			toks = append(toks, token{kind: tokName, text: p.src[i:j], start: i, end: j})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(p.src) && (isIdentChar(p.src[j]) || p.src[j] == '.') {
				j++
			}
			toks = append(toks, token{kind: tokOther, text: p.src[i:j], start: i, end: j})
			i = j
		default:
			op := string(c)
			if i+1 < len(p.src) {
				switch two := p.src[i : i+2]; two {
				case "**", "//", "==", "!=", "<=", ">=":
					op = two
				}
			}
			switch c {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth > 0 {
					depth--
				}
			}
			toks = append(toks, token{kind: tokOther, text: op, start: i, end: i + len(op)})
			i += len(op)
		}
	}
}

type tokKind uint8

const (
	tokName tokKind = iota
	tokStr
	tokOther
)

type token struct {
	kind       tokKind
	text       string
	quote      byte
	start, end int // in the source
}

func (p *srcParser) emitCode(start int, toks []token, closer string) {
	p.info.scan(toks, closer == "%}")
	if closer == "%}" {
		p.loopScopes(start, toks)
	}
	p.events = append(p.events, srcEvent{toks: toks, block: closer == "%}", isTag: true})
	// Renamed filters and methods (see hfjinja.go): text to write in place
	// of a token, and opening parentheses to write before one.
	replace := map[int]string{}
	open := map[int]int{}
	for i, t := range toks {
		switch {
		case t.kind == tokName && i > 0 && toks[i-1].text == "|" && (t.text == "tojson" || t.text == "trim"):
			replace[i] = renamedFilter[t.text]
		case t.text == "." && tokAt(toks, i+2).text == "(" && renamedMethod[tokAt(toks, i+1).text] != "":
			end := closeParen(toks, i+2)
			begin := chainStart(toks, i-1)
			if end < 0 || begin < 0 {
				continue
			}
			open[begin]++
			replace[i] = "|"
			replace[i+1] = renamedMethod[toks[i+1].text]
			replace[end] = "))"
		}
	}
	// White space at the ends of the tag's code is not copied; its
	// newlines are kept (see nl).
	lead, trail := strings.Count(p.src[start+2:p.pos], "\n"), 0
	if len(toks) > 0 {
		lead = strings.Count(p.src[start+2:toks[0].start], "\n")
		trail = strings.Count(p.src[toks[len(toks)-1].end:p.pos], "\n")
	}
	p.flush()
	saved := p.loopSets[start] // only a for tag's offset has names
	for _, name := range saved {
		fmt.Fprintf(&p.out, "{%% set %s = %s %%}", savedName(start, name), name)
	}
	p.out.WriteString(p.src[start : start+2])
	p.out.WriteByte(' ')
	p.nl += lead
	p.newlines()
	for i, t := range toks {
		if i > 0 {
			p.out.WriteString(p.src[toks[i-1].end:t.start])
		}
		for range open[i] {
			p.out.WriteByte('(')
		}
		if r, ok := replace[i]; ok {
			p.out.WriteString(r)
			continue
		}
		if t.kind == tokStr {
			writeQuoted(&p.out, t.text, t.quote)
			p.nl += strings.Count(p.src[t.start:t.end], "\n")
		} else {
			p.out.WriteString(t.text)
		}
	}
	p.nl += trail
	p.closer = " " + closer
	for _, name := range saved {
		p.closer += fmt.Sprintf("{%% set %s = %s %%}", name, savedName(start, name))
	}
}

// loopScopes follows the for loops, macros and call blocks a block tag
// opens and closes, and records the names each loop's body assigns (not
// its targets, not inside a nested loop or macro): in Jinja2 every
// iteration starts with such a name as it was before the loop, and what an
// iteration assigns is gone in the next one and after the loop. The engine
// ends the loop's scope after the loop but not between iterations, so
// prepareSource writes each such name's value before the loop into a name
// of its own (savedName) and sets the name to it at the start of the body.
func (p *srcParser) loopScopes(start int, toks []token) {
	if len(toks) == 0 {
		return
	}
	switch toks[0].text {
	case "for":
		s := loopScope{loop: true, at: start}
		for _, t := range toks[1:] {
			if t.text == "in" {
				break
			}
			if t.kind == tokName {
				s.targets = append(s.targets, t.text)
			}
		}
		p.scopes = append(p.scopes, s)
	case "macro", "call":
		p.scopes = append(p.scopes, loopScope{})
	case "endfor", "endmacro", "endcall":
		if len(p.scopes) == 0 {
			return
		}
		s := p.scopes[len(p.scopes)-1]
		p.scopes = p.scopes[:len(p.scopes)-1]
		if s.loop && len(s.assigned) > 0 {
			if p.assigned == nil {
				p.assigned = map[int][]string{}
			}
			p.assigned[s.at] = s.assigned
		}
	case "set":
		if len(p.scopes) == 0 || !p.scopes[len(p.scopes)-1].loop {
			return
		}
		s := &p.scopes[len(p.scopes)-1]
		for i := 1; i < len(toks) && toks[i].kind == tokName; i += 2 {
			if next := tokAt(toks, i+1).text; next != "," && next != "=" && next != "" {
				break // an attribute of a namespace
			}
			if name := toks[i].text; name != "loop" && !slices.Contains(s.targets, name) && !slices.Contains(s.assigned, name) {
				s.assigned = append(s.assigned, name)
			}
			if tokAt(toks, i+1).text != "," {
				break
			}
		}
	}
}

// savedName is the name prepareSource keeps a loop's assigned name's value
// from before the loop in (see loopScopes).
func savedName(at int, name string) string {
	return "rolemark_loop" + strconv.Itoa(at) + "_" + name
}

var (
	renamedFilter = map[string]string{"tojson": tojsonName, "trim": trimName}
	renamedMethod = map[string]string{"strip": trimName, "lstrip": lstripName, "rstrip": rstripName}
)

// closeParen returns the index of the ')' that closes toks[i], or -1.
func closeParen(toks []token, i int) int {
	depth := 0
	for ; i < len(toks); i++ {
		switch toks[i].text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// chainStart returns the index of the first token of the primary
// expression (a name or literal with its attributes, subscripts and calls)
// that ends at toks[i], or -1.
func chainStart(toks []token, i int) int {
	for i >= 0 {
		switch t := toks[i]; {
		case t.text == ")" || t.text == "]":
			depth := 0
			for ; i >= 0; i-- {
				switch toks[i].text {
				case ")", "]", "}":
					depth++
				case "(", "[", "{":
					depth--
				}
				if depth == 0 {
					break
				}
			}
			if i < 0 {
				return -1
			}
			// A call or subscript continues the chain; a parenthesised
			// expression or list literal starts it.
			if b := tokAt(toks, i-1); b.kind == tokName || b.text == ")" || b.text == "]" || b.kind == tokStr {
				i--
				continue
			}
			return i
		case t.kind == tokName || t.kind == tokStr || t.kind == tokOther && t.text != "" && t.text[0] >= '0' && t.text[0] <= '9':
			if tokAt(toks, i-1).text == "." {
				i -= 2
				continue
			}
			return i
		default:
			return -1
		}
	}
	return -1
}

func writeQuoted(b *strings.Builder, s string, quote byte) {
	b.WriteByte(quote)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\\':
			b.WriteString(`\\`)
		case '\'', '"':
			if c == quote {
				b.WriteByte('\\')
			}
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(quote)
}

// pyUnescape decodes a Jinja2 string literal's body as Python's
// unicode-escape codec does.
func pyUnescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case '\n':
		case '\\', '\'', '"':
			b.WriteByte(e)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+1+n > len(s) {
				return "", fmt.Errorf("truncated \\%c escape in a string", e)
			}
			v, err := strconv.ParseUint(s[i+1:i+1+n], 16, 32)
			if err != nil {
				return "", fmt.Errorf("bad \\%c escape in a string", e)
			}
			b.WriteRune(rune(v))
			i += n
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 32)
			b.WriteRune(rune(v))
			i = j - 1
		case 'N':
			return "", fmt.Errorf("\\N{…} escapes are not supported")
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), nil
}

// sourceInfo is what a template does that the engine does not do as
// Python does, found in its code:
//
//   - handlesParts: the template tests whether content is a string or
//     names image parts ('image', 'image_url', 'video'), and joins content
//     to text with '+' no more often than it tests it. Otherwise it treats
//     content as a string somewhere, and Python fails (str + list) or
//     prints the list's repr.
//   - concatArgs: the template joins a tool call's arguments to a string
//     with '+' and never tests their type; transformers passes a mapping,
//     and Python fails (str + dict).
//   - concatNames: names joined with '+' that the template never defines;
//     Python fails when the caller does not supply them (Undefined + str).
type sourceInfo struct {
	handlesParts bool
	// Counted to decide handlesParts.
	contentTests, contentConcats int
	imageLiteral                 bool
	concatArgs                   bool
	typedArgs                    bool
	concatNames                  []string
	defined                      map[string]bool
	used                         map[string]bool
	input                        map[string]bool
	guarded                      map[string]bool
	namespaces                   map[string]bool
	// refused says why the template cannot be rendered as Jinja2 does.
	refused string
	// events is the template as the lexer read it (see srcEvent).
	events []srcEvent
	// firstContentText: the template reads messages[0]['content'][0]['text'],
	// which Python refuses on a string content when it concatenates it.
	firstContentText, firstContentTested bool
}

func (si *sourceInfo) scan(toks []token, block bool) {
	if si.used == nil {
		si.used = map[string]bool{}
	}
	for i, t := range toks {
		prev, next := tokAt(toks, i-1), tokAt(toks, i+1)
		if t.text == "." && next.kind == tokName && mutators[next.text] && tokAt(toks, i+2).text == "(" && si.refused == "" {
			si.refused = "the template calls ." + next.text + "(), which changes a list or dict; transformers' immutable sandbox refuses it (SecurityError)"
		}
		if t.kind == tokName && (next.text == "is" && (tokAt(toks, i+2).text == "defined" ||
			tokAt(toks, i+3).text == "defined" || tokAt(toks, i+2).text == "undefined") || prev.text == "if" || prev.text == "elif") {
			si.guarded[t.text] = true // tested, so the template guards its use
		}
		if t.text == "messages" {
			switch chain, end := chainText(toks, i); {
			case chain == "messages[0][content][0][text]":
				si.firstContentText = true
			case chain == "messages[0][content]" && tokAt(toks, end).text == "is":
				si.firstContentTested = true
			}
		}
		switch {
		case t.kind == tokName && t.text == "is" && (next.text == "string" || next.text == "iterable" ||
			next.text == "sequence" || next.text == "mapping" || (next.text == "not" && tokAt(toks, i+2).text == "string")):
			tested := prev.text
			if prev.text == "]" {
				tested = tokAt(toks, i-2).text
			}
			switch tested {
			case "arguments":
				si.typedArgs = true
			case "content":
				if next.text == "string" || tokAt(toks, i+2).text == "string" {
					si.contentTests++
				}
			}
		case t.kind == tokStr && (t.text == "image" || t.text == "image_url" || t.text == "video"):
			si.imageLiteral = true
		case t.text == "+":
			last := prev
			if prev.text == "]" {
				last = tokAt(toks, i-2)
			}
			if last.text == "arguments" || chainEnd(toks, i+1) == "arguments" {
				si.concatArgs = true
			}
			if last.text == "content" || chainEnd(toks, i+1) == "content" {
				si.contentConcats++
			}
			if before := tokAt(toks, i-2).text; prev.kind == tokName && before != "." && before != "|" && before != "is" && before != "not" && !isKeyword(prev.text) {
				si.used[prev.text] = true
			}
			if after := tokAt(toks, i+2).text; next.kind == tokName && after != "." && after != "[" && after != "(" && !isKeyword(next.text) {
				si.used[next.text] = true
			}
		}
	}
	if !block || len(toks) == 0 {
		return
	}
	switch toks[0].text {
	case "if", "elif":
		// A name a condition reads before the template sets it is an input.
		for i, t := range toks[1:] {
			if b := tokAt(toks, i); t.kind == tokName && b.text != "." && b.text != "|" && b.text != "is" &&
				!isKeyword(t.text) && !si.defined[t.text] && tokAt(toks, i+2).text != "(" {
				si.input[t.text] = true
			}
		}
	case "set":
		if len(toks) > 1 && !si.input[toks[1].text] {
			si.defined[toks[1].text] = true
		}
		if len(toks) > 3 && toks[2].text == "=" && toks[3].text == "namespace" {
			si.namespaces[toks[1].text] = true
		}
		if len(toks) > 2 && toks[2].text == "." && !si.namespaces[toks[1].text] && si.refused == "" {
			si.refused = "the template assigns an attribute of " + toks[1].text + ", which is not a namespace(); Jinja2 refuses it"
		}
	case "for":
		for _, t := range toks[1:] {
			if t.text == "in" {
				break
			}
			si.defined[t.text] = true
		}
	case "macro":
		for _, t := range toks[1:] {
			if t.kind == tokName {
				si.defined[t.text] = true
			}
		}
	}
}

func (si *sourceInfo) finish() {
	si.handlesParts = (si.contentTests > 0 || si.imageLiteral) && si.contentConcats <= si.contentTests
	if si.typedArgs {
		si.concatArgs = false
	}
	for name := range si.used {
		if (!si.defined[name] || si.input[name]) && !si.guarded[name] && !templateGlobals[name] {
			si.concatNames = append(si.concatNames, name)
		}
	}
	si.used = nil
}

// mutators are the list and dict methods the immutable sandbox refuses.
var mutators = map[string]bool{"append": true, "extend": true, "insert": true, "pop": true, "popitem": true, "remove": true,
	"clear": true, "update": true, "setdefault": true, "sort": true, "reverse": true, "add": true, "discard": true}

// chainText spells the subscript chain starting at toks[i] as
// name[key][key]…, attribute access written as subscripts.
func chainText(toks []token, i int) (string, int) {
	var b strings.Builder
	b.WriteString(toks[i].text)
	for i++; i < len(toks); {
		switch {
		case toks[i].text == "." && tokAt(toks, i+1).kind == tokName:
			b.WriteString("[" + toks[i+1].text + "]")
			i += 2
		case toks[i].text == "[" && tokAt(toks, i+2).text == "]":
			b.WriteString("[" + toks[i+1].text + "]")
			i += 3
		default:
			return b.String(), i
		}
	}
	return b.String(), i
}

// chainEnd returns the last name or key of the attribute chain starting at
// toks[i] (a.b['c'].d gives "d").
func chainEnd(toks []token, i int) string {
	last := ""
	for i < len(toks) {
		t := toks[i]
		switch {
		case t.kind == tokName && last == "" || t.kind == tokName && tokAt(toks, i-1).text == ".":
			last = t.text
			i++
		case t.text == "." && last != "":
			i++
		case t.text == "[" && last != "" && tokAt(toks, i+2).text == "]":
			last = toks[i+1].text
			i += 3
		default:
			return last
		}
	}
	return last
}

func tokAt(toks []token, i int) token {
	if i < 0 || i >= len(toks) {
		return token{kind: tokOther}
	}
	return toks[i]
}

func isKeyword(s string) bool {
	switch s {
	case "and", "or", "not", "in", "is", "if", "else", "true", "false", "none", "True", "False", "None", "loop":
		return true
	}
	return false
}

// templateGlobals are the names every rendering supplies.
var templateGlobals = map[string]bool{
	"messages": true, "tools": true, "documents": true, "add_generation_prompt": true,
	"raise_exception": true, "strftime_now": true, "range": true, "namespace": true, "dict": true,
	"joiner": true, "cycler": true, "loop": true, "caller": true, "varargs": true, "kwargs": true,
}

// check refuses a rendering the engine would do differently from Jinja2,
// as sourceInfo describes. What the code only may do (join a list content,
// mapping arguments or an undefined name to a string) is settled by a
// probe: the template is rendered once with each suspect value replaced by
// a sentinel string, and a sentinel that comes out as raw text shows that
// the value was used as text on this conversation's path, where Python
// raises (or prints a repr). Otherwise the real rendering goes ahead.
func (si *sourceInfo) check(jt *jinja.Template, msgs []chat.Message, data map[string]jinja.Value) *TemplateError {
	if si.firstContentText && !si.firstContentTested && len(msgs) > 0 && msgs[0].Role == chat.RoleSystem && msgs[0].TextOnly() {
		return &TemplateError{Msg: "the template reads messages[0]['content'][0]['text'], and the system message's content is a string " +
			"(Jinja2 raises UndefinedError); pass it as a text part"}
	}
	type suspect struct{ sentinel, msg string }
	var suspects []suspect
	sentinel := func() string { return "\x00rolemark-probe-" + strconv.Itoa(len(suspects)) + "\x00" }
	var probe probeValues
	if !si.handlesParts {
		for i := range msgs {
			if msgs[i].TextOnly() {
				continue
			}
			part := "text"
			for _, p := range msgs[i].Content {
				if p.Type != chat.PartText {
					part = string(p.Type)
					break
				}
			}
			probe.content = sentinel()
			suspects = append(suspects, suspect{probe.content, fmt.Sprintf("message %d has content parts (%s), "+
				"and the template uses content as a string (Jinja2 raises TypeError or prints the list)", i, part)})
			break
		}
	}
	if si.concatArgs {
	calls:
		for i := range msgs {
			for _, c := range msgs[i].ToolCalls {
				if v, err := pyjson.Parse(c.Arguments); err == nil && (v.Kind == pyjson.Object || v.Kind == pyjson.Array) {
					probe.arguments = sentinel()
					suspects = append(suspects, suspect{probe.arguments, fmt.Sprintf("message %d: the template joins tool call "+
						"arguments to text with '+', but they are a mapping, as transformers passes them (Jinja2 raises TypeError)", i)})
					break calls
				}
			}
		}
	}
	var names map[string]jinja.Value
	for _, name := range si.concatNames {
		if _, ok := data[name]; !ok {
			if names == nil {
				names = map[string]jinja.Value{}
			}
			names[name] = jinja.NewString(sentinel())
			suspects = append(suspects, suspect{names[name].AsString(), fmt.Sprintf("the template joins %s to text with '+', "+
				"and %s is undefined (Jinja2 raises UndefinedError); supply it as a variable", name, name)})
		}
	}
	if len(suspects) == 0 {
		return nil
	}
	pd := make(map[string]jinja.Value, len(data)+len(names))
	maps.Copy(pd, data)
	maps.Copy(pd, names)
	if probe.content != "" || probe.arguments != "" {
		mv, err := messagesProbe(msgs, &probe)
		if err != nil {
			return &TemplateError{Msg: err.Error()}
		}
		pd["messages"] = mv
	}
	out, err := renderJinja(jt, pd)
	if err != nil {
		var te *TemplateError
		if errors.As(err, &te) && te.Raised {
			return te // the template refuses the conversation anyway
		}
		return &TemplateError{Msg: suspects[0].msg + " (" + err.Error() + ")"}
	}
	for _, s := range suspects {
		if strings.Contains(out, s.sentinel) {
			return &TemplateError{Msg: s.msg}
		}
	}
	return nil
}
