package jinja2

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rolemark/rolemark/internal/fixture/cpubench"
	"github.com/rolemark/rolemark/internal/pyjson"
)

// chatTemplate is a chat template of the usual shape: a system message,
// a loop over the messages with conditions, string concatenation, a
// filter and a generation prompt.
const chatTemplate = `{%- if messages[0]['role'] == 'system' -%}
{%- set system = messages[0]['content'] -%}
{%- set loop_messages = messages[1:] -%}
{%- else -%}
{%- set loop_messages = messages -%}
{%- endif -%}
{%- if system is defined %}<|system|>
{{ system | trim }}<|end|>
{% endif -%}
{%- for message in loop_messages -%}
{%- if message['role'] == 'user' -%}
{{ '<|user|>\n' + message['content'] + '<|end|>\n' }}
{%- elif message['role'] == 'assistant' -%}
{{ '<|assistant|>\n' + message['content'] | trim + '<|end|>\n' }}
{%- endif -%}
{%- if loop.last and add_generation_prompt %}<|assistant|>
{% endif -%}
{%- endfor -%}`

func chatVars(n int) map[string]Value {
	msgs := make([]Value, 0, n+1)
	msgs = append(msgs, chatMsg("system", "You are a helpful assistant."))
	for i := 0; i < n; i++ {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		msgs = append(msgs, chatMsg(role, "Message number "+strconv.Itoa(i)+" with some text in it. "))
	}
	return map[string]Value{"messages": ListV(msgs), "add_generation_prompt": BoolV(true)}
}

func chatMsg(role, content string) Value {
	d := NewDict(2)
	d.Set(StrV("role"), StrV(role))
	d.Set(StrV("content"), StrV(content))
	return DictV(d)
}

func BenchmarkRenderChat(b *testing.B) {
	tmpl, err := New().Parse("chat", chatTemplate)
	if err != nil {
		b.Fatal(err)
	}
	vars := chatVars(10)
	ctx := context.Background()
	if _, err := tmpl.Render(ctx, vars); err != nil {
		b.Fatal(err)
	}
	benchVsJinja2(b, "chat", func() error { _, err := tmpl.Render(ctx, vars); return err })
}

// benchVsJinja2 runs render b.N times and reports, besides ns/op, the CPU
// time per render (cpu-ns/op: a busy shared machine disturbs it less than
// wall time), Python's Jinja2's on the same template and values
// (jinja2-cpu-ns/op, from testdata/runtime/bench.py) and their ratio.
func benchVsJinja2(b *testing.B, which string, render func() error) {
	benchCPU(b, cpubench.Python(b, filepath.Join("testdata", "runtime", "bench.py"), which), render)
}

// benchCPU runs render b.N times, reporting CPU time per render beside
// pyNs, Python's.
func benchCPU(b *testing.B, pyNs float64, render func() error) {
	t := cpubench.Start(b)
	for i := 0; i < b.N; i++ {
		if err := render(); err != nil {
			b.Fatal(err)
		}
	}
	t.Stop(pyNs)
}

// macroTemplate calls a macro with a filter in a loop.
const macroTemplate = `{% macro item(i, name) %}<{{ i }}:{{ name|upper }}>{% endmacro %}
{%- for x in xs %}{{ item(loop.index, x) }}{% if not loop.last %}, {% endif %}{% endfor %}`

func BenchmarkRenderMacroLoop(b *testing.B) {
	tmpl, err := New().Parse("macros", macroTemplate)
	if err != nil {
		b.Fatal(err)
	}
	vars := map[string]Value{"xs": names(50)}
	ctx := context.Background()
	benchVsJinja2(b, "macros", func() error { _, err := tmpl.Render(ctx, vars); return err })
}

// names is a list of n strs, name0 to name(n-1).
func names(n int) Value {
	xs := make([]Value, n)
	for i := range xs {
		xs[i] = StrV("name" + strconv.Itoa(i))
	}
	return ListV(xs)
}

// BenchmarkBoundMethod reads a builtin method without calling it, as
// {% set up = x.upper %} does, and calls it: the bound method is built
// (boundMethod) and never printed.
func BenchmarkBoundMethod(b *testing.B) {
	tmpl, err := New().Parse("bound", "{% for x in xs %}{% set up = x.upper %}{{ up() }}{% endfor %}")
	if err != nil {
		b.Fatal(err)
	}
	vars := map[string]Value{"xs": names(10)}
	ctx := context.Background()
	for b.Loop() {
		if _, err := tmpl.Render(ctx, vars); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseChat(b *testing.B) {
	env := New()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := env.Parse("chat", chatTemplate); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCorpusVsJinja2 renders the real template and conversation of
// chat/format's BenchmarkTemplateVsJinja2 (Qwen2.5 Instruct's template,
// a tool-call cycle with two calls and an answer) in transformers' setting
// (sandbox, trim_blocks, lstrip_blocks), and in the same run times Python's
// Jinja2 on the same pair with chat/format/chattemplate/testdata/hf/bench.py.
func BenchmarkCorpusVsJinja2(b *testing.B) {
	hf := filepath.Join("..", "..", "chat", "format", "chattemplate", "testdata", "hf")
	src, err := os.ReadFile(filepath.Join(hf, "templates", "093.jinja"))
	if err != nil {
		b.Skip(err)
	}
	tmpl, err := New(Sandbox(), TrimBlocks(), LStripBlocks()).Parse("093.jinja", string(src))
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "oracle", "cases", "hf.json"))
	if err != nil {
		b.Skip(err)
	}
	var doc struct {
		Contexts map[string]json.RawMessage `json:"contexts"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		b.Fatal(err)
	}
	conv, err := pyjson.Parse(doc.Contexts["tools-two-calls-answer"])
	if err != nil {
		b.Fatal(err)
	}
	vars := map[string]Value{"bos_token": StrV("<s>"), "eos_token": StrV("<|im_end|>"), "documents": NoneV()}
	for i, k := range conv.Keys {
		vars[k] = FromGo(conv.Items[i])
	}
	ctx := context.Background()
	if _, err := tmpl.Render(ctx, vars); err != nil {
		b.Fatal(err)
	}
	pyNs := cpubench.Python(b, filepath.Join(hf, "bench.py"), "093.jinja", "tools-two-calls-answer")
	benchCPU(b, pyNs, func() error { _, err := tmpl.Render(ctx, vars); return err })
}
