package jinja2

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The lexer: jinja2/lexer.py's Lexer, written as a state machine instead
// of regular expressions. It yields the tokens the parser reads (comments
// and whitespace dropped, raw blocks as data), each with its place.

type tokKind uint8

const (
	tEOF tokKind = iota
	tData
	tBlockBegin
	tBlockEnd
	tVarBegin
	tVarEnd
	tName
	tString
	tInt
	tFloat
	tOp
)

// token is one token. For tString, val is the unescaped string; for tInt
// and tFloat, val is the literal without underscores; for tOp, the
// operator.
type token struct {
	kind tokKind
	val  string
	off  int // byte offset in the normalized source
}

// Pos is a place in a template: 1-based line, column in runes.
type Pos struct {
	Line, Col int
}

// source is a template's normalized text and where its lines start.
type source struct {
	name  string
	text  string
	lines []int // byte offsets of line starts
	// last is the place pos computed last, at byte offset lastOff on the
	// line that starts at lines[last.Line-1]: the lexer and the parser ask
	// for places near the one before, so a place on the same line counts
	// the runes from there, forward or back, not from the line's start (a
	// template of one long line took time quadratic in its length). Only
	// the lexer and the parser call pos.
	last    Pos
	lastOff int
	// lead is how many characters the text starts with that the author
	// did not give Jinja2 (a file's front matter, kept as blank lines so
	// that lines are the file's): the character offsets of Jinja2's
	// messages count from after them, in the body a Python user renders.
	lead int
}

func newSource(name, text string) *source {
	s := &source{name: name, text: text, lines: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			s.lines = append(s.lines, i+1)
		}
	}
	return s
}

// pos returns the place of byte offset off.
func (s *source) pos(off int) Pos {
	if off > len(s.text) {
		off = len(s.text)
	}
	if l := s.last.Line; l > 0 && off >= s.lines[l-1] && (l == len(s.lines) || off < s.lines[l]) {
		if off >= s.lastOff {
			s.last.Col += utf8.RuneCountInString(s.text[s.lastOff:off])
		} else {
			s.last.Col -= utf8.RuneCountInString(s.text[off:s.lastOff])
		}
		s.lastOff = off
		return s.last
	}
	lo, hi := 0, len(s.lines)
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if s.lines[m] <= off {
			lo = m
		} else {
			hi = m
		}
	}
	s.last = Pos{Line: lo + 1, Col: utf8.RuneCountInString(s.text[s.lines[lo]:off]) + 1}
	s.lastOff = off
	return s.last
}

// normalizeNewlines turns \r\n and \r into \n and drops one final
// newline unless keep is set, as Lexer.tokeniter does.
func normalizeNewlines(src string, keep bool) string {
	if strings.IndexByte(src, '\r') >= 0 {
		src = strings.ReplaceAll(src, "\r\n", "\n")
		src = strings.ReplaceAll(src, "\r", "\n")
	}
	if !keep && strings.HasSuffix(src, "\n") {
		src = src[:len(src)-1]
	}
	return src
}

// isPySpace is Python's str.isspace for one rune (and re's \s).
func isPySpace(r rune) bool {
	switch {
	case r == ' ' || (r >= '\t' && r <= '\r') || (r >= 0x1c && r <= 0x1f):
		return true
	case r < 0x80:
		return false
	case r == 0x85 || r == 0xa0 || r == 0x1680 || (r >= 0x2000 && r <= 0x200a) ||
		r == 0x2028 || r == 0x2029 || r == 0x202f || r == 0x205f || r == 0x3000:
		return true
	}
	return false
}

func rstripPy(s string) string {
	for len(s) > 0 {
		r, n := utf8.DecodeLastRuneInString(s)
		if !isPySpace(r) {
			break
		}
		s = s[:len(s)-n]
	}
	return s
}

// skipSpace returns the offset of the first non-space at or after i.
func skipSpace(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !isPySpace(r) {
			break
		}
		i += n
	}
	return i
}

type lexer struct {
	src          *source
	s            string
	pos          int
	toks         []token
	trimBlocks   bool
	lstripBlocks bool
	lineStarting bool
}

func (lx *lexer) fail(off int, msg string) error {
	p := lx.src.pos(off)
	return &Error{Kind: "TemplateSyntaxError", Msg: msg, Name: lx.src.name, Line: p.Line, Col: p.Col}
}

func (lx *lexer) emit(k tokKind, val string, off int) {
	lx.toks = append(lx.toks, token{kind: k, val: val, off: off})
}

// tokenize lexes src (already normalized) into tokens ending with tEOF.
// Where the source does not lex, it returns the error with the tokens
// before it, ended by a tEOF where it failed: Jinja2's lexer is a
// generator, so its parser raises an error it meets in those tokens first,
// and the lexer's error only once the parser asks for the token after them
// (parseTree).
func tokenize(src *source, trimBlocks, lstripBlocks bool) ([]token, error) {
	lx := &lexer{src: src, s: src.text, trimBlocks: trimBlocks, lstripBlocks: lstripBlocks, lineStarting: true}
	lx.toks = make([]token, 0, len(src.text)/8+4)
	if err := lx.run(); err != nil {
		lx.emit(tEOF, "", lx.pos)
		return lx.toks, err
	}
	// Jinja2 reports the end of the template at the line where its last
	// token starts.
	end := 0
	if n := len(lx.toks); n > 0 {
		end = lx.toks[n-1].off
	}
	lx.emit(tEOF, "", end)
	return lx.toks, nil
}

// findTag returns the offset of the next {{, {% or {# at or after i, or -1.
func findTag(s string, i int) int {
	for {
		j := strings.IndexByte(s[i:], '{')
		if j < 0 {
			return -1
		}
		j += i
		if j+1 < len(s) && (s[j+1] == '{' || s[j+1] == '%' || s[j+1] == '#') {
			return j
		}
		i = j + 1
	}
}

// stripText applies whitespace control to the text before a tag: sign is
// '-', '+' or 0; variable says the tag is {{.
func (lx *lexer) stripText(text string, sign byte, variable bool) string {
	if sign == '-' {
		return rstripPy(text)
	}
	if sign != '+' && lx.lstripBlocks && !variable {
		lpos := strings.LastIndexByte(text, '\n') + 1
		if lpos > 0 || lx.lineStarting {
			rest := text[lpos:]
			if rest != "" && skipSpace(rest, 0) == len(rest) {
				return text[:lpos]
			}
		}
	}
	return text
}

// matchRaw matches {%[-+]?\s*raw\s*(-%}\s*|%}) at i; it returns the end
// and the sign.
func (lx *lexer) matchRaw(i int) (end int, sign byte, ok bool) {
	s := lx.s
	j := i + 2
	if j < len(s) && (s[j] == '-' || s[j] == '+') {
		sign = s[j]
		j++
	}
	j = skipSpace(s, j)
	if !strings.HasPrefix(s[j:], "raw") {
		return 0, 0, false
	}
	j = skipSpace(s, j+3)
	if strings.HasPrefix(s[j:], "-%}") {
		return skipSpace(s, j+3), sign, true
	}
	if strings.HasPrefix(s[j:], "%}") {
		return j + 2, sign, true
	}
	return 0, 0, false
}

func (lx *lexer) setLineStarting(end int) {
	lx.lineStarting = end > 0 && lx.s[end-1] == '\n'
}

func (lx *lexer) run() error {
	s := lx.s
	for lx.pos < len(s) {
		start := lx.pos
		t := findTag(s, start)
		if t < 0 {
			lx.emit(tData, s[start:], start)
			lx.pos = len(s)
			return nil
		}
		text := s[start:t]
		// raw block
		if s[t+1] == '%' {
			if end, sign, ok := lx.matchRaw(t); ok {
				text = lx.stripText(text, sign, false)
				if text != "" {
					lx.emit(tData, text, start)
				}
				lx.setLineStarting(end)
				if err := lx.raw(t, end); err != nil {
					return err
				}
				continue
			}
		}
		j := t + 2
		var sign byte
		if j < len(s) && (s[j] == '-' || s[j] == '+') {
			sign = s[j]
			j++
		}
		text = lx.stripText(text, sign, s[t+1] == '{')
		if text != "" {
			lx.emit(tData, text, start)
		}
		lx.setLineStarting(j)
		lx.pos = j
		var err error
		switch s[t+1] {
		case '#':
			err = lx.comment(t)
		case '%':
			lx.emit(tBlockBegin, "", t)
			err = lx.tag(true)
		default:
			lx.emit(tVarBegin, "", t)
			err = lx.tag(false)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// raw lexes the body of {% raw %} starting at i (the tag began at begin).
// A raw tag that ends the source is no error: Jinja2's lexer stops at the
// end of the source before it looks for the endraw.
func (lx *lexer) raw(begin, i int) error {
	s := lx.s
	if i >= len(s) {
		lx.pos = i
		return nil
	}
	for k := i; ; {
		t := strings.Index(s[k:], "{%")
		if t < 0 {
			return lx.fail(begin, "Missing end of raw directive")
		}
		t += k
		j := t + 2
		var sign byte
		if j < len(s) && (s[j] == '-' || s[j] == '+') {
			sign = s[j]
			j++
		}
		j = skipSpace(s, j)
		if !strings.HasPrefix(s[j:], "endraw") {
			k = t + 2
			continue
		}
		j = skipSpace(s, j+6)
		end := -1
		switch {
		case strings.HasPrefix(s[j:], "+%}"):
			end = j + 3
		case strings.HasPrefix(s[j:], "-%}"):
			end = skipSpace(s, j+3)
		case strings.HasPrefix(s[j:], "%}"):
			end = j + 2
			if lx.trimBlocks && end < len(s) && s[end] == '\n' {
				end++
			}
		}
		if end < 0 {
			k = t + 2
			continue
		}
		text := lx.stripText(s[i:t], sign, false)
		if text != "" {
			lx.emit(tData, text, i)
		}
		lx.setLineStarting(end)
		lx.pos = end
		return nil
	}
}

// comment skips a comment whose {# is at begin; lx.pos is after {# (and
// its sign). A {# that ends the source is no error, as in Jinja2, whose
// lexer stops at the end before it looks for the #}.
func (lx *lexer) comment(begin int) error {
	s := lx.s
	if lx.pos >= len(s) {
		return nil
	}
	k := strings.Index(s[lx.pos:], "#}")
	if k < 0 {
		return lx.fail(begin, "Missing end of comment tag")
	}
	k += lx.pos
	var mark byte
	if k > lx.pos {
		mark = s[k-1]
	}
	end := lx.afterTag(k+2, mark, true)
	lx.setLineStarting(end)
	lx.pos = end
	return nil
}

// afterTag returns where the text resumes after a tag whose closing
// delimiter ends at end, mark being the byte before that delimiter: a "-"
// strips the whitespace that follows, a "+" keeps it, and otherwise
// trim_blocks drops one newline where trim (a block or a comment).
func (lx *lexer) afterTag(end int, mark byte, trim bool) int {
	s := lx.s
	switch {
	case mark == '-':
		return skipSpace(s, end)
	case mark == '+' || !trim:
		return end
	case lx.trimBlocks && end < len(s) && s[end] == '\n':
		return end + 1
	}
	return end
}

// operators, longest first where one is a prefix of another.
var jinjaOps = []string{"//", "**", "==", "!=", ">=", "<=", "+", "-", "/", "*", "%", "~", "[", "]", "(", ")", "{", "}", ">", "<", "=", ".", ":", "|", ",", ";"}

// tag lexes the inside of {% %} (block) or {{ }} up to its end.
func (lx *lexer) tag(block bool) error {
	s := lx.s
	var balance []byte
	for {
		i := lx.pos
		if i >= len(s) {
			return nil // the parser reports the missing end
		}
		if c := s[i]; len(balance) == 0 && (c == '}' || c == '%' || c == '-' || c == '+') && lx.tagEnd(i, block) {
			return nil
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if isPySpace(r) {
			lx.pos = skipSpace(s, i)
			continue
		}
		if end, ok, err := lx.number(i); err != nil {
			return err
		} else if ok {
			lx.pos = end
			continue
		}
		if isIdentStart(r) {
			j := i + n
			for j < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[j:])
				if !isIdentCont(r2) {
					break
				}
				j += n2
			}
			lx.emit(tName, s[i:j], i)
			lx.pos = j
			continue
		}
		var err error
		if r == '\'' || r == '"' {
			err = lx.str(i, r)
		} else {
			balance, err = lx.op(i, r, balance)
		}
		if err != nil {
			return err
		}
	}
}

// tagEnd lexes the end of a tag at i, with its "-" or "+" (in a block)
// before it, when it is there, and reports whether it was.
func (lx *lexer) tagEnd(i int, block bool) bool {
	s := lx.s
	closer, kind := "}}", tVarEnd
	if block {
		closer, kind = "%}", tBlockEnd
	}
	at, mark := i, byte(0) // mark: a "-" before the closer, or a "+" in a block
	if c := s[i]; c == '-' || (block && c == '+') {
		at, mark = i+1, c
	}
	if !strings.HasPrefix(s[at:], closer) {
		return false
	}
	lx.emit(kind, "", i)
	lx.pos = lx.afterTag(at+2, mark, block)
	lx.setLineStarting(lx.pos)
	return true
}

// str lexes a string literal at i, quoted by r.
func (lx *lexer) str(i int, r rune) error {
	s := lx.s
	j := i + 1
	for j < len(s) && s[j] != byte(r) {
		if s[j] == '\\' {
			j++
		}
		j++
	}
	if j >= len(s) {
		return lx.unexpectedChar(i, r)
	}
	v, err := unescapePy(s[i+1 : j])
	if err != nil {
		return lx.fail(i, err.Error())
	}
	lx.emit(tString, v, i)
	lx.pos = j + 1
	return nil
}

// op lexes an operator at i, whose first character is r, keeping
// balance, the closers the brackets open so far want; anything else
// there is an error.
func (lx *lexer) op(i int, r rune, balance []byte) ([]byte, error) {
	s := lx.s
	op := ""
	for _, o := range jinjaOps {
		if strings.HasPrefix(s[i:], o) {
			op = o
			break
		}
	}
	if op == "" {
		if isNameChar(r) {
			return balance, lx.fail(i, "Invalid character in identifier")
		}
		return balance, lx.unexpectedChar(i, r)
	}
	switch op {
	case "{", "(", "[":
		balance = append(balance, closing(op[0]))
	case "}", ")", "]":
		if len(balance) == 0 {
			return balance, lx.fail(i, "unexpected '"+op+"'")
		}
		want := balance[len(balance)-1]
		balance = balance[:len(balance)-1]
		if want != op[0] {
			return balance, lx.fail(i, "unexpected '"+op+"', expected '"+string(want)+"'")
		}
	}
	lx.emit(tOp, op, i)
	lx.pos = i + len(op)
	return balance, nil
}

// unexpectedChar is Jinja2's error for a character r at i that starts
// no token (or a string literal without its end).
func (lx *lexer) unexpectedChar(i int, r rune) error {
	return lx.fail(i, "unexpected char "+pyQuoteRune(r)+" at "+strconv.Itoa(utf8.RuneCountInString(lx.s[:i])-lx.src.lead))
}

func closing(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '[':
		return ']'
	}
	return '}'
}

// isIdentStart is Python 3.11's XID_Start and "_" (Unicode 14, as str's
// predicates have it, not Go's newer tables): letters, letter numbers and
// Other_ID_Start, less the letters NFKC turns into something else.
func isIdentStart(r rune) bool {
	return (r == '_' || pyIsAlpha(r) || unicode.Is(unicode.Nl, r) || isOtherIDStart(r)) && !notIDStart(r)
}

// isIdentCont is Python 3.11's XID_Continue: what may follow the start.
func isIdentCont(r rune) bool {
	return (r == '_' || pyIsAlpha(r) || pyIsDecimal(r) || unicode.In(r, unicode.Nl, unicode.Mn, unicode.Mc, unicode.Pc) ||
		isOtherIDStart(r) || isOtherIDContinue(r)) && !notIDCont(r)
}

// notIDStart lists the letters that are not XID_Start (their NFKC form
// is not an identifier), as Python 3.11's str.isidentifier finds them.
func notIDStart(r rune) bool {
	switch r {
	case 0x0E33, 0x0EB3, 0xFF9E, 0xFF9F:
		return true
	}
	return notIDCont(r)
}

// notIDCont lists the letters that are not XID_Continue either.
func notIDCont(r rune) bool {
	switch {
	case r == 0x037A, r == 0x2E2F, r >= 0xFC5E && r <= 0xFC63, r == 0xFDFA, r == 0xFDFB:
		return true
	case r >= 0xFE70 && r <= 0xFE7E:
		return r%2 == 0
	}
	return false
}

// isOtherIDStart is Unicode's Other_ID_Start that Python's identifiers
// take (NFKC leaves U+309B and U+309C out): a name may start with ℘ or ℮.
func isOtherIDStart(r rune) bool {
	return r == 0x1885 || r == 0x1886 || r == 0x2118 || r == 0x212E
}

// isOtherIDContinue is Unicode's Other_ID_Continue (14.0, Python 3.11's):
// the middle dots and the Ethiopic and New Tai Lue digits a name may hold.
func isOtherIDContinue(r rune) bool {
	return r == 0xB7 || r == 0x387 || (r >= 0x1369 && r <= 0x1371) || r == 0x19DA
}

// isNameChar reports whether Jinja2's name pattern (\w and the other chars
// Python's identifiers may hold) takes r, so that a run of them that is not
// an identifier (one starting with a digit that is not a decimal, a mark or
// a middle dot) is "Invalid character in identifier", not an unexpected char.
func isNameChar(r rune) bool {
	return r == '_' || pyIsAlnum(r) || isIdentCont(r)
}

// pyQuoteRune is Python's repr of the one-char str r, as Jinja2's lexer
// names a char it cannot read: '\\', '\x00', '\u200b', "'".
func pyQuoteRune(r rune) string {
	return Repr(StrV(string(r)))
}

// number lexes a float or an integer at i, as float_re and integer_re.
func (lx *lexer) number(i int) (int, bool, error) {
	s := lx.s
	if i >= len(s) {
		return 0, false, nil
	}
	// Jinja2's float pattern reads re's \d, any decimal digit (Nd); a
	// float holding one that is not ASCII is Python's SyntaxError, from
	// the literal_eval that reads its value.
	if r, _ := utf8.DecodeRuneInString(s[i:]); r >= utf8.RuneSelf && pyIsDecimal(r) && (i == 0 || s[i-1] != '.') {
		if m := uniFloat(s, i); m > i {
			return 0, false, lx.nonASCIIDigit(s[i:m], i)
		}
		return 0, false, nil
	}
	if s[i] < '0' || s[i] > '9' {
		return 0, false, nil
	}
	// float: (?<!\.)(\d+_)*\d+((\.(\d+_)*\d+)?e[+-]?(\d+_)*\d+|\.(\d+_)*\d+)
	if i == 0 || s[i-1] != '.' {
		if m := uniFloat(s, i); m > i {
			if !isASCII(s[i:m]) {
				return 0, false, lx.nonASCIIDigit(s[i:m], i)
			}
			lx.emit(tFloat, strings.ReplaceAll(s[i:m], "_", ""), i)
			return m, true, nil
		}
	}
	// integer
	if j := prefixedIntEnd(s, i); j > i {
		lx.emit(tInt, asciiDigits(strings.ReplaceAll(s[i:j], "_", "")), i)
		return j, true, nil
	}
	if s[i] == '0' {
		// 0(_?0)*
		j := i + 1
		for j < len(s) {
			if s[j] == '0' {
				j++
			} else if s[j] == '_' && j+1 < len(s) && s[j+1] == '0' {
				j += 2
			} else {
				break
			}
		}
		lx.emit(tInt, "0", i)
		return j, true, nil
	}
	// [1-9](_?\d)*: after its first digit, any decimal digit (Nd), whose
	// value Python's int() reads
	j := uniDigits(s, i)
	lx.emit(tInt, asciiDigits(strings.ReplaceAll(s[i:j], "_", "")), i)
	return j, true, nil
}

// prefixedIntEnd is the end of a binary, octal or hexadecimal integer at
// i (0b, 0o or 0x, then digits of its base with single underscores
// between them), or i.
func prefixedIntEnd(s string, i int) int {
	if s[i] != '0' || i+1 >= len(s) {
		return i
	}
	var ok func(rune) bool
	switch s[i+1] | 0x20 {
	case 'b':
		ok = func(c rune) bool { return c == '0' || c == '1' }
	case 'o':
		ok = func(c rune) bool { return c >= '0' && c <= '7' }
	case 'x':
		// [\da-f]: re's \d is any decimal digit, which int() reads
		ok = func(c rune) bool {
			return (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'f') || (c >= utf8.RuneSelf && pyIsDecimal(c))
		}
	default:
		return i
	}
	j := i + 2
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if ok(r) {
			j += n
			continue
		}
		if r == '_' && j+1 < len(s) {
			if r2, n2 := utf8.DecodeRuneInString(s[j+1:]); ok(r2) {
				j += 1 + n2
				continue
			}
		}
		break
	}
	if j > i+2 {
		return j
	}
	return i
}

// uniDigits matches (\d+_)*\d+ at i with re's Unicode \d and returns its end, or i.
func uniDigits(s string, i int) int {
	j := i
	for {
		k := j
		for k < len(s) {
			r, n := utf8.DecodeRuneInString(s[k:])
			if !pyIsDecimal(r) {
				break
			}
			k += n
		}
		if k == j {
			return j
		}
		j = k
		if j+1 < len(s) && s[j] == '_' {
			if r, _ := utf8.DecodeRuneInString(s[j+1:]); pyIsDecimal(r) {
				j++
				continue
			}
		}
		return j
	}
}

// uniFloat matches Jinja2's float pattern at i with Unicode digits and
// returns its end, or i.
func uniFloat(s string, i int) int {
	j := uniDigits(s, i)
	if j == i {
		return i
	}
	frac := j
	if j+1 < len(s) && s[j] == '.' {
		if k := uniDigits(s, j+1); k > j+1 {
			frac = k
		}
	}
	if e := frac; e < len(s) && (s[e] == 'e' || s[e] == 'E') {
		k := e + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if m := uniDigits(s, k); m > k {
			return m
		}
	}
	if frac > j {
		return frac
	}
	return i
}

// nonASCIIDigit is literal_eval's SyntaxError for a float literal holding
// a digit that is not ASCII (Jinja2 drops the underscores first), as
// Python 3.11's tokenizer reads it: a digit after an exponent's 'e' (and
// sign) is "invalid decimal literal"; elsewhere the number ends before
// it, and the digit, which cannot start a name, is an invalid character.
func (lx *lexer) nonASCIIDigit(lit string, off int) error {
	var prev rune
	for _, r := range lit {
		if r == '_' {
			continue
		}
		if r >= utf8.RuneSelf {
			p := lx.src.pos(off)
			msg := "invalid character '" + string(r) + "' (U+" + hex4(r) + ")"
			if prev == 'e' || prev == 'E' || prev == '+' || prev == '-' {
				msg = "invalid decimal literal"
			}
			return &Error{Kind: "SyntaxError", Msg: msg, Name: lx.src.name, Line: p.Line, Col: p.Col}
		}
		prev = r
	}
	return nil
}

// hex4 is r in upper-case hex, of four digits at least (Python's %04X).
func hex4(r rune) string {
	h := strings.ToUpper(strconv.FormatInt(int64(r), 16))
	for len(h) < 4 {
		h = "0" + h
	}
	return h
}

// asciiDigits writes each decimal digit of s as its ASCII digit.
func asciiDigits(s string) string {
	if isASCII(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r >= utf8.RuneSelf {
			r = '0' + rune(pyDecimalValue(r))
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unescapePy decodes a string literal's body as Jinja2 does: non-ASCII
// characters become backslash escapes, then Python's unicode-escape codec
// decodes the whole.
func unescapePy(body string) (string, error) {
	if strings.IndexByte(body, '\\') < 0 {
		return body, nil
	}
	return unicodeEscape(backslashReplace(body))
}

// backslashReplace is Python's backslashreplace: non-ASCII runes become
// \xhh, \uhhhh or \Uhhhhhhhh.
func backslashReplace(body string) string {
	var pre strings.Builder
	for _, r := range body {
		switch {
		case r < 0x80:
			pre.WriteRune(r)
		case r < 0x100:
			pre.WriteString(`\x` + hex(int(r), 2))
		case r < 0x10000:
			pre.WriteString(`\u` + hex(int(r), 4))
		default:
			pre.WriteString(`\U` + hex(int(r), 8))
		}
	}
	return pre.String()
}

// unicodeEscape is Python's unicode-escape codec's decoding of b.
func unicodeEscape(b string) (string, error) {
	var out strings.Builder
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' {
			out.WriteByte(c)
			continue
		}
		if i+1 >= len(b) {
			return "", errStr("\\ at end of string")
		}
		i++
		c = b[i]
		switch c {
		case '\n':
		case '\\', '\'', '"':
			out.WriteByte(c)
		case 'a':
			out.WriteByte(7)
		case 'b':
			out.WriteByte(8)
		case 'f':
			out.WriteByte(12)
		case 'n':
			out.WriteByte('\n')
		case 'r':
			out.WriteByte('\r')
		case 't':
			out.WriteByte('\t')
		case 'v':
			out.WriteByte(11)
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, k := 0, 0
			for k < 3 && i+k < len(b) && b[i+k] >= '0' && b[i+k] <= '7' {
				n = n*8 + int(b[i+k]-'0')
				k++
			}
			i += k - 1
			out.WriteRune(rune(n))
		case 'x', 'u', 'U':
			r, w, err := hexEscape(b, i)
			if err != nil {
				return "", err
			}
			out.Write(appendRuneW(nil, r)) // a surrogate too
			i += w
		case 'N':
			r, w, err := namedEscape(b, i)
			if err != nil {
				return "", err
			}
			out.WriteRune(r)
			i += w
		default:
			out.WriteByte('\\')
			out.WriteByte(c)
		}
	}
	return out.String(), nil
}

// hexEscape reads the \x, \u or \U escape whose letter is at b[i]: its
// rune and the number of hex digits after the letter.
func hexEscape(b string, i int) (rune, int, error) {
	c := b[i]
	w := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
	if i+1+w > len(b) {
		return 0, 0, errStr(truncMsg(c, i-1))
	}
	n, err := strconv.ParseUint(b[i+1:i+1+w], 16, 32)
	if err != nil || strings.ContainsAny(b[i+1:i+1+w], "+-_") {
		return 0, 0, errStr(truncMsg(c, i-1))
	}
	if n > unicode.MaxRune {
		return 0, 0, errStr("illegal Unicode character")
	}
	return rune(n), w, nil
}

// namedEscape reads the \N{name} escape whose N is at b[i]: its rune and
// the length of {name}. It is malformed without the braces or a name.
func namedEscape(b string, i int) (rune, int, error) {
	if i+1 >= len(b) || b[i+1] != '{' {
		return 0, 0, errStr("malformed \\N character escape")
	}
	end := strings.IndexByte(b[i+2:], '}')
	if end <= 0 {
		return 0, 0, errStr("malformed \\N character escape")
	}
	r, ok := lookupUniName(b[i+2 : i+2+end])
	if !ok {
		return 0, 0, errStr("unknown Unicode character name")
	}
	return r, 2 + end, nil
}

func truncMsg(c byte, _ int) string {
	return map[byte]string{'x': "truncated \\xXX escape", 'u': "truncated \\uXXXX escape", 'U': "truncated \\UXXXXXXXX escape"}[c]
}

type errStr string

func (e errStr) Error() string { return string(e) }

func hex(n, w int) string {
	s := strconv.FormatInt(int64(n), 16)
	for len(s) < w {
		s = "0" + s
	}
	return s
}
