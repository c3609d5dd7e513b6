package prompter

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
)

// toolHistory is the history of vectors H02 and H03: a question, a tool call
// and its result.
func toolHistory() Option {
	return History(
		chat.Text(chat.RoleUser, "Weather in Paris?"),
		chat.Message{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c1", Name: "get_weather", Arguments: json.RawMessage(`{"city":"Paris"}`)}}},
		chat.Message{Role: chat.RoleTool, ToolCallID: "c1", Content: []chat.Part{chat.TextPart(`{"temp": 20}`)}},
	)
}

// TestChoices covers the LazyLLM vectors this package deliberately does not
// reproduce (see the package documentation): each row expects this
// package's output and names what LazyLLM does instead.
func TestChoices(t *testing.T) {
	runVectors(t, []vector{
		{
			// LazyLLM 2406 writes "None" for a missing instruction.
			name: "2406/L10", new: NewAlpaca, instr: "", input: map[string]string{},
			want: "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\n\n\n\n\n### Response:\n",
		},
		{
			// LazyLLM 2406: "…LazyLLM.None\n\n<|end_system|>…".
			name: "2406/L15", new: NewChat, instr: "", input: "hello",
			want: "<|start_system|>You are an AI-Agent developed by LazyLLM.\n\n<|end_system|>\n\n\n<|Human|>:\nhello\n<|Assistant|>:\n",
		},
		{
			// LazyLLM 2406: "…LazyLLM.\nNone\n\n".
			name: "2406/L15b", new: NewChat, instr: "", input: "hello",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\n\n\n"}, {"role": "user", "content": "hello"}]}`,
		},
		{
			// LazyLLM 2406 raises NotImplementedError for message history
			// in the string form; later releases render it like pairs.
			name: "2406/L18", new: NewChat, instr: "Be nice", input: "q2",
			call: []Option{History(chat.Text(chat.RoleUser, "q1"), chat.Text(chat.RoleAssistant, "a1"))},
			want: "<|start_system|>You are an AI-Agent developed by LazyLLM.Be nice\n\n<|end_system|>\n\n<|Human|>:q1<|Assistant|>:a1\n<|Human|>:\nq2\n<|Assistant|>:\n",
		},
		{
			// LazyLLM fills a single slot with str.format, which raises
			// KeyError on any other brace in the instruction.
			name: "2406/L25", new: NewChat, instr: `Return {"a": 1}. Q: {q}`, input: "x",
			want: "<|start_system|>You are an AI-Agent developed by LazyLLM.Return {\"a\": 1}. Q: x\n\n<|end_system|>\n\n\n<|Human|>:\n\n<|Assistant|>:\n",
		},
		{
			name: "2605/L25", new: NewChat, instr: `Return {"a": 1}. Q: {q}`, opts: []Option{head()}, input: "x",
			want: "You are an AI-Agent developed by LazyLLM.Return {\"a\": 1}. Q: x\n\n\n\n\n\n\n\n",
		},
		{
			// LazyLLM raises ValueError for a one-item pair in the string
			// form; here a lone question is a user turn in both forms.
			name: "2406/L35b", new: NewChat, instr: "S", input: "q",
			call: []Option{History(chat.Text(chat.RoleUser, "a"))},
			want: "<|start_system|>You are an AI-Agent developed by LazyLLM.S\n\n<|end_system|>\n\n<|Human|>:a\n<|Human|>:\nq\n<|Assistant|>:\n",
		},
		{
			// LazyLLM 2605 raises AssertionError for tools in the string
			// form unless the model defines tool tokens; here the tools
			// are written as 2605 writes them when it works (JSON5, H01),
			// without the function-call prompt, which needs the tokens.
			name: "2605/L09", new: NewAlpaca, instr: "Pick a tool", opts: []Option{head(), ExtraKeys("input")},
			input: "weather?", call: []Option{Tools(example())},
			want: "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n### Instruction:\nPick a tool\n\nHere are some extra messages you can referred to:\n\n### input:\nweather?\n\n\n### Function-call Tools. \n\n[{type: \"function\", \"function\": {name: \"example\"}}]\n\n\n### Response:\n",
		},
		{
			name: "2605/L20", new: NewChat, instr: "Pick", opts: []Option{head()},
			input: "weather?", call: []Option{Tools(example())},
			want: "You are an AI-Agent developed by LazyLLM.Pick\n\n### Function-call Tools. \n\n[{type: \"function\", \"function\": {name: \"example\"}}]\n\n\n\n\n\nweather?\n\n",
		},
		{
			// Release 2605 keeps non-ASCII text in tool JSON (2406 escapes
			// it, vector 2406/L37).
			name: "2605/L37", new: NewChat, instr: "S", opts: []Option{head()},
			input: "q", call: []Option{Tools(weather查询())},
			want: "You are an AI-Agent developed by LazyLLM.S\n\n### Function-call Tools. \n\n[{type: \"function\", \"function\": {name: \"get_weather\", description: \"查询天气\", parameters: {type: \"object\", properties: {city: {type: \"string\"}}, required: [\"city\"]}}}]\n\n\n\n\n\nq\n\n",
		},
		{
			// LazyLLM writes tool calls and results as Python reprs:
			// {'name': 'get_weather', 'arguments': {'city': 'Paris'}} and {'temp': 20}.
			name: "2605/H03", new: NewChat, instr: "Use tools.", opts: []Option{head()},
			input: "And Rome?", call: []Option{toolHistory()},
			want: "You are an AI-Agent developed by LazyLLM.Use tools.\n\n\n\nWeather in Paris?\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n{\"temp\": 20}\n\nAnd Rome?\n\n",
		},
		{
			// LazyLLM writes the arguments as JSON5 ({city: "Paris"}) and
			// the result as a Python repr ({'temp': 20}).
			name: "2605/H02", new: NewChat, instr: "Use tools.",
			opts:  []Option{head(), UseMarkers(QwenMarkers()), System("You are a helpful assistant.")},
			input: "And Rome?", call: []Option{toolHistory()},
			want: "<|im_start|>system\nYou are a helpful assistant.Use tools.\n\n<|im_end|>\n\n\n<|im_start|>user\nWeather in Paris?<|im_end|>\n<|im_start|>assistant\n<|action_start|><|function|>\nget_weather<|args|>{\"city\": \"Paris\"}<|action_end|>\n<|im_end|><|im_start|>environment\n{\"temp\": 20}<|im_end|>\n\n<|im_start|>user\n\nAnd Rome?\n<|im_end|>\n<|im_start|>assistant\n\n",
		},
		{
			// The document forbids tools at both levels (LazyLLM 2406
			// asserts); the call's tools replace the prompter's, as in
			// LazyLLM 2605 (vector H11).
			name: "2406/tools at both levels", new: NewChat, instr: "S", opts: []Option{Tools(getWeather())},
			input: "hi", call: []Option{Tools(chat.Tool{Name: "other"})},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nS\n\n"}, {"role": "user", "content": "hi"}], "tools": [{"type": "function", "function": {"name": "other"}}]}`,
		},
	})
}

// TestAnthropic checks vector H04: LazyLLM's format='anthropic' is the
// message form passed through chat.ToAnthropic.
func TestAnthropic(t *testing.T) {
	p, err := NewChat("Be nice", head())
	require.NoError(t, err)
	res, err := p.Messages("hi", Pairs([2]string{"q1", "a1"}), Tools(getWeather()))
	require.NoError(t, err)
	req, err := chat.ToAnthropic(res.Messages)
	require.NoError(t, err)
	assert.Equal(t, "You are an AI-Agent developed by LazyLLM.\nBe nice\n\n", req.System)
	got, err := json.Marshal(req.Messages)
	require.NoError(t, err)
	assert.JSONEq(t, `[{"role": "user", "content": [{"type": "text", "text": "q1"}]}, {"role": "assistant", "content": [{"type": "text", "text": "a1"}]}, {"role": "user", "content": [{"type": "text", "text": "hi"}]}]`, string(got))
	assert.Equal(t, []chat.Tool{getWeather()}, res.Tools)
}

// TestResponse checks get_response vectors L28b and L33 in both releases.
func TestResponse(t *testing.T) {
	tests := []struct {
		name   string
		new    func(string, ...Option) (*Prompter, error)
		opts   []Option
		output string
		want   string
	}{
		{"2406/L28b", NewChat, []Option{UseMarkers(chatML())}, "<|im_start|>assistant\nANSWER", "ANSWER"},
		{"2605/L28b", NewChat, []Option{head(), UseMarkers(chatML())}, "<|im_start|>assistant\nANSWER", "<|im_start|>assistant\nANSWER"},
		{"2406/L33", NewAlpaca, nil, "blah ### Response:\nANS", "\nANS"},
		{"2605/L33", NewAlpaca, []Option{head()}, "blah ### Response:\nANS", "ANS"},
		{"2406/default markers", NewChat, nil, "<|Human|>:\nq\n<|Assistant|>:\nA", "\nA"},
		{"2406/last marker wins", NewAlpaca, nil, "### Response: x ### Response:y", "y"},
		{"2605/no markers", NewChat, []Option{head()}, "whole\nanswer", "whole\nanswer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.new("x", tc.opts...)
			require.NoError(t, err)
			assert.Equal(t, tc.want, p.Response(tc.output))
		})
	}
}
