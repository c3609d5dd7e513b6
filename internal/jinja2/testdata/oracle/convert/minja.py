#!/usr/bin/env python3
"""Convert minja's tests/test-syntax.cpp to oracle cases.

    python3 convert/minja.py GIT_DIR [COMMIT [REPO]]   # GIT_DIR: a clone of google/minja
                                                      # (or of REPO, a fork: ochafik/minja)

Compiles the test file against the stand-in headers of convert/minja_stub
(needs g++ and nlohmann-json3-dev): every render(template, bindings,
options) it makes is recorded instead of rendered, including those the
suite only runs without USE_JINJA2 and those it expects to throw. The
suite's expectations are not used: Python's Jinja2 decides (oracle.py).
The environment is minja's scripts/render.py's: Environment(**options,
extensions=[loopcontrols]).

A case the current minja.json holds keeps its id (the same template,
bindings and options); a new one is numbered after the last.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PATH = "tests/test-syntax.cpp"


def main():
    git_dir = sys.argv[1]
    commit = sys.argv[2] if len(sys.argv) > 2 else "HEAD"
    commit = subprocess.run(["git", "--git-dir", git_dir, "rev-parse", commit], check=True, capture_output=True, text=True).stdout.strip()
    src = subprocess.run(["git", "--git-dir", git_dir, "show", commit + ":" + PATH], check=True, capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        cpp = os.path.join(tmp, "t.cpp")
        with open(cpp, "w") as f:
            f.write(src + "\nint main() { test_SyntaxTest_SimpleCases(); return 0; }\n")
        exe = os.path.join(tmp, "t")
        subprocess.run(["g++", "-std=c++17", "-w", "-I", os.path.join(HERE, "minja_stub"), cpp, "-o", exe], check=True)
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    repo = sys.argv[3] if len(sys.argv) > 3 else "google/minja"
    source = {"repo": repo, "commit": commit, "path": PATH, "licence": "MIT"}
    key = lambda c: json.dumps([c["template"], c["context"], c["env"]], sort_keys=True)  # noqa: E731
    old = {}
    path = os.path.join(HERE, "..", "cases", "minja.json")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for c in json.load(f)["cases"]:
                old.setdefault(key(c), []).append(c["id"])
    next_id = max([int(i.rsplit("/", 1)[1]) for ids in old.values() for i in ids] + [-1]) + 1
    cases = []
    for line in out.splitlines():
        r = json.loads(line)
        env = {"extensions": ["loopcontrols"]}
        for k in ("trim_blocks", "lstrip_blocks", "keep_trailing_newline"):
            if r[k]:
                env[k] = True
        case = {"source": {"test": "SyntaxTest.SimpleCases, line %d" % r["line"]},
                "template": r["template"], "context": r["bindings"], "env": env}
        k = key(case)
        if old.get(k):
            cid = old[k].pop(0)
        else:
            cid = "minja/%03d" % next_id
            next_id += 1
        cases.append({"id": cid, **case})
    doc = {"jinja2": "", "source": source, "cases": cases}
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_cases("minja.json", doc)


if __name__ == "__main__":
    main()
