package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The APIs' published rules for the files rolemark batch writes, written
// down here apart from package batch's own checks:
//   - OpenAI Batch API: a .jsonl file of at most 50,000 requests and 200 MB;
//     each line {custom_id, method, url, body}, the custom_id unique in the
//     file; one model per file.
//   - Anthropic Message Batches: at most 100,000 requests and 256 MB; each
//     custom_id ^[a-zA-Z0-9_-]{1,64}$ and unique; a Claude model;
//     max_tokens at least 1.
//   - OpenAI fine-tuning (chat, with tools): {messages, tools,
//     parallel_tool_calls}; a tool an assistant calls is in the line's tools.
type apiRules struct {
	maxRequests int
	maxBytes    int64
}

var (
	openAIBatchRules    = apiRules{50_000, 200_000_000}
	anthropicBatchRules = apiRules{100_000, 256_000_000}
	anthropicIDRE       = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
)

// checkFile checks one output file of format f as the API that reads it
// would, with limits at most those given (smaller for a test of --split);
// it returns the file's lines.
func checkFile(t *testing.T, f, path string, limits apiRules) int {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, len(b) == 0 || bytes.HasSuffix(b, []byte("\n")), "%s ends with a whole line", path)
	ids := map[string]bool{}
	models := map[string]bool{}
	n := 0
	size := int64(0)
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		n++
		size += int64(len(line)) + 1
		require.True(t, utf8.Valid(line), "%s:%d is UTF-8", path, n)
		var obj map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(line, &obj), "%s:%d is a JSON object", path, n)
		keys := []string{}
		for k := range obj {
			keys = append(keys, k)
		}
		where := fmt.Sprintf("%s:%d", path, n)
		switch f {
		case "openai-batch", "anthropic-batch":
			var id string
			require.NoError(t, json.Unmarshal(obj["custom_id"], &id), where)
			assert.False(t, ids[id], "%s: custom_id %q repeats", where, id)
			ids[id] = true
			var body struct {
				Model     string `json:"model"`
				MaxTokens *int   `json:"max_tokens"`
				Messages  []any  `json:"messages"`
			}
			if f == "openai-batch" {
				assert.ElementsMatch(t, []string{"custom_id", "method", "url", "body"}, keys, where)
				assert.NotEmpty(t, id, where)
				assert.JSONEq(t, `"POST"`, string(obj["method"]), where)
				assert.JSONEq(t, `"/v1/chat/completions"`, string(obj["url"]), where)
				require.NoError(t, json.Unmarshal(obj["body"], &body), where)
				assert.False(t, strings.HasPrefix(body.Model, "claude-"), where)
			} else {
				assert.ElementsMatch(t, []string{"custom_id", "params"}, keys, where)
				assert.Regexp(t, anthropicIDRE, id, where)
				require.NoError(t, json.Unmarshal(obj["params"], &body), where)
				assert.True(t, strings.HasPrefix(body.Model, "claude-"), "%s: model %q", where, body.Model)
				require.NotNil(t, body.MaxTokens, where)
				assert.GreaterOrEqual(t, *body.MaxTokens, 1, where)
			}
			assert.NotEmpty(t, body.Model, where)
			assert.NotEmpty(t, body.Messages, where)
			models[body.Model] = true
		case "openai":
			var ft struct {
				Messages          []json.RawMessage `json:"messages"`
				Tools             []json.RawMessage `json:"tools"`
				ParallelToolCalls *bool             `json:"parallel_tool_calls"`
			}
			dec := json.NewDecoder(bytes.NewReader(line))
			dec.DisallowUnknownFields()
			require.NoError(t, dec.Decode(&ft), where)
			require.NotEmpty(t, ft.Messages, where)
			defined := map[string]bool{}
			for _, raw := range ft.Tools {
				var tool struct {
					Type     string `json:"type"`
					Function struct {
						Name string `json:"name"`
					} `json:"function"`
				}
				require.NoError(t, json.Unmarshal(raw, &tool), where)
				assert.Equal(t, "function", tool.Type, where)
				defined[tool.Function.Name] = true
			}
			for _, raw := range ft.Messages {
				var m struct {
					Role      string `json:"role"`
					ToolCalls []struct {
						Type     string `json:"type"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				}
				require.NoError(t, json.Unmarshal(raw, &m), where)
				for _, c := range m.ToolCalls {
					assert.True(t, defined[c.Function.Name], "%s: the line's tools define %s", where, c.Function.Name)
					assert.True(t, json.Valid([]byte(c.Function.Arguments)), "%s: arguments are JSON text", where)
				}
			}
		case "sft":
			var s struct {
				Text  string   `json:"text"`
				Spans [][2]int `json:"assistant_spans"`
			}
			dec := json.NewDecoder(bytes.NewReader(line))
			dec.DisallowUnknownFields()
			require.NoError(t, dec.Decode(&s), where)
			end, runes := 0, utf8.RuneCountInString(s.Text)
			for _, sp := range s.Spans {
				assert.True(t, sp[0] >= end && sp[0] < sp[1] && sp[1] <= runes, "%s: span %v in order, in the text", where, sp)
				end = sp[1]
			}
		default: // a chat format
			assert.Equal(t, []string{"prompt"}, keys, where)
		}
	}
	require.NoError(t, sc.Err())
	if f == "anthropic-batch" {
		size += int64(len(`{"requests":[]}`)) - 1
	}
	assert.LessOrEqual(t, n, limits.maxRequests, "%s: requests in one file", path)
	assert.LessOrEqual(t, size, limits.maxBytes, "%s: bytes in one file", path)
	if f == "openai-batch" {
		assert.LessOrEqual(t, len(models), 1, "%s: one model per file", path)
	}
	return n
}

// rulesRows are rows a new user brings: ids with spaces, slashes and
// accents, an id of 80 characters, a repeated id, a row whose id is a
// number, a tool-using history, and text that needs escaping.
func rulesRows(n int) string {
	var b strings.Builder
	hist := `[{"role": "user", "content": "Rate of EUR?"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "call00001", "type": "function", "function": {"name": "get_rate", "arguments": "{\"currency\":\"EUR\"}"}}]}, {"role": "tool", "tool_call_id": "call00001", "content": "1.08"}, {"role": "assistant", "content": "1.08 dollars."}]`
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("%q", fmt.Sprintf("r%d", i))
		switch i % 7 {
		case 1:
			id = fmt.Sprintf("%q", fmt.Sprintf("a b.c/%d", i))
		case 2:
			id = fmt.Sprintf("%q", strings.Repeat("x", 75)+fmt.Sprint(10000+i))
		case 3:
			id = fmt.Sprint(i)
		case 4:
			id = fmt.Sprintf("%q", fmt.Sprintf("Grüß-%d", i))
		}
		h := "[]"
		if i%3 == 0 {
			h = hist
		}
		fmt.Fprintf(&b, `{"id": %s, "q": "question %d <x> & \"y\" 😀", "h": %s}`+"\n", id, i, h)
	}
	return b.String()
}

// TestBatchFilesFollowTheAPIsRules runs every output format over rows a new
// user brings and checks each file written against the APIs' published
// rules; the batch formats also split into files within smaller limits,
// with the manifest naming where each row went.
func TestBatchFilesFollowTheAPIsRules(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "rows.jsonl")
	const n = 700
	require.NoError(t, os.WriteFile(in, []byte(rulesRows(n)), 0o644))
	tools := filepath.Join(dir, "tools.json")
	require.NoError(t, os.WriteFile(tools, []byte(`[{"type": "function", "function": {"name": "get_rate", "description": "Exchange rate", "parameters": {"type": "object", "properties": {"currency": {"type": "string"}}}}}]`), 0o644))
	tests := []struct {
		format string
		args   []string
		limits apiRules
	}{
		{"openai", []string{"--tools", tools}, apiRules{1 << 30, 1 << 40}},
		{"openai-batch", []string{"--id-field", "id", "--split", "--max-requests", "100"}, apiRules{100, openAIBatchRules.maxBytes}},
		{"openai-batch", []string{"--id-field", "id"}, openAIBatchRules},
		{"anthropic-batch", []string{"--id-field", "id", "--rewrite-ids", "--model", "claude-sonnet-4-5", "--split", "--max-bytes", "60000"}, apiRules{anthropicBatchRules.maxRequests, 60000}},
		{"anthropic-batch", []string{"--model", "claude-sonnet-4-5"}, anthropicBatchRules},
		{"sft", []string{"--chat-format", "qwen2.5", "--tools", tools}, apiRules{1 << 30, 1 << 40}},
		{"sft", []string{"--chat-format", "hf:../../chat/format/chattemplate/testdata/hf/templates/024.jinja", "--tools", tools}, apiRules{1 << 30, 1 << 40}},
		{"qwen2.5", nil, apiRules{1 << 30, 1 << 40}},
	}
	for k, tt := range tests {
		t.Run(tt.format+" "+strings.Join(tt.args, " "), func(t *testing.T) {
			out := filepath.Join(dir, fmt.Sprintf("out%d.jsonl", k))
			args := append([]string{"--in", in, "--out", out, "--format", tt.format, "--history-field", "h"}, tt.args...)
			code, _, errOut := runBatch(t, "", append(args, "testdata/batch/ask-tools.hbs")...)
			split := strings.Contains(strings.Join(tt.args, " "), "--split")
			if !split {
				require.Equal(t, 0, code, errOut)
				assert.Equal(t, n, checkFile(t, tt.format, out, tt.limits))
				return
			}
			require.Equal(t, 0, code, errOut)
			b, err := os.ReadFile(manifestName(out))
			require.NoError(t, err)
			var m manifest
			require.NoError(t, json.Unmarshal(b, &m))
			require.Greater(t, len(m.Files), 1, "more than one file")
			total, next := 0, 1
			for _, f := range m.Files {
				got := checkFile(t, tt.format, f.File, tt.limits)
				assert.Equal(t, f.Requests, got, f.File)
				assert.Equal(t, next, f.FirstRow, f.File)
				next = f.LastRow + 1
				total += got
			}
			assert.Equal(t, n, total)
			assert.Equal(t, n, next-1)
			assert.Contains(t, errOut, fmt.Sprintf("rolemark batch: %d rows: wrote %d lines to %d files (", n, n, len(m.Files)))
		})
	}
}
