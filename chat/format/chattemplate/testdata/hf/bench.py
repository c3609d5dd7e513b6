#!/usr/bin/env python3
"""Times Jinja2 rendering one corpus template on one conversation, set up as
oracle.py sets it up (transformers' environment), and prints the median
CPU nanoseconds (time.process_time, so that other work on a shared machine
counts less) per render of 7 rounds. Used by BenchmarkTemplateVsJinja2.

    python3 chat/format/chattemplate/testdata/hf/bench.py 110.jinja tools-two-calls-answer
"""

import os
import statistics
import sys
import time
import timeit

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402


def main():
    name, conv_name = sys.argv[1], sys.argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    src, text = next((s, t) for s, t in oracle.chatdata.hf_templates(here) if s["file"] == name)
    tmpl = oracle.environment().from_string(text)
    conv = next(c for c in oracle.CONVERSATIONS if c["name"] == conv_name)

    def render():
        tmpl.render(messages=conv["messages"], tools=conv.get("tools"), documents=None,
                    add_generation_prompt=conv["add_generation_prompt"],
                    bos_token=src["bos_token"], eos_token=src["eos_token"])

    render()
    n = 2000
    rounds = timeit.repeat(render, number=n, repeat=7, timer=time.process_time)
    print(statistics.median(rounds) / n * 1e9)


if __name__ == "__main__":
    main()
