package react

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The expected texts are Python's json.dumps(json.loads(in),
// ensure_ascii=False).
func TestPyJSON(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"schema", `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`,
			`{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}`},
		{"numbers", `[1, 1.0, 1.50, -0, -0.0, 1e16, 1E5, 1.5e-7, 0.0001, 0.00001, 123456789012345678901234567890, 1e400, -1e400, 2.5e15, 1e-4]`,
			`[1, 1.0, 1.5, 0, -0.0, 1e+16, 100000.0, 1.5e-07, 0.0001, 1e-05, 123456789012345678901234567890, Infinity, -Infinity, 2500000000000000.0, 0.0001]`},
		{"repeated key", `{"b":1,"a":2,"b":3}`, `{"b": 3, "a": 2}`},
		{"strings", `"tab\t nl\n cr\r bs\b ff\f ctl\u0001\u001f del\u007f quote\" back\\ slash\/ lt< amp& u2028\u2028 cjk\u4e2d 中 emoji\ud83d\ude00"`,
			"\"tab\\t nl\\n cr\\r bs\\b ff\\f ctl\\u0001\\u001f del\x7f quote\\\" back\\\\ slash/ lt< amp& u2028\u2028 cjk中 中 emoji😀\""},
		{"spaces", "  {  }  ", `{}`},
		{"literals", `[[], {}, true, false, null]`, `[[], {}, true, false, null]`},
		{"not JSON", `{"a":`, `{"a":`},
		{"two values", `{} {}`, `{} {}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, pyJSON([]byte(tc.in)))
		})
	}
}

// FuzzPyJSON checks that pyJSON never panics and, for JSON whose numbers
// fit a float64, writes JSON with the same meaning.
func FuzzPyJSON(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x"]}`, `[1e400]`, `"\u0000"`, `{"b":1,"b":2}`, `-0`, `[{}]`, `nul`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := pyJSON([]byte(in))
		if !json.Valid([]byte(in)) {
			if out != in {
				t.Fatalf("%q is not JSON but became %q", in, out)
			}
			return
		}
		var a, b any
		if json.Unmarshal([]byte(in), &a) != nil {
			return // a number out of float64's range
		}
		if strings.Contains(out, "Infinity") || strings.Contains(out, "NaN") {
			return
		}
		if err := json.Unmarshal([]byte(out), &b); err != nil {
			t.Fatalf("%q became %q: %v", in, out, err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%q became %q: %v != %v", in, out, a, b)
		}
	})
}
