package main

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/chat"
)

// TestBatchCount checks the token summary of batch --count against
// testdata/batch/count.golden, which testdata/batch/count.mjs wrote with
// the reference tokenizers (tiktoken, @huggingface/tokenizers).
func TestBatchCount(t *testing.T) {
	raw, err := os.ReadFile("testdata/batch/count.golden")
	require.NoError(t, err)
	golden := map[string]string{}
	for _, l := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		k, v, ok := strings.Cut(l, "\t")
		require.True(t, ok, l)
		golden[k] = v
	}
	const qwen3 = "../../tokens/testdata/vocab/qwen3.tokenizer.json.gz"
	tests := []struct {
		name  string
		count string
		args  []string
		code  int
	}{
		{"openai o200k_base", "o200k_base", nil, 0},
		// Row 3 repeats row 1's custom_id: it fails, and is not counted.
		{"openai-batch cl100k_base", "cl100k_base", []string{"--format", "openai-batch", "--id-field", "id"}, 1},
		{"anthropic-batch o200k_base", "o200k_base", []string{"--format", "anthropic-batch", "--model", "claude-x"}, 0},
		{"chatml o200k_base", "o200k_base", []string{"--format", "chatml"}, 0},
		{"sft qwen3", qwen3, []string{"--format", "sft", "--chat-format", "chatml"}, 0},
		{"sft cl100k_base", "cl100k_base", []string{"--format", "sft", "--chat-format", "chatml", "--dry-run"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want, ok := golden[tc.name]
			require.True(t, ok, "no golden line %q", tc.name)
			args := append([]string{"--in", "testdata/batch/count.jsonl"}, tc.args...)
			code, out, stderr := runBatch(t, "", append(args, "--count", tc.count, "testdata/batch/ask.hbs")...)
			assert.Equal(t, tc.code, code, stderr)
			assert.Contains(t, stderr, want+"\n")
			// The lines are the same as without --count.
			_, plain, _ := runBatch(t, "", append(args, "testdata/batch/ask.hbs")...)
			assert.Equal(t, plain, out)
		})
	}
}

func TestBatchCountUsage(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"a tokenizer.json does not count messages", []string{"--count", "../../tokens/testdata/vocab/qwen3.tokenizer.json.gz"},
			"--count ../../tokens/testdata/vocab/qwen3.tokenizer.json.gz counts the text of a chat format: pass --format sft or a chat format"},
		{"unknown tokenizer", []string{"--count", "gpt2", "--format", "chatml"}, "--count takes o200k_base, cl100k_base or a tokenizer.json file, not \"gpt2\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--in", "testdata/batch/count.jsonl"}, tc.args...)
			code, out, stderr := runBatch(t, "", append(args, "testdata/batch/ask.hbs")...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.Contains(t, stderr, tc.wantErr)
		})
	}
}

// TestBatchNoCountNoSummary: without --count a run prints no token line.
func TestBatchNoCountNoSummary(t *testing.T) {
	code, _, stderr := runBatch(t, "", "--in", "testdata/batch/count.jsonl", "testdata/batch/ask.hbs")
	assert.Equal(t, 0, code)
	assert.Empty(t, stderr)
}

// TestTokenTallyLines: a line's text is what a chat format or sft writes;
// a line of token ids (sft with a model's tokenizer) counts its ids; a
// line with nothing to count is the row's failure, not a silent 0.
// Figures: tiktoken, o200k_base (<|im_start|> is text to it).
func TestTokenTallyLines(t *testing.T) {
	for _, tc := range []struct {
		name, line, want, err string
	}{
		{"prompt", `{"prompt":"<|im_start|>user\nhi<|im_end|>\n"}` + "\n", "the text of each line): 15 in 1 rows", ""},
		{"text", `{"text":"hello world","assistant_spans":[]}` + "\n", "the text of each line): 2 in 1 rows", ""},
		{"input_ids", `{"input_ids":[1,2,3,4,5],"assistant_masks":[0,0,0,1,1]}` + "\n", "the input_ids of each line): 5 in 1 rows", ""},
		{"nothing to count", `{"other":1}` + "\n", "", "--count: the line holds no prompt, text or input_ids to count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tally, err := newTokenTally("o200k_base", "sft")
			require.NoError(t, err)
			a := tally.wrap(func(_ context.Context, dst []byte, _ int, _ batch.Row, _ []chat.Message) ([]byte, error) {
				return append(dst, tc.line...), nil
			})
			_, err = a(context.Background(), []byte("earlier line\n"), 0, batch.Row{}, nil)
			if tc.err != "" {
				assert.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			tally.take(0)
			assert.Contains(t, tally.summary(), tc.want)
		})
	}
}
