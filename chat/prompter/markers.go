package prompter

// Markers are the strings that frame each role's text in the string form of
// a prompt, LazyLLM's sos/eos, soh/eoh, soa/eoa, soe/eoe and tool tokens.
// The Chat prompter glues them into its fixed layout:
//
//	SystemStart system instruction skills tools SystemEnd "\n\n"
//	history "\n" UserStart "\n" user-instruction input "\n" UserEnd AssistantStart "\n"
//
// where each earlier user turn is UserStart text UserEnd, each assistant
// turn AssistantStart text tool-calls AssistantEnd, and each tool result
// ToolStart text ToolEnd. The Alpaca prompter's layout has no markers.
//
// A marker set is a small declarative chat format: each role has a begin
// and an end string. Because the layout around them is LazyLLM's, the
// result is LazyLLM's prompt for a model, not necessarily the model's own
// chat format.
type Markers struct {
	SystemStart, SystemEnd       string // sos, eos
	UserStart, UserEnd           string // soh, eoh
	AssistantStart, AssistantEnd string // soa, eoa
	ToolStart, ToolEnd           string // soe, eoe: frame a tool result in history
	// CallStart, CallArgs and CallEnd frame each tool call of an assistant
	// message in history: CallStart "\n" name CallArgs arguments CallEnd
	// "\n". Without CallArgs a call is written CallStart "\n"
	// {"name": …, "arguments": …} CallEnd "\n".
	CallStart, CallArgs, CallEnd string
}

// LazyLLMMarkers returns the markers LazyLLM's Chat prompter used by default
// in Release2406: <|start_system|>, <|end_system|>, <|Human|>: and
// <|Assistant|>:.
func LazyLLMMarkers() Markers {
	return Markers{
		SystemStart:    "<|start_system|>",
		SystemEnd:      "<|end_system|>",
		UserStart:      "<|Human|>:",
		AssistantStart: "<|Assistant|>:",
	}
}

// QwenMarkers returns the markers LazyLLM's model table sets for Qwen
// models (ChatML framing, with InternLM-style tool tokens).
func QwenMarkers() Markers {
	return Markers{
		SystemStart:    "<|im_start|>system\n",
		SystemEnd:      "<|im_end|>\n",
		UserStart:      "<|im_start|>user\n",
		UserEnd:        "<|im_end|>\n",
		AssistantStart: "<|im_start|>assistant\n",
		AssistantEnd:   "<|im_end|>",
		ToolStart:      "<|im_start|>environment\n",
		ToolEnd:        "<|im_end|>\n",
		CallStart:      "<|action_start|><|function|>",
		CallArgs:       "<|args|>",
		CallEnd:        "<|action_end|>",
	}
}

// Llama3Markers returns the markers LazyLLM's model table sets for Llama 3
// models.
func Llama3Markers() Markers {
	return Markers{
		SystemStart:    "<|start_header_id|>system<|end_header_id|>\n\n",
		SystemEnd:      "<|eot_id|>",
		UserStart:      "<|start_header_id|>user<|end_header_id|>\n\n",
		UserEnd:        "<|eot_id|>",
		AssistantStart: "<|start_header_id|>assistant<|end_header_id|>\n\n",
		AssistantEnd:   "<|eot_id|>",
	}
}
