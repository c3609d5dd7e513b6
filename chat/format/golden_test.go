package format_test

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/chat/format"
)

// The golden files hold what each model's real HuggingFace chat template
// renders for a set of conversations; testdata/oracle.py writes them, and
// go test -update runs it (python3 with Jinja2, and the ollama module in
// the Go module cache, as the script's header says).

var update = flag.Bool("update", false, "regenerate testdata/golden by running testdata/oracle.py")

type goldenFile struct {
	Preset   string         `json:"preset"`
	Template string         `json:"template"`
	Results  []goldenResult `json:"results"`
}

type goldenResult struct {
	Name      string  `json:"name"`
	Output    *string `json:"output"`
	Error     string  `json:"error"`
	ErrorKind string  `json:"error_kind"`
}

// goldenCase is one conversation of testdata/golden/cases.json, in the
// message shape HuggingFace templates read.
type goldenCase struct {
	Name                 string      `json:"name"`
	Messages             []hfMessage `json:"messages"`
	Tools                []hfTool    `json:"tools"`
	AddGenerationPrompt  bool        `json:"add_generation_prompt"`
	ContinueFinalMessage bool        `json:"continue_final_message"`
}

type hfMessage struct {
	Role       chat.Role    `json:"role"`
	Content    string       `json:"content"`
	ToolCalls  []hfToolCall `json:"tool_calls"`
	ToolCallID string       `json:"tool_call_id"`
}

type hfToolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

type hfTool struct {
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

func (c goldenCase) messages() []chat.Message {
	out := make([]chat.Message, len(c.Messages))
	for i, m := range c.Messages {
		msg := chat.Text(m.Role, m.Content)
		msg.ToolCallID = m.ToolCallID
		for _, tc := range m.ToolCalls {
			msg.ToolCalls = append(msg.ToolCalls, chat.ToolCall{ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		out[i] = msg
	}
	return out
}

// hasToolParts reports whether the case offers tools or holds tool calls.
func (c goldenCase) hasToolParts() bool {
	for _, m := range c.Messages {
		if len(m.ToolCalls) > 0 {
			return true
		}
	}
	return len(c.Tools) > 0
}

func (c goldenCase) tools() []chat.Tool {
	var out []chat.Tool
	for _, t := range c.Tools {
		out = append(out, chat.Tool{Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
	}
	return out
}

func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, v), path)
}

func readGolden(t testing.TB) (map[string]goldenCase, []goldenFile) {
	t.Helper()
	var list []goldenCase
	readJSON(t, filepath.Join("testdata", "golden", "cases.json"), &list)
	cases := make(map[string]goldenCase, len(list))
	for _, c := range list {
		cases[c.Name] = c
	}
	paths, err := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	require.NoError(t, err)
	var files []goldenFile
	for _, p := range paths {
		if filepath.Base(p) == "cases.json" {
			continue
		}
		var g goldenFile
		readJSON(t, p, &g)
		require.Len(t, g.Results, len(list), "%s: one result per case", p)
		files = append(files, g)
	}
	require.NotEmpty(t, files)
	return cases, files
}

func TestGolden(t *testing.T) {
	if *update {
		cmd := exec.Command("python3", filepath.Join("testdata", "oracle.py"))
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		t.Logf("%s", out)
	}
	cases, files := readGolden(t)
	for _, g := range files {
		t.Run(g.Preset, func(t *testing.T) {
			f, ok := format.Lookup(g.Preset)
			require.True(t, ok, "no preset %q", g.Preset)
			for _, res := range g.Results {
				c, ok := cases[res.Name]
				require.True(t, ok, "no case %q", res.Name)
				t.Run(c.Name, func(t *testing.T) {
					opts := format.Options{
						AddGenerationPrompt: c.AddGenerationPrompt,
						ContinueFinal:       c.ContinueFinalMessage,
						Tools:               c.tools(),
						AllowSpecialTokens:  true,
					}
					got, err := f.Render(c.messages(), opts)
					// AppendRender writes the same after what dst holds,
					// and leaves dst as it was when it fails.
					appended, aerr := f.AppendRender([]byte("before|"), c.messages(), opts)
					assert.Equal(t, fmt.Sprint(err), fmt.Sprint(aerr))
					if err == nil {
						assert.Equal(t, "before|"+got, string(appended))
					} else {
						assert.Equal(t, "before|", string(appended))
					}
					var pe *format.PartError
					if errors.As(err, &pe) {
						// The template leaves the part out; the preset
						// refuses rather than drop it.
						assert.True(t, c.hasToolParts(), "%v", err)
						return
					}
					if res.Output != nil {
						require.NoError(t, err)
						assert.Equal(t, *res.Output, got)
						return
					}
					require.Error(t, err, "template raised %s: %s", res.ErrorKind, res.Error)
					if res.ErrorKind == "TemplateError" {
						var fe *format.Error
						require.True(t, errors.As(err, &fe), "want *format.Error, got %T %v", err, err)
						assert.Equal(t, res.Error, fe.Msg)
						return
					}
					assert.True(t, strings.HasPrefix(err.Error(), "format"), err.Error())
				})
			}
		})
	}
}

// Every preset has golden cases, except the ones no HuggingFace template
// exists for.
func TestGoldenCoversPresets(t *testing.T) {
	have := map[string]bool{}
	_, files := readGolden(t)
	for _, g := range files {
		have[g.Preset] = true
	}
	for _, name := range format.Names() {
		if name == "lazyllm-chat" {
			continue
		}
		assert.True(t, have[name], "preset %s has no golden file", name)
	}
}
