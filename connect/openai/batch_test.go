package openai

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/internal/fixture/batchtest"
	"github.com/rolemark/rolemark/internal/fixture/wiretest"
)

// batchTemplate asks about a row's question after the row's history, with
// tools, settings and an image: what the batch outputs write.
const batchTemplate = `---
model: gpt-4.1-mini
config: {temperature: 0.2, max_tokens: 300, seed: 7, parallel_tool_calls: false}
tools:
  - name: get_rate
    description: Exchange rate of a currency
    parameters: {type: object, properties: {currency: {type: string}}, required: [currency]}
toolChoice: auto
---
{{role "system"}}You are a bank manager.
{{history}}
{{role "user"}}{{q}}{{media url="https://example.com/note.jpg"}}`

// batchRows hold a plain question, a tool-using history, and text that
// needs escaping.
const batchRows = `{"id": "a-1", "q": "What is this note worth?"}
{"id": "b-2", "q": "And in yen?", "h": [{"role": "user", "content": "Rate of EUR?"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "get_rate", "arguments": "{\"currency\":\"EUR\"}"}}]}, {"role": "tool", "tool_call_id": "call_1", "content": "1.08"}, {"role": "assistant", "content": "1.08 dollars."}]}
{"id": "c-3", "q": "Grüß 😀 <x> & \"y\"\n"}
`

// batchLines renders batchRows with output, as rolemark batch does.
func batchLines(t *testing.T, output func(*engine.FrontMatter) (batch.Append, error)) [][]byte {
	t.Helper()
	return batchtest.Lines(t, batchTemplate, batchRows, 3, output)
}

// strict decodes b into v, refusing a field v does not have.
func strict(t *testing.T, b []byte, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(v), "%s", b)
}

// sameAfterSDK checks that openai-go reads b into v whole: v written back
// is b, so no field of b was unknown to it (the SDK's param types drop
// what they do not know).
func sameAfterSDK(t *testing.T, b []byte, v any) {
	t.Helper()
	require.NoError(t, json.Unmarshal(b, v), "%s", b)
	back, err := json.Marshal(v)
	require.NoError(t, err)
	assert.JSONEq(t, withoutNull(t, b), withoutNull(t, back))
}

// withoutNull removes every "content": null from b, as the SDK does when
// it writes a message (the API reads a missing content as null).
func withoutNull(t *testing.T, b []byte) string {
	t.Helper()
	return wiretest.Rewrite(t, b, func(v map[string]any) {
		if c, ok := v["content"]; ok && c == nil {
			delete(v, "content")
		}
	})
}

// TestBatchLinesParse checks every line of the openai-batch output against
// openai-go: the line's envelope has the Batch API's fields alone, and its
// body is a ChatCompletionNewParams with no field openai-go does not know.
func TestBatchLinesParse(t *testing.T) {
	lines := batchLines(t, func(fm *engine.FrontMatter) (batch.Append, error) {
		return batch.OpenAIBatch(fm, batch.IDKey("id"))
	})
	for i, l := range lines {
		var env struct {
			CustomID string          `json:"custom_id"`
			Method   string          `json:"method"`
			URL      string          `json:"url"`
			Body     json.RawMessage `json:"body"`
		}
		strict(t, l, &env)
		assert.Equal(t, []string{"a-1", "b-2", "c-3"}[i], env.CustomID)
		assert.Equal(t, "POST", env.Method)
		assert.Equal(t, "/v1/chat/completions", env.URL)
		var p openai.ChatCompletionNewParams
		sameAfterSDK(t, env.Body, &p)
		assert.Equal(t, "gpt-4.1-mini", p.Model)
	}
	assert.Contains(t, string(lines[1]), `"tool_calls":[{"id":"call_1"`)
}

// TestFineTuningLinesParse checks every line of the openai output, OpenAI's
// fine-tuning format with tools: messages, tools and parallel_tool_calls
// alone; each message a ChatCompletionMessageParamUnion and each tool a
// ChatCompletionToolUnionParam with no field openai-go does not know.
func TestFineTuningLinesParse(t *testing.T) {
	lines := batchLines(t, func(fm *engine.FrontMatter) (batch.Append, error) {
		return batch.Output("openai", fm)
	})
	for _, l := range lines {
		var line struct {
			Messages          []json.RawMessage `json:"messages"`
			Tools             []json.RawMessage `json:"tools"`
			ParallelToolCalls *bool             `json:"parallel_tool_calls"`
		}
		strict(t, l, &line)
		require.NotEmpty(t, line.Messages)
		for _, m := range line.Messages {
			var u openai.ChatCompletionMessageParamUnion
			require.NoError(t, json.Unmarshal(m, &u))
			back, err := json.Marshal(u)
			require.NoError(t, err)
			assert.JSONEq(t, withoutNull(t, m), withoutNull(t, back))
		}
		require.Len(t, line.Tools, 1)
		var tool openai.ChatCompletionToolUnionParam
		sameAfterSDK(t, line.Tools[0], &tool)
		assert.Equal(t, "get_rate", tool.GetFunction().Name)
		require.NotNil(t, line.ParallelToolCalls)
		assert.False(t, *line.ParallelToolCalls)
	}
}
