package prompter

import "testing"

// TestToolTokenVectors holds seedsys.md's vectors of the prompters with
// Qwen's markers and tools (H01, H08) and of the {tool_names} slot (H09).
// L34 (a history item of three strings) and H12 (tools given as a Python
// function) cannot be written with this package's types.
func TestToolTokenVectors(t *testing.T) {
	runVectors(t, []vector{
		{ // ChatPrompter('Use tools.') + qwen markers; generate_prompt('Weather in Paris?', tools=[get_weather])
			name: "2605/H01", new: NewChat, instr: "Use tools.",
			opts:  []Option{head(), UseMarkers(QwenMarkers()), System("You are a helpful assistant.")},
			input: "Weather in Paris?",
			call:  []Option{Tools(getWeather())},
			want:  "<|im_start|>system\nYou are a helpful assistant.Use tools.\n\n\n\n<|action_start|><|function|>tool name (one of [\"get_weather\"])\n<|args|>the input to the tool, in a JSON format representing the kwargs. Can only return json.\n<|action_end|>end of tool.\n(e.g. <|action_start|><|function|>tool_name\n<|args|>{{'input': 'hello world', 'num_beams': 5}}\n<|action_end|>).\n### Function-call Tools. \n\n[{type: \"function\", \"function\": {name: \"get_weather\", description: \"Get weather\", parameters: {type: \"object\", properties: {city: {type: \"string\"}}, required: [\"city\"]}}}]\n\n<|im_end|>\n\n\n\n<|im_start|>user\n\nWeather in Paris?\n<|im_end|>\n<|im_start|>assistant\n\n",
		},
		{ // AlpacaPrompter('Pick a tool', extra_keys='input') + qwen markers; generate_prompt('x', tools=[get_weather])
			name: "2605/H08", new: NewAlpaca, instr: "Pick a tool",
			opts:  []Option{head(), UseMarkers(QwenMarkers()), System("You are a helpful assistant."), ExtraKeys("input")},
			input: "x",
			call:  []Option{Tools(getWeather())},
			want:  "You are a helpful assistant.\nBelow is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n### Instruction:\nPick a tool\n\nHere are some extra messages you can referred to:\n\n### input:\nx\n\n\n\n<|action_start|><|function|>tool name (one of [\"get_weather\"])\n<|args|>the input to the tool, in a JSON format representing the kwargs. Can only return json.\n<|action_end|>end of tool.\n(e.g. <|action_start|><|function|>tool_name\n<|args|>{'input': 'hello world', 'num_beams': 5}\n<|action_end|>).\n\n### Function-call Tools. \n\n[{type: \"function\", \"function\": {name: \"get_weather\", description: \"Get weather\", parameters: {type: \"object\", properties: {city: {type: \"string\"}}, required: [\"city\"]}}}]\n\n\n### Response:\n",
		},
		{ // ChatPrompter('Tools: {tool_names}. {q}').generate_prompt({'q':'hi'}, tools=[get_weather], format='openai')
			name: "2605/H09", new: NewChat, instr: "Tools: {tool_names}. {q}",
			opts:     []Option{head()},
			input:    map[string]string{"q": "hi"},
			call:     []Option{Tools(getWeather())},
			wantJSON: `{"messages": [{"role": "system", "content": "You are an AI-Agent developed by LazyLLM.\nTools: [\"get_weather\"]. hi\n\n"}, {"role": "user", "content": ""}], "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Get weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]}`,
		},
	})
}
