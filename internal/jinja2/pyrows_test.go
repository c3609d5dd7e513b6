package jinja2

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// pyRows reads a testdata file a Python script wrote, one case a line and
// its fields separated by tabs, and requires fields fields on every line
// and n lines in all, so that a truncated or regenerated file fails the
// test instead of testing less.
func pyRows(t *testing.T, path string, fields, n int) [][]string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var rows [][]string
	for sc.Scan() {
		p := strings.Split(sc.Text(), "\t")
		require.Len(t, p, fields, "%s:%d: %s", path, len(rows)+1, sc.Text())
		rows = append(rows, p)
	}
	require.NoError(t, sc.Err())
	require.Equal(t, n, len(rows), "%s: lines", path)
	return rows
}
