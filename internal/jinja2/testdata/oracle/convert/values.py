#!/usr/bin/env python3
"""Writes cases/values.json: generated expressions over Python's values.

    python3 internal/jinja2/testdata/oracle/convert/values.py     # -> cases/values.json

Each case prints one expression built at random (seeded, so the file is
reproducible) from literals and context values (huge ints, -0.0, 1e3,
inf, Unicode strings with quotes, nested lists and dicts, an undefined
name) with operators, filters, tests and methods. Most combinations are
type errors; those check that the package raises where Jinja2 raises.
The expectations come from oracle.py, as for every case file
(suite.write_cases writes the file and has oracle.py render it).
"""
import random

import suite

rng = random.Random(23)

ATOMS = ["0", "1", "-1", "7", "-7", "2", "3", "4611686018427387904", "100000000000000000000", "0.5", "-0.0", "1e3",
         "1.5e16", "0.1", "3.0", "2.5", "'a'", "\"it's\"", "'ß'", "'x\\ny'", "' 1 2 '", "'Hello World'", "''", "'12'",
         "'\u00e9t\u00e9'", "'a,b'", "[1, 'a']", "[3, 1, 2]", "[]", "{'a': 1, 'b': [2]}", "{}", "(1,)", "none", "true",
         "false", "s", "n", "f", "l", "d", "u", "big", "m", "inf", "q", "e"]
SMALL = ["0", "1", "2", "3", "-1", "-2"]
BINOPS = ["+", "-", "*", "/", "//", "%", "~", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "and", "or"]
FILTERS = ["abs", "length", "list", "first", "last", "upper", "lower", "title", "capitalize", "trim", "join(', ')",
           "join", "sort", "sort(reverse=true)", "reverse|list", "unique|list", "min", "max", "sum", "int", "float",
           "round", "round(1)", "round(1, 'floor')", "string", "tojson", "default('x')", "d(1, true)", "items|list",
           "dictsort", "dictsort(by='value')", "map('upper')|list", "map('string')|list", "select|list",
           "reject('odd')|list", "batch(2)|list", "slice(2)|list", "center(9)", "indent(2)", "indent(2, true)",
           "truncate(5)", "wordcount", "replace('a', 'b')", "format(1)", "pprint", "e", "striptags", "urlencode",
           "filesizeformat", "count", "wordwrap(5)", "int(-1)", "float('x')", "safe", "forceescape", "xmlattr",
           "groupby(0)|list", "selectattr('real')|list", "map(attribute='real')|list", "sum(start=1)", "first|string",
           "list|length", "join('-', attribute=0)", "attr('upper')", "sort(attribute=0)|list", "unique(attribute=0)|list"]
TESTS = ["defined", "undefined", "none", "number", "string", "odd", "even", "divisibleby(3)", "sequence", "mapping",
         "iterable", "eq(1)", "in([1, 'a'])", "lower", "upper", "sameas(1)", "boolean", "integer", "float", "true",
         "false", "callable", "escaped", "ge(2)", "lt('b')"]
METHODS = ["upper()", "lower()", "split()", "split(',')", "split(none, 1)", "rsplit(' ', 1)", "strip()", "strip('a')",
           "startswith('a')", "endswith(('a', 'b'))", "replace('a', 'b')", "format(1, x=2)", "count('a')", "find('a')",
           "rfind('a')", "index('a')", "title()", "capitalize()", "isdigit()", "isalpha()", "isspace()", "islower()",
           "keys()|list", "values()|list", "items()|list", "get('a')", "get('z', 0)", "index(1)", "count(1)", "zfill(5)",
           "center(7, '*')", "ljust(4, '.')", "rjust(4)", "splitlines()", "join(['x', 'y'])", "partition(',')",
           "swapcase()", "casefold()", "lstrip()", "rstrip('a')", "bit_length()", "is_integer()", "removeprefix('a')",
           "expandtabs(2)", "isupper()", "istitle()", "isalnum()", "isdecimal()", "isnumeric()"]

CONTEXT = {
    "s": "Mixed Case \u00e9 'q' \"dq\" \\ \t tab",
    "n": 42,
    "f": -2.75,
    "l": [3, "b", [1, 2], None, True, 2.5],
    "d": {"b": 2, "a": 1, "c": [1, {"x": "y"}]},
    "big": 123456789012345678901234567890,
    "m": {"__markup__": "<b>bold</b> &amp;"},
    "inf": {"__float__": "inf"},
    "q": "\u00a0nbsp\u200bzw\U0001F600emoji",
    "e": [],
}


def expr(depth):
    r = rng.random()
    if depth <= 0 or r < 0.25:
        return rng.choice(ATOMS)
    if r < 0.45:
        op = rng.choice(BINOPS)
        return "(%s %s %s)" % (expr(depth - 1), op, expr(depth - 1))
    if r < 0.5:
        return "(%s ** %s)" % (expr(depth - 1), rng.choice(SMALL))
    if r < 0.55:
        return "(-%s)" % expr(depth - 1)
    if r < 0.58:
        return "(not %s)" % expr(depth - 1)
    if r < 0.75:
        return "(%s|%s)" % (expr(depth - 1), rng.choice(FILTERS))
    if r < 0.85:
        return "(%s is %s)" % (expr(depth - 1), rng.choice(TESTS))
    if r < 0.95:
        return "%s.%s" % (expr(depth - 1), rng.choice(METHODS))
    if r < 0.98:
        return "%s[%s]" % (expr(depth - 1), rng.choice(["0", "-1", "'a'", "1:", "::-1", ":2"]))
    return "(%s if %s else %s)" % (expr(depth - 1), expr(depth - 1), expr(depth - 1))


cases = []
seen = set()
while len(cases) < 3000:
    e = expr(3)
    if e in seen:
        continue
    seen.add(e)
    cases.append({"id": "values/%04d" % len(cases), "template": "{{ %s }}" % e, "context_ref": "values"})

suite.write_cases("values.json", {"repo": "rolemark", "path": "internal/jinja2/testdata/oracle/convert/values.py",
                                  "licence": "project"}, cases, contexts={"values": CONTEXT})
