#!/usr/bin/env python3
"""Differences the tenth update of the other projects' suites showed
(issue 23), made small.

    python3 convert/suite10.py     # -> cases/suite10.json

Each entry is the reduced form of a case of a suite converted anew (the
note names it) that the package rendered differently from Jinja2, in a
hand-made list (handmade.py); nothing here is a suite's own expectation.
"""
import handmade

DO = {"extensions": ["do"]}
DEEP = "{%% set ns = namespace(a=[]) %%}{%% for i in range(%d) %%}{%% set ns.a = [ns.a] %%}{%% endfor %%}"
CYC = "{% set a = [1] %}{% set b = [1] %}{% do a.append(a) %}{% do b.append(b) %}"

# (name, template, context, note[, env])
FOUND = [
    # json.dumps keeps the lists and dicts it is inside (check_circular):
    # one met again inside itself is a ValueError, where the package
    # recursed to its depth limit and raised RecursionError
    # (ardanjinja.json, ardanlabs/jinja's TestCircularValues).
    ("tojson-list-in-itself", "{% set a = [1] %}{% do a.append(a) %}{{ a|tojson }}", {},
     "exact: ValueError: Circular reference detected", DO),
    ("tojson-dict-in-itself", "{% set d = {'k': 1} %}{% do d.update({'self': d}) %}{{ d|tojson }}", {},
     "exact: ValueError: Circular reference detected", DO),
    ("tojson-cycle-through-list", "{% set d = {} %}{% set a = [d] %}{% do d.update({'items': a}) %}{{ a|tojson }}", {},
     "exact: ValueError: Circular reference detected, at a", DO),
    ("tojson-cycle-through-tuple", "{% set a = [] %}{% set t = (a,) %}{% do a.append(t) %}{{ t|tojson }}", {},
     "exact: ValueError: a tuple holding a list holding it", DO),
    ("tojson-cycle-indent", "{% set d = {} %}{% do d.update({'self': d}) %}{{ d|tojson(indent=2) }}", {},
     "exact: ValueError: json's Python encoder (with indent) checks too", DO),
    ("tojson-cycle-deep", "{% set a = [] %}{% set b = [[[[a]]]] %}{% do a.append(b) %}{{ [1, {'x': b}]|tojson }}", {},
     "exact: ValueError: a cycle below the top", DO),
    ("tojson-cycle-after-error", "{% set d = {} %}{% do d.update({'a': x, 's': d}) %}{{ d|tojson }}", {},
     "TypeError: the undefined value comes first in sort_keys order", DO),
    ("tojson-cycle-before-error", "{% set d = {} %}{% do d.update({'s': d, 'z': x}) %}{{ d|tojson }}", {},
     "exact: ValueError: the cycle comes first in sort_keys order", DO),
    ("tojson-shared-not-cycle", "{% set d = {'a': [1]} %}{% set l = [d, d, d.a, d.a] %}{{ l|tojson }} {{ {'p': l, 'q': l}|tojson }}", {},
     "the same list or dict twice, neither inside itself: no error", DO),
    ("tojson-empty-in-itself-no", "{% set a = [] %}{% set b = [a, a] %}{{ [b, b]|tojson }}", {},
     "empty lists are not marked", DO),
    ("string-of-cycle", "{% set a = [1] %}{% do a.append(a) %}{{ a }} {{ a|string }} {% set d = {} %}{% do d.update({'d': d}) %}{{ d }}", {},
     "repr writes [...] and {...}", DO),
    # Python compares lists and dicts item by item and raises
    # RecursionError once it goes deeper than its recursion limit: two
    # lists (or dicts) that hold themselves. The package recursed until Go's
    # stack overflowed and the process died (found beside ardanjinja's
    # circular values, by comparing them).
    ("eq-self-holding-lists", CYC + "{{ a == b }}", {}, "RecursionError", DO),
    ("ne-self-holding-lists", CYC + "{{ a != b }}", {}, "RecursionError", DO),
    ("lt-self-holding-lists", CYC + "{{ a < b }}", {}, "RecursionError: the items are compared for == first", DO),
    ("in-self-holding-lists", CYC + "{{ a in b }}", {}, "RecursionError", DO),
    ("not-in-self-holding-lists", CYC + "{{ a not in b }}", {}, "RecursionError", DO),
    ("index-self-holding-lists", CYC + "{{ b.index(a) }}", {}, "RecursionError from list.index", DO),
    ("count-self-holding-lists", CYC + "{{ b.count(a) }}", {}, "RecursionError from list.count", DO),
    ("remove-self-holding-lists", CYC + "{% do b.remove(a) %}{{ b }}", {}, "RecursionError from list.remove", DO),
    ("eq-wrapped-self-holding", CYC + "{{ [a] == [b] }} {{ (a,) == (b,) }}", {}, "RecursionError one level down", DO),
    ("eq-test-self-holding", CYC + "{{ a is eq b }}", {}, "RecursionError from the eq test", DO),
    ("select-eq-self-holding", CYC + "{{ [a]|select('eq', b)|list }}", {}, "RecursionError from select's test", DO),
    ("eq-self-holding-dicts", "{% set d = {} %}{% set f = {} %}{% do d.update({'s': d}) %}{% do f.update({'s': f}) %}{{ d == f }}",
     {}, "RecursionError", DO),
    ("eq-same-self-holding", CYC + "{{ a == a }} {{ [a] == [a] }} {{ a in a }} {{ a.index(a) }} {{ a.count(a) }}", {},
     "the same list: equal without recursing (identity first)", DO),
    ("eq-self-holding-and-finite", CYC + "{{ a == [1, [1, [1]]] }}", {}, "False: the finite side ends it", DO),
    # pprint writes a list, tuple or dict met again inside itself as
    # <Recursion on list with id=…> (its id, compared normalized); the
    # package recursed until Go's stack overflowed.
    ("pprint-list-in-itself", "{% set a = [1, 'x'] %}{% do a.append(a) %}{{ a|pprint }}", {}, "one line, the recursion marked", DO),
    ("pprint-dict-in-itself", "{% set d = {'k': 1} %}{% do d.update({'self': d}) %}{{ d|pprint }}", {}, "a dict's recursion", DO),
    ("pprint-wide-list-in-itself", "{% set a = range(30)|list %}{% do a.append(a) %}{{ a|pprint }}", {},
     "too wide for a line: the item on its own line is the recursion", DO),
    ("pprint-wide-dict-in-list", "{% set a = ['" + "x" * 40 + "'] %}{% set d = {'list': a, 'n': 1} %}{% do a.append(d) %}{{ d|pprint }} {{ a|pprint }}",
     {}, "a cycle through a dict and a list, wide", DO),
    ("pprint-tuple-in-list", "{% set a = [1] %}{% set t = (a, 2) %}{% do a.append(t) %}{{ t|pprint }}", {}, "Recursion on tuple", DO),
    ("pprint-shared-not-recursive", "{% set b = [1, 2] %}{{ [b, b, {'x': b}]|pprint }}", {}, "the same list twice is no recursion", DO),
    ("pprint-recursion-escaped", "{% set a = [1] %}{% do a.append(a) %}{{ a|pprint }}", {}, "autoescaped", dict(DO, autoescape=True)),
    # repr of lists nested deeper than Python's recursion limit allows is
    # a RecursionError (about 990 levels print: the exact depth depends on
    # the frames of the process rendering, so none near it is here); the
    # package printed any depth, in time quadratic in it and, deep enough,
    # until Go's stack overflowed.
    ("repr-deep-900", DEEP % 900 + "{{ ns.a|length }}{{ ns.a|string|length }}", {}, "900 levels print"),
    ("repr-deep-1100", DEEP % 1100 + "{{ ns.a }}", {}, "RecursionError"),
    ("repr-deep-dict", "{% set ns = namespace(a={}) %}{% for i in range(1500) %}{% set ns.a = {'k': ns.a} %}{% endfor %}{{ ns.a }}", {},
     "RecursionError for dicts too"),
    ("repr-deep-20000", DEEP % 20000 + "{{ ns.a }}", {}, "RecursionError, at once"),
    ("repr-deep-in-list", DEEP % 1200 + "{{ [1, ns.a] }}", {}, "RecursionError inside a list"),
    # pprint's _format takes three Python frames a level: a list nested
    # about 330 deep raises RecursionError (none near the limit here);
    # the package printed it.
    ("pprint-deep-250", DEEP % 250 + "{{ ns.a|pprint|length }}", {}, "250 levels print"),
    ("pprint-deep-400", DEEP % 400 + "{{ ns.a|pprint }}", {}, "RecursionError"),
    ("pprint-deep-dict-400", "{% set ns = namespace(a={}) %}{% for i in range(400) %}{% set ns.a = {'k': ns.a} %}{% endfor %}{{ ns.a|pprint }}",
     {}, "RecursionError for dicts too"),
    # json.dumps checks Python's recursion limit at each level: a list
    # nested about 986 deep encodes, where the package raised past 500.
    ("tojson-deep-900", DEEP % 900 + "{{ ns.a|tojson|length }} {{ ns.a|tojson(indent=1)|length }}", {}, "900 levels encode"),
    ("tojson-deep-900-hf", DEEP % 900 + "{{ ns.a|tojson|length }}", {}, "in transformers' environment too", {"profile": "hf"}),
    ("tojson-deep-1100", DEEP % 1100 + "{{ ns.a|tojson }}", {}, "RecursionError"),
]


def main():
    handmade.write("suite10", "convert/suite10.py", "internal/jinja2/testdata/oracle/convert/suite10.py", FOUND)


if __name__ == "__main__":
    main()
