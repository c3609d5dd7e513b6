package chat

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// requestMessages is a system prompt, a question, a tool call and its
// result.
var requestMessages = []Message{
	Text(RoleSystem, "You are a bank manager."),
	Text(RoleUser, "What is 100 EUR in USD?"),
	{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "get_rate", Arguments: json.RawMessage(`{"currency":"EUR"}`)}}},
	{Role: RoleTool, ToolCallID: "c1", Content: []Part{TextPart("1.08")}},
}

var rateTool = Tool{Name: "get_rate", Description: "Exchange rate of a currency",
	Parameters: json.RawMessage(`{"type":"object","properties":{"currency":{"type":"string"}},"required":["currency"]}`)}

var answerSchema = json.RawMessage(`{"type":"object","properties":{"usd":{"type":"number"}},"required":["usd"]}`)

const openaiMessagesJSON = `"messages":[{"role":"system","content":"You are a bank manager."},{"role":"user","content":"What is 100 EUR in USD?"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_rate","arguments":"{\"currency\":\"EUR\"}"}}]},{"role":"tool","content":"1.08","tool_call_id":"c1"}]`

const openaiToolsJSON = `"tools":[{"type":"function","function":{"name":"get_rate","description":"Exchange rate of a currency","parameters":{"type":"object","properties":{"currency":{"type":"string"}},"required":["currency"]}}}]`

func TestOpenAIBody(t *testing.T) {
	hi := []Message{Text(RoleUser, "hi")}
	tests := []struct {
		name string
		msgs []Message
		s    Settings
		want string
	}{
		{"model and messages only", requestMessages, Settings{Model: "gpt-4.1"},
			`{"model":"gpt-4.1",` + openaiMessagesJSON + `}`},
		{"config sorted, own names kept", []Message{Text(RoleUser, "hi")},
			Settings{Model: "m", Config: map[string]any{"temperature": 0.2, "max_tokens": 100, "seed": 7, "top_p": 0.9}},
			`{"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":100,"seed":7,"temperature":0.2,"top_p":0.9}`},
		{"dotprompt names translated", []Message{Text(RoleUser, "hi")},
			Settings{Model: "m", Config: map[string]any{"maxOutputTokens": 50, "topP": 0.5, "stopSequences": []any{"END"}}},
			`{"model":"m","messages":[{"role":"user","content":"hi"}],"max_completion_tokens":50,"stop":["END"],"top_p":0.5}`},
		{"anthropic stop_sequences becomes stop", []Message{Text(RoleUser, "hi")},
			Settings{Model: "m", Config: map[string]any{"stop_sequences": []any{"a", "b"}}},
			`{"model":"m","messages":[{"role":"user","content":"hi"}],"stop":["a","b"]}`},
		{"unknown parameters pass through", []Message{Text(RoleUser, "hi")},
			Settings{Model: "m", Config: map[string]any{"repetition_penalty": 1.1, "metadata": map[string]any{"team": "x<y"}}},
			`{"model":"m","messages":[{"role":"user","content":"hi"}],"metadata":{"team":"x<y"},"repetition_penalty":1.1}`},
		{"tools and tool choice auto", requestMessages, Settings{Model: "m", Tools: []Tool{rateTool}, ToolChoice: ToolAuto},
			`{"model":"m",` + openaiMessagesJSON + `,` + openaiToolsJSON + `,"tool_choice":"auto"}`},
		{"tool choice required", hi, Settings{Model: "m", Tools: []Tool{rateTool}, ToolChoice: ToolRequired},
			`{"model":"m","messages":[{"role":"user","content":"hi"}],` + openaiToolsJSON + `,"tool_choice":"required"}`},
		{"tool choice none", hi, Settings{Model: "m", Tools: []Tool{rateTool}, ToolChoice: ToolNone},
			`{"model":"m","messages":[{"role":"user","content":"hi"}],` + openaiToolsJSON + `,"tool_choice":"none"}`},
		{"tool choice by name", hi, Settings{Model: "m", Tools: []Tool{rateTool}, ToolChoice: "get_rate"},
			`{"model":"m","messages":[{"role":"user","content":"hi"}],` + openaiToolsJSON + `,"tool_choice":{"type":"function","function":{"name":"get_rate"}}}`},
		{"tool without parameters", hi, Settings{Model: "m", Tools: []Tool{{Name: "now"}}},
			`{"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"now"}}]}`},
		{"output text is nothing", hi, Settings{Model: "m", Output: Output{Format: OutputText}},
			`{"model":"m","messages":[{"role":"user","content":"hi"}]}`},
		{"output json mode", hi, Settings{Model: "m", Output: Output{Format: OutputJSON}},
			`{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_object"}}`},
		{"output json schema", hi, Settings{Model: "m", Output: Output{Format: OutputJSON, Schema: answerSchema}},
			`{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"output","schema":{"type":"object","properties":{"usd":{"type":"number"}},"required":["usd"]}}}}`},
		{"output json schema named and strict", hi, Settings{Model: "m", Output: Output{Format: OutputJSON, Schema: answerSchema, Name: "answer", Strict: true}},
			`{"model":"m","messages":[{"role":"user","content":"hi"}],"response_format":{"type":"json_schema","json_schema":{"name":"answer","schema":{"type":"object","properties":{"usd":{"type":"number"}},"required":["usd"]},"strict":true}}}`},
		{"everything in order", requestMessages, Settings{Model: "m", Tools: []Tool{rateTool}, ToolChoice: ToolAuto,
			Output: Output{Format: OutputJSON}, Config: map[string]any{"temperature": 0}},
			`{"model":"m",` + openaiMessagesJSON + `,` + openaiToolsJSON + `,"tool_choice":"auto","response_format":{"type":"json_object"},"temperature":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := OpenAIBody(tt.msgs, tt.s)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			assert.True(t, json.Valid(got))
		})
	}
}

const anthropicMessagesJSON = `"system":"You are a bank manager.","messages":[{"role":"user","content":[{"type":"text","text":"What is 100 EUR in USD?"}]},{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"get_rate","input":{"currency":"EUR"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"1.08"}]}]`

const anthropicToolsJSON = `"tools":[{"name":"get_rate","description":"Exchange rate of a currency","input_schema":{"type":"object","properties":{"currency":{"type":"string"}},"required":["currency"]}}]`

func TestAnthropicBody(t *testing.T) {
	hi := []Message{Text(RoleUser, "hi")}
	mt := map[string]any{"max_tokens": 1024}
	tests := []struct {
		name string
		msgs []Message
		s    Settings
		want string
	}{
		{"model, max_tokens, system and messages", requestMessages, Settings{Model: "claude-sonnet-4-5", Config: mt},
			`{"model":"claude-sonnet-4-5","max_tokens":1024,` + anthropicMessagesJSON + `}`},
		{"dotprompt names translated", []Message{Text(RoleUser, "hi")},
			Settings{Model: "m", Config: map[string]any{"maxOutputTokens": 50, "topP": 0.5, "topK": 40, "stopSequences": []any{"END"}, "temperature": 1}},
			`{"model":"m","max_tokens":50,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],"stop_sequences":["END"],"temperature":1,"top_k":40,"top_p":0.5}`},
		{"openai names translated, one stop string becomes a list", []Message{Text(RoleUser, "hi")},
			Settings{Model: "m", Config: map[string]any{"max_completion_tokens": 10, "stop": "END"}},
			`{"model":"m","max_tokens":10,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],"stop_sequences":["END"]}`},
		{"anthropic parameters and unknown ones pass", hi,
			Settings{Model: "m", Config: map[string]any{"max_tokens": 5, "thinking": map[string]any{"type": "enabled", "budget_tokens": 1024}, "service_tier": "auto"}},
			`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],"service_tier":"auto","thinking":{"budget_tokens":1024,"type":"enabled"}}`},
		{"tools and tool choice auto", requestMessages, Settings{Model: "m", Config: mt, Tools: []Tool{rateTool}, ToolChoice: ToolAuto},
			`{"model":"m","max_tokens":1024,` + anthropicMessagesJSON + `,` + anthropicToolsJSON + `,"tool_choice":{"type":"auto"}}`},
		{"tool choice required is any", hi, Settings{Model: "m", Config: mt, Tools: []Tool{rateTool}, ToolChoice: ToolRequired},
			`{"model":"m","max_tokens":1024,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],` + anthropicToolsJSON + `,"tool_choice":{"type":"any"}}`},
		{"tool choice none", hi, Settings{Model: "m", Config: mt, Tools: []Tool{rateTool}, ToolChoice: ToolNone},
			`{"model":"m","max_tokens":1024,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],` + anthropicToolsJSON + `,"tool_choice":{"type":"none"}}`},
		{"tool choice by name", hi, Settings{Model: "m", Config: mt, Tools: []Tool{rateTool}, ToolChoice: "get_rate"},
			`{"model":"m","max_tokens":1024,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],` + anthropicToolsJSON + `,"tool_choice":{"type":"tool","name":"get_rate"}}`},
		{"tool without parameters gets an empty object schema", hi, Settings{Model: "m", Config: mt, Tools: []Tool{{Name: "now"}}},
			`{"model":"m","max_tokens":1024,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],"tools":[{"name":"now","input_schema":{"type":"object","properties":{}}}]}`},
		{"output json schema is output_config (a schema name is not sent)", hi, Settings{Model: "m", Config: mt, Output: Output{Format: OutputJSON, Schema: answerSchema, Name: "answer"}},
			`{"model":"m","max_tokens":1024,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}],"output_config":{"format":{"type":"json_schema","schema":{"type":"object","properties":{"usd":{"type":"number"}},"required":["usd"]}}}}`},
		{"output text is nothing", hi, Settings{Model: "m", Config: mt, Output: Output{Format: OutputText}},
			`{"model":"m","max_tokens":1024,"messages":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AnthropicBody(tt.msgs, tt.s)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			assert.True(t, json.Valid(got))
		})
	}
}

func TestRequestBodyErrors(t *testing.T) {
	mt := map[string]any{"max_tokens": 1}
	tools := []Tool{rateTool}
	audio := []Message{{Role: RoleUser, Content: []Part{{Type: PartAudio, URL: "https://example.com/a.wav"}}}}
	tests := []struct {
		name   string
		target string
		msgs   []Message
		s      Settings
		field  string // of the *RequestError; "" for a message error
		want   string
	}{
		{"openai needs a model", "openai", nil, Settings{}, "model", "chat: openai request: model: a request needs a model"},
		{"anthropic needs a model", "anthropic", nil, Settings{Config: mt}, "model", "chat: anthropic request: model: a request needs a model"},
		{"anthropic needs max_tokens", "anthropic", nil, Settings{Model: "m"}, "config.max_tokens",
			"chat: anthropic request: config.max_tokens: the Messages API needs max_tokens (or maxOutputTokens) in config"},
		{"openai has no top_k", "openai", nil, Settings{Model: "m", Config: map[string]any{"top_k": 3}}, "config.top_k",
			"chat: openai request: config.top_k: has no openai equivalent"},
		{"openai has no topK", "openai", nil, Settings{Model: "m", Config: map[string]any{"topK": 3}}, "config.topK",
			"chat: openai request: config.topK: has no openai equivalent"},
		{"openai has no thinking", "openai", nil, Settings{Model: "m", Config: map[string]any{"thinking": true}}, "config.thinking",
			"chat: openai request: config.thinking: has no openai equivalent"},
		{"anthropic has no seed", "anthropic", nil, Settings{Model: "m", Config: map[string]any{"max_tokens": 1, "seed": 1}}, "config.seed",
			"chat: anthropic request: config.seed: has no anthropic equivalent"},
		{"anthropic has no frequency_penalty", "anthropic", nil, Settings{Model: "m", Config: map[string]any{"max_tokens": 1, "frequency_penalty": 1}}, "config.frequency_penalty",
			"chat: anthropic request: config.frequency_penalty: has no anthropic equivalent"},
		{"config cannot set the model", "openai", nil, Settings{Model: "m", Config: map[string]any{"model": "x"}}, "config.model",
			"chat: openai request: config.model: is not a model parameter; set it with Settings.Model (front matter model:)"},
		{"config cannot set tools", "anthropic", nil, Settings{Model: "m", Config: map[string]any{"max_tokens": 1, "tools": []any{}}}, "config.tools",
			"chat: anthropic request: config.tools: is not a model parameter; set it with Settings.Tools (front matter tools:)"},
		{"config cannot set response_format", "openai", nil, Settings{Model: "m", Config: map[string]any{"response_format": "json"}}, "config.response_format",
			"chat: openai request: config.response_format: is not a model parameter; set it with Settings.Output (front matter output:)"},
		{"one parameter under two names", "openai", nil, Settings{Model: "m", Config: map[string]any{"stop": "a", "stopSequences": []any{"b"}}}, "config.stop",
			"chat: openai request: config.stop: is given twice (under two of its names)"},
		{"anthropic max_tokens twice", "anthropic", nil, Settings{Model: "m", Config: map[string]any{"max_tokens": 1, "maxOutputTokens": 2}}, "config.max_tokens",
			"chat: anthropic request: config.max_tokens: is given twice (under two of its names)"},
		{"openai tool choice without tools", "openai", nil, Settings{Model: "m", ToolChoice: ToolAuto}, "tool_choice",
			`chat: openai request: tool_choice: "auto" needs tools`},
		{"anthropic tool choice without tools", "anthropic", nil, Settings{Model: "m", Config: mt, ToolChoice: ToolRequired}, "tool_choice",
			`chat: anthropic request: tool_choice: "required" needs tools`},
		{"openai tool choice of an unknown tool", "openai", nil, Settings{Model: "m", Tools: tools, ToolChoice: "get_time"}, "tool_choice",
			`chat: openai request: tool_choice: "get_time" is neither auto, none nor required, nor the name of one of the request's tools`},
		{"anthropic tool choice of an unknown tool", "anthropic", nil, Settings{Model: "m", Config: mt, Tools: tools, ToolChoice: "get_time"}, "tool_choice",
			`chat: anthropic request: tool_choice: "get_time" is neither auto, none nor required, nor the name of one of the request's tools`},
		{"openai unknown output format", "openai", nil, Settings{Model: "m", Output: Output{Format: "media"}}, "output.format",
			`chat: openai request: output.format: "media": OpenAI takes text or json`},
		{"anthropic unknown output format", "anthropic", nil, Settings{Model: "m", Config: mt, Output: Output{Format: "jsonl"}}, "output.format",
			`chat: anthropic request: output.format: "jsonl": Anthropic takes text or json`},
		{"openai schema without json", "openai", nil, Settings{Model: "m", Output: Output{Schema: answerSchema}}, "output.schema",
			"chat: openai request: output.schema: a schema needs output format json"},
		{"anthropic schema without json", "anthropic", nil, Settings{Model: "m", Config: mt, Output: Output{Format: OutputText, Schema: answerSchema}}, "output.schema",
			"chat: anthropic request: output.schema: a schema needs output format json"},
		{"openai schema not an object", "openai", nil, Settings{Model: "m", Output: Output{Format: OutputJSON, Schema: json.RawMessage(`[1]`)}}, "output.schema",
			"chat: openai request: output.schema: must be a JSON object"},
		{"openai bad schema name", "openai", nil, Settings{Model: "m", Output: Output{Format: OutputJSON, Schema: answerSchema, Name: "my answer"}}, "output.name",
			`chat: openai request: output.name: "my answer": OpenAI takes a schema name of letters, digits, _ and -, at most 64`},
		{"anthropic json mode without schema", "anthropic", nil, Settings{Model: "m", Config: mt, Output: Output{Format: OutputJSON}}, "output.format",
			"chat: anthropic request: output.format: Anthropic has no JSON mode without a schema: give output.schema"},
		{"anthropic strict", "anthropic", nil, Settings{Model: "m", Config: mt, Output: Output{Format: OutputJSON, Schema: answerSchema, Strict: true}}, "output.strict",
			"chat: anthropic request: output.strict: Anthropic's structured output has no strict switch (it always follows the schema)"},
		{"anthropic schema not an object", "anthropic", nil, Settings{Model: "m", Config: mt, Output: Output{Format: OutputJSON, Schema: json.RawMessage(`true`)}}, "output.schema",
			"chat: anthropic request: output.schema: must be a JSON object"},
		{"anthropic tool parameters not an object", "anthropic", nil, Settings{Model: "m", Config: mt, Tools: []Tool{{Name: "x", Parameters: json.RawMessage(`"s"`)}}}, "tools",
			`chat: anthropic request: tools: tool "x" parameters must be a JSON object`},
		{"openai tool message without its call id", "openai", []Message{Text(RoleUser, "q"), Text(RoleTool, "x")}, Settings{Model: "m"}, "",
			"chat: message 2: a tool message needs the tool_call_id it answers"},
		{"openai no message", "openai", nil, Settings{Model: "m"}, "messages",
			"chat: openai request: messages: the Chat Completions API needs at least one message"},
		{"anthropic no message", "anthropic", nil, Settings{Model: "m", Config: mt}, "messages",
			"chat: anthropic request: messages: the Messages API needs at least one message besides the system prompt"},
		{"anthropic only a system message", "anthropic", []Message{Text(RoleSystem, "s")}, Settings{Model: "m", Config: mt}, "messages",
			"chat: anthropic request: messages: the Messages API needs at least one message besides the system prompt"},
		{"openai message without a form", "openai", audio, Settings{Model: "m"}, "",
			`chat: user message, part 1: audio "https://example.com/a.wav": OpenAI takes audio only as inline data (a data: URI)`},
		{"anthropic message without a form", "anthropic", audio, Settings{Model: "m", Config: mt}, "",
			"chat: message 1: audio parts have no Anthropic form"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			build := OpenAIBody
			if tt.target == "anthropic" {
				build = AnthropicBody
			}
			got, err := build(tt.msgs, tt.s)
			require.Error(t, err, "body: %s", got)
			assert.Equal(t, tt.want, err.Error())
			var re *RequestError
			if tt.field == "" {
				assert.False(t, errors.As(err, &re))
				return
			}
			require.True(t, errors.As(err, &re))
			assert.Equal(t, tt.target, re.Target)
			assert.Equal(t, tt.field, re.Field)
		})
	}
}
