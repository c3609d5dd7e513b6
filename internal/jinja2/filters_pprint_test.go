package jinja2

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPformatAsPython compares with pprint.pformat's output, which
// testdata/pprint.txt holds (testdata/pformat.py wrote it).
func TestPformatAsPython(t *testing.T) {
	f, err := os.Open("testdata/pprint.txt")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		lit, js, ok := strings.Cut(sc.Text(), "\t")
		require.True(t, ok)
		var want string
		require.NoError(t, json.Unmarshal([]byte(js), &want))
		assert.Equal(t, want, pformat(parsePyLit(t, lit)), lit)
		n++
	}
	require.NoError(t, sc.Err())
	require.Equal(t, 13, n)
}
