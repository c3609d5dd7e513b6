#!/usr/bin/env python3
"""Templates of three more projects' test suites that parse or render Jinja.

    python3 convert/more10.py JINJA_JS_GIT PRETTIER_GIT TREE_SITTER_GIT...   # -> cases/more10.json (needs node)

JINJA_JS_GIT: a clone of sstur/jinja-js (a JavaScript port of Jinja2):
test/main.js is run under node with stand-ins for its test helpers and
expect.js, recording every template it compiles and every render's
context instead of rendering; a template compiled with a filename joins
the loader (under that name, and with ".html" added when it has no dot,
as the port's helper names files), and is a case only when rendered; a
template only compiled (the suite expects it to fail) is a case with an
empty context. The suite's custom filters (add, split) are not given:
Jinja2 raises where a template calls them.

PRETTIER_GIT: a clone of davidodenwald/prettier-plugin-jinja-template (a
formatter): each test/cases/*/input.html and expected.html (the text
before formatting and after it), with an empty context.

TREE_SITTER_GIT: clones of tree-sitter-jinja2 grammars (dbt-labs',
theHamsta's): the source of each test of test/corpus/*.txt (between its
header and the "---" before its syntax tree), with an empty context.

A text is kept once. The environment is Jinja2's default; the suites'
own expectations are not read: Python's Jinja2 decides (oracle.py).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

JINJA_JS = r'''
const fs = require("fs");
const src = fs.readFileSync(0, "utf8");
const files = {}, records = [], compiled = [];
const helpers = {
  compile(text, opts) {
    opts = opts || {};
    if (opts.filename) {
      files[opts.filename] = text;
      if (opts.filename.indexOf(".") < 0) files[opts.filename + ".html"] = text;
    } else {
      compiled.push(text);
    }
    const fn = function (ctx) {
      records.push({template: text, context: ctx || {}, loader: Object.assign({}, files)});
      return "";
    };
    fn.render = fn;
    return fn;
  },
  render(name, ctx) {
    records.push({template: files[name] || "", context: ctx || {}, loader: Object.assign({}, files)});
    return "";
  },
};
const chain = new Proxy(function () {}, {get: () => chain, apply: () => chain});
const expect = function (x) {
  if (typeof x === "function") { try { x(); } catch (e) {} }
  return chain;
};
const req = (name) => name === "expect.js" ? expect : name === "./lib/helpers" ? helpers : require(name);
const run = (name, fn) => { try { fn(); } catch (e) {} };
new Function("require", "describe", "it", src)(req, run, run);
const rendered = new Set(records.map((r) => r.template));
for (const t of compiled) if (!rendered.has(t)) records.push({template: t, context: {}, loader: {}});
process.stdout.write(JSON.stringify(records));
'''


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir] + list(args), check=True, capture_output=True).stdout


def head(git_dir):
    return git(git_dir, "rev-parse", "HEAD").decode().strip()


def repo_name(git_dir):
    """owner/name of a /work/.mirror/owner+name/repo clone, else the folder."""
    for part in reversed(os.path.abspath(git_dir).split(os.sep)):
        if "+" in part:
            return part.replace("+", "/", 1)
    return os.path.basename(git_dir)


def main():
    jinja_js, prettier, trees = sys.argv[1], sys.argv[2], sys.argv[3:]
    cases, seen, sources = [], set(), []

    def add(cid, src, text, context=None, loader=None):
        key = json.dumps([text, context or {}, loader or {}], sort_keys=True)
        if key in seen:
            return
        seen.add(key)
        case = {"id": cid, "source": src, "template": text, "context": context or {}, "env": {}}
        if loader:
            case["loader"] = loader
        cases.append(case)

    commit = head(jinja_js)
    sources.append({"repo": "sstur/jinja-js", "commit": commit, "path": "test/main.js", "licence": "BSD-2-Clause"})
    with tempfile.TemporaryDirectory() as tmp:
        js = os.path.join(tmp, "record.js")
        with open(js, "w") as f:
            f.write(JINJA_JS)
        out = subprocess.run(["node", js], input=git(jinja_js, "show", commit + ":test/main.js"), check=True,
                             capture_output=True).stdout
    for i, r in enumerate(json.loads(out)):
        loader = {k: v for k, v in r["loader"].items() if k in r["template"] or any(k in t for t in r["loader"].values())}
        add("more10/jinja-js/%03d" % i, {"repo": "sstur/jinja-js", "test": "test/main.js #%d" % i},
            r["template"], r["context"], loader)

    commit = head(prettier)
    sources.append({"repo": "davidodenwald/prettier-plugin-jinja-template", "commit": commit, "path": "test/cases",
                    "licence": "MIT"})
    for p in sorted(git(prettier, "ls-tree", "-r", "--name-only", commit, "test/cases").decode().split("\n")):
        if p.endswith(("/input.html", "/expected.html")):
            name = p[len("test/cases/"):-len(".html")]
            add("more10/prettier/" + name, {"repo": "davidodenwald/prettier-plugin-jinja-template", "test": p},
                git(prettier, "show", commit + ":" + p).decode("utf-8"))

    header = re.compile(r"^={3,}\n(.*?)\n={3,}\n(.*?)\n-{3,}\n", re.S | re.M)
    for tree in trees:
        commit, repo = head(tree), repo_name(tree)
        sources.append({"repo": repo, "commit": commit, "path": "test/corpus", "licence": "MIT" if "theHamsta" in repo else
                        "Apache-2.0"})
        for p in sorted(git(tree, "ls-tree", "-r", "--name-only", commit, "test/corpus").decode().split("\n")):
            if not p.endswith(".txt"):
                continue
            text = git(tree, "show", commit + ":" + p).decode("utf-8")
            for m in header.finditer(text):
                body = m.group(2).strip("\n")
                if body:
                    add("more10/%s/%s/%s" % (repo.split("/")[0], os.path.basename(p)[:-4], m.group(1).strip()),
                        {"repo": repo, "test": "%s: %s" % (p, m.group(1).strip())}, body)
    ids = {}
    for c in cases:
        n = ids.get(c["id"], 0)
        ids[c["id"]] = n + 1
        if n:
            c["id"] += "#%d" % (n + 1)
    doc = {"jinja2": "", "source": {"repos": sources}, "cases": cases}
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_cases("more10.json", doc)


if __name__ == "__main__":
    main()
