package anthropic

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
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
	tpl, err := engine.NewSet(handlebars.New()).Parse("handlebars", "ask.hbs", batchTemplate)
	require.NoError(t, err)
	a, err := batch.AnthropicBatch(tpl.FrontMatter(), batch.IDKey("id"), batch.RewriteIDs())
	require.NoError(t, err)
	rows := batch.JSONLines(strings.NewReader(batchRows))
	var ids []string
	for res := range batch.RenderAppend(context.Background(), tpl, rows, a, batch.Prepare(func(r batch.Row) batch.Row { return r.HistoryFrom("h") })) {
		require.NoError(t, res.Err)
		var req anthropic.MessageBatchNewParamsRequest
		require.NoError(t, json.Unmarshal(res.Value, &req))
		back, err := json.Marshal(req)
		require.NoError(t, err)
		assert.JSONEq(t, textBlocks(t, res.Value), textBlocks(t, back))
		assert.Regexp(t, `^[a-zA-Z0-9_-]{1,64}$`, req.CustomID)
		assert.Equal(t, anthropic.Model("claude-sonnet-4-5"), req.Params.Model)
		ids = append(ids, req.CustomID)
	}
	require.Len(t, ids, 3)
	assert.Equal(t, "a-1", ids[0], "an id Anthropic takes is kept")
	assert.Regexp(t, `^b_2__-[0-9a-f]{16}$`, ids[1])
	assert.Regexp(t, `^c{47}-[0-9a-f]{16}$`, ids[2])
}

// textBlocks writes every system prompt and content given as a string as
// the one text block the SDK writes it as (the API reads the two the same).
func textBlocks(t *testing.T, line []byte) string {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(line, &v))
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && (k == "system" || k == "content") {
					v[k] = []any{map[string]any{"type": "text", "text": s}}
					continue
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}
