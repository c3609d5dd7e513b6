package textpos_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rolemark/rolemark/internal/textpos"
)

func TestLineCol(t *testing.T) {
	tests := []struct {
		s         string
		off       int
		line, col int
	}{
		{"", 0, 1, 1},
		{"abc", 0, 1, 1},
		{"abc", 2, 1, 3},
		{"abc", 3, 1, 4},
		{"abc", 9, 1, 4},
		{"abc", -1, 1, 1},
		{"a\nbc", 2, 2, 1},
		{"a\nbc", 3, 2, 2},
		{"a\n", 1, 1, 2},
		{"é✓\n😀x", 10, 2, 2}, // runes, not bytes
		{"\t\tx", 2, 1, 3},
		{"a\r\nb", 3, 2, 1},
		{"a\r\nb", 2, 1, 3}, // at the LF of a CRLF: still the first line
		// a lone CR ends a line, as LSP and the engines count lines
		{"a\rb", 2, 2, 1},
		{"a\rbc\r\rd", 7, 4, 2},
		{"a\r", 2, 2, 1},
		{"é\r😀x", 7, 2, 2},
	}
	for _, tc := range tests {
		line, col := textpos.LineCol(tc.s, tc.off)
		assert.Equal(t, [2]int{tc.line, tc.col}, [2]int{line, col}, "%q at %d", tc.s, tc.off)
	}
}

func TestFrontMatterEnd(t *testing.T) {
	tests := []struct {
		name, s string
		want    int
	}{
		{"none", "Hello {{name}}\n", 0},
		{"empty", "", 0},
		{"front matter", "---\nmodel: m\n---\nHello\n", 17},
		{"closing line ends the text", "---\na: 1\n---\n", 13},
		{"closing line without newline is not closed", "---\na: 1\n---", 0},
		{"blank lines and comments before", "\n# c\n  \n---\na: 1\n---\nx", 21},
		{"text before the opening line", "x\n---\na: 1\n---\n", 0},
		{"never closed", "---\na: 1\nHello\n", 0},
		{"spaces and CR after the dashes", "--- \r\na: 1\n---\t\nx", 16},
		{"indented dashes are no line of dashes", "  ---\na: 1\n---\n", 0},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, textpos.FrontMatterEnd(tc.s), tc.name)
	}
}

// TestCursorIsLineCol: a Cursor answers as LineCol does, for offsets asked
// in order and out of it, over multi-byte text, lines and the ends.
func TestCursorIsLineCol(t *testing.T) {
	for _, tc := range []struct {
		s      string
		orders [][]int
	}{
		{"héllo\n\n😀 x\ty\nend 👍🏽", [][]int{
			{0, 1, 2, 3, 6, 7, 8, 12, 13, 14, 100},
			{14, 3, 3, 0, -1, 8, 7, 20, 1},
		}},
		// lone CRs and CRLFs, asked at the LF of a CRLF and after it
		{"a\r\nb\rc\r\r😀\r\n", [][]int{
			{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 14},
			{2, 3, 5, 4, 12, 13, 0, 14},
		}},
	} {
		testCursor(t, tc.s, tc.orders)
	}
}

func testCursor(t *testing.T, s string, orders [][]int) {
	t.Helper()
	for _, order := range orders {
		c := textpos.NewCursor(s)
		for _, off := range order {
			line, col := textpos.LineCol(s, off)
			gl, gc := c.LineCol(off)
			if gl != line || gc != col {
				t.Fatalf("offset %d: cursor %d:%d, LineCol %d:%d", off, gl, gc, line, col)
			}
		}
	}
}
