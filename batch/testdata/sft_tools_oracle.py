#!/usr/bin/env python3
"""Oracle for batch's SFT spans over tool calls (batch/sft_tools_test.go).

Real chat templates that write tool calls (Qwen 2.5, Llama 3.1, Mistral v3, Qwen 3, Granite 4,
DeepSeek V3, Llama 4: chat/format/chattemplate/testdata/hf/templates, with the tokens sources.json gives them),
rendered by Jinja2 as transformers' apply_chat_template renders them (the environment of
chat/format/chattemplate/testdata/hf/oracle.py), for conversations whose assistant turns call tools. For each
template and conversation it writes the text without a generation prompt, and the character
ranges (Python str indices) of what the model writes for each assistant message:

  * a message with text only: its content as the template writes it, found as
    batch/testdata/sft_oracle.py finds it (the content between two private-use markers);
  * a message with tool calls: what the model writes for it, its content and its calls as the
    template writes them. The conversation is rendered a second time without the message; the
    text the two renderings do not share is the message's turn. Its start is where the turn's
    opening (the generation prompt: what add_generation_prompt adds after the messages before
    it) ends; of the places the two texts allow, the first where that opening is written. Its
    end leaves out trailing white space and the end of an assistant turn (what the template
    writes after an assistant's text content). A template whose other text depends on the
    message, or a range without a call's name, records an error.

Regenerate from the repository root (Python 3, Jinja2 3.1.x):

    python3 batch/testdata/sft_tools_oracle.py
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HF = os.path.join(HERE, "..", "..", "chat", "format", "chattemplate", "testdata", "hf")
sys.path.insert(0, HF)
import oracle  # noqa: E402
from chatdata import A, S, T, U  # noqa: E402 (chat/format/testdata/chatdata.py, on the path oracle puts it)
from markers import CLOSE, OPEN, content_span  # noqa: E402

TEMPLATES = {
    "093.jinja": "Qwen 2.5",
    "024.jinja": "Llama 3.1",
    "110.jinja": "Mistral v3",
    "098.jinja": "Qwen 3",
    "066.jinja": "Granite 4",
    "049.jinja": "DeepSeek V3",
    "075.jinja": "Llama 4",
}

TOOLS = oracle.TOOLS


# Calls in the OpenAI form (arguments as JSON text), as the Go test reads them.
def call(cid, name, args): return {"id": cid, "type": "function",
                                   "function": {"name": name, "arguments": json.dumps(args, ensure_ascii=False)}}


PARIS = call("call00001", "get_weather", {"city": "Paris", "unit": "°C"})
TIME = call("call00002", "get_time", {"tz": "Europe/Paris"})
TOKYO = call("call00003", "get_weather", {"city": "東京"})

CONVERSATIONS = [
    ("one-call", [U("Weather in Paris?"), A("", [PARIS]), T('{"temp": 20}', "call00001"),
                  A("It is 20 °C.")]),
    ("call-with-content", [S("Be brief."), U("Weather in Paris?"), A("Let me check.", [PARIS]),
                           T('{"temp": 20}', "call00001"), A("20 °C.")]),
    ("two-calls", [U("Weather and time in Paris?"), A("", [PARIS, TIME]), T('{"temp": 20}', "call00001"),
                   T('"12:00"', "call00002"), A("20 °C at noon.")]),
    ("two-rounds", [U("Weather in Paris?"), A("", [PARIS]), T('{"temp": 20}', "call00001"),
                    A("20 °C."), U("And Tokyo?"), A("", [TOKYO]), T('{"temp": 25}', "call00003"),
                    A("25 °C in 東京.")]),
    ("ends-with-call", [U("Time in Paris?"), A("", [TIME])]),
    ("no-calls", [U("Hello"), A("Hi! How can I help?")]),
]


def to_template(msgs):
    """The messages as transformers hands them to a template: arguments as a dict."""
    out = []
    for m in msgs:
        m = dict(m)
        if "tool_calls" in m:
            m["tool_calls"] = [{"id": c["id"], "type": "function",
                                "function": {"name": c["function"]["name"],
                                             "arguments": json.loads(c["function"]["arguments"])}}
                               for c in m["tool_calls"]]
        out.append(m)
    return out


def render(tmpl, src, msgs):
    return tmpl.render(messages=to_template(msgs), tools=TOOLS, documents=None, add_generation_prompt=False,
                       bos_token=src["bos_token"], eos_token=src["eos_token"])


def turn_end(tmpl, src):
    """The text a template writes after an assistant's content, up to the next turn (its end
    token, as "<|im_end|>" or "</s>"), without trailing white space."""
    w = render(tmpl, src, [U("x"), A(OPEN + CLOSE)])
    return w[w.index(CLOSE) + 1:].rstrip()


def call_span(tmpl, src, msgs, i, full):
    m = msgs[i]
    # The conversation without the message: the two texts share all but what the template
    # writes for it.
    without = render(tmpl, src, msgs[:i] + msgs[i + 1:])
    n = len(full) - len(without)
    if n <= 0:
        raise ValueError("cannot locate message %d" % (i + 1))
    p_max = 0
    while p_max < len(without) and full[p_max] == without[p_max]:
        p_max += 1
    s = 0
    while s < len(without) and full[len(full) - 1 - s] == without[len(without) - 1 - s]:
        s += 1
    p_min = len(without) - s
    # Where the message's turn starts: the first place, among those the two texts allow, where
    # the generation prompt (the opening of an assistant turn) is written.
    before = render_gen(tmpl, src, msgs[:i], False)
    gen = render_gen(tmpl, src, msgs[:i], True)
    opening = gen[len(before):] if gen.startswith(before) else ""
    for p in range(max(p_min, 0), p_max + 1):
        if full.startswith(opening, p):
            break
    else:
        raise ValueError("cannot locate message %d" % (i + 1))
    start, end = p + len(opening), p + n
    text = full[start:end].rstrip()
    end = start + len(text)
    close = turn_end(tmpl, src)
    if close and text.endswith(close):
        end -= len(close)
    for c in m["tool_calls"]:
        if c["function"]["name"] not in full[start:end]:
            raise ValueError("cannot locate message %d" % (i + 1))
    return [start, end]


def render_gen(tmpl, src, msgs, gen):
    return tmpl.render(messages=to_template(msgs), tools=TOOLS, documents=None, add_generation_prompt=gen,
                       bos_token=src["bos_token"], eos_token=src["eos_token"])


def spans(tmpl, src, msgs, full):
    out = []
    for i, m in enumerate(msgs):
        if m["role"] != "assistant":
            continue
        sp = call_span(tmpl, src, msgs, i, full) if m.get("tool_calls") else content_span(lambda ms: render(tmpl, src, ms), msgs, i, full)
        if sp is not None and sp[0] < sp[1]:
            out.append(sp)
    return out


def main():
    env = oracle.environment()
    sources = {s["file"]: (s, text) for s, text in oracle.chatdata.hf_templates(HF)}
    golden = {"tools": TOOLS, "conversations": [{"name": n, "messages": m} for n, m in CONVERSATIONS],
              "templates": []}
    for file, model in TEMPLATES.items():
        src, text = sources[file]
        tmpl = env.from_string(text)
        results = []
        for name, msgs in CONVERSATIONS:
            r = {"name": name}
            try:
                full = render(tmpl, src, msgs)
                sp = spans(tmpl, src, msgs, full)
                r["text"], r["spans"] = full, sp
            except Exception as e:  # the template's refusal, or a message that cannot be located
                r["error"] = str(e)
            results.append(r)
        golden["templates"].append({"file": file, "model": model, "results": results})
        print(file, model, sum("text" in r for r in results), "texts,", sum("error" in r for r in results), "errors")
    with open(os.path.join(HERE, "sft_tools_golden.json"), "w", encoding="utf-8") as f:
        json.dump(golden, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
