#!/usr/bin/env python3
"""Convert Jinja2Cpp's test suite to oracle cases.

    python3 convert/jinja2cpp.py GIT_DIR [COMMIT]   # GIT_DIR: a clone of jinja2cpp/Jinja2Cpp

Reads test/*.cpp as text (nothing is compiled) and takes every template
the tests render:

- each InputOutputPair{template, result} of an INSTANTIATE_TEST_SUITE_P,
  put into the source its fixture's TEST_P builds around testParam.tpl
  ("{{ " + tpl + " }}" for a SUBSTITUTION_TEST_P fixture, the source
  expression otherwise);
- the template of each MULTISTR_TEST;
- in the body of every other test, string literals assigned to a
  variable named source, passed to Load or Render, and the files of
  AddFile(name, content) (the loader; each file the test loads is a case
  of its own, rendered through the loader by name).

The context of every case is the suite's PrepareTestData (test_tools.h),
written out below as JSON: the reflected C++ structs are dicts of their
fields; their callables, and the user callables some tests register, are
left out (Jinja2 then sees them undefined). The GroupBy fixture has its
own testData. The suite's expectations are not used: Python's Jinja2
decides (oracle.py), so where Jinja2Cpp accepts syntax Jinja2 does not,
the case expects the error Jinja2 raises. The environment is Jinja2's
default with loopcontrols (Jinja2Cpp has break and continue built in),
and with do for the fixture that turns Jinja2Cpp's Do extension on.
"""
import json
import re
import sys

import suite


def test_struct(n, int_value, dbl_value, str_value, inner):
    d = {"intValue": int_value, "intEvenValue": None if int_value % 2 else int_value, "dblValue": dbl_value,
         "boolValue": n % 2 == 1, "strValue": str_value, "wstrValue": "test string %d" % n,
         "strViewValue": str_value, "wstrViewValue": "test string %d" % n,
         "innerStructList": [], "tmpStructList": [{"strValue": "Hello World!"}] * 10}
    d["innerStruct"] = inner
    return d


def prepare_test_data():
    """PrepareTestData of test/test_tools.h as JSON."""
    data = [test_struct(n, n, n / 2, "test string %d" % n, None) for n in range(10)]
    sample = dict(data[0])
    filled = dict(sample)
    sample["innerStruct"] = {"strValue": "Hello World!"}
    sample["innerStructList"] = [{"strValue": "Hello World!"}] * 10
    return {
        "intValue": 3,
        "intList": [9, 0, 8, 1, 7, 2, 6, 3, 5, 4],
        "doubleValue": 12.123000144958496,  # 12.123f, a float widened to double
        "doubleList": [9.5, 0.5, 8.5, 1.5, 7.5, 2.5, 6.4, 3.8, 5.2, -4.7],
        "intAsDoubleList": [9.0, 0.0, 8.0, 1.0, 7.0, 2.0, 6.0, 3.0, 5.0, 4.0],
        "stringValue": "rain",
        "wstringValue": "  hello world ",
        "stringList": ["string9", "string0", "string8", "string1", "string7", "string2", "string6", "string3", "string5", "string4"],
        "boolFalseValue": False,
        "boolTrueValue": True,
        "mapValue": {"intVal": 10, "dblVal": 100.5, "stringVal": "string100.5", "boolValue": True, "reflectedList": data},
        "simpleMapValue": {"intVal": 10, "dblVal": 100.5, "stringVal": "string100.5", "boolValue": True},
        "reflectedVal": sample,
        "emptyReflectedPtrVal": None,
        "filledReflectedPtrVal": filled,
        "reflectedIntVector": [9, 0, 8, 1, 7, 2, 6, 3, 5, 4],
        "reflectedStringVector": ["9", "0", "8", "1", "7", "2", "6", "3", "5", "4"],
        "reflectedStringViewVector": ["9", "0", "8", "1", "7", "2", "6", "3", "5", "4"],
        "reflectedList": data,
    }


def group_by_data():
    """The testData of filters_test.cpp's FilterGroupByTest."""
    return {"testData": [test_struct(n, n // 2, (n // 2) / 2, "test string %d" % (n // 2), None) for n in range(10)]}


ESC = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
       "\\": "\\", "'": "'", '"': '"', "?": "?"}


def tokens(src):
    """C++ tokens: ("s", value, line) for a string literal (adjacent ones
    joined), ("i", word, line), ("p", char, line); comments dropped."""
    out, i, n = [], 0, len(src)
    ident = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
    while (i := suite.past_comments(src, i)) < n:
        c = src[i]
        if c.isspace():
            i += 1
            continue
        line = src.count("\n", 0, i) + 1
        m = ident.match(src, i)
        if m:
            word = m.group(0)
            j = m.end()
            if j < n and src[j] == '"' and word in ("R", "LR", "u8R", "uR", "UR"):
                k = src.index("(", j)
                delim = src[j + 1:k]
                end = src.index(")" + delim + '"', k)
                add_string(out, src[k + 1:end], line)
                i = end + len(delim) + 2
                continue
            if j < n and src[j] == '"' and word in ("L", "u8", "u", "U"):
                i = j
                continue
            out.append(("i", word, line))
            i = j
            continue
        if c == '"':
            j, buf = i + 1, []
            while src[j] != '"':
                if src[j] == "\\":
                    ch, j = suite.backslash(src, j, ESC, hex_digits=None)
                    buf.append(ch)
                    continue
                buf.append(src[j])
                j += 1
            add_string(out, "".join(buf), line)
            i = j + 1
            continue
        if c == "'":
            j = i + 1
            while src[j] != "'":
                j += 2 if src[j] == "\\" else 1
            out.append(("c", src[i:j + 1], line))
            i = j + 1
            continue
        out.append(("p", c, line))
        i += 1
    return out


def add_string(out, s, line):
    if out and out[-1][0] == "s":
        out[-1] = ("s", out[-1][1] + s, out[-1][2])
    else:
        out.append(("s", s, line))


def balanced(toks, i):
    """The index just past the bracket group opening at toks[i]."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    stack = []
    while True:
        t = toks[i]
        if t[0] == "p" and t[1] in pairs:
            stack.append(pairs[t[1]])
        elif t[0] == "p" and stack and t[1] == stack[-1]:
            stack.pop()
            if not stack:
                return i + 1
        i += 1


def wrapper(toks, i, end):
    """The source a TEST_P body builds around testParam.tpl: (before,
    after), or None. Looks for "source = A + testParam.tpl + B;"."""
    for j in range(i, end):
        if toks[j][:2] == ("i", "source") and toks[j + 1][:2] == ("p", "="):
            k, parts = j + 2, []
            while toks[k][:2] != ("p", ";"):
                t = toks[k]
                if t[0] == "s":
                    parts.append(t[1])
                elif t[:2] == ("i", "testParam") and toks[k + 2][1] == "tpl":
                    parts.append(None)
                    k += 2
                elif t[:2] == ("p", "+"):
                    pass
                else:
                    return None
                k += 1
            if parts.count(None) == 1:
                at = parts.index(None)
                return "".join(parts[:at]), "".join(parts[at + 1:])
            return None
    return None


def convert_file(name, src):
    """(test name, template or None, loader or None, template name or None, fixture) for every template of a test file."""
    toks = tokens(src)
    wrappers, found = {}, []
    for i, t in enumerate(toks):
        if t[:2] == ("i", "SUBSTITUTION_TEST_P") and toks[i + 1][1] == "(":
            wrappers[toks[i + 2][1]] = ("{{ ", " }}")
    # Test bodies: TEST_P, TEST_F, TEST, MULTISTR_TEST.
    i = 0
    while i < len(toks):
        t = toks[i]
        if t[0] == "i" and t[1] in ("TEST_P", "TEST_F", "TEST", "MULTISTR_TEST", "INSTANTIATE_TEST_SUITE_P") and toks[i + 1][1] == "(":
            args_end = balanced(toks, i + 1)
            args = toks[i + 2:args_end - 1]
            fixture = args[0][1]
            test = "%s.%s" % (fixture, args[2][1]) if len(args) > 2 else fixture
            if t[1] == "INSTANTIATE_TEST_SUITE_P":
                suite, fixture = args[0][1], args[2][1]
                k = 0
                while k < len(args):
                    if args[k][:2] == ("i", "InputOutputPair") and args[k + 1][1] == "{":
                        e = balanced(args, k + 1)
                        strs = [a for a in args[k + 2:e - 1] if a[0] == "s"]
                        if strs:
                            found.append(("%s/%s:%d" % (suite, fixture, args[k][2]), ("pair", fixture, strs[0][1]), None, None))
                        k = e
                        continue
                    k += 1
                i = args_end
                continue
            if t[1] == "MULTISTR_TEST":
                strs = [a for a in args if a[0] == "s"]
                found.append(("%s:%d" % (test, t[2]), ("plain", fixture, strs[0][1]), None, None))
            body_start = args_end
            if toks[body_start][1] != "{":
                i = args_end
                continue
            body_end = balanced(toks, body_start)
            if t[1] == "TEST_P":
                w = wrapper(toks, body_start, body_end)
                if w and fixture not in wrappers:
                    wrappers[fixture] = w
            elif t[1] != "MULTISTR_TEST":
                files, names, sources = {}, [], []
                k = body_start
                while k < body_end:
                    a = toks[k]
                    if a[:2] == ("i", "AddFile") and toks[k + 1][1] == "(" and toks[k + 2][0] == "s" and toks[k + 4][0] == "s":
                        files[toks[k + 2][1]] = toks[k + 4][1]
                    elif a[:2] in (("i", "LoadTemplate"),) and toks[k + 2][0] == "s":
                        names.append(toks[k + 2][1])
                    elif a[:2] in (("i", "Load"), ("i", "Render")) and toks[k + 1][1] == "(" and toks[k + 2][0] == "s":
                        sources.append((toks[k + 2][1], a[2]))
                    elif a[:2] == ("i", "source") and toks[k + 1][1] == "=" and toks[k + 2][0] == "s" and toks[k + 3][1] == ";":
                        sources.append((toks[k + 2][1], a[2]))
                    k += 1
                for s, line in sources:
                    found.append(("%s:%d" % (test, line), ("plain", fixture, s), files or None, None))
                for nm in dict.fromkeys(names):
                    if nm in files:
                        found.append(("%s:%s" % (test, nm), ("plain", fixture, None), files, nm))
            i = body_end
            continue
        i += 1
    out = []
    for test, (kind, fixture, tpl), loader, tname in found:
        if kind == "pair":
            if fixture not in wrappers:
                continue
            before, after = wrappers[fixture]
            tpl = before + tpl + after
        out.append((test, tpl, loader, tname, fixture))
    return out


def main():
    git_dir, commit = suite.commit_of(sys.argv)
    cases, seen = [], set()
    ctx = prepare_test_data()
    for path in sorted(suite.git(git_dir, "ls-tree", "--name-only", commit, "test/").split()):
        if not path.endswith(".cpp") or path.endswith("perf_test.cpp"):
            continue
        src = suite.git(git_dir, "show", commit + ":" + path)
        stem = path.rsplit("/", 1)[1][:-4]
        for test, tpl, loader, tname, fixture in convert_file(path, src):
            key = json.dumps([tpl, loader, tname, fixture == "FilterGroupByTest"])
            if key in seen:
                continue
            seen.add(key)
            env = {"extensions": ["loopcontrols", "do"] if fixture == "ErrorsGenericExtensionsTest" else ["loopcontrols"]}
            case = {"id": "jinja2cpp/%s/%s" % (stem, test), "source": {"test": "%s, %s" % (path, test)},
                    "context_ref": "groupby" if fixture == "FilterGroupByTest" else "data", "context": {}, "env": env}
            if tname:
                case["name"] = tname
            else:
                case["template"] = tpl
            if loader:
                case["loader"] = loader
            cases.append(case)
    source = {"repo": "jinja2cpp/Jinja2Cpp", "commit": commit, "path": "test/*.cpp", "licence": "MPL-2.0"}
    # the same test line can give two templates (narrow and wide differ): write_cases numbers them
    suite.write_cases("jinja2cpp.json", source, cases, contexts={"data": ctx, "groupby": group_by_data()})


if __name__ == "__main__":
    main()
