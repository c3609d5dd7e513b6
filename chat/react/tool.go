package react

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/rolemark/rolemark/chat"
)

// Tool is a tool as a ReAct instruction describes it: Qwen's plugin
// information. Its JSON form uses Qwen's field names.
type Tool struct {
	// NameForModel is the name the model writes after "Action:".
	NameForModel string `json:"name_for_model"`
	// NameForHuman is the display name used in the description ("the …
	// API"). Empty means NameForModel.
	NameForHuman string `json:"name_for_human,omitempty"`
	// DescriptionForModel says what the tool is useful for.
	DescriptionForModel string `json:"description_for_model,omitempty"`
	// Parameters describes the arguments: a JSON Schema object (OpenAI) or
	// Qwen's list of {name, description, required, schema}. Empty means {}.
	Parameters json.RawMessage `json:"parameters,omitempty"`
	// ArgsFormat is the argument format VariantDemo asks for: ArgsJSON
	// (the default when empty) or ArgsCode.
	ArgsFormat ArgsFormat `json:"args_format,omitempty"`
}

// ArgsFormat is the form in which VariantDemo asks the model to write a
// tool's arguments.
type ArgsFormat string

// The argument formats of Qwen's react_demo.py.
const (
	// ArgsJSON asks for a JSON object.
	ArgsJSON ArgsFormat = "json"
	// ArgsCode asks for code enclosed in triple backticks.
	ArgsCode ArgsFormat = "code"
)

// FromChat returns the ReAct description of an OpenAI-style function tool,
// with the fallbacks of Qwen's openai_api.py: both names are the tool's name
// and the description for the model is its description.
func FromChat(t chat.Tool) Tool {
	return Tool{NameForModel: t.Name, NameForHuman: t.Name, DescriptionForModel: t.Description, Parameters: t.Parameters}
}

// FromChatTools converts each tool with FromChat.
func FromChatTools(tools []chat.Tool) []Tool {
	out := make([]Tool, len(tools))
	for i, t := range tools {
		out[i] = FromChat(t)
	}
	return out
}

// Chat returns the tool as an OpenAI-style function tool.
func (t Tool) Chat() chat.Tool {
	return chat.Tool{Name: t.NameForModel, Description: t.DescriptionForModel, Parameters: t.Parameters}
}

// UnmarshalJSON reads a tool in Qwen's form (name_for_model, name_for_human,
// description_for_model, parameters, args_format), in OpenAI's function-tool
// form ({"type":"function","function":{…}}) or as a bare function definition
// ({"name", "description", "parameters"}). Qwen's fields win over OpenAI's
// where both are given, as in Qwen's openai_api.py.
func (t *Tool) UnmarshalJSON(b []byte) error {
	type fn struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	var w struct {
		Name                string          `json:"name"`
		Description         string          `json:"description"`
		Parameters          json.RawMessage `json:"parameters"`
		Function            *fn             `json:"function"`
		NameForModel        string          `json:"name_for_model"`
		NameForHuman        string          `json:"name_for_human"`
		DescriptionForModel string          `json:"description_for_model"`
		ArgsFormat          ArgsFormat      `json:"args_format"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			if te.Field == "" {
				return &toolError{"want a JSON object, not " + te.Value}
			}
			return &toolError{fmt.Sprintf("field %q is %s, want %s", te.Field, te.Value, jsonKind(te.Type.Kind()))}
		}
		return err
	}
	f := fn{Name: w.Name, Description: w.Description, Parameters: w.Parameters}
	if w.Function != nil {
		f = *w.Function
	}
	nt := Tool{
		NameForModel:        first(w.NameForModel, f.Name),
		NameForHuman:        first(w.NameForHuman, f.Name),
		DescriptionForModel: first(w.DescriptionForModel, f.Description),
		Parameters:          f.Parameters,
		ArgsFormat:          w.ArgsFormat,
	}
	if nt.NameForModel == "" {
		return &toolError{"neither name_for_model nor name is given"}
	}
	if string(nt.Parameters) == "null" {
		nt.Parameters = nil
	}
	*t = nt
	return nil
}

// toolError is a JSON value that is not a tool.
type toolError struct{ msg string }

func (e *toolError) Error() string { return "react: tool: " + e.msg }

func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Pointer, reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice:
		return "an array"
	}
	return k.String()
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// ParseTools reads a JSON array of tools in any form Tool.UnmarshalJSON
// accepts. A JSON syntax error is returned as the *json.SyntaxError.
func ParseTools(data []byte) ([]Tool, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("react: tools are a JSON array, not %s", te.Value)
		}
		return nil, err
	}
	tools := make([]Tool, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal(r, &tools[i]); err != nil {
			var te *toolError
			if errors.As(err, &te) {
				return nil, fmt.Errorf("react: tool %d: %s", i+1, te.msg)
			}
			return nil, fmt.Errorf("react: tool %d: %w", i+1, err)
		}
	}
	return tools, nil
}
