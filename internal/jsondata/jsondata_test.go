package jsondata_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/internal/jsondata"
)

func TestUnmarshal(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want any
	}{
		{`{"n": 1000000}`, map[string]any{"n": 1000000}},
		{`{"n": -0, "f": 1.0, "e": 1e3, "g": 0.5}`, map[string]any{"n": 0, "f": 1.0, "e": 1000.0, "g": 0.5}},
		// beyond an int: a float64, as encoding/json has it
		{`{"big": 12345678901234567890}`, map[string]any{"big": 12345678901234567890.0}},
		{`{"l": [1, [2, {"x": 3}], "4", null, true]}`, map[string]any{"l": []any{1, []any{2, map[string]any{"x": 3}}, "4", nil, true}}},
		{" {\"s\": \"1\"} \r\n", map[string]any{"s": "1"}},
	} {
		var got map[string]any
		require.NoError(t, jsondata.Unmarshal([]byte(tc.in), &got), tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
	var a any
	require.NoError(t, jsondata.Unmarshal([]byte(`7`), &a))
	assert.Equal(t, 7, a)
	var l []any
	require.NoError(t, jsondata.Unmarshal([]byte(`[7, 7.5]`), &l))
	assert.Equal(t, []any{7, 7.5}, l)
}

// TestUnmarshalErrors: each error is the one json.Unmarshal gives, so a
// caller's message and errors.As stay as they were.
func TestUnmarshalErrors(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a": 1} x`, `{"a": 1}{}`, `[1]`, `{"n": 1e400}`, `{"a": [1e999]}`, `nul`} {
		var got, want map[string]any
		err := jsondata.Unmarshal([]byte(in), &got)
		werr := json.Unmarshal([]byte(in), &want)
		require.Error(t, werr, in)
		assert.Equal(t, werr, err, in)
	}
}
