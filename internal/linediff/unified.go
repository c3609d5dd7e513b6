package linediff

import (
	"bytes"
	"fmt"
	"strings"
)

// maxDiffCells bounds the table of the longest common subsequence (int32
// cells, 16 MB): lines that differ beyond it are shown as all removed, then
// all added, so that a huge result cannot exhaust memory.
const maxDiffCells = 1 << 22

// diffEdit is one line of a diff: kept (' '), removed ('-') or added ('+'),
// with the line numbers (0-based) in a and b before it.
type diffEdit struct {
	op   byte
	line string
	i, j int
}

// Unified returns the lines of a and b as a unified diff with three
// lines of context, headed --- from and +++ to; nil when they are equal.
// Past the lines that a and b start and end with, it compares by the
// longest common subsequence of lines (Edits), which the short results of
// test cases afford (see maxDiffCells for long ones).
func Unified(from, to, a, b string) []byte {
	if a == b {
		return nil
	}
	x, y := splitLines(a), splitLines(b)
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	var edits []diffEdit
	for k := 0; k < pre; k++ {
		edits = append(edits, diffEdit{' ', x[k], k, k})
	}
	edits = append(edits, middleEdits(x[pre:len(x)-suf], y[pre:len(y)-suf], pre)...)
	for k := suf; k > 0; k-- {
		i, j := len(x)-k, len(y)-k
		edits = append(edits, diffEdit{' ', x[i], i, j})
	}
	return writeHunks(from, to, edits)
}

// middleEdits diffs x and y, which start at line off of both texts.
func middleEdits(x, y []string, off int) []diffEdit {
	var edits []diffEdit
	if (len(x)+1)*(len(y)+1) > maxDiffCells {
		for k, l := range x {
			edits = append(edits, diffEdit{'-', l, off + k, off})
		}
		for k, l := range y {
			edits = append(edits, diffEdit{'+', l, off + len(x), off + k})
		}
		return edits
	}
	for _, e := range Edits(x, y, true) {
		var line string
		if e.Op == '+' {
			line = y[e.J]
		} else {
			line = x[e.I]
		}
		edits = append(edits, diffEdit{e.Op, line, off + e.I, off + e.J})
	}
	return edits
}

// writeHunks writes the edits as unified-diff hunks with three lines of
// context.
func writeHunks(from, to string, edits []diffEdit) []byte {
	const context = 3
	var out bytes.Buffer
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
	for k := 0; k < len(edits); {
		if edits[k].op == ' ' {
			k++
			continue
		}
		// A hunk: from context lines before this change to context lines
		// after the last change that is no more than 2*context away.
		start := max(k-context, 0)
		end := k
		for end < len(edits) {
			if edits[end].op != ' ' {
				end++
				continue
			}
			run := end
			for run < len(edits) && edits[run].op == ' ' {
				run++
			}
			if run == len(edits) || run-end > 2*context {
				end = min(end+context, len(edits))
				break
			}
			end = run
		}
		var ni, nj int
		for _, e := range edits[start:end] {
			if e.op != '+' {
				ni++
			}
			if e.op != '-' {
				nj++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(edits[start].i, ni), hunkRange(edits[start].j, nj))
		for _, e := range edits[start:end] {
			out.WriteByte(e.op)
			out.WriteString(e.line)
			out.WriteByte('\n')
		}
		k = end
	}
	return out.Bytes()
}

// hunkRange writes a hunk's start and length as unified diffs do: 1-based,
// the length left out when it is 1, and the line before for an empty range.
func hunkRange(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
