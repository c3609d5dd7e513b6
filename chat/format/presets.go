package format

import (
	"slices"

	"github.com/rolemark/rolemark/chat"
)

// Names returns the names of the preset formats, sorted.
func Names() []string {
	p := presets()
	names := make([]string, 0, len(p))
	for name := range p {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Lookup returns the preset format of that name. Each call returns a new
// Format the caller may change.
func Lookup(name string) (*Format, bool) {
	build, ok := presets()[name]
	if !ok {
		return nil, false
	}
	f := build()
	f.Name = name
	return f, true
}

const (
	altError        = "Conversation roles must alternate user/assistant/user/assistant/..."
	mistralIDError  = "Tool call IDs should be alphanumeric strings with length 9!"
	qwenSystem      = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."
	deepseekSystem  = "You are an AI programming assistant, utilizing the Deepseek Coder model, developed by Deepseek Company, and you only answer questions related to computer science. For politically sensitive questions, security and privacy issues, and other non-computer science questions, you will refuse to answer\n"
	lazyllmSystem   = "You are an AI-Agent developed by LazyLLM."
	qwenToolsBegin  = "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>\n"
	qwenToolsEnd    = "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>"
	chatmlBegin     = "<|im_start|>"
	chatmlEnd       = "<|im_end|>\n"
	gemmaTurnEnd    = "<end_of_turn>\n"
	commandRTurn    = "<|START_OF_TURN_TOKEN|>"
	commandRTurnEnd = "<|END_OF_TURN_TOKEN|>"
)

// presets maps each preset name to a function building it. Every format is
// built afresh, so callers never share state.
func presets() map[string]func() *Format {
	return map[string]func() *Format{
		"chatml":        chatML,
		"llama2":        llama2,
		"llama3":        llama3,
		"mistral":       mistral,
		"mistral-v3":    mistralV3,
		"gemma":         gemma,
		"gemma3":        gemma3,
		"phi3":          phi3,
		"zephyr":        zephyr,
		"solar":         solar,
		"chatqa":        chatQA,
		"openchat":      openChat,
		"command-r":     commandR,
		"granite":       granite,
		"alpaca":        alpaca,
		"qwen2.5":       qwen25,
		"lazyllm-chat":  lazyLLMChat,
		"qwen":          qwen1,
		"qwen2":         qwen2,
		"starcoder2":    starCoder2,
		"magicoder":     magicoder,
		"codellama-70b": codeLlama70B,
		"alfred":        alfred,
		"falcon":        falcon,
	}
}

func chatML() *Format {
	return &Format{
		Special:          []string{chatmlBegin, "<|im_end|>", "<|endoftext|>"},
		Description:      "ChatML (OpenHermes 2.5 and many others)",
		EOS:              "<|im_end|>",
		Other:            &Turn{Begin: chatmlBegin + "{role}\n", End: chatmlEnd},
		GenerationPrompt: chatmlBegin + "assistant\n",
	}
}

func llama2() *Format {
	return &Format{
		// [INST] and <<SYS>> are text to Llama 2's tokenizer, but they
		// are what its turns are made of: content may not write them
		Special:     []string{"<s>", "[INST]", "[/INST]", "<<SYS>>", "<</SYS>>"},
		Description: "Llama 2 Chat",
		EOS:         "</s>",
		Roles: map[chat.Role]Turn{
			chat.RoleUser:      {Begin: "<s>[INST] ", End: " [/INST]", Trim: true},
			chat.RoleAssistant: {Begin: " ", End: " </s>", Trim: true},
		},
		System: System{
			Placement:  SystemFirstMessage,
			Prefix:     "<<SYS>>\n",
			Suffix:     "\n<</SYS>>\n\n",
			TrimFolded: true,
		},
		Alternate:      AlternateStrict,
		AlternateError: altError,
	}
}

func llama3() *Format {
	return &Format{
		Special:          []string{"<|start_header_id|>", "<|end_header_id|>", "<|end_of_text|>"},
		Description:      "Llama 3 Instruct",
		BOS:              "<|begin_of_text|>",
		EOS:              "<|eot_id|>",
		Other:            &Turn{Begin: "<|start_header_id|>{role}<|end_header_id|>\n\n", End: "<|eot_id|>", Trim: true},
		GenerationPrompt: "<|start_header_id|>assistant<|end_header_id|>\n\n",
	}
}

func mistral() *Format {
	return &Format{
		// [INST] is text to this tokenizer, but it is what the turns are
		// made of: content may not write it
		Special:     []string{"[INST]", "[/INST]"},
		Description: "Mistral 7B Instruct v0.1/v0.2",
		BOS:         "<s>",
		EOS:         "</s>",
		Roles: map[chat.Role]Turn{
			chat.RoleUser:      {Begin: "[INST] ", End: " [/INST]"},
			chat.RoleAssistant: {End: "</s>"},
		},
		RoleError:      "Only user and assistant roles are supported!",
		Alternate:      AlternateStrict,
		AlternateError: altError,
	}
}

func mistralV3() *Format {
	return &Format{
		Special:     []string{"[INST]", "[/INST]", "[TOOL_CALLS]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]"},
		Description: "Mistral v3 (Mistral 7B Instruct v0.3, Mistral Large 2407) with tool calls",
		BOS:         "<s>",
		EOS:         "</s>",
		Roles: map[chat.Role]Turn{
			chat.RoleUser:      {Begin: "[INST] ", End: "[/INST]"},
			chat.RoleAssistant: {Begin: " ", End: "</s>", Trim: true},
		},
		RoleError:      "Only user and assistant roles are supported, with the exception of an initial optional system message!",
		System:         System{Placement: SystemLastUser, Suffix: "\n\n"},
		Alternate:      AlternateSkipTools,
		AlternateError: "After the optional system message, conversation roles must alternate user/assistant/user/assistant/...",
		Tools: &ToolFormat{
			Placement:   ToolsBeforeLastUser,
			Begin:       "[AVAILABLE_TOOLS] [",
			Sep:         ", ",
			End:         "][/AVAILABLE_TOOLS]",
			RawStrings:  true,
			CallTurn:    &Turn{},
			DropContent: true,
			CallsBegin:  "[TOOL_CALLS] [",
			CallSep:     ", ",
			CallsEnd:    "]</s>",
			CallID:      true,
			IDLength:    9,
			IDError:     mistralIDError,
			ResultBegin: `[TOOL_RESULTS] {"content": `,
			ResultEnd:   `, "call_id": "{id}"}[/TOOL_RESULTS]`,
		},
	}
}

func gemma() *Format {
	return &Format{
		Special:     []string{"<start_of_turn>", "<end_of_turn>"},
		Description: "Gemma and Gemma 2 instruction-tuned",
		BOS:         "<bos>",
		EOS:         "<eos>",
		Roles: map[chat.Role]Turn{
			chat.RoleAssistant: {Begin: "<start_of_turn>model\n", End: gemmaTurnEnd, Trim: true},
		},
		Other:            &Turn{Begin: "<start_of_turn>{role}\n", End: gemmaTurnEnd, Trim: true},
		GenerationPrompt: "<start_of_turn>model\n",
		System:           System{Placement: SystemRefuse, Error: "System role not supported"},
		Alternate:        AlternateStrict,
		AlternateError:   altError,
	}
}

func gemma3() *Format {
	f := gemma()
	f.Description = "Gemma 3 instruction-tuned"
	f.System = System{Placement: SystemFirstMessage, Suffix: "\n\n"}
	f.Image = "<start_of_image>"
	f.Special = append(f.Special, "<start_of_image>")
	return f
}

func phi3() *Format {
	return &Format{
		Special:          []string{"<|user|>", "<|assistant|>", "<|system|>", "<|end|>"},
		Description:      "Phi-3 Instruct",
		BOS:              "<s>",
		EOS:              "<|endoftext|>",
		End:              "<|endoftext|>",
		Other:            &Turn{Begin: "<|{role}|>\n", End: "<|end|>\n"},
		GenerationPrompt: "<|assistant|>\n",
	}
}

func zephyr() *Format {
	return &Format{
		Special:     []string{"<s>"},
		Description: "Zephyr 7B",
		EOS:         "</s>",
		Roles: map[chat.Role]Turn{
			chat.RoleSystem:    {Begin: "<|system|>\n", End: "</s>\n"},
			chat.RoleUser:      {Begin: "<|user|>\n", End: "</s>\n"},
			chat.RoleAssistant: {Begin: "<|assistant|>\n", End: "</s>\n"},
		},
		GenerationPrompt: "<|assistant|>\n",
	}
}

func solar() *Format {
	return &Format{
		Special:     []string{"<s>"},
		Description: "SOLAR 10.7B Instruct",
		EOS:         "</s>",
		Roles: map[chat.Role]Turn{
			chat.RoleSystem:    {Begin: "### System:\n", End: "\n\n", SkipEmpty: true},
			chat.RoleUser:      {Begin: "### User:\n", End: "\n\n"},
			chat.RoleAssistant: {Begin: "### Assistant:\n"},
		},
		GenerationPrompt: "### Assistant:\n",
	}
}

func chatQA() *Format {
	return &Format{
		Special:     []string{"<|begin_of_text|>"},
		Description: "Llama3-ChatQA",
		BOS:         "<|begin_of_text|>",
		EOS:         "<|end_of_text|>",
		Roles: map[chat.Role]Turn{
			chat.RoleSystem:    {End: "\n\n"},
			chat.RoleUser:      {Begin: "User: ", End: "\n\n"},
			chat.RoleAssistant: {Begin: "Assistant: ", End: "<|end_of_text|>"},
		},
		GenerationPrompt: "Assistant:",
	}
}

func openChat() *Format {
	return &Format{
		Special:          []string{"</s>"},
		Description:      "OpenChat 3.5",
		BOS:              "<s>",
		EOS:              "<|end_of_turn|>",
		Other:            &Turn{Begin: "GPT4 Correct {Role}: ", End: "<|end_of_turn|>"},
		GenerationPrompt: "GPT4 Correct Assistant:",
	}
}

func commandR() *Format {
	return &Format{
		Special:     []string{commandRTurn, "<|USER_TOKEN|>", "<|CHATBOT_TOKEN|>", "<|SYSTEM_TOKEN|>"},
		Description: "Cohere Command R",
		BOS:         "<BOS_TOKEN>",
		EOS:         commandRTurnEnd,
		Roles: map[chat.Role]Turn{
			chat.RoleUser:      {Begin: commandRTurn + "<|USER_TOKEN|>", End: commandRTurnEnd, Trim: true},
			chat.RoleAssistant: {Begin: commandRTurn + "<|CHATBOT_TOKEN|>", End: commandRTurnEnd, Trim: true},
		},
		System: System{
			Placement: SystemLeading,
			Turn:      &Turn{Begin: commandRTurn + "<|SYSTEM_TOKEN|>", End: commandRTurnEnd},
		},
		GenerationPrompt: commandRTurn + "<|CHATBOT_TOKEN|>",
		Alternate:        AlternateStrict,
		AlternateError:   altError,
	}
}

func granite() *Format {
	return &Format{
		Description: "Granite Code Instruct",
		EOS:         "<|endoftext|>",
		Roles: map[chat.Role]Turn{
			chat.RoleSystem:    {Begin: "System:\n", End: "\n\n"},
			chat.RoleUser:      {Begin: "Question:\n", End: "\n\n"},
			chat.RoleAssistant: {Begin: "Answer:\n", End: "\n\n"},
		},
		GenerationPrompt: "Answer:\n",
	}
}

// alpaca is the Alpaca-style template ollama files under "alpaca": DeepSeek
// Coder Instruct's "### Instruction:" / "### Response:" format.
func alpaca() *Format {
	return &Format{
		Special:     []string{"<｜end▁of▁sentence｜>"},
		Description: "Alpaca-style instruction format (DeepSeek Coder Instruct's template)",
		BOS:         "<｜begin▁of▁sentence｜>",
		EOS:         "<|EOT|>",
		Roles: map[chat.Role]Turn{
			chat.RoleSystem: {},
			chat.RoleUser:   {Begin: "### Instruction:\n", End: "\n"},
		},
		Other:            &Turn{Begin: "### Response:\n", End: "\n<|EOT|>\n"},
		System:           System{Default: deepseekSystem},
		GenerationPrompt: "### Response:\n",
	}
}

func qwen25() *Format {
	return &Format{
		Special:     []string{chatmlBegin, "<|im_end|>", "<|endoftext|>"},
		Description: "Qwen2.5 Instruct with tool calls",
		EOS:         "<|im_end|>",
		Roles: map[chat.Role]Turn{
			chat.RoleSystem:    {Begin: chatmlBegin + "system\n", End: chatmlEnd},
			chat.RoleUser:      {Begin: chatmlBegin + "user\n", End: chatmlEnd},
			chat.RoleAssistant: {Begin: chatmlBegin + "assistant\n", End: chatmlEnd},
		},
		System:           System{Placement: SystemLeading, Default: qwenSystem},
		GenerationPrompt: chatmlBegin + "assistant\n",
		Tools: &ToolFormat{
			Placement:     ToolsInSystem,
			Begin:         qwenToolsBegin,
			Sep:           "\n",
			End:           qwenToolsEnd,
			CallTurn:      &Turn{Begin: chatmlBegin + "assistant", End: chatmlEnd},
			ContentPrefix: "\n",
			CallBegin:     "\n<tool_call>\n",
			CallEnd:       "\n</tool_call>",
			ResultsBegin:  chatmlBegin + "user",
			ResultBegin:   "\n<tool_response>\n",
			ResultEnd:     "\n</tool_response>",
			ResultsEnd:    chatmlEnd,
		},
	}
}

// lazyLLMChat is LazyLLM's ChatPrompter string template,
// "{sos}{system}{instruction}{tools}{eos}\n\n{history}\n{soh}\n{user}{input}\n{eoh}{soa}\n",
// with the markers of the prompter document (<|start_system|>,
// <|end_system|>, <|Human|>:, <|Assistant|>:): the system message is the
// system text and instruction, earlier turns are the history, and the last
// user message is the input.
func lazyLLMChat() *Format {
	return &Format{
		// The markers are text to the tokenizer, but they are what the
		// turns are made of: content may not write them (as Llama 2's).
		Special:     []string{"<|start_system|>", "<|end_system|>", "<|Human|>:", "<|Assistant|>:"},
		Description: "LazyLLM ChatPrompter",
		Roles: map[chat.Role]Turn{
			chat.RoleUser: {
				Begin: "<|Human|>:",
				Last:  &Edges{Begin: "\n<|Human|>:\n", End: "\n"},
			},
			chat.RoleAssistant: {Begin: "<|Assistant|>:"},
		},
		System: System{
			Placement: SystemLeading,
			Turn:      &Turn{Begin: "<|start_system|>", End: "<|end_system|>\n\n"},
			Default:   lazyllmSystem,
		},
		GenerationPrompt: "<|Assistant|>:\n",
	}
}

func qwen2() *Format {
	f := chatML()
	f.Description = "Qwen2 Instruct (ChatML with a default system message)"
	f.System = System{
		Placement: SystemLeading,
		Turn:      &Turn{Begin: chatmlBegin + "system\n", End: chatmlEnd},
		Default:   "You are a helpful assistant.",
	}
	return f
}

// qwen1 is Qwen (1.0) Chat as Qwen's own make_context writes it (Qwen has
// no chat template of its own in its tokenizer files): ChatML with the
// system message "You are a helpful assistant." when none is given, the
// prompt the qwen2 preset writes. chat/react's ReAct prompts are rendered
// in it.
func qwen1() *Format {
	f := qwen2()
	f.Description = "Qwen (1.0) Chat, as Qwen's make_context writes it (the same prompt as qwen2)"
	return f
}

const codeAssistantIntro = "You are an exceptionally intelligent coding assistant that consistently delivers accurate and reliable responses to user instructions.\n\n"

// instructResponse is the StarCoder2 / Magicoder layout: a fixed
// introduction, instruction and response blocks, no system messages, and a
// response header that ends every prompt.
func instructResponse(mark, eos string) *Format {
	return &Format{
		EOS:   eos,
		Begin: codeAssistantIntro,
		Roles: map[chat.Role]Turn{
			chat.RoleSystem: {Error: "System messages are not allowed in this template."},
			chat.RoleUser:   {Begin: mark + " Instruction\n", End: "\n\n"},
		},
		Other:            &Turn{Begin: mark + " Response\n", End: eos + "\n\n"},
		End:              mark + " Response\n",
		GenerationPrompt: mark + " Response\n",
	}
}

func starCoder2() *Format {
	f := instructResponse("###", "<|endoftext|>")
	f.Description = "StarCoder2 15B Instruct"
	f.BOS = "<|endoftext|>"
	return f
}

func magicoder() *Format {
	f := instructResponse("@@", "<｜end▁of▁sentence｜>")
	f.Description = "Magicoder S DS"
	f.BOS = "<｜begin▁of▁sentence｜>"
	return f
}

func codeLlama70B() *Format {
	const next = "Source: assistant\nDestination: user\n\n "
	return &Format{
		Special:     []string{"<step>"},
		Description: "CodeLlama 70B Instruct",
		BOS:         "<s>",
		EOS:         "<step>",
		Other:       &Turn{Begin: "Source: {role}\n\n ", End: " <step> ", Trim: true},
		System: System{
			Placement: SystemLeading,
			Turn:      &Turn{Begin: "Source: system\n\n ", End: " <step> ", Trim: true},
		},
		Alternate:        AlternateStrict,
		AlternateError:   altError,
		End:              next,
		GenerationPrompt: next,
	}
}

func alfred() *Format {
	return &Format{
		Special:     []string{"<start_system>", "<start_user>", "<start_assistant>"},
		Description: "Alfred 40B",
		EOS:         "<end_message>",
		Roles: map[chat.Role]Turn{
			chat.RoleSystem:    {Begin: "<start_system>", End: "<end_message>", Trim: true},
			chat.RoleUser:      {Begin: "<start_user>", End: "<end_message>", Trim: true},
			chat.RoleAssistant: {Begin: "<start_assistant>", End: "<end_message>"},
		},
		RoleError:        "Only system, user and assistant roles are supported.",
		GenerationPrompt: "<start_assistant>",
	}
}

func falcon() *Format {
	return &Format{
		Description: "Falcon Instruct",
		EOS:         "<|endoftext|>",
		Roles: map[chat.Role]Turn{
			chat.RoleSystem:    {Begin: "System: ", End: "\n"},
			chat.RoleUser:      {Begin: "User: \n", End: "\n"},
			chat.RoleAssistant: {Begin: "Falcon:\n", End: "\n"},
		},
		GenerationPrompt: "Falcon:\n",
	}
}
