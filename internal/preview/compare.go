package preview

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rolemark/rolemark/internal/linediff"
)

// compareView is the side-by-side of two renderings: A is the form's, B
// the same template with a second chat format or a second set of inputs.
type compareView struct {
	A, B  string // what each column shows, such as "chatml, the form's inputs"
	Rows  []diffRow
	Err   string // why B could not be rendered
	Same  bool   // A and B are equal
	Count int    // rows that differ
	// Tokens is the token counts of A and B, nil without a tokenizer.
	Tokens *compareTokens
}

// compareTokens is the token counts of the two sides: of the prompt
// strings when two formats are compared, of the messages (as OpenAI counts
// them) when two sets of inputs are.
type compareTokens struct {
	Name     string
	Messages bool
	A, B     int
}

// Delta says how B's count differs from A's.
func (c *compareTokens) Delta() string {
	switch d := c.B - c.A; {
	case d > 0:
		return fmt.Sprintf("B has %d more", d)
	case d < 0:
		return fmt.Sprintf("B has %d fewer", -d)
	}
	return "the same"
}

// diffRow is one line of the side-by-side: Kind is "same", "del" (A only),
// "ins" (B only) or "change" (both, differing in the marked middle).
type diffRow struct {
	Kind string
	A, B diffLine
}

// diffLine is a line cut in three: the middle is what differs.
type diffLine struct {
	N              int // 1-based line number, 0 for no line
	Pre, Mid, Post string
}

// maxDiffCells bounds the work of the line diff (lines of A times lines of
// B); beyond it lines are paired by position.
const maxDiffCells = 4_000_000

// sideBySide compares a and b line by line (longest common subsequence)
// and pairs the lines removed and added between two common ones, marking
// within each pair what lies between their common prefix and suffix.
func sideBySide(a, b string) []diffRow {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	type op struct {
		kind byte // '=', '-', '+'
		i, j int
	}
	var ops []op
	if len(la)*len(lb) > maxDiffCells {
		n := max(len(la), len(lb))
		for k := 0; k < n; k++ {
			switch {
			case k < len(la) && k < len(lb) && la[k] == lb[k]:
				ops = append(ops, op{'=', k, k})
			default:
				if k < len(la) {
					ops = append(ops, op{'-', k, -1})
				}
				if k < len(lb) {
					ops = append(ops, op{'+', -1, k})
				}
			}
		}
	} else {
		for _, e := range linediff.Edits(la, lb, false) {
			switch e.Op {
			case ' ':
				ops = append(ops, op{'=', e.I, e.J})
			case '+':
				ops = append(ops, op{'+', -1, e.J})
			default:
				ops = append(ops, op{'-', e.I, -1})
			}
		}
	}
	var rows []diffRow
	for k := 0; k < len(ops); {
		if ops[k].kind == '=' {
			rows = append(rows, diffRow{Kind: "same", A: diffLine{N: ops[k].i + 1, Pre: la[ops[k].i]}, B: diffLine{N: ops[k].j + 1, Pre: lb[ops[k].j]}})
			k++
			continue
		}
		var dels, inss []int
		for ; k < len(ops) && ops[k].kind != '='; k++ {
			if ops[k].kind == '-' {
				dels = append(dels, ops[k].i)
			} else {
				inss = append(inss, ops[k].j)
			}
		}
		for n := 0; n < max(len(dels), len(inss)); n++ {
			switch {
			case n < len(dels) && n < len(inss):
				x, y := marked(la[dels[n]], lb[inss[n]])
				x.N, y.N = dels[n]+1, inss[n]+1
				rows = append(rows, diffRow{Kind: "change", A: x, B: y})
			case n < len(dels):
				rows = append(rows, diffRow{Kind: "del", A: diffLine{N: dels[n] + 1, Mid: la[dels[n]]}})
			default:
				rows = append(rows, diffRow{Kind: "ins", B: diffLine{N: inss[n] + 1, Mid: lb[inss[n]]}})
			}
		}
	}
	return rows
}

// marked cuts two lines into their common prefix, the differing middle and
// their common suffix, on rune boundaries.
func marked(a, b string) (diffLine, diffLine) {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	runeStart := func(s string, i int) bool { return i >= len(s) || utf8.RuneStart(s[i]) }
	for p > 0 && !(runeStart(a, p) && runeStart(b, p)) {
		p--
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	for s > 0 && !(runeStart(a, len(a)-s) && runeStart(b, len(b)-s)) {
		s--
	}
	return diffLine{Pre: a[:p], Mid: a[p : len(a)-s], Post: a[len(a)-s:]},
		diffLine{Pre: b[:p], Mid: b[p : len(b)-s], Post: b[len(b)-s:]}
}
