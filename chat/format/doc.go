// Package format turns a conversation ([]chat.Message) into the single
// prompt string a local model reads: its chat format.
//
// A [Format] is plain data — global begin and end, per-role begin and end,
// where the system message goes, the generation prompt, how tool
// definitions, calls and results are written — declared in Go or loaded from
// JSON or YAML (the same keys in both). [Format.Render] writes a conversation with it, with or without a
// generation prompt, or continuing the final message (an assistant
// prefill).
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
// # A model's own chat template
//
// [Template] renders any HuggingFace chat template (the Jinja source in a
// model's tokenizer_config.json or chat_template.jinja) as transformers'
// apply_chat_template does; [LoadTemplate] reads it with its special tokens
// from a model's files, [ParseTokenizerConfig] from a config's bytes,
// [NewTemplate] from a string. The environment is transformers': sandboxed
// (templates see only the data; no file access, ranges of at most 100,000
// items), trim_blocks and lstrip_blocks, loop controls, tojson as
// transformers defines it (key order kept, ensure_ascii off, indent,
// separators, sort_keys), raise_exception (a [*TemplateError] with Raised
// set and the template's message), strftime_now on a clock the caller can
// fix ([WithClock]). [Options] carries the tools (OpenAI function
// definitions), add_generation_prompt, continue_final_message and extra
// variables ([Options.Vars], such as enable_thinking).
//
// Messages reach a template in transformers' shape: role; content as a
// string when the message is text only, else a list of parts
// ({"type": "text", "text": …} and {"type": "image", "url": …}, likewise
// audio and file); name when set; tool_calls as
// [{"id", "type": "function", "function": {"name", "arguments"}}] with the
// arguments as the JSON mapping they hold; tool_call_id. Tools are
// {"type": "function", "function": {"name", "description", "parameters"}}.
//
// testdata/hf holds 111 real templates (where each came from and its
// licence in sources.json) and what Jinja2 renders for 10 conversations
// (testdata/hf/oracle.py); TestCorpus requires every rendering Jinja2
// completes to be byte-identical and every one it refuses to be an error.
// Templates render on the project's one Jinja2 implementation
// (internal/jinja2) in transformers' environment: the immutable sandbox
// (a method that changes a list or dict raises SecurityError where it is
// called), trim_blocks and lstrip_blocks, loop controls, the generation
// tag, transformers' tojson, raise_exception and strftime_now. Errors are
// Jinja2's, raised where Jinja2 raises them, as a [*TemplateError] with
// the line and column. A template is data from the internet, so every
// rendering runs under limits (nesting of macro calls 200, 16 MB of
// output or of one string, 5,000,000 loop iterations): where Python would
// raise RecursionError or MemoryError, or run for minutes, Render returns
// an error naming the limit.
//
// # Special tokens
//
// Text that spells one of the model's special tokens (<|im_end|>,
// <|eot_id|>, …) is read by the tokenizer as that token, so data that
// puts one in the prompt could close a turn and forge another. The rule,
// for presets, declared formats and templates alike: a special token may
// stand in the prompt only where the format or template writes it itself.
// Template.Render and Format.Render refuse anything else with a
// [*SpecialTokenError], unless [Options.AllowSpecialTokens]. It is checked
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
// A Template's special tokens are its bos/eos/unk/… tokens and the
// added_tokens_decoder entries marked special ([WithSpecialTokens] adds
// more); a preset's are listed in [Format.Special]. A template without a
// tokenizer config (a bare chat_template.jinja, rolemark's --format
// hf:FILE.jinja) takes as special the tokens its own text writes
// ([Template.TextTokens]: <|…|>, <｜…｜>, [INST]-like brackets of capital
// letters, <start_of_turn>-like tags with an underscore, <s>, </s>, <bos>,
// <eos>, …), plus those [WithSpecialTokens] names, and its errors say so
// ([SpecialTokenError].FromText): the tokens a template writes are those
// that open and close its turns, whatever the tokenizer makes of them.
//
// # Continuing the final message
//
// With Options.ContinueFinal the prompt ends right after the final
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
//
// # OpenCompass meta templates
//
// [MetaTemplate] is OpenCompass's meta template (round, reserved_roles,
// begin, end, generate, fallback_role, api_role), loadable from the JSON or
// YAML form of its Python dict. It has its own renderer, because
// OpenCompass walks the template's round for every round of the dialogue: a
// role missing from a round is still written (empty, or with its default
// prompt), and strings in the round are written once per round, which a
// Format, writing the messages it is given, does not do.
// [MetaTemplate.ToFormat] converts a template whose round is the user's and
// the assistant's roles to a Format that writes the same string for
// conversations of whole rounds (user and assistant alternating), so that
// it can stand wherever a Format does. [MetaTemplate.Render] is the LMTemplateParser (a prompt string, gen
// or ppl mode), [MetaTemplate.RenderAPI] the APITemplateParser (api_role
// messages, consecutive same-role messages merged with "\n"), and
// [MetaTemplate.RenderMessages] / [MetaTemplate.APIMessages] do the same for
// a []chat.Message (leading system messages form the begin section, the
// rest the round section; see ChatRoles). The behaviour follows OpenCompass's
// code where it and its documentation agree and the code does not crash.
// Where OpenCompass fails or contradicts itself, rolemark does this:
//
//   - A PromptList without section markers (the documentation's examples;
//     OpenCompass raises IndexError): leading items whose role is not a
//     round role (SYSTEM) form the begin section, the rest the round
//     section.
//   - A fallback_role inside a round section (the LM parser raises
//     KeyError, the API parser resolves it): resolved in both modes.
//   - A role with neither a template entry nor a usable fallback (KeyError:
//     None after a print): an error naming the role.
//   - A generate role inside a begin or end section in API mode (the API
//     parser appends None and raises TypeError): never truncated, as in LM
//     mode.
//   - The meta template's begin in API mode (inserted as a bare string that
//     OpenCompass's own OpenAI wrapper then rejects): left out, like end.
//   - Non-empty plain strings in API mode (a warning): left out silently.
//   - The dataset side's _encode_template, which closes an end section
//     twice and so crashes every parser, is not part of rolemark; PromptItem
//     lists are built directly or by RenderMessages.
//   - An api_role other than HUMAN, BOT and SYSTEM in APIMessages
//     (OpenCompass's OpenAI wrapper sends a message with no role): an
//     error naming the api_role. RenderAPI passes any api_role through.
//   - A plain string prompt (returned unchanged by OpenCompass), a list of
//     PromptLists, and PromptList's format and replace helpers are the
//     caller's business in Go: Render takes one []PromptItem.
//   - The 2026 list-form API meta template (a list of role/content dicts) is
//     not supported.
//   - The documentation's examples show an "end of conversation" line with no
//     end configured, "end of conversion" in the configuration, and a
//     newline after begin that the configuration lacks; rolemark follows the
//     configuration, as OpenCompass's code does.
//   - A MetaTemplate without Round renders as OpenCompass does with no meta
//     template: strings and prompts joined with "\n".
package format
