#!/usr/bin/env python3
"""Convert nunjucks's template tests to oracle cases.

    python3 convert/nunjucks.py GIT_DIR [COMMIT]   # GIT_DIR: a clone of mozilla/nunjucks (needs node)

nunjucks is a JavaScript port of Jinja2. Its tests (tests/*.js) render
templates through tests/util.js's equal, jinjaEqual and render. Each test
file is run by node with stand-ins for util.js, expect.js and nunjucks
itself: every equal, jinjaEqual and render call is recorded (template,
context, options) instead of rendered. nunjucks's expectations are not
used: Python's Jinja2 decides (oracle.py), so where nunjucks syntax is
not Jinja2's the case expects the error Jinja2 raises.

A call is left out when its context holds a JavaScript function or
object that JSON cannot state, or when its options add filters or
extensions, and a template that prints
something random (the random filter, lipsum). The environment
follows the options: autoescape unless the
call turns it off (nunjucks's default is on), trim_blocks and
lstrip_blocks as trimBlocks and lstripBlocks; loopcontrols is not
given (nunjucks has no break). The files of tests/templates are the
loader.
"""
import json
import re
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = ["compiler.js", "filters.js", "globals.js", "jinja-compat.js", "runtime.js", "core.js", "api.js", "parser.js"]

HARNESS = r'''
const Module = require("module");
const records = [];
let current = "";
function sniff(v, seen) {
  if (typeof v === "function") throw new Error("function");
  if (v === undefined) throw new Error("undefined");
  if (v && typeof v === "object") {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) throw new Error("object");
    for (const k of Object.keys(v)) sniff(v[k]);
  }
}
function record(str, ctx, opts) {
  const r = {test: current, template: str};
  try {
    if (typeof str !== "string") throw new Error("template");
    sniff(ctx || {});
    if (opts && (opts.filters || opts.asyncFilters || opts.extensions)) throw new Error("filters");
    r.context = JSON.parse(JSON.stringify(ctx || {}));
    r.opts = {autoescape: !(opts && opts.autoescape === false), trimBlocks: !!(opts && opts.trimBlocks),
              lstripBlocks: !!(opts && opts.lstripBlocks)};
  } catch (e) {
    r.skip = e.message;
  }
  records.push(r);
}
const chain = new Proxy(function() {}, {get: () => chain, apply: () => chain, construct: () => chain});
const util = {
  equal(str, ctx, opts, str2, env) {
    if (typeof ctx === "string") { ctx = null; opts = {}; }
    if (typeof opts === "string") { opts = {}; }
    record(str, ctx, opts);
  },
  jinjaEqual(str, ctx, str2, env) { record(str, ctx, {}); },
  render(str, ctx, opts, env, cb) {
    if (typeof ctx === "function") { cb = ctx; ctx = null; opts = null; }
    else if (typeof opts === "function") { cb = opts; opts = null; }
    else if (typeof env === "function") { cb = env; }
    record(str, ctx, opts || {});
    if (typeof cb === "function") { try { cb(null, ""); } catch (e) {} }
    return "";
  },
  finish(done) { if (typeof done === "function") done(); },
  normEOL: (s) => s,
  isSlim: false,
  Loader: chain,
};
const load = Module._load;
Module._load = function(request, parent, isMain) {
  if (request === "./util") return util;
  if (request === "expect.js" || request.startsWith("../nunjucks") || request.startsWith("../src") || request === "path" && false) return chain;
  try { return load.apply(this, arguments); } catch (e) { return chain; }
};
global.window = undefined;
const hooks = ["before", "after", "beforeEach", "afterEach"];
for (const h of hooks) global[h] = () => {};
global.describe = function(name, fn) { try { fn.call({timeout() {}}); } catch (e) {} };
global.describe.skip = () => {};
global.it = function(name, fn) { current = name; try { fn.call({timeout() {}}, () => {}); } catch (e) {} };
global.it.skip = () => {};
global.xit = () => {};
require(require("path").resolve(process.argv[2]));
process.stdout.write(JSON.stringify(records));
'''


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir] + list(args), check=True, capture_output=True).stdout


def main():
    git_dir = sys.argv[1]
    commit = git(git_dir, "rev-parse", sys.argv[2] if len(sys.argv) > 2 else "HEAD").decode().strip()
    loader = {}
    for path in git(git_dir, "ls-tree", "-r", "--name-only", commit, "tests/templates/").decode().split("\n"):
        if path:
            loader[path[len("tests/templates/"):]] = git(git_dir, "show", commit + ":" + path).decode("utf-8")
    cases, skipped, seen = [], {}, set()
    with tempfile.TemporaryDirectory() as tmp:
        harness = os.path.join(tmp, "harness.js")
        with open(harness, "w") as f:
            f.write(HARNESS)
        for name in FILES:
            test = os.path.join(tmp, name)
            with open(test, "wb") as f:
                f.write(git(git_dir, "show", commit + ":tests/" + name))
            out = subprocess.run(["node", harness, test], capture_output=True, cwd=tmp, timeout=120)
            if out.returncode != 0:
                sys.exit("%s: %s" % (name, out.stderr.decode()))
            for i, r in enumerate(json.loads(out.stdout)):
                cid = "nunjucks/%s/%s#%d" % (name[:-3], r["test"], i)
                if r.get("skip"):
                    skipped[cid] = r["skip"]
                    continue
                if re.search(r"\|\s*random\b|lipsum\(", r["template"]):
                    skipped[cid] = "random"
                    continue
                env = {}
                if r["opts"]["autoescape"]:
                    env["autoescape"] = True
                if r["opts"]["trimBlocks"]:
                    env["trim_blocks"] = True
                if r["opts"]["lstripBlocks"]:
                    env["lstrip_blocks"] = True
                key = json.dumps([r["template"], r["context"], env], sort_keys=True)
                if key in seen:
                    continue
                seen.add(key)
                case = {"id": cid, "source": {"test": "tests/%s: %s" % (name, r["test"])},
                        "template": r["template"], "context": r["context"], "env": env}
                used = {k: v for k, v in loader.items() if k in r["template"]}
                if used:
                    for _ in range(3):  # what those include, in turn
                        used.update({k: v for k, v in loader.items() if any(k in s for s in used.values())})
                    case["loader"] = used
                cases.append(case)
    source = {"repo": "mozilla/nunjucks", "commit": commit, "path": "tests/*.js", "licence": "BSD-2-Clause"}
    doc = {"jinja2": "", "source": source, "skipped": skipped, "cases": cases}
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_cases("nunjucks.json", doc)


if __name__ == "__main__":
    main()
