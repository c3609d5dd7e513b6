"""What the converters of other Jinja implementations' test suites share
(jinjadart.py, jinjava.py, jinja2cpp.py, minijinja.py, moreports.py,
gonja2.py, llamajinja.py, more10.py):
reading a clone, the comments and backslash escapes of the languages their
tests are written in, and writing the cases, which oracle.py then renders.
Each converter keeps its own language's string literals.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def git(git_dir, *args):
    """git's output, as text (UnicodeDecodeError when it is not UTF-8)."""
    return subprocess.run(["git", "--git-dir", git_dir] + list(args), check=True, capture_output=True).stdout.decode("utf-8")


def commit_of(argv):
    """(GIT_DIR, the commit it names) of a converter's GIT_DIR [COMMIT] arguments."""
    git_dir = argv[1]
    return git_dir, git(git_dir, "rev-parse", argv[2] if len(argv) > 2 else "HEAD").strip()


def past_comments(src, i):
    """Where the text from src[i] on starts after the // and /* */ comments
    there (the newline that ends a line comment; the end of the text for a
    comment left open)."""
    while True:
        if src.startswith("//", i):
            j = src.find("\n", i)
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = j if j < 0 else j + 2
        else:
            return i
        if j < 0:
            return len(src)
        i = j


def backslash(src, j, esc, hex_digits=2):
    """(what the escape at src[j] == "\\\\" stands for, where the text
    after it starts): \\u{…}, \\uXXXX (Java may repeat the u), \\x and
    up to hex_digits hex digits (None: as many as follow, as in C++), or esc's
    entry for the escaped character (the character itself when it has
    none). The value is None when the braces of \\u{…} hold no number."""
    e = src[j + 1]
    if e == "u":
        if src[j + 2] == "{":
            end = src.index("}", j)
            try:
                return chr(int(src[j + 3:end], 16)), end + 1
            except ValueError:
                return None, end + 1
        k = j + 1
        while src[k] == "u":
            k += 1
        return chr(int(src[k:k + 4], 16)), k + 4
    m = re.match(r"[0-9a-fA-F]+", src[j + 2:j + 2 + hex_digits] if hex_digits else src[j + 2:]) if e == "x" else None
    if m:
        return chr(int(m.group(0), 16)), j + 2 + len(m.group(0))
    return esc.get(e, e), j + 2


def is_template(text, seen):
    """Whether a literal is a template not taken yet (it holds {{ or {%),
    taking it when it is."""
    if text is None or ("{{" not in text and "{%" not in text) or text in seen:
        return False
    seen.add(text)
    return True


def write_cases(name, source, cases, second=1, **extra):
    """Numbers the cases whose ids repeat (two templates on one line: the
    second is #SECOND, the next #SECOND+1), and writes them with source and
    extra as cases/NAME, which oracle.py renders."""
    ids = {}
    for c in cases:
        k = ids.get(c["id"], 0)
        ids[c["id"]] = k + 1
        if k:
            c["id"] += "#%d" % (k + second - 1)
    doc = {"jinja2": "", "source": source}
    doc.update(extra)
    doc["cases"] = cases
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_cases(name, doc)
