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
]


def main():
    handmade.write("suite10", "convert/suite10.py", "internal/jinja2/testdata/oracle/convert/suite10.py", FOUND)


if __name__ == "__main__":
    main()
