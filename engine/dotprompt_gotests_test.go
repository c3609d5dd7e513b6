package engine_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/handlebars"
)

// TestDotpromptGoParseCases runs the source-to-prompt cases of Dotprompt's
// Go port (google/dotprompt go/dotprompt/parse_test.go at aa4bf02:
// TestFrontmatterAndBodyRegex and TestParseDocument) through rolemark: a
// .prompt file's front matter (name, description, model, the keys with a
// dot in Ext, the whole of it in Raw) and its body, which Dotprompt trims
// and rolemark renders as one user message. Where rolemark differs on
// purpose, err is rolemark's error and docs/dotprompt.md says why.
func TestDotpromptGoParseCases(t *testing.T) {
	tests := []struct {
		name, src   string
		body        string // the user message's text; "" for no message
		fmName      string
		description string
		model       string
		ext         map[string]map[string]any
		raw         map[string]any
		err         string
	}{
		// TestFrontmatterAndBodyRegex
		{name: "CRLF line endings", src: "---\r\nfoo: bar\r\n---\r\nThis is the body.\r\n", body: "This is the body.", raw: map[string]any{"foo": "bar"}},
		{name: "CR line endings", src: "---\rfoo: bar\r---\rThis is the body.\r", body: "This is the body.", raw: map[string]any{"foo": "bar"}},
		{name: "LF line endings", src: "---\nfoo: bar\n---\nThis is the body.\n", body: "This is the body.", raw: map[string]any{"foo": "bar"}},
		{name: "frontmatter and body", src: "---\nfoo: bar\n---\nThis is the body.", body: "This is the body.", raw: map[string]any{"foo": "bar"}},
		{name: "empty frontmatter", src: "---\n\n---\nBody only.", body: "Body only."},
		{name: "empty body", src: "---\nfoo: bar\n---\n", raw: map[string]any{"foo": "bar"}},
		{name: "multiline frontmatter", src: "---\nfoo: bar\nbaz: qux\n---\nThis is the body.", body: "This is the body.", raw: map[string]any{"foo": "bar", "baz": "qux"}},
		{name: "no frontmatter markers", src: "Just a body.", body: "Just a body."},
		{name: "incomplete frontmatter markers", src: "---\nfoo: bar\nThis is the body.", body: "---\nfoo: bar\nThis is the body."},
		{name: "extra frontmatter markers", src: "---\nfoo: bar\n---\nThis is the body.\n---\nExtra section.", body: "This is the body.\n---\nExtra section.", raw: map[string]any{"foo": "bar"}},
		// TestParseDocument
		{name: "frontmatter and template", src: "---\nname: test\ndescription: test description\nfoo.bar: value\n---\nTemplate content",
			body: "Template content", fmName: "test", description: "test description",
			ext: map[string]map[string]any{"foo": {"bar": "value"}},
			raw: map[string]any{"name": "test", "description": "test description", "foo.bar": "value"}},
		{name: "document without frontmatter", src: "Just template content", body: "Just template content"},
		{name: "invalid yaml frontmatter", src: "---\ninvalid: : yaml\n---\nTemplate content",
			err: "t.prompt:2:10: front matter: mapping values are not allowed in this context"},
		{name: "empty frontmatter without a blank line", src: "---\n---\nTemplate content", body: "Template content"},
		{name: "multiple namespaced entries", src: "---\nfoo.bar: value1\nfoo.baz: value2\nqux.quux: value3\n---\nTemplate content",
			body: "Template content", ext: map[string]map[string]any{"foo": {"bar": "value1", "baz": "value2"}, "qux": {"quux": "value3"}},
			raw: map[string]any{"foo.bar": "value1", "foo.baz": "value2", "qux.quux": "value3"}},
		{name: "reserved keywords", src: "---\nconfig: value-config\ndescription: value-description\ninput: value-input\nmaxTurns: value-maxTurns\nmodel: value-model\nname: value-name\noutput: value-output\nraw: value-raw\ntoolDefs: value-toolDefs\ntools: value-tools\nvariant: value-variant\nversion: value-version\n---\nTemplate content",
			err: "t.prompt:2:9: front matter: config must be a mapping of model parameters"},
		{name: "license header before frontmatter", src: "# Copyright 2025 Google LLC\n# License: Apache 2.0\n---\nmodel: gemini-pro\n---\nHello!",
			body: "Hello!", model: "gemini-pro", raw: map[string]any{"model": "gemini-pro"}},
		{name: "shebang before frontmatter", src: "#!/usr/bin/env promptly\n---\nmodel: gemini-flash\n---\nHello shebang!",
			body: "Hello shebang!", model: "gemini-flash", raw: map[string]any{"model": "gemini-flash"}},
		{name: "shebang and license header before frontmatter", src: "#!/usr/bin/env promptly\n# Copyright 2025 Google\n# SPDX: Apache-2.0\n---\nmodel: gemini-2.5-flash\n---\nHello combined!",
			body: "Hello combined!", model: "gemini-2.5-flash", raw: map[string]any{"model": "gemini-2.5-flash"}},
	}
	set := engine.NewSet(handlebars.New())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.Parse("handlebars", "t.prompt", tc.src)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), nil)
			require.NoError(t, err)
			if tc.body == "" {
				assert.Empty(t, msgs)
			} else {
				require.Len(t, msgs, 1)
				assert.Equal(t, "user", string(msgs[0].Role))
				assert.Equal(t, tc.body, msgs[0].Text())
			}
			fm := tpl.FrontMatter()
			if tc.raw == nil && tc.ext == nil && tc.model == "" && tc.fmName == "" {
				if fm != nil {
					assert.Empty(t, fm.Raw)
				}
				return
			}
			require.NotNil(t, fm)
			assert.Equal(t, tc.fmName, fm.Name)
			assert.Equal(t, tc.description, fm.Description)
			assert.Equal(t, tc.model, fm.Model)
			assert.Equal(t, tc.ext, fm.Ext)
			assert.Equal(t, tc.raw, fm.Raw)
		})
	}
}
