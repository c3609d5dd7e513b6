package chat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"

	"github.com/rolemark/rolemark/internal/jsonw"
)

// Settings is what a request carries besides its messages: the model, its
// parameters, the tools it may call, how it must choose among them, and the
// output wanted. A template's front matter converts into Settings
// (engine.FrontMatter.Settings); OpenAIBody and AnthropicBody turn messages
// and Settings into a whole request body.
type Settings struct {
	// Model names the model. Required.
	Model string
	// Config holds model parameters by name, as written: the target's own
	// names (temperature, max_tokens, top_p, stop …) or Dotprompt's
	// (maxOutputTokens, topP, topK, stopSequences). See OpenAIBody and
	// AnthropicBody for how each target reads them.
	Config map[string]any
	// Tools are the functions the model may call.
	Tools []Tool
	// ToolChoice says whether and which tool the model must call.
	ToolChoice ToolChoice
	// Output asks for JSON output, optionally following a schema.
	Output Output
}

// ToolChoice is "" (the target's default), ToolAuto, ToolNone, ToolRequired,
// or the name of one of the request's tools, which the model must call.
type ToolChoice string

// The tool choices that are not a tool's name.
const (
	ToolAuto     ToolChoice = "auto"     // the model decides
	ToolNone     ToolChoice = "none"     // the model calls no tool
	ToolRequired ToolChoice = "required" // the model calls at least one tool
)

// OutputFormat is the form of the model's reply.
type OutputFormat string

// The output formats a request can ask for.
const (
	OutputText OutputFormat = "text" // plain text, the default
	OutputJSON OutputFormat = "json" // a JSON value, following Output.Schema when it is set
)

// Output asks for the reply in a given form.
type Output struct {
	// Format is "" or OutputText for text, OutputJSON for JSON.
	Format OutputFormat
	// Schema is the JSON Schema the JSON reply follows. Optional for
	// OpenAI (JSON mode without it), required for Anthropic.
	Schema json.RawMessage
	// Name names the schema for OpenAI's json_schema response format
	// (letters, digits, _ and -, at most 64). Default: "output".
	Name string
	// Strict asks OpenAI to follow the schema exactly (json_schema.strict).
	Strict bool
}

// RequestError is a setting or message that a target's request cannot
// carry. Target is "openai" or "anthropic"; Field names the setting, such
// as "config.top_k", "output.format" or "model".
type RequestError struct {
	Target string
	Field  string
	Msg    string
}

func (e *RequestError) Error() string {
	return fmt.Sprintf("chat: %s request: %s: %s", e.Target, e.Field, e.Msg)
}

// param says what a model parameter is called in each target; an empty
// name means the target has no such parameter.
type param struct{ openai, anthropic string }

// params maps every parameter name the builders translate or refuse to
// its name in each target. Names not listed pass through unchanged to
// both targets, as provider extensions.
var params = map[string]param{
	// Dotprompt's (Genkit's) names.
	"maxOutputTokens": {"max_completion_tokens", "max_tokens"},
	"topP":            {"top_p", "top_p"},
	"topK":            {"", "top_k"},
	"stopSequences":   {"stop", "stop_sequences"},
	// The targets' names where they differ.
	"max_tokens":            {"max_tokens", "max_tokens"},
	"max_completion_tokens": {"max_completion_tokens", "max_tokens"},
	"stop":                  {"stop", "stop_sequences"},
	"stop_sequences":        {"stop", "stop_sequences"},
	// One target's alone.
	"top_k":               {"", "top_k"},
	"thinking":            {"", "thinking"},
	"frequency_penalty":   {"frequency_penalty", ""},
	"presence_penalty":    {"presence_penalty", ""},
	"logit_bias":          {"logit_bias", ""},
	"logprobs":            {"logprobs", ""},
	"top_logprobs":        {"top_logprobs", ""},
	"n":                   {"n", ""},
	"seed":                {"seed", ""},
	"parallel_tool_calls": {"parallel_tool_calls", ""},
	"reasoning_effort":    {"reasoning_effort", ""},
	"user":                {"user", ""},
}

// reserved are the keys the builders write themselves: Settings has a
// field for each.
var reserved = map[string]string{
	"model":           "Settings.Model (front matter model:)",
	"messages":        "the messages",
	"system":          "system messages",
	"tools":           "Settings.Tools (front matter tools:)",
	"tool_choice":     "Settings.ToolChoice (front matter toolChoice:)",
	"response_format": "Settings.Output (front matter output:)",
	"output_config":   "Settings.Output (front matter output:)",
}

var schemaNameRE = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// OpenAIBody returns a whole OpenAI chat-completions request body: model,
// messages, tools, tool_choice, response_format and the config parameters,
// in that order, the parameters sorted by name. No message at all is an
// error, as the API answers it (400 empty_array).
//
// Dotprompt's parameter names are translated (maxOutputTokens to
// max_completion_tokens, topP to top_p, stopSequences to stop), as is
// Anthropic's stop_sequences; max_tokens stays max_tokens, which
// OpenAI-compatible servers read. OpenAI has no top_k or thinking: they are
// errors. Any other name is written as given, so a server's own parameters
// reach it.
//
// Output JSON without a schema is JSON mode
// ({"type":"json_object"}); with a schema it is
// {"type":"json_schema","json_schema":{"name","schema","strict"}}.
//
// Every error is a *RequestError naming what OpenAI cannot carry, or the
// error of a message that has no OpenAI form.
func OpenAIBody(msgs []Message, s Settings) ([]byte, error) {
	return AppendOpenAIBody(nil, msgs, s)
}

// AppendOpenAIBody appends the body OpenAIBody returns to dst and returns
// the extended slice. On error it returns dst as it was.
func AppendOpenAIBody(dst []byte, msgs []Message, s Settings) ([]byte, error) {
	fail := failer("openai")
	if s.Model == "" {
		return dst, fail("model", "a request needs a model")
	}
	b := append(dst, `{"model":`...)
	b = jsonw.String(b, s.Model)
	b = append(b, `,"messages":[`...)
	for i := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		if msgs[i].Role == RoleTool && msgs[i].ToolCallID == "" {
			// The API refuses it; ToAnthropic says the same.
			return dst, fmt.Errorf("chat: message %d: a tool message needs the tool_call_id it answers", i+1)
		}
		var err error
		if b, err = appendOpenAIMessage(b, &msgs[i]); err != nil {
			return dst, err
		}
	}
	b = append(b, ']')
	if err := checkToolChoice(s, "openai"); err != nil {
		return dst, err
	}
	name := s.Output.Name
	if s.Output.Format == OutputJSON && len(s.Output.Schema) > 0 {
		if name == "" {
			name = "output"
		}
		if !schemaNameRE.MatchString(name) {
			return dst, fail("output.name", "%q: OpenAI takes a schema name of letters, digits, _ and -, at most 64", name)
		}
	}
	if err := checkOutput(s.Output, fail, "OpenAI"); err != nil {
		return dst, err
	}
	cfg, err := config(s.Config, "openai", func(p param) string { return p.openai })
	if err != nil {
		return dst, err
	}
	if err := cfg.duplicate("openai"); err != nil {
		return dst, err
	}

	b, err = appendTools(b, s.Tools, func(b []byte, t *Tool) ([]byte, error) {
		j, err := t.MarshalJSON()
		if err != nil {
			return b, fail("tools", "tool %q: %v", t.Name, err)
		}
		return append(b, j...), nil
	})
	if err != nil {
		return dst, err
	}
	switch tc := s.ToolChoice; tc {
	case "":
	case ToolAuto, ToolNone, ToolRequired:
		b = append(b, `,"tool_choice":`...)
		b = jsonw.String(b, string(tc))
	default:
		b = append(b, `,"tool_choice":{"type":"function","function":{"name":`...)
		b = jsonw.String(b, string(tc))
		b = append(b, "}}"...)
	}
	if s.Output.Format == OutputJSON {
		if len(s.Output.Schema) == 0 {
			b = append(b, `,"response_format":{"type":"json_object"}`...)
		} else {
			b = append(b, `,"response_format":{"type":"json_schema","json_schema":{"name":`...)
			b = jsonw.String(b, name)
			b = append(b, `,"schema":`...)
			if b, err = jsonw.Compact(b, s.Output.Schema); err != nil {
				return dst, fail("output.schema", "%v", err)
			}
			if s.Output.Strict {
				b = append(b, `,"strict":true`...)
			}
			b = append(b, "}}"...)
		}
	}
	if b, err = cfg.appendMembers(b, "openai"); err != nil {
		return dst, err
	}
	if len(msgs) == 0 {
		// The API answers 400 empty_array; say it before the request is sent.
		return dst, fail("messages", "the Chat Completions API needs at least one message")
	}
	return append(b, '}'), nil
}

// AnthropicBody returns a whole Anthropic Messages request body: model,
// max_tokens, system, messages (as ToAnthropic makes them), tools,
// tool_choice, output_config and the other config parameters, in that
// order, the parameters sorted by name. A conversation with no message but
// the system prompt is an error, as the API answers it.
//
// The Messages API requires max_tokens: a request without max_tokens,
// max_completion_tokens or maxOutputTokens in Config is an error. Dotprompt's
// parameter names and OpenAI's stop and max_completion_tokens are
// translated; a stop given as one string becomes a one-element
// stop_sequences. OpenAI's parameters that Anthropic lacks
// (frequency_penalty, presence_penalty, logit_bias, logprobs, top_logprobs,
// n, seed, parallel_tool_calls, reasoning_effort, user) are errors; any
// other name is written as given.
//
// Tools become {"name","description","input_schema"}; a tool without
// parameters gets the empty object schema the API requires. Tool choices
// become {"type":"auto"}, {"type":"none"}, {"type":"any"} (for
// ToolRequired) or {"type":"tool","name":…}.
//
// Output JSON needs a schema: it becomes Anthropic's structured output,
// output_config {"format":{"type":"json_schema","schema":…}}, which returns
// the JSON as the reply's text, as OpenAI's json_schema does. Anthropic has
// no JSON mode without a schema, so OutputJSON alone is an error, as is
// Output.Strict. Output.Name, a label only, is not sent: Anthropic's
// structured output has no schema name.
func AnthropicBody(msgs []Message, s Settings) ([]byte, error) {
	return AppendAnthropicBody(nil, msgs, s)
}

// AppendAnthropicBody appends the body AnthropicBody returns to dst and
// returns the extended slice. On error it returns dst as it was.
func AppendAnthropicBody(dst []byte, msgs []Message, s Settings) ([]byte, error) {
	fail := failer("anthropic")
	if s.Model == "" {
		return dst, fail("model", "a request needs a model")
	}
	cfg, err := config(s.Config, "anthropic", func(p param) string { return p.anthropic })
	if err != nil {
		return dst, err
	}
	i := slices.IndexFunc(cfg, func(f field) bool { return f.key == "max_tokens" })
	if i < 0 {
		return dst, fail("config.max_tokens", "the Messages API needs max_tokens (or maxOutputTokens) in config")
	}
	maxTokens := cfg[i]
	cfg = slices.Delete(cfg, i, i+1)
	req, err := ToAnthropic(msgs)
	if err != nil {
		return dst, err
	}
	for _, t := range s.Tools {
		if len(bytes.TrimSpace(t.Parameters)) > 0 && !isJSONObject(t.Parameters) {
			return dst, fail("tools", "tool %q parameters must be a JSON object", t.Name)
		}
	}
	if err := checkToolChoice(s, "anthropic"); err != nil {
		return dst, err
	}
	if err := checkOutput(s.Output, fail, "Anthropic"); err != nil {
		return dst, err
	}
	if s.Output.Format == OutputJSON {
		if len(s.Output.Schema) == 0 {
			return dst, fail("output.format", "Anthropic has no JSON mode without a schema: give output.schema")
		}
		if s.Output.Strict {
			return dst, fail("output.strict", "Anthropic's structured output has no strict switch (it always follows the schema)")
		}
	}
	if err := append(object{maxTokens}, cfg...).duplicate("anthropic"); err != nil {
		return dst, err
	}

	b := append(dst, `{"model":`...)
	b = jsonw.String(b, s.Model)
	if b, err = (object{maxTokens}).appendMembers(b, "anthropic"); err != nil {
		return dst, err
	}
	if req.System != "" {
		b = append(b, `,"system":`...)
		b = jsonw.String(b, req.System)
	}
	b = append(b, `,"messages":`...)
	if b, err = appendAnthropicMessages(b, req.Messages); err != nil {
		return dst, err
	}
	b, err = appendTools(b, s.Tools, func(b []byte, t *Tool) ([]byte, error) {
		b = append(b, `{"name":`...)
		b = jsonw.String(b, t.Name)
		if t.Description != "" {
			b = append(b, `,"description":`...)
			b = jsonw.String(b, t.Description)
		}
		b = append(b, `,"input_schema":`...)
		if len(bytes.TrimSpace(t.Parameters)) == 0 {
			b = append(b, `{"type":"object","properties":{}}`...)
		} else {
			var err error
			if b, err = jsonw.Compact(b, t.Parameters); err != nil {
				return b, fail("tools", "tool %q: %v", t.Name, err)
			}
		}
		return append(b, '}'), nil
	})
	if err != nil {
		return dst, err
	}
	switch tc := s.ToolChoice; tc {
	case "":
	case ToolAuto, ToolNone, ToolRequired:
		typ := string(tc)
		if tc == ToolRequired {
			typ = "any"
		}
		b = append(b, `,"tool_choice":{"type":`...)
		b = jsonw.String(b, typ)
		b = append(b, '}')
	default:
		b = append(b, `,"tool_choice":{"type":"tool","name":`...)
		b = jsonw.String(b, string(tc))
		b = append(b, '}')
	}
	if s.Output.Format == OutputJSON {
		b = append(b, `,"output_config":{"format":{"type":"json_schema","schema":`...)
		if b, err = jsonw.Compact(b, s.Output.Schema); err != nil {
			return dst, fail("output.schema", "%v", err)
		}
		b = append(b, "}}"...)
	}
	if b, err = cfg.appendMembers(b, "anthropic"); err != nil {
		return dst, err
	}
	if len(req.Messages) == 0 {
		// The API answers 400 (the system prompt is no message); say it
		// before the request is sent.
		return dst, fail("messages", "the Messages API needs at least one message besides the system prompt")
	}
	return append(b, '}'), nil
}

// appendAnthropicMessages appends msgs as a JSON array, as encoding/json
// writes the AnthropicMessage type with HTML escaping off.
func appendAnthropicMessages(b []byte, msgs []AnthropicMessage) ([]byte, error) {
	if msgs == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, m := range msgs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"role":`...)
		b = jsonw.String(b, m.Role)
		b = append(b, `,"content":`...)
		if m.Content == nil {
			b = append(b, "null}"...)
			continue
		}
		b = append(b, '[')
		for j := range m.Content {
			if j > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendAnthropicBlock(b, &m.Content[j]); err != nil {
				return b, err
			}
		}
		b = append(b, "]}"...)
	}
	return append(b, ']'), nil
}

// appendAnthropicBlock appends k as encoding/json writes an AnthropicBlock
// with HTML escaping off.
func appendAnthropicBlock(b []byte, k *AnthropicBlock) ([]byte, error) {
	b = append(b, `{"type":`...)
	b = jsonw.String(b, k.Type)
	b = member(b, "text", k.Text)
	if src := k.Source; src != nil {
		b = append(b, `,"source":{"type":`...)
		b = jsonw.String(b, src.Type)
		b = member(b, "url", src.URL)
		b = member(b, "media_type", src.MediaType)
		b = member(b, "data", src.Data)
		b = append(b, '}')
	}
	b = member(b, "id", k.ID)
	b = member(b, "name", k.Name)
	if len(k.Input) > 0 {
		b = append(b, `,"input":`...)
		var err error
		if b, err = jsonw.Compact(b, k.Input); err != nil {
			return b, err
		}
	}
	b = member(b, "tool_use_id", k.ToolUseID)
	b = member(b, "content", k.Content)
	return append(b, '}'), nil
}

// member appends ,"key":value when value is not empty (omitempty).
func member(b []byte, key, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return jsonw.String(b, value)
}

// failer returns the function with which a body builder for target
// reports a setting it cannot carry: field names the setting, format and
// args the reason.
func failer(target string) func(field, format string, args ...any) error {
	return func(field, format string, args ...any) error {
		return &RequestError{Target: target, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
}

// appendTools appends the tools array, ,"tools":[…], each tool written
// by tool; nothing when there are no tools.
func appendTools(b []byte, tools []Tool, tool func([]byte, *Tool) ([]byte, error)) ([]byte, error) {
	if len(tools) == 0 {
		return b, nil
	}
	b = append(b, `,"tools":[`...)
	for i := range tools {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = tool(b, &tools[i]); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// checkOutput reports what neither API takes of o: a schema without
// format json, a schema that is no JSON object, a format other than text
// and json (api names the API in its message).
func checkOutput(o Output, fail func(field, format string, args ...any) error, api string) error {
	switch o.Format {
	case "", OutputText:
		if len(o.Schema) > 0 {
			return fail("output.schema", "a schema needs output format json")
		}
	case OutputJSON:
		if len(o.Schema) > 0 && !isJSONObject(o.Schema) {
			return fail("output.schema", "must be a JSON object")
		}
	default:
		return fail("output.format", "%q: %s takes text or json", o.Format, api)
	}
	return nil
}

// checkToolChoice reports a tool choice the request's tools cannot
// serve: auto, none or required with no tools, or a name that is none of
// theirs.
func checkToolChoice(s Settings, target string) error {
	switch s.ToolChoice {
	case "":
		return nil
	case ToolAuto, ToolNone, ToolRequired:
		if len(s.Tools) == 0 {
			return &RequestError{Target: target, Field: "tool_choice", Msg: fmt.Sprintf("%q needs tools", s.ToolChoice)}
		}
		return nil
	}
	for _, t := range s.Tools {
		if t.Name == string(s.ToolChoice) {
			return nil
		}
	}
	return &RequestError{Target: target, Field: "tool_choice",
		Msg: fmt.Sprintf("%q is neither auto, none nor required, nor the name of one of the request's tools", s.ToolChoice)}
}

// config translates the parameters to one target's names, sorted by the
// name written.
func config(cfg map[string]any, target string, name func(param) string) (object, error) {
	keys := make([]string, 0, len(cfg))
	for k := range cfg {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out object
	for _, k := range keys {
		if use, ok := reserved[k]; ok {
			return nil, &RequestError{Target: target, Field: "config." + k, Msg: "is not a model parameter; set it with " + use}
		}
		v := cfg[k]
		to := k
		if p, ok := params[k]; ok {
			to = name(p)
			if to == "" {
				return nil, &RequestError{Target: target, Field: "config." + k, Msg: "has no " + target + " equivalent"}
			}
		}
		if to == "stop_sequences" {
			if s, ok := v.(string); ok {
				v = []string{s}
			}
		}
		out.add(to, v)
	}
	return out, nil
}

func isJSONObject(b json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(b, &m) == nil && m != nil
}

// field is one member of an object.
type field struct {
	key   string
	value any
}

// object is a JSON object that keeps its members in the order added.
type object []field

func (o *object) add(key string, value any) { *o = append(*o, field{key, value}) }

// duplicate reports the first key that an earlier member has, such as
// max_tokens and maxOutputTokens both.
func (o object) duplicate(target string) error {
	for i, f := range o {
		for _, g := range o[:i] {
			if g.key == f.key {
				return &RequestError{Target: target, Field: "config." + f.key, Msg: "is given twice (under two of its names)"}
			}
		}
	}
	return nil
}

// appendMembers appends each member as ,"key":value, a value as
// encoding/json writes it with HTML escaping off; a value it cannot write
// is a *RequestError naming the parameter.
func (o object) appendMembers(b []byte, target string) ([]byte, error) {
	for _, f := range o {
		b = append(b, ',')
		b = jsonw.String(b, f.key)
		b = append(b, ':')
		var err error
		if b, err = jsonw.Value(b, f.value); err != nil {
			return b, &RequestError{Target: target, Field: "config." + f.key, Msg: err.Error()}
		}
	}
	return b, nil
}
