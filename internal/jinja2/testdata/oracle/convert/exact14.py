#!/usr/bin/env python3
"""Issue 23's fourteenth round: what the fourteenth generator and this
round's sweeps (testdata/sweep14.py: every filter and str method over odd
values, whitespace around every tag kind) found, each made small.

    python3 convert/exact14.py     # -> cases/exact14.json

A hand-made list (handmade.py).
"""
import handmade

# (name, template, context, note[, env[, loader]])
FOUND = []

# markupsafe leaves str's predicates (isalnum ... isupper) to str, and
# Jinja2 calls the method bound to the Markup: CPython's bound builtin
# method names the receiver's type, "Markup.isupper() takes no arguments
# (1 given)"; the package said str.isupper()
PREDICATES = ["isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric", "isprintable", "isspace", "istitle", "isupper"]
for p in PREDICATES:
    for i, call in enumerate(["(1)", "('a', 2)", "(x=1)", "(*[1])", "(**{'k': 1})", "()", "(*[])"]):
        FOUND.append(("markup-%s-%d" % (p, i), "{{ m.%s%s }}|{{ s.%s%s }}" % (p, call, p, call), {"m": {"__markup__": "<b>"}, "s": "ab"},
                      "exact: a str predicate bound to a Markup names Markup"))
        FOUND.append(("markup-%s-%d-lit" % (p, i), "{{ ('<i>'|safe).%s%s }}" % (p, call), {}, "exact: a str predicate bound to a Markup names Markup"))

if __name__ == "__main__":
    handmade.write("exact14", "issue 23's fourteenth round", "internal/jinja2/testdata/oracle/convert/exact14.py", FOUND)
