#!/usr/bin/env python3
"""Convert gonja's template tests to oracle cases.

    python3 convert/gonja.py GIT_DIR [COMMIT]   # GIT_DIR: a clone of noirbizarre/gonja

gonja's integration tests render each testData/**/*.tpl (their .out is
gonja's expectation, not used here) over testutils/fixtures.go's
Fixtures with autoescape and keep_trailing_newline on and the test
directory as the loader. Each such template is a case, rendered by name
through a loader holding every file of its directory tree; and, since
one error ends a whole file, each line of it that holds a "{{" and no
"{%" is a case of its own too. Each line of testData/errors/*/*.err (one
template a line) is a case. Templates calling lipsum (random text) are
left out. The Django-syntax tests of ext/django are
left out.

Fixtures is written out below as JSON: Go structs are dicts of their
exported fields; time values, methods and functions are left out except
func_add (oracle.py's "add"); intmap is a dict with int keys. Python's
Jinja2 decides every expectation (oracle.py).
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir] + list(args), check=True, capture_output=True, text=True).stdout


def user(name, validated):
    return {"Name": name, "Validated": validated}


def comment(author, text):
    return {"Author": author, "Text": text}


FIXTURES = {
    "number": 11,
    "simple": {
        "number": 42,
        "name": "john doe",
        "included_file": "INCLUDES.helper",
        "included_file_not_exists": "INCLUDES.helper.not_exists",
        "nil": None,
        "uint": 8,
        "float": 3.1415,
        "str": "string",
        "chinese_hello_world": "你好世界",
        "bool_true": True,
        "bool_false": False,
        "newline_text": "this is a text\nwith a new line in it",
        "long_text": "This is a simple text.\n\nThis too, as a paragraph.\nRight?\n\nYep!",
        "escape_js_test": "escape sequences \\r\\n\\'\\\" special chars \"?!=$<>",
        "one_item_list": [99],
        "multiple_item_list": [1, 1, 2, 3, 5, 8, 13, 21, 34, 55],
        "unsorted_int_list": [192, 581, 22, 1, 249, 9999, 1828591, 8271],
        "fixed_item_list": [1, 2, 3, 4],
        "misc_list": ["Hello", 99, 3.14, "good"],
        "escape_text": "This is \\a Test. \"Yep\". 'Yep'.",
        "xss": "<script>alert(\"uh oh\");</script>",
        "intmap": {"__dict__": [[1, "one"], [5, "five"], [2, "two"]]},
        "strmap": {"abc": "def", "bcd": "efg", "zab": "cde", "gh": "kqm", "ukq": "qqa", "aab": "aba"},
        "casedStrmap": {"a": "a", "B": "B", "c": "c", "D": "D", "e": "e", "F": "F"},
        "func_add": {"__func__": "add"},
    },
    "complex": {
        "user": user("john doe", True),
        "post": {"Text": "<h2>Hello!</h2><p>Welcome to my new blog page. I'm using gonja which supports {{ variables }} and {% tags %}.</p>"},
        "comments": [comment(user("user1", True), "\"gonja is nice!\""),
                     comment(user("user2", True), "comment2 with <script>unsafe</script> tags in it"),
                     comment(user("user3", False), "<b>hello!</b> there")],
        "comments2": [comment(user("user1", True), "\"gonja is nice!\""),
                      comment(user("user1", True), "comment2 with <script>unsafe</script> tags in it"),
                      comment(user("user3", False), "<b>hello!</b> there")],
    },
    "persons": [{"FirstName": f, "LastName": l, "Gender": g} for f, l, g in
                [("John", "Doe", "male"), ("Jane", "Doe", "female"), ("Akira", "Toriyama", "male"),
                 ("Selina", "Kyle", "female"), ("Axel", "Haustant", "male")]],
    "groupable": [{"grouper": "group %d" % g, "value": "value %d-%d" % (g, v)} for v in (1, 2, 3) for g in (1, 2, 3)],
}

# The integration tests' roots (integration_test.go); the first adds a global.
ROOTS = [("testData", {"this_is_a_global_variable": "this is a global text"}), ("testData/expressions", {}),
         ("testData/filters", {}), ("testData/functions", {}), ("testData/tests", {}), ("testData/statements", {})]


def referenced(loader, name):
    """The files of loader that name's source names, and those they name, in turn."""
    out, todo = {}, [name]
    while todo:
        n = todo.pop()
        if n in out:
            continue
        out[n] = loader[n]
        todo.extend(k for k in loader if k not in out and (k in out[n] or os.path.basename(k) in out[n]))
    return out


def main():
    git_dir = sys.argv[1]
    commit = git(git_dir, "rev-parse", sys.argv[2] if len(sys.argv) > 2 else "HEAD").strip()
    files = git(git_dir, "ls-tree", "-r", "--name-only", commit, "testData/").split()
    cases, skipped = [], {}
    env = {"autoescape": True, "keep_trailing_newline": True}
    for root, globs in ROOTS:
        loader = {}
        for f in files:
            if f.endswith((".out", ".err")):
                continue
            if f.startswith(root + "/"):
                loader[f[len(root) + 1:]] = git(git_dir, "show", commit + ":" + f)
            elif root != "testData":  # gonja's loader resolves "../inheritance/base.tpl"
                loader[os.path.relpath(f, root)] = git(git_dir, "show", commit + ":" + f)
        e = dict(env, globals=globs) if globs else env
        for name in sorted(loader):
            if "/" in name or not name.endswith(".tpl"):
                continue
            if "lipsum(" in loader[name]:
                skipped[root + "/" + name] = "lipsum is random"
                continue
            stem = root.replace("testData", "").strip("/")
            cid = "gonja/%s%s" % (stem + "/" if stem else "", name[:-4])
            cases.append({"id": cid, "source": {"test": root + "/" + name}, "name": name,
                          "context_ref": "fixtures", "context": {}, "env": e, "loader": referenced(loader, name)})
            lines = loader[name].split("\n")
            if len(lines) > 2:
                for i, line in enumerate(lines, 1):
                    if "{{" in line and "{%" not in line:
                        cases.append({"id": "%s:%d" % (cid, i), "source": {"test": "%s/%s, line %d" % (root, name, i)},
                                      "template": line, "context_ref": "fixtures", "context": {}, "env": e})
    for f in files:
        if f.startswith("testData/errors/") and f.endswith(".err"):
            for i, line in enumerate(git(git_dir, "show", commit + ":" + f).split("\n"), 1):
                if line.strip():
                    cases.append({"id": "gonja/%s:%d" % (f[len("testData/"):-4], i), "source": {"test": "%s, line %d" % (f, i)},
                                  "template": line, "context_ref": "fixtures", "context": {}, "env": env})
    source = {"repo": "noirbizarre/gonja", "commit": commit, "path": "testData", "licence": "MIT"}
    doc = {"jinja2": "", "source": source, "skipped": skipped, "contexts": {"fixtures": FIXTURES}, "cases": cases}
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_cases("gonja.json", doc)


if __name__ == "__main__":
    main()
