#!/usr/bin/env python3
"""The ports' cases again with trim_blocks and lstrip_blocks on.

    python3 convert/trimmed.py     # -> cases/trimmed.json (after the files it reads)

Every case of cases/{minijinja,jinja2cpp,nunjucks,jinjava,jinjadart,
moreports,filled}.json whose template holds a tag ("{%") or a comment
is rendered again with "trim_blocks" and "lstrip_blocks" on (as chat
templates are), which move the whitespace around every tag. Python's
Jinja2 decides (oracle.py).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = ["minijinja", "jinja2cpp", "nunjucks", "jinjava", "jinjadart", "moreports", "filled"]


def main():
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    cases, contexts = [], {}
    for src in SOURCES:
        with open(os.path.join(HERE, "..", "cases", src + ".json"), encoding="utf-8") as f:
            doc = json.load(f)
        for ref, ctx in doc.get("contexts", {}).items():
            contexts[src + "/" + ref] = ctx
        for c in doc["cases"]:
            text = c.get("template") or c.get("loader", {}).get(c.get("name"), "")
            if "{%" not in text and "{#" not in text:
                continue
            c = {k: v for k, v in c.items() if k != "expect"}
            c["id"] = "trimmed/" + c["id"]
            c["env"] = dict(c.get("env") or {}, trim_blocks=True, lstrip_blocks=True)
            if "context_ref" in c:
                c["context_ref"] = src + "/" + c["context_ref"]
            cases.append(c)
    doc = {"jinja2": "", "source": {"repo": "rolemark", "path": "internal/jinja2/testdata/oracle/convert/sandboxed.py",
                                    "licence": "as the files it reads"}, "contexts": contexts, "cases": cases}
    oracle.write_cases("trimmed.json", doc)


if __name__ == "__main__":
    main()
