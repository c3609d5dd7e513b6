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
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

HF = {"profile": "hf"}

# (name, template, context, env)
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
]


def main():
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_case_list("realworld", CASES)


if __name__ == "__main__":
    main()
