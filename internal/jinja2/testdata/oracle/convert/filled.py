#!/usr/bin/env python3
"""The ports' templates that had no context, with values for their names.

    python3 convert/filled.py     # -> cases/filled.json (after the files it reads)

The templates of cases/{minijinja,jinjava,nunjucks,jinjadart,moreports,gonja2}.json rendered with an
empty context (the suites' contexts are code) mostly print undefined
names. Each such template without a loader is rendered again with a
value for every name it reads and does not set
(jinja2.meta.find_undeclared_variables), chosen from PALETTE by the
name's CRC-32, so that a name gets the same value in every template.
Python's Jinja2 decides (oracle.py); many cases raise, as a template
meets a value it was not written for, and that is compared too.
"""
import json
import os
import sys
import zlib

import jinja2
from jinja2 import meta

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = ["minijinja", "jinjava", "nunjucks", "jinjadart", "moreports", "gonja2"]
PALETTE = [
    3, "ab c", [1, 2, 3], {"a": 1, "b": "x", "items": [1, 2]},
    [{"name": "n1", "value": 2, "tags": ["x"]}, {"name": "n0", "value": 1, "tags": []}],
    2.5, True, None, "<b>&'\"", -7, [], {}, ["b", "a", "c"], {"name": "it's", "list": [3, 1, 2], "nested": {"k": [1.5, None]}},
    "", 0, 10 ** 20, [[1, "x"], [2, "y"]], "ünï\u00a0cøde\n", -0.0,
]


def main():
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    env = jinja2.Environment(extensions=["jinja2.ext.loopcontrols", "jinja2.ext.do"])
    cases = []
    for src in SOURCES:
        with open(os.path.join(HERE, "..", "cases", src + ".json"), encoding="utf-8") as f:
            doc = json.load(f)
        for c in doc["cases"]:
            if c.get("context") or c.get("context_ref") or c.get("loader") or "template" not in c or "error" in c["expect"] and c["expect"]["error"] == "TemplateSyntaxError":
                continue
            try:
                names = sorted(meta.find_undeclared_variables(env.parse(c["template"])))
            except Exception:
                continue
            if not names:
                continue
            ctx = {n: PALETTE[zlib.crc32(n.encode()) % len(PALETTE)] for n in names}
            cases.append({"id": "filled/" + c["id"], "source": {"from": c["id"]}, "template": c["template"],
                          "context": ctx, "env": c.get("env") or {}})
    doc = {"jinja2": "", "source": {"repo": "rolemark", "path": "internal/jinja2/testdata/oracle/convert/filled.py",
                                    "licence": "as the files it reads"}, "cases": cases}
    oracle.write_cases("filled.json", doc)


if __name__ == "__main__":
    main()
