package tokens

import "github.com/rolemark/rolemark/chat"

// OpenAI's chat overhead, as its cookbook ("How to count tokens with
// tiktoken", num_tokens_from_messages) documents it for the GPT-3.5-turbo
// (0613 and later), GPT-4 and GPT-4o families: every message costs three
// tokens besides its values, a name one more, and the reply is primed with
// three (<|start|>assistant<|message|>).
const (
	TokensPerMessage = 3
	TokensPerName    = 1
	TokensPerReply   = 3
)

// CountChat counts the prompt tokens of messages as OpenAI's cookbook
// does: for each message TokensPerMessage, the tokens of its role, its
// text and its name (and TokensPerName with a name), then TokensPerReply.
// The cookbook covers text messages only; CountChat also counts a tool
// message's call id and the name and arguments of each tool call as text,
// an estimate. Images, audio and files are not counted: OpenAI prices them
// apart from the tokenizer.
func CountChat(t *Tokenizer, messages []chat.Message) int {
	n := 0
	for _, m := range messages {
		n += CountMessage(t, m)
	}
	return n + TokensPerReply
}

// CountMessage counts one message as CountChat does, without the reply's
// priming.
func CountMessage(t *Tokenizer, m chat.Message) int {
	n := TokensPerMessage + t.Count(string(m.Role))
	for _, p := range m.Content {
		if p.Type == chat.PartText {
			n += t.Count(p.Text)
		}
	}
	if m.Name != "" {
		n += t.Count(m.Name) + TokensPerName
	}
	if m.ToolCallID != "" {
		n += t.Count(m.ToolCallID)
	}
	for _, c := range m.ToolCalls {
		n += t.Count(c.Name) + t.Count(string(c.Arguments))
	}
	return n
}
