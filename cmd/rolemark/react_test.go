package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/internal/fixture"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reactRun runs "rolemark react ARGS..." and returns the exit status,
// stdout and stderr.
func reactRun(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), append([]string{"react"}, args...), strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// reactSeed is the worked example of Qwen's react_prompt.md.
func reactSeed(t *testing.T) (tools json.RawMessage, query, prompt string) {
	t.Helper()
	b, err := os.ReadFile("../../chat/react/testdata/react_prompt_md.json")
	require.NoError(t, err)
	var d struct {
		Tools  json.RawMessage `json:"tools"`
		Query  string          `json:"query"`
		Prompt string          `json:"prompt"`
	}
	require.NoError(t, json.Unmarshal(b, &d))
	return d.Tools, d.Query, d.Prompt
}

func reactWriteFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

func TestReactPrompt(t *testing.T) {
	tools, query, prompt := reactSeed(t)
	file := reactWriteFile(t, "tools.json", string(tools))
	openai := reactWriteFile(t, "openai.json", `[{"type":"function","function":{"name":"get_weather","description":"Get the current weather",`+
		`"parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}},`+
		`{"name_for_human":"谷歌搜索","name_for_model":"google_search","description_for_model":"谷歌搜索是一个通用搜索引擎。 Format the arguments as a JSON object.",`+
		`"parameters":[{"name":"search_query","description":"搜索关键词或短语","required":true,"schema":{"type":"string"}}]}]`)
	var q01b string
	require.NoError(t, json.Unmarshal(fixture.ReactVectors(t)["Q01b"], &q01b))

	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"seed document, default variant", "", []string{"prompt", "--tools", file, query}, prompt + "\n"},
		{"seed document, doc variant", "", []string{"prompt", "--variant", "doc", "--tools", file, query}, prompt + "\n"},
		{"tools from stdin", string(tools), []string{"prompt", "--tools", "-", query}, prompt + "\n"},
		{"question from stdin", query + "\n", []string{"prompt", "--tools", file, "-"}, prompt + "\n"},
		{"flags after the question", "", []string{"prompt", query, "--tools", file}, prompt + "\n"},
		{"question in words", "", []string{"prompt", "--tools", file, "--", "-v", "x"}, strings.TrimSuffix(prompt, query) + "-v x\n"},
		{"Qwen Q01b, api variant", "", []string{"prompt", "--tools", openai, "--variant=api", "hi"}, q01b + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := reactRun(t, tc.stdin, tc.args...)
			assert.Equal(t, 0, code, errOut)
			assert.Equal(t, tc.want, out)
			assert.Empty(t, errOut)
		})
	}
}

func TestReactParse(t *testing.T) {
	tools := reactWriteFile(t, "tools.json", `[{"name":"get_weather","parameters":{}}]`)
	tests := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"action", "", []string{"parse", "Thought: I need the weather.\nAction: get_weather\nAction Input: {\"city\": \"Paris\"}\nObservation: x"},
			"{\n  \"thought\": \"I need the weather.\",\n  \"tool_call\": {\n    \"name\": \"get_weather\",\n    \"arguments\": {\"city\": \"Paris\"}\n  }\n}\n"},
		{"action from stdin", "Thought: t\nAction: get_weather\nAction Input: {\"city\": \"<Paris>\"}\n", []string{"parse", "--tools", tools, "-"},
			"{\n  \"thought\": \"t\",\n  \"tool_call\": {\n    \"name\": \"get_weather\",\n    \"arguments\": {\"city\": \"<Paris>\"}\n  }\n}\n"},
		{"final answer", "", []string{"parse", "Thought: I now know the final answer.\nFinal Answer: It is 20C & <sunny>."},
			"{\n  \"final_answer\": \"It is 20C & <sunny>.\"\n}\n"},
		{"last final answer", "Thought: a\nFinal Answer: one\nThought: b\nFinal Answer: two\n", []string{"parse", "-"},
			"{\n  \"final_answer\": \"two\"\n}\n"},
		{"final answer ending with a newline", "Thought: a\nFinal Answer: two\n\n", []string{"parse", "-"},
			"{\n  \"final_answer\": \"two\\n\"\n}\n"},
		// Qwen's parse_response passes an Action Input that is not JSON on
		// as the string the model wrote (seedsys Q11, "arguments are an
		// unparsed string"); the output stays JSON by quoting it.
		{"arguments not JSON", "", []string{"parse", "\nAction: get_weather\nAction Input: {city: Paris}"},
			"{\n  \"thought\": \"\",\n  \"tool_call\": {\n    \"name\": \"get_weather\",\n    \"arguments\": \"{city: Paris}\"\n  }\n}\n"},
		{"arguments a bare string", "Thought: 我应该画图。\nAction: image_gen\nAction Input: 五彩斑斓的黑 <&>\nObservation: x\n", []string{"parse", "-"},
			"{\n  \"thought\": \"我应该画图。\",\n  \"tool_call\": {\n    \"name\": \"image_gen\",\n    \"arguments\": \"五彩斑斓的黑 <&>\"\n  }\n}\n"},
		{"arguments empty", "", []string{"parse", "Thought: t\nAction: f\nAction Input:"},
			"{\n  \"thought\": \"t\",\n  \"tool_call\": {\n    \"name\": \"f\",\n    \"arguments\": \"\"\n  }\n}\n"},
		{"seed example", "Thought: 我应该使用通义万相API来生成一张五彩斑斓的黑的图片。\nAction: image_gen\nAction Input: {\"query\": \"五彩斑斓的黑\"}\n", []string{"parse", "-"},
			"{\n  \"thought\": \"我应该使用通义万相API来生成一张五彩斑斓的黑的图片。\",\n  \"tool_call\": {\n    \"name\": \"image_gen\",\n    \"arguments\": {\"query\": \"五彩斑斓的黑\"}\n  }\n}\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := reactRun(t, tc.stdin, tc.args...)
			assert.Equal(t, 0, code, errOut)
			assert.Equal(t, tc.want, out)
			assert.True(t, json.Valid([]byte(out)), out)
		})
	}
}

func TestReactErrors(t *testing.T) {
	tools := reactWriteFile(t, "tools.json", `[{"name":"get_weather","parameters":{}}]`)
	bad := reactWriteFile(t, "bad.json", "[\n  {\"name\": \"x\",}\n]")
	tests := []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stderr string
	}{
		{"no subcommand", "", nil, 2, "missing subcommand"},
		{"unknown subcommand", "", []string{"run"}, 2, `unknown subcommand "run"`},
		{"prompt without tools", "", []string{"prompt", "q"}, 2, "--tools is required"},
		{"prompt without question", "", []string{"prompt", "--tools", tools}, 2, "missing QUESTION"},
		{"unknown variant", "", []string{"prompt", "--tools", tools, "--variant", "chatml", "q"}, 2, `unknown variant "chatml"`},
		{"unknown flag", "", []string{"prompt", "--tool", tools, "q"}, 2, "flag provided but not defined: -tool"},
		{"missing tools file", "", []string{"prompt", "--tools", tools + ".missing", "q"}, 1, "no such file"},
		{"tools not JSON", "", []string{"prompt", "--tools", bad, "q"}, 1, bad + ":2:16: invalid character '}'"},
		{"tool without name", `[{"description":"x"}]`, []string{"prompt", "--tools", "-", "q"}, 1, "-: react: tool 1: neither name_for_model nor name is given"},
		{"parse without reply", "", []string{"parse"}, 2, "want one REPLY"},
		{"parse two replies", "", []string{"parse", "a", "b"}, 2, "want one REPLY"},
		{"reply is neither", "", []string{"parse", "Hello there"}, 1, "reply: Invalid format: write \"Action:\" and \"Action Input:\" lines to use a tool, or a \"Final Answer:\" line to answer.\n"},
		{"final answer on the first line", "", []string{"parse", "Final Answer: 42"}, 1, "reply: Invalid format: write \"Action:\" and \"Action Input:\" lines to use a tool, or a \"Final Answer:\" line to answer. (The reply's first line is its thought: \"Final Answer:\" and \"Action:\" count from the second line on, as Qwen's parse_response reads them.)\n"},
		{"action on the first line", "", []string{"parse", "Action: get_weather\nAction Input: {}"}, 1, "(The reply's first line is its thought: \"Final Answer:\" and \"Action:\" count from the second line on, as Qwen's parse_response reads them.)\n"},
		{"unknown tool", "", []string{"parse", "--tools", tools, "\nAction: get_time\nAction Input: {}"}, 1, "get_time is not a valid tool, try one of [get_weather]."},
		{"prompt, both from stdin", "", []string{"prompt", "--tools", "-", "-"}, 2, "cannot both be standard input"},
		{"both from stdin", "", []string{"parse", "--tools", "-", "-"}, 2, "cannot both be standard input"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := reactRun(t, tc.stdin, tc.args...)
			assert.Equal(t, tc.code, code)
			assert.Empty(t, out)
			assert.Contains(t, errOut, tc.stderr)
			if tc.code == 2 {
				assert.Contains(t, errOut, "usage:")
			}
		})
	}
}

func TestReactHelp(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"help"}, "usage:\n  rolemark react prompt --tools TOOLS.json [--variant V] QUESTION|-\n  rolemark react parse [--tools TOOLS.json] REPLY|-\n"},
		{[]string{"prompt", "-h"}, "usage: rolemark react prompt --tools TOOLS.json [--variant V] QUESTION|-\nTOOLS.json is"},
		{[]string{"parse", "--help"}, "usage: rolemark react parse [--tools TOOLS.json] REPLY|-\nTOOLS.json is"},
	}
	for _, tc := range tests {
		code, out, _ := reactRun(t, "", tc.args...)
		assert.Equal(t, 0, code, tc.args)
		assert.True(t, strings.HasPrefix(out, tc.want), out)
	}
}
