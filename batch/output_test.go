package batch_test

import (
	"context"
	"iter"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/batch"
	"github.com/rolemark/rolemark/chat/format"
)

const outputTemplate = `---
model: gpt-4o-mini
config: {temperature: 0.2, max_tokens: 100}
tools:
  - name: get_rate
    description: Exchange rate
    parameters: {type: object, properties: {currency: {type: string}}}
---
{{role "system"}}You are <b>brief</b> & exact.
{{role "user"}}Q: {{q}}`

const outputRows = `{"q": "2+2?", "id": "a1"}
{"q": "Grüß 😀 <x> & \"y\""}
{"q": ""}
{"nope": 1}
`

func TestOutputs(t *testing.T) {
	tpl := parse(t, "handlebars", outputTemplate)
	fm := tpl.FrontMatter()
	chatml, _ := format.Lookup("chatml")
	openaiBatch, err := batch.OpenAIBatch(fm)
	require.NoError(t, err)
	anthropicBatch, err := batch.AnthropicBatch(fm, batch.Model("claude-x"))
	require.NoError(t, err)
	openai, err := batch.OpenAI()
	require.NoError(t, err)
	prompt, err := batch.Prompt(chatml)
	require.NoError(t, err)
	sft, err := batch.SFT(chatml)
	require.NoError(t, err)
	const missing = `row 4: t:10:21: variable "q" is not supplied`
	tests := []struct {
		name   string
		output batch.Append
		want   []string
	}{
		{"openai", openai, []string{
			`{"messages":[{"role":"system","content":"You are <b>brief</b> & exact."},{"role":"user","content":"Q: 2+2?"}]}`,
			`{"messages":[{"role":"system","content":"You are <b>brief</b> & exact."},{"role":"user","content":"Q: Grüß 😀 <x> & \"y\""}]}`,
			`{"messages":[{"role":"system","content":"You are <b>brief</b> & exact."},{"role":"user","content":"Q:"}]}`,
			missing,
		}},
		{"openai-batch", openaiBatch, []string{
			`{"custom_id":"row-1","method":"POST","url":"/v1/chat/completions","body":{"model":"gpt-4o-mini","messages":[{"role":"system","content":"You are <b>brief</b> & exact."},{"role":"user","content":"Q: 2+2?"}],"tools":[{"type":"function","function":{"name":"get_rate","description":"Exchange rate","parameters":{"type":"object","properties":{"currency":{"type":"string"}}}}}],"max_tokens":100,"temperature":0.2}}`,
			`{"custom_id":"row-2","method":"POST","url":"/v1/chat/completions","body":{"model":"gpt-4o-mini","messages":[{"role":"system","content":"You are <b>brief</b> & exact."},{"role":"user","content":"Q: Grüß 😀 <x> & \"y\""}],"tools":[{"type":"function","function":{"name":"get_rate","description":"Exchange rate","parameters":{"type":"object","properties":{"currency":{"type":"string"}}}}}],"max_tokens":100,"temperature":0.2}}`,
			`{"custom_id":"row-3","method":"POST","url":"/v1/chat/completions","body":{"model":"gpt-4o-mini","messages":[{"role":"system","content":"You are <b>brief</b> & exact."},{"role":"user","content":"Q:"}],"tools":[{"type":"function","function":{"name":"get_rate","description":"Exchange rate","parameters":{"type":"object","properties":{"currency":{"type":"string"}}}}}],"max_tokens":100,"temperature":0.2}}`,
			missing,
		}},
		{"anthropic-batch", anthropicBatch, []string{
			`{"custom_id":"row-1","params":{"model":"claude-x","max_tokens":100,"system":"You are <b>brief</b> & exact.","messages":[{"role":"user","content":[{"type":"text","text":"Q: 2+2?"}]}],"tools":[{"name":"get_rate","description":"Exchange rate","input_schema":{"type":"object","properties":{"currency":{"type":"string"}}}}],"temperature":0.2}}`,
			`{"custom_id":"row-2","params":{"model":"claude-x","max_tokens":100,"system":"You are <b>brief</b> & exact.","messages":[{"role":"user","content":[{"type":"text","text":"Q: Grüß 😀 <x> & \"y\""}]}],"tools":[{"name":"get_rate","description":"Exchange rate","input_schema":{"type":"object","properties":{"currency":{"type":"string"}}}}],"temperature":0.2}}`,
			`{"custom_id":"row-3","params":{"model":"claude-x","max_tokens":100,"system":"You are <b>brief</b> & exact.","messages":[{"role":"user","content":[{"type":"text","text":"Q:"}]}],"tools":[{"name":"get_rate","description":"Exchange rate","input_schema":{"type":"object","properties":{"currency":{"type":"string"}}}}],"temperature":0.2}}`,
			missing,
		}},
		{"chatml", prompt, []string{
			`{"prompt":"<|im_start|>system\nYou are <b>brief</b> & exact.<|im_end|>\n<|im_start|>user\nQ: 2+2?<|im_end|>\n<|im_start|>assistant\n"}`,
			`{"prompt":"<|im_start|>system\nYou are <b>brief</b> & exact.<|im_end|>\n<|im_start|>user\nQ: Grüß 😀 <x> & \"y\"<|im_end|>\n<|im_start|>assistant\n"}`,
			`{"prompt":"<|im_start|>system\nYou are <b>brief</b> & exact.<|im_end|>\n<|im_start|>user\nQ:<|im_end|>\n<|im_start|>assistant\n"}`,
			missing,
		}},
		{"sft", sft, []string{
			`{"text":"<|im_start|>system\nYou are <b>brief</b> & exact.<|im_end|>\n<|im_start|>user\nQ: 2+2?<|im_end|>\n","assistant_spans":[]}`,
			`{"text":"<|im_start|>system\nYou are <b>brief</b> & exact.<|im_end|>\n<|im_start|>user\nQ: Grüß 😀 <x> & \"y\"<|im_end|>\n","assistant_spans":[]}`,
			`{"text":"<|im_start|>system\nYou are <b>brief</b> & exact.<|im_end|>\n<|im_start|>user\nQ:<|im_end|>\n","assistant_spans":[]}`,
			missing,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := func(results iter.Seq[batch.Result[[]byte]]) []string {
				var got []string
				for res := range results {
					if res.Err != nil {
						got = append(got, res.Err.Error())
						continue
					}
					require.True(t, strings.HasSuffix(string(res.Value), "\n"))
					got = append(got, strings.TrimSuffix(string(res.Value), "\n"))
				}
				return got
			}
			rows := func() iter.Seq[batch.Row] { return batch.JSONLines(strings.NewReader(outputRows)) }
			ctx := context.Background()
			assert.Equal(t, tt.want, lines(batch.RenderAppend(ctx, tpl, rows(), tt.output, batch.Workers(3))), "RenderAppend")
			var one []string
			i := 0
			for row := range rows() {
				out, err := batch.RenderOne(ctx, tpl, []byte("kept"), i, row, tt.output)
				if err != nil {
					one = append(one, err.Error())
				} else {
					require.True(t, strings.HasPrefix(string(out), "kept"), "RenderOne appends to dst")
					one = append(one, strings.TrimSuffix(strings.TrimPrefix(string(out), "kept"), "\n"))
				}
				i++
			}
			assert.Equal(t, tt.want, one, "RenderOne")
		})
	}
}

// TestCustomIDField checks the custom_id taken from a row's field: a
// string as it is, a number as JSON writes it, and a row without a usable
// value failing rather than getting an id no one asked for.
func TestCustomIDField(t *testing.T) {
	tpl := parse(t, "handlebars", "---\nconfig: {max_tokens: 5}\n---\nhi")
	rows := `{"id": "a-1"}
{"id": 12}
{"id": 1e6}
{"id": -5}
{"other": "x"}
{"id": null}
{"id": {"a": 1}}
`
	want := []string{`"a-1"`, `"12"`, `"1000000"`, `"-5"`,
		`row 5: no id field "id" in the row`,
		`row 6: the id field "id" is null`,
		`row 7: the id field "id" holds a map[string]interface {}, not a string or a number`}
	for _, name := range []string{"openai-batch", "anthropic-batch"} {
		t.Run(name, func(t *testing.T) {
			model := map[string]string{"openai-batch": "gpt-x", "anthropic-batch": "claude-x"}[name]
			out, err := batch.Output(name, tpl.FrontMatter(), batch.IDKey("id"), batch.Model(model))
			require.NoError(t, err)
			var got []string
			for res := range batch.RenderAppend(context.Background(), tpl, batch.JSONLines(strings.NewReader(rows)), out) {
				if res.Err != nil {
					got = append(got, res.Err.Error())
					continue
				}
				id, _, _ := strings.Cut(strings.TrimPrefix(string(res.Value), `{"custom_id":`), ",")
				got = append(got, id)
			}
			assert.Equal(t, want, got)
		})
	}
}

func TestRequestOutputsNeedWhatTheAPIsRequire(t *testing.T) {
	tpl := parse(t, "handlebars", `{{role "user"}}hi`)
	_, err := batch.OpenAIBatch(tpl.FrontMatter())
	assert.EqualError(t, err, "openai-batch needs a model: write model: in the template's front matter or pass one")
	_, err = batch.AnthropicBatch(tpl.FrontMatter(), batch.Model("claude-m"))
	assert.EqualError(t, err, "anthropic-batch: chat: anthropic request: config.max_tokens: the Messages API needs max_tokens (or maxOutputTokens) in config")
}

func TestOutput(t *testing.T) {
	tpl := parse(t, "handlebars", outputTemplate)
	fm := tpl.FrontMatter()
	tests := []struct {
		name string
		opts []batch.OutputOption
		err  string
	}{
		{"openai", nil, ""},
		{"openai-batch", nil, ""},
		{"anthropic-batch", []batch.OutputOption{batch.Model("claude-x")}, ""},
		{"anthropic-batch", nil, `anthropic-batch: model "gpt-4o-mini" is not one of Anthropic's (claude-…)`},
		{"openai-batch", []batch.OutputOption{batch.Model("claude-x")}, `openai-batch: model "claude-x" is Anthropic's: write it with --format anthropic-batch`},
		{"llama3", nil, ""},
		{"llama3", []batch.OutputOption{batch.AllowSpecialTokens()}, ""},
		{"sft", []batch.OutputOption{batch.ChatFormat("gemma"), batch.LastOnly()}, ""},
		{"sft", nil, "the sft output needs a chat format"},
		{"sft", []batch.OutputOption{batch.ChatFormat("nope")}, `unknown chat format "nope"; known: alfred, `},
		{"openai", []batch.OutputOption{batch.ChatFormat("chatml")}, "openai: the ChatFormat option does not apply to it"},
		{"openai-batch", []batch.OutputOption{batch.Tools(nil)}, "openai-batch: the Tools option does not apply to it"},
		{"llama3", []batch.OutputOption{batch.IDKey("id")}, "llama3: the IDKey option does not apply to it"},
		{"nope", nil, `unknown output "nope"; known: openai, openai-batch, anthropic-batch, sft, alfred, `},
	}
	for _, tt := range tests {
		c, err := batch.Output(tt.name, fm, tt.opts...)
		if tt.err == "" {
			assert.NoError(t, err, tt.name)
			assert.NotNil(t, c)
			continue
		}
		require.Error(t, err, tt.name)
		assert.True(t, strings.HasPrefix(err.Error(), tt.err), err.Error())
	}
}

// TestOutputOptionsApply: each output refuses an option it does not take.
func TestOutputOptionsApply(t *testing.T) {
	chatml, _ := format.Lookup("chatml")
	_, err := batch.OpenAI(batch.Model("m"))
	assert.EqualError(t, err, "openai: the Model option does not apply to it")
	_, err = batch.OpenAIBatch(nil, batch.Model("m"), batch.LastOnly())
	assert.EqualError(t, err, "openai-batch: the LastOnly option does not apply to it")
	_, err = batch.AnthropicBatch(nil, batch.ParallelToolCalls(true))
	assert.EqualError(t, err, "anthropic-batch: the ParallelToolCalls option does not apply to it")
	_, err = batch.Prompt(chatml, batch.TurnEnds())
	assert.EqualError(t, err, "prompt: the TurnEnds option does not apply to it")
	_, err = batch.SFT(chatml, batch.Vars(nil))
	assert.EqualError(t, err, "sft: the Vars option does not apply to it")
	_, _, err = batch.Spans(chatml, nil, batch.RewriteIDs())
	assert.EqualError(t, err, "Spans: the RewriteIDs option does not apply to it")
	_, err = batch.Prompt(&format.Format{Alternate: "sometimes"})
	assert.ErrorContains(t, err, "sometimes", "a format that does not validate fails when the output is made")
	assert.Equal(t, []string{"openai", "openai-batch", "anthropic-batch", "sft"}, batch.OutputNames())
	names := batch.OutputNames()
	names[0] = "changed"
	assert.Equal(t, "openai", batch.OutputNames()[0], "the names are the caller's copy")
}
