package prompter

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
)

// vector is one input and the exact prompt LazyLLM produces for it.
type vector struct {
	name     string
	new      func(string, ...Option) (*Prompter, error)
	instr    string
	opts     []Option // given to the constructor
	input    any
	call     []Option // given to the call
	want     string   // the string form (Prompt)
	wantJSON string   // the message form (Messages), as LazyLLM's OpenAI JSON
	err      ErrorCode
}

// Fixtures shared by the vectors (seedsys.md 1.4 notation), as functions so
// that no test can change them for another.

// head selects LazyLLM's current release, the "HEAD" of seedsys.md 1.4.
func head() Option { return UseRelease(Release2605) }

func example() chat.Tool { return chat.Tool{Name: "example"} }

func getWeather() chat.Tool {
	return chat.Tool{Name: "get_weather", Description: "Get weather",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}
}

func weather查询() chat.Tool {
	return chat.Tool{Name: "get_weather", Description: "查询天气",
		Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}
}

// chatML is the marker set of vector L28: Qwen's without tool markers.
func chatML() Markers {
	return Markers{
		SystemStart: "<|im_start|>system\n", SystemEnd: "<|im_end|>\n",
		UserStart: "<|im_start|>user\n", UserEnd: "<|im_end|>\n",
		AssistantStart: "<|im_start|>assistant\n", AssistantEnd: "<|im_end|>",
	}
}

// runVectors checks each vector's string form, message form or error.
func runVectors(t *testing.T, vectors []vector) {
	t.Helper()
	for _, tc := range vectors {
		t.Run(tc.name, func(t *testing.T) {
			p, err := tc.new(tc.instr, tc.opts...)
			require.NoError(t, err)
			switch {
			case tc.err != 0:
				_, err := p.Prompt(tc.input, tc.call...)
				assertCode(t, tc.err, err)
				_, err = p.Messages(tc.input, tc.call...)
				assertCode(t, tc.err, err)
			case tc.wantJSON != "":
				res, err := p.Messages(tc.input, tc.call...)
				require.NoError(t, err)
				got, err := json.Marshal(res)
				require.NoError(t, err)
				assert.JSONEq(t, tc.wantJSON, string(got), "input %#v", tc.input)
			default:
				got, err := p.Prompt(tc.input, tc.call...)
				require.NoError(t, err)
				assert.Equal(t, tc.want, got, "input %#v", tc.input)
			}
		})
	}
}

func assertCode(t *testing.T, want ErrorCode, err error) {
	t.Helper()
	var pe *Error
	if assert.True(t, errors.As(err, &pe), "want an *Error with code %d, got %v", want, err) {
		assert.Equal(t, want, pe.Code, "error: %v", err)
	}
}

// TestLazyLLMVectors runs the vectors of seedsys.md 1.5 (LazyLLM 2406, the
// seed document's release) and 1.4 (LazyLLM 2605, "HEAD") that this package
// reproduces exactly. The vectors it deliberately does not reproduce are in
// TestChoices.
func TestLazyLLMVectors(t *testing.T) {
	runVectors(t, []vector{
		{ // AlpacaPrompter('Add: {instruction}').generate_prompt('a+b')
			name: "2406/L01", new: NewAlpaca, instr: "Add: {instruction}",
			input: "a+b",
			want:  "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\nAdd: a+b\n\n\n\n### Response:\n",
		},
		{ // same prompter, generate_prompt('a+b', format='openai')  [v2406/v2502: return_dict=True]
			name: "2406/L02", new: NewAlpaca, instr: "Add: {instruction}",
			input:    "a+b",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\nAdd: a+b\n\n"}, {"role": "user", "content": ""}]}`,
		},
		{ // AlpacaPrompter('Add', extra_keys='input').generate_prompt('a+b')  [old: extro_keys]
			name: "2406/L03", new: NewAlpaca, instr: "Add",
			opts:  []Option{ExtraKeys("input")},
			input: "a+b",
			want:  "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\nAdd\n\nHere are some extra messages you can referred to:\n\n### input:\na+b\n\n\n\n### Response:\n",
		},
		{ // AlpacaPrompter('Add', extra_keys=['x','y']).generate_prompt({'x':'1','y':'2'})
			name: "2406/L03b", new: NewAlpaca, instr: "Add",
			opts:  []Option{ExtraKeys("x", "y")},
			input: map[string]string{"x": "1", "y": "2"},
			want:  "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\nAdd\n\nHere are some extra messages you can referred to:\n\n### x:\n1\n\n### y:\n2\n\n\n\n### Response:\n",
		},
		{ // AlpacaPrompter({'system':'SYS','user':'USER {q}'}).generate_prompt('a+b')
			name: "2406/L04", new: NewAlpaca, instr: "SYS",
			opts:  []Option{UserInstruction("USER {q}")},
			input: "a+b",
			want:  "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\nSYS\n\nUSER a+b### Response:\n",
		},
		{ // same, format='openai'
			name: "2406/L05", new: NewAlpaca, instr: "SYS",
			opts:     []Option{UserInstruction("USER {q}")},
			input:    "a+b",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\nSYS"}, {"role": "user", "content": "USER a+b"}]}`,
		},
		{ // AlpacaPrompter('ctx={context} q={input}').generate_prompt({'context':'C','input':'Q'})
			name: "2406/L06", new: NewAlpaca, instr: "ctx={context} q={input}",
			input: map[string]string{"context": "C", "input": "Q"},
			want:  "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\nctx=C q=Q\n\n\n\n### Response:\n",
		},
		{ // AlpacaPrompter('Add').generate_prompt('a+b')   (no slot, string input)
			name: "2406/L07", new: NewAlpaca, instr: "Add",
			input: "a+b",
			err:   ErrUnplaced, // upstream: RAISES AssertionError 'All keys should in instruction or extro-keys'
		},
		{ // AlpacaPrompter('Add {x}').generate_prompt('a+b', history=[['q','a']])
			name: "2406/L08", new: NewAlpaca, instr: "Add {x}",
			input: "a+b",
			call:  []Option{Pairs([2]string{"q", "a"})},
			err:   ErrHistory, // upstream: RAISES AssertionError "Chat history is not supported in <class 'lz.components.prompter.alpacaPrompter.AlpacaPrompter'>."
		},
		{ // tools=[{'type':'function','function':{'name':'example()'}}]; AlpacaPrompter('Pick a tool', extra_keys='input').generate_prompt('weather?', tools=tools)
			name: "2406/L09", new: NewAlpaca, instr: "Pick a tool",
			opts:  []Option{ExtraKeys("input")},
			input: "weather?",
			call:  []Option{Tools(example())},
			want:  "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\nPick a tool\n\nHere are some extra messages you can referred to:\n\n### input:\nweather?\n\n\n### Function-call Tools. \n\n[{\"type\": \"function\", \"function\": {\"name\": \"example\"}}]\n\n\n### Response:\n",
		},
		{ // same, format='openai'
			name: "2406/L09b", new: NewAlpaca, instr: "Pick a tool",
			opts:     []Option{ExtraKeys("input")},
			input:    "weather?",
			call:     []Option{Tools(example())},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\nPick a tool\n\nHere are some extra messages you can referred to:\n\n### input:\nweather?\n\n"}, {"role": "user", "content": ""}], "tools": [{"type": "function", "function": {"name": "example"}}]}`,
		},
		{ // ChatPrompter('Be nice').generate_prompt('hello')
			name: "2406/L11", new: NewChat, instr: "Be nice",
			input: "hello",
			want:  "<|start_system|>You are an AI-Agent developed by LazyLLM.Be nice\n\n<|end_system|>\n\n\n<|Human|>:\nhello\n<|Assistant|>:\n",
		},
		{ // same, format='openai'
			name: "2406/L12", new: NewChat, instr: "Be nice",
			input:    "hello",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBe nice\n\n"}, {"role": "user", "content": "hello"}]}`,
		},
		{ // ChatPrompter('Echo {input}').generate_prompt('hello')   (slot present)
			name: "2406/L13", new: NewChat, instr: "Echo {input}",
			input: "hello",
			want:  "<|start_system|>You are an AI-Agent developed by LazyLLM.Echo hello\n\n<|end_system|>\n\n\n<|Human|>:\n\n<|Assistant|>:\n",
		},
		{ // same, format='openai'
			name: "2406/L14", new: NewChat, instr: "Echo {input}",
			input:    "hello",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nEcho hello\n\n"}, {"role": "user", "content": ""}]}`,
		},
		{ // ChatPrompter('Be nice').generate_prompt('q2', history=[['q1','a1']])
			name: "2406/L16", new: NewChat, instr: "Be nice",
			input: "q2",
			call:  []Option{Pairs([2]string{"q1", "a1"})},
			want:  "<|start_system|>You are an AI-Agent developed by LazyLLM.Be nice\n\n<|end_system|>\n\n<|Human|>:q1<|Assistant|>:a1\n<|Human|>:\nq2\n<|Assistant|>:\n",
		},
		{ // same, format='openai'
			name: "2406/L17", new: NewChat, instr: "Be nice",
			input:    "q2",
			call:     []Option{Pairs([2]string{"q1", "a1"})},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBe nice\n\n"}, {"role": "user", "content": "q1"}, {"role": "assistant", "content": "a1"}, {"role": "user", "content": "q2"}]}`,
		},
		// SKIPPED 2406/L18: RAISES NotImplementedError 'Cannot transform json history to
		{ // same, format='openai'
			name: "2406/L19", new: NewChat, instr: "Be nice",
			input:    "q2",
			call:     []Option{History(chat.Text(chat.RoleUser, "q1"), chat.Text(chat.RoleAssistant, "a1"))},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBe nice\n\n"}, {"role": "user", "content": "q1"}, {"role": "assistant", "content": "a1"}, {"role": "user", "content": "q2"}]}`,
		},
		{ // ChatPrompter('Pick').generate_prompt('weather?', tools=tools)   (tools as in L09)
			name: "2406/L20", new: NewChat, instr: "Pick",
			input: "weather?",
			call:  []Option{Tools(example())},
			want:  "<|start_system|>You are an AI-Agent developed by LazyLLM.Pick\n\n### Function-call Tools. \n\n[{\"type\": \"function\", \"function\": {\"name\": \"example\"}}]\n\n<|end_system|>\n\n\n<|Human|>:\nweather?\n<|Assistant|>:\n",
		},
		{ // same, format='openai'
			name: "2406/L21", new: NewChat, instr: "Pick",
			input:    "weather?",
			call:     []Option{Tools(example())},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nPick\n\n"}, {"role": "user", "content": "weather?"}], "tools": [{"type": "function", "function": {"name": "example"}}]}`,
		},
		{ // ChatPrompter('{a} {b}').generate_prompt('x')   (2 slots, string input)
			name: "2406/L22", new: NewChat, instr: "{a} {b}",
			input: "x",
			err:   ErrSlotCount, // upstream: RAISES AssertionError ''
		},
		{ // ChatPrompter('ctx={context}').generate_prompt({'context':'C','input':'Q'})
			name: "2406/L23", new: NewChat, instr: "ctx={context}",
			input: map[string]string{"context": "C", "input": "Q"},
			want:  "<|start_system|>You are an AI-Agent developed by LazyLLM.ctx=C\n\n<|end_system|>\n\n\n<|Human|>:\nQ\n<|Assistant|>:\n",
		},
		{ // same, format='openai'
			name: "2406/L23b", new: NewChat, instr: "ctx={context}",
			input:    map[string]string{"context": "C", "input": "Q"},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nctx=C\n\n"}, {"role": "user", "content": "Q"}]}`,
		},
		{ // ChatPrompter('ctx={context}').generate_prompt({'context':'C','a':'1','b':'2'})
			name: "2406/L24", new: NewChat, instr: "ctx={context}",
			input: map[string]string{"context": "C", "a": "1", "b": "2"},
			err:   ErrUnexpectedKeys, // upstream: RAISES AssertionError "Unexpected keys found in input: ['a', 'b']"
		},
		{ // same prompter, generate_prompt({'q':'x'})   (dict input)
			name: "2406/L25b", new: NewChat, instr: `Return {"a": 1}. Q: {q}`,
			input: map[string]string{"q": "x"},
			want:  "<|start_system|>You are an AI-Agent developed by LazyLLM.Return {\"a\": 1}. Q: x\n\n<|end_system|>\n\n\n<|Human|>:\n\n<|Assistant|>:\n",
		},
		{ // ChatPrompter('Be nice').generate_prompt('hi', label='LABEL')
			name: "2406/L26", new: NewChat, instr: "Be nice",
			input: "hi",
			call:  []Option{Label("LABEL")},
			want:  "<|start_system|>You are an AI-Agent developed by LazyLLM.Be nice\n\n<|end_system|>\n\n\n<|Human|>:\nhi\n<|Assistant|>:\nLABEL",
		},
		{ // ChatPrompter('Be nice').generate_prompt(42)
			name: "2406/L27", new: NewChat, instr: "Be nice",
			input: 42,
			want:  "<|start_system|>You are an AI-Agent developed by LazyLLM.Be nice\n\n<|end_system|>\n\n\n<|Human|>:\n42\n<|Assistant|>:\n",
		},
		{ // ChatPrompter('Be nice') + _set_model_configs(sos='<|im_start|>system\n', soh='<|im_start|>user\n', soa='<|im_start|>assistant\n', eos='<|im_end|>\n', eoh='<|im_end|>\n', eoa='<|im_end|>', system='You are a helpful assistant.'); generate_prompt('q2', history=[['q1','a1']])
			name: "2406/L28", new: NewChat, instr: "Be nice",
			opts:  []Option{UseMarkers(chatML()), System("You are a helpful assistant.")},
			input: "q2",
			call:  []Option{Pairs([2]string{"q1", "a1"})},
			want:  "<|im_start|>system\nYou are a helpful assistant.Be nice\n\n<|im_end|>\n\n\n<|im_start|>user\nq1<|im_end|>\n<|im_start|>assistant\na1<|im_end|>\n<|im_start|>user\n\nq2\n<|im_end|>\n<|im_start|>assistant\n\n",
		},
		{ // ChatPrompter('Be nice') + Llama-3 markers from model_mapping.py (sos/soh/soa='<|start_header_id|>ROLE<|end_header_id|>\n\n', eos/eoh/eoa='<|eot_id|>'); generate_prompt('q2', history=[['q1','a1']])  (system left at LazyLLM default)
			name: "2406/L29", new: NewChat, instr: "Be nice",
			opts:  []Option{UseMarkers(Llama3Markers())},
			input: "q2",
			call:  []Option{Pairs([2]string{"q1", "a1"})},
			want:  "<|start_header_id|>system<|end_header_id|>\n\nYou are an AI-Agent developed by LazyLLM.Be nice\n\n<|eot_id|>\n\n<|start_header_id|>user<|end_header_id|>\n\nq1<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\na1<|eot_id|>\n<|start_header_id|>user<|end_header_id|>\n\n\nq2\n<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n\n",
		},
		{ // ChatPrompter({'system':'S','user':'U:'}).generate_prompt('hi', history=[['q1','a1']])
			name: "2406/L30", new: NewChat, instr: "S",
			opts:  []Option{UserInstruction("U:")},
			input: "hi",
			call:  []Option{Pairs([2]string{"q1", "a1"})},
			want:  "<|start_system|>You are an AI-Agent developed by LazyLLM.S<|end_system|>\n\n<|Human|>:q1<|Assistant|>:a1\n<|Human|>:\nU:hi\n<|Assistant|>:\n",
		},
		{ // same, format='openai'
			name: "2406/L30b", new: NewChat, instr: "S",
			opts:     []Option{UserInstruction("U:")},
			input:    "hi",
			call:     []Option{Pairs([2]string{"q1", "a1"})},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nS"}, {"role": "user", "content": "q1"}, {"role": "assistant", "content": "a1"}, {"role": "user", "content": "U:hi"}]}`,
		},
		{ // ChatPrompter('S').generate_prompt([{'role':'user','content':'a'},{'role':'user','content':'b'}], format='openai')
			name: "2406/L31", new: NewChat, instr: "S",
			input: []map[string]string{{"role": "user", "content": "a"}, {"role": "user", "content": "b"}},
			err:   ErrInputType, // upstream: RAISES AssertionError ''
		},
		{ // ChatPrompter('S').generate_prompt({'role':'tool','content':'42','tool_call_id':'c1'}, format='openai')
			name: "2406/L32", new: NewChat, instr: "S",
			input: map[string]string{"role": "tool", "content": "42", "tool_call_id": "c1"},
			err:   ErrUnexpectedKeys, // upstream: RAISES AssertionError "Unexpected keys found in input: ['role', 'content', 'tool_call_id']"
		},
		{ // ChatPrompter('S').generate_prompt('q', history=[['a']], format='openai')
			name: "2406/L35", new: NewChat, instr: "S",
			input:    "q",
			call:     []Option{History(chat.Text(chat.RoleUser, "a"))},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nS\n\n"}, {"role": "user", "content": "a"}, {"role": "user", "content": "q"}]}`,
		},
		{ // ChatPrompter('').generate_prompt('q', format='openai')
			name: "2406/L36", new: NewChat, instr: "",
			input:    "q",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\n\n\n"}, {"role": "user", "content": "q"}]}`,
		},
		{ // tools2=[{'type':'function','function':{'name':'get_weather','description':'查询天气','parameters':{'type':'object','properties':{'city':{'type':'string'}},'required':['city']}}}]; ChatPrompter('S').generate_prompt('q', tools=tools2)
			name: "2406/L37", new: NewChat, instr: "S",
			input: "q",
			call:  []Option{Tools(weather查询())},
			want:  "<|start_system|>You are an AI-Agent developed by LazyLLM.S\n\n### Function-call Tools. \n\n[{\"type\": \"function\", \"function\": {\"name\": \"get_weather\", \"description\": \"\\u67e5\\u8be2\\u5929\\u6c14\", \"parameters\": {\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}, \"required\": [\"city\"]}}}]\n\n<|end_system|>\n\n\n<|Human|>:\nq\n<|Assistant|>:\n",
		},
		{ // AlpacaPrompter('Add: {instruction}').generate_prompt('a+b')
			name: "2605/L01", new: NewAlpaca, instr: "Add: {instruction}",
			opts:  []Option{head()},
			input: "a+b",
			want:  "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n### Instruction:\nAdd: a+b\n\n\n\n### Response:\n",
		},
		{ // same prompter, generate_prompt('a+b', format='openai')  [v2406/v2502: return_dict=True]
			name: "2605/L02", new: NewAlpaca, instr: "Add: {instruction}",
			opts:     []Option{head()},
			input:    "a+b",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n### Instruction:\nAdd: a+b\n\n"}, {"role": "user", "content": ""}]}`,
		},
		{ // AlpacaPrompter('Add', extra_keys='input').generate_prompt('a+b')  [old: extro_keys]
			name: "2605/L03", new: NewAlpaca, instr: "Add",
			opts:  []Option{head(), ExtraKeys("input")},
			input: "a+b",
			want:  "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n### Instruction:\nAdd\n\nHere are some extra messages you can referred to:\n\n### input:\na+b\n\n\n\n### Response:\n",
		},
		{ // AlpacaPrompter('Add', extra_keys=['x','y']).generate_prompt({'x':'1','y':'2'})
			name: "2605/L03b", new: NewAlpaca, instr: "Add",
			opts:  []Option{head(), ExtraKeys("x", "y")},
			input: map[string]string{"x": "1", "y": "2"},
			want:  "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n### Instruction:\nAdd\n\nHere are some extra messages you can referred to:\n\n### x:\n1\n\n### y:\n2\n\n\n\n### Response:\n",
		},
		{ // AlpacaPrompter({'system':'SYS','user':'USER {q}'}).generate_prompt('a+b')
			name: "2605/L04", new: NewAlpaca, instr: "SYS",
			opts:  []Option{head(), UserInstruction("USER {q}")},
			input: "a+b",
			want:  "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n### Instruction:\nSYS\n\nUSER a+b### Response:\n",
		},
		{ // same, format='openai'
			name: "2605/L05", new: NewAlpaca, instr: "SYS",
			opts:     []Option{head(), UserInstruction("USER {q}")},
			input:    "a+b",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n### Instruction:\nSYS"}, {"role": "user", "content": "USER a+b"}]}`,
		},
		{ // AlpacaPrompter('ctx={context} q={input}').generate_prompt({'context':'C','input':'Q'})
			name: "2605/L06", new: NewAlpaca, instr: "ctx={context} q={input}",
			opts:  []Option{head()},
			input: map[string]string{"context": "C", "input": "Q"},
			want:  "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n### Instruction:\nctx=C q=Q\n\n\n\n### Response:\n",
		},
		{ // AlpacaPrompter('Add').generate_prompt('a+b')   (no slot, string input)
			name: "2605/L07", new: NewAlpaca, instr: "Add",
			opts:  []Option{head()},
			input: "a+b",
			err:   ErrUnplaced, // upstream: RAISES AssertionError 'All keys should in instruction or extra-keys'
		},
		{ // AlpacaPrompter('Add {x}').generate_prompt('a+b', history=[['q','a']])
			name: "2605/L08", new: NewAlpaca, instr: "Add {x}",
			opts:  []Option{head()},
			input: "a+b",
			call:  []Option{Pairs([2]string{"q", "a"})},
			err:   ErrHistory, // upstream: RAISES AssertionError "Chat history is not supported in <class 'lz.components.prompter.alpacaPrompter.AlpacaPrompter'>."
		},
		// SKIPPED 2605/L09: RAISES AssertionError ''
		{ // same, format='openai'
			name: "2605/L09b", new: NewAlpaca, instr: "Pick a tool",
			opts:     []Option{head(), ExtraKeys("input")},
			input:    "weather?",
			call:     []Option{Tools(example())},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n### Instruction:\nPick a tool\n\nHere are some extra messages you can referred to:\n\n### input:\nweather?\n\n"}, {"role": "user", "content": ""}], "tools": [{"type": "function", "function": {"name": "example"}}]}`,
		},
		{ // AlpacaPrompter().generate_prompt({})   (instruction=None)
			name: "2605/L10", new: NewAlpaca, instr: "",
			opts:  []Option{head()},
			input: map[string]string{},
			want:  "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n### Instruction:\n\n\n\n\n### Response:\n",
		},
		{ // ChatPrompter('Be nice').generate_prompt('hello')
			name: "2605/L11", new: NewChat, instr: "Be nice",
			opts:  []Option{head()},
			input: "hello",
			want:  "You are an AI-Agent developed by LazyLLM.Be nice\n\n\n\n\n\nhello\n\n",
		},
		{ // same, format='openai'
			name: "2605/L12", new: NewChat, instr: "Be nice",
			opts:     []Option{head()},
			input:    "hello",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBe nice\n\n"}, {"role": "user", "content": "hello"}]}`,
		},
		{ // ChatPrompter('Echo {input}').generate_prompt('hello')   (slot present)
			name: "2605/L13", new: NewChat, instr: "Echo {input}",
			opts:  []Option{head()},
			input: "hello",
			want:  "You are an AI-Agent developed by LazyLLM.Echo hello\n\n\n\n\n\n\n\n",
		},
		{ // same, format='openai'
			name: "2605/L14", new: NewChat, instr: "Echo {input}",
			opts:     []Option{head()},
			input:    "hello",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nEcho hello\n\n"}, {"role": "user", "content": ""}]}`,
		},
		{ // ChatPrompter().generate_prompt('hello')   (instruction=None)
			name: "2605/L15", new: NewChat, instr: "",
			opts:  []Option{head()},
			input: "hello",
			want:  "You are an AI-Agent developed by LazyLLM.\n\n\n\nhello\n\n",
		},
		{ // same, format='openai'
			name: "2605/L15b", new: NewChat, instr: "",
			opts:     []Option{head()},
			input:    "hello",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM."}, {"role": "user", "content": "hello"}]}`,
		},
		{ // ChatPrompter('Be nice').generate_prompt('q2', history=[['q1','a1']])
			name: "2605/L16", new: NewChat, instr: "Be nice",
			opts:  []Option{head()},
			input: "q2",
			call:  []Option{Pairs([2]string{"q1", "a1"})},
			want:  "You are an AI-Agent developed by LazyLLM.Be nice\n\n\n\nq1a1\n\nq2\n\n",
		},
		{ // same, format='openai'
			name: "2605/L17", new: NewChat, instr: "Be nice",
			opts:     []Option{head()},
			input:    "q2",
			call:     []Option{Pairs([2]string{"q1", "a1"})},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBe nice\n\n"}, {"role": "user", "content": "q1"}, {"role": "assistant", "content": "a1"}, {"role": "user", "content": "q2"}]}`,
		},
		{ // ChatPrompter('Be nice').generate_prompt('q2', history=[{'role':'user','content':'q1'},{'role':'assistant','content':'a1'}])  (string mode)
			name: "2605/L18", new: NewChat, instr: "Be nice",
			opts:  []Option{head()},
			input: "q2",
			call:  []Option{History(chat.Text(chat.RoleUser, "q1"), chat.Text(chat.RoleAssistant, "a1"))},
			want:  "You are an AI-Agent developed by LazyLLM.Be nice\n\n\n\nq1a1\n\nq2\n\n",
		},
		{ // same, format='openai'
			name: "2605/L19", new: NewChat, instr: "Be nice",
			opts:     []Option{head()},
			input:    "q2",
			call:     []Option{History(chat.Text(chat.RoleUser, "q1"), chat.Text(chat.RoleAssistant, "a1"))},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBe nice\n\n"}, {"role": "user", "content": "q1"}, {"role": "assistant", "content": "a1"}, {"role": "user", "content": "q2"}]}`,
		},
		// SKIPPED 2605/L20: RAISES AssertionError ''
		{ // same, format='openai'
			name: "2605/L21", new: NewChat, instr: "Pick",
			opts:     []Option{head()},
			input:    "weather?",
			call:     []Option{Tools(example())},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nPick\n\n"}, {"role": "user", "content": "weather?"}], "tools": [{"type": "function", "function": {"name": "example"}}]}`,
		},
		{ // ChatPrompter('{a} {b}').generate_prompt('x')   (2 slots, string input)
			name: "2605/L22", new: NewChat, instr: "{a} {b}",
			opts:  []Option{head()},
			input: "x",
			err:   ErrSlotCount, // upstream: RAISES AssertionError ''
		},
		{ // ChatPrompter('ctx={context}').generate_prompt({'context':'C','input':'Q'})
			name: "2605/L23", new: NewChat, instr: "ctx={context}",
			opts:  []Option{head()},
			input: map[string]string{"context": "C", "input": "Q"},
			want:  "You are an AI-Agent developed by LazyLLM.ctx=C\n\n\n\n\n\nQ\n\n",
		},
		{ // same, format='openai'
			name: "2605/L23b", new: NewChat, instr: "ctx={context}",
			opts:     []Option{head()},
			input:    map[string]string{"context": "C", "input": "Q"},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nctx=C\n\n"}, {"role": "user", "content": "Q"}]}`,
		},
		{ // ChatPrompter('ctx={context}').generate_prompt({'context':'C','a':'1','b':'2'})
			name: "2605/L24", new: NewChat, instr: "ctx={context}",
			opts:  []Option{head()},
			input: map[string]string{"context": "C", "a": "1", "b": "2"},
			err:   ErrUnexpectedKeys, // upstream: RAISES AssertionError "Unexpected keys found in input: ['a', 'b']"
		},
		{ // same prompter, generate_prompt({'q':'x'})   (dict input)
			name: "2605/L25b", new: NewChat, instr: `Return {"a": 1}. Q: {q}`,
			opts:  []Option{head()},
			input: map[string]string{"q": "x"},
			want:  "You are an AI-Agent developed by LazyLLM.Return {\"a\": 1}. Q: x\n\n\n\n\n\n\n\n",
		},
		{ // ChatPrompter('Be nice').generate_prompt('hi', label='LABEL')
			name: "2605/L26", new: NewChat, instr: "Be nice",
			opts:  []Option{head()},
			input: "hi",
			call:  []Option{Label("LABEL")},
			want:  "You are an AI-Agent developed by LazyLLM.Be nice\n\n\n\n\n\nhi\n\nLABEL",
		},
		{ // ChatPrompter('Be nice').generate_prompt(42)
			name: "2605/L27", new: NewChat, instr: "Be nice",
			opts:  []Option{head()},
			input: 42,
			want:  "You are an AI-Agent developed by LazyLLM.Be nice\n\n\n\n\n\n42\n\n",
		},
		{ // ChatPrompter('Be nice') + _set_model_configs(sos='<|im_start|>system\n', soh='<|im_start|>user\n', soa='<|im_start|>assistant\n', eos='<|im_end|>\n', eoh='<|im_end|>\n', eoa='<|im_end|>', system='You are a helpful assistant.'); generate_prompt('q2', history=[['q1','a1']])
			name: "2605/L28", new: NewChat, instr: "Be nice",
			opts:  []Option{head(), UseMarkers(chatML()), System("You are a helpful assistant.")},
			input: "q2",
			call:  []Option{Pairs([2]string{"q1", "a1"})},
			want:  "<|im_start|>system\nYou are a helpful assistant.Be nice\n\n<|im_end|>\n\n\n<|im_start|>user\nq1<|im_end|>\n<|im_start|>assistant\na1<|im_end|>\n<|im_start|>user\n\nq2\n<|im_end|>\n<|im_start|>assistant\n\n",
		},
		{ // ChatPrompter('Be nice') + Llama-3 markers from model_mapping.py (sos/soh/soa='<|start_header_id|>ROLE<|end_header_id|>\n\n', eos/eoh/eoa='<|eot_id|>'); generate_prompt('q2', history=[['q1','a1']])  (system left at LazyLLM default)
			name: "2605/L29", new: NewChat, instr: "Be nice",
			opts:  []Option{head(), UseMarkers(Llama3Markers())},
			input: "q2",
			call:  []Option{Pairs([2]string{"q1", "a1"})},
			want:  "<|start_header_id|>system<|end_header_id|>\n\nYou are an AI-Agent developed by LazyLLM.Be nice\n\n<|eot_id|>\n\n<|start_header_id|>user<|end_header_id|>\n\nq1<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\na1<|eot_id|>\n<|start_header_id|>user<|end_header_id|>\n\n\nq2\n<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n\n",
		},
		{ // ChatPrompter({'system':'S','user':'U:'}).generate_prompt('hi', history=[['q1','a1']])
			name: "2605/L30", new: NewChat, instr: "S",
			opts:  []Option{head(), UserInstruction("U:")},
			input: "hi",
			call:  []Option{Pairs([2]string{"q1", "a1"})},
			want:  "You are an AI-Agent developed by LazyLLM.S\n\nq1a1\n\nU:hi\n\n",
		},
		{ // same, format='openai'
			name: "2605/L30b", new: NewChat, instr: "S",
			opts:     []Option{head(), UserInstruction("U:")},
			input:    "hi",
			call:     []Option{Pairs([2]string{"q1", "a1"})},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nS"}, {"role": "user", "content": "q1"}, {"role": "assistant", "content": "a1"}, {"role": "user", "content": "U:hi"}]}`,
		},
		{ // ChatPrompter('S').generate_prompt([{'role':'user','content':'a'},{'role':'user','content':'b'}], format='openai')
			name: "2605/L31", new: NewChat, instr: "S",
			opts:  []Option{head()},
			input: []map[string]string{{"role": "user", "content": "a"}, {"role": "user", "content": "b"}},
			err:   ErrInputType, // upstream: RAISES AssertionError "expected types are str, int and dict, bug get <class 'list'>(`[{'role': 'user', 'content': 'a'}, {'role': 'user', 'content': 'b'}])`"
		},
		{ // ChatPrompter('S').generate_prompt({'role':'tool','content':'42','tool_call_id':'c1'}, format='openai')
			name: "2605/L32", new: NewChat, instr: "S",
			opts:  []Option{head()},
			input: map[string]string{"role": "tool", "content": "42", "tool_call_id": "c1"},
			err:   ErrUnexpectedKeys, // upstream: RAISES AssertionError "Unexpected keys found in input: ['role', 'content', 'tool_call_id']"
		},
		{ // ChatPrompter('S').generate_prompt('q', history=[['a']], format='openai')
			name: "2605/L35", new: NewChat, instr: "S",
			opts:     []Option{head()},
			input:    "q",
			call:     []Option{History(chat.Text(chat.RoleUser, "a"))},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nS\n\n"}, {"role": "user", "content": "a"}, {"role": "user", "content": "q"}]}`,
		},
		{ // ChatPrompter('').generate_prompt('q', format='openai')
			name: "2605/L36", new: NewChat, instr: "",
			opts:     []Option{head()},
			input:    "q",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM."}, {"role": "user", "content": "q"}]}`,
		},
		// SKIPPED 2605/L37: RAISES AssertionError ''
		{ // ChatPrompter('Be nice', enable_system=False).generate_prompt('hi', format='openai')
			name: "2605/H05", new: NewChat, instr: "Be nice",
			opts:     []Option{head(), NoSystemMessage()},
			input:    "hi",
			wantJSON: `{"messages": [{"role": "user", "content": "hi"}]}`,
		},
		{ // same, string mode (enable_system only affects dict formats)
			name: "2605/H05b", new: NewChat, instr: "Be nice",
			opts:  []Option{head(), NoSystemMessage()},
			input: "hi",
			want:  "You are an AI-Agent developed by LazyLLM.Be nice\n\n\n\n\n\nhi\n\n",
		},
		{ // ChatPrompter({'system':'S','user':'U '}, extra_keys=['ctx']).generate_prompt({'ctx':'C','q':'hi'}, format='openai')
			name: "2605/H06", new: NewChat, instr: "S",
			opts:     []Option{head(), UserInstruction("U "), ExtraKeys("ctx")},
			input:    map[string]string{"ctx": "C", "q": "hi"},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nS"}, {"role": "user", "content": "U Here are some extra messages you can referred to:\n\n### ctx:\nC\n\nhi"}]}`,
		},
		{ // AlpacaPrompter({'system':'S','user':'U'}, extra_keys=['ctx']).generate_prompt({'ctx':'C'}, format='openai')
			name: "2605/H06b", new: NewAlpaca, instr: "S",
			opts:     []Option{head(), UserInstruction("U"), ExtraKeys("ctx")},
			input:    map[string]string{"ctx": "C"},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n### Instruction:\nS"}, {"role": "user", "content": "U\n\nHere are some extra messages you can referred to:\n\n### ctx:\nC\n\n"}]}`,
		},
		{ // ChatPrompter('S').generate_prompt([{'role':'user','content':'a'}], format='openai')
			name: "2605/H07", new: NewChat, instr: "S",
			opts:  []Option{head()},
			input: []map[string]string{{"role": "user", "content": "a"}},
			err:   ErrInputType, // upstream: RAISES AssertionError "expected types are str, int and dict, bug get <class 'list'>(`[{'role': 'user', 'content': 'a'}])`"
		},
		{ // ChatPrompter('S', skills='SKILL').generate_prompt('hi', format='openai')
			name: "2605/H10", new: NewChat, instr: "S",
			opts:     []Option{head(), Skills("SKILL")},
			input:    "hi",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nS\n\n\nSKILL"}, {"role": "user", "content": "hi"}]}`,
		},
		{ // same, string mode
			name: "2605/H10b", new: NewChat, instr: "S",
			opts:  []Option{head(), Skills("SKILL")},
			input: "hi",
			want:  "You are an AI-Agent developed by LazyLLM.S\n\nSKILL\n\n\n\nhi\n\n",
		},
		{ // ChatPrompter('S', tools=[get_weather]).generate_prompt('hi', tools=[{'type':'function','function':{'name':'other'}}], format='openai')
			name: "2605/H11", new: NewChat, instr: "S",
			opts:     []Option{head(), Tools(getWeather())},
			input:    "hi",
			call:     []Option{Tools(chat.Tool{Name: "other"})},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nS\n\n"}, {"role": "user", "content": "hi"}], "tools": [{"type": "function", "function": {"name": "other"}}]}`,
		},
		{ // ChatPrompter({'system':'S','user':'U:'}).generate_prompt({'x':'hi'}, format='openai')
			name: "2605/H13", new: NewChat, instr: "S",
			opts:     []Option{head(), UserInstruction("U:")},
			input:    map[string]string{"x": "hi"},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nS"}, {"role": "user", "content": "U:hi"}]}`,
		},
	})
}

// TestUpstreamTests runs the expectations of LazyLLM's own prompter tests
// (tests/basic_tests/Components/test_component.py, release 2605; seedsys.md
// 1.4).
func TestUpstreamTests(t *testing.T) {
	split := []Option{head(), UserInstruction("输入为{instruction}")}
	runVectors(t, []vector{
		{
			name: "alpaca slot", new: NewAlpaca, instr: "请完成加法运算, 输入为{instruction}",
			opts: []Option{head()}, input: "a+b",
			want: "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n### Instruction:\n请完成加法运算, 输入为a+b\n\n\n\n### Response:\n",
		},
		{
			name: "chat slot", new: NewChat, instr: "请完成加法运算, 输入为{instruction}",
			opts: []Option{head()}, input: "a+b",
			want: "You are an AI-Agent developed by LazyLLM.请完成加法运算, 输入为a+b\n\n\n\n\n\n\n\n",
		},
		{
			name: "chat extra key", new: NewChat, instr: "请完成加法运算",
			opts: []Option{head(), ExtraKeys("input")}, input: "a+b",
			want: "You are an AI-Agent developed by LazyLLM.请完成加法运算\nHere are some extra messages you can referred to:\n\n### input:\na+b\n\n\n\n\n\n\n\n\n",
		},
		{
			name: "chat extra key messages", new: NewChat, instr: "请完成加法运算",
			opts: []Option{head(), ExtraKeys("input")}, input: "a+b",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\n请完成加法运算\nHere are some extra messages you can referred to:\n\n### input:\na+b\n\n\n"}, {"role": "user", "content": ""}]}`,
		},
		{
			name: "chat system and user", new: NewChat, instr: "请完成加法运算",
			opts: split, input: "a+b",
			want: "You are an AI-Agent developed by LazyLLM.请完成加法运算\n\n\n\n输入为a+b\n\n",
		},
		{
			name: "chat system and user messages", new: NewChat, instr: "请完成加法运算",
			opts: split, input: "a+b",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\n请完成加法运算"}, {"role": "user", "content": "输入为a+b"}]}`,
		},
		{
			name: "chat prompter history", new: NewChat, instr: "请完成加法运算",
			opts:  append(split, Pairs([2]string{"输入为a+b", "a+b"}, [2]string{"输入为c+d", "c+d"})),
			input: "e+f",
			want:  "You are an AI-Agent developed by LazyLLM.请完成加法运算\n\n输入为a+ba+b输入为c+dc+d\n\n输入为e+f\n\n",
		},
		{
			name: "chat empty instruction history", new: NewChat, instr: "",
			opts: []Option{head(), Pairs([2]string{"输入为a+b", "a+b"})}, input: "c+d",
			want: "You are an AI-Agent developed by LazyLLM.\n\n输入为a+ba+b\n\nc+d\n\n",
		},
		{
			name: "chat empty instruction history messages", new: NewChat, instr: "",
			opts: []Option{head(), Pairs([2]string{"输入为a+b", "a+b"})}, input: "c+d",
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM."}, {"role": "user", "content": "输入为a+b"}, {"role": "assistant", "content": "a+b"}, {"role": "user", "content": "c+d"}]}`,
		},
		{
			name: "chat markers prompter and call history", new: NewChat, instr: "请完成加法运算",
			opts: append(split, Pairs([2]string{"输入为a+b", "a+b"}),
				UseMarkers(Markers{SystemStart: "<s>", SystemEnd: "</s>", UserStart: "<h>", UserEnd: "</h>", AssistantStart: "<a>", AssistantEnd: "</a>"})),
			input: "e+f",
			call:  []Option{History(chat.Text(chat.RoleUser, "输入为c+d"), chat.Text(chat.RoleAssistant, "c+d"))},
			want:  "<s>You are an AI-Agent developed by LazyLLM.请完成加法运算</s>\n\n<h>输入为a+b</h><a>a+b</a><h>输入为c+d</h><a>c+d</a>\n<h>\n输入为e+f\n</h><a>\n",
		},
	})
}

// TestSeedDocument runs the examples of the LazyLLM prompter document
// (shared/seeds/lazyllm-prompter.md), which describes release 2406, the
// default. The document writes newlines as \\n; they are newlines here.
// Where the document's printed output disagrees with its own code and with
// LazyLLM's behaviour, the row expects the behaviour and says what the
// document shows.
func TestSeedDocument(t *testing.T) {
	const (
		qa      = "你是一个由LazyLLM开发的知识问答助手，你的任务是根据提供的上下文信息来回答用户的问题。上下文信息是{context}，用户的问题是{input}, 现在请你做出回答。"
		toolsIn = "你是一个工具调用的Agent，我会给你提供一些工具，请根据用户输入，帮我选择最合适的工具并使用"
		weather = "帮我查询一下今天的天气"
		chatBot = "你是一个对话机器人，现在你要和用户进行友好的对话"
		hello   = "你好，我是一个对话机器人，有什么能为您服务的"
	)
	qaInput := map[string]string{"context": "背景", "input": "输入"}
	alpacaTools := "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\n你是一个工具调用的Agent，我会给你提供一些工具，请根据用户输入，帮我选择最合适的工具并使用\n\nHere are some extra messages you can referred to:\n\n### input:\n帮我查询一下今天的天气\n\n\n### Function-call Tools. \n\n[{\"type\": \"function\", \"function\": {\"name\": \"example\"}}]\n\n\n### Response:\n"
	chatTools := "<|start_system|>You are an AI-Agent developed by LazyLLM.你是一个工具调用的Agent，我会给你提供一些工具，请根据用户输入，帮我选择最合适的工具并使用\n\n### Function-call Tools. \n\n[{\"type\": \"function\", \"function\": {\"name\": \"example\"}}]\n\n<|end_system|>\n\n\n<|Human|>:\n帮我查询一下今天的天气\n<|Assistant|>:\n"
	runVectors(t, []vector{
		{
			// The document prints "…是输入，现在…" (a full-width comma its
			// instruction does not have) and three newlines before
			// "### Response:"; the layout gives four, as in every other
			// Alpaca example() of the document.
			name: "try/string", new: NewAlpaca, instr: qa, input: qaInput,
			want: "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\n你是一个由LazyLLM开发的知识问答助手，你的任务是根据提供的上下文信息来回答用户的问题。上下文信息是背景，用户的问题是输入, 现在请你做出回答。\n\n\n\n### Response:\n",
		},
		{
			// Exactly the document's output, given the instruction its
			// output shows (full-width comma after {input}).
			name: "try/return_dict", new: NewAlpaca,
			instr:    "你是一个由LazyLLM开发的知识问答助手，你的任务是根据提供的上下文信息来回答用户的问题。上下文信息是{context}，用户的问题是{input}，现在请你做出回答。",
			input:    qaInput,
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\n你是一个由LazyLLM开发的知识问答助手，你的任务是根据提供的上下文信息来回答用户的问题。上下文信息是背景，用户的问题是输入，现在请你做出回答。\n\n"}, {"role": "user", "content": ""}]}`,
		},
		{
			// The document's code passes {"user": instruction} but prints
			// the output of a plain instruction (which its later section
			// uses). A user-level instruction goes to the user's turn.
			name: "try/user-level instruction", new: NewAlpaca, instr: "",
			opts: []Option{UserInstruction(qa)}, input: qaInput,
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\n"}, {"role": "user", "content": "你是一个由LazyLLM开发的知识问答助手，你的任务是根据提供的上下文信息来回答用户的问题。上下文信息是背景，用户的问题是输入, 现在请你做出回答。"}]}`,
		},
		{
			// The document prints three newlines before "### Response:".
			name: "string input/alpaca slot", new: NewAlpaca, instr: "请完成加法运算, 输入为{instruction}", input: "a+b",
			want: "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\n请完成加法运算, 输入为a+b\n\n\n\n### Response:\n",
		},
		{
			name: "string input/alpaca extra key", new: NewAlpaca, instr: "请完成加法运算",
			opts: []Option{ExtraKeys("input")}, input: "a+b",
			want: "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\n请完成加法运算\n\nHere are some extra messages you can referred to:\n\n### input:\na+b\n\n\n\n### Response:\n",
		},
		{
			name: "string input/chat slot", new: NewChat, instr: "请完成加法运算，输入为{input}", input: "a+b",
			want: "<|start_system|>You are an AI-Agent developed by LazyLLM.请完成加法运算，输入为a+b\n\n<|end_system|>\n\n\n<|Human|>:\n\n<|Assistant|>:\n",
		},
		{
			// The document's output stops at "<|Assistant|>" (cut off).
			name: "string input/chat no slot", new: NewChat, instr: "请完成加法运算", input: "a+b",
			want: "<|start_system|>You are an AI-Agent developed by LazyLLM.请完成加法运算\n\n<|end_system|>\n\n\n<|Human|>:\na+b\n<|Assistant|>:\n",
		},
		{
			// The document prints two newlines before "### Response:"; the
			// layout gives three.
			name: "tools/alpaca prompter tools", new: NewAlpaca, instr: toolsIn,
			opts: []Option{ExtraKeys("input"), Tools(example())}, input: weather,
			want: alpacaTools,
		},
		{
			name: "tools/chat prompter tools", new: NewChat, instr: toolsIn,
			opts: []Option{Tools(example())}, input: weather,
			want: chatTools,
		},
		{
			name: "tools/alpaca call tools", new: NewAlpaca, instr: toolsIn,
			opts: []Option{ExtraKeys("input")}, input: weather, call: []Option{Tools(example())},
			want: alpacaTools,
		},
		{
			name: "tools/chat call tools", new: NewChat, instr: toolsIn,
			input: weather, call: []Option{Tools(example())},
			want: chatTools,
		},
		{
			name: "tools/return_dict", new: NewAlpaca, instr: toolsIn,
			opts: []Option{ExtraKeys("input"), Tools(example())}, input: weather,
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n ### Instruction:\n你是一个工具调用的Agent，我会给你提供一些工具，请根据用户输入，帮我选择最合适的工具并使用\n\nHere are some extra messages you can referred to:\n\n### input:\n帮我查询一下今天的天气\n\n"}, {"role": "user", "content": ""}],
			"tools": [{"type": "function", "function": {"name": "example"}}]}`,
		},
		{
			name: "history/pairs", new: NewChat, instr: chatBot,
			input: "我们聊会儿天吧", call: []Option{Pairs([2]string{"你好", hello})},
			want: "<|start_system|>You are an AI-Agent developed by LazyLLM.你是一个对话机器人，现在你要和用户进行友好的对话\n\n<|end_system|>\n\n<|Human|>:你好<|Assistant|>:你好，我是一个对话机器人，有什么能为您服务的\n<|Human|>:\n我们聊会儿天吧\n<|Assistant|>:\n",
		},
		{
			name: "history/pairs return_dict", new: NewChat, instr: chatBot,
			input: "我们聊会儿天吧", call: []Option{Pairs([2]string{"你好", hello})},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\n你是一个对话机器人，现在你要和用户进行友好的对话\n\n"}, {"role": "user", "content": "你好"}, {"role": "assistant", "content": "你好，我是一个对话机器人，有什么能为您服务的"}, {"role": "user", "content": "我们聊会儿天吧"}]}`,
		},
		{
			name: "history/messages return_dict", new: NewChat, instr: chatBot,
			input: "我们聊会儿天吧", call: []Option{History(chat.Text(chat.RoleUser, "你好"), chat.Text(chat.RoleAssistant, hello))},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\n你是一个对话机器人，现在你要和用户进行友好的对话\n\n"}, {"role": "user", "content": "你好"}, {"role": "assistant", "content": "你好，我是一个对话机器人，有什么能为您服务的"}, {"role": "user", "content": "我们聊会儿天吧"}]}`,
		},
	})
}
