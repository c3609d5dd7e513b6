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

# ... but a store of super or self (a set, for or with target, a macro's
# or a call block's parameter) before the first read, anywhere in the
# block's body, makes find_undeclared forget the name: the block does not
# declare super, and every read of it, in the block or in a caller, is
# the context's; the same for self at the top level and in a block. The
# package read super and self wherever no local held them
STORED = ["{% macro m() %}{{ caller() }}{% endmacro %}{% call m() %}{% set super = 1 %}{{ super }}{% endcall %}{{ super() }}",
          "{% macro m(super) %}{{ super }}{% endmacro %}{{ m(2) }}{{ super() }}",
          "{% for self in [1] %}{% endfor %}{{ self }}",
          "{% for self in [1] %}{{ self }}{% endfor %}{{ self }}",
          "{{ self|string|truncate(20, true, '') }}{% for self in [1] %}{% endfor %}{{ self|string|truncate(20, true, '') }}",
          "{% macro m(self) %}{% endmacro %}{{ self }}",
          "{% set self = 1 %}{{ self }}",
          "{% with self = 1 %}{% endwith %}{{ self }}",
          "{% with a = self %}{% endwith %}{{ self is defined }}",
          "{% filter upper %}{% set self = 1 %}{% endfilter %}{{ self }}",
          "{% macro m() %}{{ self }}{% endmacro %}{% set self = 2 %}{{ m() }}",
          "{% with super = 1 %}{% endwith %}{{ super() }}",
          "{% for x in [1] if super %}{% set super = 1 %}{% endfor %}{{ super() }}",
          "{% for x in [1] if super %}{% endfor %}{% set super = 1 %}{{ super() }}",
          "{% for x in [1] %}{% set super = 1 %}{% endfor %}{{ super() }}",
          "{% call(super) m() %}{% endcall %}{{ super() }}",
          "{% macro m() %}{{ caller() }}{% endmacro %}{% call(super) m() %}{% endcall %}{{ super() }}",
          "{% filter upper %}{{ super() }}{% set super = 1 %}{% endfilter %}",
          "{% filter replace('A', super()) %}{% set super = 1 %}{% endfilter %}",
          "{% set super.x = 1 %}{{ super() }}",
          "{% import 'a.j2' as super %}{{ super() }}",
          "{% macro m() %}{{ caller() }}{% endmacro %}{% call m() %}{% for self in [1] %}{% endfor %}{% endcall %}{{ self|string|truncate(20, true, '') }}",
          "{% set a, (b, super) = 1, (2, 3) %}{{ super }}",
          "{% if false %}{% set super = 1 %}{% endif %}{{ super }}"]
for i, body in enumerate(STORED):
    for j, ctx in enumerate([{"self": "ctx", "super": "sup"}, {}]):
        FOUND.append(("stored-%02d-%d" % (i, j), body, ctx, "exact: self or super stored before it is read, at the top level"))
        FOUND.append(("stored-%02d-%d-block" % (i, j), "{% extends 'a.j2' %}{% block b %}" + body + "{% endblock %}", ctx,
                      "exact: self or super stored before it is read, in a block", {}, {"a.j2": "A{% block b %}ab{% endblock %}Z"}))

# a module imported with context reads the importer's names as they were
# at the import (Template.make_module(context.get_all(), ...): a copy, or
# the render's own dict while nothing is set): what the importer sets
# later is not the module's macros' (found by the sixteenth generator);
# the package read the importer's context as it was at the macro's call
IMPORTED = {"m.j2": "{% macro f() %}[{{ lv }}|{{ x }}]{% endmacro %}{% macro g() %}{{ caller() }}{% endmacro %}{% macro h(caller=none) %}{{ caller }}{% endmacro %}",
            "e.j2": "{% extends 'm.j2' %}{% macro f() %}e[{{ lv }}]{% endmacro %}",
            "c.j2": "{% set lv = 'c' %}{% macro f() %}c[{{ lv }}|{{ x }}]{% endmacro %}"}
for i, t in enumerate(["{% import 'm.j2' as m with context %}{% set lv = 'after' %}{{ m.f() }}",
                       "{% set lv = 'before' %}{% import 'm.j2' as m with context %}{% set lv = 'after' %}{{ m.f() }}",
                       "{% from 'm.j2' import f with context %}{% set lv = 'after' %}{% set x = 2 %}{{ f() }}",
                       "{% set lv = 1 %}{% from 'm.j2' import f with context %}{% set lv = 2 %}{{ f() }}",
                       "{% import 'e.j2' as m with context %}{% set lv = 'after' %}{{ m.f() }}",
                       "{% import 'm.j2' as m %}{% set lv = 'after' %}{{ m.f() }}",
                       "{% for lv in [1, 2] %}{% import 'm.j2' as m with context %}{{ m.f() }}{% endfor %}",
                       "{% set lv = 0 %}{% macro k() %}{% import 'm.j2' as m with context %}{{ m.f() }}{% endmacro %}{{ k() }}{% set lv = 9 %}{{ k() }}",
                       "{% import 'm.j2' as m with context %}{% macro k() %}{{ m.f() }}{% endmacro %}{% set lv = 3 %}{{ k() }}",
                       "{% set ns = namespace(v=1) %}{% import 'm.j2' as m with context %}{% set ns.v = 2 %}{{ m.f() }}",
                       "{% import 'c.j2' as m with context %}{% set lv = 'after' %}{% set x = 5 %}{{ m.f() }}{{ m.lv }}{{ lv }}",
                       "{% set x = 3 %}{% import 'm.j2' as m with context %}{% set x = 4 %}{{ m.f() }}{% include 'c.j2' %}{{ m.f() }}",
                       "{% set lv = 'a' %}{% import 'm.j2' as m1 with context %}{% set lv = 'b' %}{% import 'm.j2' as m2 with context %}{{ m1.f() }}{{ m2.f() }}"]):
    FOUND.append(("import-context-snapshot-%02d" % i, t, {"x": 1}, "exact: a module imported with context reads the names of the import's moment", {}, IMPORTED))
    FOUND.append(("import-context-snapshot-%02d-empty" % i, t, {}, "exact: a module imported with context reads the names of the import's moment", {"sandbox": True}, IMPORTED))

# caller=none given to a macro that reads caller is no caller: Macro.__call__
# pops caller from the keywords and takes None for none given (found by
# the sixteenth generator); the package passed None on
for i, t in enumerate(["{{ g(caller=none) }}", "{{ g(caller=false) }}", "{{ g(caller=nothere) }}", "{{ g(caller=0) }}", "{{ g(none) }}", "{{ h(caller=none) }}|{{ h() }}",
                       "{{ g(caller=none) is defined }}", "{% macro r() %}{{ caller is defined }}{{ caller }}{% endmacro %}{{ r(caller=none) }}",
                       "{% macro r() %}{{ caller is defined }}{% endmacro %}{{ r(**{'caller': none}) }}", "{% macro r() %}{{ caller|default('dflt') }}{% endmacro %}{{ r(caller=none) }}",
                       "{% macro r() %}{{ kwargs }}{{ caller is defined }}{% endmacro %}{{ r(caller=none) }}", "{% macro r(a) %}{{ a }}{{ caller is defined }}{% endmacro %}{{ r(1, caller=none) }}",
                       "{% macro r() %}{{ caller }}{% endmacro %}{{ r(caller=none)|length }}", "{% macro r() %}{{ caller(1) }}{% endmacro %}{{ r(caller=r) }}"]):
    FOUND.append(("caller-none-%02d" % i, "{% from 'm.j2' import g, h %}" + t, {}, "exact: caller=none is no caller", {}, IMPORTED))


if __name__ == "__main__":
    handmade.write("exact18", "issue 23's eighteenth round", "internal/jinja2/testdata/oracle/convert/exact18.py", FOUND)
