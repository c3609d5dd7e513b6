package jsonw

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// marshal is encoding/json with HTML escaping off, the writer's reference.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"plain", `"plain"`},
		{"<b>&</b>", `"<b>&</b>"`},
		{"quote \" back \\", `"quote \" back \\"`},
		{"\n\r\t\b\f", `"\n\r\t\b\f"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f" + `"`},
		{"Grüß 😀", `"Grüß 😀"`},
		{"\u2028\u2029", `"\u2028\u2029"`},
		{"bad \xff utf8 \xc3", `"bad \ufffd utf8 \ufffd"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, string(String([]byte(nil), tt.in)))
			assert.Equal(t, "x"+tt.want, string(String([]byte("x"), tt.in)))
		})
	}
}

func TestCompact(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{` { "a" : [ 1 , 2 ] , "b" : "x y\" z" } `, `{"a":[1,2],"b":"x y\" z"}`, ""},
		{"\t\n\"\\\\ \"\r\n", `"\\ "`, ""},
		{`"<&>\u003c"`, `"<&>\u003c"`, ""},
		{`{"a":`, "", "unexpected end of JSON input"},
		{`[1] [2]`, "", "invalid character '[' after top-level value"},
		{``, "", "unexpected end of JSON input"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Compact([]byte("x"), []byte(tt.in))
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				assert.Equal(t, "x", string(got))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "x"+tt.want, string(got))
		})
	}
}

func TestValue(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want string
		err  string
	}{
		{"nil", nil, `null`, ""},
		{"string", "a<b\n", `"a<b\n"`, ""},
		{"bool", true, `true`, ""},
		{"int", -12, `-12`, ""},
		{"int64", int64(math.MaxInt64), `9223372036854775807`, ""},
		{"int32", int32(-5), `-5`, ""},
		{"uint64", uint64(math.MaxUint64), `18446744073709551615`, ""},
		{"float", 0.1, `0.1`, ""},
		{"float exponent", 1e-7, `1e-7`, ""},
		{"raw", json.RawMessage(` [1, "<"] `), `[1,"<"]`, ""},
		{"nil raw", json.RawMessage(nil), `null`, ""},
		{"map", map[string]any{"b": 1, "a": []any{"&", nil}}, `{"a":["&",null],"b":1}`, ""},
		{"NaN", math.NaN(), "", "json: unsupported value: NaN"},
		{"invalid raw", json.RawMessage(`{`), "", "unexpected end of JSON input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Value([]byte("x"), tt.v)
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				assert.Equal(t, "x", string(got))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "x"+tt.want, string(got))
			want, err := marshal(tt.v)
			require.NoError(t, err)
			assert.Equal(t, string(want), tt.want, "encoding/json agrees")
		})
	}
}

// FuzzString checks String and Value against encoding/json.
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "\n\r\t\b\f\x00\x1f\x7f", "<&>", "Grüß 😀", "\u2028\u2029", "\xff\xc3\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := marshal(s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(String(nil, s)))
		got, err := Value(nil, s)
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
	})
}

// FuzzCompact checks Compact against encoding/json's writing of a
// json.RawMessage: the same bytes, or an error for both.
func FuzzCompact(f *testing.F) {
	for _, s := range []string{` { "a" : [ 1 , 2 ] } `, `"\" "`, `{"a":`, `[1] x`, ``, ` null `, `"\u2028 <"`, "\"\xff\"", `1e5`, `-0.5E+3`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		want, wantErr := marshal(json.RawMessage(raw))
		if raw == nil {
			want, wantErr = marshal(json.RawMessage(""))
		}
		got, err := Compact(nil, raw)
		if wantErr != nil {
			require.Error(t, err)
			return
		}
		require.NoError(t, err)
		require.Equal(t, string(want), string(got))
	})
}

// TestUnescaped puts every byte value at every position of strings around
// the 8-byte word, among fillers of every kind, and compares with a byte
// loop.
func TestUnescaped(t *testing.T) {
	for _, filler := range []byte{'a', ' ', '~', 0x7f, 0x80, 0xc3, 0xff, '!', '#', '[', ']'} {
		for n := 0; n <= 18; n++ {
			for pos := 0; pos < n; pos++ {
				for c := range 256 {
					b := bytes.Repeat([]byte{filler}, n)
					b[pos] = byte(c)
					s := string(b)
					if got, want := Unescaped(s), naive(s); got != want {
						t.Fatalf("Unescaped(%q) = %d, want %d", s, got, want)
					}
					if got, want := String(nil, s), mustMarshal(t, s); string(got) != string(want) {
						t.Fatalf("String(%q) = %s, want %s", s, got, want)
					}
				}
			}
		}
	}
}

// TestUnescapedTwoBytes puts pairs of bytes that need escaping, or nearly
// do, in one 8-byte word, where a borrow from the first may flag the
// second.
func TestUnescapedTwoBytes(t *testing.T) {
	near := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, '"', '#', '\\', ']', 0x7f, 0x80, 0xc3, 0xff}
	for _, filler := range []byte{'a', 0xc3, '!'} {
		for n := 2; n <= 17; n++ {
			for pos := 0; pos < n; pos++ {
				for pos2 := pos + 1; pos2 < n; pos2++ {
					for _, c := range near {
						for _, c2 := range near {
							b := bytes.Repeat([]byte{filler}, n)
							b[pos], b[pos2] = c, c2
							s := string(b)
							if got, want := Unescaped(s), naive(s); got != want {
								t.Fatalf("Unescaped(%q) = %d, want %d", s, got, want)
							}
							if got, want := String(nil, s), mustMarshal(t, s); string(got) != string(want) {
								t.Fatalf("String(%q) = %s, want %s", s, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// naive is Unescaped, a byte at a time.
func naive(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 {
			return i
		}
	}
	return len(s)
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := marshal(v)
	require.NoError(t, err)
	return b
}

// BenchmarkString writes a prompt of about 2 KB, ASCII with a few quotes
// and newlines, as BenchmarkRows's prompt lines do.
func BenchmarkString(b *testing.B) {
	s := strings.Repeat(`Quarterly report for Acme & Sons: revenue rose 12% to $4.2M while costs fell; the board's view is "cautiously optimistic".`+"\n", 16)
	b.SetBytes(int64(len(s)))
	buf := make([]byte, 0, 2*len(s))
	for b.Loop() {
		buf = String(buf[:0], s)
	}
}
