package jinja2

import (
	"context"
	"testing"

	"github.com/rolemark/rolemark/internal/fixture/cpubench"
)

// setupTemplate is a small chat template: most of its render is the
// per-render setup (the pooled state, the free names' values), not its
// own work.
const setupTemplate = `{{ bos_token }}{% for m in messages %}{% if m['role'] == 'user' %}[INST] {{ m['content'] }} [/INST]{% endif %}{% endfor %}{{ eos_token }}`

// setupVars are the variables a chat template gets: those it reads and
// those it does not.
func setupVars() map[string]Value {
	return map[string]Value{
		"messages":              ListV([]Value{chatMsg("user", "Hello")}),
		"tools":                 NoneV(),
		"documents":             NoneV(),
		"add_generation_prompt": BoolV(true),
		"bos_token":             StrV("<s>"),
		"eos_token":             StrV("</s>"),
		"unk_token":             StrV("<unk>"),
		"pad_token":             StrV("<pad>"),
		"sep_token":             StrV("<sep>"),
	}
}

// BenchmarkRenderSetup renders setupTemplate into a buffer it reuses:
// what a render costs beyond the template's own work.
func BenchmarkRenderSetup(b *testing.B) {
	tmpl, err := New(Sandbox()).Parse("setup", setupTemplate)
	if err != nil {
		b.Fatal(err)
	}
	vars := setupVars()
	ctx := context.Background()
	var buf []byte
	t := cpubench.Start(b)
	for i := 0; i < b.N; i++ {
		if buf, err = tmpl.AppendRender(ctx, buf[:0], vars); err != nil {
			b.Fatal(err)
		}
	}
	t.Stop(0)
	if string(buf) != "<s>[INST] Hello [/INST]</s>" {
		b.Fatalf("got %q", buf)
	}
}

// BenchmarkRenderSetupLayout is BenchmarkRenderSetup with the variables
// by position (AppendRenderVars).
func BenchmarkRenderSetupLayout(b *testing.B) {
	tmpl, err := New(Sandbox()).Parse("setup", setupTemplate)
	if err != nil {
		b.Fatal(err)
	}
	var names []string
	var vals []Value
	for k, v := range setupVars() {
		names = append(names, k)
		vals = append(vals, v)
	}
	l := NewLayout(names...)
	ctx := context.Background()
	var buf []byte
	t := cpubench.Start(b)
	for i := 0; i < b.N; i++ {
		if buf, err = tmpl.AppendRenderVars(ctx, buf[:0], l, vals); err != nil {
			b.Fatal(err)
		}
	}
	t.Stop(0)
	if string(buf) != "<s>[INST] Hello [/INST]</s>" {
		b.Fatalf("got %q", buf)
	}
}
