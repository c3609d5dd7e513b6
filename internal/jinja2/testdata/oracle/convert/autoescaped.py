#!/usr/bin/env python3
"""The ports' cases again with autoescape on.

    python3 convert/autoescaped.py     # -> cases/autoescaped.json (after the files it reads)

Every case of cases/{minijinja,jinja2cpp,nunjucks,jinjava,jinjadart,moreports,
filled}.json whose template reads an attribute, item or call (a ".",
"[" or "(") is rendered again with "autoescape": true in its env, where
Markup meets str in concatenation, formatting, joins and filters.
Python's Jinja2 decides (oracle.py).
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
            if not any(ch in text for ch in ".[("):
                continue
            c = {k: v for k, v in c.items() if k != "expect"}
            c["id"] = "autoescaped/" + c["id"]
            c["env"] = dict(c.get("env") or {}, autoescape=True)
            if "context_ref" in c:
                c["context_ref"] = src + "/" + c["context_ref"]
            cases.append(c)
    doc = {"jinja2": "", "source": {"repo": "rolemark", "path": "internal/jinja2/testdata/oracle/convert/sandboxed.py",
                                    "licence": "as the files it reads"}, "contexts": contexts, "cases": cases}
    oracle.write_cases("autoescaped.json", doc)


if __name__ == "__main__":
    main()
