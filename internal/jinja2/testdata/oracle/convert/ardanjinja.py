#!/usr/bin/env python3
"""Convert the tests of ardanlabs/jinja (a Go implementation of Jinja for
chat templates) to oracle cases.

    python3 convert/ardanjinja.py [VERSION]   # -> cases/ardanjinja.json (needs go)

The module is fetched as its ordinary client fetches it (`go mod download
-json github.com/ardanlabs/jinja@VERSION`, "latest" by default; a version
that needs a newer Go than the machine's is read all the same: only its
files are read). Every Go string literal (or "+" of them;
convert/sweep9.py's Go reader) of its *_test.go files that holds "{{" or
"{%" is a case, with an empty context: the tests give their values in Go
code, so a name they set is undefined here and Jinja2 decides what that
prints. A text is kept once. cases/sweep9.json already holds the chat
templates of its testdata/templates.

Python's Jinja2 decides every expectation (oracle.py); the tests' own
expected strings are not read.
"""
import json
import os
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
MODULE = "github.com/ardanlabs/jinja"


def main():
    version = sys.argv[1] if len(sys.argv) > 1 else "latest"
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(["go", "mod", "download", "-json", MODULE + "@" + version], cwd=tmp, capture_output=True, text=True,
                           env=dict(os.environ, GOFLAGS="-mod=mod"))
    info = json.loads(r.stdout)
    if not info.get("Zip") or not os.path.exists(info["Zip"]):
        sys.exit(r.stdout + r.stderr)
    import sweep9
    tools = sweep9.Tools(os.path.join(tempfile.gettempdir(), "sweep9-cache"))
    prefix = "%s@%s/" % (MODULE, info["Version"])
    cases, seen = [], set()
    with zipfile.ZipFile(info["Zip"]) as z:
        for name in sorted(z.namelist()):
            path = name[len(prefix):]
            if not path.endswith("_test.go"):
                continue
            for line, text in tools.go_strings(z.read(name)):
                if ("{{" in text or "{%" in text) and text not in seen:
                    seen.add(text)
                    cases.append({"id": "ardanjinja/%s:%d" % (path[:-len(".go")], line),
                                  "source": {"test": "%s, line %d" % (path, line)}, "template": text, "context": {}, "env": {}})
    source = {"repo": "ardanlabs/jinja", "module": MODULE, "version": info["Version"], "path": "*_test.go", "licence": "Apache-2.0"}
    doc = {"jinja2": "", "source": source, "cases": cases}
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_cases("ardanjinja.json", doc)


if __name__ == "__main__":
    main()
