package react

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"

	"github.com/rolemark/rolemark/chat"
)

// Reply is a model's ReAct reply, read with Qwen's rules: either an action
// (ToolCall is set) or a final answer.
type Reply struct {
	// Thought is the text before "Action:" or "Final Answer:", without the
	// leading "Thought: " and trimmed.
	Thought string
	// ToolCall is the action the model asks for, with the arguments as the
	// model wrote them (trimmed) and no ID. Nil for a final answer.
	ToolCall *chat.ToolCall
	// FinalAnswer is the text after the last "\nFinal Answer: ", as written.
	FinalAnswer string
}

// Message returns the reply as an assistant message as Qwen's bridge returns
// it: the thought with the tool call, or the final answer.
func (r Reply) Message() chat.Message {
	if r.ToolCall != nil {
		m := chat.Text(chat.RoleAssistant, r.Thought)
		m.ToolCalls = []chat.ToolCall{*r.ToolCall}
		return m
	}
	return chat.Text(chat.RoleAssistant, r.FinalAnswer)
}

// A FormatError is a reply that is neither an action (a "\nAction:" line
// followed by a "\nAction Input:" line) nor a final answer (a
// "\nFinal Answer: " line). Its message is written to be shown to the model
// as an observation.
type FormatError struct {
	// Reply is the reply as written; Qwen's bridge passes it on as the
	// answer.
	Reply string
}

func (e *FormatError) Error() string {
	return `Invalid format: write "Action:" and "Action Input:" lines to use a tool, or a "Final Answer:" line to answer.`
}

// An UnknownToolError is an action that names a tool the model was not
// given. Its message is written to be shown to the model as an observation.
type UnknownToolError struct {
	// Name is the tool the model asked for.
	Name string
	// Known are the names of the tools it was given.
	Known []string
}

func (e *UnknownToolError) Error() string {
	return fmt.Sprintf("%s is not a valid tool, try one of [%s].", e.Name, strings.Join(e.Known, ", "))
}

// An ArgumentsError is an action whose input is not valid JSON. Its message
// is written to be shown to the model as an observation.
type ArgumentsError struct {
	// Name is the tool the model asked for.
	Name string
	// Arguments is the action input as the model wrote it.
	Arguments string
	// Err is the JSON syntax error.
	Err error
}

func (e *ArgumentsError) Error() string {
	return fmt.Sprintf("The Action Input for %s is not valid JSON (%v). Format the arguments as a JSON object.", e.Name, e.Err)
}

func (e *ArgumentsError) Unwrap() error { return e.Err }

// ParseReply reads a model's ReAct reply the way Qwen's openai_api.py
// (parse_response) does. It is an action when a "\nAction:" line is followed
// by a "\nAction Input:" line (the first of each): the name is the text
// between them and the arguments run to the first "\nObservation:" or the
// end. Otherwise it is a final answer: the text after the last
// "\nFinal Answer: ". Neither is recognised at the very start of the reply.
//
// When tools is not nil, an action must name one of them
// (*UnknownToolError). The arguments must be valid JSON (*ArgumentsError).
// A reply that is neither an action nor a final answer is a *FormatError,
// returned with a Reply whose FinalAnswer is the whole reply, which is what
// Qwen's bridge answers. With the other errors the Reply holds the action as
// read.
func ParseReply(text string, tools []Tool) (Reply, error) {
	name, args, before, text := firstAction(text)
	if name != "" {
		r := Reply{Thought: thought(before), ToolCall: &chat.ToolCall{Name: name, Arguments: json.RawMessage(args)}}
		if tools != nil && !hasTool(tools, name) {
			known := make([]string, len(tools))
			for i, t := range tools {
				known[i] = t.NameForModel
			}
			return r, &UnknownToolError{Name: name, Known: known}
		}
		if err := checkJSON(args); err != nil {
			return r, &ArgumentsError{Name: name, Arguments: args, Err: err}
		}
		return r, nil
	}
	if z := strings.LastIndex(text, "\nFinal Answer: "); z >= 0 {
		return Reply{Thought: thought(text[:z]), FinalAnswer: text[z+len("\nFinal Answer: "):]}, nil
	}
	return Reply{FinalAnswer: text}, &FormatError{Reply: text}
}

func hasTool(tools []Tool, name string) bool {
	for _, t := range tools {
		if t.NameForModel == name {
			return true
		}
	}
	return false
}

func checkJSON(s string) error {
	var v any
	return json.Unmarshal([]byte(s), &v)
}

// thought removes everything up to and including the first "Thought: " and
// trims the rest.
func thought(s string) string {
	if t := strings.Index(s, "Thought: "); t >= 0 {
		s = s[t+len("Thought: "):]
	}
	return pyStrip(s)
}

// firstAction finds the action of a reply with parse_response's rules. When
// the reply has both action lines, text comes back with "\nObservation:"
// added if the reply lacked it, as parse_response changes it.
func firstAction(reply string) (name, args, before, text string) {
	name, args, text, i, _, ok := actionLines(reply, strings.Index)
	if !ok {
		return "", "", "", reply
	}
	return name, args, text[:i], text
}

// LatestAction finds the last action of a ReAct text the way Qwen's
// react_demo.py (parse_latest_plugin_call) does: the last "\nAction:"
// followed by the last "\nAction Input:", the arguments running to the last
// "\nObservation:" or the end. It returns the tool name, the arguments and
// the text before that "\nObservation:" (the text to which an observation is
// appended). ok is false when no tool is named; rest is then text, or text
// cut as Qwen cuts it when both action lines are there with an empty name.
func LatestAction(text string) (name, args, rest string, ok bool) {
	name, args, text, _, k, found := actionLines(text, strings.LastIndex)
	if !found {
		return "", "", text, false
	}
	return name, args, text[:k], name != ""
}

// actionLines is what Qwen's two parsers share, each finding the lines
// with its own index: strings.Index for parse_response (the first
// action), strings.LastIndex for parse_latest_plugin_call (the last). It
// finds "\nAction:" at i and "\nAction Input:" after it, adds
// "\nObservation:" when none follows the action input, and cuts the tool
// name and the arguments, which run to the "\nObservation:" at k. text
// comes back with the addition; found is false, and text unchanged, when
// the action lines are missing or out of order.
func actionLines(in string, index func(s, sub string) int) (name, args, text string, i, k int, found bool) {
	text = in
	i = index(text, "\nAction:")
	j := index(text, "\nAction Input:")
	if i < 0 || j <= i {
		return "", "", text, 0, 0, false
	}
	if k := index(text, "\nObservation:"); k < j {
		text = pyRStrip(text) + "\nObservation:"
	}
	k = index(text, "\nObservation:")
	name = pyStrip(text[i+len("\nAction:") : j])
	if from := j + len("\nAction Input:"); from < k {
		args = pyStrip(text[from:k])
	}
	return name, args, text, i, k, true
}

// pyIsSpace reports whether Python's str.isspace holds for r.
func pyIsSpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// pyStrip is Python's str.strip().
func pyStrip(s string) string { return strings.TrimFunc(s, pyIsSpace) }

// pyRStrip is Python's str.rstrip().
func pyRStrip(s string) string { return strings.TrimRightFunc(s, pyIsSpace) }

// pyTrimMessage is Qwen's content.lstrip('\n').rstrip().
func pyTrimMessage(s string) string { return pyRStrip(strings.TrimLeft(s, "\n")) }
