package anthropic

import (
	"encoding/json"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/internal/fixture/batchtest"
	"github.com/rolemark/rolemark/internal/fixture/wiretest"
)

const batchTemplate = `---
model: claude-sonnet-4-5
config: {temperature: 0.2, maxOutputTokens: 300, topK: 40}
tools:
  - name: get_rate
    description: Exchange rate of a currency
    parameters: {type: object, properties: {currency: {type: string}}, required: [currency]}
---
{{role "system"}}You are a bank manager.
{{history}}
{{role "user"}}{{q}}{{media url="https://example.com/note.jpg"}}`

// The ids are the rows' own; two of them Anthropic refuses as they are and
// RewriteIDs rewrites.
const batchRows = `{"id": "a-1", "q": "What is this note worth?"}
{"id": "b 2/ü", "q": "And in yen?", "h": [{"role": "user", "content": "Rate of EUR?"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "toolu_1", "type": "function", "function": {"name": "get_rate", "arguments": "{\"currency\":\"EUR\"}"}}]}, {"role": "tool", "tool_call_id": "toolu_1", "content": "1.08"}, {"role": "assistant", "content": "1.08 dollars."}]}
{"id": "` + "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc" + `", "q": "Grüß 😀 <x> & \"y\"\n"}
`

// TestBatchLinesParse checks every line of the anthropic-batch output
// against anthropic-sdk-go: each is a MessageBatchNewParamsRequest with no
// field the SDK does not know (written back, it is the line), whose
// custom_id Anthropic's rules accept.
func TestBatchLinesParse(t *testing.T) {
	lines := batchtest.Lines(t, batchTemplate, batchRows, 3, func(fm *engine.FrontMatter) (batch.Append, error) {
		return batch.AnthropicBatch(fm, batch.IDKey("id"), batch.RewriteIDs())
	})
	var ids []string
	for _, line := range lines {
		var req anthropic.MessageBatchNewParamsRequest
		require.NoError(t, json.Unmarshal(line, &req))
		back, err := json.Marshal(req)
		require.NoError(t, err)
		assert.JSONEq(t, textBlocks(t, line, systemAndContent), textBlocks(t, back, systemAndContent))
		assert.Regexp(t, `^[a-zA-Z0-9_-]{1,64}$`, req.CustomID)
		assert.Equal(t, anthropic.Model("claude-sonnet-4-5"), req.Params.Model)
		ids = append(ids, req.CustomID)
	}
	assert.Equal(t, "a-1", ids[0], "an id Anthropic takes is kept")
	assert.Regexp(t, `^b_2__-[0-9a-f]{16}$`, ids[1])
	assert.Regexp(t, `^c{47}-[0-9a-f]{16}$`, ids[2])
}

// textBlocks writes the string value of each key that keys names in an
// object as the one text block the SDK writes it as (the API reads the two
// the same).
func textBlocks(t *testing.T, b []byte, keys func(map[string]any) []string) string {
	t.Helper()
	return wiretest.Rewrite(t, b, func(v map[string]any) {
		for _, k := range keys(v) {
			if s, ok := v[k].(string); ok {
				v[k] = []any{map[string]any{"type": "text", "text": s}}
			}
		}
	})
}

// systemAndContent are the keys that hold text in a batch line.
func systemAndContent(map[string]any) []string { return []string{"system", "content"} }
