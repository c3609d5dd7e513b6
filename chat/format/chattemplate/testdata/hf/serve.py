#!/usr/bin/env python3
"""Renders chat templates with Jinja2 set up as oracle.py sets it up
(transformers' environment), one request per line on standard input, one
answer per line on standard output. FuzzCompiledVsEngine
(hf_compiled_fuzz_test.go) asks it whenever the compiled path and the
engine disagree.

    request:  {"template": "093.jinja", "messages": [...], "tools": [...] or null,
               "add_generation_prompt": true, "bos_token": "<s>", "eos_token": "</s>"}
    answer:   {"output": "..."} or {"error": "...", "error_kind": "TypeError"}
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    env = oracle.environment()
    cache = {}
    for line in sys.stdin:
        req = json.loads(line)
        name = req["template"]
        if name not in cache:
            with open(os.path.join(here, "templates", name), encoding="utf-8", newline="") as f:
                cache[name] = env.from_string(f.read())
        try:
            out = {"output": cache[name].render(messages=req["messages"], tools=req["tools"], documents=None,
                                                add_generation_prompt=req["add_generation_prompt"],
                                                bos_token=req["bos_token"], eos_token=req["eos_token"])}
        except Exception as e:  # the template's refusal or Python's
            out = {"error": str(e), "error_kind": type(e).__name__}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
