#!/usr/bin/env python3
"""Convert the tests of two more Jinja ports to oracle cases.

    python3 convert/moreports.py CRINJA_GIT SWIFT_JINJA_GIT   # -> cases/moreports.json

CRINJA_GIT: a clone of straight-shoota/crinja (Crystal): every file of
spec/ holding "{{" or "{%" (not the expected outputs: expected/,
*.rendered), rendered by its path under spec/ with the other spec files
as the loader (also under their names relative to the file's folder);
and every Crystal string literal "…" holding "{{" or "{%" in
spec/**/*.cr, with an empty context.
SWIFT_JINJA_GIT: a clone of johnmai-dev/Jinja (Swift): every Swift
string literal ("…" and multi-line) holding "{{" or "{%" in Tests/.
A literal with interpolation (Crystal #{…}, Swift \\(…)) is left out.
The environment is Jinja2's default with loopcontrols and do. The
ports' expectations are not used: Python's Jinja2 decides (oracle.py).
"""
import os
import posixpath
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ESC = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "e": "\x1b", "0": "\0", "\\": "\\", "'": "'", '"': '"', "#": "#"}


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir] + list(args), check=True, capture_output=True).stdout


def strings(src, swift):
    """(line, value or None when interpolated) of the "…" literals of
    Crystal or Swift source (and Swift's multi-line literals)."""
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith("//", i) and swift or src[i] == "#" and not swift and (i == 0 or src[i - 1] != "\\"):
            i = src.find("\n", i)
            i = n if i < 0 else i
            continue
        if src[i] == "'" and not swift:  # a Crystal char literal
            j = i + 1
            while j < n and src[j] != "'" and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            i = j + 1
            continue
        if src[i] != '"':
            i += 1
            continue
        line = src.count("\n", 0, i) + 1
        multi = swift and src.startswith('"""', i)
        q = '"""' if multi else '"'
        j, buf, interp = i + len(q), [], False
        while j < n and not src.startswith(q, j):
            c = src[j]
            if c == "\\":
                e = src[j + 1]
                if swift and e == "(":
                    interp = True
                if e == "u":
                    if src[j + 2] == "{":
                        end = src.index("}", j)
                        try:
                            buf.append(chr(int(src[j + 3:end], 16)))
                        except ValueError:
                            interp = True
                        j = end + 1
                    else:
                        buf.append(chr(int(src[j + 2:j + 6], 16)))
                        j += 6
                    continue
                if e == "\n":
                    j += 2
                    continue
                buf.append(ESC.get(e, e))
                j += 2
                continue
            if not swift and src.startswith("#{", j):
                interp = True
            buf.append(c)
            j += 1
        text = "".join(buf)
        if multi:
            lines = text.split("\n")[1:]
            last = lines.pop() if lines and not lines[-1].strip() else ""
            indent = len(last)
            text = "\n".join(l[indent:] for l in lines)
        out.append((line, None if interp else text))
        i = j + len(q)
    return out


def main():
    crinja, swift = sys.argv[1], sys.argv[2]
    env = {"extensions": ["loopcontrols", "do"]}
    cases, seen, sources = [], set(), []
    commit = git(crinja, "rev-parse", "HEAD").decode().strip()
    sources.append({"repo": "straight-shoota/crinja", "commit": commit, "licence": "Apache-2.0"})
    paths = git(crinja, "ls-tree", "-r", "--name-only", commit, "spec/").decode().split("\n")
    files = {}
    for p in paths:
        if p and not p.endswith((".cr", ".rendered")) and "/expected/" not in p:
            try:
                files[p[len("spec/"):]] = git(crinja, "show", commit + ":" + p).decode("utf-8")
            except UnicodeDecodeError:
                pass
    for name in sorted(files):
        text = files[name]
        if ("{{" not in text and "{%" not in text) or text in seen:
            continue
        seen.add(text)
        loader = dict(files)
        folder = posixpath.dirname(name)
        for k, v in files.items():  # names relative to the file's folder, as the specs' loaders use
            if folder and k.startswith(folder + "/"):
                loader.setdefault(k[len(folder) + 1:], v)
        loader = {k: v for k, v in loader.items() if k == name or posixpath.basename(k) in text or k in text}
        cases.append({"id": "moreports/crinja/" + name, "source": {"repo": "straight-shoota/crinja", "test": "spec/" + name},
                      "name": name, "context": {}, "env": env, "loader": loader})
    for p in sorted(p for p in paths if p.endswith(".cr")):
        for line, text in strings(git(crinja, "show", commit + ":" + p).decode("utf-8"), False):
            if text is None or ("{{" not in text and "{%" not in text) or text in seen:
                continue
            seen.add(text)
            cases.append({"id": "moreports/crinja/%s:%d" % (p[len("spec/"):-3], line),
                          "source": {"repo": "straight-shoota/crinja", "test": "%s, line %d" % (p, line)},
                          "template": text, "context": {}, "env": env})
    commit = git(swift, "rev-parse", "HEAD").decode().strip()
    sources.append({"repo": "johnmai-dev/Jinja", "commit": commit, "licence": "MIT"})
    for p in sorted(git(swift, "ls-tree", "-r", "--name-only", commit, "Tests/").decode().split("\n")):
        if not p.endswith(".swift"):
            continue
        for line, text in strings(git(swift, "show", commit + ":" + p).decode("utf-8"), True):
            if text is None or ("{{" not in text and "{%" not in text) or text in seen:
                continue
            seen.add(text)
            cases.append({"id": "moreports/swift-jinja/%s:%d" % (p[len("Tests/"):-6], line),
                          "source": {"repo": "johnmai-dev/Jinja", "test": "%s, line %d" % (p, line)},
                          "template": text, "context": {}, "env": env})
    ids = {}
    for c in cases:
        k = ids.get(c["id"], 0)
        ids[c["id"]] = k + 1
        if k:
            c["id"] += "#%d" % k
    doc = {"jinja2": "", "source": {"repos": sources, "path": "crinja spec/; Jinja (Swift) Tests/"}, "cases": cases}
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_cases("moreports.json", doc)


if __name__ == "__main__":
    main()
