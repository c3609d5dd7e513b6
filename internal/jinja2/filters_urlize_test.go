package jinja2

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUrlizeAsJinja2 compares with Jinja2's |urlize, whose output
// testdata/urlize.txt holds (testdata/urlize.py wrote it).
func TestUrlizeAsJinja2(t *testing.T) {
	for _, p := range pyRows(t, "testdata/urlize.txt", 3, 75) {
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
	}
}
