// Package anthropic connects rolemark's messages to the official Anthropic
// Go client, github.com/anthropics/anthropic-sdk-go: messages, tools and
// request settings become the client's MessageNewParams, and a reply
// becomes a chat.Message that a tool loop can append to its history.
//
// The conversion goes through the request body chat.AnthropicBody writes,
// read back by the client's own JSON decoding, so the client sends what
// chat.AnthropicBody describes (the system prompt and each tool result's
// text as one text block);
// model parameters the client has no field for travel as its extra fields.
package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go"

	"github.com/rolemark/rolemark/chat"
)

// Params returns the whole request for Messages.New: the messages and the
// settings' model, parameters (max_tokens is required), tools, tool choice
// and output (see chat.AnthropicBody, whose errors it returns).
func Params(msgs []chat.Message, s chat.Settings) (anthropic.MessageNewParams, error) {
	var p anthropic.MessageNewParams
	body, err := chat.AnthropicBody(msgs, s)
	if err != nil {
		return p, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		return p, err
	}
	system := members["system"]
	delete(members, "system")
	rest, err := json.Marshal(members)
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(rest, &p); err != nil {
		return p, fmt.Errorf("anthropic: decoding the request: %w", err)
	}
	if system != nil {
		var text string
		if err := json.Unmarshal(system, &text); err != nil {
			return p, err
		}
		p.System = []anthropic.TextBlockParam{{Text: text}}
	}
	extra := map[string]any{}
	for k, v := range members {
		switch k {
		case "model", "max_tokens", "messages", "tools", "tool_choice", "output_config":
		default:
			extra[k] = v
		}
	}
	if len(extra) > 0 {
		p.SetExtraFields(extra)
	}
	return p, nil
}

// Messages converts messages to the client's system prompt and messages,
// as chat.ToAnthropic does: system and developer messages make the system
// prompt, tool results travel in user messages, and messages of one role in
// a row are merged.
func Messages(msgs []chat.Message) ([]anthropic.TextBlockParam, []anthropic.MessageParam, error) {
	req, err := chat.ToAnthropic(msgs)
	if err != nil {
		return nil, nil, err
	}
	var system []anthropic.TextBlockParam
	if req.System != "" {
		system = []anthropic.TextBlockParam{{Text: req.System}}
	}
	out := make([]anthropic.MessageParam, len(req.Messages))
	for i, m := range req.Messages {
		b, err := json.Marshal(m)
		if err != nil {
			return nil, nil, err
		}
		if err := json.Unmarshal(b, &out[i]); err != nil {
			return nil, nil, fmt.Errorf("anthropic: message %d: %w", i+1, err)
		}
	}
	return system, out, nil
}

// Tools converts tools to the client's custom tools; a tool without
// parameters gets the empty object schema the API requires.
func Tools(tools []chat.Tool) ([]anthropic.ToolUnionParam, error) {
	out := make([]anthropic.ToolUnionParam, len(tools))
	for i, t := range tools {
		tp := anthropic.ToolParam{Name: t.Name, InputSchema: anthropic.ToolInputSchemaParam{Properties: map[string]any{}}}
		if t.Description != "" {
			tp.Description = anthropic.String(t.Description)
		}
		if len(t.Parameters) > 0 {
			if err := json.Unmarshal(t.Parameters, &tp.InputSchema); err != nil {
				return nil, fmt.Errorf("anthropic: tool %q: parameters: %w", t.Name, err)
			}
		}
		out[i] = anthropic.ToolUnionParam{OfTool: &tp}
	}
	return out, nil
}

// Reply converts a reply to an assistant chat.Message: each text block is a
// text part and each tool_use block a tool call, in order. Other blocks
// (thinking, server tool results) have no chat form and are errors, so that
// nothing is dropped unseen.
func Reply(m *anthropic.Message) (chat.Message, error) {
	if m == nil {
		return chat.Message{}, errors.New("anthropic: no reply")
	}
	msg := chat.Message{Role: chat.RoleAssistant}
	for i, b := range m.Content {
		switch b.Type {
		case "text":
			if b.Text != "" {
				msg.Content = append(msg.Content, chat.TextPart(b.Text))
			}
		case "tool_use":
			args := b.Input
			if len(args) == 0 {
				args = json.RawMessage("{}")
			}
			msg.ToolCalls = append(msg.ToolCalls, chat.ToolCall{ID: b.ID, Name: b.Name, Arguments: append(json.RawMessage(nil), args...)})
		default:
			return chat.Message{}, fmt.Errorf("anthropic: content block %d is %q, which has no chat form", i+1, b.Type)
		}
	}
	return msg, nil
}
