package format

import (
	"fmt"

	"github.com/ardanlabs/jinja"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/internal/pyjson"
)

// messagesValue converts a conversation to transformers' message shape:
//
//	{"role": …, "content": …, "name": …, "tool_calls": [{"id": …,
//	 "type": "function", "function": {"name": …, "arguments": {…}}}],
//	 "tool_call_id": …}
//
// content is a string when the message holds at most one text part, and a
// list of parts otherwise: {"type": "text", "text": …} and
// {"type": "image"|"audio"|"file", "url": …} (with "mime_type" and "detail"
// when set). name, tool_calls and tool_call_id are present only when set.
// A tool call's arguments are the JSON mapping they hold (transformers
// expects a mapping); arguments that are not JSON are passed as their text.
func messagesValue(msgs []chat.Message) (jinja.Value, error) {
	return messagesProbe(msgs, nil)
}

// probeValues are the sentinel strings a probe rendering puts in place of
// list contents and of tool call arguments (see sourceInfo.check).
type probeValues struct {
	content, arguments string
}

// messagesProbe is messagesValue with the values probe names replaced.
func messagesProbe(msgs []chat.Message, probe *probeValues) (jinja.Value, error) {
	items := make([]jinja.Value, len(msgs))
	for i := range msgs {
		v, err := messageValue(&msgs[i], probe)
		if err != nil {
			return jinja.Undefined(), fmt.Errorf("message %d: %w", i, err)
		}
		items[i] = v
	}
	return jinja.NewList(items), nil
}

func messageValue(m *chat.Message, probe *probeValues) (jinja.Value, error) {
	d := newDict(5)
	dd := d.AsDict()
	dd.Set("role", jinja.NewString(string(m.Role)))
	switch {
	case probe != nil && probe.content != "" && !m.TextOnly():
		dd.Set("content", jinja.NewString(probe.content))
	case m.TextOnly():
		dd.Set("content", jinja.NewString(m.Text()))
	default:
		parts := make([]jinja.Value, len(m.Content))
		for i, p := range m.Content {
			pd := newDict(4)
			pdd := pd.AsDict()
			pdd.Set("type", jinja.NewString(string(p.Type)))
			if p.Type == chat.PartText {
				pdd.Set("text", jinja.NewString(p.Text))
			} else {
				pdd.Set("url", jinja.NewString(p.URL))
				if p.MediaType != "" {
					pdd.Set("mime_type", jinja.NewString(p.MediaType))
				}
				if p.Detail != "" {
					pdd.Set("detail", jinja.NewString(p.Detail))
				}
			}
			parts[i] = pd
		}
		dd.Set("content", jinja.NewList(parts))
	}
	if m.Name != "" {
		dd.Set("name", jinja.NewString(m.Name))
	}
	if len(m.ToolCalls) > 0 {
		calls := make([]jinja.Value, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			args, err := argumentsValue(c.Arguments)
			if err != nil {
				return jinja.Undefined(), fmt.Errorf("tool call %s: %w", c.Name, err)
			}
			if probe != nil && probe.arguments != "" && (args.IsDict() || args.IsList()) {
				args = jinja.NewString(probe.arguments)
			}
			fn := newDict(2)
			fn.AsDict().Set("name", jinja.NewString(c.Name))
			fn.AsDict().Set("arguments", args)
			call := newDict(3)
			if c.ID != "" {
				call.AsDict().Set("id", jinja.NewString(c.ID))
			}
			call.AsDict().Set("type", jinja.NewString("function"))
			call.AsDict().Set("function", fn)
			calls[i] = call
		}
		dd.Set("tool_calls", jinja.NewList(calls))
	}
	if m.ToolCallID != "" {
		dd.Set("tool_call_id", jinja.NewString(m.ToolCallID))
	}
	return d, nil
}

func argumentsValue(raw []byte) (jinja.Value, error) {
	if len(raw) == 0 {
		return newDict(0), nil
	}
	pv, err := pyjson.Parse(raw)
	if err != nil {
		return jinja.NewString(string(raw)), nil
	}
	return jinjaValue(&pv)
}

// toolsValue converts tool definitions to transformers' form:
// {"type": "function", "function": {"name": …, "description": …,
// "parameters": {…}}}, description and parameters only when set.
func toolsValue(tools []chat.Tool) (jinja.Value, error) {
	items := make([]jinja.Value, len(tools))
	for i, t := range tools {
		fn := newDict(3)
		fn.AsDict().Set("name", jinja.NewString(t.Name))
		if t.Description != "" {
			fn.AsDict().Set("description", jinja.NewString(t.Description))
		}
		if len(t.Parameters) > 0 {
			pv, err := pyjson.Parse(t.Parameters)
			if err != nil {
				return jinja.Undefined(), fmt.Errorf("tool %s: parameters: %w", t.Name, err)
			}
			jv, err := jinjaValue(&pv)
			if err != nil {
				return jinja.Undefined(), fmt.Errorf("tool %s: parameters: %w", t.Name, err)
			}
			fn.AsDict().Set("parameters", jv)
		}
		d := newDict(2)
		d.AsDict().Set("type", jinja.NewString("function"))
		d.AsDict().Set("function", fn)
		items[i] = d
	}
	return jinja.NewList(items), nil
}
