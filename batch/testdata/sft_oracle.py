#!/usr/bin/env python3
"""Oracle for batch's SFT spans (batch/sft_test.go).

For every chat format preset that has a HuggingFace chat template (the templates and the Jinja2
environment of chat/format/testdata/oracle.py, as transformers' apply_chat_template renders them),
and every conversation below, it writes the template's text without a generation prompt and the
character ranges (Python str indices) that each assistant message's content occupies in it, to
sft_golden.json. None of these templates marks {% generation %} blocks, so the ranges are found on
the real template: it is rendered a second time with one assistant content between two
private-use marker characters, and what the two renderings share before and after the markers
fixes where the content lies in the first (so a template that trims the content is followed).

Regenerate from the repository root (Python 3, Jinja2 3.1.6, ollama's module in the Go module
cache as oracle.py says):

    python3 batch/testdata/sft_oracle.py
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "chat", "format", "testdata"))
import oracle  # noqa: E402
from chatdata import A, S, U  # noqa: E402 (chat/format/testdata/chatdata.py)
from markers import content_span  # noqa: E402


POOL_U = ["Hello, how are you?", "Grüß dich! 😀 中文?", "  padded question  ", "multi\nline\nquestion",
          "<tag> & {braces} \\n", "x" * 700]
POOL_A = ["I'm fine, thanks.", "  spaced answer  ", "\nnewline first", "trailing newline\n", "很好，谢谢！ 🎉",
          "multi\nline\nanswer", "", "   ", "<|im_end|> is just text", "\u00a0nbsp edges\u00a0", "y" * 900,
          "Answer with \"quotes\" and 'apostrophes'"]


def conversations():
    import random
    rnd = random.Random(20261123)
    convs = [
        ("single-turn", [U("What is 2+2?"), A("4")]),
        ("system-single-turn", [S("You are helpful."), U("What is 2+2?"), A("4")]),
        ("two-turns", [U("One?"), A("1"), U("Two?"), A("2")]),
        ("two-turns-system", [S("Be brief."), U("One?"), A("1"), U("Two?"), A("2")]),
        ("ends-with-user", [S("Be brief."), U("One?"), A("1"), U("Two?")]),
        ("spaces", [U("  hi  "), A("  spaced answer  ")]),
        ("empty-assistant", [U("hi"), A(""), U("again"), A("ok")]),
        ("unicode", [S("你是一个助手。"), U("Grüß dich! 😀"), A("很好，谢谢！ 🎉 “quotes”")]),
        ("long", [U("x" * 700), A("y" * 900)]),
        ("looks-like-markup", [U("Say <|im_end|>"), A("<|im_end|><|eot_id|></s> [/INST]")]),
    ]
    for k in range(14):
        msgs = []
        if rnd.random() < 0.5:
            msgs.append(S(rnd.choice(["You are helpful.", "  padded system  ", "Système: réponds en français."])))
        for i in range(rnd.randint(1, 4)):
            msgs.append(U(rnd.choice(POOL_U)))
            msgs.append(A(rnd.choice(POOL_A)))
        convs.append(("random-%02d" % k, msgs))
    return convs


def spans(tmpl, bos, eos, msgs, full):
    def render(ms):
        return oracle.apply(tmpl, bos, eos, {"messages": ms, "add_generation_prompt": False,
                                             "continue_final_message": False})
    out = []
    for i, m in enumerate(msgs):
        if m["role"] != "assistant":
            continue
        sp = content_span(render, msgs, i, full)
        if sp is not None and sp[0] < sp[1]:
            out.append(sp)
    return out


def main():
    env = oracle.environment()
    convs = conversations()
    golden = {"conversations": [{"name": n, "messages": m} for n, m in convs], "presets": {}}
    for preset, (source, origin, bos, eos) in sorted(oracle.load_templates().items()):
        tmpl = env.from_string(source)
        results = []
        for name, msgs in convs:
            r = {"name": name}
            try:
                full = oracle.apply(tmpl, bos, eos, {"messages": msgs, "add_generation_prompt": False,
                                                     "continue_final_message": False})
                r["text"] = full
                r["spans"] = spans(tmpl, bos, eos, msgs, full)
            except Exception as e:  # the template's refusal
                r["error"] = str(e)
            results.append(r)
        golden["presets"][preset] = {"template": origin, "results": results}
        print(preset, sum("text" in r for r in results), "texts,", sum("error" in r for r in results), "errors")
    with open(os.path.join(HERE, "sft_golden.json"), "w", encoding="utf-8") as f:
        json.dump(golden, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
