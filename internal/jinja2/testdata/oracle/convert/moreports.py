#!/usr/bin/env python3
"""Convert the tests of two more Jinja ports to oracle cases.

    python3 convert/moreports.py CRINJA_GIT SWIFT_JINJA_GIT [HF_SWIFT_JINJA_GIT]   # -> cases/moreports.json

CRINJA_GIT: a clone of straight-shoota/crinja (Crystal): every file of
spec/ holding "{{" or "{%" (not the expected outputs: expected/,
*.rendered), rendered by its path under spec/ with the other spec files
as the loader (also under their names relative to the file's folder);
and every Crystal string literal "…" holding "{{" or "{%" in
spec/**/*.cr, with an empty context.
SWIFT_JINJA_GIT: a clone of johnmai-dev/Jinja (Swift): every Swift
string literal ("…" and multi-line) holding "{{" or "{%" in Tests/.
HF_SWIFT_JINJA_GIT: a clone of huggingface/swift-jinja, where that port
moved (its history continues johnmai-dev/Jinja's, with the tests rewritten
under Tests/JinjaTests): its literals too, those not read already.
A literal with interpolation (Crystal #{…}, Swift \\(…)) is left out.
The environment is Jinja2's default with loopcontrols and do. The
ports' expectations are not used: Python's Jinja2 decides (oracle.py).
"""
import posixpath
import sys

import suite

ESC = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "e": "\x1b", "0": "\0", "\\": "\\", "'": "'", '"': '"', "#": "#"}


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
                if e == "\n":
                    j += 2
                    continue
                c, j = suite.backslash(src, j, ESC)
                if c is None:  # \u{…} holding no number: an interpolation
                    interp = True
                else:
                    buf.append(c)
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
    commit = suite.git(crinja, "rev-parse", "HEAD").strip()
    sources.append({"repo": "straight-shoota/crinja", "commit": commit, "licence": "Apache-2.0"})
    paths = suite.git(crinja, "ls-tree", "-r", "--name-only", commit, "spec/").split("\n")
    files = {}
    for p in paths:
        if p and not p.endswith((".cr", ".rendered")) and "/expected/" not in p:
            try:
                files[p[len("spec/"):]] = suite.git(crinja, "show", commit + ":" + p)
            except UnicodeDecodeError:
                pass
    for name in sorted(files):
        text = files[name]
        if not suite.is_template(text, seen):
            continue
        loader = dict(files)
        folder = posixpath.dirname(name)
        for k, v in files.items():  # names relative to the file's folder, as the specs' loaders use
            if folder and k.startswith(folder + "/"):
                loader.setdefault(k[len(folder) + 1:], v)
        loader = {k: v for k, v in loader.items() if k == name or posixpath.basename(k) in text or k in text}
        cases.append({"id": "moreports/crinja/" + name, "source": {"repo": "straight-shoota/crinja", "test": "spec/" + name},
                      "name": name, "context": {}, "env": env, "loader": loader})

    def literals(git_dir, commit, paths, swift, repo, kind, folder, ext):
        for p in sorted(p for p in paths if p.endswith(ext)):
            for line, text in strings(suite.git(git_dir, "show", commit + ":" + p), swift):
                if suite.is_template(text, seen):
                    cases.append({"id": "moreports/%s/%s:%d" % (kind, p[len(folder):-len(ext)], line),
                                  "source": {"repo": repo, "test": "%s, line %d" % (p, line)},
                                  "template": text, "context": {}, "env": env})

    literals(crinja, commit, paths, False, "straight-shoota/crinja", "crinja", "spec/", ".cr")
    commit = suite.git(swift, "rev-parse", "HEAD").strip()
    sources.append({"repo": "johnmai-dev/Jinja", "commit": commit, "licence": "MIT"})
    paths = suite.git(swift, "ls-tree", "-r", "--name-only", commit, "Tests/").split("\n")
    literals(swift, commit, paths, True, "johnmai-dev/Jinja", "swift-jinja", "Tests/", ".swift")
    path = "crinja spec/; Jinja (Swift) Tests/"
    if len(sys.argv) > 3:
        hf = sys.argv[3]
        commit = suite.git(hf, "rev-parse", "HEAD").strip()
        sources.append({"repo": "huggingface/swift-jinja", "commit": commit, "licence": "MIT"})
        paths = suite.git(hf, "ls-tree", "-r", "--name-only", commit, "Tests/").split("\n")
        literals(hf, commit, paths, True, "huggingface/swift-jinja", "swift-jinja", "Tests/", ".swift")
        path += "; swift-jinja Tests/"
    suite.write_cases("moreports.json", {"repos": sources, "path": path}, cases)


if __name__ == "__main__":
    main()
