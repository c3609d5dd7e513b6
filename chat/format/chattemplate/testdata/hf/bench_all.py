#!/usr/bin/env python3
"""Times Jinja2 rendering every corpus template on one conversation each, set
up as oracle.py sets it up (transformers' environment), and prints a JSON
object {template: {"conversation": name, "ns": CPU nanoseconds per render}}
(time.process_time, median of 3 rounds). The conversation is the first of
PREFERRED that Jinja2 renders for the template (results.json), so that the
tool-call loop is timed wherever the template has one. Used by
BenchmarkCorpusVsJinja2.

    python3 chat/format/chattemplate/testdata/hf/bench_all.py [ROUNDS_OF_N]
"""

import json
import os
import statistics
import sys
import time
import timeit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402

PREFERRED = ["tools-two-calls-answer", "tools-call-result", "system-user-assistant-user", "user"]


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "results.json"), encoding="utf-8") as f:
        renders = {(r["template"], r["conversation"]) for r in json.load(f) if r.get("output") is not None}
    convs = {c["name"]: c for c in oracle.CONVERSATIONS}
    env = oracle.environment()
    out = {}
    for src, text in oracle.chatdata.hf_templates(here):
        name = src["file"]
        conv_name = next((c for c in PREFERRED if (name, c) in renders), None)
        if conv_name is None:
            continue
        tmpl = env.from_string(text)
        conv = convs[conv_name]

        def render():
            tmpl.render(messages=conv["messages"], tools=conv.get("tools"), documents=None,
                        add_generation_prompt=conv["add_generation_prompt"],
                        bos_token=src["bos_token"], eos_token=src["eos_token"])

        render()
        rounds = timeit.repeat(render, number=n, repeat=3, timer=time.process_time)
        out[name] = {"conversation": conv_name, "ns": statistics.median(rounds) / n * 1e9}
    json.dump(out, sys.stdout, indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
