package batch_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/batch"
)

// collect renders rows as "vars-json" or "error: …" lines.
func collect(rows iter.Seq[batch.Row]) []string {
	var out []string
	for r := range rows {
		r = r.Decode()
		if r.Err != nil {
			out = append(out, "error: "+r.Err.Error())
			continue
		}
		b, _ := json.Marshal(r.Vars)
		out = append(out, string(b))
	}
	return out
}

var long = strings.Repeat("ü", 300_000) // 600 KB, past any line buffer

func TestJSONLines(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"plain", "{\"a\": 1}\n{\"a\": \"x\", \"b\": [true, null]}\n", []string{`{"a":1}`, `{"a":"x","b":[true,null]}`}},
		{"no final newline, CRLF and blank lines", "{\"a\": 1}\r\n\n  \n{\"a\": 2}", []string{`{"a":1}`, `{"a":2}`}},
		{"unicode and empty values", `{"q": "Grüß 😀 中文", "e": ""}` + "\n{}\n", []string{`{"e":"","q":"Grüß 😀 中文"}`, `{}`}},
		{"errors go on", "{\"a\": 1}\n{\"a\": \n[1]\nnull\n\"s\"\n{\"a\": 3}\n", []string{
			`{"a":1}`,
			"error: invalid JSON: unexpected end of JSON input",
			"error: a row must be a JSON object, not array",
			"error: a row must be a JSON object, not null",
			"error: a row must be a JSON object, not string",
			`{"a":3}`,
		}},
		{"very long value", `{"v": "` + long + `"}` + "\n", []string{`{"v":"` + long + `"}`}},
		{"empty", "", nil},
		{"a byte order mark", "\xef\xbb\xbf{\"a\": 1}\n{\"a\": 2}\n", []string{`{"a":1}`, `{"a":2}`}},
		{"a byte order mark and a blank line", "\xef\xbb\xbf\n{}", []string{`{}`}},
		{"a byte order mark alone", "\xef\xbb\xbf", nil},
		{"a byte order mark after the start is no mark", "{}\n\xef\xbb\xbf{}\n", []string{`{}`,
			"error: invalid JSON: invalid character 'ï' looking for beginning of value"}},
		{"a number out of range", `{"q": 1e999}` + "\n" + `{"q": {"r": -1e400}}`, []string{
			"error: number 1e999 is out of the range of a float64",
			"error: number -1e400 is out of the range of a float64"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, collect(batch.JSONLines(strings.NewReader(tt.in))))
			// Read a byte at a time, in halves, and with the end coming
			// with the last bytes: the same rows.
			assert.Equal(t, tt.want, collect(batch.JSONLines(iotest.OneByteReader(strings.NewReader(tt.in)))), "a byte at a time")
			assert.Equal(t, tt.want, collect(batch.JSONLines(iotest.HalfReader(strings.NewReader(tt.in)))), "in halves")
			assert.Equal(t, tt.want, collect(batch.JSONLines(iotest.DataErrReader(strings.NewReader(tt.in)))), "the end with the data")
		})
	}
}

func TestJSONLinesReadError(t *testing.T) {
	r := io.MultiReader(strings.NewReader("{\"a\": 1}\n"), iotest.ErrReader(io.ErrUnexpectedEOF))
	assert.Equal(t, []string{`{"a":1}`, "error: unexpected EOF"}, collect(batch.JSONLines(r)))
	// An error that comes with the last bytes: the lines first, then the
	// unfinished one, then the error.
	r = iotest.DataErrReader(io.MultiReader(strings.NewReader("{\"a\": 1}\n{\"a\": 2}\n{\"a\""), iotest.ErrReader(io.ErrUnexpectedEOF)))
	assert.Equal(t, []string{`{"a":1}`, `{"a":2}`, "error: invalid JSON: unexpected end of JSON input", "error: unexpected EOF"}, collect(batch.JSONLines(r)))
	// A reader that returns nothing, again and again.
	assert.Equal(t, []string{"error: multiple Read calls return no data or error"}, collect(batch.JSONLines(noProgress{})))
}

// TestJSONLinesBadReader: a reader that says it read more than it was
// given room for, or less than nothing, ends the rows with an error, as a
// read error does, rather than a panic.
func TestJSONLinesBadReader(t *testing.T) {
	for _, count := range []func(p []byte) int{
		func(p []byte) int { return len(p) + 1 },
		func([]byte) int { return -1 },
	} {
		got := collect(batch.JSONLines(badCount(count)))
		assert.Equal(t, []string{"error: the reader returned an impossible count from Read"}, got)
	}
}

// badCount is a reader whose Read returns the count the function gives.
type badCount func(p []byte) int

func (b badCount) Read(p []byte) (int, error) { return b(p), nil }

type noProgress struct{}

func (noProgress) Read([]byte) (int, error) { return 0, nil }

func TestJSONArray(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"plain", `[{"a": 1}, {"a": "x"}]`, []string{`{"a":1}`, `{"a":"x"}`}},
		{"empty array", " [ ] ", nil},
		{"unicode, empty and long values", `[{"q": "Grüß 😀", "e": ""}, {"v": "` + long + `"}]`,
			[]string{`{"e":"","q":"Grüß 😀"}`, `{"v":"` + long + `"}`}},
		{"an element that is not an object", `[{"a": 1}, 5, null, {"a": 2}]`, []string{
			`{"a":1}`, "error: a row must be a JSON object, not number", "error: a row must be a JSON object, not null", `{"a":2}`}},
		{"not an array", `{"a": 1}`, []string{"error: expected a JSON array of objects, found {"}},
		{"empty input", ``, []string{"error: empty input: expected a JSON array of objects"}},
		{"truncated", `[{"a": 1}, {"a": `, []string{`{"a":1}`, "error: invalid JSON: unexpected EOF"}},
		{"garbage inside", `[{"a": 1} {"a": 2}]`, []string{`{"a":1}`, "error: invalid JSON: expected comma after array element"}},
		{"a byte order mark", "\xef\xbb\xbf [{\"a\": 1}]\n", []string{`{"a":1}`}},
		{"white space after the array", "[{\"a\": 1}] \r\n\t", []string{`{"a":1}`}},
		{"garbage after the array", `[{"a": 1}] garbage`, []string{`{"a":1}`,
			"error: invalid JSON after the array: invalid character 'g' looking for beginning of value"}},
		{"a second array", `[{"a": 1}][{"a": 2}]`, []string{`{"a":1}`, "error: invalid JSON after the array: found ["}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, collect(batch.JSONArray(strings.NewReader(tt.in))))
		})
	}
}

func TestCSV(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"plain", "a,b\n1,x\n2,y\n", []string{`{"a":"1","b":"x"}`, `{"a":"2","b":"y"}`}},
		{"BOM, quotes, newlines in fields, CRLF", "\xef\xbb\xbfq,n\r\n\"say \"\"hi\"\"\",\"two\nlines\"\r\n",
			[]string{`{"n":"two\nlines","q":"say \"hi\""}`}},
		{"unicode and empty values", "q,e\nGrüß 😀 中文,\n,\n", []string{`{"e":"","q":"Grüß 😀 中文"}`, `{"e":"","q":""}`}},
		{"very long value", "v\n" + long + "\n", []string{`{"v":"` + long + `"}`}},
		{"a short record lacks its last cells; a long one fails", "a,b\n1\n1,2,3\n4,5\n", []string{
			`{"a":"1"}`, "error: 3 fields, the header has 2", `{"a":"4","b":"5"}`}},
		{"bare quote goes on", "a\nx\"y\nok\n", []string{`error: bare " in non-quoted-field`, `{"a":"ok"}`}},
		{"header only", "a,b\n", nil},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, collect(batch.CSV(strings.NewReader(tt.in))))
		})
	}
}

func TestHistoryFrom(t *testing.T) {
	tests := []struct {
		name    string
		v       any
		history string
		err     string
	}{
		{"array", []any{map[string]any{"role": "user", "content": "hi"}}, `[{"role":"user","content":"hi"}]`, ""},
		{"JSON text", `[{"role": "assistant", "content": "Grüß"}]`, `[{"role":"assistant","content":"Grüß"}]`, ""},
		{"null", nil, `null`, ""},
		{"empty string", "", `null`, ""},
		{"text, not JSON", "ok, thanks", `null`, `h: a string of 10 bytes that is not the JSON text of an array of OpenAI messages: "ok, thanks"`},
		{"long text, not JSON", strings.Repeat("ab", 60), `null`, `h: a string of 120 bytes that is not the JSON text of an array of OpenAI messages: "` + strings.Repeat("ab", 20) + `"`},
		{"not messages", 5, `null`, "h: not an array of OpenAI messages: json: cannot unmarshal number into Go value of type []chat.Message"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := batch.Row{Vars: map[string]any{"q": "x", "h": tt.v}}
			r := in.HistoryFrom("h")
			assert.Equal(t, map[string]any{"q": "x"}, r.Vars)
			assert.Contains(t, in.Vars, "h", "the input row is left as it was")
			b, _ := json.Marshal(r.History)
			assert.Equal(t, tt.history, string(b))
			if tt.err == "" {
				assert.NoError(t, r.Err)
			} else {
				assert.EqualError(t, r.Err, tt.err)
			}
		})
	}
	r := batch.Row{Vars: map[string]any{"q": "x"}}.HistoryFrom("h")
	assert.Equal(t, map[string]any{"q": "x"}, r.Vars)
	assert.Nil(t, r.History)
}

// TestJSONLinesRowsDoNotShareMemory reads many lines of many lengths (some
// longer than the blocks lines are kept in) and decodes them, in place,
// only once all are read: no row's decoding writes over another's.
func TestJSONLinesRowsDoNotShareMemory(t *testing.T) {
	var in strings.Builder
	var want []string
	for i := range 3000 {
		v := fmt.Sprintf("%d \"%s\" \\ é", i, strings.Repeat("x", i*i%9000))
		want = append(want, v)
		line, err := json.Marshal(map[string]string{"v": v})
		require.NoError(t, err)
		in.Write(line)
		in.WriteString("\n\n")
	}
	var rows []batch.Row
	for r := range batch.JSONLines(strings.NewReader(in.String())) {
		rows = append(rows, r)
	}
	require.Len(t, rows, len(want))
	for i, r := range rows {
		r = r.Decode()
		require.NoError(t, r.Err)
		require.Equal(t, want[i], r.Vars["v"], "row %d", i)
	}
}

// FuzzJSONLines checks the lines JSONLines hands out against the input cut
// at each newline: every line that is not blank, with its newline, in
// order, whether r gives the input at once, a byte at a time or in halves.
func FuzzJSONLines(f *testing.F) {
	f.Add("{\"a\": 1}\n\n  \r\n{\"b\": 2}", uint16(3))
	f.Add("xxxxxxxx", uint16(9000))                                            // a line past a block
	f.Add(strings.Repeat("x", 100)+"\n"+strings.Repeat(" ", 27), uint16(1000)) // lines across blocks
	f.Add("\n\n\n", uint16(0))
	f.Fuzz(func(t *testing.T, in string, repeat uint16) {
		// Lines longer than JSONLines' blocks, sometimes; at most 256 KB.
		if n := int(repeat) + 1; len(in)*n <= 256<<10 {
			in = strings.Repeat(in, n)
		}
		var want []string
		// A byte order mark at the start is no part of the first line.
		for rest := strings.TrimPrefix(in, "\ufeff"); rest != ""; {
			line := rest
			if i := strings.IndexByte(rest, '\n'); i >= 0 {
				line = rest[:i+1]
			}
			rest = rest[len(line):]
			if strings.TrimSpace(line) != "" {
				want = append(want, line)
			}
		}
		readers := map[string]io.Reader{
			"at once":   strings.NewReader(in),
			"in halves": iotest.HalfReader(strings.NewReader(in)),
		}
		if len(in) <= 16<<10 {
			readers["a byte at a time"] = iotest.OneByteReader(strings.NewReader(in))
		}
		for name, r := range readers {
			var got []string
			for row := range batch.JSONLines(r) {
				require.NoError(t, row.Err, name)
				got = append(got, string(row.JSON))
			}
			require.Equal(t, want, got, name)
		}
	})
}

// TestJSONErrorPlace: a row of malformed JSON is a *batch.JSONError at
// the line and column of the input where encoding/json stopped (the
// column counts runes), blank lines and a byte order mark counted as a
// reader of the file counts them; it named no place.
func TestJSONErrorPlace(t *testing.T) {
	tests := []struct {
		name, in  string
		json      bool
		line, col int
	}{
		{"jsonl", "{\"a\": 1}\n\n{\"q\": \"b\" \"x\"}\n", false, 3, 11},
		{"jsonl, the end of a line", "{\"a\": 1}\n{\"q\": \n{}\n", false, 2, 6},
		{"jsonl, the last line", "{}\r\n{\"ü\": 1,", false, 2, 9},
		{"jsonl, a byte order mark", "\xef\xbb\xbf{\"a\" 1}\n", false, 1, 6},
		{"array", "[{\"q\":\"a\"},\n {\"q\": \"b\" \"x\"}]", true, 2, 12},
		{"array, between elements", "[{\"q\":\"ü\"}\n\n\n  {\"q\": \"b\"}]", true, 4, 3},
		{"array, the end", "[{\"q\":\"a\"},\n {\"q\": \"b\"\n ", true, 2, 11},
		{"array, after the array", "[{}]\n x", true, 2, 2},
		// a long input, so that the reader drops the lines it is done
		// with: they end in lone CRs, then in LFs
		{"array, lone CRs dropped", "[" + strings.Repeat("{},\r", 1000) + strings.Repeat("{},\n", 1000) + "{} {}]", true, 2001, 4},
		{"array, CRLFs dropped", "[" + strings.Repeat("{},\r\n", 1000) + strings.Repeat("{},\r", 1000) + "{} {}]", true, 2001, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := batch.JSONLines(strings.NewReader(tt.in))
			if tt.json {
				rows = batch.JSONArray(strings.NewReader(tt.in))
			}
			var je *batch.JSONError
			for r := range rows {
				if r = r.Decode(); r.Err != nil {
					require.True(t, errors.As(r.Err, &je), "%v", r.Err)
					break
				}
			}
			require.NotNil(t, je, "no error")
			assert.Equal(t, [2]int{tt.line, tt.col}, [2]int{je.Line, je.Col}, "%v", je)
			var se *json.SyntaxError
			assert.True(t, errors.As(je, &se) || errors.Is(je, io.ErrUnexpectedEOF), "%v", je)
		})
	}
}
