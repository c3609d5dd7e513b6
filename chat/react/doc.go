// Package react is ReAct tool use as Qwen (1.0) does it: tools described in
// a text instruction, the model answering in "Thought: / Action: / Action
// Input:" lines, generation stopped at "Observation:", the tool's result
// appended as an observation, until a "Final Answer:".
//
// The pieces, each matching Qwen's published code byte for byte:
//
//   - Tool describes a tool with Qwen's fields and reads OpenAI function
//     definitions too; Describe, Instruction and Prompt write the
//     instruction in one of Qwen's three texts (Variant).
//   - Convert turns an OpenAI-style conversation (assistant tool calls,
//     tool results) into the user and assistant messages a ReAct model
//     reads, as Qwen's openai_api.py does; any chat format renders them.
//   - ParseReply reads a reply back into a tool call or a final answer.
//     Replies it cannot use come back as *FormatError, *UnknownToolError or
//     *ArgumentsError, whose messages are written for the model to read as
//     an observation.
//   - StopWords and Cut stop a reply at "Observation:"; StopWriter stops a
//     streamed one.
//   - Run is the whole loop over a caller's model and tools.
//
// Where Qwen's code behaves oddly this package does the same, so that a
// model trained on Qwen's prompts sees exactly those prompts: a reply is
// read only from its second line on ("Action:" and "Final Answer:" count
// only after a newline), earlier plain assistant replies are rewritten as
// "Thought: I now know the final answer.\nFinal Answer: …" (with a period
// the instruction itself lacks), and the instruction goes into the last
// user message that already has an answer, not into the newest question.
//
// The markers are prose, as in Qwen's code: a question or a tool's output
// holding "Final Answer:" is written as it is, and only the model's reply is
// parsed, so such text neither ends a run nor calls a tool.
package react
