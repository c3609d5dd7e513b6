package jinja2

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPformatAsPython compares with pprint.pformat's output, which
// testdata/pprint.txt holds (testdata/pformat.py wrote it).
func TestPformatAsPython(t *testing.T) {
	for _, p := range pyRows(t, "testdata/pprint.txt", 2, 13) {
		var want string
		require.NoError(t, json.Unmarshal([]byte(p[1]), &want))
		assert.Equal(t, want, pformat(parsePyLit(t, p[0])), p[0])
	}
}
