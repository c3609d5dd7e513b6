#!/usr/bin/env python3
"""Issue 23's seventeenth round: grid sweeps of what sweep14.py does not
cross (docs/FUZZING.md): str.format's and %'s specs crossed with values of
every kind, str, list, dict and int methods with two and three arguments,
filters with three and four arguments and their keywords, and int, float
and round over odd numeric strs with their arguments.

    python3 internal/jinja2/testdata/sweep17.py DIR [GROUP...]

writes DIR/testdata/oracle/cases/sweep17-GROUP.json for each group
(formats, percent, methods2, filters3, numstrs; every group without GROUP)
and renders them with DIR's oracle.py. DIR is a scratch copy of
internal/jinja2 (git archive) whose other case files were removed; then,
in DIR,

    go test ./ -run '^TestOracle$'

lists each case the package renders otherwise. Not committed as cases:
what differed is reduced into convert/exact17.py.
"""
import itertools
import json
import os
import sys

# (template literal, context value as oracle.py's tagged JSON, or None
# where the literal is the only form)
VALUES = [
    ("none", None), ("nothere", "UNDEF"), ("0", 0), ("-0.0", -0.0), ("7", 7), ("-42", -42), ("255", 255), ("1234567", 1234567),
    ("(2**64)", 2**64), ("-(2**100)", -2**100), ("true", True), ("false", False), ("1.5", 1.5), ("-2.5", -2.5), ("0.125", 0.125),
    ("2.675", 2.675), ("1e16", 1e16), ("1e-7", 1e-7), ("123456789.125", 123456789.125), ("1e300", 1e300), ("inf", {"__float__": "inf"}),
    ("-inf", {"__float__": "-inf"}), ("nan", {"__float__": "nan"}), ("''", ""), ("'a'", "a"), ("'abc'", "abc"), ("'ß日😀'", "ß日😀"),
    ("'e\u0301x'", "e\u0301x"), ("'<&>'", "<&>"), ("[1, 'a']", [1, "a"]), ("(1,)", {"__tuple__": [1]}), ("{'a': 1}", {"a": 1}),
    ("'<b>'|safe", {"__markup__": "<b>"}),
]
# inf and nan have no literal (Jinja2 writes a folded one as the unknown
# name inf): their literal form reads w from the context
INF_NAMES = {"inf", "-inf", "nan"}

FILLS = ["", "*<", "*>", "*^", "0=", "é^", "😀>", "<", ">", "^", "=", " ="]
SIGNS = ["", "+", "-", " "]
ALTS = ["", "z", "#", "0", "#0", "z#0"]
WIDTHS = ["", "1", "8", "012", "25"]
GROUPS_ = ["", ",", "_"]
PRECS = ["", ".0", ".1", ".3", ".12", "."]
TYPES = ["", "s", "d", "n", "c", "b", "o", "x", "X", "e", "E", "f", "F", "g", "G", "%", "r", "Y", "%Y"]


def specs():
    """A diagonal through the spec grammar: every part's every choice at
    least with each type, not the whole product."""
    out = set()
    parts = [FILLS, SIGNS, ALTS, WIDTHS, GROUPS_, PRECS]
    for ti, t in enumerate(TYPES):
        for k in range(18):
            spec = ""
            for pi, p in enumerate(parts):
                spec += p[(k * (pi + 3) + ti * (pi + 1) + pi) % len(p)]
            out.add(spec + t)
        out.add(t)
    out.update(["%Y-%m-%d", "%H:%M:%S", "%", "%%", "{}", ".-1", "99999999999999999999", ".99999999999999999999", "x<", "<<", ",_", "_,", ",s", "=s", "+s", "#s", "z", "zd"])
    return sorted(out)


def lit(v):
    return "w" if v[0] in INF_NAMES else v[0]


def wctx(v, ctx=None):
    """ctx with w, the value of an inf or nan's literal form."""
    ctx = dict(ctx or {})
    if v[0] in INF_NAMES:
        ctx["w"] = v[1]
    return ctx


def format_cases():
    rows = []
    for si, spec in enumerate(specs()):
        for vi, v in enumerate(VALUES):
            l = lit(v)
            ctx = {} if v[1] in (None, "UNDEF") else {"v": v[1]}
            src = "v" if ctx else l
            rows.append(("fmt-%03d-%02d" % (si, vi), "{{ %s.format(%s) }}" % (json.dumps("{:" + spec + "}", ensure_ascii=False), src), ctx, {}))
            if vi % 3 == si % 3:
                rows.append(("fmt-%03d-%02d-l" % (si, vi), "{{ %s.format(%s) }}|{{ %s.format(%s, %s) }}" % (
                    json.dumps("{0!s:" + spec + "}", ensure_ascii=False), l, json.dumps("{0:{1}}", ensure_ascii=False), l, json.dumps(spec, ensure_ascii=False)), wctx(v), {}))
            if vi % 5 == si % 5:
                rows.append(("fmt-%03d-%02d-m" % (si, vi), "{{ (%s|safe).format(%s) }}" % (json.dumps("<{:" + spec + "}>", ensure_ascii=False), src), ctx, {"autoescape": True}))
                rows.append(("fmt-%03d-%02d-d" % (si, vi), "{{ (%s).__format__(%s) }}" % (l, json.dumps(spec, ensure_ascii=False)), wctx(v), {}))
    return rows


PFLAGS = ["", "-", "+", " ", "#", "0", "-0", "+ ", "#0", "- #"]
PWIDTHS = ["", "1", "6", "*", "015"]
PPRECS = ["", ".", ".0", ".2", ".10", ".*"]
PCONVS = ["d", "i", "u", "o", "x", "X", "e", "E", "f", "F", "g", "G", "c", "r", "s", "a", "%", "b"]
STARS = ["3", "-3", "0", "true", "1.5", "(2**31)", "'2'", "none"]


def percent_cases():
    rows = []
    k = 0
    for ci, conv in enumerate(PCONVS):
        for fi, fl in enumerate(PFLAGS):
            for wi, w in enumerate(PWIDTHS):
                for pi, p in enumerate(PPRECS):
                    if (fi + wi + pi) % 2:
                        continue
                    spec = "%" + fl + w + p + conv
                    stars = (w == "*") + (p == ".*")
                    for vi, v in enumerate(VALUES):
                        if (vi + fi + wi + pi + ci) % 5:
                            continue
                        l = lit(v)
                        args = [STARS[(vi + k) % len(STARS)] for _ in range(stars)] + [l]
                        k += 1
                        tpl = "{{ %s %% (%s,) }}" % (json.dumps(spec, ensure_ascii=False), ", ".join(args))
                        rows.append(("pct-%02d-%d-%d-%d-%02d" % (ci, fi, wi, pi, vi), tpl, wctx(v), {}))
                        if stars == 0 and vi % 4 == 0:
                            rows.append(("pct-%02d-%d-%d-%d-%02d-map" % (ci, fi, wi, pi, vi), "{{ %s %% {'k': %s} }}|{{ %s|format(%s) }}" % (
                                json.dumps("%(k)" + spec[1:], ensure_ascii=False), l, json.dumps(spec, ensure_ascii=False), l), wctx(v), {}))
                            rows.append(("pct-%02d-%d-%d-%d-%02d-mk" % (ci, fi, wi, pi, vi), "{{ (%s|safe) %% (%s,) }}" % (json.dumps("<" + spec + ">", ensure_ascii=False), l), wctx(v), {"autoescape": True}))
    return rows


ARG2 = ["0", "1", "-1", "2", "-3", "100", "(2**64)", "-(2**64)", "none", "true", "1.5", "''", "'a'", "'b'", "'ab'", "','", "'ß'", "'😀'", "('a', 'b')", "[1]", "nothere"]
STR2 = ["center", "ljust", "rjust", "count", "find", "rfind", "index", "rindex", "startswith", "endswith", "replace", "split", "rsplit", "encode",
        "strip", "lstrip", "rstrip", "splitlines", "expandtabs", "zfill", "partition", "join", "removeprefix", "maketrans", "translate", "format"]
RECV2 = ["'abcab'", "'a,b,,c'", "''", "'ß😀ß'", "'<i>a</i>'|safe"]
LIST2 = ["index", "count", "copy", "__getitem__", "__contains__"]
DICT2 = ["get", "pop", "setdefault", "fromkeys", "update", "copy", "items", "__getitem__", "__contains__"]
# (no __pow__: an exponent of 2**64 with no modulus builds a huge int)
INT2 = ["to_bytes", "__round__", "__format__", "bit_length", "__divmod__", "conjugate"]


def method2_cases():
    rows = []
    for m in STR2:
        for ri, r in enumerate(RECV2):
            for ai, a in enumerate(ARG2):
                for bi, b in enumerate(ARG2):
                    if (ai + bi + ri) % 3:
                        continue  # a third of the pairs, another third per receiver
                    rows.append(("m2-%s-%d-%02d-%02d" % (m, ri, ai, bi), "{{ %s.%s(%s, %s) }}" % (r, m, a, b), {}, {"autoescape": True} if ri == 4 else {}))
                    if (ai * bi + ri) % 4 == 0:
                        c = ARG2[(ai * 7 + bi) % len(ARG2)]
                        rows.append(("m2-%s-%d-%02d-%02d-3" % (m, ri, ai, bi), "{{ %s.%s(%s, %s, %s) }}" % (r, m, a, b, c), {}, {}))
    for m in LIST2:
        for ri, r in enumerate(["[1, 'a', 1, none]", "(1, 2, 1)", "[]"]):
            for ai, a in enumerate(ARG2):
                for bi, b in enumerate(ARG2):
                    rows.append(("l2-%s-%d-%02d-%02d" % (m, ri, ai, bi), "{{ %s.%s(%s, %s) }}|{{ %s.%s(%s, %s, -1) }}" % (r, m, a, b, r, m, a, b), {}, {}))
    for m in DICT2:
        for ri, r in enumerate(["{'a': 1, 1: 'b', none: 2}", "{}"]):
            for ai, a in enumerate(ARG2):
                for bi, b in enumerate(ARG2):
                    rows.append(("d2-%s-%d-%02d-%02d" % (m, ri, ai, bi), "{{ %s.%s(%s, %s) }}" % (r, m, a, b), {}, {}))
    for m in INT2:
        for ri, r in enumerate(["5", "(-300)", "(2**70)", "true"]):
            for ai, a in enumerate(ARG2):
                for bi, b in enumerate(ARG2 + ["'big'", "'little'", "'>5'"]):
                    if (ai + bi + ri) % 2:
                        continue
                    rows.append(("i2-%s-%d-%02d-%02d" % (m, ri, ai, bi), "{{ (%s).%s(%s, %s) }}" % (r, m, a, b), {}, {}))
    return rows


TEXTS3 = ["'one two three four five six seven'", "'a-b-c-d well-known x'", "'ΣΊΣ όδος 日本語テキスト'", "'😀😀 😀 e\u0301e\u0301 a\u2028b c\u00a0d'",
          "'line1\\nline2\\r\\n\\nline4'", "'   '", "''", "'x'", "'<b>a</b> b'|safe"]
FARGS = {
    "indent": ["2, true, true", "'> ', true", "0, false, true", "'\\t', blank=true", "width=3, first=true", "-1, true", "2.5", "none", "true, true", "'', true, true"],
    "truncate": ["5, true, '…', 0", "5, false, '', 2", "3, true, '...', -5", "length=9, killwords=true", "20, leeway=100", "0, true", "1, true, ''", "-1", "4, end=none", "6, false, '>>', 0"],
    "wordwrap": ["3, true, '|', true", "3, false, '|', false", "5, break_on_hyphens=false", "1, true, '\\r\\n'", "2, wrapstring='/'", "10, false", "0", "-1", "4.5", "3, true, none"],
    "replace": ["'o', '0', 1", "'o', '0', -1", "'o', '0', 0", "'', '.', 3", "' ', '', 2", "'Σ', 'x', count=5", "'e\u0301', 'E'", "1, 2", "none, 'x'", "'o', '0', true"],
    "center": ["20", "0", "-5", "45", "3.5", "width=30", "none", "true", "'9'", "(2**10)"],
    "wordcount": [""], "title": [""], "capitalize": [""],
    "urlize": ["10, true, '_blank'", "3", "trim_url_limit=5, nofollow=true", "none, false, none, 'x'", "extra_schemes=['ftp:']"],
    "dictsort": ["true, 'value', true", "false, 'key', false", "by='value', reverse=true", "case_sensitive=true"],
    "filesizeformat": ["true", "false", "binary=true"],
    "round": ["2, 'floor'", "0, 'ceil'", "-1, 'common'", "precision=3, method='floor'", "1, 'nope'"],
    "groupby": ["0, 'd', true", "attribute=0, default=none, case_sensitive=true", "'x', default=1"],
    "unique": ["true, 0", "case_sensitive=true, attribute=0", "false"],
    "sum": ["0, 1", "attribute=0, start=[]", "start=0.5"],
    "join": ["'-', 0", "d='|', attribute=0", "''"],
    "batch": ["2, 'x'", "3, fill_with=none", "1"],
    "slice": ["2, 'x'", "3, fill_with=0", "5"],
}


def filter3_cases():
    rows = []
    for f, argl in FARGS.items():
        for ti, t in enumerate(TEXTS3):
            for ai, a in enumerate(argl):
                rows.append(("f3-%s-%d-%02d" % (f, ti, ai), "{{ %s|%s(%s) }}" % (t, f, a) if a else "{{ %s|%s }}" % (t, f), {}, {"autoescape": True} if ti == 8 else {}))
                rows.append(("f3-%s-%d-%02d-ctx" % (f, ti, ai), "{{ v|%s(%s) }}|{{ (v|list)|%s(%s) }}" % (f, a, f, a), {"v": eval_py_str(t)}, {}))
    return rows


def eval_py_str(t):
    if t.endswith("|safe"):
        return {"__markup__": eval(t[:-5])}
    return eval(t)


NUMSTRS = ["'  1_000 '", "'0x1f'", "'0X1F'", "'0b101'", "'0o17'", "'017'", "'1e3'", "'1E+3'", "'inf'", "'-inf'", "'+Infinity'", "'-nan'", "'nAn'", "'1_0.5'",
           "'1.0_1'", "'1__0'", "'_1'", "'1_'", "'-0'", "'-0.0'", "'2.5'", "'3.5'", "'-2.5'", "'0.125'", "'2.675'", "'1e308'", "'1e309'", "'1e-400'", "'9' * 25",
           "'12abc'", "''", "' '", "'١٢٣'", "'٣.٥'", "'１２'", "'²'", "'12\\n'", "'12\u00a0'", "'\u200b12'", "'.5'", "'5.'", "'0x'", "'+0b1'", "'-0x_f'", "'true'"]
NUMFILTERS = ["int", "int(7)", "int(base=16)", "int(0, 0)", "int(0, 2)", "int(0, 8)", "int(0, 36)", "int(base=1)", "int(none)", "int('d', 0)", "float", "float(1.5)",
              "float(none)", "float('d')", "round", "round(1)", "round(2, 'floor')", "round(0, 'ceil')", "round(-1)", "float|round(2)", "float|round(-2, 'floor')",
              "float|int", "int|float", "float|string", "int|string", "float|round|int", "float|abs", "int|abs", "float|filesizeformat", "float|tojson"]


def numstr_cases():
    rows = []
    for si, s in enumerate(NUMSTRS):
        for fi, f in enumerate(NUMFILTERS):
            rows.append(("ns-%02d-%02d" % (si, fi), "{{ %s|%s }}" % (s, f), {}, {}))
            rows.append(("ns-%02d-%02d-ctx" % (si, fi), "{{ v|%s }}" % f, {"v": eval(s)}, {}))
    return rows


GROUPS = {"formats": format_cases, "percent": percent_cases, "methods2": method2_cases, "filters3": filter3_cases, "numstrs": numstr_cases}


def main():
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "oracle"))
    import oracle  # oracle.py beside this script
    oracle.sweep_main("sweep17", GROUPS, {"exact_message": True})


if __name__ == "__main__":
    main()
