package linediff_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolemark/rolemark/internal/linediff"
)

// script writes edits as one string: the op and the line of each.
func script(x, y []string, edits []linediff.Edit) string {
	var b strings.Builder
	for _, e := range edits {
		b.WriteByte(e.Op)
		if e.Op == '+' {
			b.WriteString(y[e.J])
		} else {
			b.WriteString(x[e.I])
		}
		b.WriteByte(' ')
	}
	return b.String()
}

func TestEdits(t *testing.T) {
	tests := []struct {
		name, x, y         string
		delFirst, insFirst string
	}{
		{"equal", "a b", "a b", " a  b ", " a  b "},
		{"one changed line", "a b c", "a x c", " a -b +x  c ", " a +x -b  c "},
		{"added at the end", "a", "a b", " a +b ", " a +b "},
		{"removed at the start", "a b", "b", "-a  b ", "-a  b "},
		{"all different", "a b", "c", "-a -b +c ", "+c -a -b "},
		{"kept in the middle", "a k b", "c k d", "-a +c  k -b +d ", "+c -a  k +d -b "},
		{"empty x", "", "a", "+a ", "+a "},
	}
	for _, tc := range tests {
		x, y := strings.Fields(tc.x), strings.Fields(tc.y)
		assert.Equal(t, tc.delFirst, script(x, y, linediff.Edits(x, y, true)), tc.name+": removals first")
		assert.Equal(t, tc.insFirst, script(x, y, linediff.Edits(x, y, false)), tc.name+": additions first")
	}
}

// TestEditsIndexes: a removal carries the index in y of the next line
// there, an addition the index in x of the next line there.
func TestEditsIndexes(t *testing.T) {
	x, y := []string{"a", "b", "c"}, []string{"a", "x", "c"}
	assert.Equal(t, []linediff.Edit{{' ', 0, 0}, {'-', 1, 1}, {'+', 2, 1}, {' ', 2, 2}}, linediff.Edits(x, y, true))
	assert.Equal(t, []linediff.Edit{{' ', 0, 0}, {'+', 1, 1}, {'-', 1, 2}, {' ', 2, 2}}, linediff.Edits(x, y, false))
}
