package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
)

func TestFrontMatterSettings(t *testing.T) {
	tests := []struct {
		name       string
		front      string
		wantOpenAI string
		wantErr    string
	}{
		{"model, config, tools, tool choice",
			"model: gpt-4.1\nconfig: {temperature: 0.2, maxOutputTokens: 50, stop: [END]}\n" +
				"tools:\n  - {name: get_rate, parameters: {type: object, properties: {currency: {type: string}}}}\ntoolChoice: get_rate\n",
			`{"model":"gpt-4.1","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"get_rate","parameters":{"type":"object","properties":{"currency":{"type":"string"}}}}}],"tool_choice":{"type":"function","function":{"name":"get_rate"}},"max_completion_tokens":50,"stop":["END"],"temperature":0.2}`, ""},
		{"picoschema output is a json_schema response format",
			"model: m\noutput:\n  format: json\n  schema:\n    city: string\n    population?: integer\n",
			`{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"output","schema":{"type":"object","properties":{"city":{"type":"string"},"population":{"type":["integer","null"]}},"required":["city"],"additionalProperties":false}}}}`, ""},
		{"a schema without a format asks for JSON",
			"model: m\noutput:\n  schema: {type: object}\n",
			`{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"output","schema":{"type":"object"}}}}`, ""},
		{"json mode", "model: m\noutput: {format: json}\n",
			`{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_object"}}`, ""},
		{"what OpenAI cannot carry is an error", "model: m\nconfig: {topK: 3}\n", "",
			"chat: openai request: config.topK: has no openai equivalent"},
		{"an unknown tool choice is an error", "model: m\ntoolChoice: get_time\ntools: [{name: get_rate}]\n", "",
			`chat: openai request: tool_choice: "get_time" is neither auto, none nor required, nor the name of one of the request's tools`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "p.tmpl", "---\n"+tt.front+"---\nhi")
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), nil)
			require.NoError(t, err)
			body, err := chat.OpenAIBody(msgs, tpl.FrontMatter().Settings())
			if tt.wantErr != "" {
				require.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantOpenAI, string(body))
		})
	}
}

func TestFrontMatterSettingsNil(t *testing.T) {
	var fm *engine.FrontMatter
	assert.Equal(t, chat.Settings{}, fm.Settings())
	tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "p.tmpl", "---\ntoolChoice: [a]\n---\nhi")
	assert.Nil(t, tpl)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "toolChoice must be a string")
}

// TestSettingPos: a setting a *chat.RequestError names is placed at its key
// in the front matter (the file's line, after a leading comment line), or
// at the mapping that lacks it; a setting the file does not write is not
// placed.
func TestSettingPos(t *testing.T) {
	src := "# a prompt\n---\nname: rate\nmodel: claude-x\nconfig:\n  seed: 7\n  stop: [a]\noutput: {format: json}\ntoolChoice: auto\ntoolDefs:\n  - {name: f}\n---\n{{role \"user\"}}hi"
	tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "t.tmpl", src)
	require.NoError(t, err)
	fm := tpl.FrontMatter()
	for _, tc := range []struct {
		field     string
		line, col int
		ok        bool
	}{
		{"model", 4, 1, true},
		{"config.seed", 6, 3, true},
		{"config.stop", 7, 3, true},
		{"config.max_tokens", 5, 1, true}, // missing: the mapping
		{"output.format", 8, 10, true},
		{"output.schema", 8, 1, true},
		{"output.name", 3, 1, true},
		{"tool_choice", 9, 1, true},
		{"tools", 10, 1, true},
		{"messages", 0, 0, false},
		{"ext", 0, 0, false},
	} {
		line, col, ok := fm.SettingPos(tc.field)
		assert.Equal(t, []any{tc.line, tc.col, tc.ok}, []any{line, col, ok}, tc.field)
	}
	tpl, err = engine.NewSet(gotmpl.New()).Parse("gotmpl", "t.tmpl", "hi")
	require.NoError(t, err)
	_, _, ok := tpl.FrontMatter().SettingPos("model")
	assert.False(t, ok, "no front matter")
}
