#!/usr/bin/env python3
"""Issue 23's eighth round: the known fuzz difference, the refusals left in
unsupported.txt and what the widened FuzzPython found, each made small.

    python3 convert/exact8.py     # -> cases/exact8.json

As convert/exact7.py: Python's Jinja2 decides what each entry prints or
raises (oracle.py); the note says what the package did before. A note
starting "exact:" compares the message word for word.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

SB = {"sandbox": True}

# (name, template, context, note[, env[, loader]])
FOUND = [
    # a volatile eval context (an autoescape tag whose value is known only at
    # render time): a filter's or test's as_const raises Impossible there and
    # the optimizer does not run, so a print's filter runs its operand as
    # generated: 1[1:5] is a native slice (TypeError), not the folded Undefined
    ("volatile-filter-slice", "{% autoescape x %}{{ 1[1:5]|length }}{% endautoescape %}", {"x": 0}, "exact: 'int' object is not subscriptable (the package folded 1[1:5] and printed 0)"),
    ("volatile-test-slice", "{% autoescape x %}{{ 1[1:5] is undefined }}{% endautoescape %}", {"x": 1}, "exact: a test's as_const too (the package printed True)"),
    ("volatile-filter-default", "{% autoescape x %}{{ none[1:5]|d|length }}{% endautoescape %}", {"x": 1}, "exact: 'NoneType' object is not subscriptable"),
    ("volatile-filter-nested", "{% autoescape x %}{{ 'a' if 1 else [1[1:5]|length] }}{% endautoescape %}", {"x": 1}, "a filter inside a folded expression: the condition folds, the branch is not reached"),
    ("volatile-filter-in-list", "{% autoescape x %}{{ [1[1:5]|length] }}{% endautoescape %}", {"x": 1}, "exact: a list holding a filter does not fold"),
    ("volatile-list-folds", "{% autoescape x %}{{ [1[1:5]] }}|{{ (1[1:5], 2) }}|{{ 1[1:5] ~ 'a' }}|{{ 1[1:5] }}{% endautoescape %}", {"x": 1}, "no filter: the output's child still folds ([Undefined])"),
    ("volatile-set-block", "{% autoescape x %}{% set y %}{{ 1[1:5]|length }}{% endset %}{% endautoescape %}{{ y }}", {"x": 1}, "exact: in a set block"),
    ("volatile-not-volatile", "{% autoescape true %}{{ 1[1:5]|length }}{% endautoescape %}|{{ 1[1:5]|length }}", {}, "a constant autoescape folds the filter: 0|0"),
    ("volatile-autoescape-order", "{% autoescape x is defined %}{{ 1[1:5:-9223372036854775808]|length }}{% endautoescape %}{{ -0.0.__str__ }}", {"x": 1}, "exact: the earlier print's TypeError (the package raised the later one's SecurityError; found by FuzzPython)", SB),
]


def main():
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_found("exact8.json", "exact8", "issue 23, eighth round", "internal/jinja2/testdata/oracle/convert/exact8.py", FOUND)


if __name__ == "__main__":
    main()
