// Package chat is rolemark's message model: the roles, messages, parts, tool
// calls and tools that every template engine renders to and every output
// format reads from.
//
// A Message marshals to the OpenAI chat-completions wire form with
// encoding/json and reads it back; ToAnthropic converts a conversation to the
// Anthropic Messages API shape. OpenAIBody and AnthropicBody build a whole
// request body from messages and Settings (model, parameters, tools, tool
// choice, output); what a target cannot carry is a *RequestError naming it.
// AppendOpenAIBody and AppendAnthropicBody append the same bodies to a
// buffer, for a caller writing one request per line.
package chat

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Role is the author of a message. Roles are lower case.
type Role string

// The roles every part of rolemark knows.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
	RoleDeveloper Role = "developer"
)

// PartType says what a Part holds.
type PartType string

// The kinds of content part.
const (
	PartText  PartType = "text"
	PartImage PartType = "image"
	PartAudio PartType = "audio"
	PartFile  PartType = "file"
)

// Part is one piece of a message's content: text, or a media item referenced
// by URL or carried inline as a data: URI.
type Part struct {
	Type PartType
	// Text is the text of a PartText part.
	Text string
	// URL locates a media part: an http(s) URL or a data: URI (see DataURI).
	URL string
	// MediaType is the media part's MIME type, such as "image/png". Optional.
	MediaType string
	// Detail is the image detail hint ("low", "high", "auto"). Optional.
	Detail string
}

// TextPart returns a text part.
func TextPart(s string) Part { return Part{Type: PartText, Text: s} }

// ToolCall is an assistant's request to call a tool.
type ToolCall struct {
	ID   string
	Name string
	// Arguments is the JSON text of the arguments, as the model wrote it.
	Arguments json.RawMessage
}

// NewToolCall returns the tool call a model's reply makes, with the
// arguments as the model wrote them: JSON, or empty. Arguments that are not
// JSON are an *ArgumentsError.
func NewToolCall(id, name, arguments string) (ToolCall, error) {
	args := json.RawMessage(arguments)
	if len(args) > 0 && !json.Valid(args) {
		return ToolCall{}, &ArgumentsError{ID: id, Arguments: arguments}
	}
	return ToolCall{ID: id, Name: name, Arguments: args}, nil
}

// ArgumentsError is a tool call whose arguments are not valid JSON. Its
// message quotes only their first 80 characters (and their length) when
// they are longer, since a model's arguments may be megabytes; a package
// returning it puts its name before it.
type ArgumentsError struct {
	ID        string
	Arguments string
}

func (e *ArgumentsError) Error() string {
	q := fmt.Sprintf("%.80q", e.Arguments)
	if utf8.RuneCountInString(e.Arguments) > 80 {
		q += fmt.Sprintf("… (%d bytes)", len(e.Arguments))
	}
	return fmt.Sprintf("tool call %q: arguments are not valid JSON: %s", e.ID, q)
}

// Tool describes a function the model may call.
type Tool struct {
	Name        string
	Description string
	// Parameters is a JSON Schema object describing the arguments. Optional.
	Parameters json.RawMessage
}

// Message is one chat message.
type Message struct {
	Role Role
	// Name distinguishes participants that share a role. Optional.
	Name string
	// Content holds the message's parts in order. A message whose content is
	// a single text part is "text only" and marshals its content as a string.
	Content []Part
	// ToolCalls are the tool calls of an assistant message.
	ToolCalls []ToolCall
	// ToolCallID names the call a tool message answers.
	ToolCallID string
}

// Text returns the concatenated text of the message's text parts.
func (m Message) Text() string {
	if len(m.Content) == 1 && m.Content[0].Type == PartText {
		return m.Content[0].Text
	}
	var b strings.Builder
	for _, p := range m.Content {
		if p.Type == PartText {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// TextOnly reports whether the message's content is at most one text part.
func (m Message) TextOnly() bool {
	return len(m.Content) == 0 || (len(m.Content) == 1 && m.Content[0].Type == PartText)
}

// Text returns a message of the given role holding one text part (or no
// parts, when s is empty).
func Text(role Role, s string) Message {
	if s == "" {
		return Message{Role: role}
	}
	return Message{Role: role, Content: []Part{TextPart(s)}}
}
