#!/usr/bin/env python3
"""The ports' cases again in another environment: one variant a run.

    python3 convert/derived.py sandboxed     # -> cases/sandboxed.json
    python3 convert/derived.py autoescaped   # -> cases/autoescaped.json
    python3 convert/derived.py trimmed       # -> cases/trimmed.json

(each after the files it reads). A variant takes the cases of its source
files whose template could render differently in its environment, drops
their expectations and sets its env; Python's Jinja2 decides (oracle.py).

- sandboxed: minijinja, jinja2cpp, gonja, nunjucks, jinjava and gonja2; templates
  with a "." "[" or "(" (a method call, an attribute or item), with
  "sandbox": true (ImmutableSandboxedEnvironment, the environment of
  transformers' chat templates: mutating a list or dict, and unsafe
  attributes, raise SecurityError).
- autoescaped: minijinja, jinja2cpp, nunjucks, jinjava, jinjadart,
  moreports, gonja2 and filled; the same templates, with "autoescape": true,
  where Markup meets str in concatenation, formatting, joins and filters.
- trimmed: the same sources; templates holding a tag ("{%") or a comment,
  with trim_blocks and lstrip_blocks on (as chat templates are), which
  move the whitespace around every tag.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PORTS = ["minijinja", "jinja2cpp", "nunjucks", "jinjava", "jinjadart", "moreports", "gonja2", "filled"]


def reads_objects(text):
    return any(ch in text for ch in ".[(")


def has_tags(text):
    return "{%" in text or "{#" in text


# name: (source files, which templates, what the env gains)
VARIANTS = {
    "sandboxed": (["minijinja", "jinja2cpp", "gonja", "nunjucks", "jinjava", "gonja2"], reads_objects, {"sandbox": True}),
    "autoescaped": (PORTS, reads_objects, {"autoescape": True}),
    "trimmed": (PORTS, has_tags, {"trim_blocks": True, "lstrip_blocks": True}),
}


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in VARIANTS:
        sys.exit("usage: derived.py " + "|".join(VARIANTS))
    name = sys.argv[1]
    sources, wanted, env = VARIANTS[name]
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    cases, contexts = [], {}
    for src in sources:
        with open(os.path.join(HERE, "..", "cases", src + ".json"), encoding="utf-8") as f:
            doc = json.load(f)
        for ref, ctx in doc.get("contexts", {}).items():
            contexts[src + "/" + ref] = ctx
        for c in doc["cases"]:
            text = c.get("template") or c.get("loader", {}).get(c.get("name"), "")
            if not wanted(text):
                continue
            c = {k: v for k, v in c.items() if k != "expect"}
            c["id"] = name + "/" + c["id"]
            c["env"] = dict(c.get("env") or {}, **env)
            if "context_ref" in c:
                c["context_ref"] = src + "/" + c["context_ref"]
            cases.append(c)
    doc = {"jinja2": "", "source": {"repo": "rolemark", "path": "internal/jinja2/testdata/oracle/convert/derived.py",
                                    "licence": "as the files it reads"}, "contexts": contexts, "cases": cases}
    oracle.write_cases(name + ".json", doc)


if __name__ == "__main__":
    main()
