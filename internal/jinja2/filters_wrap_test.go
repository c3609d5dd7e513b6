package jinja2

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWordwrapAsJinja2 compares with Jinja2's |wordwrap, whose output
// testdata/wordwrap.txt holds (testdata/wordwrap.py wrote it).
func TestWordwrapAsJinja2(t *testing.T) {
	for _, p := range pyRows(t, "testdata/wordwrap.txt", 5, 192) {
		w, err := strconv.Atoi(p[1])
		require.NoError(t, err)
		var want string
		require.NoError(t, json.Unmarshal([]byte(p[4]), &want))
		got, err := fWordwrap(nil, parsePyLit(t, p[0]), []Value{IntV(int64(w))},
			[]Kwarg{{"break_long_words", BoolV(p[2] == "True")}, {"break_on_hyphens", BoolV(p[3] == "True")}})
		require.NoError(t, err)
		assert.Equal(t, want, got.Str(), "%s width %d long %s hyphens %s", p[0], w, p[2], p[3])
	}
}
