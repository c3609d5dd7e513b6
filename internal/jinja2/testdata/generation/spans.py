#!/usr/bin/env python3
"""Makes spans.json: what Python's Jinja2 writes for templates with
transformers' {% generation %} block, and the spans the block wrote.

    python3 internal/jinja2/testdata/generation/spans.py          # rewrite spans.json
    python3 internal/jinja2/testdata/generation/spans.py --check  # fail if it would change

The environment is transformers' chat-template one
(ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True) with
loopcontrols). The extension below parses the block as transformers'
AssistantTracker does (a CallBlock of the body) and records spans the same
way: when the block's caller returns, its start is the length of what the
template's generator has yielded so far and its end the start plus the
length of what the body rendered. It differs from AssistantTracker in two
ways only, both for the Go test: lengths are UTF-8 bytes where
AssistantTracker counts characters, and every block is recorded, where
AssistantTracker records nothing until something was yielded or a span
recorded (its is_active); the chat-template layer applies that rule.
"""
import json
import os
import sys

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.sandbox import ImmutableSandboxedEnvironment

HERE = os.path.dirname(os.path.abspath(__file__))

# The generator's output so far and the spans of the render in progress.
BLOCKS = []
SPANS = []


class SpanTracker(Extension):
    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_span"), [], [], body).set_lineno(lineno)

    def _span(self, caller):
        rv = caller()
        start = len("".join(BLOCKS).encode("utf-8"))
        SPANS.append([start, start + len(str(rv).encode("utf-8"))])
        return rv


def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


CHATML = """{% for message in messages %}
<|im_start|>{{ message.role }}
{% if message.role == 'assistant' %}
{% generation %}{{ message.content }}<|im_end|>{% endgeneration %}

{% else %}
{{ message.content }}<|im_end|>
{% endif %}
{% endfor %}
{% if add_generation_prompt %}<|im_start|>assistant
{% endif %}"""

CONV = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Héllo, wörld? 😀"},
    {"role": "assistant", "content": "Hi! ✓ “quoted”"},
    {"role": "user", "content": "again"},
    {"role": "assistant", "content": ""},
]

CASES = [
    {"name": "top", "template": "a{% generation %}b{% endgeneration %}c"},
    {"name": "first", "template": "{% generation %}xy{% endgeneration %}z"},
    {"name": "empty", "template": "a{% generation %}{% endgeneration %}b"},
    {"name": "only", "template": "{% generation %}{% endgeneration %}"},
    {"name": "multibyte", "template": "é{% generation %}{{ s }}{% endgeneration %}ü", "vars": {"s": "日本😀"}},
    {"name": "chatml", "template": CHATML, "vars": {"messages": CONV, "add_generation_prompt": True}},
    {"name": "loop-if", "template": "{% for m in ms %}{% if m.a %}{% generation %}[{{ m.t }}]{% endgeneration %}{% else %}({{ m.t }}){% endif %}{% endfor %}",
     "vars": {"ms": [{"a": False, "t": "u"}, {"a": True, "t": "x"}, {"a": True, "t": "yy"}, {"a": False, "t": "v"}]}},
    {"name": "loop-break", "template": "{% for i in range(5) %}{% if i == 3 %}{% break %}{% endif %}{% generation %}{{ i }}{% endgeneration %},{% endfor %}"},
    {"name": "sets-stay-inside", "template": "{% set x = 1 %}{% generation %}{% set x = 2 %}{{ x }}{% endgeneration %}{{ x }}"},
    {"name": "in-macro", "template": "{% macro m(x) %}[{% generation %}{{ x }}{% endgeneration %}]{% endmacro %}ab{{ m('q') }}{{ m('rr') }}"},
    {"name": "in-call-block", "template": "{% macro w() %}<{{ caller() }}>{% endmacro %}ab{% call w() %}c{% generation %}zz{% endgeneration %}{% endcall %}!"},
    {"name": "in-set-block", "template": "ab{% set s %}c{% generation %}q{% endgeneration %}{% endset %}{{ s }}{{ s }}"},
    {"name": "in-filter-block", "template": "ab{% filter upper %}x{% generation %}q{% endgeneration %}{% endfilter %}"},
    {"name": "nested", "template": "a{% generation %}b{% generation %}c{% endgeneration %}d{% endgeneration %}e"},
    {"name": "macro-in-generation", "template": "{% macro m() %}M{% endmacro %}ab{% generation %}{{ m() }}{{ m() }}{% endgeneration %}"},
    {"name": "include", "template": "ab{% include 'inc' %}c{% include 'inc' %}", "vars": {"x": "X"},
     "templates": {"inc": "I{% generation %}{{ x }}{% endgeneration %}"}},
    {"name": "recursive-loop", "template": "ab{% for n in tree recursive %}<{% generation %}{{ n.v }}{% endgeneration %}{% if n.c %}{{ loop(n.c) }}{% endif %}>{% endfor %}",
     "vars": {"tree": [{"v": "p", "c": [{"v": "q"}, {"v": "r"}]}, {"v": "s"}]}},
    {"name": "extends", "template": "{% extends 'base' %}{% block b %}{% generation %}G{% endgeneration %}{% endblock %}",
     "templates": {"base": "xy{% block b %}{% endblock %}z"}},
    {"name": "self-block", "template": "{% block b %}a{% generation %}G{% endgeneration %}{% endblock %}|{{ self.b() }}"},
    {"name": "import", "template": "ab{% import 'mod' as m %}{{ m.v }}", "templates": {"mod": "{% set v = 'V' %}q{% generation %}zz{% endgeneration %}"}},
    {"name": "whitespace", "template": "  a\n  {% generation %}\n  b\n  {% endgeneration %}\nc"},
    {"name": "tojson", "template": "a{% generation %}{{ v|tojson }}{% endgeneration %}", "vars": {"v": {"k": "é", "n": [1, 2]}}},
]


def render(case):
    loader = jinja2.DictLoader(case.get("templates", {}))
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, loader=loader,
                                        extensions=[SpanTracker, "jinja2.ext.loopcontrols"])
    env.filters["tojson"] = tojson
    tmpl = env.from_string(case["template"])
    BLOCKS.clear()
    SPANS.clear()
    for block in tmpl.generate(**case.get("vars", {})):
        BLOCKS.append(block)
    out = dict(case)
    out["output"] = "".join(BLOCKS)
    out["spans"] = list(SPANS)
    return out


def main():
    doc = {"jinja2": jinja2.__version__, "cases": [render(c) for c in CASES]}
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    path = os.path.join(HERE, "spans.json")
    if "--check" in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            if f.read() != text:
                sys.exit("spans.json would change")
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
