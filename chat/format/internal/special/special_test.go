package special

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
)

// naiveCheck is Check written the plain way: every token searched for in
// every string, the marks read byte by byte; it is what scan must find.
func naiveCheck(g *Guard, strs []string) (tok string, at int, marks byteSet) {
	for i, s := range strs {
		for j := 0; j < len(s); j++ {
			if g.mark.has(s[j]) {
				marks.add(s[j])
			}
		}
		first, best := -1, ""
		for k := 0; k < g.count(); k++ {
			t, _ := g.at(k)
			if x := strings.Index(s, t); x >= 0 && (first < 0 || x < first || x == first && len(t) > len(best)) {
				first, best = x, t
			}
		}
		if best != "" {
			return best, i, marks
		}
	}
	return "", -1, marks
}

// TestScanMatchesNaive checks the one-pass scan of short strings and the
// searches of long ones (past shortScan) against naiveCheck, on strings
// with tokens, parts of tokens and marks at either end.
func TestScanMatchesNaive(t *testing.T) {
	tokenSets := [][]string{
		{"<|im_start|>", "<|im_end|>"},
		{"<s>", "</s>", "[INST]", "[/INST]"},
		{"<|im_end|>"},
		{"<|a|>", "<|a|>b"}, // the longest at one place wins
	}
	pieces := []string{"", "hello", "<|im_", "|>", "<", "[INST", "</s", "<|a|>", "<|a|>b", "é✓", "\\u003c", "_", "x<s>y", "<|im_end|>", "[/INST]"}
	pads := []string{"", strings.Repeat("p", shortScan), strings.Repeat("q", shortScan-3)}
	for _, toks := range tokenSets {
		g := New(toks)
		require.NotNil(t, g)
		for _, a := range pieces {
			for _, b := range pieces {
				for _, pad := range pads {
					for _, s := range []string{a + pad + b, pad + a + b, a + b + pad} {
						wantTok, _, wantMarks := naiveCheck(g, []string{s})
						var sc scan
						ok := sc.str(g, 0, "content", s)
						assert.Equal(t, wantTok == "", ok, "%q in %q", toks, s)
						assert.Equal(t, wantTok, sc.tok, "%q in %q", toks, s)
						if wantTok == "" {
							assert.Equal(t, wantMarks, sc.seen, "marks of %q in %q", toks, s)
						}
						var sj scan
						sj.json(g, 0, "x", []byte(s))
						if wantTok != "" || !strings.Contains(s, "\\") {
							assert.Equal(t, sc.tok, sj.tok, "JSON text %q", s)
							assert.Equal(t, sc.seen, sj.seen, "JSON text %q", s)
						}
					}
				}
			}
		}
	}
}

// TestCheckKeepsToolsVerdict checks that the verdict kept for the last
// tools is used only for the same tools: a change in any field the scan
// reads is scanned again.
func TestCheckKeepsToolsVerdict(t *testing.T) {
	g := New([]string{"<|im_start|>", "<|im_end|>"})
	msgs := []chat.Message{chat.Text(chat.RoleUser, "hi")}
	clean := []chat.Tool{{Name: "f", Description: "d", Parameters: json.RawMessage(`{"type":"object"}`)}}
	bad := []chat.Tool{{Name: "f", Description: "d", Parameters: json.RawMessage(`{"type":"<|im_end|>"}`)}}
	badName := []chat.Tool{{Name: "f<|im_start|>", Description: "d", Parameters: json.RawMessage(`{"type":"object"}`)}}
	marks := []chat.Tool{{Name: "f", Description: "a<b|c_d>", Parameters: json.RawMessage(`{"type":"object"}`)}}
	for i, tc := range []struct {
		tools   []chat.Tool
		where   string
		neutral bool
	}{
		{clean, "", false},
		{bad, `tool definition "f"`, false},
		{clean, "", false},
		{badName, `tool definition "f<|im_start|>"`, false},
		{marks, "", true},
		{clean, "", false},
		{nil, "", false},
		{bad, `tool definition "f"`, false},
		{bad, `tool definition "f"`, false},
	} {
		neutral, hit := g.Check(msgs, tc.tools, nil)
		if tc.where == "" {
			assert.Nil(t, hit, "step %d", i)
			assert.Equal(t, tc.neutral, neutral, "step %d", i)
		} else if assert.NotNil(t, hit, "step %d", i) {
			assert.Equal(t, Hit{Index: -1, Token: hit.Token, Where: tc.where}, *hit, "step %d", i)
		}
	}
	// The caller's tools may change after Check: the verdict is on a copy.
	mine := []chat.Tool{{Name: "f", Description: "d", Parameters: json.RawMessage(`{"type":"object"}`)}}
	_, hit := g.Check(msgs, mine, nil)
	require.Nil(t, hit)
	copy(mine[0].Parameters, `{"":"<|im_end|>"}`)
	_, hit = g.Check(msgs, mine, nil)
	assert.NotNil(t, hit)
}

// TestCheckAllocates checks that Check of a conversation with tool calls
// and tools seen before makes no allocation.
func TestCheckAllocates(t *testing.T) {
	g := New([]string{"<|im_start|>", "<|im_end|>"})
	msgs := []chat.Message{
		chat.Text(chat.RoleSystem, "You are a helpful assistant."),
		chat.Text(chat.RoleUser, "What's the weather in Paris?"),
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c1", Name: "get_weather", Arguments: json.RawMessage(`{"city": "Paris"}`)}}},
		{Role: chat.RoleTool, ToolCallID: "c1", Content: []chat.Part{{Type: chat.PartText, Text: `{"temp": 21}`}}},
	}
	tools := []chat.Tool{{Name: "get_weather", Description: "Weather of a city", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}}}`)}}
	allocs := testing.AllocsPerRun(100, func() {
		if _, hit := g.Check(msgs, tools, nil); hit != nil {
			t.Fatal(hit)
		}
	})
	assert.Zero(t, allocs)
}

// Neutral keeps the neutral copy of the tools Check saw, and uses it only
// while the caller passes the same tools; JSON text without a mark or an
// escape is its own neutral copy.
func TestNeutralToolsKept(t *testing.T) {
	g := New([]string{"<|im_start|>", "<|im_end|>"})
	params := []byte(`{"type": "object", "properties": {"city": {"description": "a <b>|c_d"}}}`)
	tools := []chat.Tool{{Name: "get_weather", Description: "Weather <now>.", Parameters: params}}
	want := []chat.Tool{{Name: "getxweather", Description: "Weather xnowx.",
		Parameters: []byte(`{"type": "object", "properties": {"city": {"description": "a xbxxcxd"}}}`)}}
	_, hit := g.Check(nil, tools, nil)
	require.Nil(t, hit)
	_, first, _ := g.Neutral(nil, tools, nil)
	assert.Equal(t, want, first)
	_, again, _ := g.Neutral(nil, tools, nil)
	assert.Same(t, &first[0], &again[0])
	assert.Zero(t, testing.AllocsPerRun(10, func() { g.Neutral(nil, tools, nil) }))
	// The caller changes its bytes in place: the kept copy is not used.
	copy(params[len(params)-9:], `e|f_g"}}}`)
	_, changed, _ := g.Neutral(nil, tools, nil)
	assert.Equal(t, `{"type": "object", "properties": {"city": {"description": "a xbexfxg"}}}`, string(changed[0].Parameters))
	assert.Equal(t, want, first, "the first copy stays as it was")
	// Plain JSON text comes back as it is, without a copy.
	plain := []byte(`{"city": "Paris", "n": 1}`)
	assert.Same(t, &plain[0], &g.neutralJSON(plain)[0])
	assert.Equal(t, `{"city": "xxim"}`, string(g.neutralJSON([]byte(`{"city": "\u003c|im"}`))))
	// Text that is not JSON is made neutral as a string.
	assert.Equal(t, `xximxendxx {`, string(g.neutralJSON([]byte(`<|im_end|> {`))))
}

// setOf is the byteSet of the bytes of s.
func setOf(s string) byteSet {
	var b byteSet
	for i := 0; i < len(s); i++ {
		b.add(s[i])
	}
	return b
}

// joinNeeds finds the smallest sets of marks data must hold to make a
// token with the template's own pieces.
func TestJoinNeeds(t *testing.T) {
	for _, tc := range []struct {
		tok   string
		lits  []string
		needs []string // each the marks of one need
	}{
		{"<|im_end|>", []string{"<|", "|>"}, []string{"_"}},
		{"<|im_end|>", []string{"x<|im_"}, []string{"|>"}},
		{"<|user|>", []string{"<|", "|>"}, []string{"<|", "|>"}},
		{"<tool_call>", []string{"\n<", ">", "_"}, []string{"<", ">", "_"}},
		{"<tool_call>", []string{"\n<", ">"}, []string{"_"}},
		{"[/INST]", []string{"[AVAILABLE_TOOLS] [", "]"}, []string{"/"}},
		{"[INST]", []string{"[AVAILABLE_TOOLS] [", "]"}, []string{"[", "]"}},
		{"</s>", []string{"</"}, []string{">"}},
		{"<｜end▁of▁sentence｜>", []string{"<｜"}, []string{"\xe2\x96\x81\xef\xbd\x9c>"}},
		{"<|im_end|>", []string{"hello", "<|im_end|>"}, nil}, // no piece: the rule that data holds every mark
	} {
		g := New([]string{tc.tok})
		_, marks := g.at(0)
		var want []byteSet
		for _, n := range tc.needs {
			want = append(want, setOf(n))
		}
		ps := make([]Piece, len(tc.lits))
		for i, lit := range tc.lits {
			ps[i] = Piece{Text: lit}
		}
		assert.ElementsMatch(t, want, joinNeeds(tc.tok, marks, ps), "%q with %q", tc.tok, tc.lits)
	}
}

// A piece closed on a side (the template's write order puts no data
// there) leaves no mark of the token to data on that side: the ways
// that copy one there are not ways. A letter or digit next to it may
// be data's; a mark there may be another piece's.
func TestJoinNeedsClosedSides(t *testing.T) {
	rc := func(s string) Piece { return Piece{Text: s, RightClosed: true} }
	lc := func(s string) Piece { return Piece{Text: s, LeftClosed: true} }
	op := func(s string) Piece { return Piece{Text: s} }
	for _, tc := range []struct {
		tok    string
		pieces []Piece
		needs  []string
	}{
		// Jinja2's own brackets: [ never followed by data, ] never
		// preceded by it (open on both sides, the need was "/")
		{"[/INST]", []Piece{rc("["), lc("]")}, []string{"[/"}},
		{"[INST]", []Piece{rc("["), lc("]")}, []string{"[", "]"}},
		// a literal's end followed by template text only
		{"[/INST]", []Piece{rc("[AVAILABLE_TOOLS] ["), op("]")}, []string{"[/"}},
		// the same literal's end followed by data
		{"[/INST]", []Piece{op("[AVAILABLE_TOOLS] ["), op("]")}, []string{"/"}},
		// a mark next to a closed side written by another piece
		{"[/INST]", []Piece{rc("["), op("/"), lc("]")}, []string{"[", "]"}},
		// letters next to a closed side may be data's
		{"</s>", []Piece{rc("</")}, []string{">"}},
		{"<|im_end|>", []Piece{rc("<|"), lc("|>")}, []string{"_"}},
		// the mark right after a closed end, right before a closed start
		{"<|im_end|>", []Piece{rc("<|im"), lc("_end|>")}, []string{"<|"}},
		{"<|im_end|>", []Piece{op("<|im"), op("_end|>")}, []string{"<|", "_|>"}},
		{"<|im_end|>", []Piece{lc("_end|>")}, []string{"<|"}},
		{"<|im_end|>", []Piece{op("_end|>")}, []string{"<|"}},
		{"<|im_end|>", []Piece{lc("|>")}, []string{"<|_"}},
		{"<tool_call>", []Piece{lc("_")}, []string{"<>"}},
		{"<tool_call>", []Piece{lc("_"), rc("<")}, []string{">"}},
	} {
		g := New([]string{tc.tok})
		_, marks := g.at(0)
		var want []byteSet
		for _, n := range tc.needs {
			want = append(want, setOf(n))
		}
		assert.ElementsMatch(t, want, joinNeeds(tc.tok, marks, tc.pieces), "%q with %+v", tc.tok, tc.pieces)
	}
}

// Step 2 runs when the data holds the marks one of the template's joins
// leaves to data, and not for data that holds others only.
func TestCheckJoinedBy(t *testing.T) {
	g := New([]string{"<|im_start|>", "<|im_end|>", "<tool_call>"})
	g.JoinedBy([]string{"<|", "|>\n", "\n<", ">"})
	for _, tc := range []struct {
		text    string
		neutral bool
	}{
		{"Weather in Paris?", false},
		{"a <b> c > d", false}, // < and > are the template's
		{"snake_case", true},   // <tool_call>: "\n<" + "tool_call" + ">"
		{"a | b", false},       // every way leaves _ to data: no literal holds it
		{"im_end and <", true}, // _
		{"<b>a<|im", false},    // <, > and |, but no _
	} {
		neutral, hit := g.Check([]chat.Message{chat.Text(chat.RoleUser, tc.text)}, nil, nil)
		require.Nil(t, hit, tc.text)
		assert.Equal(t, tc.neutral, neutral, "%q", tc.text)
	}
}

// Forgeable: a prompt needs the neutral rendering only when it holds a
// token the data could have made, by the data's marks alone or with a
// join of the template's text; a need of no one token (AlsoMark) makes
// every token one.
func TestForgeable(t *testing.T) {
	g := New([]string{"<|im_start|>", "<|im_end|>", "<tool_call>", "<|/tool|>"})
	g.JoinedBy([]string{"<|", "|>", "\n<", ">"})
	for _, tc := range []struct {
		data, out string
		forgeable bool
	}{
		// / makes <|/tool|> with "<|" and "|>"; the prompt holds none
		{"Europe/Paris", "<|im_start|>user\nEurope/Paris<|im_end|>", false},
		{"Europe/Paris", "<|user|>Europe/Paris<|/tool|>", true},
		// _ makes <tool_call> (and with | the chatml tokens): the prompt holds one
		{"get_weather", "<tool_call>get_weather", true},
		{"get_weather", "<|im_end|>get_weather", true}, // "<|" + "im_end" + "|>"
		{"a<b>c", "<|im_end|><tool_call>", false},      // < and > are the template's
		{"a|b_c", "<|im_end|>", true},
		{"plain", "<|im_start|><tool_call><|/tool|>", false},
	} {
		seen, _, hit := g.CheckMarks([]chat.Message{chat.Text(chat.RoleUser, tc.data)}, nil, nil)
		require.Nil(t, hit, tc.data)
		assert.Equal(t, tc.forgeable, g.Forgeable(seen, tc.out), "%q in %q", tc.data, tc.out)
	}
	g.AlsoMark('&')
	seen, _, _ := g.CheckMarks([]chat.Message{chat.Text(chat.RoleUser, "&#60;")}, nil, nil)
	assert.True(t, g.Forgeable(seen, "x<|im_start|>"))
	assert.False(t, g.Forgeable(seen, "x"))
}

type testSpans [][2]int

func (s testSpans) at(i int) (start, end int, ok bool) {
	if i >= len(s) {
		return 0, 0, false
	}
	return s[i][0], s[i][1], true
}

// naiveForgeableOutside is ForgeableOutside written the plain way: every
// place of every token the data could make, each looked up in the spans.
func naiveForgeableOutside(g *Guard, seen Marks, out string, own testSpans) bool {
	for i := 0; i < g.count(); i++ {
		tok, _ := g.at(i)
		if !g.mayForge(i, &seen.set) {
			continue
		}
		for at := 0; at+len(tok) <= len(out); at++ {
			if out[at:at+len(tok)] != tok {
				continue
			}
			inOne := false
			for _, sp := range own {
				inOne = inOne || sp[0] <= at && at+len(tok) <= sp[1]
			}
			if !inOne {
				return true
			}
		}
	}
	return false
}

// ForgeableOutside seeks tokens by their anchors and skips what lies in
// a span; it must decide as looking up every place of every token does,
// whatever the spans: touching, apart by less or more than a token, at
// either end, none, or not in order (then at least as strictly); of
// bytes (ForgeableOutsideBytes) as of a string.
func TestForgeableOutsideAsEveryPlace(t *testing.T) {
	g := New([]string{"<|im_end|>", "<|/tool|>", "<s>", "</s>", "<tool_call>"})
	g.JoinedBy([]string{"<|", "|>", "<", ">"})
	pieces := []string{"<|im_end|>", "<|/tool|>", "<s>", "</s>", "<tool_call>", "<|", "|>", "/", "s", "x", "tool_call", "im_end", "<", ">", "ab"}
	datas := []string{"Europe/Paris", "a_b|c", "s/t", "plain", "<>", "x_y"}
	r := rand.New(rand.NewPCG(1, 2))
	forgeable := 0
	for n := 0; n < 20000; n++ {
		seen, _, hit := g.CheckMarks([]chat.Message{chat.Text(chat.RoleUser, datas[r.IntN(len(datas))])}, nil, nil)
		require.Nil(t, hit)
		var b strings.Builder
		for k := r.IntN(8); k >= 0; k-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		out := b.String()
		var own testSpans
		for at := 0; at < len(out); {
			at += r.IntN(4)
			if r.IntN(4) == 0 && len(own) > 0 {
				at = own[len(own)-1][1] // touching the one before
			}
			end := min(at+r.IntN(14), len(out))
			if at >= end {
				break
			}
			own = append(own, [2]int{at, end})
			at = end
		}
		if len(own) > 1 && r.IntN(20) == 0 {
			// not in order: never less strict than the spans say
			own[0], own[1] = own[1], own[0]
			if naiveForgeableOutside(g, seen, out, own) {
				require.True(t, g.ForgeableOutside(seen, out, own.at), "%q, spans %v out of order", out, own)
			}
			continue
		}
		want := naiveForgeableOutside(g, seen, out, own)
		if want {
			forgeable++
		}
		require.Equal(t, want, g.ForgeableOutside(seen, out, own.at), "%q, spans %v", out, own)
		require.Equal(t, want, g.ForgeableOutsideBytes(seen, []byte(out), own.at), "%q as bytes, spans %v", out, own)
		// the tokens worked out once for the marks, as a kept
		// conversation keeps them, decide the same
		f := g.Forgers(seen)
		require.Equal(t, want, g.ForgeableBy(f, out, own.at), "%q by its forgers, spans %v", out, own)
		require.Equal(t, want, g.ForgeableByBytes(f, []byte(out), own.at), "%q as bytes by its forgers, spans %v", out, own)
		require.Equal(t, naiveForgeableOutside(g, seen, out, nil), g.ForgeableOutside(seen, out, nil), "%q", out)
	}
	require.Greater(t, forgeable, 1000)
}

// needsNeutral and Forgeable read the smallest needs (settle); they must
// decide as every need read one by one does, for every set of marks the
// data may hold.
func TestSmallestNeedsDecideAsAll(t *testing.T) {
	for _, tc := range []struct {
		tokens []string
		lits   []string
		also   bool
	}{
		{tokens: []string{"<s>", "<|im_start|>", "<|im_end|>"}},
		{tokens: []string{"</s>", "<s>", "<|/tool|>", "<|assistant|>", "<|end|>", "<|tool|>"}, lits: []string{"<|", "|>", "\n<"}},
		{tokens: []string{"<tool_call>", "</tool_call>", "<|im_end|>", "[/INST]", "[INST]"}, lits: []string{"\n<", ">", "[", "]", "</"}, also: true},
		{tokens: []string{"abc", "<x>"}},
	} {
		g := New(tc.tokens)
		if tc.lits != nil {
			g.JoinedBy(tc.lits)
		}
		if tc.also {
			g.AlsoMark('&')
		}
		var marks []byte
		for c := 0; c < 256; c++ {
			if g.mark.has(byte(c)) {
				marks = append(marks, byte(c))
			}
		}
		require.LessOrEqual(t, len(marks), 12)
		for bits := 0; bits < 1<<len(marks); bits++ {
			var seen byteSet
			for i, c := range marks {
				if bits&(1<<i) != 0 {
					seen.add(c)
				}
			}
			// every need, one by one
			want := g.always
			anyTok := false
			for k, need := range g.joinNeed {
				if need.subsetOf(&seen) {
					want = true
					anyTok = anyTok || g.joinTok[k] < 0
				}
			}
			for i := 0; i < g.count(); i++ {
				_, m := g.at(i)
				may := anyTok || m.subsetOf(&seen)
				for k := range g.joinNeed {
					may = may || g.joinTok[k] == i && g.joinNeed[k].subsetOf(&seen)
				}
				want = want || may
				tok, _ := g.at(i)
				assert.Equal(t, may, g.Forgeable(Marks{seen}, "x"+tok+"x"), "%q with %v", tok, bits)
			}
			assert.Equal(t, want, g.needsNeutral(&seen), "%v with %v", tc.tokens, bits)
		}
	}
}

// Of template variables that hold tokens, the error names the first by
// name, with its token, at every call: a map's order, which changes from
// call to call, does not choose it.
func TestCheckNamesTheFirstVariable(t *testing.T) {
	g := New([]string{"<|im_end|>", "</s>", "<s>"})
	vars := map[string]any{
		"tools_prompt": "x</s>", "date_string": "<s>", "system_message": "a<|im_end|>",
		"zeta": map[string]any{"k": "</s>"}, "a_plain": "no token", "name": []any{"<|im_end|>"},
	}
	for range 50 {
		_, found := g.Check(nil, nil, vars)
		require.NotNil(t, found)
		assert.Equal(t, Hit{Index: -1, Token: "<s>", Where: `template variable "date_string"`}, *found)
	}
}
