package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBatchSFTTokens runs batch --format sft --sft-tokenizer and requires
// the ids and mask the oracle gave for the same conversation
// (batch/testdata/sft_tokens: Jinja2 with transformers' AssistantTracker,
// @huggingface/tokenizers, transformers' mask loop).
func TestBatchSFTTokens(t *testing.T) {
	raw, err := os.ReadFile("../../batch/testdata/sft_tokens/expected.json")
	require.NoError(t, err)
	var doc struct {
		Cases []struct {
			Template, Tokenizer, Conversation string
			InputIDs                          []int `json:"input_ids"`
			AssistantMasks                    []int `json:"assistant_masks"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	var want string
	for _, c := range doc.Cases {
		if c.Template == "090.jinja" && c.Tokenizer == "qwen3" && c.Conversation == "cli" {
			ids, _ := json.Marshal(c.InputIDs)
			mask, _ := json.Marshal(c.AssistantMasks)
			want = fmt.Sprintf(`{"input_ids":%s,"assistant_masks":%s}`+"\n", ids, mask)
		}
	}
	require.NotEmpty(t, want)
	const row = `{"q": "Hi", "h": [{"role": "user", "content": "Before?"}, {"role": "assistant", "content": "  Yes. "}]}` + "\n"
	code, out, errOut := runBatch(t, row, "--format", "sft", "--chat-format", "hf:../../chat/format/chattemplate/testdata/hf/templates/090.jinja",
		"--sft-tokenizer", "../../tokens/testdata/vocab/qwen3.tokenizer.json.gz", "--history-field", "h", "--in", "-", "testdata/batch/ask.hbs")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, want, out)
	assert.Contains(t, out, `,1,1,1,1,1,0,`) // "  Yes. <|im_end|>" is the assistant's
}

func TestBatchSFTTokensUsage(t *testing.T) {
	const tk = "../../tokens/testdata/vocab/qwen3.tokenizer.json.gz"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"not sft", []string{"--sft-tokenizer", tk}, "--chat-format, --sft-last, --sft-end and --sft-tokenizer go with --format sft"},
		{"preset", []string{"--format", "sft", "--chat-format", "chatml", "--sft-tokenizer", tk}, "--sft-tokenizer needs --chat-format hf:FILE"},
		{"sft-last", []string{"--format", "sft", "--chat-format", "hf:../../chat/format/chattemplate/testdata/hf/templates/090.jinja", "--sft-last", "--sft-tokenizer", tk},
			"--sft-last and --sft-end do not go with --sft-tokenizer"},
		{"count", []string{"--format", "sft", "--chat-format", "hf:../../chat/format/chattemplate/testdata/hf/templates/090.jinja", "--sft-tokenizer", tk, "--count", "o200k_base"},
			"--count does not go with --sft-tokenizer"},
		{"encoding", []string{"--format", "sft", "--chat-format", "hf:../../chat/format/chattemplate/testdata/hf/templates/090.jinja", "--sft-tokenizer", "o200k_base"},
			`--sft-tokenizer takes a tokenizer.json file, not "o200k_base"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := runBatch(t, "", append(tt.args, "--in", "-", "testdata/batch/ask.hbs")...)
			assert.Equal(t, 2, code)
			assert.Contains(t, errOut, tt.want)
		})
	}
	// a template without a generation block fails each row
	code, _, errOut := runBatch(t, `{"q": "Hi"}`+"\n", "--format", "sft", "--chat-format", "hf:../../chat/format/chattemplate/testdata/hf/templates/000.jinja",
		"--sft-tokenizer", tk, "--in", "-", "testdata/batch/ask.hbs")
	assert.Equal(t, 1, code)
	assert.True(t, strings.Contains(errOut, "no {% generation %} block"), errOut)
}
