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

// TestUrlizeAsJinja2 compares with Jinja2's |urlize, whose output
// testdata/urlize.txt holds (testdata/urlize.py wrote it).
func TestUrlizeAsJinja2(t *testing.T) {
	f, err := os.Open("testdata/urlize.txt")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		p := strings.Split(sc.Text(), "\t")
		require.Len(t, p, 3)
		var kwm map[string]any
		d := json.NewDecoder(strings.NewReader(p[1]))
		d.UseNumber()
		require.NoError(t, d.Decode(&kwm))
		var kw []Kwarg
		for k, v := range kwm {
			kw = append(kw, Kwarg{k, FromGo(v)})
		}
		var want string
		require.NoError(t, json.Unmarshal([]byte(p[2]), &want))
		got, err := fUrlize(nil, parsePyLit(t, p[0]), nil, kw)
		require.NoError(t, err)
		assert.Equal(t, want, got.Str(), "%s %s", p[0], p[1])
		n++
	}
	require.NoError(t, sc.Err())
	require.Equal(t, 75, n)
}
