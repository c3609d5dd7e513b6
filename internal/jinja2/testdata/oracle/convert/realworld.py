#!/usr/bin/env python3
"""Differences found by rendering real templates not in the corpus, reduced.

    python3 convert/realworld.py     # -> cases/realworld.json

Chat templates of other projects (vLLM, TRL, axolotl, unsloth,
llama-cpp-python, text-generation-webui, chujiezheng/chat_templates and
patched Qwen and Gemma templates) and Python projects' prompt templates
were rendered with Python's Jinja2 and with this package over the
conversations of convert/chat.py; each case below is a difference that
run found, cut down to the construct that caused it. The templates
themselves are not committed here: each case is written by this project.
Python's Jinja2 decides what each prints or raises (oracle.py).
"""
import handmade

HF = {"profile": "hf"}

# The templates the required-block cases extend.
REQUIRED = {
    "layout": "before[{% block body required %}{% endblock %}]after",
    "mid": "{% extends 'layout' %}{% block body required %} {% endblock %}",
    "midmid": "{% extends 'mid' %}{% block body required %}  {% endblock %}",
    "nested": "{% block outer %}o{% block inner required %}{% endblock %}{% endblock %}",
}

# (name, template, context, env[, loader])
CASES = [
    # Jinja2's lexer is a generator: the parser raises the first error it
    # meets in the tokens lexed so far, and a lexer error only once it asks
    # for the token the lexer cannot make (unsloth's gpt-oss "ollama"
    # template, a Go template: Jinja2 stops at "{{ .Messages }}", line 6,
    # not at a "$" further on).
    ("lex-error-after-parse-error", "{% if x %}\n{{ a. }}\n{{ $ }}", {}, {}),
    ("lex-error-after-parse-error-hf", "{{- if .System }}\n{{ $x := 1 }}", {}, HF),
    ("lex-error-go-range", "{{- range $i, $m := .Messages }}{{ $m.Content }}{{ end }}", {}, HF),
    ("lex-error-in-first-tag", "{{ a $ }}", {}, {}),
    ("lex-error-after-attribute", "a{{ x.$ }}", {}, {}),
    ("lex-error-unterminated-string", "{% for %}{{ 'x }}", {}, {}),
    ("lex-error-unbalanced", "{{ (1 }}{# x", {}, {}),
    ("lex-error-after-kwarg", "{{ f(a=1 $) }}", {}, {}),
    ("lex-error-in-set", "{% set x = $ %}", {}, {}),
    ("lex-error-comment-after-parse-error", "{% endfor %}{# never closed", {}, {}),
    ("lex-error-raw-after-parse-error", "{{ }}\n{% raw %}never closed", {}, {}),
    ("lex-error-after-text", "text\n\n{{ 'unterminated }}", {}, {}),
    # Jinja2's code generator looks a filter or test up before it visits
    # the operand and the arguments, so of two unknown filters it names the
    # outer one (NeMo-Guardrails' prompts chain custom filters,
    # "{{ history | colang | remove_text_messages | verbose_v1 }}";
    # promptsource's "answers['text'] | most_frequent | choice").
    ("unknown-filter-outer-first", "{{ x|a|b }}", {}, {}),
    ("unknown-filter-chain-of-three", "{{ h|colang|remove_text_messages|verbose_v1 }}", {}, {}),
    ("unknown-filter-before-its-argument", "{{ x|a(y|b) }}", {}, {}),
    ("unknown-filter-in-argument", "{{ x|upper(y|b) }}", {}, {}),
    ("unknown-test-before-operand", "{{ (x|a) is t }}", {}, {}),
    ("unknown-test-before-argument", "{{ x is t(y|b) }}", {}, {}),
    ("unknown-filter-before-test", "{{ (x is t)|b }}", {}, {}),
    ("unknown-filter-block", "{% filter a|b %}{% endfilter %}", {}, {}),
    ("unknown-filter-list-order", "{{ [x|a, y|b] }}", {}, {}),
    ("unknown-filter-getattr", "{{ (x|a).y|b }}", {}, {}),
    ("unknown-filter-binop-order", "{{ x|a + y|b }}", {}, {}),
    ("unknown-filter-call-args", "{{ f(x|a, k=y|b) }}", {}, {}),
    ("unknown-filter-loop-filter", "{% for i in x|a if i|b %}{% endfor %}", {}, {}),
    ("unknown-filter-statements", "{% set y = x|a %}{{ z|b }}", {}, {}),
    ("unknown-filter-macro-default", "{% macro m(a=x|a) %}{{ y|b }}{% endmacro %}", {}, {}),
    ("unknown-filter-outer-known-inner", "{{ x|default(y|b)|a }}", {}, {}),
    ("unknown-filter-in-condexpr", "{{ x|a if y|b else z|c }}|{{ (x|a)|d if false }}", {}, {}),
    ("unknown-filter-loop-filter-in-if", "{% if x %}{% for i in y if i|b %}{% endfor %}{% endif %}", {}, {}),
    ("unknown-filter-loop-filter-and-iter-in-if", "{% if x %}{% for i in y|a if i|b %}{% endfor %}{% endif %}", {}, {}),
    ("unknown-filter-after-if", "{% if x %}{{ y|a }}{% endif %}{{ z|b }}", {}, {}),
    ("unknown-test-in-if", "{% if x is t %}{{ y|b }}{% endif %}{{ z|c is u }}", {}, {}),
    # wordcount counts the matches of re's \w+: \w is what str.isalnum
    # accepts (Unicode 14 in Python 3.11) and "_", so a combining mark
    # (Hindi's vowel signs and virama, a combining acute, U+034F) splits a
    # word, a digit or a number of any script is part of one, and a
    # letter Unicode 15 added is not one.
    ("wordcount-marks-split", "{{ 'a\u034fb'|wordcount }} {{ 'a\U00011000b'|wordcount }} {{ 'cafe\u0301 ok'|wordcount }}", {}, {}),
    ("wordcount-hindi", "{{ text|wordcount }}", {"text": "\u0928\u092e\u0938\u094d\u0924\u0947 \u0926\u0941\u0928\u093f\u092f\u093e"}, {}),
    ("wordcount-numbers-and-underscore", "{{ 'x_y z'|wordcount }} {{ '\u0661\u0662\u0663 abc \u00bd \u216b'|wordcount }} {{ '\U00031350'|wordcount }}", {}, {}),
    ("wordcount-in-a-prompt", "Summarize in {{ (doc|wordcount // 2) }} words: {{ doc }}", {"doc": "Na\u00efve r\u00e9sum\u00e9 \u2014 de\u0301ja\u0300 vu, it's \U0001F600 fine_ok"}, {}),
    # int() and float() read a str as CPython's
    # _PyUnicode_TransformDecimalAndSpaceToASCII makes it: white space
    # beyond ASCII is a space and a decimal digit of any script its ASCII
    # digit, so |int and |float read Arabic-Indic, fullwidth (CJK input)
    # and mathematical digits; any other character beyond ASCII fails.
    ("int-unicode-digits", "{{ '\u0663'|int }} {{ '\uff11\uff12'|int }} {{ '\u00a012\u2003'|int }} {{ '-\u0663\u0664'|int }} {{ '\U0001D7D3'|int }} {{ '1\u0663'|int }} {{ '\u0661_\u0662'|int }} {{ '\uff10x1f'|int(0, 16) }} {{ '\u0663'|int(base=16) }} {{ '\u216b'|int(9) }} {{ '\u00b2'|int(9) }} {{ '\ua9d0\ua9d1'|int }} {{ '\x85 5 \u3000'|int }} {{ '1\u200b'|int(8) }}", {}, {}),
    ("float-unicode-digits", "{{ '\u0663.\u0665'|float }} {{ '\uff11.\uff15e\uff12'|float }} {{ '\u20035\u2003'|float }} {{ '\u0663,\u0665'|float(-1) }} {{ '\U0001D7CF\U0001D7D0.\U0001D7D3'|float }} {{ '\u00bd'|float(-1) }} {{ '\uff49\uff4e\uff46'|float(-1) }}", {}, {}),
    ("int-of-user-input", "{% set n = qty|int %}{{ n * price }} for {{ qty }}", {"qty": "\uff13", "price": 2.5}, {}),
    # A required block is checked where its {% block %} statement runs
    # (Jinja2's visit_Block): the chain must hold an override, and the
    # block it then renders may be an intermediate template's, itself
    # marked required (minijinja's required_block_intermediate_required);
    # super() and self.name() render a required block's whitespace.
    ("required-block-intermediate", "{% extends 'mid' %}", {}, {}, REQUIRED),
    ("required-block-two-intermediates", "{% extends 'midmid' %}", {}, {}, REQUIRED),
    ("required-block-super", "{% extends 'layout' %}{% block body %}<{{ super() }}>{% endblock %}", {}, {}, REQUIRED),
    ("required-block-nested", "{% extends 'nested' %}", {}, {}, REQUIRED),
    ("required-block-nested-overridden", "{% extends 'nested' %}{% block inner %}I{% endblock %}", {}, {}, REQUIRED),
    ("required-block-nested-outer-overridden", "{% extends 'nested' %}{% block outer %}O{% endblock %}", {}, {}, REQUIRED),
    ("required-block-direct", "{% block body required %}{% endblock %}", {}, {}, REQUIRED),
    ("required-block-self-call", "{% block body required %}{% endblock %}[{{ self.body() }}]", {}, {}, REQUIRED),
    # A test whose Python function takes the value alone raises a
    # TypeError for an argument (minijinja's err_bad_test_arguments:
    # "item is even(42)"), as do_random does; sameas needs its argument.
    ("test-extra-argument", "{% for item in seq %}{% if item is even(42) %}{{ item }}{% endif %}{% endfor %}", {"seq": [1, 2, 3]}, {}),
    ("test-keyword-argument", "{{ 4 is defined(x=1) }}", {}, {}),
    ("test-two-extra-arguments", "{{ 'a' is string(1, 2) }}", {}, {}),
    ("test-filter-extra-argument", "{{ 'upper' is filter(1) }}", {}, {}),
    ("test-test-keyword-argument", "{{ 'odd' is test(k=1) }}", {}, {}),
    ("test-callable-extra-argument", "{{ x is callable(1) }}", {}, {}),
    ("test-callable-keyword-argument", "{{ x is callable(k=1) }}", {}, {}),
    ("test-sameas-missing-argument", "{{ 1 is sameas }}", {}, {}),
    ("select-test-extra-argument", "{{ [1, 2]|select('odd', 1)|list }}", {}, {}),
    ("random-extra-argument", "{{ [4]|random(1) }}", {}, {}),
    ("random-keyword-argument", "{{ [4]|random(seed=1) }}", {}, {}),
    # xmlattr refuses a key holding re.ASCII's white space, \v included
    ("xmlattr-vertical-tab-key", "{{ {'a\x0bb': 1}|xmlattr }}", {}, {}),
    ("xmlattr-form-feed-key", "{{ {'a\x0cb': 1}|xmlattr }}", {}, {}),
    ("xmlattr-no-break-space-key", "{{ {'a\u00a0b': 1}|xmlattr }}", {}, {}),
    # An environment without a loader (transformers' chat template
    # environment) raises TypeError at include, import and extends, before
    # it looks at the name: Environment._load_template checks first.
    ("include-without-loader", "{% include 'tools.jinja' %}", {}, HF),
    ("include-list-without-loader", "{% include ['a.jinja', 'b.jinja'] %}", {}, {}),
    ("include-missing-ignored-without-loader", "[{% include 'a.jinja' ignore missing %}]", {}, {}),
    ("extends-undefined-without-loader", "{% extends layout %}", {}, {}),
    ("import-without-loader", "{% import 'macros.jinja' as m %}{{ m.x() }}", {}, {}),
    ("from-import-without-loader", "{% from 'macros.jinja' import x %}", {}, {}),
]


def main():
    # Which error Jinja2 raises is the point of these cases: the Go test
    # compares the message too.
    handmade.write_rows("realworld", CASES, exact=True)


if __name__ == "__main__":
    main()
