package jinja2

import (
	"context"
	"strings"
	"testing"

	"github.com/rolemark/rolemark/internal/fixture/cpubench"
)

// chatLoopBodies are loop bodies of the corpus's chat templates: what a
// chat template spends per message.
var chatLoopBodies = []struct{ name, src string }{
	{"plus-chain", "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}"},
	{"set-if-role", "{% for message in messages %}{% set content = message['content'] %}{% if message['role'] == 'user' %}{{ '<|im_start|>user\n' + content + '<|im_end|>\n<|im_start|>assistant\n' }}{% elif message['role'] == 'assistant' %}{{ content + '<|im_end|>' + '\n' }}{% endif %}{% endfor %}"},
	{"elif-roles", "{% for message in messages %}{% if message['role'] == 'system' %}{{'<|system|>\n' + message['content'] + '<|end|>\n'}}{% elif message['role'] == 'user' %}{{'<|user|>\n' + message['content'] + '<|end|>\n'}}{% elif message['role'] == 'assistant' %}{{'<|assistant|>\n' + message['content'] + '<|end|>\n'}}{% endif %}{% endfor %}"},
	{"attr-loop-trim", "{%- for message in messages %}{%- if loop.first and message.role != 'system' %}{{ '<s>' }}{%- endif %}{{ '<|start_header_id|>' + message.role + '<|end_header_id|>\n\n' + message.content | trim + '<|eot_id|>' }}{%- if loop.last and message.content is defined %}{{ '.' }}{%- endif %}{%- endfor %}"},
	{"field-prints", "{% for message in messages %}<|{{ message.role }}|>\n{{ message['content'] }}<|end|>\n{% endfor %}"},
	{"namespace-missing", "{%- set ns = namespace(n=0) %}{%- for message in messages %}{%- if ns.last is defined and ns.last == message.role %}{{ '\n' }}{%- endif %}{{ message.content }}{%- endfor %}"},
	{"and-else", "{% for message in messages %}{% if message['role'] == 'system' and 'tools' in message and message['tools'] is not none %}{{ '<|' + message['role'] + '|>' + message['content'] + '<|tool|>' + message['tools'] + '<|/tool|>' + '<|end|>' }}{% else %}{{ '<|' + message['role'] + '|>' + message['content'] + '<|end|>' }}{% endif %}{% endfor %}"},
	{"and-elif", "{% for message in messages %}{% if message['role'] == 'system' and message['content'] %}{{'<|system|>\n' + message['content'] + '<|end|>\n'}}{% elif message['role'] == 'user' %}{{'<|user|>\n' + message['content'] + '<|end|>\n'}}{% elif message['role'] == 'assistant' %}{{'<|assistant|>\n' + message['content'] + '<|end|>\n'}}{% endif %}{% endfor %}"},
	{"ne", "{% for message in messages %}{% if message['role'] != 'system' %}{{ '<|' + message['role'] + '|>' + message['content'] + '<|end|>' }}{% endif %}{% endfor %}"},
	{"else-if", "{% for message in messages %}{% if message['role'] == 'system' %}{{ 'S' }}{% else %}{% if message['role'] == 'user' %}{{ '@@ Instruction\n' + message['content'] + '\n\n' }}{% else %}{{ '@@ Response\n' + message['content'] + '\n\n' }}{% endif %}{% endif %}{% endfor %}"},
	{"eq-branch", "{% for message in messages %}{% if message['role'] == 'system' %} {{ message['content'] }}{% if 'tools' in message and message['tools'] is not none %}{{ '<|tool|>' + message['tools'] + '<|/tool|>' }}{% endif %}{% endif %}{% endfor %}"},
	{"namespace", "{%- set ns = namespace(sys='', n=0) %}{%- for message in messages %}{%- if message.role == 'system' %}{%- set ns.sys = message.content %}{%- else %}{%- set ns.n = ns.n + 1 %}{{ message.role ~ ': ' ~ message.content ~ '\n' }}{%- endif %}{%- endfor %}"},
}

// BenchmarkChatLoop renders each of chatLoopBodies over 1,000 messages of
// alternating roles (dicts of role and content, as chat templates see
// them) into one reused buffer: cpu-ns/op / 1000 is the cost per message.
func BenchmarkChatLoop(b *testing.B) {
	roles := []string{"system", "user", "assistant", "user"}
	msgs := make([]Value, 1000)
	for i := range msgs {
		d := NewDict(2)
		d.SetStr("role", StrV(roles[i%len(roles)]))
		d.SetStr("content", StrV(" Hello, "+strings.Repeat("x", i%7)+" world. "))
		msgs[i] = DictV(d)
	}
	vars := map[string]Value{"messages": ListV(msgs)}
	for _, body := range chatLoopBodies {
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
