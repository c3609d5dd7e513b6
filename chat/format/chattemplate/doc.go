// Package chattemplate renders a model's own chat template: the Jinja
// source a HuggingFace model publishes, which turns a conversation
// ([]chat.Message) into the prompt string the model reads.
//
// [Template] renders any HuggingFace chat template (the Jinja source in a
// model's tokenizer_config.json or chat_template.jinja) as transformers'
// apply_chat_template does: [Template.Render] returns the prompt as a
// string, [Template.AppendRender] appends the same bytes to a slice the
// caller may reuse from rendering to rendering (no allocation for the
// prompt, as strconv's Append functions), with the same options, checks
// and errors. [Load] reads it with its special tokens
// from a model's files, [ParseTokenizerConfig] from a config's bytes,
// [New] from a string. The environment is transformers': sandboxed
// (templates see only the data; no file access, ranges of at most 100,000
// items), trim_blocks and lstrip_blocks, loop controls, tojson as
// transformers defines it (key order kept, ensure_ascii off, indent,
// separators, sort_keys), raise_exception (a [*TemplateError] with Raised
// set and the template's message), strftime_now on a clock the caller can
// fix ([Clock]). Rendering takes the options of package format: the tools
// ([format.Tools], OpenAI function definitions), add_generation_prompt
// ([format.GenerationPrompt]), continue_final_message
// ([format.ContinueFinal]) and extra variables ([format.Vars], such as
// enable_thinking). A Go function in the variables is not called: it
// prints as <function NAME>, and a call of it is an Unsupported error at
// the call (Python's Jinja2 would call a Python callable).
//
// Messages reach a template in transformers' shape: role; content as a
// string when the message is text only, else a list of parts
// ({"type": "text", "text": …} and {"type": "image", "url": …}, likewise
// audio and file, each key only when set: a Part with no URL is
// {"type": "image"}); name when set; tool_calls as
// [{"id", "type": "function", "function": {"name", "arguments"}}] with the
// arguments as the JSON value they hold (a mapping, or a str for a JSON
// string); tool_call_id. Tools are
// {"type": "function", "function": {"name", "description", "parameters"}}.
// [ContentParts] passes every content as a list, for templates that only
// loop over parts. testdata/shapes checks these shapes against
// transformers' (shapes.py).
//
// testdata/hf holds 111 real templates (where each came from and its
// licence in sources.json) and what Jinja2 renders for 10 conversations
// (testdata/hf/oracle.py): of the 1,110 renderings Jinja2 completes 895
// and raises on 215. TestCorpus requires every rendering Jinja2 completes
// to be byte-identical and every one it refuses to be an error. Jinja2
// renders 110 of the templates on at least one conversation (057 reads a
// variable functions that none gives), and BenchmarkCorpusVsJinja2 times
// those 110. TestCorpusFigures checks these numbers against testdata/hf.
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
// Templates follow chat/format's special-token rule (see its package
// documentation): a special token may stand in the prompt only where the
// template writes it itself; anything else is a [*format.SpecialTokenError]
// unless [format.AllowSpecialTokens]. A Template's special tokens
// are its bos/eos/unk/… tokens and the added_tokens_decoder entries marked
// special ([SpecialTokens] adds more). A template without a tokenizer
// config (a bare chat_template.jinja, rolemark's --format hf:FILE.jinja)
// takes as special the tokens its own text writes ([Template.TextTokens]:
// <|…|>, <｜…｜>, Gemma 4's <|turn> and <turn|>, MiniMax's ]~b] and [e~[,
// EXAONE's [|user|], Seed-OSS's <seed:bos>, TeleFLM's <_user>,
// [INST]-like brackets of
// capital letters, <start_of_turn>-like tags with an underscore, <s>, </s>,
// <bos>, <eos>, …,
// and those it composes, as a rendering of a neutral conversation shows
// them: '<|' + message['role'] + '|>' writes <|user|>),
// plus those [SpecialTokens] names, and its errors say so
// ([format.SpecialTokenError].FromText): the tokens a template writes are
// those that open and close its turns, whatever the tokenizer makes of
// them.
//
// # Files
//
// The package is larger than the project's other packages (about 4,600
// lines without tests) because the special-token guard is a static
// analysis of the template's syntax tree that has to stay next to the
// rendering whose output it vouches for: which literals the template
// writes and which variables they read (tokens.go), the order of the
// template's writes, so that a token's sides that only template text can
// touch are known (order.go), and where Jinja2's own reprs and JSON can be
// cut so data lands beside their brackets (reprcut.go). The rest is the
// rendering in transformers' environment: the entry and the guard's two
// renderings (template.go), the spans of the {% generation %} blocks
// (generation.go), the environment (env.go), the variables in
// transformers' shape (data.go), the kept last conversation (conv.go)
// and reading a model's files (load.go). Moving the analysis to a package
// of its own would export the guard's verdict to one caller and split one
// security rule across two packages.
//
// # Continuing the final message
//
// With [format.ContinueFinal] the prompt ends right after the final
// message's text, cut as transformers' continue_final_message cuts it (see
// chat/format's package documentation).
package chattemplate
