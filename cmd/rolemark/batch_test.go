package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type batchRow struct {
	ID string `json:"id" parquet:"id"`
	Q  string `json:"q" parquet:"q"`
}

var longQ = strings.Repeat("long ✓ ", 20_000) + "end" // 180 KB

// The rows every input format holds: unicode, an empty value, a very long
// value.
var batchRows = []batchRow{
	{"a1", "2+2?"},
	{"b2", "Grüß 😀 <x> & \"y\""},
	{"c3", ""},
	{"d4", longQ},
}

func openaiLine(q string) string {
	content, _ := json.Marshal(q)
	return `{"messages":[{"role":"system","content":"Answer briefly."},{"role":"user","content":` +
		strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(string(content), `\u003c`, "<"), `\u003e`, ">"), `\u0026`, "&") + `}]}`
}

func writeInputs(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	var jsonl, arr bytes.Buffer
	arr.WriteString("[\n")
	for i, r := range batchRows {
		b, _ := json.Marshal(r)
		jsonl.Write(b)
		jsonl.WriteString("\n")
		if i > 0 {
			arr.WriteString(",\n")
		}
		arr.Write(b)
	}
	arr.WriteString("\n]\n")
	files["jsonl"] = filepath.Join(dir, "rows.jsonl")
	require.NoError(t, os.WriteFile(files["jsonl"], jsonl.Bytes(), 0o644))
	files["json"] = filepath.Join(dir, "rows.json")
	require.NoError(t, os.WriteFile(files["json"], arr.Bytes(), 0o644))

	var c bytes.Buffer
	cw := csv.NewWriter(&c)
	_ = cw.Write([]string{"id", "q"})
	for _, r := range batchRows {
		_ = cw.Write([]string{r.ID, r.Q})
	}
	cw.Flush()
	files["csv"] = filepath.Join(dir, "rows.csv")
	require.NoError(t, os.WriteFile(files["csv"], c.Bytes(), 0o644))

	var p bytes.Buffer
	pw := parquet.NewGenericWriter[batchRow](&p)
	_, err := pw.Write(batchRows)
	require.NoError(t, err)
	require.NoError(t, pw.Close())
	files["parquet"] = filepath.Join(dir, "rows.parquet")
	require.NoError(t, os.WriteFile(files["parquet"], p.Bytes(), 0o644))
	return files
}

func runBatch(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), append([]string{"batch"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestBatchInputs(t *testing.T) {
	dir := t.TempDir()
	files := writeInputs(t, dir)
	var want []string
	for _, r := range batchRows {
		want = append(want, openaiLine(r.Q))
	}
	for _, kind := range []string{"jsonl", "json", "csv", "parquet"} {
		t.Run(kind, func(t *testing.T) {
			code, out, errOut := runBatch(t, "", "--in", files[kind], "testdata/batch/ask.hbs")
			assert.Equal(t, 0, code)
			assert.Equal(t, "", errOut)
			assert.True(t, strings.Join(want, "\n")+"\n" == out, "the output lines")
		})
		t.Run(kind+" from standard input to a file", func(t *testing.T) {
			in, err := os.ReadFile(files[kind])
			require.NoError(t, err)
			outFile := filepath.Join(dir, kind+".out.jsonl")
			code, out, errOut := runBatch(t, string(in), "--in", "-", "--in-format", kind, "--out", outFile, "--workers", "3", "testdata/batch/ask.hbs")
			assert.Equal(t, 0, code)
			assert.Equal(t, "", errOut)
			assert.Equal(t, "", out)
			got, err := os.ReadFile(outFile)
			require.NoError(t, err)
			assert.True(t, strings.Join(want, "\n")+"\n" == string(got), "the output lines")
		})
	}
}

func TestBatchRowErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(s), 0o644))
		return p
	}
	jsonl := write("bad.jsonl", "{\"q\": \"one\"}\n{\"q\": \n{\"x\": 1}\n[1]\n{\"q\": \"five\"}\n")
	arr := write("bad.json", `[{"q": "one"}, 2, {"q": "three"}]`)
	csvFile := write("bad.csv", "q,id\none,1\ntwo,2,x\nthree,3\n")
	csvQuote := write("quote.csv", "q,id\n\"one\nmore\",1\nt\"wo,2\nthree,3\n")
	tests := []struct {
		name    string
		args    []string
		code    int
		out     []string
		errLine string
	}{
		{"jsonl", []string{"--in", jsonl}, 1, []string{openaiLine("one"), openaiLine("five")},
			jsonl + ":2:6: invalid JSON: unexpected end of JSON input\n" +
				jsonl + `:3: testdata/batch/ask.hbs:6:18: variable "q" is not supplied` + "\n" +
				jsonl + ":4: a row must be a JSON object, not array\n" +
				"rolemark batch: 3 of 5 rows failed\n"},
		{"jsonl fail-fast", []string{"--in", jsonl, "--fail-fast", "--workers", "1"}, 1, []string{openaiLine("one")},
			jsonl + ":2:6: invalid JSON: unexpected end of JSON input\n" +
				"rolemark batch: stopped at the first failed row (--fail-fast), after 2 rows\n"},
		{"json", []string{"--in", arr}, 1, []string{openaiLine("one"), openaiLine("three")},
			arr + ":2: a row must be a JSON object, not number\nrolemark batch: 1 of 3 rows failed\n"},
		{"csv", []string{"--in", csvFile}, 1, []string{openaiLine("one"), openaiLine("three")},
			csvFile + ":2: 3 fields, the header has 2\nrolemark batch: 1 of 3 rows failed\n"},
		// a CSV problem is named at its line (4), not its row (2): the
		// header and a quoted field's line break come before it
		{"csv quote", []string{"--in", csvQuote}, 1, []string{openaiLine("one\nmore"), openaiLine("three")},
			csvQuote + ":4: bare \" in non-quoted-field\nrolemark batch: 1 of 3 rows failed\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runBatch(t, "", append(tt.args, "testdata/batch/ask.hbs")...)
			assert.Equal(t, tt.code, code)
			assert.Equal(t, strings.Join(tt.out, "\n")+"\n", out)
			assert.Equal(t, tt.errLine, errOut)
		})
	}
}

func TestBatchFormats(t *testing.T) {
	const rows = `{"q": "Hi", "id": "x1", "h": [{"role": "user", "content": "Before?"}, {"role": "assistant", "content": "  Yes. "}]}` + "\n" +
		`{"q": "Ünï", "id": "x2", "h": "[]"}` + "\n"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"openai-batch", []string{"--format", "openai-batch", "--id-field", "id", "--history-field", "h"},
			`{"custom_id":"x1","method":"POST","url":"/v1/chat/completions","body":{"model":"gpt-4o-mini","messages":[{"role":"system","content":"Answer briefly."},{"role":"user","content":"Before?"},{"role":"assistant","content":"  Yes. "},{"role":"user","content":"Hi"}],"max_tokens":50}}` + "\n" +
				`{"custom_id":"x2","method":"POST","url":"/v1/chat/completions","body":{"model":"gpt-4o-mini","messages":[{"role":"system","content":"Answer briefly."},{"role":"user","content":"Ünï"}],"max_tokens":50}}` + "\n"},
		{"anthropic-batch", []string{"--format", "anthropic-batch", "--model", "claude-x", "--history-field", "h"},
			`{"custom_id":"row-1","params":{"model":"claude-x","max_tokens":50,"system":"Answer briefly.","messages":[{"role":"user","content":[{"type":"text","text":"Before?"}]},{"role":"assistant","content":[{"type":"text","text":"  Yes. "}]},{"role":"user","content":[{"type":"text","text":"Hi"}]}]}}` + "\n" +
				`{"custom_id":"row-2","params":{"model":"claude-x","max_tokens":50,"system":"Answer briefly.","messages":[{"role":"user","content":[{"type":"text","text":"Ünï"}]}]}}` + "\n"},
		{"chat format", []string{"--format", "llama3", "--history-field", "h"},
			`{"prompt":"<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nAnswer briefly.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nBefore?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nYes.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"}` + "\n" +
				`{"prompt":"<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nAnswer briefly.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nÜnï<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"}` + "\n"},
		{"sft", []string{"--format", "sft", "--chat-format", "chatml", "--history-field", "h"},
			`{"text":"<|im_start|>system\nAnswer briefly.<|im_end|>\n<|im_start|>user\nBefore?<|im_end|>\n<|im_start|>assistant\n  Yes. <|im_end|>\n<|im_start|>user\nHi<|im_end|>\n","assistant_spans":[[102,109]]}` + "\n" +
				`{"text":"<|im_start|>system\nAnswer briefly.<|im_end|>\n<|im_start|>user\nÜnï<|im_end|>\n","assistant_spans":[]}` + "\n"},
		{"sft with end", []string{"--format", "sft", "--chat-format", "llama3", "--sft-end", "--history-field", "h"},
			`{"text":"<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nAnswer briefly.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nBefore?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nYes.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>","assistant_spans":[[192,206]]}` + "\n" +
				`{"text":"<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nAnswer briefly.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nÜnï<|eot_id|>","assistant_spans":[]}` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runBatch(t, rows, append(tt.args, "--in", "-", "testdata/batch/ask.hbs")...)
			assert.Equal(t, 0, code, errOut)
			assert.Equal(t, tt.want, out)
		})
	}
}

func TestBatchOrderWithManyWorkers(t *testing.T) {
	var in strings.Builder
	const n = 5000
	for i := range n {
		fmt.Fprintf(&in, "{\"q\": \"question %d\"}\n", i)
	}
	code, out, errOut := runBatch(t, in.String(), "--in", "-", "--workers", "16", "--format", "openai-batch", "testdata/batch/ask.hbs")
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, n)
	for i, l := range lines {
		require.True(t, strings.HasPrefix(l, fmt.Sprintf(`{"custom_id":"row-%d",`, i+1)), l)
		require.Contains(t, l, fmt.Sprintf(`"content":"question %d"}`, i))
	}
}

func TestBatchUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"testdata/batch/ask.hbs"}, "batch needs --in FILE"},
		{[]string{"--in", "x.txt", "testdata/batch/ask.hbs"}, "cannot tell the format of x.txt from its extension"},
		{[]string{"--in", "-", "--format", "sft", "testdata/batch/ask.hbs"}, "--format sft needs --chat-format C"},
		{[]string{"--in", "-", "--format", "nope", "testdata/batch/ask.hbs"}, `unknown format "nope"`},
		{[]string{"--in", "-", "--sft-last", "testdata/batch/ask.hbs"}, "--chat-format, --sft-last, --sft-end and --sft-tokenizer go with --format sft"},
		{[]string{"--in", "-"}, "batch takes one template, not 0"},
		{[]string{"--in", "-", "--workers", "0", "testdata/batch/ask.hbs"}, "--workers must be at least 1, not 0"},
		{[]string{"--in", "-", "--workers", "-5", "testdata/batch/ask.hbs"}, "--workers must be at least 1, not -5"},
		{[]string{"--in", "-", "--skip", "-1", "testdata/batch/ask.hbs"}, "--skip must be 0 or more, not -1"},
		{[]string{"--in", "-", "--append", "testdata/batch/ask.hbs"}, "--append needs --out FILE"},
	}
	for _, tt := range tests {
		code, _, errOut := runBatch(t, "", tt.args...)
		assert.Equal(t, 2, code, tt.args)
		assert.Contains(t, errOut, tt.want)
	}
	code, _, errOut := runBatch(t, "", "--in", "-", "--format", "anthropic-batch", "testdata/hello.tmpl")
	assert.Equal(t, 1, code)
	assert.Equal(t, "anthropic-batch needs a model: write model: in the template's front matter or pass one\n", errOut)
}

func TestProgressLine(t *testing.T) {
	assert.Equal(t, "1000 rows  500 rows/s", progressLine(1000, 2*time.Second, 0, -1))
	assert.Equal(t, "1000 rows  500 rows/s   25%  ETA 6s", progressLine(1000, 2*time.Second, 250, 1000))
}

func TestBatchIDFieldMissing(t *testing.T) {
	code, out, errOut := runBatch(t, `{"q": "a", "id": "x1"}`+"\n"+`{"q": "b"}`+"\n",
		"--in", "-", "--format", "openai-batch", "--id-field", "nosuch", "testdata/batch/ask.hbs")
	assert.Equal(t, 1, code)
	assert.Equal(t, "", out)
	assert.Equal(t, "-:1: no id field \"nosuch\" in the row\n-:2: no id field \"nosuch\" in the row\nrolemark batch: 2 of 2 rows failed\n", errOut)
}

// TestBatchAppendNeedsWholeLines: --append refuses a file whose last line
// was cut short (a run killed outright), which a row would be joined to.
func TestBatchAppendNeedsWholeLines(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.jsonl")
	require.NoError(t, os.WriteFile(out, []byte(`{"custom_id":"row-1"}`+"\n"+`{"custom_id":"row-2","bo`), 0o644))
	code, _, errOut := runBatch(t, `{"q": "a"}`+"\n", "--in", "-", "--out", out, "--append", "--skip", "1", "testdata/batch/ask.hbs")
	assert.Equal(t, 1, code)
	assert.Equal(t, out+" does not end with a whole line; --append would join a row to it\n", errOut)

	require.NoError(t, os.WriteFile(out, []byte(`{"x":1}`+"\n"), 0o644))
	code, _, errOut = runBatch(t, `{"q": "a"}`+"\n"+`{"q": "b"}`+"\n", "--in", "-", "--out", out, "--append", "--skip", "1", "testdata/batch/ask.hbs")
	assert.Equal(t, 0, code, errOut)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, `{"x":1}`+"\n"+openaiLine("b")+"\n", string(got))
}

// TestBatchCSVCells: in CSV an empty cell is the empty string and a missing
// one a missing input, which takes the schema's default or fails the row
// when the input is required; --null names the text of a missing cell.
func TestBatchCSVCells(t *testing.T) {
	const rows = "q,lang,n\n" +
		"full,fr,3\n" + // every cell
		"short\n" + // lang and n missing: the default, and no n
		",de,\n" + // q and n empty
		"NA,NA,1\n" // NA is a value, unless --null NA
	user := func(s string) string { return `{"messages":[{"role":"user","content":"` + s + `"}]}` }
	tests := []struct {
		name   string
		args   []string
		code   int
		out    []string
		errOut string
	}{
		{"empty is empty", nil, 1, []string{user("[fr] full 3"), user("[en] short"), user("[NA] NA 1")},
			`-:3: testdata/batch/typed.hbs:7:5: input "n" must be an integer, not string` + "\nrolemark batch: 1 of 4 rows failed\n"},
		{"null is empty", []string{"--null", ""}, 1, []string{user("[fr] full 3"), user("[en] short"), user("[NA] NA 1")},
			`-:3: testdata/batch/typed.hbs:5:5: input "q" is required but not supplied` + "\nrolemark batch: 1 of 4 rows failed\n"},
		{"null is NA", []string{"--null", "NA"}, 1, []string{user("[fr] full 3"), user("[en] short")},
			`-:3: testdata/batch/typed.hbs:7:5: input "n" must be an integer, not string` + "\n" +
				`-:4: testdata/batch/typed.hbs:5:5: input "q" is required but not supplied` + "\nrolemark batch: 2 of 4 rows failed\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runBatch(t, rows, append(append([]string{"--in", "-", "--in-format", "csv"}, tt.args...), "testdata/batch/typed.hbs")...)
			assert.Equal(t, tt.code, code, errOut)
			assert.Equal(t, strings.Join(tt.out, "\n")+"\n", out)
			assert.Equal(t, tt.errOut, errOut)
		})
	}
}

// TestBatchRequestChecks: what a batch API would refuse in a file is caught
// at the row, or before the run: ids Anthropic refuses, an id repeated in
// a file, another provider's model, a run past a file's limits without
// --split; --dry-run says all of it and writes nothing.
func TestBatchRequestChecks(t *testing.T) {
	const rows = `{"q": "a", "id": "ok-1"}
{"q": "b", "id": "a b.c/1"}
{"q": "c", "id": "ok-1"}
{"q": "d", "id": "ok-4"}
`
	tests := []struct {
		name   string
		args   []string
		code   int
		lines  int
		errOut string
	}{
		{"anthropic ids", []string{"--format", "anthropic-batch", "--model", "claude-x", "--id-field", "id"}, 1, 2,
			`-:2: custom_id "a b.c/1": Anthropic takes 1 to 64 characters of letters, digits, _ and - (the RewriteIDs option, --rewrite-ids, makes one)` + "\n" +
				`-:3: custom_id "ok-1" is row 1's too; a batch's custom_ids must be unique` + "\n" +
				"rolemark batch: 2 of 4 rows failed\n"},
		{"openai ids", []string{"--format", "openai-batch", "--id-field", "id"}, 1, 3,
			`-:3: custom_id "ok-1" is row 1's too; a batch's custom_ids must be unique` + "\n" +
				"rolemark batch: 1 of 4 rows failed\n"},
		{"anthropic model", []string{"--format", "anthropic-batch"}, 1, 0,
			`anthropic-batch: model "gpt-4o-mini" is not one of Anthropic's (claude-…): pass --model or write one in the front matter` + "\n"},
		{"openai model", []string{"--format", "openai-batch", "--model", "claude-sonnet-4-5"}, 1, 0,
			`openai-batch: model "claude-sonnet-4-5" is Anthropic's: write it with --format anthropic-batch` + "\n"},
		{"dry run", []string{"--format", "anthropic-batch", "--model", "claude-x", "--id-field", "id", "--rewrite-ids", "--dry-run"}, 1, 0,
			`-:3: custom_id "ok-1" is row 1's too; a batch's custom_ids must be unique` + "\n" +
				"rolemark batch: 4 rows: would write 3 lines to standard output; 1 failed\n" +
				"rolemark batch: 1 of 4 rows failed\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runBatch(t, rows, append(tt.args, "--in", "-", "testdata/batch/ask.hbs")...)
			assert.Equal(t, tt.code, code)
			assert.Equal(t, tt.errOut, errOut)
			assert.Equal(t, tt.lines, strings.Count(out, "\n"))
		})
	}

	// Past a file's limits without --split, the run stops at the row.
	var many strings.Builder
	for i := range 5 {
		fmt.Fprintf(&many, "{\"q\": \"%d\"}\n", i)
	}
	code, stdout, errOut := runBatch(t, many.String(), "--in", "-", "--format", "openai-batch", "--max-requests", "2", "testdata/batch/ask.hbs")
	assert.Equal(t, 1, code)
	assert.Equal(t, 2, strings.Count(stdout, "\n"))
	assert.Equal(t, "row 3: one openai-batch file holds at most 2 requests and 200000000 bytes; --split writes numbered files within them\n", errOut)

	// With --split, numbered files within the limits, and the manifest.
	out := filepath.Join(t.TempDir(), "out.jsonl")
	code, _, errOut = runBatch(t, many.String(), "--in", "-", "--format", "openai-batch", "--out", out, "--split", "--max-requests", "2", "testdata/batch/ask.hbs")
	assert.Equal(t, 0, code, errOut)
	for n, want := range []int{2, 2, 1} {
		b, err := os.ReadFile(splitName(out, n+1))
		require.NoError(t, err)
		assert.Equal(t, want, strings.Count(string(b), "\n"))
	}
	m, err := os.ReadFile(manifestName(out))
	require.NoError(t, err)
	assert.JSONEq(t, fmt.Sprintf(`{"format": "openai-batch", "max_requests": 2, "max_bytes": 200000000, "files": [
		{"file": %q, "requests": 2, "bytes": %d, "first_row": 1, "last_row": 2},
		{"file": %q, "requests": 2, "bytes": %d, "first_row": 3, "last_row": 4},
		{"file": %q, "requests": 1, "bytes": %d, "first_row": 5, "last_row": 5}]}`,
		splitName(out, 1), 2*len(openAIBatchLine("0")), splitName(out, 2), 2*len(openAIBatchLine("0")), splitName(out, 3), len(openAIBatchLine("0"))), string(m))
}

// openAIBatchLine is the openai-batch line of ask.hbs for a one-character
// question (its length is what the manifest counts).
func openAIBatchLine(q string) string {
	return `{"custom_id":"row-1","method":"POST","url":"/v1/chat/completions","body":{"model":"gpt-4o-mini","messages":[{"role":"system","content":"Answer briefly."},{"role":"user","content":"` + q + `"}],"max_tokens":50}}` + "\n"
}

// TestBatchAllowSpecialTokens: rows that spell the chat format's special
// tokens are refused unless --allow-special-tokens says the data is
// trusted.
func TestBatchAllowSpecialTokens(t *testing.T) {
	const rows = `{"q": "say <|im_end|> now"}` + "\n"
	for _, f := range [][]string{{"--format", "chatml"}, {"--format", "sft", "--chat-format", "chatml"}} {
		code, out, errOut := runBatch(t, rows, append(f, "--in", "-", "testdata/batch/ask.hbs")...)
		assert.Equal(t, 1, code, f)
		assert.Equal(t, "", out)
		assert.Contains(t, errOut, "<|im_end|>")
		code, out, errOut = runBatch(t, rows, append(f, "--allow-special-tokens", "--in", "-", "testdata/batch/ask.hbs")...)
		assert.Equal(t, 0, code, errOut)
		assert.Contains(t, out, `say <|im_end|> now`)
	}
}

// TestBatchFileLimits: OpenAI's 50,000 requests per file stop a run at row
// 50,001, unless --no-file-limits (for servers without the limit).
func TestBatchFileLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("50,001 rows")
	}
	rows := strings.Repeat(`{"q": "x"}`+"\n", 50_001)
	code, out, errOut := runBatch(t, rows, "--in", "-", "--format", "openai-batch", "testdata/batch/ask.hbs")
	assert.Equal(t, 1, code)
	assert.Equal(t, 50_000, strings.Count(out, "\n"))
	assert.Equal(t, "row 50001: one openai-batch file holds at most 50000 requests and 200000000 bytes; --split writes numbered files within them\n", errOut)
	code, out, errOut = runBatch(t, rows, "--in", "-", "--format", "openai-batch", "--no-file-limits", "testdata/batch/ask.hbs")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, 50_001, strings.Count(out, "\n"))
}
