#!/usr/bin/env python3
"""Issue 23's fourteenth round: grid sweeps Jinja2 renders where a
generator is too random (docs/FUZZING.md). Every filter of Jinja2 3.1 and
every str method a template may call, crossed with a fixed list of odd
values (None, an Undefined, -0.0, 1e300, 2**64, '', 'ß', [], {}, a list,
a dict, True, a Markup, ...) and argument lists of 0 to 2 values, each
value once from the context and once as a template literal, plain and
autoescaped; and the whitespace of every tag kind under every
trim_blocks/lstrip_blocks setting over every line ending.

    python3 internal/jinja2/testdata/sweep14.py DIR [GROUP...]

writes DIR/testdata/oracle/cases/sweep14-GROUP.json for each group
(filters, methods, whitespace; every group without GROUP) and renders them
with DIR's oracle.py. DIR is a scratch copy of internal/jinja2 (git
archive) whose other case files were removed; then, in DIR,

    go test ./ -run '^TestOracle$'

lists each case the package renders otherwise. Not committed as cases:
what differed is reduced into convert/exact14.py.
"""
import os
import sys

# (template literal, context value as oracle.py's tagged JSON, or None
# where the literal is the only form: an Undefined has no context value)
VALUES = [
    ("none", None), ("nothere", "UNDEF"), ("-0.0", -0.0), ("0.0", 0.0), ("1e300", 1e300), ("-1e-300", -1e-300), ("2.5", 2.5),
    ("(2**64)", 2**64), ("-(2**63)", -2**63), ("0", 0), ("-1", -1), ("7", 7), ("true", True), ("false", False),
    ("''", ""), ("'ß'", "ß"), ("'a'", "a"), ("' x Y z '", " x Y z "), ("'<a href=\"x\">&amp;</a>'", "<a href=\"x\">&amp;</a>"),
    ("'Straße İ ǅ'", "Straße İ ǅ"), ("'1e3'", "1e3"), ("'-12'", "-12"), ("'a\\nb\\r\\nc'", "a\nb\r\nc"), ("'😀日本'", "😀日本"),
    ("[]", []), ("{}", {}), ("[1, 'a']", [1, "a"]), ("[3, 1, 2]", [3, 1, 2]), ("['b', 'A', 'a']", ["b", "A", "a"]),
    ("{'b': 1, 'a': [2]}", {"b": 1, "a": [2]}), ("{'a': 'x', 'n': none}", {"a": "x", "n": None}), ("[{'a': 2}, {'a': 1}]", [{"a": 2}, {"a": 1}]),
    ("(1, 2)", {"__tuple__": [1, 2]}), ("()", {"__tuple__": []}), ("'<b>'|safe", {"__markup__": "<b>"}), ("''|safe", {"__markup__": ""}),
    ("[[1, 2], [3]]", [[1, 2], [3]]), ("[none, 0, '']", [None, 0, ""]), ("range(3)", None), ("{1: 'i', 'a': 2}", {"__dict__": [[1, "i"], ["a", 2]]}),
]

FILTERS = ["abs", "attr", "batch", "capitalize", "center", "count", "d", "default", "dictsort", "e", "escape", "filesizeformat", "first",
           "float", "forceescape", "format", "groupby", "indent", "int", "items", "join", "last", "length", "list", "lower", "map", "max",
           "min", "pprint", "reject", "rejectattr", "replace", "reverse", "round", "safe", "select", "selectattr", "slice", "sort",
           "string", "striptags", "sum", "title", "tojson", "trim", "truncate", "unique", "upper", "urlencode", "urlize", "wordcount",
           "wordwrap", "xmlattr"]

# argument lists of 0 to 2 values
ARGS = ["", "()", "(0)", "(-1)", "(2)", "(none)", "('a')", "(true)", "(2.5)", "(1e300)", "('')", "([])", "('a', 'b')", "(1, true)",
        "(3, 'x')", "('a', none)", "(attribute='a')", "(nothere)", "((2**64))", "(-0.0)"]

STR_METHODS = ["capitalize", "casefold", "center", "count", "encode", "endswith", "expandtabs", "find", "format", "format_map", "index",
               "isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric", "isprintable", "isspace",
               "istitle", "isupper", "join", "ljust", "lower", "lstrip", "partition", "removeprefix", "removesuffix", "replace", "rfind",
               "rindex", "rjust", "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith", "strip", "swapcase", "title",
               "translate", "upper", "zfill"]

RECEIVERS = ["'abc'", "'a,b,,c'", "''", "' Xy zß '", "'<i>'|safe", "s"]

TAGS = [
    ("if", "{%{a} if true {b}%}", "{%{a} endif {b}%}"), ("if-else", "{%{a} if false {b}%}F\n{%{a} else {b}%}", "{%{a} endif {b}%}"),
    ("elif", "{%{a} if false {b}%}\n{%{a} elif true {b}%}", "{%{a} endif {b}%}"), ("for", "{%{a} for i in [1, 2] {b}%}", "{%{a} endfor {b}%}"),
    ("for-else", "{%{a} for i in [] {b}%}{%{a} else {b}%}", "{%{a} endfor {b}%}"), ("set", "{%{a} set v {b}%}", "{%{a} endset {b}%}{{ v }}"),
    ("filter", "{%{a} filter upper {b}%}", "{%{a} endfilter {b}%}"), ("macro", "{%{a} macro m() {b}%}", "{%{a} endmacro {b}%}{{ m() }}"),
    ("call", "{% macro c() %}[{{ caller() }}]{% endmacro %}{%{a} call c() {b}%}", "{%{a} endcall {b}%}"),
    ("with", "{%{a} with w = 1 {b}%}", "{%{a} endwith {b}%}"), ("raw", "{%{a} raw {b}%}", "{%{a} endraw {b}%}"),
    ("comment", "{#{a} c {b}#}", ""), ("block", "{%{a} block k {b}%}", "{%{a} endblock {b}%}"),
    ("autoescape", "{%{a} autoescape true {b}%}", "{%{a} endautoescape {b}%}"), ("print", "{{{a} 1 {b}}}", ""),
]
TEXTS = ["", "x", "\n", "  \n", "\r\n", "\r", " \t", "\n  ", "\r\n  \r\n", "  ", "\n\n"]
MARKS = ["", "-", "+"]
ENVS = [{}, {"trim_blocks": True}, {"lstrip_blocks": True}, {"trim_blocks": True, "lstrip_blocks": True}]


def filter_cases():
    rows = []
    for f in FILTERS:
        for vi, (lit, val) in enumerate(VALUES):
            for ai, args in enumerate(ARGS):
                if args == "" and ai:
                    continue
                ctx = {} if val in (None, "UNDEF") else {"v": val}
                src = "v" if ctx else lit
                env = {"autoescape": True} if (vi + ai) % 3 == 0 else {}
                rows.append(("filters-%s-%02d-%02d-c" % (f, vi, ai), "{{ %s|%s%s }}" % (src, f, args), ctx, env))
                if ctx:
                    rows.append(("filters-%s-%02d-%02d-l" % (f, vi, ai), "{{ (%s)|%s%s }}" % (lit, f, args), {}, env))
    return rows


def method_cases():
    rows = []
    for m in STR_METHODS:
        for ri, r in enumerate(RECEIVERS):
            rows.append(("methods-%s-%d-none" % (m, ri), "{{ %s.%s() }}" % (r, m), {"s": "Ab c"}, {}))
            for vi, (lit, val) in enumerate(VALUES):
                ctx = {"s": "Ab c"}
                src = lit
                if val not in (None, "UNDEF"):
                    ctx["v"] = val
                    src = "v"
                rows.append(("methods-%s-%d-%02d" % (m, ri, vi), "{{ %s.%s(%s) }}" % (r, m, src), ctx, {"autoescape": True} if vi % 4 == 0 else {}))
                rows.append(("methods-%s-%d-%02d-2" % (m, ri, vi), "{{ %s.%s(%s, 1) }}|{{ %s.%s('a', %s) }}" % (r, m, src, r, m, src), ctx, {}))
        for vi, (lit, val) in enumerate(VALUES):
            rows.append(("methods-%s-recv-%02d" % (m, vi), "{{ (%s).%s() }}|{{ (%s).%s('a') }}" % (lit, m, lit, m), {}, {}))
    return rows


def whitespace_cases():
    rows = []
    for name, open_, close in TAGS:
        for ei, env in enumerate(ENVS):
            for a in MARKS:
                for b in MARKS:
                    for ti, t in enumerate(TEXTS):
                        for ui, u in enumerate(TEXTS):
                            if (ti + ui + len(a) + len(b)) % 3:
                                continue  # a third of the grid of texts
                            tpl = "A" + t + open_.replace("{a}", a).replace("{b}", b) + u + "B" + t + close.replace("{a}", a).replace("{b}", b) + u + "C"
                            rows.append(("ws-%s-%d-%s%s-%d-%d" % (name, ei, a or "_", b or "_", ti, ui), tpl, {}, env))
    return rows


ESCAPES = [r"\x41", r"\xe9", r"\xff", r"\x4", r"\xg0", r"\u00e9", r"\u20ac", r"\ud83d", r"\ud83d\ude00", r"\U0001F600", r"\U00110000", r"\U0000004", r"\N{BULLET}",
           r"\N{LATIN SMALL LETTER SHARP S}", r"\N{nope}", r"\N{EM DASH}", r"\N{bullet}", r"\N", r"\N{", r"\N{}", r"\101", r"\0", r"\7", r"\777", r"\400", r"\8", r"\9",
           r"\q", r"\'", r'\"', r"\\", r"\n", r"\r\n", r"\t", r"\a\b\f\v", "\\\n", "\\\r\n", r"\u12", r"\{", r"\%", r"\ ", "\\\t", r"\$", "\r", "\r\n", "\n"]


def escape_cases():
    rows = []
    for i, e in enumerate(ESCAPES):
        for q in ("'", '"'):
            for j, f in enumerate(["", "|length", "|list|map('ord')|list", "|tojson", "|pprint", "|e", ".encode()", "|urlencode"]):
                if e == r"\ud83d" and f in ("", "|e"):
                    continue  # a lone surrogate printed: no case file holds it
                env = {"keep_trailing_newline": True} if j == 0 else {}
                rows.append(("escapes-%02d-%s-%d" % (i, "sq" if q == "'" else "dq", j), "{{ %s%s%s%s }}" % (q, e, q, f), {}, env))
            rows.append(("escapes-%02d-%s-set" % (i, "sq" if q == "'" else "dq"), "{%% set v = %s%s%s %%}{{ v|length }}:{{ v|list|map('ord')|join(',') }}" % (q, e, q), {}, {}))
    return rows


NUMS = ["0", "1", "-1", "7", "-7", "3", "-3", "2", "0.0", "-0.0", "0.5", "-2.5", "1e308", "-1e308", "5e-324", "(2**63)", "(-2**63)", "(2**64)", "(2**100)", "(-2**100)",
        "true", "false", "1.5", "9007199254740993", "x", "y"]


def arith_cases():
    rows = []
    ctx = {"x": {"__float__": "inf"}, "y": {"__float__": "nan"}}
    for i, a in enumerate(NUMS):
        for j, b in enumerate(NUMS):
            rows.append(("arith-%02d-%02d" % (i, j), "{{ (%s // %s)|string }}|{{ %s %% %s }}" % (a, b, a, b), ctx, {}))
            rows.append(("arith-%02d-%02d-div" % (i, j), "{{ %s / %s }}|{{ %s - %s }}|{{ %s * %s }}" % (a, b, a, b, a, b), ctx, {}))
        for k, e in enumerate(["0", "1", "2", "-1", "-2", "0.5", "-0.5", "3", "true", "0.0", "-0.0", "(1/3)", "x", "y", "1024", "-1075"]):
            if e in ("1024", "-1075") and a not in ("2", "-1", "0.5", "1", "0", "0.0", "1.5", "-2.5", "true"):
                continue
            rows.append(("pow-%02d-%02d" % (i, k), "{{ %s ** %s }}" % (a, e), ctx, {}))
    return rows


LOOKUP_RECV = ["{'items': 1, 'keys': [2], 'a': 3}", "{'upper': 'U', 'values': none}", "dict(items='i', get='g', pop=2)", "namespace(items=1, upper=2)", "'abc'", "[1, 2]",
               "{'__class__': 'c', '_x': 1, 'mro': 2}", "{1: 'one', '1': 'str'}", "(1, 2)", "range(3)", "d", "ns", "cycler(1, 2)", "loop", "'a'|e", "1.5", "none"]
LOOKUP_NAMES = ["items", "keys", "values", "get", "pop", "upper", "a", "__class__", "_x", "mro", "1", "count", "real", "imag", "startswith", "current", "length", "index", "next"]


def lookup_cases():
    rows = []
    ctx = {"d": {"items": "I", "keys": "K", "get": 1, "x": 2}}
    for i, r in enumerate(LOOKUP_RECV):
        for j, n in enumerate(LOOKUP_NAMES):
            tpl = "{%% set ns = namespace(items=5) %%}{%% for _ in [0] %%}{%% set o = %s %%}{{ o.%s is defined }}|{{ o['%s'] is defined }}|{{ (o.%s)|string|truncate(30) }}|{{ (o['%s'])|string|truncate(30) }}|{{ (o|attr('%s'))|string|truncate(30) }}{%% endfor %%}" % (r, n if not n.isdigit() else "a", n, n if not n.isdigit() else "a", n, n)
            for env in ({}, {"sandbox": True}):
                rows.append(("lookup-%02d-%02d%s" % (i, j, "-sb" if env else ""), tpl, ctx, env))
    return rows


SIGS = ["", "a", "a, b=2", "a=1", "a, b", "a, *args", "a, **kw", "caller", "a, caller=none", "varargs", "kwargs"]
CALLS = ["", "1", "1, 2", "1, 2, 3", "a=1", "b=1", "c=1", "1, a=2", "a=1, a=2", "*[1, 2, 3]", "**{'a': 1, 'b': 2}", "1, **{'a': 2}", "a=1, **{'a': 2}", "caller=1",
         "1, c=2, d=3", "*[1], **{'b': 3}", "**{}", "*[]", "*none", "**none", "**{1: 2}"]


def macro_cases():
    rows = []
    for i, sig in enumerate(SIGS):
        body = "{{ a }}" if "a" in sig.split(",")[0:1] or "a=" in sig or sig.startswith("a") else "x"
        for j, call in enumerate(CALLS):
            rows.append(("macro-%02d-%02d" % (i, j), "{%% macro m(%s) %%}[%s|{{ varargs }}|{{ kwargs }}]{%% endmacro %%}{{ m(%s) }}" % (sig, body, call), {}, {}))
            rows.append(("macro-%02d-%02d-call" % (i, j), "{%% macro m(%s) %%}[%s|{{ caller(7) }}]{%% endmacro %%}{%% call(q) m(%s) %%}{{ q }}{%% endcall %%}" % (sig, body, call), {}, {}))
            rows.append(("macro-%02d-%02d-caller" % (i, j), "{%% macro m() %%}{{ caller(%s) }}{%% endmacro %%}{%% call(%s) m() %%}[{{ varargs }}|{{ kwargs }}]{%% endcall %%}" % (call, sig), {}, {}))
    return rows


SEQS = ["range(7)", "'abcde'", "[1, 2, 3]", "[]", "{'a': 1, 'b': 2, 'c': 3}", "(1, 2, 3, 4)", "'é😀ß'", "none", "nothere", "5", "[[1], [2, 3]]"]


def batch_cases():
    rows = []
    for i, sq in enumerate(SEQS):
        for j, n in enumerate(["1", "2", "3", "4", "10", "0", "-1", "2.5", "true", "'2'", "none", "1000"]):
            for k, fill in enumerate(["", ", none", ", 'x'", ", fill_with=0", ", fill_with=[]", ", fill_with='<>'", ", fill_with=nothere", ", 1, 2"]):
                for f in ("batch", "slice"):
                    rows.append(("%s-%02d-%02d-%d" % (f, i, j, k), "{{ %s|%s(%s%s)|list }}" % (sq, f, n, fill), {}, {"autoescape": True} if k == 5 else {}))
    for i, sq in enumerate(SEQS):
        for j, f in enumerate(["items", "items|list", "dictsort", "tojson", "tojson(2)", "pprint", "list", "first"]):
            rows.append(("items-%02d-%d" % (i, j), "{{ %s|%s }}" % (sq, f), {}, {}))
    return rows


NESTED = ["{'é': ['ß', {'日': none}], 'a': (1, 2.5)}", "['\\u2028', '\\u2029', '</script>', '&<>\\'']", "{'k': '😀', 'z': [true, false, -0.0]}",
          "[{'b': 1, 'a': 2}]", "{1: 'int key', 'a': 1}", "{'a': {'b': {'c': ['\u00a0', '\u200b']}}}", "[1e300, 1e-7, 100000000000000000000, 1e16, 0.1]",
          "{'nan': nan}", "{'x': '\\ud800'}", "'\x00\x1f\x7f'", "[none, true, '\t']", "{(1, 2): 3}", "{true: 1, 'a': 2}", "{'a': 1, 'B': 2, '_': 3, 'é': 4, '1': 5}", "('a', ['b'])"]


def tojson_cases():
    rows = []
    for i, v in enumerate(NESTED):
        for j, f in enumerate(["tojson", "tojson(2)", "tojson(indent=1)", "tojson(0)", "tojson(-1)", "tojson(none)", "tojson(true)", "tojson('  ')", "pprint", "string", "e", "items|list", "dictsort|list"]):
            for env in ({}, {"autoescape": True}, {"profile": "hf"}):
                rows.append(("tojson-%02d-%02d-%s" % (i, j, "".join(env) or "plain"), "{{ %s|%s }}" % (v, f), {"nan": {"__float__": "nan"}}, env))
    return rows


LOOPS = ["[1, 2, 3]", "[1, [2, [3, 4]], 5]", "[[1, 2], [], [3]]", "'abc'", "[]", "{'b': 1, 'a': 2}", "range(4)", "[none, 0, '', 1]"]
LOOP_ATTRS = ["loop.previtem", "loop.nextitem", "loop.depth", "loop.depth0", "loop.revindex", "loop.revindex0", "loop.length", "loop.first", "loop.last", "loop.index0",
              "loop.changed(x)", "loop.cycle('a', 'b')"]


def loop_cases():
    rows = []
    for i, sq in enumerate(LOOPS):
        for j, at in enumerate(LOOP_ATTRS):
            for k, flt in enumerate(["", " if x", " if x is not number", " if loop is defined"]):
                rows.append(("loops-%d-%02d-%d-rec" % (i, j, k), "{%% for x in %s%s recursive %%}<{{ %s }}{%% if x is iterable and x is not string %%}{{ loop(x) }}{%% endif %%}>{%% else %%}E{%% endfor %%}" % (sq, flt, at), {}, {}))
                rows.append(("loops-%d-%02d-%d-nest" % (i, j, k), "{%% for x in %s%s %%}{%% for y in [x, x]%s %%}{{ %s }}/{%% endfor %%}|{{ %s }};{%% else %%}E{%% endfor %%}" % (sq, flt, flt.replace("x", "y"), at.replace("(x)", "(y)"), at), {}, {}))
    return rows


TESTS = ["boolean", "callable", "defined", "divisibleby", "eq", "equalto", "escaped", "even", "false", "filter", "float", "ge", "greaterthan", "gt", "in",
         "integer", "iterable", "le", "lessthan", "lower", "lt", "mapping", "ne", "none", "number", "odd", "sameas", "sequence", "string", "test", "true",
         "undefined", "upper"]
TEST_ARGS = ["", "(0)", "(2)", "('a')", "(none)", "([1, 'a'])", "(-0.0)", "(v)", "('upper')", "(1, 2)", "(x=1)"]


def test_cases():
    rows = []
    for t in TESTS:
        for vi, (lit, val) in enumerate(VALUES):
            ctx = {} if val in (None, "UNDEF") else {"v": val}
            src = "v" if ctx else lit
            for ai, args in enumerate(TEST_ARGS):
                rows.append(("tests-%s-%02d-%02d" % (t, vi, ai), "{{ %s is %s%s }}|{{ %s is not %s%s }}" % (src, t, args, src, t, args), ctx, {}))
    return rows


OPS = ["+", "-", "*", "/", "//", "%", "~", "==", "!=", "<", ">=", "in", "not in", "and", "or"]


def op_cases():
    rows = []
    for i, (la, va) in enumerate(VALUES):
        for j, (lb, vb) in enumerate(VALUES):
            ctx = {}
            a, b = la, lb
            if va not in (None, "UNDEF"):
                ctx["a"], a = va, "a"
            if vb not in (None, "UNDEF"):
                ctx["b"], b = vb, "b"
            for op in OPS:
                rows.append(("ops-%02d-%02d-%s" % (i, j, OPS.index(op)), "{{ (%s %s %s) }}" % (a, op, b), ctx, {}))
        for e in ("2", "-1", "0.5"):
            rows.append(("ops-%02d-pow-%s" % (i, e), "{{ %s ** %s }}" % (a, e), ctx, {}))
    return rows


ENDS = ["", "\n", "\r\n", "\r", "\n\n", "\r\n\r\n", "\n\r", " \n", "\n ", "\r\r\n"]
LAST = ["x", "{{ 1 }}", "{% if true %}y{% endif %}", "{# c #}", "{% raw %}r{% endraw %}", "{%- if true -%}y{%- endif -%}", "{{ 's\r\nt' }}", "{{ 'a\nb' }}",
        "{% set v %}a\r\nb{% endset %}{{ v|length }}", "{{ \"x\r\ny\"|length }}", "{% for i in [1] %}\r\n{{ i }}\r\n{% endfor %}", "{{ 'x' }}{%+ if true %}\r\n{% endif %}"]


def newline_cases():
    rows = []
    for i, last in enumerate(LAST):
        for j, end in enumerate(ENDS):
            for k, env in enumerate([{}, {"keep_trailing_newline": True}, {"trim_blocks": True}, {"trim_blocks": True, "lstrip_blocks": True, "keep_trailing_newline": True}]):
                rows.append(("newlines-%02d-%d-%d" % (i, j, k), "a\r\nb\rc\n" + last + end, {}, env))
                rows.append(("newlines-%02d-%d-%d-mid" % (i, j, k), last + end + "  " + last + end, {}, env))
    return rows


GROUPS = {"filters": filter_cases, "methods": method_cases, "whitespace": whitespace_cases, "escapes": escape_cases, "arith": arith_cases,
          "lookup": lookup_cases, "macros": macro_cases, "batch": batch_cases, "tojson": tojson_cases, "loops": loop_cases, "tests": test_cases, "ops": op_cases, "newlines": newline_cases}


def main():
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "oracle"))
    import oracle  # oracle.py beside this script
    oracle.sweep_main("sweep14", GROUPS)


if __name__ == "__main__":
    main()
