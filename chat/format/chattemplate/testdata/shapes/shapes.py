#!/usr/bin/env python3
"""Oracle of the values a Template hands a chat template: transformers' shapes.

    python3 chat/format/chattemplate/testdata/shapes/shapes.py   # writes cases.json

transformers' apply_chat_template passes the messages, tools and extra
keyword arguments to the template as the caller wrote them. Each case here
is a conversation in the shape a Python caller writes (content as a string
or as a list of typed parts, a part without a URL, tool calls whose
arguments are a dict or a JSON string, with and without an id, tool
results with name and tool_call_id, documents and custom keyword arguments)
rendered by Jinja2 in transformers' environment with templates that print
what they are given: the whole value (Python's repr), tojson, a loop over
content parts as vision templates write it (llava, Qwen2-VL), a test of
which keys a part has; with every content a list too, as
chattemplate.ContentParts passes it. shapes_test.go builds the same conversation with the
Go API (chat.Message, chat.Tool, format.Vars) as its doc comment maps it,
renders it with chattemplate.Template and wants the same bytes.

Only shapes the Go API can state are here; what it cannot (a one-part list
told apart from a string, content None, reasoning_content, tools in the
flat form or with fields beside name, description and parameters) is
listed in docs/decisions.md. The templates are this project's own.
"""

import datetime
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "testdata"))
import chatdata  # noqa: E402 (chat/format/testdata/chatdata.py)

NOW = datetime.datetime(2024, 7, 26, 12, 34, 56)

TEMPLATES = {
    # the values themselves, as Python prints them
    "repr": "{{ messages }}|{{ tools }}|{{ documents }}",
    "tojson": "{{ messages | tojson }}|{{ tools | tojson }}",
    # a vision template's loop over parts (llava, llava-next, Qwen2-VL)
    "parts-loop": (
        "{% for m in messages %}{{ m.role }}:"
        "{% if m.content is string %}{{ m.content }}"
        "{% else %}{% for c in m.content %}"
        "{% if c.type == 'image' %}<image{% if 'url' in c %} {{ c.url }}{% endif %}>"
        "{% elif c.type == 'text' %}{{ c.text }}{% else %}<{{ c.type }}>{% endif %}"
        "{% endfor %}{% endif %}\n{% endfor %}"),
    # which keys a part holds (templates test c.url is defined, 'image' in c)
    "part-keys": (
        "{% for m in messages %}{% if m.content is not string %}{% for c in m.content %}"
        "{{ c | list | join(',') }};{% endfor %}{% endif %}{% endfor %}"),
    # a tool call's arguments, a mapping or a string (Hermes, Llama 3.1)
    "arguments": (
        "{% for m in messages %}{% for tc in m.tool_calls or [] %}"
        "{{ tc.id is defined }} {{ tc.function.arguments is mapping }} "
        "{% if tc.function.arguments is string %}{{ tc.function.arguments }}"
        "{% else %}{{ tc.function.arguments | tojson }}{% endif %};"
        "{% endfor %}{% if m.role == 'tool' %}{{ m.name }}/{{ m.tool_call_id }}={{ m.content }};{% endif %}{% endfor %}"),
    # documents and custom keyword arguments, in their key order
    "kwargs": (
        "{% for d in documents or [] %}{% for k, v in d.items() %}{{ k }}: {{ v }}\n{% endfor %}{% endfor %}"
        "{{ enable_thinking is defined and enable_thinking }} {{ extra }}"),
}

HOSTILE = "It's \"q\" \\ new\nline\ttab\u00a0nb\u200bzw \U0001F600"

CONVERSATIONS = [
    {"name": "image-without-url", "messages": [
        {"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "What is shown?"}]},
        {"role": "assistant", "content": "A cat."},
        {"role": "user", "content": [{"type": "text", "text": "And here?"}, {"type": "image"}, {"type": "video"}]}]},
    {"name": "image-with-url", "messages": [
        {"role": "user", "content": [{"type": "text", "text": HOSTILE},
                                     {"type": "image", "url": "https://example.com/it's.png"}]}]},
    {"name": "media-type-and-detail", "messages": [
        {"role": "user", "content": [{"type": "image", "url": "data:image/png;base64,AAAA", "mime_type": "image/png", "detail": "low"},
                                     {"type": "audio", "url": "https://example.com/a.wav"}, {"type": "text", "text": "Both?"}]}]},
    {"name": "tool-calls", "tools": chatdata.TOOLS, "messages": [
        {"role": "user", "content": "Weather and time?"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": {"city": "Paris", "unit": "\u00b0C"}}},
            {"id": "call_2", "type": "function", "function": {"name": "get_time", "arguments": json.dumps({"tz": "Europe/Paris", "q": HOSTILE})}}]},
        {"role": "tool", "content": "20", "name": "get_weather", "tool_call_id": "call_1"},
        {"role": "tool", "content": "12:00", "name": "get_time", "tool_call_id": "call_2"},
        {"role": "assistant", "content": "20 at 12:00."}]},
    {"name": "tool-call-without-id", "tools": chatdata.TOOLS, "messages": [
        {"role": "user", "content": "Time?"},
        {"role": "assistant", "content": "", "tool_calls": [
            {"type": "function", "function": {"name": "get_time", "arguments": {}}}]},
        {"role": "tool", "content": "12:00"}]},
    # every content a list, as vision models' callers write it
    # (chattemplate.ContentParts): one text part, an empty list
    {"name": "content-parts", "content_parts": True, "tools": chatdata.TOOLS, "messages": [
        {"role": "system", "content": [{"type": "text", "text": "Be brief."}]},
        {"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "What is it?"}]},
        {"role": "assistant", "content": [{"type": "text", "text": HOSTILE}]},
        {"role": "user", "content": [{"type": "text", "text": "Time?"}]},
        {"role": "assistant", "content": [], "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_time", "arguments": {"tz": "UTC"}}}]},
        {"role": "tool", "content": [{"type": "text", "text": "12:00"}], "tool_call_id": "call_1"}]},
    {"name": "documents-and-kwargs", "kwargs": {
        "documents": [{"title": "Doc's one", "text": "Paris is in France.", "id": 7},
                      {"url": "https://x.test", "title": "Two", "text": HOSTILE}],
        "enable_thinking": True, "extra": {"b": [1, 2.0, None], "a": 10 ** 20}},
     "messages": [{"role": "user", "content": "Where is Paris?"}]},
]


def main():
    env = chatdata.environment(lambda fmt: NOW.strftime(fmt), [chatdata.AssistantTracker])
    cases = []
    for conv in CONVERSATIONS:
        for tname, src in TEMPLATES.items():
            ctx = {"messages": conv["messages"], "tools": conv.get("tools"), "documents": None,
                   "add_generation_prompt": True, "bos_token": "<s>", "eos_token": "</s>"}
            ctx.update(conv.get("kwargs", {}))
            case = {"template": tname, "conversation": conv["name"]}
            try:
                case["output"] = env.from_string(src).render(**ctx)
            except Exception as e:  # noqa: BLE001 (the case records what Jinja2 raised)
                case["error"] = "%s: %s" % (type(e).__name__, e)
            cases.append(case)
    doc = {"jinja2": __import__("jinja2").__version__, "templates": TEMPLATES, "conversations": CONVERSATIONS, "cases": cases}
    with open(os.path.join(HERE, "cases.json"), "w", encoding="utf-8", newline="\n") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
