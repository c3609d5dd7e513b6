// Package langchaingo connects rolemark's messages to
// github.com/tmc/langchaingo: messages become llms.MessageContent, tools and
// request settings become call options, and a ContentResponse's choice
// becomes a chat.Message that a tool loop can append to its history.
//
// langchaingo's messages are poorer than chat's, and what they cannot hold
// is an error rather than a silent loss: a participant's name, audio or a
// file given by URL, a model parameter without a call option, and a JSON
// schema for the output (langchaingo takes one only as a provider's client
// option, such as its openai.WithResponseFormat).
package langchaingo

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tmc/langchaingo/llms"

	"github.com/rolemark/rolemark/chat"
)

// Messages converts messages to langchaingo's. System and developer
// messages are system messages; a tool message is a ToolCallResponse
// carrying the name of the call it answers, found among the earlier
// messages' tool calls, or its own name (which must be the call's). An
// image given by URL is an ImageURLContent; any media given as a data: URI
// is a BinaryContent.
func Messages(msgs []chat.Message) ([]llms.MessageContent, error) {
	out := make([]llms.MessageContent, 0, len(msgs))
	names := map[string]string{} // tool call ID -> tool name
	for i, m := range msgs {
		fail := func(format string, args ...any) error {
			return fmt.Errorf("langchaingo: message %d: "+format, append([]any{i + 1}, args...)...)
		}
		if m.Name != "" && m.Role != chat.RoleTool {
			return nil, fail("langchaingo messages have no participant name (%q)", m.Name)
		}
		var mc llms.MessageContent
		switch m.Role {
		case chat.RoleSystem, chat.RoleDeveloper:
			mc.Role = llms.ChatMessageTypeSystem
		case chat.RoleUser:
			mc.Role = llms.ChatMessageTypeHuman
		case chat.RoleAssistant:
			mc.Role = llms.ChatMessageTypeAI
		case chat.RoleTool:
			if !m.TextOnly() {
				return nil, fail("a tool result holds text only")
			}
			mc.Role = llms.ChatMessageTypeTool
			// A tool result's name is the tool's, the response's Name.
			name := names[m.ToolCallID]
			if m.Name != "" {
				if name != "" && name != m.Name {
					return nil, fail("the tool result is named %q, its call %q", m.Name, name)
				}
				name = m.Name
			}
			mc.Parts = []llms.ContentPart{llms.ToolCallResponse{ToolCallID: m.ToolCallID, Name: name, Content: m.Text()}}
			out = append(out, mc)
			continue
		default:
			return nil, fail("role %q has no langchaingo form", m.Role)
		}
		for _, p := range m.Content {
			part, err := contentPart(p)
			if err != nil {
				return nil, fail("%v", err)
			}
			mc.Parts = append(mc.Parts, part)
		}
		for _, tc := range m.ToolCalls {
			args := string(tc.Arguments)
			if args == "" {
				args = "{}"
			}
			names[tc.ID] = tc.Name
			mc.Parts = append(mc.Parts, llms.ToolCall{ID: tc.ID, Type: "function",
				FunctionCall: &llms.FunctionCall{Name: tc.Name, Arguments: args}})
		}
		out = append(out, mc)
	}
	return out, nil
}

func contentPart(p chat.Part) (llms.ContentPart, error) {
	if p.Type == chat.PartText {
		return llms.TextContent{Text: p.Text}, nil
	}
	if mt, data, ok := chat.ParseDataURI(p.URL); ok {
		if p.MediaType != "" && (mt == "" || mt == "text/plain") {
			mt = p.MediaType
		}
		return llms.BinaryContent{MIMEType: mt, Data: data}, nil
	}
	if p.Type == chat.PartImage {
		return llms.ImageURLContent{URL: p.URL, Detail: p.Detail}, nil
	}
	return nil, fmt.Errorf("%s %q: langchaingo takes audio and files only as data (a data: URI)", p.Type, p.URL)
}

// Tools converts tools to langchaingo's function tools.
func Tools(tools []chat.Tool) ([]llms.Tool, error) {
	out := make([]llms.Tool, len(tools))
	for i, t := range tools {
		def := &llms.FunctionDefinition{Name: t.Name, Description: t.Description}
		if len(t.Parameters) > 0 {
			var params map[string]any
			if err := json.Unmarshal(t.Parameters, &params); err != nil || params == nil {
				return nil, fmt.Errorf("langchaingo: tool %q: parameters must be a JSON object", t.Name)
			}
			def.Parameters = params
		}
		out[i] = llms.Tool{Type: "function", Function: def}
	}
	return out, nil
}

// Options converts request settings to call options: the model, its
// parameters, tools, tool choice and JSON mode. Parameters are read under
// OpenAI's or Dotprompt's names (max_tokens or maxOutputTokens, top_p or
// topP, top_k or topK, stop or stopSequences, seed, n, frequency_penalty,
// presence_penalty, repetition_penalty, temperature, metadata); any other
// is an error, as is an output schema.
func Options(s chat.Settings) ([]llms.CallOption, error) {
	var opts []llms.CallOption
	if s.Model != "" {
		opts = append(opts, llms.WithModel(s.Model))
	}
	for k, v := range s.Config {
		opt, err := option(k, v)
		if err != nil {
			return nil, fmt.Errorf("langchaingo: config.%s: %w", k, err)
		}
		opts = append(opts, opt)
	}
	if len(s.Tools) > 0 {
		tools, err := Tools(s.Tools)
		if err != nil {
			return nil, err
		}
		opts = append(opts, llms.WithTools(tools))
	}
	switch tc := s.ToolChoice; tc {
	case "":
	case chat.ToolAuto, chat.ToolNone, chat.ToolRequired:
		opts = append(opts, llms.WithToolChoice(string(tc)))
	default:
		if !hasTool(s.Tools, string(tc)) {
			return nil, fmt.Errorf("langchaingo: tool_choice: %q is neither auto, none nor required, nor the name of one of the request's tools", tc)
		}
		opts = append(opts, llms.WithToolChoice(llms.ToolChoice{Type: "function", Function: &llms.FunctionReference{Name: string(tc)}}))
	}
	switch s.Output.Format {
	case "", chat.OutputText:
		if len(s.Output.Schema) > 0 {
			return nil, errors.New("langchaingo: output.schema: a schema needs output format json")
		}
	case chat.OutputJSON:
		if len(s.Output.Schema) > 0 {
			return nil, errors.New("langchaingo: output.schema: langchaingo takes a JSON schema only as a provider's client option (such as openai.WithResponseFormat), not per call")
		}
		opts = append(opts, llms.WithJSONMode())
	default:
		return nil, fmt.Errorf("langchaingo: output.format: %q: langchaingo takes text or json", s.Output.Format)
	}
	return opts, nil
}

func hasTool(tools []chat.Tool, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// floatOptions and intOptions are the call options of the model
// parameters that take a number and an integer, by the parameters' names.
var (
	floatOptions = map[string]func(float64) llms.CallOption{
		"temperature": llms.WithTemperature, "top_p": llms.WithTopP, "topP": llms.WithTopP,
		"frequency_penalty": llms.WithFrequencyPenalty, "presence_penalty": llms.WithPresencePenalty,
		"repetition_penalty": llms.WithRepetitionPenalty,
	}
	intOptions = map[string]func(int) llms.CallOption{
		"max_tokens": llms.WithMaxTokens, "max_completion_tokens": llms.WithMaxTokens, "maxOutputTokens": llms.WithMaxTokens,
		"top_k": llms.WithTopK, "topK": llms.WithTopK, "seed": llms.WithSeed, "n": llms.WithN,
	}
)

// option converts one model parameter to a call option.
func option(k string, v any) (llms.CallOption, error) {
	num := func() (float64, error) {
		switch n := v.(type) {
		case int:
			return float64(n), nil
		case int64:
			return float64(n), nil
		case float64:
			return n, nil
		case json.Number:
			return n.Float64()
		}
		return 0, fmt.Errorf("want a number, not %v", v)
	}
	if set, ok := floatOptions[k]; ok {
		f, err := num()
		return set(f), err
	}
	if set, ok := intOptions[k]; ok {
		f, err := num()
		if err == nil && f != float64(int(f)) {
			err = fmt.Errorf("want an integer, not %v", v)
		}
		return set(int(f)), err
	}
	switch k {
	case "stop", "stop_sequences", "stopSequences":
		switch s := v.(type) {
		case string:
			return llms.WithStopWords([]string{s}), nil
		case []string:
			return llms.WithStopWords(s), nil
		case []any:
			words := make([]string, len(s))
			for i, w := range s {
				str, ok := w.(string)
				if !ok {
					return nil, fmt.Errorf("want strings, not %v", w)
				}
				words[i] = str
			}
			return llms.WithStopWords(words), nil
		}
		return nil, fmt.Errorf("want a string or a list of strings, not %v", v)
	case "metadata":
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("want a mapping, not %v", v)
		}
		return llms.WithMetadata(m), nil
	}
	return nil, errors.New("langchaingo has no call option for it")
}

// Reply converts the first choice of a response to an assistant
// chat.Message: its text and its tool calls.
func Reply(r *llms.ContentResponse) (chat.Message, error) {
	if r == nil || len(r.Choices) == 0 || r.Choices[0] == nil {
		return chat.Message{}, errors.New("langchaingo: the response has no choices")
	}
	return Choice(r.Choices[0])
}

// Choice converts one choice to an assistant chat.Message. A tool call
// whose arguments are not JSON is an error.
func Choice(c *llms.ContentChoice) (chat.Message, error) {
	msg := chat.Text(chat.RoleAssistant, c.Content)
	calls := c.ToolCalls
	if len(calls) == 0 && c.FuncCall != nil {
		calls = []llms.ToolCall{{Type: "function", FunctionCall: c.FuncCall}}
	}
	for _, tc := range calls {
		if tc.FunctionCall == nil {
			return chat.Message{}, fmt.Errorf("langchaingo: tool call %q has no function", tc.ID)
		}
		call, err := chat.NewToolCall(tc.ID, tc.FunctionCall.Name, tc.FunctionCall.Arguments)
		if err != nil {
			return chat.Message{}, fmt.Errorf("langchaingo: %w", err)
		}
		msg.ToolCalls = append(msg.ToolCalls, call)
	}
	return msg, nil
}
