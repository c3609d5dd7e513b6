package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/rolemark/rolemark/chat/react"
	"github.com/rolemark/rolemark/internal/textpos"
)

// reactAbout is what -h of the react commands prints after the usage line.
const reactAbout = `TOOLS.json is a JSON array of tools in OpenAI's function form or Qwen's
(name_for_human, name_for_model, description_for_model, parameters).
"-" reads standard input (for QUESTION and REPLY, without its final newline).
V is doc (the default, Qwen's react_prompt.md), api (openai_api.py) or demo
(react_demo.py). parse prints {"thought", "tool_call": {"name", "arguments"}}
or {"final_answer"}, and exits 1 for a reply that is neither. arguments is the
JSON the model wrote, or the text it wrote as a JSON string when that is not JSON.
`

// reactPrompt prints the ReAct prompt for a question.
func reactPrompt(_ context.Context, sio stdio, args []string) error {
	stdin, stdout := sio.in, sio.out
	fs := newFlags("react prompt")
	toolsFile := fs.String("tools", "", "JSON array of tools in `TOOLS.json` (- for standard input)")
	variantName := fs.String("variant", string(react.DefaultVariant), "instruction text `V`: doc, api or demo")
	operands, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if *toolsFile == "" {
		return usageErr("--tools is required")
	}
	if len(operands) == 0 {
		return usageErr("missing QUESTION")
	}
	variant, err := react.ParseVariant(*variantName)
	if err != nil {
		return usageErr("%v", err)
	}
	question := strings.Join(operands, " ")
	if question == "-" {
		if *toolsFile == "-" {
			return usageErr("--tools and QUESTION cannot both be standard input")
		}
		if question, err = reactReadStdin(stdin); err != nil {
			return err
		}
	}
	tools, err := reactReadTools(*toolsFile, stdin)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, react.Prompt(variant, tools, question)+"\n")
	return err
}

// reactParse prints a model's ReAct reply as JSON.
func reactParse(_ context.Context, sio stdio, args []string) error {
	stdin, stdout := sio.in, sio.out
	fs := newFlags("react parse")
	toolsFile := fs.String("tools", "", "JSON array of the tools the reply may name, in `TOOLS.json` (- for standard input)")
	operands, err := parseOperands(fs, args, 1, 1, "want one REPLY, or - to read it from standard input")
	if err != nil {
		return err
	}
	var tools []react.Tool
	if *toolsFile != "" {
		if *toolsFile == "-" && operands[0] == "-" {
			return usageErr("--tools and REPLY cannot both be standard input")
		}
		if tools, err = reactReadTools(*toolsFile, stdin); err != nil {
			return err
		}
	}
	text := operands[0]
	if text == "-" {
		if text, err = reactReadStdin(stdin); err != nil {
			return err
		}
	}
	reply, err := react.ParseReply(text, tools)
	var argsErr *react.ArgumentsError
	if errors.As(err, &argsErr) {
		// Qwen's parse_response passes an Action Input that is not JSON on
		// as the string the model wrote; printed as a JSON string.
		err = nil
	}
	var formatErr *react.FormatError
	if errors.As(err, &formatErr) && (strings.HasPrefix(text, "Final Answer:") || strings.HasPrefix(text, "Action:")) {
		// The model-facing message cannot say why a reply that opens with
		// the very line it asks for is refused; the author can be told.
		return fmt.Errorf("reply: %w (The reply's first line is its thought: \"Final Answer:\" and \"Action:\" count from the second line on, as Qwen's parse_response reads them.)", err)
	}
	if err != nil {
		return fmt.Errorf("reply: %w", err)
	}
	var b bytes.Buffer
	if reply.ToolCall != nil {
		b.WriteString("{\n  \"thought\": ")
		reactJSONString(&b, reply.Thought)
		b.WriteString(",\n  \"tool_call\": {\n    \"name\": ")
		reactJSONString(&b, reply.ToolCall.Name)
		b.WriteString(",\n    \"arguments\": ")
		if argsErr != nil {
			reactJSONString(&b, argsErr.Arguments)
		} else {
			b.Write(reply.ToolCall.Arguments)
		}
		b.WriteString("\n  }\n}\n")
	} else {
		b.WriteString("{\n  \"final_answer\": ")
		reactJSONString(&b, reply.FinalAnswer)
		b.WriteString("\n}\n")
	}
	_, err = stdout.Write(b.Bytes())
	return err
}

// reactReadStdin reads standard input without its final newline, which
// ends a file or a pipe rather than the text.
func reactReadStdin(stdin io.Reader) (string, error) {
	b, err := io.ReadAll(stdin)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(strings.TrimSuffix(string(b), "\n"), "\r"), nil
}

// reactJSONString writes s as a JSON string without HTML escaping.
func reactJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Truncate(b.Len() - 1)
}

// reactReadTools reads a JSON array of tools from a file, or from stdin for
// "-". Errors name the file ("-" for standard input, as render's do), and
// the line and column of a JSON error.
func reactReadTools(name string, stdin io.Reader) ([]react.Tool, error) {
	data, err := readInput(name, stdin)
	if err != nil {
		return nil, err
	}
	tools, err := react.ParseTools(data)
	if err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			line, col := jsonLineCol(data, se.Offset)
			return nil, fmt.Errorf("%s:%d:%d: %v", name, line, col, err)
		case errors.As(err, &te):
			line, col := jsonLineCol(data, te.Offset)
			return nil, fmt.Errorf("%s:%d:%d: want a JSON array of tools: %v", name, line, col, err)
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(tools) == 0 {
		return nil, fmt.Errorf("%s: no tools", name)
	}
	return tools, nil
}

// jsonLineCol returns the line and column of an encoding/json error
// offset, which counts the bytes read, so the byte at fault is the one
// before it.
func jsonLineCol(data []byte, offset int64) (line, col int) {
	return textpos.LineCol(string(data), int(offset)-1)
}
