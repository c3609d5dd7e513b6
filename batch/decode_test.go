package batch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/internal/jsondata"
)

// refDecode is Row.Decode with encoding/json alone (through
// internal/jsondata, whose numbers it keeps), the reference for
// decodeFlat.
func refDecode(b []byte) Row {
	r := Row{JSON: b}
	var vars map[string]any
	if err := jsondata.Unmarshal(b, &vars); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te) && te.Value != "" && !bytes.HasPrefix(bytes.TrimSpace(b), []byte("{")):
			r.Err = fmt.Errorf("a row must be a JSON object, not %s", te.Value)
		case te != nil:
			r.Err = fmt.Errorf("%s is out of the range of a float64", te.Value)
		default:
			r.Err = fmt.Errorf("invalid JSON: %w", err)
		}
		return r
	}
	if vars == nil {
		r.Err = errors.New("a row must be a JSON object, not null")
		return r
	}
	r.Vars, r.JSON = vars, nil
	return r
}

// sameValue compares decoded values exactly: a float64 by its bits, so
// that -0 and 0 differ.
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case float64:
		b, ok := b.(float64)
		return ok && math.Float64bits(a) == math.Float64bits(b)
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) || (a == nil) != (b == nil) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !sameValue(a[i], b[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// flatRows are decoded by decodeFlat itself, not left to encoding/json.
var flatRows = []struct {
	in   string
	want map[string]any
}{
	{`{}`, map[string]any{}},
	{" \t{ } \r\n", map[string]any{}},
	{`{"a":"x","b":1,"c":true,"d":false,"e":null}`, map[string]any{"a": "x", "b": 1, "c": true, "d": false, "e": nil}},
	// an integer is an int (internal/jsondata), -0 too; the rest float64
	{`{"a": -0, "b": 1.5e3, "c": -12.25E-2, "d": 0.0, "e": 1e+2, "f": -0.0}`, map[string]any{"a": 0, "b": 1500.0, "c": -0.1225, "d": 0.0, "e": 100.0, "f": math.Copysign(0, -1)}},
	{`{"n": 1000000, "m": -9223372036854775808, "o": 9223372036854775808}`, map[string]any{"n": 1000000, "m": math.MinInt64, "o": 9223372036854775808.0}},
	{`{"q":"What\u0027s \"main\" \u0026 \u003cnote\u003e\n\t\\\/\b\f\r"}`, map[string]any{"q": "What's \"main\" & <note>\n\t\\/\b\f\r"}},
	{`{"u":"Grüß 😀 中文 \u00fc\u4e2d"}`, map[string]any{"u": "Grüß 😀 中文 ü中"}},
	{`{"k\u0041y":"v","":""}`, map[string]any{"kAy": "v", "": ""}},
	{`{"a":1,"a":"last"}`, map[string]any{"a": "last"}},
	{`{"big":123456789012345678901234567890}`, map[string]any{"big": 1.2345678901234568e29}},
	// More escapes than the decoder records, in one string and across two.
	{`{"a":"` + strings.Repeat(`\u00e9\n`, 40) + `","b":"x\ty\u0041"}`, map[string]any{"a": strings.Repeat("é\n", 40), "b": "x\tyA"}},
	{`{"a":"` + strings.Repeat(`\"`, 60) + `","b":"` + strings.Repeat(`\/x`, 9) + `"}`, map[string]any{"a": strings.Repeat(`"`, 60), "b": strings.Repeat("/x", 9)}},
}

func TestDecodeFlat(t *testing.T) {
	for _, tt := range flatRows {
		t.Run(tt.in, func(t *testing.T) {
			in := []byte(tt.in)
			got, ok := decodeFlat(in, false, nil)
			require.True(t, ok, "decoded by decodeFlat")
			assert.True(t, sameValue(tt.want, got), "got %#v", got)
			assert.True(t, sameValue(refDecode([]byte(tt.in)).Vars, got), "encoding/json agrees")
			assert.Equal(t, tt.in, string(in), "a row that is not its own is not written")
			got, ok = decodeFlat(in, true, nil)
			require.True(t, ok, "decoded by decodeFlat in the row's memory")
			assert.True(t, sameValue(tt.want, got), "got %#v in the row's memory", got)
			assert.Equal(t, tt.in, string(in), "a row that is its own is not written either")
		})
	}
}

// TestDecodeTwice: a row from JSONLines decodes to the same values every
// time (a retry through RenderOne decodes it again), and what one Decode
// returned does not change when the row is decoded again.
func TestDecodeTwice(t *testing.T) {
	tests := []struct {
		in   string
		want map[string]any
	}{
		{`{"a":"C:\\new\\temp"}`, map[string]any{"a": `C:\new\temp`}},
		{`{"a":"x\ny","b":"\"q\""}`, map[string]any{"a": "x\ny", "b": `"q"`}},
		{`{"k\u00e9":"\u00e9t\u00e9","plain":"text","n":1}`, map[string]any{"ké": "été", "plain": "text", "n": 1}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var row Row
			for r := range JSONLines(strings.NewReader(tt.in + "\n")) {
				row = r
			}
			first := row.Decode()
			require.NoError(t, first.Err)
			assert.Equal(t, tt.want, first.Vars)
			second := row.Decode()
			require.NoError(t, second.Err)
			assert.Equal(t, tt.want, second.Vars, "decoded again")
			assert.Equal(t, tt.want, first.Vars, "the first values, after the second Decode")
			assert.Equal(t, tt.in+"\n", string(row.JSON), "the row's JSON, as read")
		})
	}
}

// notFlat are left to encoding/json: valid rows decodeFlat does not read,
// and invalid ones, whose errors encoding/json words.
var notFlat = []string{
	`{"a":[1]}`, `{"a":{"b":1}}`, `{"a":"\ud83d\ude00"}`, `{"a":"\udc00"}`, "{\"a\":\"\xff\"}", `{"a":1e400}`,
	`[1]`, `null`, `"s"`, `1`, ``, ` `, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1}x`, `{"a":01}`, `{"a":-}`,
	`{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":+1}`, `{"a":nul}`, `{"a":truex}`, "{\"a\":\"\t\"}", `{"a":"\x"}`,
	`{"a":"\u12"}`, `{"a":"\u12g4"}`, `{a:1}`, `{"a":1 "b":2}`, `{"a":"x`, `{"a":"x\`, `{"a":NaN}`, `{"a":0x10}`,
	`{"a":"\'"}`, "\ufeff{}",
	`{"a\n":"x\"y\u0026","b":[1]}`, `{"a":"x\ty","b":"\ud800"}`, `{"a":"x\u00e9","b":1}x`,
}

func TestDecodeNotFlat(t *testing.T) {
	for _, in := range notFlat {
		t.Run(in, func(t *testing.T) {
			_, ok := decodeFlat([]byte(in), true, nil)
			assert.False(t, ok)
			want := refDecode([]byte(in))
			for _, own := range []bool{false, true} {
				got := Row{JSON: []byte(in), ownJSON: own}.Decode()
				assert.Equal(t, fmt.Sprint(want.Err), fmt.Sprint(got.Err))
				assert.True(t, sameValue(want.Vars, got.Vars), "got %#v", got.Vars)
			}
		})
	}
}

// FuzzDecode checks Row.Decode, which reads flat rows itself, against
// encoding/json: the same values, or the same error, whether the row owns
// its JSON or not; a row that does not is not written to.
func FuzzDecode(f *testing.F) {
	for _, r := range flatRows {
		f.Add([]byte(r.in))
	}
	for _, in := range notFlat {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if in == nil {
			in = []byte{} // a row's JSON is never nil
		}
		want := refDecode(bytes.Clone(in))
		for _, own := range []bool{false, true} {
			row := Row{JSON: bytes.Clone(in), ownJSON: own}
			got := row.Decode()
			require.Equal(t, fmt.Sprint(want.Err), fmt.Sprint(got.Err))
			require.True(t, sameValue(want.Vars, got.Vars), "want %#v\ngot  %#v", want.Vars, got.Vars)
			require.Equal(t, want.Vars == nil, got.Vars == nil)
			require.Equal(t, in, row.JSON, "the row's JSON is never written")
			again := row.Decode()
			require.True(t, sameValue(want.Vars, again.Vars), "a second Decode: %#v", again.Vars)
			require.True(t, sameValue(want.Vars, got.Vars), "the first Decode's values after the second: %#v", got.Vars)
		}
	})
}

// BenchmarkDecode decodes one row of BenchmarkRows (813 bytes; json.Marshal
// writes its < > & as \u escapes) with Row.Decode, from a row's own JSON
// and from a copy, and with encoding/json.
func BenchmarkDecode(b *testing.B) {
	src, err := os.ReadFile("../testdata/bench/vars.json")
	require.NoError(b, err)
	var vars map[string]any
	require.NoError(b, json.Unmarshal(src, &vars))
	vars["question"] = "Question 1: by how much did revenue rise?"
	line, err := json.Marshal(vars)
	require.NoError(b, err)
	b.Run("flat", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			if r := (Row{JSON: line}).Decode(); r.Err != nil {
				b.Fatal(r.Err)
			}
		}
	})
	b.Run("flat-own", func(b *testing.B) { // a row that owns its JSON, as JSONLines gives
		b.SetBytes(int64(len(line)))
		own := make([]byte, len(line))
		for b.Loop() {
			copy(own, line)
			if r := (Row{JSON: own, ownJSON: true}).Decode(); r.Err != nil {
				b.Fatal(r.Err)
			}
		}
	})
	b.Run("flat-arena", func(b *testing.B) { // into a run's arena, as a worker decodes a JSONLines row
		b.SetBytes(int64(len(line)))
		var a arena
		for b.Loop() {
			if r := (Row{JSON: line, ownJSON: true}).decode(&a); r.Err != nil {
				b.Fatal(r.Err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			if r := refDecode(line); r.Err != nil {
				b.Fatal(r.Err)
			}
		}
	})
}

// TestDecodeInArena: rows decoded one after the other into one arena, as a
// run's workers decode them, keep their values: text once handed out is
// never written again, whatever the rows after it, flat or not, owned or
// not, short or longer than a quarter block.
func TestDecodeInArena(t *testing.T) {
	var a arena
	long := strings.Repeat(`\u00e9x`, arenaBlock/8)
	var rows []string
	for i := range 300 {
		switch i % 5 {
		case 0:
			rows = append(rows, fmt.Sprintf(`{"q":"row %d \"quoted\" \u0026 more","plain":"p%d"}`, i, i))
		case 1:
			rows = append(rows, fmt.Sprintf(`{"q":"row %d\n","nested":{"a":1}}`, i)) // left to encoding/json
		case 2:
			rows = append(rows, fmt.Sprintf(`{"q":"%s %d"}`, long, i))
		case 3:
			rows = append(rows, fmt.Sprintf(`{"q":"row %d \\ tail","n":%d}`, i, i))
		default:
			rows = append(rows, fmt.Sprintf(`{"q":"x\u00e9%d","k\u0041":"v"}`, i))
		}
	}
	var got []map[string]any
	for i, in := range rows {
		r := Row{JSON: []byte(in), ownJSON: i%2 == 0}.decode(&a)
		require.NoError(t, r.Err, in)
		got = append(got, r.Vars)
	}
	for i, in := range rows {
		assert.True(t, sameValue(refDecode([]byte(in)).Vars, got[i]), "row %d: %#v", i, got[i])
	}
}
