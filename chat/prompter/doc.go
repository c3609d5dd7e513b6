// Package prompter builds prompts the way LazyLLM's AlpacaPrompter and
// ChatPrompter do: an instruction with {slots}, optional extra keys, a
// system prompt, tools and conversation history, rendered either as the one
// string a local model reads (Prompt) or as chat messages plus tools for a
// chat API (Messages, LazyLLM's return_dict / format='openai' form).
//
//	p, err := prompter.NewChat("Answer from this context: {context}")
//	s, err := p.Prompt(map[string]string{"context": "…", "question": "…"})
//	res, err := p.Messages("…", prompter.Pairs([2]string{"Hi", "Hello!"}))
//
// # Input
//
// A slot is a word (letters, digits, underscores, in any script) between
// single braces: {context}, {上下文}. Other braces are text. The input is
//
//   - a string or an integer: it fills the instruction's one slot; with no
//     slot it becomes the user's turn; two or more slots are an error.
//   - a map from string keys to string values (map[string]string, a
//     map[string]any holding strings, or a named type of either): each key
//     fills the slot of that name, a missing one is an error; at most one key
//     may be left over, and its value becomes the user's turn.
//
// Extra keys (ExtraKeys) add a "### key:" section with a {key} slot
// after the instruction. UserInstruction splits the instruction into a
// system-level part (in the system prompt) and a user-level part placed
// directly before the input, as LazyLLM's {"system": …, "user": …}
// instruction does. The Alpaca layout has no user turn: its input must go
// into slots or extra keys, and it takes no history.
//
// Bad input is an *Error whose Code says what was wrong; nothing panics.
//
// # Output
//
// Prompt lays the parts out exactly as LazyLLM does, including its
// newlines. The Chat layout frames the system part, each history turn and
// the current turn with Markers; Markers are a minimal local stand-in for a
// declarative chat format: per-role begin and end strings, which map onto
// those of a chat/format format (the layout around them stays LazyLLM's). Messages returns a system message (system prompt,
// instruction and skills joined by newlines), the history, and a user
// message (user-level instruction and input); tools are returned beside the
// messages. chat.ToAnthropic turns the messages into LazyLLM's
// format='anthropic' form.
//
// Options given to NewAlpaca or NewChat are the prompter's settings; the
// same options given to Prompt or Messages apply to that call only. History
// given to a call follows the prompter's history; any other call option
// replaces the prompter's setting. A Prompter is immutable and safe for
// concurrent use.
//
// # Releases
//
// The LazyLLM prompter document describes LazyLLM as of June 2024
// (Release2406, the default); LazyLLM's current code (Release2605) differs
// in details, and UseRelease picks one:
//
//   - Alpaca preamble: "…request.\n\n ### Instruction:\n" with a space
//     (2406) or without (2605).
//   - Default Chat markers: LazyLLMMarkers (<|start_system|>, <|end_system|>,
//     <|Human|>:, <|Assistant|>:) in 2406, none in 2605.
//   - An empty Chat instruction: "\n\n" in 2406, nothing in 2605.
//   - The system message: 2406 joins the system prompt and instruction with
//     "\n" whenever there is an instruction; 2605 joins the non-empty parts.
//   - Tool JSON: non-ASCII characters escaped as \uXXXX (2406) or kept
//     (2605).
//   - The string form loses its leading newlines in 2605.
//   - Response splits after "### Response:" or the assistant marker, and in
//     2605 after a newline that follows them.
//
// # Where this package and LazyLLM differ
//
// Where the document and LazyLLM's behaviour disagree, or LazyLLM fails, this
// package picks one behaviour; the tests hold a row for each.
//
//   - Newlines before "### Response:": the document prints one fewer than
//     the layout gives in two Alpaca examples (after a slot, and after the
//     tools); its other examples and LazyLLM agree with the layout, which
//     this package follows.
//   - The document's first example passes {"user": instruction} but prints
//     the output of a plain instruction; its output also has a full-width
//     comma its instruction lacks. A user-level instruction goes to the
//     user's turn here, as in LazyLLM; the printed output is what a plain
//     instruction gives.
//   - One document output is cut off after "<|Assistant|>"; the full
//     layout ends "<|Assistant|>:\n".
//   - Tools at construction and at a call: the document (and LazyLLM 2406)
//     forbid giving both; here the call's tools replace the prompter's, as
//     in LazyLLM 2605.
//   - Message history in the string form: the document allows it only for
//     return_dict and LazyLLM 2406 raises; it is rendered like pair history
//     here, as later LazyLLM releases do.
//   - Tools in the string form are, in Release2406, standard JSON laid out
//     as Python's json.dumps writes the dict LazyLLM holds (", " and ": "
//     separators, numbers as Python prints what json.loads read, so 1.50
//     is 1.5), as the document shows; in Release2605 they are JSON5 as
//     LazyLLM writes them with json5.dumps (identifier keys without
//     quotes: [{type: "function", "function": {name: "example"}}]).
//   - In Release2605 with tools, {tool_names} in the instruction becomes
//     the tools' names as a JSON5 list, in both forms, and the string form
//     appends LazyLLM's function-call prompt (FC_PROMPT) to an unsplit
//     instruction when the markers name all three tool tokens (CallStart,
//     CallArgs, CallEnd; QwenMarkers does), with the doubled braces of its
//     example halved when a single value fills the instruction's one slot,
//     as Python's str.format halves them. Without the tokens LazyLLM 2605
//     fails; here the tools are written without the function-call prompt.
//   - A single input value replaces its slot literally. LazyLLM uses Python's
//     str.format there, which fails on any other brace in the instruction.
//     Slot values are inserted once and never scanned for slots themselves.
//   - A missing instruction is empty; LazyLLM 2406 writes "None".
//   - A value holding one of the markers of the string form (the input, a
//     slot's value, a history message: "\n<|Assistant|>:\n", "<|im_end|>")
//     would forge a turn; Prompt refuses it (ErrMarker) unless
//     AllowMarkers, where LazyLLM writes it. The instruction is the
//     caller's and may hold them.
//   - History pairs are [2]string, so a pair cannot have three items; a lone
//     question is a user message (History), rendered in both forms
//     (LazyLLM fails in the string form).
//   - Tool calls in string history are written as JSON
//     ({"name": …, "arguments": …}, or name CallArgs arguments with tool
//     markers) and tool results as their text; LazyLLM writes Python reprs
//     and JSON5. As in LazyLLM, system (and developer) messages in history
//     have no place in the string form and are left out.
//   - The skills text is placed after the instruction in the Alpaca string
//     form too (LazyLLM drops it there).
//   - Errors replace LazyLLM's assertions: unexpected keys are listed
//     sorted; an extra key must be a word.
//
// Not reproduced: callable (dynamic) tools and skills, pre-hooks, and the
// per-model tables beyond QwenMarkers and Llama3Markers.
package prompter
