package cases_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/cases"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
)

func casesSet() *engine.Set { return engine.NewSet(handlebars.New(), gotmpl.New()) }

func TestReadCases(t *testing.T) {
	fsys := fstest.MapFS{
		"p/bank.prompt": {Data: []byte("{{input}}")},
		"p/bank.cases.yaml": {Data: []byte(`# comment
cases:
  - name: a loan
    variant: formal
    inputs: {input: a loan, n: 2}
    history:
      - {role: user, content: hi}
    data: {branch: Lyon}
    messages:
      - role: user
        content: a loan
  - name: as ChatML
    format: chatml
    inputs: {}
    prompt: |
      <|im_start|>user
  - name: fails
    inputs: {}
    error: boom
  - name: not recorded
    inputs: {}
`)},
	}
	f, err := cases.Read(casesSet(), fsys, "p/bank.cases.yaml")
	require.NoError(t, err)
	assert.Equal(t, "p/bank.prompt", f.Prompt)
	require.Len(t, f.Cases, 4)
	assert.Equal(t, cases.Case{Name: "a loan", Variant: "formal",
		Inputs:  map[string]any{"input": "a loan", "n": float64(2)},
		History: []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartText, Text: "hi"}}}},
		Data:    map[string]any{"branch": "Lyon"},
		Want:    &cases.Result{Messages: []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartText, Text: "a loan"}}}}},
	}, f.Cases[0])
	assert.Equal(t, &cases.Result{Text: "<|im_start|>user\n"}, f.Cases[1].Want)
	assert.Equal(t, "chatml", f.Cases[1].Format)
	assert.Equal(t, &cases.Result{Error: "boom"}, f.Cases[2].Want)
	assert.Nil(t, f.Cases[3].Want)
}

func TestReadCasesErrors(t *testing.T) {
	tests := []struct{ name, file, src, want string }{
		{"bad yaml", "bank.cases.yaml", "cases: [\n", "bank.cases.yaml:1:1: did not find expected node content"},
		// An error yaml names no line of: its message without "yaml: ", as
		// front matter's reads.
		{"invalid UTF-8", "bank.cases.yaml", "cases: \xff\n", "bank.cases.yaml: invalid leading UTF-8 octet"},
		{"not a mapping", "bank.cases.yaml", "- name: a\n", "bank.cases.yaml:1:1: a cases file is a mapping with template and cases"},
		{"unknown top key", "bank.cases.yaml", "case: []\n", `bank.cases.yaml:1:1: unknown key "case"; expected template or cases`},
		{"no cases", "bank.cases.yaml", "template: bank.prompt\n", "bank.cases.yaml:1:1: no cases: key"},
		{"unknown case key", "bank.cases.yaml", "cases:\n  - name: a\n    input: {}\n", `bank.cases.yaml:3:5: unknown key "input" in a case; expected name, inputs, variant, format, history, data, messages, prompt or error`},
		{"no name", "bank.cases.yaml", "cases:\n  - inputs: {}\n", "bank.cases.yaml:2:5: a case needs a name"},
		{"duplicate name", "bank.cases.yaml", "cases:\n  - name: a\n  - name: a\n", `bank.cases.yaml:3:5: case "a" is also at line 2`},
		// A repeated key was read last, and Add wrote to the first cases
		// list: the case added was lost when the file was read again.
		{"repeated key", "bank.cases.yaml", "cases:\n  - name: a\ncases:\n  - name: b\n", `bank.cases.yaml:3:1: key "cases" is already defined at line 1`},
		{"repeated key in a case", "bank.cases.yaml", "cases:\n  - name: a\n    name: b\n", `bank.cases.yaml:3:5: key "name" is already defined at line 2`},
		{"two results", "bank.cases.yaml", "cases:\n  - name: a\n    messages: []\n    error: x\n", "bank.cases.yaml:4:5: error and messages (line 3): a case records one result, messages, prompt or error"},
		{"inputs not a mapping", "bank.cases.yaml", "cases:\n  - name: a\n    inputs: [1]\n", "bank.cases.yaml:3:13: inputs must be a mapping of variable names to values"},
		{"bad history", "bank.cases.yaml", "cases:\n  - name: a\n    history: [{role: 3}]\n", "bank.cases.yaml:3:14: history: json: cannot unmarshal number into Go struct field wireMessage.role of type chat.Role"},
		{"no template", "other.cases.yaml", "cases: []\n", "other.cases.yaml: no template other.* beside it; name one with a template: key"},
		{"two templates", "both.cases.yaml", "cases: []\n", "both.cases.yaml: both.hbs and both.tmpl are all named both; name one with a template: key"},
		{"missing template", "bank.cases.yaml", "template: gone.prompt\ncases: []\n", "bank.cases.yaml:1:11: template gone.prompt: open gone.prompt: file does not exist"},
		// An absolute name or one outside the directory read as a missing
		// file (stat tmp/x.hbs: no such file), for a file that exists.
		{"absolute template", "bank.cases.yaml", "template: /tmp/x.hbs\ncases: []\n", "bank.cases.yaml:1:11: template /tmp/x.hbs: not a file under the directory read; name it relative to the cases file"},
		{"template outside", "bank.cases.yaml", "template: ../x.hbs\ncases: []\n", "bank.cases.yaml:1:11: template ../x.hbs: not a file under the directory read; name it relative to the cases file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"bank.prompt": {Data: []byte("x")},
				"both.hbs":    {Data: []byte("x")},
				"both.tmpl":   {Data: []byte("x")},
				tc.file:       {Data: []byte(tc.src)},
			}
			_, err := cases.Read(casesSet(), fsys, tc.file)
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

func TestCaseFileRecord(t *testing.T) {
	src := `# Cases of bank.prompt.
cases:
  # kept
  - name: a
    inputs: {input: x}
    error: old
    format: markup
  - name: b
    inputs: {input: y}
`
	fsys := fstest.MapFS{"bank.prompt": {Data: []byte("x")}, "bank.cases.yaml": {Data: []byte(src)}}
	f, err := cases.Read(casesSet(), fsys, "bank.cases.yaml")
	require.NoError(t, err)
	require.NoError(t, f.Record(0, cases.Result{Text: "<message role=\"user\">x</message>\n"}))
	require.NoError(t, f.Record(1, cases.Result{Messages: []chat.Message{
		{Role: chat.RoleSystem, Content: []chat.Part{{Type: chat.PartText, Text: "two\nlines"}}},
		{Role: chat.RoleAssistant, ToolCalls: []chat.ToolCall{{ID: "c1", Name: "get_rate", Arguments: []byte(`{"currency":"EUR"}`)}}},
	}}))
	b, err := f.Marshal()
	require.NoError(t, err)
	assert.Equal(t, `# Cases of bank.prompt.
cases:
  # kept
  - name: a
    inputs: {input: x}
    prompt: |
      <message role="user">x</message>
    format: markup
  - name: b
    inputs: {input: y}
    messages:
      - role: system
        content: |-
          two
          lines
      - role: assistant
        content: null
        tool_calls:
          - id: c1
            type: function
            function:
              name: get_rate
              arguments: '{"currency":"EUR"}'
`, string(b))
	assert.Equal(t, &cases.Result{Text: "<message role=\"user\">x</message>\n"}, f.Cases[0].Want)
	// an index that is no case's is an error, not a panic
	assert.EqualError(t, f.Record(2, cases.Result{}), "bank.cases.yaml: no case 2 to record; the file has 2")
	assert.EqualError(t, cases.New("new.cases.yaml", "new.prompt").Record(0, cases.Result{}), "new.cases.yaml: no case 0 to record; the file has 0")
}

// TestCaseFileAddToFlowList: a case added to a list written as [] is
// written in block style, as a new file's are; a case the author wrote in
// flow style stays so.
func TestCaseFileAddToFlowList(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"empty", "cases: []\n", `cases:
  - name: new
    inputs: {}
    prompt: |-
      two
      lines
`},
		{"a case", "cases: [{name: a, inputs: {}}]\n", `cases:
  - {name: a, inputs: {}}
  - name: new
    inputs: {}
    prompt: |-
      two
      lines
`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{"bank.prompt": {Data: []byte("x")}, "bank.cases.yaml": {Data: []byte(tc.src)}}
			f, err := cases.Read(casesSet(), fsys, "bank.cases.yaml")
			require.NoError(t, err)
			require.NoError(t, f.Put(cases.Case{Name: "new", Want: &cases.Result{Text: "two\nlines"}}))
			b, err := f.Marshal()
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(b))
		})
	}
}

func TestResultEqual(t *testing.T) {
	msgs := func(s string) *cases.Result {
		return &cases.Result{Messages: []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartText, Text: s}}}}}
	}
	assert.True(t, msgs("a").Equal(msgs("a")))
	assert.False(t, msgs("a").Equal(msgs("b")))
	assert.False(t, msgs("a").Equal(nil))
	assert.True(t, (*cases.Result)(nil).Equal(nil))
	assert.False(t, (&cases.Result{Text: "a"}).Equal(&cases.Result{Error: "a"}))
	assert.True(t, (&cases.Result{Messages: []chat.Message{}}).Equal(&cases.Result{}))
}

func TestSaveCase(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644))
	}
	write("support/bank.prompt", "{{input}}")
	write("support/bank.formal.prompt", "Dear customer, {{input}}")
	write("tour/prompt.hbs", "x")
	write("tour/prompt.tmpl", "x")
	set := casesSet()
	want := &cases.Result{Messages: []chat.Message{{Role: chat.RoleUser, Content: []chat.Part{{Type: chat.PartText, Text: "a loan"}}}}}

	file, err := cases.Save(set, dir, "support/bank.prompt", cases.Case{Name: "a loan", Inputs: map[string]any{"input": "a loan"}, Want: want})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "support", "bank.cases.yaml"), file)
	info, err := os.Stat(file)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), info.Mode().Perm(), "a file of the repository, as git writes it")
	// A variant's case goes to the prompt's file, naming the variant; a
	// case of the same name is replaced where it stands.
	_, err = cases.Save(set, dir, "support/bank.formal.prompt", cases.Case{Name: "formal", Inputs: map[string]any{"input": "a loan"}})
	require.NoError(t, err)
	_, err = cases.Save(set, dir, "support/bank.prompt", cases.Case{Name: "a loan", Inputs: map[string]any{"input": "a car"}})
	require.NoError(t, err)
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, `template: bank.prompt
cases:
  - name: a loan
    inputs:
      input: a car
  - name: formal
    variant: formal
    inputs:
      input: a loan
`, string(b))

	f, err := cases.Read(set, os.DirFS(dir), "support/bank.cases.yaml")
	require.NoError(t, err)
	assert.Equal(t, "support/bank.prompt", f.Prompt)

	// Two templates named prompt: each gets a file of its own.
	file, err = cases.Save(set, dir, "tour/prompt.tmpl", cases.Case{Name: "x"})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "tour", "prompt.tmpl.cases.yaml"), file)
	b, err = os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, "template: prompt.tmpl\ncases:\n  - name: x\n    inputs: {}\n", string(b))

	_, err = cases.Save(set, dir, "support/bank.prompt", cases.Case{})
	assert.EqualError(t, err, "a case needs a name")
}

// TestReadCasesAliasBomb reads a cases file whose aliases expand to 10^9
// values (a billion laughs): it is refused, not expanded. Run it under
// ulimit -v 4000000.
func TestReadCasesAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("cases:\n  - name: bomb\n    inputs:\n      a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&b, "      a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 10), ", "))
	}
	fsys := fstest.MapFS{"b.hbs": {Data: []byte("x")}, "b.cases.yaml": {Data: []byte(b.String())}}
	_, err := cases.Read(casesSet(), fsys, "b.cases.yaml")
	assert.EqualError(t, err, "b.cases.yaml:4:7: inputs: yaml: document contains excessive aliasing")
}
