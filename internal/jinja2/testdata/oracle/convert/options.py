#!/usr/bin/env python3
"""Jinja2's options and the attributes of its objects, as cases.

    python3 convert/options.py     # -> cases/options.json

The do statement (jinja2.ext.do) with and without the extension,
trim_blocks and lstrip_blocks, and the attributes of a macro (name,
arguments, catch_kwargs, catch_varargs, caller). Python's Jinja2 decides
what each prints or raises (oracle.py).
"""
import handmade

# (name, template, context, env)
CASES = [
    ("do-off", "{% set l = [] %}{% do l.append(1) %}{{ l }}", {}, {}),
    ("do-off-in-for", "{% for x in [1] %}{% do x %}{% endfor %}", {}, {}),
    ("do-off-hf", "{% set l = [] %}{% do l.append(1) %}{{ l }}", {}, {"profile": "hf"}),
    ("do-on", "{% set l = [] %}{% do l.append(1) %}{%- do l.extend([2, 3]) -%}{{ l }}", {}, {"extensions": ["do"]}),
    ("do-on-tuple", "{% set d = {} %}{% do d.update(a=1), d.update(b=2) %}{{ d }}", {}, {"extensions": ["do"]}),
    ("do-on-sandbox", "{% set l = [] %}{% do l.append(1) %}{{ l }}", {}, {"extensions": ["do"], "sandbox": True}),
    ("trim-lstrip-off", "<ul>\n  {% for x in xs %}\n  <li>{{ x }}</li>\n  {% endfor %}\n</ul>\n", {"xs": [1, 2]}, {}),
    ("trim-only", "<ul>\n  {% for x in xs %}\n  <li>{{ x }}</li>\n  {% endfor %}\n</ul>\n", {"xs": [1, 2]}, {"trim_blocks": True}),
    ("lstrip-only", "<ul>\n  {% for x in xs %}\n  <li>{{ x }}</li>\n  {% endfor %}\n</ul>\n", {"xs": [1, 2]}, {"lstrip_blocks": True}),
    ("trim-lstrip", "<ul>\n  {% for x in xs %}\n  <li>{{ x }}</li>\n  {%+ endfor %}\n</ul>\n", {"xs": [1, 2]}, {"trim_blocks": True, "lstrip_blocks": True}),
    ("macro-attributes", "{% macro m(a, b=1) %}{{ varargs }}{% endmacro %}{{ m.name }}|{{ m.arguments }}|{{ m.catch_kwargs }}|{{ m.catch_varargs }}|{{ m.caller }}|{{ m.defaults }}|{{ m }}|{{ m.x }}", {}, {}),
    ("macro-attributes-caller", "{% macro m() %}{{ caller() }}{{ kwargs }}{% endmacro %}{{ m.arguments }}|{{ m.catch_kwargs }}|{{ m.caller }}|{{ m.catch_varargs }}|{{ m.name|upper }}|{{ m.arguments[0] is defined }}", {}, {}),
    ("macro-attributes-explicit-caller", "{% macro m(caller=none) %}{{ caller }}{% endmacro %}{% macro n(caller=none) %}x{% endmacro %}{{ m.arguments }}|{{ m.caller }}|{{ n.caller }}", {}, {}),
    ("macro-attributes-call-block", "{% macro m() %}{{ caller.name }}|{{ caller.arguments }}|{{ caller.caller }}|{{ caller(1) }}|{{ caller }}{% endmacro %}{% call(x, y=2) m() %}{{ x }}{{ varargs }}{% endcall %}", {}, {}),
    ("macro-attributes-sandbox", "{% macro m(a) %}{{ kwargs }}{% endmacro %}{{ m.name }}|{{ m.arguments }}|{{ m.catch_kwargs }}", {}, {"sandbox": True}),
    ("macro-arguments-immutable", "{% macro m(a) %}{% endmacro %}{{ m.arguments.append(1) }}", {}, {}),
    ("macro-imported-attributes", "{% import 'lib' as lib %}{{ lib.m.name }}|{{ lib.m.arguments }}", {}, {}, {"lib": "{% macro m(x, y) %}{% endmacro %}"}),
]


def main():
    handmade.write_rows("options", CASES)


if __name__ == "__main__":
    main()
