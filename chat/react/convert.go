package react

import (
	"fmt"
	"strings"

	"github.com/rolemark/rolemark/chat"
)

// DefaultSystem is the system message Convert gives a conversation that
// starts without one, as Qwen does.
const DefaultSystem = "You are a helpful assistant."

// A ConversationError is a conversation that Convert cannot express as a
// ReAct exchange, such as a tool result that follows no assistant message.
type ConversationError struct {
	// Index is the position in the input of the message at fault, or -1
	// when the fault is in the conversation as a whole.
	Index int
	// Reason says what was expected.
	Reason string
}

func (e *ConversationError) Error() string {
	if e.Index < 0 {
		return "react: conversation: " + e.Reason
	}
	return fmt.Sprintf("react: message %d: %s", e.Index+1, e.Reason)
}

// Convert rewrites an OpenAI-style conversation, with assistant tool calls
// and tool results, into the conversation a ReAct model reads, the way Qwen's
// openai_api.py (parse_messages) does:
//
//   - The result starts with a system message: the input's first message
//     when it is a system (or developer) message, DefaultSystem otherwise.
//   - Every text is cut of leading newlines and trailing white space.
//   - An assistant tool call becomes "Thought: …\nAction: NAME\nAction Input:
//     ARGS" (the arguments as written), a tool result "\nObservation: …"
//     appended to it; steps of one turn join into one assistant message
//     separated by "\n". When the conversation ends with a tool result,
//     "\nThought:" is added for the model to continue from.
//   - With tools, a plain assistant message becomes "Thought: I now know the
//     final answer.\nFinal Answer: …" (except in VariantDemo, which keeps it
//     as written).
//   - The instruction (see Instruction), then "\n\nQuestion: ", is put before
//     the text of one user message: the last one that an assistant message
//     answers, or else the last one. Without tools there is no instruction.
//
// The result alternates user and assistant messages after the system
// message. When it ends with a user message the model answers it; when it
// ends with an assistant message the model continues that message's text
// (the prompt leaves it open), as Qwen does when the input ends with a tool
// result or an assistant message.
//
// An assistant message with several tool calls is taken as one step per
// call, each followed by its result (matched by ToolCallID, else in order).
// Only the text parts of a message are read. The errors are those of Qwen's
// bridge, as *ConversationError: no user message, an assistant or tool
// message with nothing to follow, two user messages in a row, a role other
// than system first, user, assistant and tool.
func Convert(v Variant, tools []Tool, msgs []chat.Message) ([]chat.Message, error) {
	v = v.orDefault()
	hasUser := false
	for _, m := range msgs {
		hasUser = hasUser || m.Role == chat.RoleUser
	}
	if !hasUser {
		return nil, &ConversationError{Index: -1, Reason: "expecting at least one user message"}
	}
	system, start := DefaultSystem, 0
	if r := msgs[0].Role; r == chat.RoleSystem || r == chat.RoleDeveloper {
		system, start = pyTrimMessage(msgs[0].Text()), 1
	}
	instruction := ""
	if len(tools) > 0 {
		instruction = pyTrimMessage(Instruction(v, tools))
	}
	wrap := len(tools) > 0 && v != VariantDemo

	out, err := merge(flatten(msgs, start), wrap)
	if err != nil {
		return nil, err
	}

	var query *string
	if last := out[len(out)-1]; last.role == chat.RoleUser {
		query = &last.text
		out = out[:len(out)-1]
	}
	if len(out)%2 != 0 {
		return nil, &ConversationError{Index: out[len(out)-1].index, Reason: "expecting exactly one user message before every assistant message"}
	}
	res := make([]chat.Message, 0, len(out)+2)
	res = append(res, chat.Text(chat.RoleSystem, system))
	for i := 0; i < len(out); i += 2 {
		u, a := out[i], out[i+1]
		if u.role != chat.RoleUser || a.role != chat.RoleAssistant {
			return nil, &ConversationError{Index: u.index, Reason: "expecting exactly one user message before every assistant message"}
		}
		ut := pyTrimMessage(u.text)
		if instruction != "" && i == len(out)-2 {
			ut = instruction + "\n\nQuestion: " + ut
			instruction = ""
		}
		res = append(res, chat.Text(chat.RoleUser, ut), chat.Text(chat.RoleAssistant, pyTrimMessage(a.text)))
	}
	if query != nil {
		q := *query
		if instruction != "" {
			q = instruction + "\n\nQuestion: " + q
		}
		res = append(res, chat.Text(chat.RoleUser, q))
	}
	return res, nil
}

// merge turns the steps into Qwen's messages: a tool result appended to
// the assistant message of its call, the steps of one assistant turn
// joined, and with wrap a plain answer written as a final answer.
func merge(steps []qmsg, wrap bool) ([]qmsg, error) {
	var out []qmsg
	for n, s := range steps {
		content := pyTrimMessage(s.text)
		switch s.role {
		case chat.RoleTool:
			if len(out) == 0 || out[len(out)-1].role != chat.RoleAssistant {
				return nil, &ConversationError{Index: s.index, Reason: "expecting an assistant message before a tool message"}
			}
			out[len(out)-1].text += "\nObservation: " + content
			if n == len(steps)-1 {
				out[len(out)-1].text += "\nThought:"
			}
		case chat.RoleAssistant:
			if len(out) == 0 {
				return nil, &ConversationError{Index: s.index, Reason: "expecting a user message before an assistant message"}
			}
			if s.call == nil {
				if wrap {
					content = "Thought: I now know the final answer.\nFinal Answer: " + content
				}
			} else {
				if !strings.HasPrefix(content, "Thought:") {
					content = "Thought: " + content
				}
				content += "\nAction: " + s.call.Name + "\nAction Input: " + string(s.call.Arguments)
			}
			if out[len(out)-1].role == chat.RoleUser {
				out = append(out, qmsg{role: chat.RoleAssistant, text: pyTrimMessage(content), index: s.index})
			} else {
				out[len(out)-1].text += "\n" + content
			}
		case chat.RoleUser:
			out = append(out, qmsg{role: chat.RoleUser, text: content, index: s.index})
		default:
			return nil, &ConversationError{Index: s.index, Reason: fmt.Sprintf("incorrect role %q", s.role)}
		}
	}
	return out, nil
}

// qmsg is a message of Qwen's bridge while it is being built.
type qmsg struct {
	role  chat.Role
	text  string
	call  *chat.ToolCall
	index int // in the input
}

// flatten lists the messages from start on as Qwen's bridge reads them: one
// tool call per assistant message, each followed by its result.
func flatten(msgs []chat.Message, start int) []qmsg {
	var out []qmsg
	for i := start; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role != chat.RoleAssistant || len(m.ToolCalls) == 0 {
			out = append(out, qmsg{role: m.Role, text: m.Text(), index: i})
			continue
		}
		if len(m.ToolCalls) == 1 {
			out = append(out, qmsg{role: m.Role, text: m.Text(), call: &m.ToolCalls[0], index: i})
			continue
		}
		end := i + 1
		for end < len(msgs) && msgs[end].Role == chat.RoleTool {
			end++
		}
		results := msgs[i+1 : end]
		used := make([]bool, len(results))
		ids := map[string]bool{}
		for _, c := range m.ToolCalls {
			ids[c.ID] = true
		}
		for ci := range m.ToolCalls {
			c := &m.ToolCalls[ci]
			text := ""
			if ci == 0 {
				text = m.Text()
			}
			out = append(out, qmsg{role: chat.RoleAssistant, text: text, call: c, index: i})
			r := -1
			for ri, res := range results {
				if !used[ri] && c.ID != "" && res.ToolCallID == c.ID {
					r = ri
					break
				}
			}
			if r < 0 {
				for ri, res := range results {
					if !used[ri] && (res.ToolCallID == "" || !ids[res.ToolCallID]) {
						r = ri
						break
					}
				}
			}
			if r >= 0 {
				used[r] = true
				out = append(out, qmsg{role: chat.RoleTool, text: results[r].Text(), index: i + 1 + r})
			}
		}
		for ri, res := range results {
			if !used[ri] {
				out = append(out, qmsg{role: chat.RoleTool, text: res.Text(), index: i + 1 + ri})
			}
		}
		i = end - 1
	}
	return out
}
