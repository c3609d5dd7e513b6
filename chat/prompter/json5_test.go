package prompter

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/internal/pyjson"
)

// TestJSON5 checks appendJSON5 against what the json5 package's dumps
// (ensure_ascii=False) writes, as its lib.py reads: keys bare when they are
// identifiers and not reserved words, json5's string escapes.
func TestJSON5(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a-b": 1, "in": 2, "int": 3, "$x": 4, "_y": 5, "中文": 6, "1a": 7, "a1": 8, "": 9, "null": null}`,
			`{"a-b": 1, "in": 2, int: 3, $x: 4, _y: 5, 中文: 6, "1a": 7, a1: 8, "": 9, "null": null}`},
		{`["a\"b\\c\n\r\b\f\t\u000b\u0000\u2028\u2029\u0001é"]`, "[\"a\\\"b\\\\c\\n\\r\\b\\f\\t\\v\\0\\u2028\\u2029\x01é\"]"},
		{`[1.50, -2e3, 10, true, false, {}, []]`, `[1.5, -2000.0, 10, true, false, {}, []]`},
		{`{"function": {"type": "object"}}`, `{"function": {type: "object"}}`},
	} {
		v, err := pyjson.Parse([]byte(tc.in))
		require.NoError(t, err)
		assert.Equal(t, tc.want, string(appendJSON5(nil, &v)), tc.in)
	}
}
