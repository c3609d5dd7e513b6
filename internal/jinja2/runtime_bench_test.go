package jinja2

import (
	"context"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
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
	pyNs := 0.0
	out, err := exec.Command("python3", filepath.Join("testdata", "runtime", "bench.py"), which).Output()
	if err == nil {
		pyNs, _ = strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	} else {
		b.Logf("python3 testdata/runtime/bench.py: %v (no Jinja2 figure)", err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuNanos()
	for i := 0; i < b.N; i++ {
		if err := render(); err != nil {
			b.Fatal(err)
		}
	}
	goNs := float64(cpuNanos()-cpu0) / float64(b.N)
	b.StopTimer()
	b.ReportMetric(goNs, "cpu-ns/op")
	if pyNs > 0 {
		b.ReportMetric(pyNs, "jinja2-cpu-ns/op")
		b.ReportMetric(pyNs/goNs, "x-faster")
	}
}

// cpuNanos is the process's user and system CPU time.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// macroTemplate calls a macro with a filter in a loop.
const macroTemplate = `{% macro item(i, name) %}<{{ i }}:{{ name|upper }}>{% endmacro %}
{%- for x in xs %}{{ item(loop.index, x) }}{% if not loop.last %}, {% endif %}{% endfor %}`

func BenchmarkRenderMacroLoop(b *testing.B) {
	tmpl, err := New().Parse("macros", macroTemplate)
	if err != nil {
		b.Fatal(err)
	}
	xs := make([]Value, 50)
	for i := range xs {
		xs[i] = StrV("name" + strconv.Itoa(i))
	}
	vars := map[string]Value{"xs": ListV(xs)}
	ctx := context.Background()
	benchVsJinja2(b, "macros", func() error { _, err := tmpl.Render(ctx, vars); return err })
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
