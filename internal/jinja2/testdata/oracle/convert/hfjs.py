#!/usr/bin/env python3
"""Convert huggingface.js packages/jinja/test/templates.test.js (and the
templates of the package's other tests) to oracle cases.

    python3 convert/hfjs.py GIT_DIR [COMMIT]   # GIT_DIR: a clone of huggingface/huggingface.js

Reads TEST_STRINGS and TEST_CONTEXT by evaluating the test file's object
literals with node (imports and the describe blocks cut off), and the
templates of its "Error checking" block. The suite's EXPECTED_OUTPUTS are
not used: Python's Jinja2 decides (oracle.py). The environment is the one
huggingface.js means to match: Environment(extensions=[loopcontrols]).
A context function becomes {"__func__": name} (oracle.py's FUNCS).

Also read: interpreter.test.js's TESTS (template, data, and its
trim_blocks and lstrip_blocks options), and format.test.js's
FORMATTING_TESTS (each template and its formatted text, with an empty
context); both evaluated with node as above.
"""
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = "packages/jinja/test/templates.test.js"

JS = r'''
const src = require("fs").readFileSync(0, "utf8");
let body = src.slice(0, src.indexOf('describe("Templates"')).replace(/^import .*$/mg, "");
const m = new Function(body + "; return {TEST_STRINGS, TEST_CONTEXT};")();
const FUNCS = {
  "(x, y) => x + y": "add",
  "(...args) => args.length": "count_args",
  '(...args) => args.join("")': "join_args",
  '(...args) => args.join("_")': "join_args_underscore",
  "() => {}": "noop",
};
const replacer = (k, v) => {
  if (typeof v === "function") {
    const name = FUNCS[v.toString()];
    if (!name) throw new Error("unknown function " + v.toString());
    return {"__func__": name};
  }
  if (typeof v === "number" && !isFinite(v)) return {"__float__": String(v)};
  return v;
};
process.stdout.write(JSON.stringify({strings: m.TEST_STRINGS, contexts: m.TEST_CONTEXT}, replacer));
'''

OTHER_JS = r'''
const src = JSON.parse(require("fs").readFileSync(0, "utf8"));
const it = src["interpreter.test.js"];
const body = it.slice(it.indexOf("const EXAMPLE_"), it.indexOf("for (const test of TESTS)"));
const fm = src["format.test.js"];
const fbody = fm.slice(fm.indexOf("const FORMATTING_TESTS"), fm.indexOf('describe("format"'));
process.stdout.write(JSON.stringify({interpreter: new Function(body + "; return TESTS;")(),
                                     format: new Function(fbody + "; return FORMATTING_TESTS;")()}));
'''

ERRORS_RE = re.compile(r'it\("([^"]+)", \(\) => \{\s*(?:const env.*?\n)?(.*?)\n\t\t\}\);', re.S)


def js_string(s):
    """The value of a JS string literal ("..." or `...` without ${})."""
    return subprocess.run(["node", "-e", "process.stdout.write(JSON.stringify(" + s + "))"],
                          check=True, capture_output=True, text=True).stdout


def main():
    git_dir = sys.argv[1]
    commit = sys.argv[2] if len(sys.argv) > 2 else "HEAD"
    commit = subprocess.run(["git", "--git-dir", git_dir, "rev-parse", commit], check=True, capture_output=True, text=True).stdout.strip()
    src = subprocess.run(["git", "--git-dir", git_dir, "show", commit + ":" + PATH], check=True, capture_output=True, text=True).stdout
    data = json.loads(subprocess.run(["node", "-e", JS], input=src, check=True, capture_output=True, text=True).stdout)
    source = {"repo": "huggingface/huggingface.js", "commit": commit, "path": PATH, "licence": "MIT"}
    env = {"extensions": ["loopcontrols"]}
    cases = []
    for name, tpl in data["strings"].items():
        case = {"id": "hfjs/" + name, "source": {"test": name}, "template": tpl, "context": data["contexts"].get(name, {}), "env": env}
        cases.append(case)
    # The "Error checking" block: templates the suite expects to fail.
    err = src[src.index('describe("Error checking"'):]
    for m in re.finditer(r'it\("([^"]+)", \(\) => \{(.*?)\n\t\t\}\);', err, re.S):
        name, body = m.group(1), m.group(2)
        t = re.search(r'(?:const text = |tokenize\()((?:"(?:[^"\\]|\\.)*")|(?:`[^`]*`))', body)
        if not t:
            continue
        ctx = {}
        for k, v in re.findall(r'env\.set\("(\w+)", ([^)]+)\)', body):
            ctx[k] = json.loads(v)
        cases.append({"id": "hfjs/error/" + name, "source": {"test": "Error checking: " + name},
                      "template": json.loads(js_string(t.group(1))), "context": ctx, "env": env})
    other = json.loads(subprocess.run(["node", "-e", OTHER_JS], input=json.dumps({
        p: subprocess.run(["git", "--git-dir", git_dir, "show", commit + ":packages/jinja/test/" + p], check=True,
                          capture_output=True, text=True).stdout for p in ("interpreter.test.js", "format.test.js")}),
        check=True, capture_output=True, text=True).stdout)
    for i, t in enumerate(other["interpreter"]):
        e = dict(env, **{k: v for k, v in t["options"].items() if k in ("trim_blocks", "lstrip_blocks")})
        cases.append({"id": "hfjs/interpreter/%02d" % i, "source": {"path": "packages/jinja/test/interpreter.test.js",
                                                                   "test": "whitespace control #%d" % i},
                      "template": t["template"], "context": t["data"], "env": e})
    for name, t in other["format"].items():
        for what in ("template", "formatted"):
            cases.append({"id": "hfjs/format/%s/%s" % (name, what), "source": {"path": "packages/jinja/test/format.test.js",
                                                                              "test": name + " " + what},
                          "template": t[what], "context": {}, "env": env})
    source["path"] += ", interpreter.test.js, format.test.js"
    doc = {"jinja2": "", "source": source, "cases": cases}
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_cases("hfjs.json", doc)


if __name__ == "__main__":
    main()
