// Package ollama connects rolemark's messages to Ollama's Go client,
// github.com/ollama/ollama/api: messages, tools and request settings become
// an api.ChatRequest, and a ChatResponse's message becomes a chat.Message
// that a tool loop can append to its history.
//
// Ollama's messages are plainer than chat's, and what they cannot hold is
// an error rather than a silent loss: a participant's name, an image given
// by URL (Ollama takes image bytes; a data: URI works), audio and files, a
// tool schema keyword Ollama's tool type has no field for, a tool choice
// other than auto, and a model parameter Ollama has no option for.
package ollama

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/ollama/ollama/api"

	"github.com/rolemark/rolemark/chat"
)

// ChatRequest returns the whole request for Client.Chat, not streamed: the
// messages and the settings' model, parameters (as Options), tools and
// output (Format "json", or the schema itself).
//
// Parameters are read under Ollama's own option names (num_ctx, top_k,
// repeat_penalty …) and under OpenAI's or Dotprompt's where Ollama has the
// same option by another name: max_tokens, max_completion_tokens and
// maxOutputTokens are num_predict, topP top_p, topK top_k, stopSequences
// and stop_sequences stop, repetition_penalty repeat_penalty.
func ChatRequest(msgs []chat.Message, s chat.Settings) (*api.ChatRequest, error) {
	if s.Model == "" {
		return nil, errors.New("ollama: model: a request needs a model")
	}
	messages, err := Messages(msgs)
	if err != nil {
		return nil, err
	}
	tools, err := Tools(s.Tools)
	if err != nil {
		return nil, err
	}
	stream := false
	req := &api.ChatRequest{Model: s.Model, Messages: messages, Tools: tools, Stream: &stream}
	switch tc := s.ToolChoice; tc {
	case "", chat.ToolAuto:
	default:
		return nil, fmt.Errorf("ollama: tool_choice: %q: Ollama always lets the model choose (auto)", tc)
	}
	switch s.Output.Format {
	case "", chat.OutputText:
		if len(s.Output.Schema) > 0 {
			return nil, errors.New("ollama: output.schema: a schema needs output format json")
		}
	case chat.OutputJSON:
		req.Format = json.RawMessage(`"json"`)
		if len(s.Output.Schema) > 0 {
			var obj map[string]any
			if json.Unmarshal(s.Output.Schema, &obj) != nil || obj == nil {
				return nil, errors.New("ollama: output.schema: must be a JSON object")
			}
			req.Format = append(json.RawMessage(nil), s.Output.Schema...)
		}
		if s.Output.Name != "" || s.Output.Strict {
			return nil, errors.New("ollama: output: Ollama's format has no schema name or strict switch")
		}
	default:
		return nil, fmt.Errorf("ollama: output.format: %q: Ollama takes text or json", s.Output.Format)
	}
	if len(s.Config) > 0 {
		req.Options = map[string]any{}
		known := optionNames()
		for k, v := range s.Config {
			name := k
			switch k {
			case "max_tokens", "max_completion_tokens", "maxOutputTokens":
				name = "num_predict"
			case "topP":
				name = "top_p"
			case "topK":
				name = "top_k"
			case "stop_sequences", "stopSequences":
				name = "stop"
			case "repetition_penalty":
				name = "repeat_penalty"
			}
			if !known[name] {
				return nil, fmt.Errorf("ollama: config.%s: Ollama has no such option", k)
			}
			if _, dup := req.Options[name]; dup {
				return nil, fmt.Errorf("ollama: config.%s: %s is given twice (under two of its names)", k, name)
			}
			if s, ok := v.(string); ok && name == "stop" {
				v = []string{s}
			}
			req.Options[name] = v
		}
	}
	return req, nil
}

// optionNames are the JSON names of api.Options, its runner options
// included.
func optionNames() map[string]bool {
	names := map[string]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				walk(f.Type)
				continue
			}
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
				names[name] = true
			}
		}
	}
	walk(reflect.TypeOf(api.Options{}))
	return names
}

// Messages converts messages to Ollama's. Developer messages are system
// messages; the text parts of a message are joined; images must be data:
// URIs, whose bytes Ollama takes; a tool message carries the name of the
// call it answers, found among the earlier messages' tool calls, or its own
// name (which must be the call's).
func Messages(msgs []chat.Message) ([]api.Message, error) {
	out := make([]api.Message, 0, len(msgs))
	names := map[string]string{}
	for i, m := range msgs {
		fail := func(format string, args ...any) error {
			return fmt.Errorf("ollama: message %d: "+format, append([]any{i + 1}, args...)...)
		}
		if m.Name != "" && m.Role != chat.RoleTool {
			return nil, fail("Ollama messages have no participant name (%q)", m.Name)
		}
		am := api.Message{Role: string(m.Role), ToolCallID: m.ToolCallID}
		switch m.Role {
		case chat.RoleSystem, chat.RoleUser, chat.RoleAssistant:
		case chat.RoleDeveloper:
			am.Role = "system"
		case chat.RoleTool:
			// A tool result's name is the tool's: Ollama's tool_name.
			am.ToolName = names[m.ToolCallID]
			if m.Name != "" {
				if am.ToolName != "" && am.ToolName != m.Name {
					return nil, fail("the tool result is named %q, its call %q", m.Name, am.ToolName)
				}
				am.ToolName = m.Name
			}
		default:
			return nil, fail("role %q has no Ollama form", m.Role)
		}
		var text strings.Builder
		for _, p := range m.Content {
			switch p.Type {
			case chat.PartText:
				text.WriteString(p.Text)
			case chat.PartImage:
				_, data, ok := chat.ParseDataURI(p.URL)
				if !ok {
					return nil, fail("image %q: Ollama takes images as bytes: give a data: URI", p.URL)
				}
				am.Images = append(am.Images, api.ImageData(data))
			default:
				return nil, fail("%s parts have no Ollama form", p.Type)
			}
		}
		am.Content = text.String()
		for _, tc := range m.ToolCalls {
			var args api.ToolCallFunctionArguments
			raw := tc.Arguments
			if len(raw) == 0 {
				raw = json.RawMessage("{}")
			}
			if err := json.Unmarshal(raw, &args); err != nil || bytes.TrimSpace(raw)[0] != '{' {
				return nil, fail("tool call %q: Ollama needs the arguments as a JSON object, not %s", tc.ID, raw)
			}
			names[tc.ID] = tc.Name
			am.ToolCalls = append(am.ToolCalls, api.ToolCall{ID: tc.ID, Function: api.ToolCallFunction{Name: tc.Name, Arguments: args}})
		}
		out = append(out, am)
	}
	return out, nil
}

// Tools converts tools to Ollama's function tools. Ollama's tool type holds
// a subset of JSON Schema; a schema that does not survive the conversion
// unchanged is an error naming the tool.
func Tools(tools []chat.Tool) (api.Tools, error) {
	if len(tools) == 0 {
		return nil, nil
	}
	out := make(api.Tools, len(tools))
	for i, t := range tools {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		var want map[string]any
		if err := json.Unmarshal(params, &want); err != nil || want == nil {
			return nil, fmt.Errorf("ollama: tool %q: parameters must be a JSON object", t.Name)
		}
		out[i] = api.Tool{Type: "function", Function: api.ToolFunction{Name: t.Name, Description: t.Description}}
		if err := json.Unmarshal(params, &out[i].Function.Parameters); err != nil {
			return nil, fmt.Errorf("ollama: tool %q: parameters: %w", t.Name, err)
		}
		back, err := json.Marshal(out[i].Function.Parameters)
		if err != nil {
			return nil, fmt.Errorf("ollama: tool %q: parameters: %w", t.Name, err)
		}
		var got map[string]any
		if err := json.Unmarshal(back, &got); err != nil {
			return nil, err
		}
		if _, ok := want["properties"]; !ok {
			want["properties"] = map[string]any{}
		}
		if !reflect.DeepEqual(want, got) {
			return nil, fmt.Errorf("ollama: tool %q: Ollama's tool schema cannot hold %s (it keeps %s)", t.Name, params, back)
		}
	}
	return out, nil
}

// Reply converts a chat response's message to an assistant chat.Message:
// its text and its tool calls (arguments as JSON, in the order Ollama
// gives them). A thinking trace has no chat form and is left out.
func Reply(r api.ChatResponse) (chat.Message, error) {
	msg := chat.Text(chat.RoleAssistant, r.Message.Content)
	for i, tc := range r.Message.ToolCalls {
		args, err := json.Marshal(tc.Function.Arguments)
		if err != nil {
			return chat.Message{}, fmt.Errorf("ollama: tool call %d: %w", i+1, err)
		}
		msg.ToolCalls = append(msg.ToolCalls, chat.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: args})
	}
	return msg, nil
}
