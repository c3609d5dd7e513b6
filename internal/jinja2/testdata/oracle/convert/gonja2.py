#!/usr/bin/env python3
"""Convert the tests of gonja v2 (nikolalohinski/gonja, the maintained fork
of noirbizarre/gonja) to oracle cases.

    python3 convert/gonja2.py GIT_DIR [COMMIT]   # -> cases/gonja2.json (needs go)

The fork moved noirbizarre's testData to tests/legacy/testcases and turned
the rest of its tests into Ginkgo specs whose templates are Go string
literals. Taken from it:

  - each tests/legacy/testcases/**/*.tpl (".disabled.tpl" too: Jinja2, not
    gonja, decides them), rendered by name as legacy_test.go renders it:
    over Fixtures (tests/legacy/fixtures_test.go, the same values as
    noirbizarre's testutils/fixtures.go, so convert/gonja.py's FIXTURES),
    with keep_trailing_newline on, autoescape off (gonja v2's default
    config) and the template's directory as the loader; and, as in
    convert/gonja.py, each line of a longer template holding "{{" and no
    "{%" on its own;
  - every Go string literal (or "+" of them; convert/sweep9.py's Go
    reader) of the _test.go files of tests/integration, exec, parser and
    loaders that holds "{{" or "{%", with an empty context: the specs set
    their contexts in Go code, so a name they give a value is undefined
    here and Jinja2 decides what that prints. A text is kept once.

Templates with random output (lipsum, the random filter) are left out
("skipped").

Python's Jinja2 decides every expectation (oracle.py); gonja's own
expected outputs are not read.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import suite  # noqa: E402
from gonja import FIXTURES, referenced  # noqa: E402

LEGACY = "tests/legacy/testcases/"
GO_DIRS = ("tests/integration/", "exec/", "parser/", "loaders/")


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir] + list(args), check=True, capture_output=True).stdout


def main():
    git_dir = sys.argv[1]
    commit = git(git_dir, "rev-parse", sys.argv[2] if len(sys.argv) > 2 else "HEAD").decode().strip()
    files = git(git_dir, "ls-tree", "-r", "--name-only", commit).decode().split("\n")
    cases, seen = [], set()
    env = {"keep_trailing_newline": True}
    for path in sorted(f for f in files if f.startswith(LEGACY) and f.endswith(".tpl")):
        root = os.path.dirname(path)
        loader = {}
        for f in files:
            if f.startswith(root + "/") and not f.endswith(".out"):
                loader[f[len(root) + 1:]] = git(git_dir, "show", commit + ":" + f).decode("utf-8")
        name = os.path.basename(path)
        cid = "gonja2/legacy/" + path[len(LEGACY):-len(".tpl")]
        cases.append({"id": cid, "source": {"test": path}, "name": name, "context_ref": "fixtures", "context": {},
                      "env": env, "loader": referenced(loader, name)})
        lines = loader[name].split("\n")
        if len(lines) > 2:
            for i, line in enumerate(lines, 1):
                if "{{" in line and "{%" not in line and line not in seen:
                    seen.add(line)
                    cases.append({"id": "%s:%d" % (cid, i), "source": {"test": "%s, line %d" % (path, i)},
                                  "template": line, "context_ref": "fixtures", "context": {}, "env": env})
    import sweep9
    tools = sweep9.Tools(os.path.join(tempfile.gettempdir(), "sweep9-cache"))
    for path in sorted(f for f in files if f.startswith(GO_DIRS) and f.endswith("_test.go")):
        for line, text in tools.go_strings(git(git_dir, "show", commit + ":" + path)):
            if ("{{" in text or "{%" in text) and text not in seen:
                seen.add(text)
                cases.append({"id": "gonja2/%s:%d" % (path[:-len(".go")], line),
                              "source": {"test": "%s, line %d" % (path, line)}, "template": text, "context": {}, "env": {}})
    skipped = {}
    kept = []
    for c in cases:
        text = c.get("template") or "".join(c["loader"].values())
        if "lipsum(" in text or re.search(r"\|\s*random\b", text):
            skipped[c["source"]["test"]] = "random output"
        else:
            kept.append(c)
    cases = kept
    source = {"repo": "nikolalohinski/gonja", "commit": commit, "path": "tests/legacy/testcases, " + ", ".join(
        d + "*_test.go" for d in GO_DIRS), "licence": "MIT"}
    suite.write_cases("gonja2.json", source, cases, second=2, skipped=skipped, contexts={"fixtures": FIXTURES})


if __name__ == "__main__":
    main()
