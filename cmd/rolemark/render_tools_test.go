package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRenderToolsByNameAndVariant runs render on the prompts of
// testdata/dotprompt-store, which name the tools of its tools.json and have
// variants (engine/dotprompt_store_test.go compares them with Dotprompt).
func TestRenderToolsByNameAndVariant(t *testing.T) {
	const store = "../../testdata/dotprompt-store/"
	tools := store + "tools.json"
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{"a variant with a named tool", []string{"render", "--tools", tools, "--variant", "short", "--format", "openai-request", "--var", "city=Paris", store + "prompts/weather.prompt"}, 0,
			`{
  "model": "googleai/gemini-2.0-flash",
  "messages": [
    {
      "role": "user",
      "content": "Weather in Paris, in one word?"
    }
  ],
  "tools": [
    {
      "type": "function",
      "function": {
        "name": "getWeather",
        "description": "Weather in a city",
        "parameters": {
          "type": "object",
          "properties": {
            "city": {
              "type": "string"
            }
          },
          "required": [
            "city"
          ]
        }
      }
    }
  ]
}
`, ""},
		// A chat format shows the tools the template names, not every tool of the file.
		{"named tools in a chat format", []string{"render", "--tools", tools, "--variant", "short", "--format", "qwen2.5", "--var", "city=Paris", store + "prompts/weather.prompt"}, 0, "", ""},
		{"the variant's own text", []string{"render", "--variant", "formal", "--format", "markup", "--var", "input=open an account", store + "prompts/bank.prompt"}, 0,
			"<message role=\"system\">You are a bank manager. Address the customer formally.&#10;</message>\n<message role=\"user\">I want to open an account.</message>\n", ""},
		{"an unknown tool names the file, line and column", []string{"render", "--tools", tools, "--var", "city=Paris", store + "bad/unknown.prompt"}, 1, "",
			store + "bad/unknown.prompt:2:21: front matter: unknown tool \"getWether\"; registered: getTime, getWeather\n"},
		{"a named tool without --tools", []string{"render", "--var", "city=Paris", store + "prompts/weather.prompt"}, 1, "",
			store + "prompts/weather.prompt:3:9: front matter: unknown tool \"getWeather\": no tools are registered (engine.Tools; rolemark --tools FILE)\n"},
		{"a missing variant names its file", []string{"render", "--variant", "casual", store + "prompts/bank.prompt"}, 1, "",
			"open " + store + "prompts/bank.casual.prompt: no such file or directory\n"},
		{"a variant needs a file", []string{"render", "--engine", "handlebars", "--variant", "short", "-"}, 2, "",
			"rolemark render: --variant needs a template file: it reads the file NAME.short.prompt beside NAME.prompt\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tc.args, strings.NewReader(""), &out, &errOut)
			assert.Equal(t, tc.wantCode, code, "stderr: %s", errOut.String())
			if tc.wantCode == 2 {
				assert.True(t, strings.HasPrefix(errOut.String(), tc.wantErr), errOut.String())
				return
			}
			assert.Equal(t, tc.wantErr, errOut.String())
			if tc.wantOut != "" {
				assert.Equal(t, tc.wantOut, out.String())
			}
			if strings.Contains(tc.name, "chat format") {
				assert.Contains(t, out.String(), `"name": "getWeather"`)
				assert.NotContains(t, out.String(), "getTime")
			}
		})
	}
}

// TestCheckToolsByName checks prompts that name tools: with the tools of
// --tools they are sound, without them each name is a problem at its place.
func TestCheckToolsByName(t *testing.T) {
	const prompts = "../../testdata/dotprompt-store/prompts"
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"check", "--tools", "../../testdata/dotprompt-store/tools.json", prompts}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, 0, code, "%s%s", out.String(), errOut.String())
	assert.Empty(t, out.String()+errOut.String())

	out.Reset()
	code = run(context.Background(), []string{"check", prompts}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, 1, code)
	assert.Equal(t, prompts+`/lookup.prompt:2:9: front matter: unknown tool "getTime": no tools are registered (engine.Tools; rolemark --tools FILE)
`+prompts+`/weather.prompt:3:9: front matter: unknown tool "getWeather": no tools are registered (engine.Tools; rolemark --tools FILE)
`+prompts+`/weather.short.prompt:3:9: front matter: unknown tool "getWeather": no tools are registered (engine.Tools; rolemark --tools FILE)
`, out.String())
}
