#!/usr/bin/env python3
"""Convert jinjava's template tests to oracle cases.

    python3 convert/jinjava.py GIT_DIR [COMMIT]   # GIT_DIR: a clone of HubSpot/jinjava

jinjava is a Java implementation of Jinja. Its tests render the
templates of src/test/resources and templates written in the Java test
sources, over contexts the Java code builds. This converter takes, with
an empty context (the Java contexts are code, not data):

- every file of src/test/resources holding "{{" or "{%", except the
  expected outputs of its eager-execution tests (*.expected.jinja), with
  the other resource files it names (by path or by name) as the loader;
- every Java string literal ("…" with its escapes, and text blocks)
  holding "{{" or "{%" in src/test/java.

jinjava's expectations are not used: Python's Jinja2 decides (oracle.py),
so where jinjava's dialect is not Jinja2 the case expects the error
Jinja2 raises. The environment is Jinja2's default with loopcontrols
and do (jinjava has both). SKIP below names what is left out.
"""
import posixpath
import re
import sys

import suite

RES = "src/test/resources/"
# Left out: what Jinja2 cannot render in bounded time and memory.
SKIP = {"filter/slice-filter-big.jinja": "slice(999999999) of an empty list: Jinja2 prints a billion columns (gigabytes)"}


ESC = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "s": " ", "0": "\0", "\\": "\\", "'": "'", '"': '"'}


def java_strings(src):
    """(line, value) of the string literals of Java source: "…" and text
    blocks, adjacent literals joined by + kept apart."""
    out, i, n = [], 0, len(src)
    while (i := suite.past_comments(src, i)) < n:
        c = src[i]
        if c == "'":
            j = i + 1
            while j < n and src[j] != "'":
                j += 2 if src[j] == "\\" else 1
            i = j + 1
            continue
        if src.startswith('"""', i):
            end = src.find('"""', i + 3)
            while end > 0 and src[end - 1] == "\\":
                end = src.find('"""', end + 1)
            body = src[src.index("\n", i) + 1:end]
            lines = body.split("\n")
            indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
            last = lines[-1]
            if not last.strip():  # the closing delimiter's line counts for the indentation
                indent = min(indent, len(last))
            text = "\n".join(line[indent:].rstrip(" \t") for line in lines)
            text = re.sub(r"\\(.)", lambda m: ESC.get(m.group(1), m.group(1)), text.replace("\\\n", ""))
            out.append((src.count("\n", 0, i) + 1, text))
            i = end + 3
            continue
        if c == '"':
            j, buf = i + 1, []
            while j < n and src[j] != '"':
                if src[j] == "\\":
                    ch, j = suite.backslash(src, j, ESC)
                    buf.append(ch)
                    continue
                buf.append(src[j])
                j += 1
            # a pair of \u escapes may be one UTF-16 surrogate pair
            text = "".join(buf).encode("utf-16", "surrogatepass").decode("utf-16", "replace")
            out.append((src.count("\n", 0, i) + 1, text))
            i = j + 1
            continue
        i += 1
    return out


def loader_for(name, text, files):
    """The resource files text names, and those they name, in turn: each
    under the name it is written with (relative names resolved against
    name's directory, as jinjava's resource locator does)."""
    out, todo = {}, [(name, text)]
    while todo:
        base, body = todo.pop()
        for ref in re.findall(r"""['"]([^'"\s]+\.(?:jinja|html|txt|xml|fixture))['"]""", body):
            if ref in out:
                continue
            for cand in (posixpath.normpath(posixpath.join(posixpath.dirname(base), ref)), ref.lstrip("/")):
                if cand in files:
                    out[ref] = files[cand]
                    todo.append((cand, files[cand]))
                    break
    return out


def main():
    git_dir, commit = suite.commit_of(sys.argv)
    paths = suite.git(git_dir, "ls-tree", "-r", "--name-only", commit, RES, "src/test/java/").split("\n")
    files = {}
    for p in paths:
        if p.startswith(RES):
            try:
                files[p[len(RES):]] = suite.git(git_dir, "show", commit + ":" + p)
            except UnicodeDecodeError:
                pass
    env = {"extensions": ["loopcontrols", "do"]}
    cases, seen = [], set()
    for name in sorted(files):
        text = files[name]
        if name in SKIP:
            continue
        if ".expected." in name or not suite.is_template(text, seen):
            continue
        case = {"id": "jinjava/resources/" + name, "source": {"test": RES + name}, "template": text, "context": {}, "env": env}
        loader = loader_for(name, text, files)
        if loader:
            case["loader"] = loader
        cases.append(case)
    for p in sorted(p for p in paths if p.endswith(".java")):
        src = suite.git(git_dir, "show", commit + ":" + p)
        for line, text in java_strings(src):
            if not suite.is_template(text, seen):
                continue
            cases.append({"id": "jinjava/%s:%d" % (p.rsplit("/", 1)[1][:-5], line), "source": {"test": "%s, line %d" % (p, line)},
                          "template": text, "context": {}, "env": env})
    source = {"repo": "HubSpot/jinjava", "commit": commit, "path": "src/test/resources, src/test/java", "licence": "Apache-2.0"}
    suite.write_cases("jinjava.json", source, cases)


if __name__ == "__main__":
    main()
