#!/usr/bin/env python3
"""Convert jinja.dart's tests to oracle cases.

    python3 convert/jinjadart.py GIT_DIR [COMMIT]   # GIT_DIR: a clone of ykmnkmi/jinja.dart

jinja.dart is a Dart port of Jinja2 whose tests (test/**/*.dart) follow
Jinja2's. Every Dart string literal holding "{{" or "{%" there ('…',
"…", triple-quoted, raw r'…') is a template, with an empty context (the
tests' contexts are Dart code) and loopcontrols and do on. Adjacent
literals are one string, as in Dart; a literal with ${…} interpolation is
left out. jinja.dart's expectations are not used: Python's Jinja2
decides (oracle.py).
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

ESC = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0", "\\": "\\", "'": "'", '"': '"', "$": "$"}


def git(git_dir, *args):
    return subprocess.run(["git", "--git-dir", git_dir] + list(args), check=True, capture_output=True).stdout


def dart_strings(src):
    """(line, value or None for an interpolated one) of every string
    literal of Dart source, adjacent literals joined."""
    out, i, n = [], 0, len(src)
    last_end = -1
    while i < n:
        if src.startswith("//", i):
            i = src.find("\n", i)
            i = n if i < 0 else i
            continue
        if src.startswith("/*", i):
            i = src.find("*/", i + 2)
            i = n if i < 0 else i + 2
            continue
        raw = src[i] == "r" and i + 1 < n and src[i + 1] in "'\"" and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_"))
        j = i + 1 if raw else i
        if j < n and src[j] in "'\"":
            q = src[j] * 3 if src.startswith(src[j] * 3, j) else src[j]
            k, buf, interp = j + len(q), [], False
            while k < n and not src.startswith(q, k):
                ch = src[k]
                if ch == "\\" and not raw:
                    e = src[k + 1]
                    if e == "u":
                        if src[k + 2] == "{":
                            end = src.index("}", k)
                            buf.append(chr(int(src[k + 3:end], 16)))
                            k = end + 1
                        else:
                            buf.append(chr(int(src[k + 2:k + 6], 16)))
                            k += 6
                        continue
                    if e == "x":
                        buf.append(chr(int(src[k + 2:k + 4], 16)))
                        k += 4
                        continue
                    buf.append(ESC.get(e, e))
                    k += 2
                    continue
                if ch == "$" and not raw:
                    interp = True
                buf.append(ch)
                k += 1
            text = None if interp else "".join(buf)
            if len(q) == 3 and text is not None and text.startswith("\n"):
                text = text[1:]  # Dart drops a first newline of a multi-line string
            gap = src[last_end:i] if last_end >= 0 else "x"
            if out and gap.strip() == "":
                line, prev = out[-1]
                out[-1] = (line, None if prev is None or text is None else prev + text)
            else:
                out.append((src.count("\n", 0, i) + 1, text))
            i = k + len(q)
            last_end = i
            continue
        i += 1
    return out


def main():
    git_dir = sys.argv[1]
    commit = git(git_dir, "rev-parse", sys.argv[2] if len(sys.argv) > 2 else "HEAD").decode().strip()
    cases, seen = [], set()
    env = {"extensions": ["loopcontrols", "do"]}
    for p in sorted(git(git_dir, "ls-tree", "-r", "--name-only", commit, "test/").decode().split("\n")):
        if not p.endswith(".dart"):
            continue
        src = git(git_dir, "show", commit + ":" + p).decode("utf-8")
        for line, text in dart_strings(src):
            if text is None or ("{{" not in text and "{%" not in text) or text in seen:
                continue
            seen.add(text)
            cid = "jinjadart/%s:%d" % (re.sub(r"^test/|\.dart$", "", p), line)
            cases.append({"id": cid, "source": {"test": "%s, line %d" % (p, line)}, "template": text, "context": {}, "env": env})
    ids = {}
    for c in cases:
        k = ids.get(c["id"], 0)
        ids[c["id"]] = k + 1
        if k:
            c["id"] += "#%d" % k
    source = {"repo": "ykmnkmi/jinja.dart", "commit": commit, "path": "test/**/*.dart", "licence": "MIT"}
    doc = {"jinja2": "", "source": source, "cases": cases}
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_cases("jinjadart.json", doc)


if __name__ == "__main__":
    main()
