#!/usr/bin/env python3
"""Issue 23's eighteenth round (j2-exact18): what the sixteenth generator
(fuzz_python_gen16_test.go) and its FuzzPython runs found, each made small.

    python3 convert/exact18.py     # -> cases/exact18.json

A hand-made list (handmade.py).
"""
import handmade

# (name, template, context, note[, env[, loader]])
FOUND = []

# super inside a call block's body, a macro's or a caller's within a
# block: Jinja2 declares super in the block's frame when anything in the
# block's body reads it (find_undeclared stops only at nested blocks), and
# the caller or macro reads it from there as a closure; the package gave
# 'super' is undefined outside the block's own function (found by the
# sixteenth generator's first trial)
BASE = "A{% block b %}ab{{ x }}{% endblock %}|{% block o %}o{% block i %}i{% endblock %}{% endblock %}Z"
MID = "{% extends 'base.j2' %}{% block b %}mid({{ super() }}){% endblock %}"
SUPER_BODIES = [
    "{% macro c() %}<{{ caller() }}>{% endmacro %}{% call c() %}c{{ super() }}{% endcall %}",
    "{% macro m() %}m{{ super() }}{% endmacro %}{{ m() }}{{ m() }}",
    "{% macro c(a) %}{{ caller(a) }}{% endmacro %}{% call(v) c(1) %}{{ v }}{{ super() }}{% endcall %}",
    "{% macro c() %}{{ caller() }}{% endmacro %}{% call c() %}{% call c() %}in{{ super() }}{% endcall %}{% endcall %}",
    "{% macro m() %}{% macro n() %}n{{ super() }}{% endmacro %}{{ n() }}{% endmacro %}{{ m() }}",
    "{% macro c() %}{% for i in [1, 2] %}{{ caller() }}{% endfor %}{% endmacro %}{% call c() %}{{ super() }}{% endcall %}",
    "{% for i in [1, 2] %}{% macro c() %}{{ caller() }}{% endmacro %}{% call c() %}{{ i }}{{ super() }}{% endcall %}{% endfor %}",
    "{% macro m() %}{{ super is defined }}{{ super.super is defined }}{% endmacro %}{{ m() }}",
    "{% macro m(f=super) %}{{ f() }}{% endmacro %}{{ m() }}",
    "{% macro m() %}{{ super|string|truncate(33, true, '') }}{% endmacro %}{{ m() }}",
    "{% set f %}{% macro c() %}{{ caller() }}{% endmacro %}{% call c() %}[{{ super() }}]{% endcall %}{% endset %}{{ f|upper }}",
    "{% filter upper %}{% macro m() %}{{ super() }}{% endmacro %}{{ m() }}{% endfilter %}",
    "{% macro m() %}{{ self.i() }}{{ super() }}{% endmacro %}{{ m() }}",
]
for i, body in enumerate(SUPER_BODIES):
    child = "{% extends 'base.j2' %}{% block b %}" + body + "{% endblock %}"
    FOUND.append(("super-in-caller-%02d" % i, child, {"x": 1}, "exact: super in a call block or macro within a block", {}, {"base.j2": BASE}))
    FOUND.append(("super-in-caller-%02d-3" % i, child.replace("'base.j2'", "'mid.j2'"), {"x": 1}, "exact: super in a call block or macro within a block, three levels",
                  {"autoescape": True}, {"base.j2": BASE, "mid.j2": MID}))
    FOUND.append(("super-in-caller-%02d-i" % i, "{% extends 'base.j2' %}{% block i %}" + body + "{% endblock %}", {"x": 1}, "exact: super in a call block or macro within a nested block",
                  {"sandbox": True}, {"base.j2": BASE}))
    FOUND.append(("super-in-caller-%02d-mid" % i, "{% extends 'mid2.j2' %}{% block o %}C{{ super() }}{% endblock %}", {"x": 1}, "exact: super in a call block or macro within the middle template's block",
                  {}, {"base.j2": BASE, "mid2.j2": "{% extends 'base.j2' %}{% block b %}" + body + "{% endblock %}"}))
# no parent block, and super at the top level or in a macro defined
# outside every block: Undefined
for i, t in enumerate(["{% macro c() %}{{ caller() }}{% endmacro %}{% call c() %}{{ super() }}{% endcall %}",
                       "{% macro m() %}{{ super() }}{% endmacro %}{{ m() }}",
                       "{% macro m() %}{{ super is defined }}{% endmacro %}{{ m() }}"]):
    FOUND.append(("super-in-caller-top-%d" % i, t, {}, "exact: super outside every block"))
    FOUND.append(("super-in-caller-noparent-%d" % i, "{% block b %}" + t + "{% endblock %}", {}, "exact: super in a block with no parent block"))
    FOUND.append(("super-in-caller-outside-%d" % i, "{% extends 'base.j2' %}{% macro m2() %}" + t + "{% endmacro %}{% block b %}{{ m2() }}{% endblock %}", {},
                  "exact: super in a macro defined outside the block", {}, {"base.j2": BASE}))


if __name__ == "__main__":
    handmade.write("exact18", "issue 23's eighteenth round", "internal/jinja2/testdata/oracle/convert/exact18.py", FOUND)
