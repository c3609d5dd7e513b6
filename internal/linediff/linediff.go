// Package linediff compares two lists of lines along a longest common
// subsequence: the edit script (Edits) under the preview's side-by-side
// view, and the unified diff (Unified) that rolemark test prints.
package linediff

// Edit is one step of an edit script: Op is ' ' for a line both lists
// keep, '-' for a line of x only and '+' for a line of y only. I and J are
// the indexes in x and y of the line, or, on the side that lacks it, of
// the next line there.
type Edit struct {
	Op   byte
	I, J int
}

// Edits returns the script that turns x into y keeping a longest common
// subsequence of lines. It fills a table of (len(x)+1)*(len(y)+1) int32
// cells, which callers bound. Where a removal and an addition would both
// do, removals come first when delFirst (as diff -u writes them) and
// additions otherwise.
func Edits(x, y []string, delFirst bool) []Edit {
	// lcs[i*w+j] is the length of the longest common subsequence of
	// x[i:] and y[j:].
	w := len(y) + 1
	lcs := make([]int32, (len(x)+1)*w)
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	edits := make([]Edit, 0, max(len(x), len(y)))
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		var del bool
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			edits = append(edits, Edit{' ', i, j})
			i, j = i+1, j+1
			continue
		case delFirst:
			del = i < len(x) && (j == len(y) || lcs[(i+1)*w+j] >= lcs[i*w+j+1])
		default:
			del = !(j < len(y) && (i == len(x) || lcs[i*w+j+1] >= lcs[(i+1)*w+j]))
		}
		if del {
			edits = append(edits, Edit{'-', i, j})
			i++
		} else {
			edits = append(edits, Edit{'+', i, j})
			j++
		}
	}
	return edits
}
