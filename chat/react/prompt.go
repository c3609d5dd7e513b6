package react

import (
	"fmt"
	"strings"

	"github.com/rolemark/rolemark/internal/pyjson"
)

// Variant names one of the three texts of the ReAct instruction that Qwen
// publishes. They differ in a word of the header, in how tool names are
// joined and in what follows each tool's parameters.
type Variant string

// Qwen's three texts of the ReAct instruction.
const (
	// VariantDoc is the text of examples/react_prompt.md, the seed document:
	// "You have access to the following tools:", tool names joined by ","
	// and every tool description ending with " Format the arguments as a
	// JSON object.". It is the default.
	VariantDoc Variant = "doc"
	// VariantAPI is the text of openai_api.py (and of
	// function_call_finetune_examples.py): "APIs:", names joined by ", ",
	// nothing after the parameters; a caller who wants the JSON hint writes
	// it into the tool's description.
	VariantAPI Variant = "api"
	// VariantDemo is the text of examples/react_demo.py: "APIs:", names
	// joined by ", ", and each description ending with the hint its
	// Tool.ArgsFormat selects. In conversations it keeps earlier assistant
	// replies as written instead of rewriting them as final answers.
	VariantDemo Variant = "demo"
)

// DefaultVariant is the variant used where none is given.
const DefaultVariant = VariantDoc

// Variants lists the variants in the order of their documentation.
func Variants() []Variant { return []Variant{VariantDoc, VariantAPI, VariantDemo} }

// ParseVariant returns the variant named s: "doc", "api" or "demo", or the
// name of the Qwen file it comes from ("react_prompt", "openai_api",
// "react_demo"). The empty string names DefaultVariant.
func ParseVariant(s string) (Variant, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return DefaultVariant, nil
	case "doc", "react_prompt", "react_prompt.md":
		return VariantDoc, nil
	case "api", "openai_api", "openai_api.py":
		return VariantAPI, nil
	case "demo", "react_demo", "react_demo.py":
		return VariantDemo, nil
	}
	return "", fmt.Errorf("react: unknown variant %q (want doc, api or demo)", s)
}

// String returns the variant's name.
func (v Variant) String() string { return string(v) }

func (v Variant) orDefault() Variant {
	switch v {
	case VariantDoc, VariantAPI, VariantDemo:
		return v
	}
	return DefaultVariant
}

// The hints Qwen appends to tool descriptions.
const (
	jsonHint = " Format the arguments as a JSON object."
	codeHint = " Enclose the code within triple backticks (`) at the beginning and end of the code."
)

// Describe returns the tool's line of the ReAct instruction in the given
// variant:
//
//	NAME: Call this tool to interact with the HUMAN API. What is the HUMAN API useful for? DESCRIPTION Parameters: PARAMETERS
//
// followed by the variant's hint. PARAMETERS is the tool's parameters as
// Python's json.dumps(…, ensure_ascii=False) writes them.
func Describe(v Variant, t Tool) string {
	human := first(t.NameForHuman, t.NameForModel)
	params := "{}"
	if len(t.Parameters) > 0 {
		params = string(t.Parameters) // text that is not JSON is written as it is
		if js, err := pyjson.Reformat(t.Parameters); err == nil {
			params = js
		}
	}
	s := t.NameForModel + ": Call this tool to interact with the " + human +
		" API. What is the " + human + " API useful for? " + t.DescriptionForModel +
		" Parameters: " + params
	switch v.orDefault() {
	case VariantDoc:
		s += jsonHint
	case VariantDemo:
		if t.ArgsFormat == ArgsCode {
			s += codeHint
		} else {
			s += jsonHint
		}
	}
	return s
}

// Instruction returns the ReAct instruction for the tools in the given
// variant, ending with "Begin!". The question follows it after
// "\n\nQuestion: " (see Prompt).
func Instruction(v Variant, tools []Tool) string {
	v = v.orDefault()
	header, sep := "APIs:", ", "
	if v == VariantDoc {
		header, sep = "tools:", ","
	}
	descs := make([]string, len(tools))
	names := make([]string, len(tools))
	for i, t := range tools {
		descs[i] = Describe(v, t)
		names[i] = t.NameForModel
	}
	return "Answer the following questions as best you can. You have access to the following " + header + "\n\n" +
		strings.Join(descs, "\n\n") +
		"\n\nUse the following format:\n\n" +
		"Question: the input question you must answer\n" +
		"Thought: you should always think about what to do\n" +
		"Action: the action to take, should be one of [" + strings.Join(names, sep) + "]\n" +
		"Action Input: the input to the action\n" +
		"Observation: the result of the action\n" +
		"... (this Thought/Action/Action Input/Observation can be repeated zero or more times)\n" +
		"Thought: I now know the final answer\n" +
		"Final Answer: the final answer to the original input question\n\n" +
		"Begin!"
}

// Prompt returns the ReAct prompt for one question: the instruction, then
// "\n\nQuestion: " and the question as given. For VariantDoc this is the
// prompt of Qwen's react_prompt.md byte for byte.
func Prompt(v Variant, tools []Tool, question string) string {
	return Instruction(v, tools) + "\n\nQuestion: " + question
}
