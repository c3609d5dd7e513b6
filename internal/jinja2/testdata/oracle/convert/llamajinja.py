#!/usr/bin/env python3
"""Convert llama.cpp's tests of its own Jinja engine (tests/test-jinja.cpp)
to oracle cases.

    python3 convert/llamajinja.py GIT_DIR...   # -> cases/llamajinja.json, each at its HEAD
                                              # (needs g++ and nlohmann-json3-dev)

Every test_template(t, name, template, vars, expect) call of the test
functions that render through test_template (whitespace control through
object methods; not the hasher, stats, caps, string parts nor the random
fuzzing) is recorded by compiling those functions on their own with
stand-ins for llama.cpp's testing harness: test_template writes the
template and its vars (nlohmann::ordered_json, so in the test's key order)
instead of rendering. The first GIT_DIR is the newest tree; a case of a
later (older) one that the newer lacks is kept too, so a case upstream
dropped stays.

Each template is a case twice: in the "hf" profile (transformers'
environment, which the test's Python mode copies) and in a plain
Environment with trim_blocks, lstrip_blocks and loopcontrols (the test's
Python mode uses a mutable SandboxedEnvironment, so that append and pop
work: the immutable hf profile refuses them). The test's expected strings
are llama.cpp's and are not read: Python's Jinja2 decides every
expectation (oracle.py).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import suite

HARNESS = r'''
#include <functional>
#include <iostream>
#include <string>
#include <nlohmann/json.hpp>
using json = nlohmann::ordered_json;
struct testing {
    std::string group;
    void test(const std::string & name, const std::function<void(testing &)> & fn) { fn(*this); }
    bool assert_true(const std::string &, bool b) { return b; }
    void log(const std::string &) {}
    void skip(const std::string &) {}
};
static json out = json::array();
static std::string current;
static void test_template(testing &, const std::string & name, const std::string & tmpl, const json & vars, const std::string & expect) {
    out.push_back({{"group", current}, {"name", name}, {"template", tmpl}, {"vars", vars}});
}
%s
int main() {
%s
    std::cout << out.dump();
}
'''


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir] + list(args), check=True, capture_output=True).stdout


def record(src):
    """The test_template calls of src's test functions, in order."""
    bodies, calls = [], []
    for m in re.finditer(r"^static void (test_\w+)\(testing & t\) \{\n(.*?)^\}\n", src, re.S | re.M):
        if "test_template(t" not in m.group(2) or "jinja::" in m.group(2) or "std::mt19937" in m.group(2):
            continue
        bodies.append(m.group(0))
        calls.append('    current = "%s"; %s(t0);' % (m.group(1), m.group(1)))
    with tempfile.TemporaryDirectory() as tmp:
        cpp = os.path.join(tmp, "t.cpp")
        with open(cpp, "w", encoding="utf-8") as f:
            f.write(HARNESS % ("\n".join(bodies), "    testing t0;\n" + "\n".join(calls)))
        exe = os.path.join(tmp, "t")
        subprocess.run(["g++", "-std=c++17", "-O0", "-w", cpp, "-o", exe], check=True)
        return json.loads(subprocess.run([exe], check=True, capture_output=True).stdout)


ENVS = [("hf", {"profile": "hf"}), ("plain", {"trim_blocks": True, "lstrip_blocks": True, "extensions": ["loopcontrols"]})]


def main():
    cases, seen, sources = [], set(), []
    for arg in sys.argv[1:]:
        git_dir = arg
        commit = git(git_dir, "rev-parse", "HEAD").decode().strip()
        sources.append(commit)
        for rec in record(git(git_dir, "show", commit + ":tests/test-jinja.cpp").decode("utf-8")):
            key = json.dumps([rec["template"], rec["vars"]])
            if key in seen:
                continue
            seen.add(key)
            for env_name, env in ENVS:
                cases.append({"id": "llamajinja/%s/%s [%s]" % (rec["group"][len("test_"):], rec["name"], env_name),
                              "source": {"path": "tests/test-jinja.cpp", "test": rec["name"], "commit": commit},
                              "template": rec["template"], "context": rec["vars"] or {}, "env": env})
    source = {"repo": "ggml-org/llama.cpp", "commit": sources[0], "also": sources[1:], "path": "tests/test-jinja.cpp",
              "licence": "MIT"}
    suite.write_cases("llamajinja.json", source, cases, second=2)


if __name__ == "__main__":
    main()
