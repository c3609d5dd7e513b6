// Package special holds the special-token rule that the formats of
// chat/format and the chat templates of chat/format/chattemplate share:
// a special token may stand in the prompt only where the format or
// template writes it itself (see chat/format's package documentation).
package special

import (
	"bytes"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/pyjson"
)

// The rule, for every preset, declared format and chat template: a special
// token may stand in the prompt only where the format or template writes
// it itself. It is checked in two steps.
//
//  1. Every string of the data, as the format or template receives it
//     (text parts one by one and joined, tool call arguments and tool
//     parameters with their JSON decoded, names, IDs, roles, tool
//     definitions, template variables), must hold no special token. This
//     names the message and the place.
//  2. What the rendering makes of the data is compared with a neutral
//     rendering: the same data with every byte that a special token has
//     and that is not an ASCII letter or digit (its "marks": "<", "|",
//     "_", ">" for <|im_end|>) replaced by 'x' (a whole character where
//     the byte is part of one), so that the same conversation, of the
//     same shape and length, can hold no token. The prompt may hold a
//     special token only where the neutral prompt holds it (at the same
//     place when the two have one length, else no more often).
//
// Step 2 renders a second time only when the data could have made a
// token: a token made only of data has all its marks in the data, so the
// neutral rendering is needed when, for some token, every mark of it is
// among the data's bytes, or when a token could be made of data and the
// format's or template's own text: when a piece of its text (a literal)
// ends with the start of a token, starts with the end of one, or is a
// part of one, and that piece has one of the token's marks (Guard.Joins).
// A format then takes step 2 at every rendering; a chat template tells
// the guard its joining literals (Guard.JoinedByPieces, with the sides
// the order of its writes closes to data), and takes step 2 only
// when the data holds every mark that one way of writing a token with
// those literals leaves to data (joinNeeds): the neutral rendering
// differs from the rendering only at the data's marks, so a token it
// lacks has a mark written by data. A token without marks (letters and
// digits only) always takes step 2.
// JSON writers put one of `"{[]}0-9-tfn` after '[' and `"` or '}' after
// '{', so JSON structure makes none of the tokens that start with those.

// Guard is the special tokens of a format or template, with what the
// checks need.
type Guard struct {
	ts tokenSet
	// mark holds the marks of every token: its bytes that are not ASCII
	// letters or digits.
	mark byteSet
	// tokens are the distinct non-empty tokens, marks the marks of each:
	// the first 16 in arrays, the rest in slices.
	tokArr   [16]string
	markArr  [16]byteSet
	n        int
	tokMore  []string
	markMore []byteSet
	maxLen   int // of the longest token
	// markBytes holds the marks of every token, each once, when there are
	// at most 32 (nMarks counts them all).
	markBytes [32]byte
	nMarks    int
	// always is set when step 2 runs whatever the data: a token has no
	// mark, or the format's own text could join data into a token.
	always bool
	// joinNeed holds, for the tokens the template's own text could
	// complete (JoinedBy), the sets of marks the data must hold for a
	// token to be made of that text and data: step 2 runs when the data
	// holds every mark of one of them.
	joinNeed []byteSet
	// needs is every set of marks whose presence in the data calls for
	// step 2 (each token's marks, each of joinNeed), the smallest only;
	// tokNeeds[i] is the same for the i-th token alone (its marks, its
	// joins' needs, and the needs of no one token). settle makes both.
	needs    []byteSet
	tokNeeds [][]byteSet
	// joinTok is, for each of joinNeed, the index (at) of the token it
	// makes, or -1 for a need that makes any token (AlsoMark).
	joinTok []int
	// For joins' quick refusal: the last bytes of the tokens' proper
	// prefixes, the first bytes of their proper suffixes, and their bytes.
	prefixEnd, suffixStart, inToken byteSet
	// anchor is, for each token (at), the index of its byte that the
	// fewest of the tokens hold, a mark where the token has one: what
	// ForgeableOutside seeks it by.
	anchor []int
	// cls classes every byte for the scan of a short string, which reads
	// each byte once: clsMark for a mark, clsFirst for a token's first byte.
	cls [256]uint8
	// jsonValues is set when the data's JSON text reaches the prompt as
	// the values it holds, never as text (JSONValues).
	jsonValues bool
	// tools is Check's verdict on the last tool list it saw: a caller
	// usually passes the same tools at every rendering, and their JSON
	// Schemas are most of the data's bytes.
	tools atomic.Pointer[ToolsVerdict]
}

// The classes of Guard.cls.
const (
	clsMark uint8 = 1 << iota
	clsFirst
)

// ToolsVerdict is what step 1 found in a tool list: the token and where
// (tok empty when none), and the marks seen. A caller that keeps its own
// copy of a tool list (chattemplate's memo) keeps the verdict with it
// (ScanTools, CheckScannedVerdict, NeutralTools), so that a rendering
// compares the caller's tools with a kept list once, not once per keeper.
type ToolsVerdict struct {
	tools            []chat.Tool // a copy of the caller's (Check's own memo), or nil
	seen             byteSet
	tok, where, what string
	// neutral is the neutral copy of tools, made by the first Neutral
	// that needs it.
	neutral atomic.Pointer[[]chat.Tool]
}

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }
func (s *byteSet) subsetOf(t *byteSet) bool {
	return s[0]&^t[0]|s[1]&^t[1]|s[2]&^t[2]|s[3]&^t[3] == 0
}
func (s *byteSet) union(t *byteSet) {
	for i := range s {
		s[i] |= t[i]
	}
}

// New returns the guard for tokens (any order; empty ones and
// repeats are skipped), or nil when there is no token.
func New(tokens []string) *Guard {
	g := new(Guard)
	if !g.init(tokens) {
		return nil
	}
	return g
}

// init makes g the guard for tokens and reports whether there is a token.
func (g *Guard) init(tokens []string) bool {
	g.ts = tokenSet{}
	for _, tok := range tokens {
		if tok == "" || slices.Contains(g.tokArr[:g.n], tok) || slices.Contains(g.tokMore, tok) {
			continue
		}
		if !g.ts.first[tok[0]] {
			g.ts.first[tok[0]], g.ts.only = true, tok[0]
			g.ts.n++
		}
		g.cls[tok[0]] |= clsFirst
		var m byteSet
		for i := 0; i < len(tok); i++ {
			c := tok[i]
			g.inToken.add(c)
			if !isAlnum(c) {
				if !g.mark.has(c) {
					if g.nMarks < len(g.markBytes) {
						g.markBytes[g.nMarks] = c
					}
					g.nMarks++
				}
				g.mark.add(c)
				g.cls[c] |= clsMark
				m.add(c)
			}
		}
		if m == (byteSet{}) {
			g.always = true
		}
		g.maxLen = max(g.maxLen, len(tok))
		if g.n < len(g.tokArr) {
			g.tokArr[g.n], g.markArr[g.n] = tok, m
			g.n++
		} else {
			g.tokMore, g.markMore = append(g.tokMore, tok), append(g.markMore, m)
		}
		for n := 1; n < len(tok); n++ {
			g.prefixEnd.add(tok[n-1])
			g.suffixStart.add(tok[n])
		}
	}
	g.anchors()
	g.settle()
	return g.n > 0
}

// anchors works out anchor from the tokens.
func (g *Guard) anchors() {
	var in [256]int // how many tokens hold each byte
	for i := 0; i < g.count(); i++ {
		tok, _ := g.at(i)
		var seen byteSet
		for k := 0; k < len(tok); k++ {
			if !seen.has(tok[k]) {
				seen.add(tok[k])
				in[tok[k]]++
			}
		}
	}
	g.anchor = make([]int, g.count())
	for i := range g.anchor {
		tok, _ := g.at(i)
		best := -1
		for k := 0; k < len(tok); k++ {
			if best < 0 || isAlnum(tok[best]) && !isAlnum(tok[k]) ||
				isAlnum(tok[best]) == isAlnum(tok[k]) && in[tok[k]] < in[tok[best]] {
				best = k
			}
		}
		g.anchor[i] = best
	}
}

// settle works out needs and tokNeeds from the tokens' marks and
// joinNeed, after each change to them.
func (g *Guard) settle() {
	var all, anyTok []byteSet
	for i := 0; i < g.count(); i++ {
		_, marks := g.at(i)
		all = append(all, *marks)
	}
	for k, need := range g.joinNeed {
		all = append(all, need)
		if g.joinTok[k] < 0 {
			anyTok = append(anyTok, need)
		}
	}
	g.needs = smallest(all)
	g.tokNeeds = make([][]byteSet, g.count())
	for i := range g.tokNeeds {
		_, marks := g.at(i)
		own := append([]byteSet{*marks}, anyTok...)
		for k, need := range g.joinNeed {
			if g.joinTok[k] == i {
				own = append(own, need)
			}
		}
		g.tokNeeds[i] = smallest(own)
	}
}

// smallest returns the sets of sets that hold no other of them, each
// once: the data holds every mark of one of sets exactly when it holds
// every mark of one of these.
func smallest(sets []byteSet) []byteSet {
	var out []byteSet
	for i := range sets {
		keep := true
		for j := range sets {
			if j != i && sets[j].subsetOf(&sets[i]) && (sets[j] != sets[i] || j < i) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, sets[i])
		}
	}
	return out
}

// count is the number of tokens; at returns the i-th and its marks.
func (g *Guard) count() int { return g.n + len(g.tokMore) }

func (g *Guard) at(i int) (string, *byteSet) {
	if i < g.n {
		return g.tokArr[i], &g.markArr[i]
	}
	return g.tokMore[i-g.n], &g.markMore[i-g.n]
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// hasMark reports whether s holds one of marks.
func hasMark(s string, marks *byteSet) bool {
	for i := 0; i < len(s); i++ {
		if marks.has(s[i]) {
			return true
		}
	}
	return false
}

// Joins reports whether lit, a piece of the format's or template's own
// text, could make a special token together with data written next to it:
// lit ends with a proper prefix of a token, starts with a proper suffix of
// one, or is a proper part of one, and that piece holds one of the token's
// marks.
func (g *Guard) Joins(lit string) bool {
	if lit == "" {
		return false
	}
	first, last := lit[0], lit[len(lit)-1]
	inner := len(lit) < g.maxLen && g.inToken.has(first)
	if !g.prefixEnd.has(last) && !g.suffixStart.has(first) && !inner {
		return false
	}
	for i := 0; i < g.n; i++ {
		if g.joinsToken(lit, g.tokArr[i], &g.markArr[i], inner) {
			return true
		}
	}
	for i := range g.tokMore {
		if g.joinsToken(lit, g.tokMore[i], &g.markMore[i], inner) {
			return true
		}
	}
	return false
}

// joinsToken is joins for one token.
func (g *Guard) joinsToken(lit, tok string, marks *byteSet, inner bool) bool {
	if inner && len(lit) < len(tok) && strings.Contains(tok, lit) && hasMark(lit, marks) {
		return true
	}
	first, last := lit[0], lit[len(lit)-1]
	for n := 1; n < len(tok) && n <= len(lit); n++ {
		if tok[n-1] == last && strings.HasSuffix(lit, tok[:n]) && hasMark(tok[:n], marks) {
			return true
		}
		if tok[len(tok)-n] == first && strings.HasPrefix(lit, tok[len(tok)-n:]) && hasMark(tok[len(tok)-n:], marks) {
			return true
		}
	}
	return false
}

// JoinedBy tells g the pieces of a template's own text that join
// (Joins is true of each): step 2 then runs only when the data holds the
// marks that one way of making a token of those pieces and data leaves
// to the data (see joinNeeds), instead of at every rendering. It must be
// called before g is used, at most once.
func (g *Guard) JoinedBy(lits []string) {
	ps := make([]Piece, len(lits))
	for i, lit := range lits {
		ps[i] = Piece{Text: lit}
	}
	g.JoinedByPieces(ps)
}

// Piece is a piece of a template's own text that joins (Joins is true
// of Text), with what the order of the template's writes says of its
// sides: LeftClosed when no data byte can stand right before it in the
// prompt, RightClosed when none can stand right after it. Any byte that
// can stand next to a closed side and is a mark of a token must be
// written by some piece given to the guard (see joinNeeds).
type Piece struct {
	Text                    string
	LeftClosed, RightClosed bool
}

// JoinedByPieces is JoinedBy for pieces whose sides may be closed to
// data.
func (g *Guard) JoinedByPieces(ps []Piece) {
	for i := 0; i < g.count(); i++ {
		tok, marks := g.at(i)
		for _, need := range joinNeeds(tok, marks, ps) {
			g.joinNeed, g.joinTok = append(g.joinNeed, need), append(g.joinTok, i)
		}
	}
	g.settle()
}

// JoinsData reports whether the pieces given to JoinedByPieces (or
// AlsoMark) let data make a token while holding fewer than all of its
// marks: whether step 2 may run for a join of the template's text.
func (g *Guard) JoinsData() bool {
	for k, need := range g.joinNeed {
		if g.joinTok[k] < 0 {
			return true
		}
		if _, marks := g.at(g.joinTok[k]); need != *marks {
			return true
		}
	}
	return false
}

// AlsoMark makes c a mark of every token, for a template that decodes
// what data writes with c into marks (striptags makes < of &lt; and
// &#60;): the neutral data holds no c, so the neutral prompt decodes
// nothing, and step 2 runs whenever the data holds c. It must be called
// before g is used.
func (g *Guard) AlsoMark(c byte) {
	if g.mark.has(c) {
		return
	}
	if g.nMarks < len(g.markBytes) {
		g.markBytes[g.nMarks] = c
	}
	g.nMarks++
	g.mark.add(c)
	g.cls[c] |= clsMark
	var need byteSet
	need.add(c)
	g.joinNeed, g.joinTok = append(g.joinNeed, need), append(g.joinTok, -1)
	g.settle()
}

// maxJoinMarks is the number of distinct marks of a token up to which
// joinNeeds works out each way of making it; a token with more (none of
// the tokens met so far) takes each of its marks alone as a need.
const maxJoinMarks = 12

// joinNeeds returns the smallest sets of tok's marks (marks) that data
// must hold to make tok together with pieces of ps: every way of
// writing tok's bytes one after the other, each byte either copied from
// data or written by a piece of a literal (a literal's end that is a
// start of tok, its start that is an end of tok, or the whole literal
// inside tok), is a way of making it; the marks at the places data
// writes are what that way needs, and a way that leaves no mark to data
// makes what the neutral rendering makes too. Only tokens some piece of
// ps is a part of have needs; the others keep the rule that data must
// hold all of their marks.
//
// A way does not copy a mark from data right after a piece whose end
// it uses when that piece is RightClosed, nor right before a piece
// whose start it uses when that piece is LeftClosed: the prompt has a
// byte of the template's there. That byte, when it is a mark of tok, is
// written by another piece (the caller's promise, Piece), which the
// ways try too. A letter or digit is no mark: a way may take it for
// data's or the template's alike, so it needs no piece.
func joinNeeds(tok string, marks *byteSet, ps []Piece) []byteSet {
	piece := joinPieces(tok, ps)
	if !slices.ContainsFunc(piece, func(ends []joinAt) bool { return len(ends) > 0 }) {
		return nil
	}
	// The marks, numbered.
	var bit [256]uint16
	var byBit []byte
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; marks.has(c) && bit[c] == 0 {
			byBit = append(byBit, c)
			bit[c] = uint16(len(byBit))
		}
	}
	if len(byBit) > maxJoinMarks {
		out := make([]byteSet, len(byBit))
		for i, c := range byBit {
			out[i].add(c)
		}
		return out
	}
	return smallestNeeds(joinWays(tok, piece, &bit), byBit)
}

// joinAt is a piece of a literal that writes a token's bytes from a
// place up to end, and whether its start and end are closed to data.
type joinAt struct {
	end         int
	left, right bool
}

// joinPieces lists at each place p of tok the pieces of ps that write
// tok's bytes from p: a literal's end that is a start of tok, its start
// that is an end of tok, or the whole literal inside tok.
func joinPieces(tok string, ps []Piece) [][]joinAt {
	n := len(tok)
	piece := make([][]joinAt, n)
	add := func(p, e int, left, right bool) {
		a := joinAt{e, left && p > 0, right && e < n}
		if !slices.Contains(piece[p], a) {
			piece[p] = append(piece[p], a)
		}
	}
	for _, pc := range ps {
		lit := pc.Text
		for k := 1; k < n && k <= len(lit); k++ {
			if strings.HasSuffix(lit, tok[:k]) {
				add(0, k, false, pc.RightClosed)
			}
			if strings.HasPrefix(lit, tok[n-k:]) {
				add(n-k, n, pc.LeftClosed, false)
			}
		}
		if len(lit) > 0 && len(lit) < n {
			for i := 1; i+len(lit) < n; i++ {
				if tok[i:i+len(lit)] == lit {
					add(i, i+len(lit), pc.LeftClosed, pc.RightClosed)
				}
			}
		}
	}
	return piece
}

// joinState is where a way of writing a token's first bytes stands:
// the marks it leaves to data (a bit set over the numbered marks), and
// how its last byte was written.
type joinState struct {
	m     uint32
	after uint8
}

const (
	afterOpen   uint8 = iota // the start, data, or a piece open on its right
	afterClosed              // a piece closed on its right
	afterMark                // a mark copied from data
)

// joinWays returns the states of every way of writing the whole of tok,
// its bytes copied from data or written by the pieces at each place
// (joinPieces); bit numbers tok's marks from 1 (0 for a byte that is no
// mark).
func joinWays(tok string, piece [][]joinAt, bit *[256]uint16) map[joinState]bool {
	n := len(tok)
	// reach[p] holds the ways of writing tok[:p]
	reach := make([]map[joinState]bool, n+1)
	for p := range reach {
		reach[p] = map[joinState]bool{}
	}
	reach[0][joinState{0, afterOpen}] = true
	for p := 0; p < n; p++ {
		var b uint32
		if k := bit[tok[p]]; k > 0 {
			b = 1 << (k - 1)
		}
		for st := range reach[p] {
			switch {
			case b == 0:
				reach[p+1][joinState{st.m, afterOpen}] = true
			case st.after != afterClosed:
				reach[p+1][joinState{st.m | b, afterMark}] = true
			}
			for _, a := range piece[p] {
				if a.left && st.after == afterMark {
					continue
				}
				after := afterOpen
				if a.right {
					after = afterClosed
				}
				reach[a.end][joinState{st.m, after}] = true
			}
		}
	}
	return reach[n]
}

// smallestNeeds returns the sets of marks the ways leave to data, each
// as the marks of byBit its bits name, without the empty set and
// without a set that holds a smaller one.
func smallestNeeds(ways map[joinState]bool, byBit []byte) []byteSet {
	var needs []uint32
	for st := range ways {
		if st.m != 0 {
			needs = append(needs, st.m)
		}
	}
	slices.Sort(needs)
	needs = slices.Compact(needs)
	var out []byteSet
	var kept []uint32
	for _, m := range needs {
		if slices.ContainsFunc(kept, func(k uint32) bool { return k&m == k }) {
			continue // a smaller need is kept
		}
		kept = append(kept, m)
		var set byteSet
		for i, c := range byBit {
			if m&(1<<i) != 0 {
				set.add(c)
			}
		}
		out = append(out, set)
	}
	return out
}

// JoinsMaybeTrimmed is JoinsTrimmed when trimmed, else Joins.
func (g *Guard) JoinsMaybeTrimmed(lit string, trimmed bool) bool {
	if trimmed {
		return g.JoinsTrimmed(lit)
	}
	return g.Joins(lit)
}

// JoinsTrimmed is Joins for lit and for lit with white space trimmed at
// either end or both, as a template's whitespace control may write it.
func (g *Guard) JoinsTrimmed(lit string) bool {
	if g.Joins(lit) {
		return true
	}
	l, r := strings.TrimLeft(lit, " \t\r\n"), strings.TrimRight(lit, " \t\r\n")
	if len(l) == len(lit) && len(r) == len(lit) {
		return false
	}
	return g.Joins(l) || g.Joins(r) || g.Joins(strings.TrimSpace(lit))
}

// scan is a pass over the data: the direct check (step 1) and the marks
// seen, for deciding whether step 2 is needed.
type scan struct {
	seen byteSet
	// tok and where are the first token found, in message index (-1: a
	// tool definition or template variable, whose name is what).
	tok, where, what string
	index            int
}

// text is what scan reads: a string, or JSON text as written.
type text interface{ string | []byte }

// shortScan is the length up to which a string is scanned in one pass, a
// byte at a time; a longer one is searched for each mark not yet seen and
// for the tokens' first bytes, which memchr-like searches do faster.
const shortScan = 256

// str checks s, a string of message index (-1: not a message's) found at
// where.
func (s *scan) str(g *Guard, index int, where, str string) bool {
	return scanText(s, g, index, where, str)
}

// scanText is scan.str for a string or JSON text, which it does not copy.
func scanText[S text](s *scan, g *Guard, index int, where string, str S) bool {
	if len(str) == 0 || s.tok != "" {
		return s.tok == ""
	}
	var tok string
	if len(str) <= shortScan || g.nMarks > len(g.markBytes) {
		tok = onePass(g, &s.seen, str)
	} else {
		for _, c := range g.markBytes[:g.nMarks] {
			if !s.seen.has(c) && indexByte(str, c) >= 0 {
				s.seen.add(c)
			}
		}
		tok = find(g, str)
	}
	if tok != "" {
		s.tok, s.where, s.index = tok, where, index
		return false
	}
	return true
}

// onePass reads str once: the marks it holds go to seen, and it returns
// the special token that comes first in it (the longest where several
// start at one place), or "" (seen is then complete).
func onePass[S text](g *Guard, seen *byteSet, str S) string {
	cls := &g.cls
	for i := 0; i < len(str); i++ {
		// Most bytes are of no class: eight at a time while none is.
		for i+8 <= len(str) && cls[str[i]]|cls[str[i+1]]|cls[str[i+2]]|cls[str[i+3]]|
			cls[str[i+4]]|cls[str[i+5]]|cls[str[i+6]]|cls[str[i+7]] == 0 {
			i += 8
		}
		if i == len(str) {
			break
		}
		k := cls[str[i]]
		if k == 0 {
			continue
		}
		if k&clsMark != 0 {
			seen.add(str[i])
		}
		if k&clsFirst != 0 {
			if tok := tokenAt(g, str[i:]); tok != "" {
				return tok
			}
		}
	}
	return ""
}

// tokenAt returns the longest special token s starts with, or "".
func tokenAt[S text](g *Guard, s S) string {
	best := ""
	for i := 0; i < g.count(); i++ {
		if tok, _ := g.at(i); len(tok) > len(best) && len(s) >= len(tok) && string(s[:len(tok)]) == tok {
			best = tok
		}
	}
	return best
}

// indexByte is strings.IndexByte or bytes.IndexByte.
func indexByte[S text](s S, c byte) int {
	switch s := any(s).(type) {
	case string:
		return strings.IndexByte(s, c)
	case []byte:
		return bytes.IndexByte(s, c)
	}
	return -1
}

// json checks the JSON text raw: its bytes as written, and, where it has
// an escape, its strings (keys too) decoded, as the format writes them.
// With JSONValues, the marks of its structure (outside its strings) are
// not the data's when raw is JSON: the template reads the values.
func (s *scan) json(g *Guard, index int, where string, raw []byte) bool {
	var v pyjson.Value
	parsed := false
	if g.jsonValues {
		t := scan{}
		if !scanText(&t, g, index, where, raw) {
			*s = t
			return false
		}
		in, out := jsonMarks(g, raw)
		if !out.subsetOf(&in) {
			var err error
			if v, err = pyjson.Parse(raw); err == nil {
				parsed, t.seen = true, in
			}
		}
		s.seen.union(&t.seen)
	} else if !scanText(s, g, index, where, raw) {
		return false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return true
	}
	if !parsed {
		var err error
		if v, err = pyjson.Parse(raw); err != nil {
			return true // the rendering refuses it, or reads it as text
		}
	}
	return s.value(g, index, where, &v)
}

// jsonMarks returns the marks of the bytes of raw, JSON text, inside its
// strings (the quotes, escapes as written) and outside them.
func jsonMarks(g *Guard, raw []byte) (in, out byteSet) {
	str := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case str && c == '\\':
			if g.mark.has(c) {
				in.add(c)
			}
			if i+1 < len(raw) {
				i++
				if g.mark.has(raw[i]) {
					in.add(raw[i])
				}
			}
			continue
		case c == '"':
			str = !str
			if g.mark.has(c) {
				in.add(c) // a string's quotes: taken for the data's, as before
			}
			continue
		}
		if !g.mark.has(c) {
			continue
		}
		if str {
			in.add(c)
		} else {
			out.add(c)
		}
	}
	return in, out
}

// JSONValues tells g that the data's JSON text (tool call arguments,
// tool parameters, json.RawMessage variables) reaches the prompt only as
// the values it holds (a chat template reads them so), or as text when
// it is not JSON: the marks of a JSON text's structure are then not
// marks the data could write, and step 2's need is read without them.
// It must be called before g is used.
func (g *Guard) JSONValues() { g.jsonValues = true }

func (s *scan) value(g *Guard, index int, where string, v *pyjson.Value) bool {
	switch v.Kind {
	case pyjson.String:
		return s.str(g, index, where, v.Str)
	case pyjson.Array, pyjson.Object:
		for _, k := range v.Keys {
			if !s.str(g, index, where, k) {
				return false
			}
		}
		for i := range v.Items {
			if !s.value(g, index, where, &v.Items[i]) {
				return false
			}
		}
	}
	return true
}

// any checks a template variable's value: its strings, keys included.
// The common shapes are read directly, depth levels deep (the nesting
// so far); any other value, or deeper, as a template sees a Go value
// (goValue).
func (s *scan) any(g *Guard, where string, v any, depth int) bool {
	if depth > maxDirectDepth {
		return s.goValue(g, where, reflect.ValueOf(v), map[visit]bool{})
	}
	switch v := v.(type) {
	case nil, bool, int, int64, float64:
	case string:
		return s.str(g, -1, where, v)
	case map[string]any:
		for k, x := range v {
			if !s.str(g, -1, where, k) || !s.any(g, where, x, depth+1) {
				return false
			}
		}
	case []any:
		for _, x := range v {
			if !s.any(g, where, x, depth+1) {
				return false
			}
		}
	case []string:
		for _, x := range v {
			if !s.str(g, -1, where, x) {
				return false
			}
		}
	default:
		return s.goValue(g, where, reflect.ValueOf(v), map[visit]bool{})
	}
	return true
}

// maxDirectDepth is the nesting up to which any and neutralAny read maps
// and slices of the common shapes directly; deeper, goValue and neutralGo
// take over, which follow a value that holds itself once.
const maxDirectDepth = 64

// messages checks every string of msgs.
func (s *scan) messages(g *Guard, msgs []chat.Message) bool {
	for i := range msgs {
		if !s.message(g, i, &msgs[i]) {
			return false
		}
	}
	return true
}

// message checks every string of m, the message at index i.
func (s *scan) message(g *Guard, i int, m *chat.Message) bool {
	texts := 0
	for j := range m.Content {
		p := &m.Content[j]
		if p.Type == chat.PartText {
			texts++
		}
		if !s.str(g, i, "content", p.Text) || !s.str(g, i, "content", p.URL) {
			return false
		}
	}
	if texts > 1 && !s.str(g, i, "content, its text parts joined", m.Text()) {
		return false
	}
	if !s.str(g, i, "role", string(m.Role)) || !s.str(g, i, "name", m.Name) || !s.str(g, i, "tool_call_id", m.ToolCallID) {
		return false
	}
	for j := range m.ToolCalls {
		c := &m.ToolCalls[j]
		if !s.str(g, i, "tool call name", c.Name) || !s.json(g, i, "tool call arguments", c.Arguments) ||
			!s.str(g, i, "tool call id", c.ID) {
			return false
		}
	}
	return true
}

// tools checks the tool definitions.
func (s *scan) tools(g *Guard, tools []chat.Tool) bool {
	for i := range tools {
		t := &tools[i]
		if !s.str(g, -1, "tool definition", t.Name) || !s.str(g, -1, "tool definition", t.Description) ||
			!s.json(g, -1, "tool definition", t.Parameters) {
			s.what = t.Name
			return false
		}
	}
	return true
}

// vars checks the template variables. Where several hold a token, the
// error names the first by name, whatever order the map gives them in:
// the same call fails the same way every time.
func (s *scan) vars(g *Guard, vars map[string]any) bool {
	for k, v := range vars {
		if !s.str(g, -1, "template variable", k) || !s.any(g, "template variable", v, 0) {
			for _, k := range slices.Sorted(maps.Keys(vars)) {
				var first scan
				if !first.str(g, -1, "template variable", k) || !first.any(g, "template variable", vars[k], 0) {
					s.tok, s.where, s.index, s.what = first.tok, first.where, first.index, k
					return false
				}
			}
			s.what = k
			return false
		}
	}
	return true
}

// Hit is a special token found where data put it: what chat/format's
// SpecialTokenError reports.
type Hit struct {
	// Index is the position of the message, or -1 when the token is not
	// in one message's string.
	Index int
	// Token is the special token found.
	Token string
	// Where says which part of the message holds it, or where the token
	// is, when Index is -1.
	Where string
}

// hit is the Hit for a token found in the data.
func hit(tok, where, what string, index int) *Hit {
	if index < 0 {
		where += " " + strconv.Quote(what)
	}
	return &Hit{Index: index, Token: strings.Clone(tok), Where: where}
}

// needsNeutral reports whether step 2 must render the neutral
// conversation: the data holds every mark of some token, or every mark
// of one of the needs of the template's own text (JoinedBy); seen holds
// the data's marks.
func (g *Guard) needsNeutral(seen *byteSet) bool {
	if g.always {
		return true
	}
	for i := range g.needs {
		if g.needs[i].subsetOf(seen) {
			return true
		}
	}
	return false
}

// Check is step 1 over a rendering's data (the messages, the tool
// definitions and the template variables), and whether step 2 is needed.
// A token found is a non-nil Hit. The verdict on the tools is kept for the
// next Check given the same tools.
func (g *Guard) Check(msgs []chat.Message, tools []chat.Tool, vars map[string]any) (neutral bool, found *Hit) {
	_, neutral, found = g.CheckMarks(msgs, tools, vars)
	return neutral, found
}

// CheckMarks is Check, with the marks of all the data (Forgeable reads
// them).
func (g *Guard) CheckMarks(msgs []chat.Message, tools []chat.Tool, vars map[string]any) (seen Marks, neutral bool, found *Hit) {
	var s scan
	if !s.messages(g, msgs) {
		return Marks{}, false, hit(s.tok, s.where, s.what, s.index)
	}
	return g.CheckScannedMarks(Marks{s.seen}, tools, vars)
}

// Marks is what step 1 keeps of the strings it read and found no token
// in: the marks they hold, which decide whether step 2 is needed.
type Marks struct{ set byteSet }

// Add adds the marks of o to m.
func (m *Marks) Add(o Marks) { m.set.union(&o.set) }

// ScanMessages is step 1 over messages: the marks they hold, or the
// first token found.
func (g *Guard) ScanMessages(msgs []chat.Message) (Marks, *Hit) {
	var s scan
	if !s.messages(g, msgs) {
		return Marks{}, hit(s.tok, s.where, s.what, s.index)
	}
	return Marks{s.seen}, nil
}

// ScanMessage is step 1 over one message, the one at index i: the marks
// it holds, or the token found. It depends on the message alone, so a
// caller may keep its result for a message it sees again.
func (g *Guard) ScanMessage(i int, m *chat.Message) (Marks, *Hit) {
	var s scan
	if !s.message(g, i, m) {
		return Marks{}, hit(s.tok, s.where, s.what, s.index)
	}
	return Marks{s.seen}, nil
}

// CheckScanned is Check for messages scanned before (ScanMessage, no
// token found), marks holding all their marks.
func (g *Guard) CheckScanned(marks Marks, tools []chat.Tool, vars map[string]any) (neutral bool, found *Hit) {
	_, neutral, found = g.CheckScannedMarks(marks, tools, vars)
	return neutral, found
}

// CheckScannedMarks is CheckScanned, with the marks of all the data
// (Forgeable reads them).
func (g *Guard) CheckScannedMarks(marks Marks, tools []chat.Tool, vars map[string]any) (all Marks, neutral bool, found *Hit) {
	var tv *ToolsVerdict
	if len(tools) > 0 {
		tv = g.toolsVerdict(tools)
	}
	return g.CheckScannedVerdict(marks, tv, vars)
}

// CheckScannedVerdict is CheckScannedMarks with the verdict on the tools
// (ScanTools; nil for no tools) in place of the tools.
func (g *Guard) CheckScannedVerdict(marks Marks, tv *ToolsVerdict, vars map[string]any) (all Marks, neutral bool, found *Hit) {
	seen := marks.set
	if tv != nil {
		if tv.tok != "" {
			return Marks{}, false, hit(tv.tok, tv.where, tv.what, -1)
		}
		seen.union(&tv.seen)
	}
	if len(vars) > 0 {
		s := scan{seen: seen}
		if !s.vars(g, vars) {
			return Marks{}, false, hit(s.tok, s.where, s.what, s.index)
		}
		seen = s.seen
	}
	return Marks{seen}, g.needsNeutral(&seen), nil
}

// Forgeable reports whether out, a prompt rendered from data holding
// the marks seen, holds a token that the data could have made: one
// whose marks the data holds all of, or the marks that a way of making
// it with the template's own text leaves to data (JoinedBy; AlsoMark's
// need makes any token). Step 2's argument is per token: a token that
// the prompt holds and the neutral prompt lacks has a mark written by
// data, so the data holds the marks of one way of writing that very
// token. When out holds none of these tokens, no token of it was made
// by data (the tokens it holds are the template's own), so the neutral
// rendering would find nothing, and a chat template skips it.
func (g *Guard) Forgeable(seen Marks, out string) bool {
	return g.ForgeableOutside(seen, out, nil)
}

// ForgeableOutside is Forgeable for a prompt some of whose bytes are
// known to be the template's own text (own returns the i-th of the
// spans they lie in, in order and apart, and false past the last; nil:
// none is known): a token that stands wholly in one span has no byte
// written by data, so it is no token the data made, and only the other
// places of a token the data could have made count.
//
// The places are found from each token's anchor (its byte in the fewest
// of the guard's tokens, a mark where it has one; anchor), not its first
// byte, which is a '<' or '[' that the template's text writes everywhere;
// tokens with one anchor byte are sought in one pass. A hit in a span
// skips the rest of that span for the tokens that would lie wholly in
// it, so most of the template's own text is read once.
//
// It is not inlined, nor is ForgeableOutsideBytes: inlined in another
// package, the call of the generic forgeableOutside made own (a method
// value at chattemplate's call) escape, an allocation per rendering.
//
//go:noinline
func (g *Guard) ForgeableOutside(seen Marks, out string, own func(i int) (start, end int, ok bool)) bool {
	return forgeableOutside(g, seen, out, own)
}

// ForgeableOutsideBytes is ForgeableOutside of a prompt written into a
// byte slice (chattemplate.Template.AppendRender), read where it lies.
//
//go:noinline
func (g *Guard) ForgeableOutsideBytes(seen Marks, out []byte, own func(i int) (start, end int, ok bool)) bool {
	return forgeableOutside(g, seen, out, own)
}

// Forgers is the tokens that data holding some marks could make
// (Guard.Forgers), grouped by anchor byte in the order ForgeableOutside
// seeks them. It depends on the marks alone, so a caller that keeps the
// marks of data it renders again (chattemplate's kept conversation)
// keeps it with them, and a rendering from the same data does not work
// it out again (ForgeableBy).
type Forgers struct {
	idx  []int // indices of at, a group's tokens together
	ends []int // where each group ends in idx
}

// Forgers returns the tokens data holding the marks seen could make, as
// ForgeableOutside works them out.
func (g *Guard) Forgers(seen Marks) *Forgers {
	f := g.forgers(&seen.set, nil, nil, nil)
	return &f
}

// forgers is Forgers in the memory of may, idx and ends (stack arrays
// for a rendering that keeps nothing): the tokens that mayForge, each
// group of one anchor byte together, the groups in the order of their
// first tokens.
func (g *Guard) forgers(seen *byteSet, may, idx, ends []int) Forgers {
	for i := 0; i < g.count(); i++ {
		if g.mayForge(i, seen) {
			may = append(may, i)
		}
	}
	for len(may) > 0 {
		// the tokens sought with the first one's anchor byte
		tok, _ := g.at(may[0])
		c := tok[g.anchor[may[0]]]
		rest := may[:0]
		for _, i := range may {
			if t, _ := g.at(i); t[g.anchor[i]] == c {
				idx = append(idx, i)
			} else {
				rest = append(rest, i)
			}
		}
		ends = append(ends, len(idx))
		may = rest
	}
	return Forgers{idx: idx, ends: ends}
}

// ForgeableBy is ForgeableOutside with f, the Forgers of the marks seen,
// in place of the marks.
//
//go:noinline
func (g *Guard) ForgeableBy(f *Forgers, out string, own func(i int) (start, end int, ok bool)) bool {
	return forgeableIn(g, f, out, own)
}

// ForgeableByBytes is ForgeableBy of a prompt written into a byte slice
// (ForgeableOutsideBytes).
//
//go:noinline
func (g *Guard) ForgeableByBytes(f *Forgers, out []byte, own func(i int) (start, end int, ok bool)) bool {
	return forgeableIn(g, f, out, own)
}

// forgeableOutside is ForgeableOutside of a string or of bytes.
func forgeableOutside[S text](g *Guard, seen Marks, out S, own func(i int) (start, end int, ok bool)) bool {
	var mbuf, ibuf, ebuf [16]int
	f := g.forgers(&seen.set, mbuf[:0], ibuf[:0], ebuf[:0])
	return forgeableIn(g, &f, out, own)
}

// forgeableIn is ForgeableOutside of a string or of bytes, by the tokens
// f.
func forgeableIn[S text](g *Guard, f *Forgers, out S, own func(i int) (start, end int, ok bool)) bool {
	start := 0
	for _, end := range f.ends {
		group := f.idx[start:end]
		tok, _ := g.at(group[0])
		if forgeableBy(g, tok[g.anchor[group[0]]], group, out, own) {
			return true
		}
		start = end
	}
	return false
}

// forgeableBy reports whether one of the tokens group (indices of at),
// all anchored on the byte c, stands in out other than wholly in one of
// own's spans (ForgeableOutside).
func forgeableBy[S text](g *Guard, c byte, group []int, out S, own func(i int) (start, end int, ok bool)) bool {
	first := len(out)
	for _, i := range group {
		first = min(first, g.anchor[i])
	}
	// the span at or after the hit: the k-th, [ss, se); ok false past
	// the last
	k, ss, se, ok := 0, 0, 0, false
	if own != nil {
		ss, se, ok = own(0)
	}
	for q := first; q < len(out); q++ {
		x := indexByte(out[q:], c)
		if x < 0 {
			return false
		}
		q += x
		for ok && se <= q {
			k++
			ss, se, ok = own(k)
		}
		in := ok && ss <= q
		// the last hit a token may skip to: where its place would
		// still lie wholly in the span
		skip := len(out)
		for _, i := range group {
			tok, _ := g.at(i)
			p := q - g.anchor[i]
			switch {
			case p+len(tok) > len(out):
				continue // and so for every later hit
			case in && ss <= p && p+len(tok) <= se:
				skip = min(skip, se-len(tok)+g.anchor[i])
				continue
			case p >= 0 && out[p] == tok[0] && string(out[p:p+len(tok)]) == tok:
				return true
			}
			skip = q
		}
		q = max(q, skip)
	}
	return false
}

// mayForge reports whether the data, holding the marks seen, could make
// the i-th token: it holds every mark of one of the token's needs.
func (g *Guard) mayForge(i int, seen *byteSet) bool {
	for k := range g.tokNeeds[i] {
		if g.tokNeeds[i][k].subsetOf(seen) {
			return true
		}
	}
	return false
}

// toolsVerdict returns what scanning tools finds, from the last Check
// when it had the same tools.
func (g *Guard) toolsVerdict(tools []chat.Tool) *ToolsVerdict {
	if tv := g.tools.Load(); tv != nil && SameTools(tv.tools, tools) {
		return tv
	}
	tv := g.ScanTools(tools)
	tv.tools = make([]chat.Tool, len(tools))
	for i, t := range tools {
		tv.tools[i] = chat.Tool{Name: t.Name, Description: t.Description, Parameters: bytes.Clone(t.Parameters)}
	}
	g.tools.Store(tv)
	return tv
}

// ScanTools is step 1 over a tool list: the verdict, for a caller that
// keeps it with its own copy of tools (it holds none of them).
func (g *Guard) ScanTools(tools []chat.Tool) *ToolsVerdict {
	var s scan
	s.tools(g, tools)
	return &ToolsVerdict{seen: s.seen, tok: s.tok, where: s.where, what: s.what}
}

// SameTools reports whether a and b define the same tools, as the scan
// reads them.
func SameTools(a, b []chat.Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Description != b[i].Description || !bytes.Equal(a[i].Parameters, b[i].Parameters) {
			return false
		}
	}
	return true
}

// neutralString returns s with every character that holds a mark replaced
// by as many 'x' as it has bytes.
func (g *Guard) neutralString(s string) string {
	i := 0
	for i < len(s) && !g.mark.has(s[i]) {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			if g.mark.has(c) {
				b[i] = 'x'
			}
			i++
			continue
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		hit := false
		for k := i; k < i+n; k++ {
			hit = hit || g.mark.has(b[k])
		}
		if hit {
			for k := i; k < i+n; k++ {
				b[k] = 'x'
			}
		}
		i += n
	}
	return string(b)
}

// neutralJSON returns the JSON text raw with its strings (keys too)
// neutral, in its structure; JSON that holds neither a mark nor an escape
// (its strings are then neutral) comes back as it is. Text it cannot read
// as JSON is made neutral as a string: a chat template receives tool call
// arguments that are not JSON as the string they are (a format refuses
// them), and kept as it is, the neutral rendering would write its marks
// where the rendering does, so the comparison could not see a token they
// join into.
func (g *Guard) neutralJSON(raw []byte) []byte {
	if len(raw) == 0 {
		return raw
	}
	plain := true
	for _, c := range raw {
		if c == '\\' || g.mark.has(c) {
			plain = false
			break
		}
	}
	if plain {
		return raw
	}
	v, err := pyjson.Parse(raw)
	if err != nil {
		return []byte(g.neutralString(string(raw)))
	}
	g.neutralValue(&v)
	return pyjson.Append(nil, v)
}

func (g *Guard) neutralValue(v *pyjson.Value) {
	switch v.Kind {
	case pyjson.String:
		v.Str = g.neutralString(v.Str)
	case pyjson.Array, pyjson.Object:
		for i := range v.Keys {
			v.Keys[i] = g.neutralString(v.Keys[i])
		}
		for i := range v.Items {
			g.neutralValue(&v.Items[i])
		}
	}
}

func (g *Guard) neutralAny(v any, depth int) any {
	if depth > maxDirectDepth {
		return g.neutralGoAny(v)
	}
	switch v := v.(type) {
	case nil, bool, int, int64, float64:
		return v
	case string:
		return g.neutralString(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[g.neutralString(k)] = g.neutralAny(x, depth+1)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = g.neutralAny(x, depth+1)
		}
		return out
	case []string:
		out := make([]string, len(v))
		for i, x := range v {
			out[i] = g.neutralString(x)
		}
		return out
	}
	return g.neutralGoAny(v)
}

// neutralGoAny is neutralGo of v, any value.
func (g *Guard) neutralGoAny(v any) any {
	if v == nil {
		return nil
	}
	return g.neutralGo(reflect.ValueOf(v), map[visit]reflect.Value{}).Interface()
}

// neutralTools returns tools made neutral, kept with the verdict on the
// same tools (Check's), where there is one: a caller usually passes the
// same tools at every rendering.
func (g *Guard) neutralTools(tools []chat.Tool) []chat.Tool {
	tv := g.tools.Load()
	if tv == nil || !SameTools(tv.tools, tools) {
		tv = nil
	}
	return g.NeutralTools(tv, tools)
}

// NeutralTools returns tools made neutral, kept with tv, the verdict on
// the same tools (ScanTools), or made afresh when tv is nil.
func (g *Guard) NeutralTools(tv *ToolsVerdict, tools []chat.Tool) []chat.Tool {
	if tv != nil {
		if nt := tv.neutral.Load(); nt != nil {
			return *nt
		}
	}
	nt := make([]chat.Tool, len(tools))
	for i, t := range tools {
		t.Name, t.Description, t.Parameters = g.neutralString(t.Name), g.neutralString(t.Description), g.neutralJSON(t.Parameters)
		if len(t.Parameters) > 0 && &t.Parameters[0] == &tools[i].Parameters[0] {
			t.Parameters = bytes.Clone(t.Parameters) // the caller may change its bytes later
		}
		nt[i] = t
	}
	if tv != nil {
		tv.neutral.Store(&nt)
	}
	return nt
}

// Neutral returns the data of a rendering made neutral: a copy, the
// caller's is not touched.
func (g *Guard) Neutral(msgs []chat.Message, tools []chat.Tool, vars map[string]any) ([]chat.Message, []chat.Tool, map[string]any) {
	out := make([]chat.Message, len(msgs))
	for i := range msgs {
		m := msgs[i]
		m.Role = chat.Role(g.neutralString(string(m.Role)))
		m.Name = g.neutralString(m.Name)
		m.ToolCallID = g.neutralString(m.ToolCallID)
		if m.Content != nil {
			m.Content = make([]chat.Part, len(msgs[i].Content))
			for j, p := range msgs[i].Content {
				p.Text, p.URL = g.neutralString(p.Text), g.neutralString(p.URL)
				m.Content[j] = p
			}
		}
		if m.ToolCalls != nil {
			m.ToolCalls = make([]chat.ToolCall, len(msgs[i].ToolCalls))
			for j, c := range msgs[i].ToolCalls {
				c.ID, c.Name, c.Arguments = g.neutralString(c.ID), g.neutralString(c.Name), g.neutralJSON(c.Arguments)
				m.ToolCalls[j] = c
			}
		}
		out[i] = m
	}
	if tools != nil {
		tools = g.neutralTools(tools)
	}
	if vars != nil {
		vars = g.neutralAny(vars, 0).(map[string]any)
	}
	return out, tools, vars
}

// Compare is step 2: out is the prompt, neutral the neutral one. A special
// token in out must stand at the same place in neutral when the two have
// one length, and occur no more often in out than in neutral otherwise.
func (g *Guard) Compare(out, neutral string) *Hit {
	if len(out) == len(neutral) {
		for at := 0; at < len(out); at++ {
			k := indexAnyByte(out[at:], &g.ts.first, g.ts.only, g.ts.n)
			if k < 0 {
				return nil
			}
			at += k
			for i := 0; i < g.count(); i++ {
				if tok, _ := g.at(i); strings.HasPrefix(out[at:], tok) && !strings.HasPrefix(neutral[at:], tok) {
					return forged(tok)
				}
			}
		}
		return nil
	}
	for i := 0; i < g.count(); i++ {
		if tok, _ := g.at(i); countOverlapping(out, tok) > countOverlapping(neutral, tok) {
			return forged(strings.Clone(tok))
		}
	}
	return nil
}

func forged(tok string) *Hit {
	return &Hit{Index: -1, Token: tok,
		Where: "the prompt, where the format or template makes the data's text into a token,"}
}

// countOverlapping counts the places tok starts in s.
func countOverlapping(s, tok string) int {
	n := 0
	for {
		i := strings.Index(s, tok)
		if i < 0 {
			return n
		}
		n++
		s = s[i+1:]
	}
}

// tokenSet is the bytes the special tokens start with (n of them; only,
// when n is 1).
type tokenSet struct {
	first [256]bool
	only  byte
	n     int
}

// find returns the special token that comes first in s (the longest where
// several start at one place), or "".
func find[S text](g *Guard, s S) string {
	ts := &g.ts
	if len(s) == 0 || ts.n == 0 {
		return ""
	}
	for at := 0; at < len(s); at++ {
		k := indexAnyByte(s[at:], &ts.first, ts.only, ts.n)
		if k < 0 {
			return ""
		}
		at += k
		if tok := tokenAt(g, s[at:]); tok != "" {
			return tok
		}
	}
	return ""
}

// indexAnyByte is the index of the first byte of s in set (which holds n
// bytes, only when n is 1), or -1.
func indexAnyByte[S text](s S, set *[256]bool, only byte, n int) int {
	if n == 1 {
		return indexByte(s, only)
	}
	for i := 0; i < len(s); i++ {
		if set[s[i]] {
			return i
		}
	}
	return -1
}
