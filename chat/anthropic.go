package chat

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// AnthropicRequest is the part of an Anthropic Messages API request that a
// conversation determines: the system prompt and the messages.
type AnthropicRequest struct {
	System   string             `json:"system,omitempty"`
	Messages []AnthropicMessage `json:"messages"`
}

// AnthropicMessage is one message of the Anthropic Messages API.
type AnthropicMessage struct {
	Role    string           `json:"role"`
	Content []AnthropicBlock `json:"content"`
}

// AnthropicBlock is one content block: text, image, document, tool_use or
// tool_result.
type AnthropicBlock struct {
	Type      string           `json:"type"`
	Text      string           `json:"text,omitempty"`
	Source    *AnthropicSource `json:"source,omitempty"`
	ID        string           `json:"id,omitempty"`
	Name      string           `json:"name,omitempty"`
	Input     json.RawMessage  `json:"input,omitempty"`
	ToolUseID string           `json:"tool_use_id,omitempty"`
	Content   string           `json:"content,omitempty"`
}

// AnthropicSource is where an image or document block's data comes from.
type AnthropicSource struct {
	Type      string `json:"type"` // "url", "base64", or "text" (a plain-text document)
	URL       string `json:"url,omitempty"`
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
}

// ToAnthropic converts a conversation to the Anthropic Messages API shape.
// System and developer messages are joined, in order, with a blank line
// between them into the request's system prompt; assistant tool calls become
// tool_use blocks and tool messages become tool_result blocks in a user
// message, ahead of that message's other blocks; consecutive messages of the
// same role are merged, as the API requires. Empty text parts, and messages left with nothing to send, are
// dropped: the API rejects empty text blocks. Audio has no Anthropic form and
// is an error. A message's participant name (Message.Name) and an image's
// Detail have no field in the Messages API and are not sent, so that a
// template written for OpenAI, whose API takes both, renders for Anthropic
// too; a caller who needs the name puts it in the text.
func ToAnthropic(msgs []Message) (AnthropicRequest, error) {
	var req AnthropicRequest
	var system []string
	for i, m := range msgs {
		role := "user"
		var blocks []AnthropicBlock
		switch m.Role {
		case RoleSystem, RoleDeveloper:
			if !m.TextOnly() {
				return req, fmt.Errorf("chat: message %d: an Anthropic system prompt holds text only", i+1)
			}
			if t := m.Text(); t != "" {
				system = append(system, t)
			}
			continue
		case RoleUser:
		case RoleAssistant:
			role = "assistant"
		case RoleTool:
			if m.ToolCallID == "" {
				return req, fmt.Errorf("chat: message %d: a tool message needs the tool_call_id it answers", i+1)
			}
			blocks = append(blocks, AnthropicBlock{Type: "tool_result", ToolUseID: m.ToolCallID, Content: m.Text()})
			if !m.TextOnly() {
				return req, fmt.Errorf("chat: message %d: tool results hold text only", i+1)
			}
		default:
			return req, fmt.Errorf("chat: message %d: role %q has no Anthropic form", i+1, m.Role)
		}
		if m.Role != RoleTool {
			for _, p := range m.Content {
				if p.Type == PartText && p.Text == "" {
					continue // Anthropic rejects empty text blocks
				}
				b, err := anthropicBlock(p)
				if err != nil {
					return req, fmt.Errorf("chat: message %d: %w", i+1, err)
				}
				blocks = append(blocks, b)
			}
		}
		for _, tc := range m.ToolCalls {
			input := tc.Arguments
			if len(input) == 0 {
				input = json.RawMessage("{}")
			}
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(input, &obj); err != nil || obj == nil {
				return req, fmt.Errorf("chat: message %d: tool call %q: Anthropic needs the arguments as a JSON object, not %s", i+1, tc.ID, input)
			}
			blocks = append(blocks, AnthropicBlock{Type: "tool_use", ID: tc.ID, Name: tc.Name, Input: input})
		}
		if len(blocks) == 0 {
			continue // nothing to send; an empty text block would be rejected
		}
		if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == role {
			req.Messages[n-1].Content = append(req.Messages[n-1].Content, blocks...)
			continue
		}
		req.Messages = append(req.Messages, AnthropicMessage{Role: role, Content: blocks})
	}
	for _, m := range req.Messages {
		if m.Role == "user" {
			toolResultsFirst(m.Content)
		}
	}
	req.System = strings.Join(system, "\n\n")
	if req.Messages == nil {
		req.Messages = []AnthropicMessage{}
	}
	return req, nil
}

// toolResultsFirst moves the tool_result blocks of a user message before its
// other blocks, keeping the order within each group: the API requires a
// user message's tool results to come first.
func toolResultsFirst(blocks []AnthropicBlock) {
	sort.SliceStable(blocks, func(i, j int) bool {
		return blocks[i].Type == "tool_result" && blocks[j].Type != "tool_result"
	})
}

func anthropicBlock(p Part) (AnthropicBlock, error) {
	switch p.Type {
	case PartText:
		return AnthropicBlock{Type: "text", Text: p.Text}, nil
	case PartImage, PartFile:
		typ := "image"
		if p.Type == PartFile {
			typ = "document"
		}
		if mt, data, ok := ParseDataURI(p.URL); ok {
			if p.MediaType != "" && !hasDataURIMediaType(p.URL) {
				mt = p.MediaType
			}
			if typ == "image" && !strings.HasPrefix(mt, "image/") {
				// The part is an image because its MediaType says so
				// (media() chooses by it); the API takes an image type.
				if !strings.HasPrefix(p.MediaType, "image/") {
					return AnthropicBlock{}, fmt.Errorf("image of media type %s: Anthropic takes an image/… type", mt)
				}
				mt = p.MediaType
			}
			if typ == "document" && mt == "text/plain" {
				// Plain-text documents travel as text, not base64.
				return AnthropicBlock{Type: typ, Source: &AnthropicSource{Type: "text", MediaType: mt,
					Data: string(data)}}, nil
			}
			return AnthropicBlock{Type: typ, Source: &AnthropicSource{Type: "base64", MediaType: mt,
				Data: base64Std(data)}}, nil
		}
		return AnthropicBlock{Type: typ, Source: &AnthropicSource{Type: "url", URL: p.URL}}, nil
	}
	return AnthropicBlock{}, fmt.Errorf("%s parts have no Anthropic form", p.Type)
}

func base64Std(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// hasDataURIMediaType reports whether the data: URI s names its media type.
func hasDataURIMediaType(s string) bool {
	rest := strings.TrimPrefix(s, "data:")
	return rest != "" && rest[0] != ';' && rest[0] != ','
}
