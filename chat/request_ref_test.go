package chat

// The request builders as they were before they wrote JSON themselves: a
// tree of values marshalled by encoding/json. FuzzRequestBodies checks the
// direct writers against them byte for byte.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// refOpenAIBody is OpenAIBody as it was.
func refOpenAIBody(msgs []Message, s Settings) ([]byte, error) {
	fail := func(field, format string, args ...any) error {
		return &RequestError{Target: "openai", Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if s.Model == "" {
		return nil, fail("model", "a request needs a model")
	}
	for i, m := range msgs {
		if m.Role == RoleTool && m.ToolCallID == "" {
			return nil, fmt.Errorf("chat: message %d: a tool message needs the tool_call_id it answers", i+1)
		}
		if _, err := refMarshalMessage(m); err != nil {
			return nil, err
		}
	}
	var obj refObject
	obj.add("model", s.Model)
	wire, err := refOpenAIMessages(msgs)
	if err != nil {
		return nil, err
	}
	obj.add("messages", wire)
	if len(s.Tools) > 0 {
		obj.add("tools", s.Tools)
	}
	switch tc := s.ToolChoice; tc {
	case "":
	case ToolAuto, ToolNone, ToolRequired:
		if err := checkToolChoice(s, "openai"); err != nil {
			return nil, err
		}
		obj.add("tool_choice", string(tc))
	default:
		if err := checkToolChoice(s, "openai"); err != nil {
			return nil, err
		}
		var c refObject
		c.add("type", "function")
		c.add("function", map[string]string{"name": string(tc)})
		obj.add("tool_choice", c)
	}
	switch s.Output.Format {
	case "", OutputText:
		if len(s.Output.Schema) > 0 {
			return nil, fail("output.schema", "a schema needs output format json")
		}
	case OutputJSON:
		if len(s.Output.Schema) == 0 {
			obj.add("response_format", map[string]string{"type": "json_object"})
			break
		}
		name := s.Output.Name
		if name == "" {
			name = "output"
		}
		if !schemaNameRE.MatchString(name) {
			return nil, fail("output.name", "%q: OpenAI takes a schema name of letters, digits, _ and -, at most 64", name)
		}
		if !isJSONObject(s.Output.Schema) {
			return nil, fail("output.schema", "must be a JSON object")
		}
		js := refObject{}
		js.add("name", name)
		js.add("schema", s.Output.Schema)
		if s.Output.Strict {
			js.add("strict", true)
		}
		var rf refObject
		rf.add("type", "json_schema")
		rf.add("json_schema", js)
		obj.add("response_format", rf)
	default:
		return nil, fail("output.format", "%q: OpenAI takes text or json", s.Output.Format)
	}
	cfg, err := refConfig(s.Config, "openai", func(p param) string { return p.openai })
	if err != nil {
		return nil, err
	}
	obj = append(obj, cfg...)
	if err := refObject(obj).refDuplicate("openai"); err != nil {
		return nil, err
	}
	b, err := refMarshal(obj)
	if err == nil && len(msgs) == 0 {
		return nil, fail("messages", "the Chat Completions API needs at least one message")
	}
	return b, err
}

// refAnthropicBody is AnthropicBody as it was.
func refAnthropicBody(msgs []Message, s Settings) ([]byte, error) {
	fail := func(field, format string, args ...any) error {
		return &RequestError{Target: "anthropic", Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if s.Model == "" {
		return nil, fail("model", "a request needs a model")
	}
	cfg, err := refConfig(s.Config, "anthropic", func(p param) string { return p.anthropic })
	if err != nil {
		return nil, err
	}
	var obj refObject
	obj.add("model", s.Model)
	i := slices.IndexFunc(cfg, func(f field) bool { return f.key == "max_tokens" })
	if i < 0 {
		return nil, fail("config.max_tokens", "the Messages API needs max_tokens (or maxOutputTokens) in config")
	}
	obj = append(obj, cfg[i])
	cfg = slices.Delete(cfg, i, i+1)
	req, err := ToAnthropic(msgs)
	if err != nil {
		return nil, err
	}
	if req.System != "" {
		obj.add("system", req.System)
	}
	obj.add("messages", req.Messages)
	if len(s.Tools) > 0 {
		tools := make([]refObject, len(s.Tools))
		for i, t := range s.Tools {
			tools[i].add("name", t.Name)
			if t.Description != "" {
				tools[i].add("description", t.Description)
			}
			schema := t.Parameters
			if len(bytes.TrimSpace(schema)) == 0 {
				schema = json.RawMessage(`{"type":"object","properties":{}}`)
			} else if !isJSONObject(schema) {
				return nil, fail("tools", "tool %q parameters must be a JSON object", t.Name)
			}
			tools[i].add("input_schema", schema)
		}
		obj.add("tools", tools)
	}
	switch tc := s.ToolChoice; tc {
	case "":
	case ToolAuto, ToolNone, ToolRequired:
		if err := checkToolChoice(s, "anthropic"); err != nil {
			return nil, err
		}
		typ := string(tc)
		if tc == ToolRequired {
			typ = "any"
		}
		obj.add("tool_choice", map[string]string{"type": typ})
	default:
		if err := checkToolChoice(s, "anthropic"); err != nil {
			return nil, err
		}
		var c refObject
		c.add("type", "tool")
		c.add("name", string(tc))
		obj.add("tool_choice", c)
	}
	switch s.Output.Format {
	case "", OutputText:
		if len(s.Output.Schema) > 0 {
			return nil, fail("output.schema", "a schema needs output format json")
		}
	case OutputJSON:
		if len(s.Output.Schema) == 0 {
			return nil, fail("output.format", "Anthropic has no JSON mode without a schema: give output.schema")
		}
		if !isJSONObject(s.Output.Schema) {
			return nil, fail("output.schema", "must be a JSON object")
		}
		if s.Output.Strict {
			return nil, fail("output.strict", "Anthropic's structured output has no strict switch (it always follows the schema)")
		}
		var f refObject
		f.add("type", "json_schema")
		f.add("schema", s.Output.Schema)
		obj.add("output_config", map[string]any{"format": f})
	default:
		return nil, fail("output.format", "%q: Anthropic takes text or json", s.Output.Format)
	}
	obj = append(obj, cfg...)
	if err := refObject(obj).refDuplicate("anthropic"); err != nil {
		return nil, err
	}
	b, err := refMarshal(obj)
	if err == nil && len(req.Messages) == 0 {
		return nil, fail("messages", "the Messages API needs at least one message besides the system prompt")
	}
	return b, err
}

// refOpenAIMessages writes each message's OpenAI form, so that an error is
// the message's own rather than encoding/json's wrapping of it.
func refOpenAIMessages(msgs []Message) (json.RawMessage, error) {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, m := range msgs {
		if i > 0 {
			b.WriteByte(',')
		}
		w, err := refMarshalMessage(m)
		if err != nil {
			return nil, err
		}
		b.Write(w)
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

func refConfig(cfg map[string]any, target string, name func(param) string) (refObject, error) {
	o, err := config(cfg, target, name)
	return refObject(o), err
}

type refObject []field

func (o *refObject) add(key string, value any) { *o = append(*o, field{key, value}) }

func (o refObject) refDuplicate(target string) error {
	seen := map[string]bool{}
	for _, f := range o {
		if seen[f.key] {
			return &RequestError{Target: target, Field: "config." + f.key, Msg: "is given twice (under two of its names)"}
		}
		seen[f.key] = true
	}
	return nil
}

func (o refObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := refMarshal(f.key)
		b.Write(k)
		b.WriteByte(':')
		v, err := refMarshal(f.value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.key, err)
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func refMarshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// refMarshalMessage is Message.MarshalJSON as it was.
func refMarshalMessage(m Message) ([]byte, error) {
	switch m.Role {
	case RoleUser, RoleSystem, RoleDeveloper, RoleTool:
		if len(m.ToolCalls) > 0 {
			// The API rejects it: only an assistant message makes tool calls.
			return nil, fmt.Errorf("chat: tool calls in a %s message; only an assistant message makes tool calls", m.Role)
		}
	}
	w := wireMessage{Role: m.Role, Name: m.Name, ToolCallID: m.ToolCallID}
	switch {
	case len(m.Content) == 0 && len(m.ToolCalls) > 0:
		w.Content = json.RawMessage("null")
	case m.TextOnly():
		b, err := refMarshal(m.Text())
		if err != nil {
			return nil, err
		}
		w.Content = b
	default:
		parts := make([]wirePart, len(m.Content))
		for i, p := range m.Content {
			wp, err := refWire(p)
			if err != nil {
				return nil, fmt.Errorf("chat: %s message, part %d: %w", m.Role, i+1, err)
			}
			parts[i] = wp
		}
		b, err := refMarshal(parts)
		if err != nil {
			return nil, err
		}
		w.Content = b
	}
	for _, tc := range m.ToolCalls {
		args := string(tc.Arguments)
		if args == "" {
			args = "{}"
		} else if !json.Valid(tc.Arguments) {
			return nil, fmt.Errorf("chat: tool call %q: arguments are not valid JSON: %q", tc.ID, args)
		}
		w.ToolCalls = append(w.ToolCalls, wireToolCall{ID: tc.ID, Type: "function",
			Function: wireFunction{Name: tc.Name, Arguments: args}})
	}
	return refMarshal(w)
}

func refWire(p Part) (wirePart, error) {
	switch p.Type {
	case PartText:
		t := p.Text
		return wirePart{Type: "text", Text: &t}, nil
	case PartImage:
		b, err := refMarshal(wireImageURL{URL: p.URL, Detail: p.Detail})
		return wirePart{Type: "image_url", ImageURL: b}, err
	case PartAudio:
		mt, data, ok := ParseDataURI(p.URL)
		if !ok {
			return wirePart{}, fmt.Errorf("audio %q: OpenAI takes audio only as inline data (a data: URI)", p.URL)
		}
		mt, err := audioType(mt, p.MediaType)
		if err != nil {
			return wirePart{}, err
		}
		return wirePart{Type: "input_audio", InputAudio: &wireAudio{
			Data: base64Std(data), Format: audioFormat(mt)}}, nil
	case PartFile:
		if _, _, ok := ParseDataURI(p.URL); !ok {
			return wirePart{}, fmt.Errorf("file %q: OpenAI takes files only as inline data (a data: URI)", p.URL)
		}
		return wirePart{Type: "file", File: &wireFile{FileData: p.URL}}, nil
	}
	return wirePart{}, fmt.Errorf("unknown part type %q", p.Type)
}
