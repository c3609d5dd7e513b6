// Package format turns a conversation ([]chat.Message) into the single
// prompt string a local model reads: its chat format.
//
// A [Format] is plain data — global begin and end, per-role begin and end,
// where the system message goes, the generation prompt, how tool
// definitions, calls and results are written — declared in Go or loaded from
// JSON or YAML (the same keys in both). [Format.Render] writes a
// conversation with it, with or without a generation prompt, or continuing
// the final message (an assistant prefill).
//
// Two other jobs live beside it: a model's own HuggingFace chat template,
// rendered on the project's Jinja2 as transformers renders it, is package
// chat/format/chattemplate; OpenCompass's meta templates, which have their
// own rendering rules, are package chat/format/opencompass. Chat templates
// follow the special-token rule below too.
//
// One shape of Render per job, all taking this package's [Option] values
// ([GenerationPrompt], [ContinueFinal], [Tools], [Vars],
// [AllowSpecialTokens]): [Format.Render](msgs, opts...) and opencompass's
// MetaTemplate.Render(msgs, opts...) are plain computation bounded by their
// input, as json.Marshal is, and take no context; chattemplate's
// Template.Render(ctx, msgs, opts...) runs a template from the internet
// under limits and takes one. [Format.AppendRender] is Render writing into
// the caller's buffer. A call given an option it has no use for returns an
// error naming it (Vars to a Format: [ErrVars]).
//
// [Names] and [Lookup] give the presets. Each is byte-exact against the
// model's real HuggingFace chat template rendered as transformers'
// apply_chat_template renders it (Jinja2 with trim_blocks and
// lstrip_blocks, tojson with ensure_ascii=False); testdata/golden holds the
// template's own output for every preset and testdata/oracle.py the script
// that produced it. Where the template refuses a conversation
// (raise_exception), Render returns an [*Error] with the template's text.
//
//	preset        template (ollama v0.17.4 template/index.json unless noted)
//	alfred        Alfred 40B
//	alpaca        ollama's "alpaca": DeepSeek Coder Instruct's ### Instruction / ### Response
//	chatml        ChatML (teknium/OpenHermes-2.5-Mistral-7B)
//	chatqa        Llama3-ChatQA ("User: " / "Assistant: ")
//	codellama-70b CodeLlama 70B Instruct
//	command-r     Cohere Command R (default template)
//	falcon        Falcon Instruct
//	gemma         Gemma / Gemma 2 instruction-tuned (refuses a system message)
//	gemma3        Gemma 3 (system text folded into the first turn; images)
//	granite       Granite Code Instruct
//	lazyllm-chat  LazyLLM's ChatPrompter string format (no HF template; see below)
//	llama2        Llama 2 Chat
//	llama3        Llama 3 Instruct
//	magicoder     Magicoder S DS (refuses system messages)
//	mistral       Mistral 7B Instruct v0.1/v0.2 (refuses a system message)
//	mistral-v3    Mistral v3 (Mistral 7B Instruct v0.3, Mistral Large 2407), with tool calls
//	              (template embedded in oracle.py)
//	openchat      OpenChat 3.5
//	phi3          Phi-3 Instruct
//	qwen          Qwen (1.0) Chat as its make_context writes it, the prompt of qwen2
//	              (no HF template: seedsys Q20 in vectors_test.go)
//	qwen2         Qwen2 Instruct (ChatML with a default system message)
//	qwen2.5       Qwen2.5 Instruct, with tool calls (template embedded in oracle.py)
//	solar         SOLAR 10.7B Instruct
//	starcoder2    StarCoder2 15B Instruct (refuses system messages)
//	zephyr        Zephyr 7B
//
// What Render reads from a message: its role and its text (the text parts
// joined; an image part as [Format.Image] where the format has one, as
// gemma3 does), an assistant message's tool calls and a tool message's call
// ID, where the format has a [ToolFormat]. What a format has no place for
// is refused with a [*PartError] naming the part, never left out: media
// parts without Image, tool calls and tool definitions without a
// ToolFormat (the models' own templates drop or break on them). A tool
// call's arguments and a tool's parameters must be JSON; they are written
// as Python's json.dumps writes them, which is what the templates produce.
//
// # Special tokens
//
// Text that spells one of the model's special tokens (<|im_end|>,
// <|eot_id|>, …) is read by the tokenizer as that token, so data that
// puts one in the prompt could close a turn and forge another. The rule,
// for presets, declared formats and templates alike: a special token may
// stand in the prompt only where the format or template writes it itself.
// [Format.Render] and chattemplate's Template.Render refuse anything else
// with a [*SpecialTokenError], unless [AllowSpecialTokens]. It is checked
// in two steps. First every string of the data, as the format receives it,
// must hold no token: message text (each part, and the parts joined, as
// the formats join them), names, IDs, roles, tool call names and
// arguments, tool definitions (name, description, parameters) and
// template variables, with the JSON of arguments and parameters decoded
// (\u003c is "<", \/ is "/"); the error names the message and the place.
// Then, when the data holds every byte of some token that is not a letter
// or a digit (its marks: "<", "|", "_", ">" for <|im_end|>), or when the
// format's or template's own text could make a token with data next to it
// (phi3's "<|" before a role), the prompt is compared with the prompt of
// the same data with those bytes replaced by 'x': a token the data made,
// however the format joined, decoded or transformed it, is refused (Index
// -1). Ordinary data has not all the marks of a token, so that second
// rendering is rare; the checks allocate nothing.
//
// A preset's special tokens are listed in [Format.Special] (BOS and EOS
// count too); a chat template's are its tokenizer config's, or those its
// own text writes (see chat/format/chattemplate), and its errors then say
// so ([SpecialTokenError].FromText).
//
// # Continuing the final message
//
// With [ContinueFinal] the prompt ends right after the final
// message's text, which is how transformers' continue_final_message cuts
// the rendered template, including its rule for trailing white space: when
// the text has no leading white space and the format writes it whole, the
// trailing white space stays; otherwise the prompt ends after the last
// non-space character. Unlike transformers, the cut is looked for in the
// final message only, never in the template text after it. A final message
// with no text (say, only tool calls) leaves the prompt uncut, as in
// transformers.
//
// # Known differences from the templates
//
// The goldens cover ordinary and refused conversations; a few template
// quirks are not reproduced: Qwen2.5 writes a tool call's name without JSON
// escaping (rolemark escapes it); Mistral v3 with an empty (not absent) tool
// list writes an empty [AVAILABLE_TOOLS] block (rolemark writes none);
// transformers' continue_final_message looks for the final text anywhere in
// the prompt (see above). Render refuses an empty conversation
// ([ErrNoMessages]); the templates mostly fail on it.
//
// # LazyLLM
//
// lazyllm-chat is LazyLLM's ChatPrompter template
// "{sos}{system}{instruction}{tools}{eos}\n\n{history}\n{soh}\n{user}{input}\n{eoh}{soa}\n"
// with the markers of LazyLLM's prompter document (<|start_system|>,
// <|end_system|>, <|Human|>:, <|Assistant|>:, empty end-of-human and
// end-of-assistant markers) and its default system text. The system message
// stands for LazyLLM's system text and instruction joined, the messages
// before the last user message are the history, and the last user message
// is the input; it reproduces the document's examples. LazyLLM itself has
// since emptied the markers; a Format with other markers is a copy with
// other strings.
package format
