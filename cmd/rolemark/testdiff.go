package main

import (
	"bytes"
	"fmt"
	"strings"
)

// unifiedDiff returns the lines of a and b as a unified diff with three
// lines of context, headed --- from and +++ to; nil when they are equal.
// It compares by the longest common subsequence of lines, which the short
// results of test cases afford.
func unifiedDiff(from, to, a, b string) []byte {
	if a == b {
		return nil
	}
	x, y := splitLines(a), splitLines(b)
	// lcs[i][j] is the length of the longest common subsequence of x[i:]
	// and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type edit struct {
		op   byte // ' ', '-', '+'
		line string
		i, j int // line numbers (0-based) in x and y before this edit
	}
	var edits []edit
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			edits = append(edits, edit{' ', x[i], i, j})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			edits = append(edits, edit{'-', x[i], i, j})
			i++
		default:
			edits = append(edits, edit{'+', y[j], i, j})
			j++
		}
	}
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
