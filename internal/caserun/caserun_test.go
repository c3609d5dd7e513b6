package caserun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

// upper is a stand-in format: the role and text of each message.
func upper(_ context.Context, w io.Writer, msgs []chat.Message, format string, _ []chat.Tool) error {
	if format != "plain" {
		return fmt.Errorf("no format %s", format)
	}
	for _, m := range msgs {
		fmt.Fprintf(w, "%s: %s\n", m.Role, m.Text())
	}
	return nil
}

func TestFile(t *testing.T) {
	const tpl = `<message role="user">{{q}}</message>`
	tests := []struct {
		name    string
		cases   string
		confine func(string) error
		passed  []bool
		got     []string // each outcome's result now, as its file writes it
		err     string
	}{
		{
			name: "pass, fail, unrecorded, error",
			cases: "cases:\n  - name: same\n    inputs: {q: hi}\n    messages: [{role: user, content: hi}]\n" +
				"  - name: other\n    inputs: {q: bye}\n    messages: [{role: user, content: hi}]\n" +
				"  - name: new\n    inputs: {q: x}\n" +
				"  - name: missing\n    inputs: {}\n    error: x\n",
			passed: []bool{true, false, false, false},
			got: []string{"messages:\n  - role: user\n    content: hi\n", "messages:\n  - role: user\n    content: bye\n",
				"messages:\n  - role: user\n    content: x\n", "error: 'p.hbs:1:24: variable \"q\" is not supplied'\n"},
		},
		{
			name:   "a format",
			cases:  "cases:\n  - name: plain\n    format: plain\n    inputs: {q: hi}\n    prompt: \"user: hi\\n\"\n",
			passed: []bool{true},
			got:    []string{"prompt: |\n  user: hi\n"},
		},
		{
			name:  "a format that fails",
			cases: "cases:\n  - name: odd\n    format: odd\n    inputs: {q: hi}\n",
			err:   `p.cases.yaml: case "odd": unknown odd`,
		},
		{
			name:  "hf outside the directory",
			cases: "cases:\n  - name: hf\n    format: hf:../x.jinja\n    inputs: {q: hi}\n",
			err:   `p.cases.yaml: case "hf": format hf:../x.jinja: the chat template must be a file under prompts, named relative to the cases file`,
		},
		{
			name:    "hf refused by Confine",
			cases:   "cases:\n  - name: hf\n    format: hf:x.jinja\n    inputs: {q: hi}\n",
			confine: func(name string) error { return errors.New(name + " leads outside") },
			err:     `p.cases.yaml: case "hf": format hf:x.jinja: x.jinja leads outside`,
		},
		{
			name:  "a file that does not parse",
			cases: "cases:\n  - name: [\n",
			err:   "p.cases.yaml:2:1: did not find expected node content",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{"p.hbs": {Data: []byte(tpl)}, "p.cases.yaml": {Data: []byte(tc.cases)}}
			r := Runner{Set: engine.NewSet(handlebars.New()), FS: fsys, Dir: "prompts", Format: upper, Confine: tc.confine,
				CheckFormat: func(f string) error {
					if f != "plain" && f[:3] != "hf:" {
						return fmt.Errorf("unknown %s", f)
					}
					return nil
				}}
			f, outs, err := r.File(context.Background(), "p.cases.yaml")
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				assert.Nil(t, outs)
				return
			}
			require.NoError(t, err)
			require.NotNil(t, f)
			require.Len(t, outs, len(tc.passed))
			for i, o := range outs {
				assert.Equal(t, tc.passed[i], o.Passed(), o.Case.Name)
				_, got := o.Texts()
				assert.Equal(t, tc.got[i], got, o.Case.Name)
			}
		})
	}
}
