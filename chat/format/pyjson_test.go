package format

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Expected values are what Python 3's json.dumps(json.loads(in),
// ensure_ascii=False) prints.
func TestWritePyJSON(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"object order kept", `{"b":1,"a":{"y":[1,2],"x":{}}}`, `{"b": 1, "a": {"y": [1, 2], "x": {}}}`},
		{"literals", `[true,false,null]`, `[true, false, null]`},
		{"integers", `[0,-0,10,-7,123456789012345678901234567890]`, `[0, 0, 10, -7, 123456789012345678901234567890]`},
		{"floats", `[1.5,1.0,-0.0,0.1,1e5,1e16,1e15,1.5e-5,0.0001,2.5E-3,1e+20]`,
			`[1.5, 1.0, -0.0, 0.1, 100000.0, 1e+16, 1000000000000000.0, 1.5e-05, 0.0001, 0.0025, 1e+20]`},
		{"strings", `"q\"b\\s\/\n\r\t\b\f\u0001\u001f\u007f\u2028é中😀"`, "\"q\\\"b\\\\s/\\n\\r\\t\\b\\f\\u0001\\u001f\u007f\u2028é中😀\""},
		{"empty containers", `[[],{}]`, `[[], {}]`},
		{"white space dropped", " { \"a\" :\n [ 1 , 2 ] } ", `{"a": [1, 2]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			require.NoError(t, writePyJSON(&b, []byte(tc.in)))
			assert.Equal(t, tc.want, b.String())
		})
	}
	for _, bad := range []string{``, `{`, `{"a":}`, `[1,]`, `1 2`, `nope`} {
		t.Run("invalid "+bad, func(t *testing.T) {
			var b strings.Builder
			assert.Error(t, writePyJSON(&b, []byte(bad)))
		})
	}
}

func TestPyStrings(t *testing.T) {
	assert.Equal(t, "x", pyTrim("\u3000\x1c\x1d\x1e\x1f \t\n\v\f\r\u0085\u00a0\u2028x\u2029\u202f\u205f"))
	assert.Equal(t, "x\u200b", pyTrim(" x\u200b "), "U+200B is not white space in Python")
	assert.Equal(t, "x  ", pyTrimLeft("  x  "))
	assert.Equal(t, "Tool", pyTitle("tool"))
	assert.Equal(t, "Tool_Results", pyTitle("tool_results"))
	assert.Equal(t, "A1B", pyTitle("a1b"))
	assert.Equal(t, "Assistant", pyTitle("ASSISTANT"))
}

// Whatever valid JSON comes in, the Python-style text means the same.
func FuzzWritePyJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x"]}`, `"\u00e9\n"`, `[1e300,-0,0.000001]`, `{"":{"":null}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var want any
		if json.Unmarshal([]byte(in), &want) != nil {
			return
		}
		var b strings.Builder
		require.NoError(t, writePyJSON(&b, []byte(in)))
		var got any
		require.NoError(t, json.Unmarshal([]byte(b.String()), &got), b.String())
		assert.Equal(t, want, got)
	})
}
