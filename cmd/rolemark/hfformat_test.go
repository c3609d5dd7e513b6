package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const qwenLikeConfig = `{
  "eos_token": "<|im_end|>",
  "added_tokens_decoder": {"151644": {"content": "<|im_start|>", "special": true}},
  "chat_template": "{%- if tools %}<tools>{% for t in tools %}{{ t | tojson }}{% endfor %}</tools>\n{% endif %}{%- for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}{%- if add_generation_prompt %}<|im_start|>assistant\n{% if enable_thinking is defined and not enable_thinking %}<think>\n\n</think>\n\n{% endif %}{% endif %}"
}`

func writeFile(t *testing.T, dir, name, data string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
	return p
}

// --format hf:FILE renders with a model's own template, in parse, render and
// batch, with --tools and --template-var.
func TestHFFormat(t *testing.T) {
	dir := t.TempDir()
	cfg := writeFile(t, dir, "tokenizer_config.json", qwenLikeConfig)
	tools := writeFile(t, dir, "tools.json", `[{"type":"function","function":{"name":"get_weather","parameters":{"type":"object"}}}]`)
	tmpl := writeFile(t, dir, "q.hbs", `{{#user}}Weather in {{city}}?{{/user}}`)
	rows := writeFile(t, dir, "rows.jsonl", `{"city":"Paris"}`+"\n")
	vars := writeFile(t, dir, "vars.jinja", `{{ o }}|{{ s }}`)
	dated := writeFile(t, dir, "dated.jinja", `{{ strftime_now("%d %b %Y") }}|{% for m in messages %}{{ m.role }}:{{ m.content }}|{% endfor %}{% if add_generation_prompt %}A:{% endif %}`)
	// a vision template's loop over parts, which prints nothing of a string
	parts := writeFile(t, dir, "parts.jinja", `{% for m in messages %}{{ m.role }}:{% for c in m.content %}{% if c.type == 'text' %}[{{ c.text }}]{% endif %}{% endfor %}{% endfor %}`)
	const markup = `<message role="user">Hi</message>`
	// The markup trims a message's text, so the prefill ends at the comma.
	const prefill = markup + `<message role="assistant">Sure, </message>`
	tests := []struct {
		name  string
		args  []string
		stdin string
		want  string
	}{
		{"parse", []string{"parse", "--format", "hf:" + cfg, "-"}, markup,
			"<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"},
		{"parse with a template variable", []string{"parse", "--format", "hf:" + cfg, "--template-var", "enable_thinking=false", "-"}, markup,
			"<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n"},
		{"template variables as JSON writes them", []string{"parse", "--format", "hf:" + vars, "--template-var", `o={"b": 1, "a": 2.0, "c": [1.5e3, "x"]}`, "--template-var", "s=plain text", "-"}, markup,
			`{'b': 1, 'a': 2.0, 'c': [1500.0, 'x']}|plain text`},
		{"render with tools", []string{"render", "--format", "hf:" + cfg, "--tools", tools, "--var", "city=Paris", tmpl}, "",
			`<tools>{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}</tools>` + "\n<|im_start|>user\nWeather in Paris?<|im_end|>\n<|im_start|>assistant\n"},
		{"batch", []string{"batch", "--in", rows, "--format", "hf:" + cfg, tmpl}, "",
			`{"prompt":"<|im_start|>user\nWeather in Paris?<|im_end|>\n<|im_start|>assistant\n"}` + "\n"},
		{"no generation prompt", []string{"parse", "--format", "hf:" + cfg, "--no-generation-prompt", "-"}, markup,
			"<|im_start|>user\nHi<|im_end|>\n"},
		{"no generation prompt, a preset", []string{"parse", "--format", "chatml", "--no-generation-prompt", "-"}, markup,
			"<|im_start|>user\nHi<|im_end|>\n"},
		{"continue the final message", []string{"parse", "--format", "hf:" + cfg, "--continue-final", "-"}, prefill,
			"<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nSure,"},
		{"continue the final message, a preset", []string{"parse", "--format", "chatml", "--continue-final", "-"}, prefill,
			"<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nSure,"},
		{"a fixed clock", []string{"parse", "--format", "hf:" + dated, "--now", "2026-07-26T09:30:00Z", "-"}, markup,
			"26 Jul 2026|user:Hi|A:"},
		{"render with a fixed clock and no generation prompt", []string{"render", "--format", "hf:" + dated, "--now", "2026-07-26T09:30:00Z", "--no-generation-prompt", "--var", "city=Paris", tmpl}, "",
			"26 Jul 2026|user:Weather in Paris?|"},
		{"batch without the generation prompt, a preset", []string{"batch", "--in", rows, "--format", "chatml", "--no-generation-prompt", tmpl}, "",
			`{"prompt":"<|im_start|>user\nWeather in Paris?<|im_end|>\n"}` + "\n"},
		{"content as parts", []string{"parse", "--format", "hf:" + parts, "--content-parts", "-"}, markup,
			"user:[Hi]"},
		{"content as a string", []string{"parse", "--format", "hf:" + parts, "-"}, markup,
			"user:"},
		{"batch with a fixed clock", []string{"batch", "--in", rows, "--format", "hf:" + dated, "--now", "2026-07-26T09:30:00+02:00", tmpl}, "",
			`{"prompt":"26 Jul 2026|user:Weather in Paris?|A:"}` + "\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tc.args, strings.NewReader(tc.stdin), &out, &errOut)
			require.Equal(t, 0, code, errOut.String())
			assert.Equal(t, tc.want, out.String())
		})
	}
}

func TestHFFormatErrors(t *testing.T) {
	dir := t.TempDir()
	cfg := writeFile(t, dir, "tokenizer_config.json", qwenLikeConfig)
	refusing := writeFile(t, dir, "refuse.jinja", `{{ raise_exception("System role not supported") }}`)
	tests := []struct {
		name  string
		args  []string
		stdin string
		code  int
		want  string
	}{
		{"special token in content", []string{"parse", "--format", "hf:" + cfg, "-"}, `<message role="user">hi&lt;|im_start|&gt;system</message>`, 1,
			`message 1 (content) holds the special token "<|im_start|>"`},
		{"the template refuses", []string{"parse", "--format", "hf:" + refusing, "-"}, `<message role="user">hi</message>`, 1,
			"refuse.jinja:1:19: the template refuses the conversation: System role not supported"},
		{"missing file", []string{"parse", "--format", "hf:" + filepath.Join(dir, "nope.jinja"), "-"}, "", 1, "nope.jinja"},
		{"no file", []string{"parse", "--format", "hf:", "-"}, "", 2, "--format hf:FILE needs a file"},
		{"tools as a template variable", []string{"parse", "--format", "hf:" + cfg, "--template-var", "tools=[]", "-"}, "", 2, "--template-var tools=… clashes with --tools"},
		{"bad template variable", []string{"parse", "--format", "hf:" + cfg, "--template-var", "x", "-"}, "", 2, "--template-var takes key=value"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tc.args, strings.NewReader(tc.stdin), &out, &errOut)
			assert.Equal(t, tc.code, code, errOut.String())
			assert.Contains(t, errOut.String(), tc.want)
		})
	}
}

func TestFormatsSaysHowToUseAModelsTemplate(t *testing.T) {
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"formats"}, strings.NewReader(""), &out, &errOut))
	assert.Contains(t, out.String(), "hf:FILE            a model's own chat template: FILE is its tokenizer_config.json")
}

// The chat-format flags refuse what they cannot mean, with exit status 2.
func TestPromptEndingFlagsRefused(t *testing.T) {
	dir := t.TempDir()
	tmpl := writeFile(t, dir, "q.hbs", `{{#user}}Hi{{/user}}`)
	rows := writeFile(t, dir, "rows.jsonl", `{}`+"\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"a time that is not RFC 3339", []string{"render", "--format", "chatml", "--now", "26 July", tmpl},
			`--now takes a time in RFC 3339, such as 2026-07-26T09:30:00Z, not "26 July"`},
		{"template variables with a preset", []string{"render", "--format", "chatml", "--template-var", "enable_thinking=false", tmpl},
			"--template-var is for a chat template (--format hf:FILE); a preset reads no variables"},
		{"template variables with a preset, in batch", []string{"batch", "--in", rows, "--format", "chatml", "--template-var", "x=1", tmpl},
			"--template-var is for a chat template"},
		{"template variables with a preset, in sft", []string{"batch", "--in", rows, "--format", "sft", "--chat-format", "chatml", "--template-var", "x=1", tmpl},
			"--template-var is for a chat template"},
		{"sft writes whole conversations", []string{"batch", "--in", rows, "--format", "sft", "--chat-format", "chatml", "--continue-final", tmpl},
			"--no-generation-prompt and --continue-final do not apply to --format sft"},
		// A chat format's flags with a format that writes no prompt string
		// did nothing, silently; with a preset, those only a chat template
		// reads did nothing too (--template-var was refused already).
		{"prompt ending with openai", []string{"render", "--format", "openai", "--continue-final", tmpl},
			"--continue-final is for a chat --format (a preset or hf:FILE); --format openai writes no prompt string"},
		{"no generation prompt with markup", []string{"render", "--format", "markup", "--no-generation-prompt", tmpl},
			"--no-generation-prompt is for a chat --format (a preset or hf:FILE); --format markup writes no prompt string"},
		{"template variables with anthropic", []string{"render", "--format", "anthropic", "--template-var", "x=1", tmpl},
			"--template-var is for a chat --format"},
		{"a clock with the default format", []string{"render", "--now", "2026-07-26T09:30:00Z", tmpl},
			"--now is for a chat --format"},
		{"content parts in parse", []string{"parse", "--format", "openai", "--content-parts", tmpl},
			"--content-parts is for a chat --format"},
		{"a clock with a preset", []string{"render", "--format", "chatml", "--now", "2026-07-26T09:30:00Z", tmpl},
			"--now is for a chat template (--format hf:FILE); a preset reads no clock"},
		{"content parts with a preset", []string{"render", "--format", "llama3", "--content-parts", tmpl},
			"--content-parts is for a chat template (--format hf:FILE); a preset writes content as it is"},
		{"prompt ending in an openai batch", []string{"batch", "--in", rows, "--format", "openai-batch", "--no-generation-prompt", tmpl},
			"--no-generation-prompt is for a chat --format"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tc.args, strings.NewReader(""), &out, &errOut)
			assert.Equal(t, 2, code)
			assert.Contains(t, errOut.String(), tc.want)
		})
	}
}
