// Package openai connects rolemark's messages to the official OpenAI Go
// client, github.com/openai/openai-go: messages, tools and request settings
// become the client's request types, and a completion's reply becomes a
// chat.Message that a tool loop can append to its history.
//
// The conversion goes through the OpenAI wire form that chat writes
// (chat.OpenAIBody), read back by the client's own JSON decoding, so the
// request the client sends is the one chat.OpenAIBody describes, parameter
// for parameter; parameters the client has no field for travel as its extra
// fields. (The client leaves out the "content": null of an assistant
// message that only calls tools; the API reads the two alike.)
package openai

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/openai/openai-go/v3"

	"github.com/rolemark/rolemark/chat"
)

// Params returns the whole request for Chat.Completions.New: the messages
// and the settings' model, parameters, tools, tool choice and output (see
// chat.OpenAIBody, whose errors it returns). The client sends the body
// chat.OpenAIBody writes, member for member; model parameters are also set
// as the client's extra fields, so that one the client has no field for
// reaches the server too.
func Params(msgs []chat.Message, s chat.Settings) (openai.ChatCompletionNewParams, error) {
	var p openai.ChatCompletionNewParams
	body, err := chat.OpenAIBody(msgs, s)
	if err != nil {
		return p, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		return p, err
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return p, fmt.Errorf("openai: decoding the request: %w", err)
	}
	if p.Messages, err = Messages(msgs); err != nil {
		return p, err
	}
	if p.Tools, err = Tools(s.Tools); err != nil {
		return p, err
	}
	switch tc := s.ToolChoice; tc {
	case "":
		p.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{}
	case chat.ToolAuto, chat.ToolNone, chat.ToolRequired:
		p.ToolChoice = openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String(string(tc))}
	default:
		p.ToolChoice = openai.ToolChoiceOptionFunctionToolChoice(openai.ChatCompletionNamedToolChoiceFunctionParam{Name: string(tc)})
	}
	extra := map[string]any{}
	for k, v := range members {
		switch k {
		case "model", "messages", "tools", "tool_choice":
		default:
			extra[k] = v
		}
	}
	if len(extra) > 0 {
		p.SetExtraFields(extra)
	}
	return p, nil
}

// Messages converts messages to the client's message parameters.
func Messages(msgs []chat.Message) ([]openai.ChatCompletionMessageParamUnion, error) {
	return convert[openai.ChatCompletionMessageParamUnion](msgs, func(i int, _ chat.Message) string {
		return fmt.Sprintf("message %d", i+1)
	})
}

// Tools converts tools to the client's function tools.
func Tools(tools []chat.Tool) ([]openai.ChatCompletionToolUnionParam, error) {
	return convert[openai.ChatCompletionToolUnionParam](tools, func(_ int, t chat.Tool) string {
		return fmt.Sprintf("tool %q", t.Name)
	})
}

// convert converts each of in to the client's type P through its JSON,
// which is the same on both sides; an error names the item as what says.
// A member of the item's JSON that the client's type has no field for is
// an error naming it, rather than dropped (a null one excepted: the client
// leaves out the null content of a message that only calls tools). None in
// is nil, which the client leaves out of the request (an empty tools array
// is a request the API refuses).
func convert[P, T any](in []T, what func(i int, x T) string) ([]P, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make([]P, len(in))
	for i, x := range in {
		b, err := json.Marshal(x)
		if err == nil {
			err = json.Unmarshal(b, &out[i])
		}
		if err == nil {
			err = dropped(b, out[i])
		}
		if err != nil {
			return nil, fmt.Errorf("openai: %s: %w", what(i, x), err)
		}
	}
	return out, nil
}

// dropped reports a member of the JSON object b (at the top or in an
// object it holds) that the client's param p does not write back.
func dropped(b []byte, p any) error {
	sent, err := json.Marshal(p)
	if err != nil {
		return err
	}
	var want, got any
	if json.Unmarshal(b, &want) != nil || json.Unmarshal(sent, &got) != nil {
		return nil
	}
	if name := lost(want, got); name != "" {
		return fmt.Errorf("the client has no field for %q: it would drop it", name)
	}
	return nil
}

// lost returns the name of a non-null member of want missing from got, in
// want's objects and arrays, or "".
func lost(want, got any) string {
	switch w := want.(type) {
	case map[string]any:
		g, _ := got.(map[string]any)
		for k, v := range w {
			if v == nil {
				continue
			}
			gv, ok := g[k]
			if !ok {
				return k
			}
			if n := lost(v, gv); n != "" {
				return n
			}
		}
	case []any:
		g, _ := got.([]any)
		for i, v := range w {
			if i >= len(g) {
				return "item"
			}
			if n := lost(v, g[i]); n != "" {
				return n
			}
		}
	}
	return ""
}

// Reply returns the message of a completion's first choice.
func Reply(c *openai.ChatCompletion) (chat.Message, error) {
	if c == nil || len(c.Choices) == 0 {
		return chat.Message{}, errors.New("openai: the completion has no choices")
	}
	return Message(c.Choices[0].Message)
}

// Message converts a reply message to an assistant chat.Message: its text
// and its function tool calls. A refusal, which the API sends instead of
// content, becomes the message's text. Custom (non-function) tool calls and
// audio replies have no chat form and are errors.
func Message(m openai.ChatCompletionMessage) (chat.Message, error) {
	text := m.Content
	if text == "" {
		text = m.Refusal
	}
	msg := chat.Text(chat.RoleAssistant, text)
	if m.Audio.ID != "" || m.Audio.Data != "" {
		return chat.Message{}, errors.New("openai: audio replies have no chat form")
	}
	for _, tc := range m.ToolCalls {
		if tc.Type != "function" {
			return chat.Message{}, fmt.Errorf("openai: tool call %q has type %q; only function calls have a chat form", tc.ID, tc.Type)
		}
		call, err := chat.NewToolCall(tc.ID, tc.Function.Name, tc.Function.Arguments)
		if err != nil {
			return chat.Message{}, fmt.Errorf("openai: %w", err)
		}
		msg.ToolCalls = append(msg.ToolCalls, call)
	}
	return msg, nil
}
