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
import re
import sys

import suite

ESC = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0", "\\": "\\", "'": "'", '"': '"', "$": "$"}


def dart_strings(src):
    """(line, value or None for an interpolated one) of every string
    literal of Dart source, adjacent literals joined."""
    out, i, n = [], 0, len(src)
    last_end = -1
    while (i := suite.past_comments(src, i)) < n:
        raw = src[i] == "r" and i + 1 < n and src[i + 1] in "'\"" and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_"))
        j = i + 1 if raw else i
        if j < n and src[j] in "'\"":
            q = src[j] * 3 if src.startswith(src[j] * 3, j) else src[j]
            k, buf, interp = j + len(q), [], False
            while k < n and not src.startswith(q, k):
                ch = src[k]
                if ch == "\\" and not raw:
                    ch, k = suite.backslash(src, k, ESC)
                    buf.append(ch)
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
    git_dir, commit = suite.commit_of(sys.argv)
    cases, seen = [], set()
    env = {"extensions": ["loopcontrols", "do"]}
    for p in sorted(suite.git(git_dir, "ls-tree", "-r", "--name-only", commit, "test/").split("\n")):
        if not p.endswith(".dart"):
            continue
        src = suite.git(git_dir, "show", commit + ":" + p)
        for line, text in dart_strings(src):
            if not suite.is_template(text, seen):
                continue
            cid = "jinjadart/%s:%d" % (re.sub(r"^test/|\.dart$", "", p), line)
            cases.append({"id": cid, "source": {"test": "%s, line %d" % (p, line)}, "template": text, "context": {}, "env": env})
    source = {"repo": "ykmnkmi/jinja.dart", "commit": commit, "path": "test/**/*.dart", "licence": "MIT"}
    suite.write_cases("jinjadart.json", source, cases)


if __name__ == "__main__":
    main()
