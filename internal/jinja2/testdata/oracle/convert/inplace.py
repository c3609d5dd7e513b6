#!/usr/bin/env python3
"""The forms the runtime writes in place, as cases.

    python3 convert/inplace.py     # -> cases/inplace.json

A float, list, tuple or dict printed (its repr written straight into the
output), reprs of strs with quotes, backslashes, controls and non-ASCII;
a macro called in {{ m(...) }} or by a call block (its body writes where
the call is printed), with arguments, keywords, varargs, kwargs, caller,
errors and autoescape; a loop over d.items(), d.values() and d.keys()
(walked in place), with break, continue, else, the loop variable, a
filter, a mutation of the dict, the sandbox, and x that is no dict; a
macro of an included template that outlives the include (the render keeps
what includes run in). Python's Jinja2 decides what each prints or raises
(oracle.py).
"""
import handmade

D = {"b": 2, "a": [1, 2.5, None, True], "c": {"it's": "say \"hi\"\n", "t": {"__tuple__": [1]}}}

MACROS = """{% macro m(a, b=2) %}[{{ a }}{{ b }}{{ varargs }}{{ kwargs }}]{% endmacro -%}
{% macro plain(a) %}<{{ a }}>{% endmacro -%}
{% macro wrap(x) %}({{ caller(x) }}){% endmacro -%}"""

INCLUDES = {
    "main": "{% set ns = namespace() %}{% include 'a' %}{% for i in range(5) %}{% include 'b' %}{% endfor %}|{{ ns.m(7) }}|{{ ns.l }}",
    "a": "{% set x = 'ax' %}{% macro m(v) %}[{{ x }} {{ v }} {% include 'b' %}]{% endmacro %}{% set ns.m = m %}{% set ns.l = [x, x ~ '!'] %}",
    "b": "{% set y = i|default('-') %}({{ y }}{% include 'c' %})",
    "c": "{{ y }}",
}

# (name, template, context, env, loader)
CASES = [
    ("repr-values", "{{ d }}|{{ f }}|{{ l }}|{{ t }}|{{ e }}|{{ [] }}|{{ () }}|{{ {} }}",
     {"d": D, "f": 0.1, "l": ["a\\b", "\t\x00\x7f", "é\u00a0\u200b\U0001F600", "'", '"', "'\""], "t": {"__tuple__": ["x"]}, "e": 1e22}, {}, None),
    ("repr-values-autoescape", "{{ d }}|{{ l }}|{{ f }}", {"d": {"<": "&"}, "l": [{"__markup__": "<b>"}, "<i>"], "f": 2.5}, {"autoescape": True}, None),
    ("repr-nested-self", "{% set l = [1] %}{% do l.append(l) %}{{ l }}{% set d = {} %}{% do d.update({'d': d}) %}{{ d }}", {}, {"extensions": ["do"]}, None),
    ("repr-big-int", "{{ [2**70, -2**65] }}{{ {'k': 10**30} }}", {}, {}, None),
    ("macro-printed", MACROS + "{{ m(1) }}{{ m(1, 3, 4, 5) }}{{ m(b=5, a=0, z=1) }}{{ plain('<x>') }}{{ plain(a=[1]) }}", {}, {}, None),
    ("macro-printed-autoescape", MACROS + "{{ plain('<x>') }}{{ plain(s) }}{{ m(s) }}", {"s": {"__markup__": "<b>"}}, {"autoescape": True}, None),
    ("macro-printed-missing-argument", MACROS + "{{ plain() }}", {}, {}, None),
    ("macro-printed-too-many", MACROS + "{{ plain(1, 2) }}", {}, {}, None),
    ("macro-printed-bad-keyword", MACROS + "{{ plain(1, z=2) }}", {}, {}, None),
    ("macro-printed-error-in-body", "{% macro bad() %}ab{{ 1 // 0 }}{% endmacro %}x{{ bad() }}", {}, {}, None),
    ("macro-printed-args-error", MACROS + "{{ plain(1 // 0) }}", {}, {}, None),
    ("macro-printed-not-a-macro", "{{ range(3) }}{{ dict(a=1) }}{{ f(1, 2) }}", {"f": {"__func__": "add"}}, {}, None),
    ("macro-printed-undefined", "{{ nothere(1) }}", {}, {}, None),
    ("macro-printed-in-expression", MACROS + "{{ plain(1) ~ plain(2) }}{{ plain(3)|upper }}{{ plain(4) * 2 }}{% set x = plain(5) %}{{ x }}{{ x|length }}", {}, {}, None),
    ("macro-printed-nested", MACROS + "{% macro outer(n) %}{{ plain(n) }}{% if n %}{{ outer(n - 1) }}{% endif %}{% endmacro %}{{ outer(3) }}", {}, {}, None),
    ("macro-printed-caller", MACROS + "{% call(y) wrap(7) %}{{ y }}{{ plain(y) }}{% endcall %}", {}, {}, None),
    ("macro-printed-caller-arguments", MACROS + "{% call wrap(1) %}no args{% endcall %}", {}, {}, None),
    ("macro-call-block-kwargs", "{% macro k() %}{{ kwargs }}{{ caller() }}{% endmacro %}{% call k(a=1, b=[2]) %}C{% endcall %}", {}, {}, None),
    ("macro-call-block-no-caller", "{% macro nc(a) %}{{ a }}{% endmacro %}{% call nc(1) %}C{% endcall %}", {}, {}, None),
    ("macro-call-block-not-a-macro", "{% call f(1) %}C{% endcall %}", {"f": {"__func__": "count_args"}}, {}, None),
    ("macro-call-block-autoescape", "{% macro w() %}<{{ caller() }}>{% endmacro %}{% call w() %}{{ '<&>' }}{% endcall %}", {}, {"autoescape": True}, None),
    ("macro-caller-without-call", MACROS + "{{ wrap(1) }}", {}, {}, None),
    ("macro-imported", "{% from 'lib' import p, ns_init %}{% set ns = namespace() %}{{ ns_init(ns) }}{{ p(ns.a) }}{{ p(ns.b) }}", {},
     {}, {"lib": "{% macro p(x) %}<{{ x }}>{% endmacro %}{% macro ns_init(ns) %}{% set ns.a = 1 %}{% set ns.b = 'two' %}{% endmacro %}"}),
    ("macro-self-and-module", "{% import 'lib' as lib %}{{ lib.p(1) }}{% macro q() %}Q{% endmacro %}{{ self.blk() }}{% block blk %}B{{ q() }}{% endblock %}", {},
     {}, {"lib": "{% macro p(x) %}<{{ x }}>{% endmacro %}"}),
    ("macro-repr-and-attributes", MACROS + "{{ m }}|{{ m.name }}|{{ m.arguments }}|{{ m.catch_kwargs }}|{{ m.catch_varargs }}|{{ m.caller }}|{{ wrap.caller }}|{{ [plain] }}", {}, {}, None),
    ("macro-call-block-caller-repr", "{% macro r() %}{{ caller }}|{{ caller.name }}|{{ caller.arguments }}{% endmacro %}{% call(a, b) r() %}{% endcall %}", {}, {}, None),
    ("dict-items", "{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}|{% for k in d.keys() %}{{ k }}{% endfor %}|{% for v in d.values() %}{{ v }}{% endfor %}", {"d": D}, {}, None),
    ("dict-items-empty-else", "{% for k, v in d.items() %}x{% else %}empty{% endfor %}{% for k in d.keys() %}x{% else %}E{% endfor %}{% for v in d.values() %}x{% else %}V{% endfor %}", {"d": {}}, {}, None),
    ("dict-items-break-continue", "{% for k, v in d.items() %}{% if v == 2 %}{% continue %}{% endif %}{{ k }}{% if v == 3 %}{% break %}{% endif %}{% else %}E{% endfor %}|{% for k, v in d.items() %}{% break %}{% else %}E{% endfor %}|{% for k, v in d.items() %}{% continue %}{% else %}E{% endfor %}",
     {"d": {"a": 1, "b": 2, "c": 3, "e": 4}}, {"extensions": ["loopcontrols"]}, None),
    ("dict-items-loop-variable", "{% for k, v in d.items() %}{{ loop.index }}{{ k }}{{ loop.last }}{{ loop.previtem }}{{ loop.length }};{% endfor %}{% for v in d.values() %}{{ loop.revindex }}{{ loop.nextitem }}{{ loop.cycle('x', 'y') }}{% endfor %}", {"d": {"a": 1, "b": [2]}}, {}, None),
    ("dict-items-filter", "{% for k, v in d.items() if v > 1 %}{{ k }}{{ v }}{% else %}E{% endfor %}|{% for k in d.keys() if k != 'a' %}{{ k }}{% endfor %}|{% for v in d.values() if v is odd %}{{ loop.index }}{{ v }}{% endfor %}", {"d": {"a": 1, "b": 2, "c": 3}}, {}, None),
    ("dict-items-one-name", "{% for p in d.items() %}{{ p }}{{ p[0] }}{% endfor %}", {"d": {"a": 1}}, {}, None),
    ("dict-items-three-names", "{% for a, b, c in d.items() %}{% endfor %}", {"d": {"a": 1}}, {}, None),
    ("dict-items-unpack-key", "{% for (a, b), v in d.items() %}{{ a }}{{ b }}{{ v }}{% endfor %}", {"d": {"__dict__": [[{"__tuple__": [1, 2]}, 3]]}}, {}, None),
    ("dict-items-shadow", "{% set k = 'K' %}{% for k, v in d.items() %}{{ k }}{% set v = v * 2 %}{{ v }}{% endfor %}{{ k }}", {"d": {"a": 1, "b": 2}}, {}, None),
    ("dict-items-nested", "{% for k, v in d.items() %}{% for k2, v2 in v.items() %}{{ k }}.{{ k2 }}={{ v2 }} {% endfor %}{% endfor %}", {"d": {"x": {"p": 1, "q": 2}, "y": {}}}, {}, None),
    ("dict-items-update-value", "{% for k, v in d.items() %}{{ k }}{{ v }}{% do d.update({'b': 9}) %}{% endfor %}|{% for v in d.values() %}{{ v }}{% do d.update({'a': 7}) %}{% endfor %}", {"d": {"a": 1, "b": 2}}, {"extensions": ["do"]}, None),
    ("dict-items-grow", "{% for k, v in d.items() %}{{ k }}{% do d.update({'z': 9}) %}{% endfor %}", {"d": {"a": 1, "b": 2}}, {"extensions": ["do"]}, None),
    ("dict-keys-shrink", "{% for k in d.keys() %}{{ k }}{% do d.pop('b') %}{% endfor %}", {"d": {"a": 1, "b": 2}}, {"extensions": ["do"]}, None),
    ("dict-values-grow-last", "{% for v in d.values() %}{{ v }}{% if loop.last %}{% do d.update({'z': 9}) %}{% endif %}{% endfor %}", {"d": {"a": 1, "b": 2}}, {"extensions": ["do"]}, None),
    ("dict-items-grow-break", "{% for k, v in d.items() %}{{ k }}{% do d.update({'z': 9}) %}{% break %}{% endfor %}{{ d|length }}", {"d": {"a": 1, "b": 2}}, {"extensions": ["do", "loopcontrols"]}, None),
    ("dict-items-grow-continue", "{% for k, v in d.items() %}{{ k }}{% do d.update({'z': 9}) %}{% continue %}{% endfor %}", {"d": {"a": 1, "b": 2}}, {"extensions": ["do", "loopcontrols"]}, None),
    ("dict-items-sandbox", "{% for k, v in d.items() %}{{ k }}{{ v }}{% endfor %}{% for v in d.values() %}{{ v }}{% endfor %}{% for k in d.keys() %}{{ k }}{% endfor %}", {"d": {"a": 1, "_b": 2}}, {"sandbox": True}, None),
    ("dict-items-not-a-dict", "{% for k, v in l.items() %}{% endfor %}", {"l": [1]}, {}, None),
    ("dict-items-undefined", "{% for k, v in u.items() %}{% endfor %}", {}, {}, None),
    ("dict-items-none", "{% for k in n.keys() %}{% endfor %}", {"n": None}, {}, None),
    ("dict-items-markup-key", "{% for k, v in d.items() %}{{ k }}{{ v }}{% endfor %}", {"d": {"<a>": {"__markup__": "<b>"}}}, {"autoescape": True}, None),
    ("dict-items-recursive", "{% for k, v in d.items() recursive %}{{ k }}{% if v is mapping %}({{ loop(v.items()) }}){% endif %}{% endfor %}", {"d": {"a": {"b": {"c": 1}}, "d": 2}}, {}, None),
    ("dict-items-with-arguments", "{% for k in d.keys(1) %}{% endfor %}", {"d": {"a": 1}}, {}, None),
] + [
    # An include runs in a context and frame the render keeps (Ctx.newInclude):
    # a macro an included template defines, kept in a namespace, reads that
    # template's frame after the include and eleven more (nested, in a loop)
    # have ended; TestIncludeRunsLiveToRenderEnd renders these again and again.
    ("include-macro-outlives-include" + suffix, INCLUDES["main"], {}, env, INCLUDES)
    for suffix, env in (("", {}), ("-sandbox", {"sandbox": True}))
] + [
    # An included template that makes more loop states than the render
    # keeps room for: the new array of loop states (Ctx.newLoop) leaves the
    # contexts and frames of the includes alone, the running one included.
    ("include-more-loops-than-kept",
     "{% set x = 'X' %}{% for b in [1, 2] %}{% include 'loops' %}{{ loop.index }}{% endfor %}{{ x }}", {}, {},
     {"loops": "{% set x = 'i' %}" + "{% for a in 'ab' %}{{ loop.index }}{% endfor %}" * 9 + "[{{ x }}]"}),
]


def main():
    handmade.write_rows("inplace", CASES)


if __name__ == "__main__":
    main()
