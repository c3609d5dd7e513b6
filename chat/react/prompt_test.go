package react_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/react"
)

func TestInstructionQwenVectors(t *testing.T) {
	vs := loadVectors(t)
	tests := []struct {
		name  string
		build func() string
	}{
		{"Q01", func() string { return react.Instruction(react.VariantAPI, []react.Tool{getWeather(t)}) }},
		{"Q01b", func() string {
			return react.Prompt(react.VariantAPI, []react.Tool{getWeather(t), googleSearch(t)}, "hi")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, wantString(t, vs, tc.name), tc.build(), "input: %s", vs[tc.name].Input)
		})
	}
}

func TestPromptSeedDocument(t *testing.T) {
	d := loadSeed(t)
	assert.Equal(t, d.Prompt, react.Prompt(react.VariantDoc, d.Tools, d.Query))
	assert.Equal(t, d.Prompt, react.Prompt("", d.Tools, d.Query), "the default variant is the seed's")
}

func TestVariants(t *testing.T) {
	tool := react.Tool{NameForModel: "calc", NameForHuman: "Calculator", DescriptionForModel: "Adds.",
		Parameters: json.RawMessage(`{"type":"object"}`)}
	code := tool
	code.ArgsFormat = react.ArgsCode
	tests := []struct {
		name    string
		variant react.Variant
		tools   []react.Tool
		header  string
		desc    string
		names   string
	}{
		{"doc", react.VariantDoc, []react.Tool{tool, tool}, "tools:",
			`calc: Call this tool to interact with the Calculator API. What is the Calculator API useful for? Adds. Parameters: {"type": "object"} Format the arguments as a JSON object.`,
			"[calc,calc]"},
		{"api", react.VariantAPI, []react.Tool{tool, tool}, "APIs:",
			`calc: Call this tool to interact with the Calculator API. What is the Calculator API useful for? Adds. Parameters: {"type": "object"}`,
			"[calc, calc]"},
		{"demo json", react.VariantDemo, []react.Tool{tool, tool}, "APIs:",
			`calc: Call this tool to interact with the Calculator API. What is the Calculator API useful for? Adds. Parameters: {"type": "object"} Format the arguments as a JSON object.`,
			"[calc, calc]"},
		{"demo code", react.VariantDemo, []react.Tool{code, code}, "APIs:",
			"calc: Call this tool to interact with the Calculator API. What is the Calculator API useful for? Adds. Parameters: {\"type\": \"object\"} Enclose the code within triple backticks (`) at the beginning and end of the code.",
			"[calc, calc]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := "Answer the following questions as best you can. You have access to the following " + tc.header + "\n\n" +
				tc.desc + "\n\n" + tc.desc + "\n\n" +
				"Use the following format:\n\n" +
				"Question: the input question you must answer\n" +
				"Thought: you should always think about what to do\n" +
				"Action: the action to take, should be one of " + tc.names + "\n" +
				"Action Input: the input to the action\n" +
				"Observation: the result of the action\n" +
				"... (this Thought/Action/Action Input/Observation can be repeated zero or more times)\n" +
				"Thought: I now know the final answer\n" +
				"Final Answer: the final answer to the original input question\n\n" +
				"Begin!"
			assert.Equal(t, want, react.Instruction(tc.variant, tc.tools))
			assert.Equal(t, want+"\n\nQuestion: q", react.Prompt(tc.variant, tc.tools, "q"))
			v, err := react.ParseVariant(string(tc.variant))
			require.NoError(t, err)
			assert.Equal(t, want, react.Instruction(v, tc.tools), "selectable by name")
		})
	}
}

func TestParseVariant(t *testing.T) {
	tests := []struct {
		in   string
		want react.Variant
		err  bool
	}{
		{"", react.VariantDoc, false},
		{"doc", react.VariantDoc, false},
		{"react_prompt", react.VariantDoc, false},
		{"API", react.VariantAPI, false},
		{"openai_api", react.VariantAPI, false},
		{"demo", react.VariantDemo, false},
		{"react_demo.py", react.VariantDemo, false},
		{"chatml", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := react.ParseVariant(tc.in)
			if tc.err {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	for _, v := range react.Variants() {
		got, err := react.ParseVariant(v.String())
		require.NoError(t, err)
		assert.Equal(t, v, got)
	}
}

func TestToolForms(t *testing.T) {
	params := `{"type":"object","properties":{"city":{"type":"string"}}}`
	want := react.Tool{NameForModel: "get_weather", NameForHuman: "get_weather", DescriptionForModel: "Weather.", Parameters: json.RawMessage(params)}
	tests := []struct {
		name string
		json string
		want react.Tool
	}{
		{"openai function tool", `{"type":"function","function":{"name":"get_weather","description":"Weather.","parameters":` + params + `}}`, want},
		{"bare function", `{"name":"get_weather","description":"Weather.","parameters":` + params + `}`, want},
		{"qwen", `{"name_for_human":"Weather","name_for_model":"get_weather","description_for_model":"Weather.","parameters":` + params + `,"args_format":"code"}`,
			react.Tool{NameForModel: "get_weather", NameForHuman: "Weather", DescriptionForModel: "Weather.", Parameters: json.RawMessage(params), ArgsFormat: react.ArgsCode}},
		{"qwen fields win", `{"name":"w","name_for_model":"get_weather","description":"x","description_for_model":"Weather.","parameters":` + params + `}`,
			react.Tool{NameForModel: "get_weather", NameForHuman: "w", DescriptionForModel: "Weather.", Parameters: json.RawMessage(params)}},
		{"no parameters", `{"name":"now"}`, react.Tool{NameForModel: "now", NameForHuman: "now"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got react.Tool
			require.NoError(t, json.Unmarshal([]byte(tc.json), &got))
			assert.Equal(t, tc.want, got)
		})
	}
	var bad react.Tool
	assert.Error(t, json.Unmarshal([]byte(`{"description":"nameless"}`), &bad))

	tools, err := react.ParseTools([]byte(`[` + getWeatherJSON + `,` + googleSearchJSON + `]`))
	require.NoError(t, err)
	assert.Equal(t, []react.Tool{getWeather(t), googleSearch(t)}, tools)

	ct := chat.Tool{Name: "a", Description: "b", Parameters: json.RawMessage(`{}`)}
	assert.Equal(t, ct, react.FromChat(ct).Chat())
	assert.Equal(t, []react.Tool{react.FromChat(ct)}, react.FromChatTools([]chat.Tool{ct}))
	assert.Equal(t, "now: Call this tool to interact with the now API. What is the now API useful for?  Parameters: {}",
		react.Describe(react.VariantAPI, react.Tool{NameForModel: "now"}))
}
