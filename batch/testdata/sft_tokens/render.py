#!/usr/bin/env python3
"""Step 1 of the oracle of batch.AssistantTokens: renders real chat
templates that have {% generation %} blocks with transformers' chat-template
environment and its AssistantTracker, and writes rendered.json: the text and
the generation indices (in characters) that apply_chat_template(...,
return_assistant_tokens_mask=True) computes before tokenizing.

    python3 batch/testdata/sft_tokens/render.py
    (cd tokens/testdata/ref && npm ci --ignore-scripts)
    node batch/testdata/sft_tokens/mask.mjs     # step 2: expected.json

transformers is not installed here (PyPI is out of reach), so its two
pieces are restated from transformers' src/transformers/utils/
chat_template_utils.py (_compile_jinja_template, _render_with_assistant_
indices): the environment (ImmutableSandboxedEnvironment(trim_blocks=True,
lstrip_blocks=True), loopcontrols, its tojson, raise_exception,
strftime_now) and AssistantTracker, which records (start, end) of each
generation block when its body returns: start is len("".join(rendered
blocks)), the characters the template's generator has yielded so far, and
it records only while is_active() holds, that is while the list of
yielded blocks or the list of indices is not empty. Variables: messages,
tools, documents=None, add_generation_prompt=False, bos_token and
eos_token (transformers passes the special tokens map).

Templates:
  090.jinja, 103.jinja: chat/format/chattemplate/testdata/hf/templates (see
    its sources.json: library/phi4-reasoning:14b and library/rnj-1:latest,
    from npm @huggingface/ollama-utils@0.0.18, MIT).
  opens.jinja: written here; a generation block can open the output, which
    AssistantTracker does not record.
"""
import datetime
import json
import os

import jinja2
from jinja2 import nodes
from jinja2.exceptions import TemplateError
from jinja2.ext import Extension, loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

HERE = os.path.dirname(os.path.abspath(__file__))
HF = os.path.join(HERE, "..", "..", "..", "chat", "format", "chattemplate", "testdata", "hf", "templates")
NOW = datetime.datetime(2024, 7, 26, 12, 34, 56)

OPENS = ("{% for m in messages %}{% if m.role == 'assistant' %}{% generation %}A: {{ m.content }}\n"
         "{% endgeneration %}{% else %}U: {{ m.content }}\n{% endif %}{% endfor %}")


class AssistantTracker(Extension):
    tags = {"generation"}

    def __init__(self, environment):
        super().__init__(environment)
        environment.extend(activate_tracker=self.activate_tracker)
        self._rendered_blocks = None
        self._generation_indices = None

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_generation_support"), [], [], body).set_lineno(lineno)

    @jinja2.pass_eval_context
    def _generation_support(self, context, caller):
        rv = caller()
        if self.is_active():
            start_index = len("".join(self._rendered_blocks))
            end_index = start_index + len(rv)
            self._generation_indices.append((start_index, end_index))
        return rv

    def is_active(self):
        return self._rendered_blocks or self._generation_indices

    def activate_tracker(self, rendered_blocks, generation_indices):
        tracker = self

        class Guard:
            def __enter__(self):
                tracker._rendered_blocks = rendered_blocks
                tracker._generation_indices = generation_indices

            def __exit__(self, *exc):
                tracker._rendered_blocks = None
                tracker._generation_indices = None

        return Guard()


def compile_template(src):
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[AssistantTracker, loopcontrols])

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def raise_exception(message):
        raise TemplateError(message)

    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda f: NOW.strftime(f)
    return env.from_string(src)


def render(tmpl, messages, tools, bos, eos):
    rendered_blocks, generation_indices = [], []
    with tmpl.environment.activate_tracker(rendered_blocks, generation_indices):
        for block in tmpl.generate(messages=messages, tools=tools, documents=None,
                                   add_generation_prompt=False, bos_token=bos, eos_token=eos):
            rendered_blocks.append(block)
    return "".join(rendered_blocks), [list(g) for g in generation_indices]


TOOLS = [{"type": "function", "function": {"name": "get_weather", "description": "Get the weather — 天气",
                                           "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                                                          "required": ["city"]}}}]

CONVERSATIONS = [
    {"name": "turns", "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Grüß dich! Ça va? 😀 “quotes”"},
        {"role": "assistant", "content": "Très bien, merci ! 👍🏽 日本語も話せます。"},
        {"role": "user", "content": "And code?\n\n    def f(x):\n        return x  # ok"},
        {"role": "assistant", "content": "```python\ndef f(x):\n    return x\n```\n\n  Done.  "},
    ]},
    {"name": "empty-reply", "messages": [
        {"role": "user", "content": "Say nothing."},
        {"role": "assistant", "content": ""},
        {"role": "user", "content": "Now say hi."},
        {"role": "assistant", "content": "hi"},
    ]},
    {"name": "tool-call", "tools": TOOLS, "messages": [
        {"role": "user", "content": "Weather in Zürich?"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Zürich"}}}]},
        {"role": "tool", "content": "{\"temp\": 21, \"sky\": \"☀\"}", "tool_call_id": "call_1"},
        {"role": "assistant", "content": "21 °C and sunny ☀."},
    ]},
    # what cmd/rolemark's TestBatchSFTTokens renders from testdata/batch/ask.hbs
    {"name": "cli", "messages": [
        {"role": "system", "content": "Answer briefly."},
        {"role": "user", "content": "Before?"},
        {"role": "assistant", "content": "  Yes. "},
        {"role": "user", "content": "Hi"},
    ]},
    {"name": "assistant-first", "messages": [
        {"role": "assistant", "content": "Hello! How can I help?"},
        {"role": "user", "content": "Spaces   and\ttabs"},
        {"role": "assistant", "content": " leading and trailing "},
    ]},
]

# (template, tokenizer in tokens/testdata/vocab, bos_token, eos_token)
PAIRS = [
    ("090.jinja", "qwen3", "<s>", "<|im_end|>"),
    ("090.jinja", "gpt_oss", "<s>", "<|im_end|>"),
    ("103.jinja", "llama3", "<|begin_of_text|>", "<|eot_id|>"),
    ("103.jinja", "gemma3", "<|begin_of_text|>", "<|eot_id|>"),
    ("opens.jinja", "llama3", "", ""),
    ("opens.jinja", "deepseek_v3", "", ""),
]


def source(name):
    if name == "opens.jinja":
        return OPENS
    with open(os.path.join(HF, name), encoding="utf-8") as f:
        return f.read()


def main():
    out = []
    for tname, tok, bos, eos in PAIRS:
        tmpl = compile_template(source(tname))
        for conv in CONVERSATIONS:
            text, indices = render(tmpl, conv["messages"], conv.get("tools"), bos, eos)
            out.append({"template": tname, "tokenizer": tok, "conversation": conv["name"],
                        "bos_token": bos, "eos_token": eos, "messages": conv["messages"],
                        "tools": conv.get("tools"), "text": text, "generation_indices": indices})
    doc = {"jinja2": jinja2.__version__, "opens.jinja": OPENS, "cases": out}
    with open(os.path.join(HERE, "rendered.json"), "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")


if __name__ == "__main__":
    main()
