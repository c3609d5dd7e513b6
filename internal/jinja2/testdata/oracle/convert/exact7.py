#!/usr/bin/env python3
"""Issue 23's seventh round: what the package did differently from Jinja2
after the eighth FuzzPython generator (docs/FUZZING.md), each made small.

    python3 convert/exact7.py     # -> cases/exact7.json

As convert/fuzzfound8.py: Python's Jinja2 decides what each entry prints
or raises (oracle.py); the note says what the package did before. A note
starting "exact:" compares the message word for word (a SyntaxError of
Python's compiler without its "(<template>, line N)", a line of the code
Jinja2 generated).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

M = "{% macro m(a, a) %}{% endmacro %}"

# (name, template, context, note[, env[, loader]])
FOUND = [
    # a parameter named twice: Python's compiler refuses the generated function
    ("macro-dup-param", "{% macro m(a, a) %}{{ a }}{% endmacro %}x", {}, "exact: duplicate argument 'l_1_a' in function definition (the package compiled it)"),
    ("macro-dup-param-default", "{% macro m(a, b=1, a=2) %}{% endmacro %}", {}, "exact: with defaults"),
    ("macro-dup-param-third", "{% macro m(a, b, a) %}{% endmacro %}", {}, "exact: not adjacent"),
    ("macro-dup-param-caller", "{% macro m(caller, caller) %}{% endmacro %}", {}, "exact: caller named twice"),
    ("macro-dup-param-unreached", "{% if false %}" + M + "{% endif %}x", {}, "exact: at compile time, in a branch never taken"),
    ("callblock-dup-param", "{% macro m() %}{% endmacro %}{% call(a, a) m() %}{% endcall %}", {}, "exact: a call block's parameters"),
    ("macro-dup-param-depth-macro", "{% macro o() %}" + M + "{% endmacro %}", {}, "exact: l_2_a in a macro"),
    ("macro-dup-param-depth-for", "{% for x in y %}" + M + "{% endfor %}", {}, "exact: l_2_a in a loop"),
    ("macro-dup-param-depth-for-else", "{% for x in y %}{% else %}" + M + "{% endfor %}", {}, "exact: and its else"),
    ("macro-dup-param-depth-nested-for", "{% for x in y %}{% for z in x %}" + M + "{% endfor %}{% endfor %}", {}, "exact: l_3_a"),
    ("macro-dup-param-depth-with", "{% with %}" + M + "{% endwith %}", {}, "exact: with opens a frame"),
    ("macro-dup-param-depth-filter", "{% filter upper %}" + M + "{% endfilter %}", {}, "exact: a filter block too"),
    ("macro-dup-param-depth-set", "{% set x %}" + M + "{% endset %}", {}, "exact: a set block too"),
    ("macro-dup-param-depth-autoescape", "{% autoescape true %}" + M + "{% endautoescape %}", {}, "exact: an autoescape tag too"),
    ("macro-dup-param-depth-if", "{% if 1 %}{% else %}" + M + "{% endif %}", {}, "exact: an if does not"),
    ("macro-dup-param-depth-callblock", "{% macro m() %}{% endmacro %}{% call(x) m() %}{% call(a, a) m() %}{% endcall %}{% endcall %}", {}, "exact: a call block in a call block"),
    ("macro-dup-param-block", "{% block b %}" + M + "{% endblock %}", {}, "exact: a block's body is a frame of depth 0"),
    ("macro-dup-param-order-block-last", "{% block b %}{% macro m(a, a) %}{% endmacro %}{% endblock %}{% macro n(b, b) %}{% endmacro %}", {}, "exact: the top level is compiled before the blocks"),
    ("macro-dup-param-order-nested-blocks", "{% block a %}{% block b %}{% macro n(b, b) %}{% endmacro %}{% endblock %}{% macro m(a, a) %}{% endmacro %}{% endblock %}{% block c %}{% macro o(c, c) %}{% endmacro %}{% endblock %}", {}, "exact: blocks in the order they start"),
    ("macro-dup-param-order-first", "{% macro m(a, a) %}{% endmacro %}{% macro n(b, b) %}{% endmacro %}", {}, "exact: the first in the source"),
    ("macro-dup-param-extends", "{% extends 'base' %}" + M, {}, "exact: in a template that extends another", {}, {"base": "B"}),
    ("macro-dup-param-after-break", "{% break %}" + M, {}, "exact: Python reads the symbols before it compiles 'break'", {"extensions": ["loopcontrols"]}),
    ("macro-dup-param-before-break", M + "{% continue %}", {}, "exact: whatever the order", {"extensions": ["loopcontrols"]}),
    ("macro-dup-param-syntax-first", M + "{{ 1 + }}", {}, "exact: the parser's error comes first"),
    ("macro-dup-param-assertion-first", M + "{{ x|nofilter }}", {}, "exact: Jinja2's code generator's error comes first"),
    ("macro-default-follows-dup", "{% macro m(a=1, a) %}{% endmacro %}", {}, "exact: non-default argument follows default argument is the parser's"),
]


def main():
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_found("exact7.json", "exact7", "issue 23, seventh round", "internal/jinja2/testdata/oracle/convert/exact7.py", FOUND)


if __name__ == "__main__":
    main()
