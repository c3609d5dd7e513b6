package jinja2

import (
	"context"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/internal/fixture/cpubench"
)

// exprFormBodies are loop bodies of one expression form each, as the
// corpus's chat templates write them per message: what compile_into.go's
// reads in place and writes into slots change.
var exprFormBodies = []struct{ name, src string }{
	{"set-path", "{% for m in messages %}{% set s = messages[0]['content'] %}{% set r = m.role %}{% endfor %}"},
	{"if-field", "{% for m in messages %}{% if m.content %}a{% endif %}{% if m.tool_calls %}b{% endif %}{% endfor %}"},
	{"is-defined", "{% for m in messages %}{% if m.tool_calls is defined %}a{% endif %}{% if m.content is none %}b{% endif %}{% endfor %}"},
	{"path-equals", "{% for m in messages %}{% if messages[0]['role'] == 'system' %}a{% endif %}{% if m.role != sys %}b{% endif %}{% endfor %}"},
	{"loop-index", "{% for m in messages %}{% if loop.index0 == 0 %}a{% endif %}{% if (m.role == 'user') != (loop.index0 % 2 == 0) %}b{% endif %}{% endfor %}"},
	{"ns-flag", "{% set ns = namespace(seen=false, n=0) %}{% for m in messages %}{% if ns.seen %}a{% endif %}{% if m.role == 'user' %}{% set ns.seen = true %}{% endif %}{% endfor %}"},
	{"print-trim", "{% for m in messages %}{{ m.content | trim }}{{ bos + m.content | trim + '.' }}{% endfor %}"},
	{"test-cond", "{% for m in messages %}{% if m.content is string %}a{% endif %}{% if m.content is mapping %}b{% endif %}{% endfor %}"},
	{"print-path", "{% for m in messages %}{{ messages[0]['content'] }}{{ m.content is string }}{% endfor %}"},
	{"filtered-last", "{% for m in messages if m.role != 'system' %}{% if not loop.last %},{% endif %}{% if loop.first %}f{% endif %}{% endfor %}"},
}

// BenchmarkExprForms renders each of exprFormBodies over 1,000 messages
// (ChatLoop's) into one reused buffer: cpu-ns/op / 1000 is the cost per
// message.
func BenchmarkExprForms(b *testing.B) {
	roles := []string{"system", "user", "assistant", "user"}
	msgs := make([]Value, 1000)
	for i := range msgs {
		d := NewDict(2)
		d.SetStr("role", StrV(roles[i%len(roles)]))
		d.SetStr("content", StrV(" Hello, "+strings.Repeat("x", i%7)+" world. "))
		msgs[i] = DictV(d)
	}
	vars := map[string]Value{"messages": ListV(msgs), "sys": StrV("system"), "bos": StrV("<s>")}
	for _, body := range exprFormBodies {
		b.Run(body.name, func(b *testing.B) {
			tpl, err := New().Parse("t", body.src)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			buf, err := tpl.AppendRender(ctx, nil, vars)
			if err != nil {
				b.Fatal(err)
			}
			t := cpubench.Start(b)
			for i := 0; i < b.N; i++ {
				buf, _ = tpl.AppendRender(ctx, buf[:0], vars)
			}
			t.Stop(0)
		})
	}
}
