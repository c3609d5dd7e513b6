package format_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
)

// TestSeedsysVectors checks the exact strings of seedsys.md sections 4.2
// (system + user + assistant + user, with the generation prompt) and 4.3
// (Qwen2.5 and Mistral v3 tool formats), each rendered there with the
// model's official template in a HuggingFace-equivalent Jinja2 environment.
func TestSeedsysVectors(t *testing.T) {
	const (
		system = "You are a helpful assistant."
		hello  = "Hello, how are you?"
		great  = "I'm doing great. How can I help you today?"
		show   = "I'd like to show off how chat templating works!"
	)
	suau := []chat.Message{sys(system), user(hello), asst(great), user(show)}
	uau := []chat.Message{user(hello), asst(great), user(show)}

	weather := chat.Tool{Name: "get_weather", Description: "Get weather",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}
	const weatherJSON = `{"type": "function", "function": {"name": "get_weather", "description": "Get weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}`
	const qwenTools = "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n" +
		weatherJSON + "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n"
	call := func(id string) chat.Message {
		m := asst("")
		m.ToolCalls = []chat.ToolCall{{ID: id, Name: "get_weather", Arguments: json.RawMessage(`{"city": "Paris"}`)}}
		return m
	}

	tests := []struct {
		name    string
		preset  string
		msgs    []chat.Message
		tools   []chat.Tool
		noGen   bool
		want    string
		wantErr string
	}{
		{name: "4.2 ChatML system-user-assistant-user", preset: "chatml", msgs: suau,
			want: "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nHello, how are you?<|im_end|>\n<|im_start|>assistant\nI'm doing great. How can I help you today?<|im_end|>\n<|im_start|>user\nI'd like to show off how chat templating works!<|im_end|>\n<|im_start|>assistant\n"},
		{name: "4.2 ChatML user-assistant-user", preset: "chatml", msgs: uau,
			want: "<|im_start|>user\nHello, how are you?<|im_end|>\n<|im_start|>assistant\nI'm doing great. How can I help you today?<|im_end|>\n<|im_start|>user\nI'd like to show off how chat templating works!<|im_end|>\n<|im_start|>assistant\n"},
		{name: "4.2 ChatML without generation prompt", preset: "chatml", msgs: uau, noGen: true,
			want: "<|im_start|>user\nHello, how are you?<|im_end|>\n<|im_start|>assistant\nI'm doing great. How can I help you today?<|im_end|>\n<|im_start|>user\nI'd like to show off how chat templating works!<|im_end|>\n"},
		{name: "Q20 Qwen (1.0) make_context", preset: "qwen", msgs: []chat.Message{user("q1"), asst("a1"), user("q2")},
			want: "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nq1<|im_end|>\n<|im_start|>assistant\na1<|im_end|>\n<|im_start|>user\nq2<|im_end|>\n<|im_start|>assistant\n"},
		{name: "Qwen (1.0) with a system message", preset: "qwen", msgs: []chat.Message{sys("Be brief."), user("hi")},
			want: "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"},
		{name: "4.2 Qwen2 system-user-assistant-user", preset: "qwen2", msgs: suau,
			want: "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nHello, how are you?<|im_end|>\n<|im_start|>assistant\nI'm doing great. How can I help you today?<|im_end|>\n<|im_start|>user\nI'd like to show off how chat templating works!<|im_end|>\n<|im_start|>assistant\n"},
		{name: "4.2 Qwen2 user-assistant-user", preset: "qwen2", msgs: uau,
			want: "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nHello, how are you?<|im_end|>\n<|im_start|>assistant\nI'm doing great. How can I help you today?<|im_end|>\n<|im_start|>user\nI'd like to show off how chat templating works!<|im_end|>\n<|im_start|>assistant\n"},
		{name: "4.2 Qwen2.5 system-user-assistant-user", preset: "qwen2.5", msgs: suau,
			want: "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n<|im_start|>user\nHello, how are you?<|im_end|>\n<|im_start|>assistant\nI'm doing great. How can I help you today?<|im_end|>\n<|im_start|>user\nI'd like to show off how chat templating works!<|im_end|>\n<|im_start|>assistant\n"},
		{name: "4.2 Qwen2.5 user-assistant-user", preset: "qwen2.5", msgs: uau,
			want: "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n<|im_start|>user\nHello, how are you?<|im_end|>\n<|im_start|>assistant\nI'm doing great. How can I help you today?<|im_end|>\n<|im_start|>user\nI'd like to show off how chat templating works!<|im_end|>\n<|im_start|>assistant\n"},
		{name: "4.2 Llama 3 system-user-assistant-user", preset: "llama3", msgs: suau,
			want: "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nYou are a helpful assistant.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nHello, how are you?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nI'm doing great. How can I help you today?<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nI'd like to show off how chat templating works!<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"},
		{name: "4.2 Llama 3 user-assistant-user", preset: "llama3", msgs: uau,
			want: "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHello, how are you?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nI'm doing great. How can I help you today?<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nI'd like to show off how chat templating works!<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"},
		{name: "4.2 Llama 3 without generation prompt", preset: "llama3", msgs: uau, noGen: true,
			want: "<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHello, how are you?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\nI'm doing great. How can I help you today?<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nI'd like to show off how chat templating works!<|eot_id|>"},
		{name: "4.2 Mistral v3 system-user-assistant-user", preset: "mistral-v3", msgs: suau,
			want: "<s>[INST] Hello, how are you?[/INST] I'm doing great. How can I help you today?</s>[INST] You are a helpful assistant.\n\nI'd like to show off how chat templating works![/INST]"},
		{name: "4.2 Mistral v3 user-assistant-user", preset: "mistral-v3", msgs: uau,
			want: "<s>[INST] Hello, how are you?[/INST] I'm doing great. How can I help you today?</s>[INST] I'd like to show off how chat templating works![/INST]"},
		{name: "4.2 Mistral v3 has no generation prompt", preset: "mistral-v3", msgs: uau, noGen: true,
			want: "<s>[INST] Hello, how are you?[/INST] I'm doing great. How can I help you today?</s>[INST] I'd like to show off how chat templating works![/INST]"},
		{name: "4.2 Mistral v0.1/v0.2 refuses a system message", preset: "mistral", msgs: suau,
			wantErr: "format mistral: Conversation roles must alternate user/assistant/user/assistant/..."},
		{name: "4.2 Mistral v0.1/v0.2 user-assistant-user", preset: "mistral", msgs: uau,
			want: "<s>[INST] Hello, how are you? [/INST]I'm doing great. How can I help you today?</s>[INST] I'd like to show off how chat templating works! [/INST]"},
		{name: "4.2 Gemma refuses a system message", preset: "gemma", msgs: suau,
			wantErr: "format gemma: System role not supported"},
		{name: "4.2 Gemma user-assistant-user", preset: "gemma", msgs: uau,
			want: "<bos><start_of_turn>user\nHello, how are you?<end_of_turn>\n<start_of_turn>model\nI'm doing great. How can I help you today?<end_of_turn>\n<start_of_turn>user\nI'd like to show off how chat templating works!<end_of_turn>\n<start_of_turn>model\n"},
		{name: "4.2 Gemma without generation prompt", preset: "gemma", msgs: uau, noGen: true,
			want: "<bos><start_of_turn>user\nHello, how are you?<end_of_turn>\n<start_of_turn>model\nI'm doing great. How can I help you today?<end_of_turn>\n<start_of_turn>user\nI'd like to show off how chat templating works!<end_of_turn>\n"},
		{name: "4.2 Gemma 3 system-user-assistant-user", preset: "gemma3", msgs: suau,
			want: "<bos><start_of_turn>user\nYou are a helpful assistant.\n\nHello, how are you?<end_of_turn>\n<start_of_turn>model\nI'm doing great. How can I help you today?<end_of_turn>\n<start_of_turn>user\nI'd like to show off how chat templating works!<end_of_turn>\n<start_of_turn>model\n"},
		{name: "4.2 Gemma 3 user-assistant-user", preset: "gemma3", msgs: uau,
			want: "<bos><start_of_turn>user\nHello, how are you?<end_of_turn>\n<start_of_turn>model\nI'm doing great. How can I help you today?<end_of_turn>\n<start_of_turn>user\nI'd like to show off how chat templating works!<end_of_turn>\n<start_of_turn>model\n"},
		{name: "4.3 Gemma 3 refuses two user messages in a row", preset: "gemma3", msgs: []chat.Message{user("a"), user("b")},
			wantErr: "format gemma3: Conversation roles must alternate user/assistant/user/assistant/..."},
		{name: "4.3 Qwen2.5 tool call and result", preset: "qwen2.5", tools: []chat.Tool{weather},
			msgs: []chat.Message{user("Weather in Paris?"), call("call_1"), chat.Text(chat.RoleTool, `{"temp": 20}`)},
			want: "<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant." + qwenTools +
				"<|im_start|>user\nWeather in Paris?<|im_end|>\n<|im_start|>assistant\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call><|im_end|>\n<|im_start|>user\n<tool_response>\n{\"temp\": 20}\n</tool_response><|im_end|>\n<|im_start|>assistant\n"},
		{name: "4.3 Qwen2.5 system message with tools", preset: "qwen2.5", tools: []chat.Tool{weather},
			msgs: []chat.Message{sys("Be brief."), user("hi")},
			want: "<|im_start|>system\nBe brief." + qwenTools + "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"},
		{name: "4.3 Mistral v3 tools", preset: "mistral-v3", tools: []chat.Tool{weather},
			msgs: []chat.Message{user("Weather in Paris?")},
			want: "<s>[AVAILABLE_TOOLS] [" + weatherJSON + "][/AVAILABLE_TOOLS][INST] Weather in Paris?[/INST]"},
		{name: "4.3 Mistral v3 tool call and result", preset: "mistral-v3", tools: []chat.Tool{weather},
			msgs: []chat.Message{user("Weather in Paris?"), call("abcdefghi"), tool(`{"temp": 20}`, "abcdefghi")},
			want: "<s>[AVAILABLE_TOOLS] [" + weatherJSON + "][/AVAILABLE_TOOLS][INST] Weather in Paris?[/INST][TOOL_CALLS] [{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}, \"id\": \"abcdefghi\"}]</s>[TOOL_RESULTS] {\"content\": {\"temp\": 20}, \"call_id\": \"abcdefghi\"}[/TOOL_RESULTS]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, ok := format.Lookup(tc.preset)
			require.True(t, ok, tc.preset)
			opts := []format.Option{format.Tools(tc.tools...)}
			if !tc.noGen {
				opts = append(opts, format.GenerationPrompt())
			}
			got, err := f.Render(tc.msgs, opts...)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
