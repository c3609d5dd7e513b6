#!/usr/bin/env python3
"""Prints the CPU nanoseconds Python's Jinja2 takes to render one of the
templates of runtime_bench_test.go: bench.py chat|macros

The templates and values are the Go benchmark's (read from it), so both
sides render the same text.
"""
import os
import re
import resource
import sys

import jinja2

src = open(os.path.join(os.path.dirname(__file__), "..", "..", "runtime_bench_test.go")).read()
env = jinja2.Environment()
which = sys.argv[1]
if which == "chat":
    tmpl = env.from_string(re.search(r"const chatTemplate = `(.*?)`", src, re.S).group(1))
    msgs = [{"role": "system", "content": "You are a helpful assistant."}]
    for i in range(10):
        msgs.append({"role": "user" if i % 2 == 0 else "assistant", "content": "Message number %d with some text in it. " % i})
    render, n = (lambda: tmpl.render(messages=msgs, add_generation_prompt=True)), 5000
else:
    tmpl = env.from_string(re.search(r"const macroTemplate = `(.*?)`", src, re.S).group(1))
    xs = ["name%d" % i for i in range(50)]
    render, n = (lambda: tmpl.render(xs=xs)), 500


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


render()
c0 = cpu()
for _ in range(n):
    render()
print((cpu() - c0) / n * 1e9)
