package pyjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/internal/fixture/scan"
)

// oracleCase is one case of testdata/corpus.json, written by
// testdata/oracle.py with Python's own json module.
type oracleCase struct {
	Name string `json:"name"`
	In   string `json:"in"`
	Opts struct {
		EnsureASCII bool            `json:"ensure_ascii"`
		Indent      json.RawMessage `json:"indent"`
		Separators  []string        `json:"separators"`
		SortKeys    bool            `json:"sort_keys"`
	} `json:"opts"`
	Out   *string `json:"out"`
	Error string  `json:"error"`
}

func (c *oracleCase) options(t *testing.T) []Option {
	opts := []Option{EnsureASCII(c.Opts.EnsureASCII), SortKeys(c.Opts.SortKeys)}
	if len(c.Opts.Indent) > 0 {
		var n int
		var s string
		switch {
		case json.Unmarshal(c.Opts.Indent, &n) == nil:
			opts = append(opts, Indent(n))
		case json.Unmarshal(c.Opts.Indent, &s) == nil:
			opts = append(opts, IndentString(s))
		default:
			t.Fatalf("indent %s", c.Opts.Indent)
		}
	}
	if c.Opts.Separators != nil {
		opts = append(opts, Separators(c.Opts.Separators[0], c.Opts.Separators[1]))
	}
	return opts
}

// TestPythonOracle checks Parse and Dumps against Python's json.loads and
// json.dumps on the generated corpus.
func TestPythonOracle(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "corpus.json"))
	require.NoError(t, err)
	var cases []oracleCase
	require.NoError(t, json.Unmarshal(data, &cases))
	require.Greater(t, len(cases), 700)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got, err := Reformat([]byte(c.In), c.options(t)...)
			if c.Out == nil {
				var se *SyntaxError
				require.Error(t, err, "Python: %s", c.Error)
				assert.True(t, errors.As(err, &se))
				return
			}
			require.NoError(t, err, "input %q", c.In)
			assert.Equal(t, *c.Out, got, "input %q", c.In)
		})
	}
}

// Issue 11, defect 7: the three copies this package replaced disagreed with
// Python on a repeated key and on 1e999.
func TestRegressionRepeatedKeyAndOverflow(t *testing.T) {
	got, err := Reformat([]byte(`{"b":1,"a":2,"b":3}`))
	require.NoError(t, err)
	assert.Equal(t, `{"b": 3, "a": 2}`, got)

	got, err = Reformat([]byte(`[1e999, -1e999, 1e-999]`))
	require.NoError(t, err)
	assert.Equal(t, `[Infinity, -Infinity, 0.0]`, got)
}

func TestFloat(t *testing.T) {
	tests := []struct {
		f    float64
		want string
	}{
		{1, "1.0"}, {0, "0.0"}, {math.Copysign(0, -1), "-0.0"}, {0.1, "0.1"}, {1e16, "1e+16"},
		{1e15, "1000000000000000.0"}, {1e-4, "0.0001"}, {1e-5, "1e-05"}, {1.5e-7, "1.5e-07"},
		{math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"}, {math.NaN(), "NaN"},
		{5e-324, "5e-324"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, FormatFloat(tc.f), "%v", tc.f)
	}
	// repr's names of the special values
	for f, want := range map[float64]string{math.Inf(1): "inf", math.Inf(-1): "-inf", 2.5: "2.5"} {
		assert.Equal(t, want, string(AppendFloatAs(nil, f, "inf", "nan")))
	}
	assert.Equal(t, "nan", string(AppendFloatAs(nil, math.NaN(), "inf", "nan")))
}

// TestFloatReference checks AppendFloat, which lays out the shortest
// digits itself, against Python's rule written with Go's two shortest
// forms (e below 1e-4 and from 1e16, else f with .0 when it has no
// point), on random bit patterns, round decimals, integers and powers
// of ten.
func TestFloatReference(t *testing.T) {
	ref := func(f float64) string {
		e := strconv.FormatFloat(math.Abs(f), 'e', -1, 64)
		exp, err := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
		require.NoError(t, err)
		if exp < -4 || exp >= 16 {
			return strconv.FormatFloat(f, 'e', -1, 64)
		}
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	r := rand.New(rand.NewPCG(3, 4))
	var fs []float64
	for range 20000 {
		fs = append(fs, math.Float64frombits(r.Uint64()), float64(r.IntN(1000000))/100, float64(r.Int64())/float64(r.IntN(1000)+1))
	}
	for e := -330; e <= 310; e++ {
		fs = append(fs, math.Pow10(e), 1.5*math.Pow10(e), 123456789*math.Pow10(e))
	}
	// decimals with up to eight digits after the point, of every size
	// up to past 2^50 (appendShortDecimal's), and their neighbours
	for k := range 9 {
		for digits := 1; digits <= 17; digits++ {
			for range 300 {
				n := r.Int64N(int64(math.Pow10(digits)))
				d := float64(n) / math.Pow10(k)
				fs = append(fs, d, math.Nextafter(d, 0), math.Nextafter(d, math.Inf(1)))
			}
		}
	}
	for _, b := range []float64{1 << 50, 1e-4, 1e15, 1 << 53} {
		for k := range 7 {
			d := b / math.Pow10(k)
			fs = append(fs, d, math.Nextafter(d, 0), math.Nextafter(d, math.Inf(1)))
		}
	}
	for _, f := range fs {
		if math.IsInf(f, 0) || math.IsNaN(f) || f == 0 {
			continue
		}
		for _, g := range []float64{f, -f} {
			require.Equal(t, ref(g), string(AppendFloat([]byte("x"), g))[1:], "%v", g)
		}
	}
}

func TestStringInvalidUTF8(t *testing.T) {
	assert.Equal(t, "\"a\uFFFD\uFFFDb\"", string(AppendString(nil, "a\xff\xfeb", false)))
	assert.Equal(t, `"a\ufffdb"`, string(AppendString(nil, "a\xffb", true)))
	_, err := Parse([]byte("\"a\xffb\""))
	var se *SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 2, se.Offset)
}

func TestSet(t *testing.T) {
	v := Value{Kind: Object}
	v.Set("b", Value{Kind: Int, Int: "1"})
	v.Set("a", Value{Kind: Null})
	v.Set("b", Value{Kind: Bool, Bool: true})
	assert.Equal(t, `{"b": true, "a": null}`, Dumps(v))
	assert.Equal(t, "{\n  \"a\": null,\n  \"b\": true\n}", Dumps(v, Indent(2), SortKeys(true)))
}

// A presorted writer keeps an object's key order, which its caller chose
// (Python sorts a dict's int keys by value: 2 before 10), and keeps the
// other options.
func TestWriterPresorted(t *testing.T) {
	v := Value{Kind: Object, Keys: []string{"2", "10"}, Items: []Value{{Kind: Null}, {Kind: Int, Int: "1"}}}
	w := NewWriter(SortKeys(true), Indent(1))
	assert.Equal(t, "{\n \"10\": 1,\n \"2\": null\n}", string(w.Value(nil, v, 0)))
	p := w.Presorted()
	assert.False(t, p.SortKeys())
	assert.True(t, w.SortKeys(), "the writer itself is unchanged")
	assert.Equal(t, "{\n \"2\": null,\n \"10\": 1\n}", string(p.Value(nil, v, 0)))
}

// Whatever valid JSON comes in, what comes out means the same to
// encoding/json (numbers that fit a float64) or is refused by both.
func FuzzReformat(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x"]}`, `"\u00e9\n"`, `[1e300,-0,0.000001]`, `{"":{"":null}}`,
		`{"b":1,"b":2}`, `[1e999]`, `"\ud800"`, "\"\xff\"", `nul`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := Reformat([]byte(in), EnsureASCII(len(in)%2 == 0))
		if !json.Valid([]byte(in)) || !utf8.ValidString(in) {
			if err == nil {
				t.Fatalf("%q is not JSON but became %q", in, got)
			}
			return
		}
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		var a, b any
		if json.Unmarshal([]byte(in), &a) != nil {
			return // a number out of float64's range
		}
		if err := json.Unmarshal([]byte(got), &b); err != nil {
			return // Infinity or NaN
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%q became %q: %v != %v", in, got, a, b)
		}
	})
}

// TestAppendStringReference: the escapers, which copy runs of plain bytes
// eight at a time, write what a rune-at-a-time reading of json.dumps's
// rules writes, in the three modes (ensure_ascii off and on, and the
// HTML-safe form of Jinja2's tojson), for every byte at every offset of
// the eight-byte scan and for random mixes of ASCII, escapes, non-ASCII
// and astral runes and invalid bytes.
func TestAppendStringReference(t *testing.T) {
	ref := func(s string, ascii, html bool) string {
		var b strings.Builder
		b.WriteByte('"')
		for i, w := 0, 0; i < len(s); i += w {
			r, n := utf8.DecodeRuneInString(s[i:])
			w = n
			switch {
			case r == '"' || r == '\\':
				b.WriteString(`\` + string(r))
			case r == '\n' || r == '\r' || r == '\t' || r == '\b' || r == '\f':
				b.WriteString(map[rune]string{'\n': `\n`, '\r': `\r`, '\t': `\t`, '\b': `\b`, '\f': `\f`}[r])
			case r < 0x20 || (ascii && r >= 0x7f) || (html && strings.ContainsRune("<>&'", r)):
				if r > 0xffff {
					r -= 0x10000
					fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
				} else {
					fmt.Fprintf(&b, `\u%04x`, r)
				}
			default:
				b.WriteRune(r) // an invalid byte is U+FFFD
			}
		}
		b.WriteByte('"')
		return b.String()
	}
	check := func(s string) {
		t.Helper()
		require.Equal(t, ref(s, false, false), string(AppendString(nil, s, false)), "%q", s)
		require.Equal(t, ref(s, true, false), string(AppendString(nil, s, true)), "%q ascii", s)
		require.Equal(t, ref(s, true, true), string(AppendHTMLSafeString(nil, s)), "%q html", s)
	}
	pieces := []string{"abc", " ", "\n", "\t", "\"", "\\", "<", ">", "&", "'", "\x00", "\x1f", "\x7f", "\x80",
		"é", "€", "😀", "\ufffd", "\xff", "\xe2\x82", "line 0001: ok\n", "你好", "abcdefghijklmnop"}
	scan.Strings(pieces, check)
}
