#!/usr/bin/env python3
"""The other ports' cases again, in the immutable sandbox.

    python3 convert/sandboxed.py     # -> cases/sandboxed.json (after the files it reads)

Every case of cases/{minijinja,jinja2cpp,gonja,nunjucks,jinjava}.json
whose output or error could depend on the sandbox (its template calls a
method, or reads an attribute or item; in practice every template with
a "." "[" or "(") is rendered again with "sandbox": true in its env
(ImmutableSandboxedEnvironment, the environment of transformers' chat
templates), where mutating a list or dict, and unsafe attributes, raise
SecurityError. Python's Jinja2 decides (oracle.py).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = ["minijinja", "jinja2cpp", "gonja", "nunjucks", "jinjava"]


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
            c["id"] = "sandboxed/" + c["id"]
            c["env"] = dict(c.get("env") or {}, sandbox=True)
            if "context_ref" in c:
                c["context_ref"] = src + "/" + c["context_ref"]
            cases.append(c)
    doc = {"jinja2": "", "source": {"repo": "rolemark", "path": "internal/jinja2/testdata/oracle/convert/sandboxed.py",
                                    "licence": "as the files it reads"}, "contexts": contexts, "cases": cases}
    oracle.write_cases("sandboxed.json", doc)


if __name__ == "__main__":
    main()
