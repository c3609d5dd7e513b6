#!/usr/bin/env python3
"""Convert Jinja2's own test suite (pallets/jinja tests/) to oracle cases.

    PYTHONPATH=<dir with pytest> python3 convert/pallets.py GIT_DIR [TAG [REF...]]

GIT_DIR is a clone of pallets/jinja; TAG defaults to the installed Jinja2's
version. Each REF (main's newest commit, say) is read after TAG: its tests run
against the installed Jinja2 too, and add the cases TAG's tests lack (a test
of a newer Jinja2 that the installed one fails is not reproduced from its case,
so it is skipped like any other). The suite's tests of filters, tests, core
tags, lexer/parser, imports, inheritance, regressions, the sandbox, the API,
the runtime, the extensions and the traceback rewriting run under pytest with
convert/pallets_harness.py, which records every template rendered with
Template.render (and every one that fails to compile): its source or name,
the context, the environment's settings and the loader's templates. A
recording becomes a case when it is a template and a JSON-representable
context in an environment the case format can state, and when oracle.py,
rendering the case afresh, gives what the test saw (same output, or the
same exception class). Every other recording is skipped and counted by
reason in the file's "skipped". Templates used only through .module,
.generate, .stream or macros are counted there too.
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

import jinja2

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = ["test_filters.py", "test_tests.py", "test_core_tags.py", "test_lexnparse.py", "test_imports.py",
         "test_inheritance.py", "test_regression.py", "test_security.py",
         "test_api.py", "test_runtime.py", "test_ext.py", "test_debug.py", "test_utils.py",
         "test_async.py", "test_async_filters.py"]


def record(git_dir, commit):
    """Runs the suite's FILES at commit under the harness; its recordings."""
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run("git --git-dir '%s' archive %s tests | tar -x -C '%s'" % (git_dir, commit, tmp), shell=True, check=True)
        rec_path = os.path.join(tmp, "records.jsonl")
        env = dict(os.environ, ORACLE_HARNESS_OUT=rec_path,
                   PYTHONPATH=os.pathsep.join([HERE, os.path.join(HERE, ".."), os.environ.get("PYTHONPATH", "")]))
        files = [f for f in FILES if os.path.exists(os.path.join(tmp, "tests", f))]
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "pallets_harness"]
                           + ["tests/" + f for f in files], cwd=tmp, env=env, capture_output=True, text=True)
        print(commit[:12], r.stdout.strip().splitlines()[-1])
        with open(rec_path, encoding="utf-8") as f:
            return [json.loads(line) for line in f]


def main():
    git_dir = sys.argv[1]
    tag = sys.argv[2] if len(sys.argv) > 2 else jinja2.__version__
    refs = [tag] + sys.argv[3:]
    commits = [subprocess.run(["git", "--git-dir", git_dir, "rev-parse", ref + "^{commit}"], check=True, capture_output=True,
                              text=True).stdout.strip() for ref in refs]
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    skipped = collections.Counter()
    cases, seen = [], {}
    per_test = collections.Counter()
    for n, commit in enumerate(commits):
        created, rendered = set(), set()
        for rec in record(git_dir, commit):
            if rec["event"] == "created":
                created.add(rec["id"])
                continue
            if rec["event"] == "render":
                rendered.add(rec["id"])
            reason = None
            if isinstance(rec["env"], str):
                reason = rec["env"]
            elif isinstance(rec.get("loader"), str):
                reason = rec["loader"]
            elif rec["event"] == "render" and rec["context"] is None:
                reason = rec.get("context_skip", "context is not a mapping")
            if reason:
                skipped[re.sub(r"\d+", "N", reason)] += 1
                continue
            spec = dict(rec["env"])
            sandbox_class = spec.pop("_sandbox_class", None)
            is_async = spec.pop("_async", None)
            case = {"source": {"test": rec["test"]}, "env": spec}
            if is_async:
                case["source"]["async"] = "the test used enable_async; the case renders synchronously"
            if n:
                case["source"]["commit"] = commit
            if sandbox_class:
                case["source"]["note"] = "the test used SandboxedEnvironment; the case runs in ImmutableSandboxedEnvironment"
            if "name" in rec:
                case["name"] = rec["name"]
            else:
                case["template"] = rec["template"]
            case["context"] = rec.get("context") or {}
            if rec.get("loader"):
                case["loader"] = rec["loader"]
            key = json.dumps([case.get("template"), case.get("name"), case["context"], spec, case.get("loader")], sort_keys=True)
            if key in seen:
                skipped["duplicate of an earlier case"] += 1
                continue
            got = oracle.render(case)
            want = rec["outcome"]
            if any(oracle.render(case) != got for _ in range(8)):
                skipped["random output"] += 1
                continue
            if ("output" in want) != ("output" in got) or want.get("output") != got.get("output") or want.get("error") != got.get("error"):
                skipped["not reproduced from the case (%s)" % ("the test's SandboxedEnvironment" if sandbox_class else "state the case does not hold")] += 1
                continue
            seen[key] = True
            test = rec["test"]
            per_test[test] += 1
            case = {"id": "pallets/%s#%d" % (test.replace("tests/", ""), per_test[test]), **case}
            cases.append(case)
        unrendered = len(created - rendered)
        if unrendered:
            skipped["template used through module, generate, stream or macros, not render"] += unrendered
    source = {"repo": "pallets/jinja", "commit": commits[0], "tag": tag, "path": "tests/" + ",".join(FILES), "licence": "BSD-3-Clause"}
    if len(refs) > 1:
        source["also"] = [{"ref": r, "commit": c} for r, c in zip(refs[1:], commits[1:])]
    doc = {"jinja2": "", "source": source, "skipped": dict(sorted(skipped.items(), key=lambda kv: -kv[1])), "cases": cases}
    oracle.write_cases("pallets.json", doc)
    print("skipped:", sum(skipped.values()), dict(skipped))


if __name__ == "__main__":
    main()
