#!/usr/bin/env python3
"""Convert minijinja's template tests to oracle cases.

    python3 convert/minijinja.py GIT_DIR [COMMIT]   # GIT_DIR: a clone of mitsuhiko/minijinja

Reads minijinja/tests/inputs/*.txt and *.html (a JSON context, a line
"---", the template; the file's name is the template's name) with
minijinja/tests/inputs/refs/* as the loader, as minijinja's test_vm does.
Also, with an empty context: the templates of
minijinja/tests/lexer-inputs and parser-inputs, every string literal
holding "{{" or "{%" in minijinja/tests/*.rs and minijinja-py/tests/*.py,
and the ```jinja examples of minijinja/src/*.rs's doc comments.
minijinja's expectations (its insta snapshots) are not used: Python's
Jinja2 decides (oracle.py), so where a template is minijinja-only syntax,
the case expects the TemplateSyntaxError Jinja2 raises.

The environment is Jinja2's default with loopcontrols and do (minijinja
has both built in), autoescape for .html files (minijinja's default),
and trim_blocks, lstrip_blocks and keep_trailing_newline from the
context's "$settings". A case left out is recorded in "skipped" with why:
custom delimiters and line statements (the case format cannot state
them) and the function get_args (no function of oracle.py takes keyword
arguments), and a string of 100 MB (a limit of minijinja's).
"undefined": "strict" is dropped (Jinja2's default Undefined
decides instead), and one_shot_iterator (a Rust iterator minijinja adds
to every context) is given as the list [0, 1, 2].
"""
import ast
import json
import sys

import suite

INPUTS = "minijinja/tests/inputs"


ESC = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}


def rust_strings(src):
    """(line, value) of every string literal of a Rust file: "…" with its
    escapes, and raw strings r"…", r#"…"#."""
    out, i, n = [], 0, len(src)
    while (i := suite.past_comments(src, i)) < n:
        c = src[i]
        if c == "'" and i + 2 < n and (src[i + 2] == "'" or src[i + 1] == "\\"):  # a char literal
            j = src.find("'", i + 2 if src[i + 1] != "\\" else i + 3)
            i = j + 1 if j > 0 else n
            continue
        if c == "r" and i + 1 < n and src[i + 1] in '"#' and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            j = i + 1
            while j < n and src[j] == "#":
                j += 1
            if j < n and src[j] == '"':
                end = '"' + "#" * (j - i - 1)
                k = src.find(end, j + 1)
                if k < 0:
                    break
                out.append((src.count("\n", 0, i) + 1, src[j + 1:k]))
                i = k + len(end)
                continue
        if c == '"':
            j, buf = i + 1, []
            while j < n and src[j] != '"':
                if src[j] == "\\":
                    e = src[j + 1]
                    if e == "\n":  # a line continuation: skip the newline and the indentation
                        j += 2
                        while j < n and src[j] in " \t\n":
                            j += 1
                        continue
                    ch, j = suite.backslash(src, j, ESC)
                    buf.append(ch)
                    continue
                buf.append(src[j])
                j += 1
            out.append((src.count("\n", 0, i) + 1, "".join(buf)))
            i = j + 1
            continue
        i += 1
    return out


def doc_blocks(src):
    """(line, text) of every ```jinja block of a Rust file's doc comments."""
    out, cur, start = [], None, 0
    for ln, line in enumerate(src.split("\n"), 1):
        t = line.strip()
        if not t.startswith(("///", "//!")):
            cur = None
            continue
        t = t[3:]
        t = t[1:] if t.startswith(" ") else t
        if cur is None and t.strip() == "```jinja":
            cur, start = [], ln + 1
        elif cur is not None and t.strip() == "```":
            out.append((start, "\n".join(cur)))
            cur = None
        elif cur is not None:
            cur.append(t)
    return out


def main():
    git_dir, commit = suite.commit_of(sys.argv)
    names = suite.git(git_dir, "ls-tree", "--name-only", commit + ":" + INPUTS).split()
    refs = {}
    for n in suite.git(git_dir, "ls-tree", "--name-only", commit + ":" + INPUTS + "/refs").split():
        if n.endswith((".txt", ".html")):
            refs[n] = suite.git(git_dir, "show", "%s:%s/refs/%s" % (commit, INPUTS, n))
    cases, skipped = [], {}
    for n in sorted(names):
        if not n.endswith((".txt", ".html")):
            continue
        text = suite.git(git_dir, "show", "%s:%s/%s" % (commit, INPUTS, n))
        head, tpl = text.split("\n---\n", 1)
        ctx = json.loads(head)
        settings = ctx.pop("$settings", {})
        if settings.get("markers") or settings.get("line_statement_prefix") or settings.get("line_comment_prefix"):
            skipped[n] = "custom delimiters or line statements"
            continue
        if n == "err_repeat_string_too_large.txt":
            skipped[n] = "Jinja2 prints 100 MB (minijinja's limit on a string's size is the point)"
            continue
        if "get_args" in tpl:
            skipped[n] = "the function get_args"
            continue
        if "one_shot_iterator" in tpl:
            ctx.setdefault("one_shot_iterator", [0, 1, 2])
        env = {"extensions": ["loopcontrols", "do"]}
        for k in ("trim_blocks", "lstrip_blocks", "keep_trailing_newline"):
            if settings.get(k):
                env[k] = True
        if n.endswith(".html"):
            env["autoescape"] = True
        loader = dict(refs)
        loader[n] = tpl
        cases.append({"id": "minijinja/" + n, "source": {"test": INPUTS + "/" + n}, "name": n,
                      "context": ctx, "env": env, "loader": loader})
    for d in ("lexer-inputs", "parser-inputs"):
        folder = "minijinja/tests/" + d
        for n in sorted(suite.git(git_dir, "ls-tree", "--name-only", commit + ":" + folder).split()):
            text = suite.git(git_dir, "show", "%s:%s/%s" % (commit, folder, n))
            settings = {}
            if d == "lexer-inputs":
                head, text = text.split("\n---\n", 1)
                settings = json.loads(head)
            if settings.get("markers") or settings.get("line_statement_prefix") or settings.get("line_comment_prefix"):
                skipped[d + "/" + n] = "custom delimiters or line statements"
                continue
            env = {"extensions": ["loopcontrols", "do"]}
            for k in ("trim_blocks", "lstrip_blocks", "keep_trailing_newline"):
                if settings.get(k):
                    env[k] = True
            cases.append({"id": "minijinja/%s/%s" % (d, n), "source": {"test": folder + "/" + n},
                          "template": text, "context": {}, "env": env})
    seen = set()
    for path in sorted(suite.git(git_dir, "ls-tree", "-r", "--name-only", commit, "minijinja-py/tests/").split()):
        if not path.endswith(".py"):
            continue
        for node in ast.walk(ast.parse(suite.git(git_dir, "show", commit + ":" + path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                tpl = node.value
                if not suite.is_template(tpl, seen):
                    continue
                cases.append({"id": "minijinja/py/%s:%d" % (path.rsplit("/", 1)[1][:-3], node.lineno),
                              "source": {"test": "%s, line %d" % (path, node.lineno)},
                              "template": tpl, "context": {}, "env": {"extensions": ["loopcontrols", "do"]}})
    for path in sorted(suite.git(git_dir, "ls-tree", "-r", "--name-only", commit, "minijinja/tests/", "minijinja/src/").split()):
        if not path.endswith(".rs"):
            continue
        src = suite.git(git_dir, "show", commit + ":" + path)
        found = doc_blocks(src) if path.startswith("minijinja/src/") else rust_strings(src)
        for i, (line, tpl) in enumerate(found):
            if not suite.is_template(tpl, seen):
                continue
            stem = path.rsplit("/", 1)[1][:-3]
            cases.append({"id": "minijinja/%s:%d" % (stem, line), "source": {"test": "%s, line %d" % (path, line)},
                          "template": tpl, "context": {}, "env": {"extensions": ["loopcontrols", "do"]}})
    source = {"repo": "mitsuhiko/minijinja", "commit": commit, "path": INPUTS + ", lexer-inputs, parser-inputs, minijinja/tests/*.rs, minijinja/src/*.rs, minijinja-py/tests/*.py",
              "licence": "Apache-2.0"}
    suite.write_cases("minijinja.json", source, cases, skipped=skipped)


if __name__ == "__main__":
    main()
