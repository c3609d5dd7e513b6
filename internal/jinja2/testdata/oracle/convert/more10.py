#!/usr/bin/env python3
"""Templates of more projects' test suites that parse or render Jinja.

    python3 convert/more10.py GIT_DIR...   # -> cases/more10.json (needs node)

Each GIT_DIR is read by what it holds, in the order given (the run that
made cases/more10.json: jinja-js, prettier-plugin-jinja-template,
dbt-labs/tree-sitter-jinja2, ginger, jingoo, pallets/jinja).

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

TREE_SITTER_GIT: a clone of dbt-labs/tree-sitter-jinja2 (a grammar): the source of each test of test/corpus/*.txt (between its
header and the "---" before its syntax tree), with an empty context.

GINGER_GIT: a clone of tdammers/ginger (Haskell; Jinja2's syntax with
extensions of its own): every Haskell string literal holding "{{" or "{%"
of test/**/*.hs. JINGOO_GIT: a clone of tategakibunko/jingoo (OCaml,
"almost compatible with Jinja2"): every OCaml string literal holding "{{"
or "{%" of tests/*.ml, and the templates of tests/data. Both with an empty
context (their values are Haskell or OCaml code).

JINJA_GIT: a clone of pallets/jinja: the literal blocks of docs/*.rst
(after "::", and ".. code-block::" or ".. sourcecode::" of jinja or
html+jinja; not Python, doctests nor text) that hold "{{", "{%" or "{#",
with an empty context: Jinja2's documentation's own examples.

A text is kept once. The environment is Jinja2's default; the suites'
own expectations are not read: Python's Jinja2 decides (oracle.py).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import suite

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


ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "a": "\a", "0": "\0", "\\": "\\",
           '"': '"', "'": "'", " ": " "}


def ml_strings(src, haskell):
    """(line, value) of the "..." literals of Haskell or OCaml source:
    decimal and hex escapes, Haskell's \\& and string gaps, OCaml's escaped
    newline; comments (-- and {- -}, or (* *)) and the char literal '"'
    skipped."""
    out, i, n = [], 0, len(src)
    while i < n:
        if haskell and src.startswith("--", i):
            i = src.find("\n", i)
            i = n if i < 0 else i
            continue
        if haskell and src.startswith("{-", i) or not haskell and src.startswith("(*", i) and not src.startswith("(*)", i):
            end = src.find("-}" if haskell else "*)", i + 2)
            i = n if end < 0 else end + 2
            continue
        if src.startswith("'\"'", i):
            i += 3
            continue
        if src[i] != '"':
            i += 1
            continue
        line = src.count("\n", 0, i) + 1
        j, buf = i + 1, []
        while j < n and src[j] != '"':
            ch = src[j]
            if ch != "\\":
                buf.append(ch)
                j += 1
                continue
            e = src[j + 1]
            if e.isdigit():
                k = j + 1
                while k < n and src[k].isdigit() and (haskell or k < j + 4):
                    k += 1
                buf.append(chr(int(src[j + 1:k])))
                j = k
            elif e == "x" or haskell and e == "o":
                k = j + 2
                digits = "0123456789abcdefABCDEF" if e == "x" else "01234567"
                while k < n and src[k] in digits and (haskell or k < j + 4):
                    k += 1
                buf.append(chr(int(src[j + 2:k], 16 if e == "x" else 8)))
                j = k
            elif haskell and e == "&":
                j += 2
            elif e in " \t\n\r" and (haskell or e in "\n\r"):
                k = j + 1
                while k < n and src[k] in " \t\n\r":
                    k += 1
                j = k + 1 if haskell and k < n and src[k] == "\\" else k
            else:
                buf.append(ESCAPES.get(e, e))
                j += 2
        out.append((line, "".join(buf)))
        i = j + 1
    return out


DIRECTIVE = re.compile(r"^\s*\.\. (?:code-block|sourcecode)::\s*(\S*)\s*$")


def rst_blocks(src):
    """(line, text) of the literal blocks of reStructuredText src that are
    Jinja: after a paragraph ending in "::", or a code-block or sourcecode
    directive of jinja or html+jinja; dedented, options skipped."""
    lines = src.split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        m = DIRECTIVE.match(line)
        if m and m.group(1) not in ("jinja", "html+jinja", "jinja2", "html+jinja2"):
            i += 1
            continue
        if not m and not (line.rstrip().endswith("::") and not line.lstrip().startswith("..")):
            i += 1
            continue
        indent = len(line) - len(line.lstrip())
        j = i + 1
        while j < len(lines) and (not lines[j].strip() or lines[j].lstrip().startswith(":") and m):
            j += 1
        start, body = j, []
        while j < len(lines) and (not lines[j].strip() or len(lines[j]) - len(lines[j].lstrip()) > indent):
            body.append(lines[j])
            j += 1
        while body and not body[-1].strip():
            body.pop()
        if body:
            cut = min(len(b) - len(b.lstrip()) for b in body if b.strip())
            text = "\n".join(b[cut:] for b in body)
            if not text.startswith(">>>"):
                out.append((start + 1, text))
        i = max(j, i + 1)
    return out


def main():
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

    def jinja_js(git_dir, commit, files):
        sources.append({"repo": "sstur/jinja-js", "commit": commit, "path": "test/main.js", "licence": "BSD-2-Clause"})
        with tempfile.TemporaryDirectory() as tmp:
            js = os.path.join(tmp, "record.js")
            with open(js, "w") as f:
                f.write(JINJA_JS)
            out = subprocess.run(["node", js], input=git(git_dir, "show", commit + ":test/main.js"), check=True,
                                 capture_output=True).stdout
        for i, r in enumerate(json.loads(out)):
            loader = {k: v for k, v in r["loader"].items() if k in r["template"] or any(k in t for t in r["loader"].values())}
            add("more10/jinja-js/%03d" % i, {"repo": "sstur/jinja-js", "test": "test/main.js #%d" % i},
                r["template"], r["context"], loader)

    def prettier(git_dir, commit, files):
        sources.append({"repo": "davidodenwald/prettier-plugin-jinja-template", "commit": commit, "path": "test/cases",
                        "licence": "MIT"})
        for p in files:
            if p.startswith("test/cases/") and p.endswith(("/input.html", "/expected.html")):
                add("more10/prettier/" + p[len("test/cases/"):-len(".html")],
                    {"repo": "davidodenwald/prettier-plugin-jinja-template", "test": p},
                    git(git_dir, "show", commit + ":" + p).decode("utf-8"))

    header = re.compile(r"^={3,}\n(.*?)\n={3,}\n(.*?)\n-{3,}\n", re.S | re.M)

    def tree_sitter(git_dir, commit, files):
        repo = repo_name(git_dir)
        sources.append({"repo": repo, "commit": commit, "path": "test/corpus", "licence": "Apache-2.0"})
        for p in files:
            if not (p.startswith("test/corpus/") and p.endswith(".txt")):
                continue
            text = git(git_dir, "show", commit + ":" + p).decode("utf-8")
            for m in header.finditer(text):
                body = m.group(2).strip("\n")
                if body:
                    add("more10/%s/%s/%s" % (repo.split("/")[0], os.path.basename(p)[:-4], m.group(1).strip()),
                        {"repo": repo, "test": "%s: %s" % (p, m.group(1).strip())}, body)

    def literals(git_dir, commit, files, repo, kind, prefix, ext, haskell):
        for p in files:
            if p.startswith(prefix) and p.endswith(ext):
                for line, text in ml_strings(git(git_dir, "show", commit + ":" + p).decode("utf-8"), haskell):
                    if "{{" in text or "{%" in text:
                        add("more10/%s/%s:%d" % (kind, p[:-len(ext)], line), {"repo": repo, "test": "%s, line %d" % (p, line)},
                            text)

    def ginger(git_dir, commit, files):
        sources.append({"repo": "tdammers/ginger", "commit": commit, "path": "test/**/*.hs", "licence": "MIT"})
        literals(git_dir, commit, files, "tdammers/ginger", "ginger", "test/", ".hs", True)

    def jingoo(git_dir, commit, files):
        sources.append({"repo": "tategakibunko/jingoo", "commit": commit, "path": "tests/*.ml, tests/data", "licence": "MIT"})
        literals(git_dir, commit, files, "tategakibunko/jingoo", "jingoo", "tests/", ".ml", False)
        for p in files:
            if p.startswith("tests/data/"):
                add("more10/jingoo/" + p, {"repo": "tategakibunko/jingoo", "test": p}, git(git_dir, "show", commit + ":" + p).decode("utf-8"))

    def pallets_docs(git_dir, commit, files):
        sources.append({"repo": "pallets/jinja", "commit": commit, "path": "docs/*.rst", "licence": "BSD-3-Clause"})
        for p in files:
            if p.startswith("docs/") and p.endswith(".rst"):
                for line, text in rst_blocks(git(git_dir, "show", commit + ":" + p).decode("utf-8")):
                    if any(t in text for t in ("{{", "{%", "{#")):
                        add("more10/jinja-docs/%s:%d" % (p[len("docs/"):-len(".rst")], line), {"repo": "pallets/jinja",
                                                                                           "test": "%s, line %d" % (p, line)}, text)

    kinds = [("test/main.js", jinja_js), ("test/cases/", prettier), ("test/corpus/", tree_sitter),
             ("test/Text/Ginger/", ginger), ("tests/test_output.ml", jingoo),
             ("docs/templates.rst", pallets_docs)]
    for git_dir in sys.argv[1:]:
        commit = head(git_dir)
        files = sorted(git(git_dir, "ls-tree", "-r", "--name-only", commit).decode().split("\n"))
        fn = next((fn for mark, fn in kinds if any(f.startswith(mark) for f in files)), None)
        if fn is None:
            sys.exit("%s: not a suite this converter reads" % git_dir)
        fn(git_dir, commit, files)
    suite.write_cases("more10.json", {"repos": sources}, cases, second=2)


if __name__ == "__main__":
    main()
