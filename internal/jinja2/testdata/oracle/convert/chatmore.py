#!/usr/bin/env python3
"""More real chat templates, with the conversations of convert/chat.py.

    python3 convert/chatmore.py CHAT_TEMPLATES_GIT HFJS_GIT [VENDORED_GIT...]   # -> cases/chatmore.json

CHAT_TEMPLATES_GIT: a clone of chujiezheng/chat_templates (its
chat_templates/*.jinja). HFJS_GIT: a clone of huggingface/huggingface.js,
whose packages/jinja/test/e2e.test.js holds real models' templates with
the data it renders them with (TEST_DEFAULT_TEMPLATES and
TEST_CUSTOM_TEMPLATES, read by evaluating the file's object literals
with node; its "target" outputs are not used). Templates already in
cases/hf.json or cases/llamacpp.json (the same text) are left out.
VENDORED_GIT: clones of repositories that vendor models' chat templates
(found by their chat_template.jinja): every *.jinja file holding "{%"
or "{{", and the chat_template of every tokenizer_config.json (a str, or
a list of named templates).

Every template is rendered in the "hf" profile (transformers' chat
environment) with every conversation of convert/chat.py, and each
huggingface.js template also with its own data. Python's Jinja2
decides every expectation (oracle.py).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import chat  # noqa: E402

E2E = "packages/jinja/test/e2e.test.js"

JS = r'''
const src = require("fs").readFileSync(0, "utf8");
let body = src.slice(0, src.indexOf('describe("End-to-end tests"')).replace(/^import .*$/mg, "");
const m = new Function(body + "; return {TEST_DEFAULT_TEMPLATES, TEST_CUSTOM_TEMPLATES};")();
const out = [];
for (const [group, obj] of Object.entries(m)) {
  for (const [name, t] of Object.entries(obj)) out.push({group, name, template: t.chat_template, data: t.data});
}
process.stdout.write(JSON.stringify(out));
'''


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir] + list(args), check=True, capture_output=True).stdout


def known_templates():
    texts = set()
    for name in ("hf.json", "llamacpp.json"):
        with open(os.path.join(HERE, "..", "cases", name), encoding="utf-8") as f:
            doc = json.load(f)
        texts.update(doc.get("templates", {}).values())
        texts.update(c["template"] for c in doc["cases"] if "template" in c)
    return texts


def main():
    ct_git, hfjs_git = sys.argv[1], sys.argv[2]
    ct_commit = git(ct_git, "rev-parse", "HEAD").decode().strip()
    hfjs_commit = git(hfjs_git, "rev-parse", "HEAD").decode().strip()
    known = known_templates()
    templates, seen = [], set(known)
    for path in sorted(git(ct_git, "ls-tree", "--name-only", ct_commit, "chat_templates/").decode().split("\n")):
        if not path.endswith(".jinja"):
            continue
        text = git(ct_git, "show", ct_commit + ":" + path).decode("utf-8")
        if text in seen:
            continue
        seen.add(text)
        templates.append(("chat_templates/" + path.rsplit("/", 1)[1][:-6], text,
                          {"repo": "chujiezheng/chat_templates", "commit": ct_commit, "path": path, "licence": "MIT"}))
    for vg in sys.argv[3:]:
        repo = "/".join(os.path.basename(os.path.dirname(os.path.abspath(vg))).split("+", 1))
        commit = git(vg, "rev-parse", "HEAD").decode().strip()
        for path in git(vg, "ls-tree", "-r", "--name-only", commit).decode().split("\n"):
            found = []
            if path.endswith(".jinja"):
                found.append(("", git(vg, "show", commit + ":" + path).decode("utf-8", "replace")))
            elif path.endswith("tokenizer_config.json"):
                try:
                    ct = json.loads(git(vg, "show", commit + ":" + path)).get("chat_template")
                except ValueError:
                    ct = None
                if isinstance(ct, str):
                    found.append(("", ct))
                elif isinstance(ct, list):
                    found.extend(("#" + t["name"], t["template"]) for t in ct)
            for suffix, text in found:
                if ("{%" not in text and "{{" not in text) or text in seen:
                    continue
                seen.add(text)
                ref = "vendored/%s/%s%s" % (repo, path, suffix)
                templates.append((ref, text, {"repo": repo, "commit": commit, "path": path + suffix,
                                              "licence": "the model's licence applies to its template"}))
    src = git(hfjs_git, "show", hfjs_commit + ":" + E2E)
    entries = json.loads(subprocess.run(["node", "-e", JS], input=src, check=True, capture_output=True).stdout)
    pairs = []
    for e in entries:
        ref = "hfjs-e2e/" + e["name"]
        tsource = {"repo": "huggingface/huggingface.js", "commit": hfjs_commit, "path": E2E,
                   "test": "%s[%r]" % (e["group"], e["name"]), "licence": "MIT (huggingface.js); the model's licence applies to its template"}
        pairs.append({"id": "chatmore/%s/own-data" % ref, "source": tsource, "template": e["template"],
                      "context": e["data"], "env": {"profile": "hf"}})
        if e["template"] in seen:
            continue
        seen.add(e["template"])
        templates.append((ref, e["template"], tsource))
    chat.build("chatmore", templates, {"repo": "chujiezheng/chat_templates, huggingface/huggingface.js",
                                       "path": "chat_templates/*.jinja; " + E2E, "licence": "MIT"},
               "chatmore.json", extra_cases=pairs)


if __name__ == "__main__":
    main()
