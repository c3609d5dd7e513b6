#!/usr/bin/env python3
"""The prints a filter's append form writes (compile_append.go), as cases.

    python3 convert/appendform.py     # -> cases/appendform.json

In the hf profile, whose tojson the Go test gives an append form for
tojson without arguments: tojson printed alone, as an operand of a
printed + or ~ chain, and set to a name only printed or sliced and
printed (the render's string arena); and the forms that must not take
it: tojson with arguments, under {% autoescape %} and a finalize hook, a
filter of a filter, a name also read otherwise, a top-level set, an
operand calling a macro, errors of the filter and of the chain after
it. Python's Jinja2 decides what each prints or raises (oracle.py).
"""
import handmade

HF = {"profile": "hf"}

CALLS = [
    {"function": {"name": "f", "arguments": {"a": 1, "b": "x\"y"}}, "id": "call_1"},
    {"function": {"name": "g", "arguments": "{\"k\": [1, 2.5, null]}"}},
    {"function": {"name": "h\u00e9", "arguments": {}}, "id": "c\u00e9"},
]

MSGS = [
    {"role": "user", "content": "Hi \"there\"\n\u00e9 <b>"},
    {"role": "tool", "content": {"temp": 20, "unit": "C"}},
    {"role": "tool", "content": [1, "two", None, True]},
    {"role": "tool", "content": {"__markup__": "<m>"}},
]

CALL_LOOP = ("{% for tc in calls %}{% set out = tc.function|tojson %}"
             "{% if tc.id is not defined %}{{ out }}{% else %}{{ out[:-1] }}{{ ', \"id\": \"' + tc.id + '\"}' }}{% endif %}"
             "{% if not loop.last %}, {% endif %}{% endfor %}")

# (name, template, context, env)
CASES = [
    ("print", "{% for m in messages %}{{ m.content|tojson }}|{% endfor %}", {"messages": MSGS}, HF),
    ("print-values", "{{ n|tojson }}{{ f|tojson }}{{ b|tojson }}{{ z|tojson }}{{ t|tojson }}{{ e|tojson }}",
     {"n": -3, "f": 1.5e300, "b": False, "z": None, "t": {"__tuple__": [1, "a"]}, "e": ""}, HF),
    ("print-undefined", "A{{ nothing|tojson }}", {}, HF),
    ("print-unserializable", "A{{ x|tojson }}", {"x": {"__dict__": [[1, "a"], [{"__tuple__": [1]}, "b"]]}}, HF),
    ("print-indent", "{{ d|tojson(indent=2) }}|{{ d|tojson(indent=none) }}|{{ d|tojson(sort_keys=true) }}",
     {"d": {"b": [1, {"c": "\u00e9"}], "a": None}}, HF),
    ("print-filter-of-filter", "{{ s|trim|tojson }}{{ s|tojson|length }}", {"s": " a\"b "}, HF),
    ("print-autoescape", "{% autoescape true %}{{ d|tojson }}{{ 'x' + (d|tojson) }}{% set out = d|tojson %}{{ out }}{% endautoescape %}",
     {"d": {"a": "<&>"}}, HF),
    ("print-finalize", "{{ d|tojson }}{{ 'x' + (d|tojson) }}{% set out = d|tojson %}{{ out }}{{ out[1:] }}",
     {"d": {"a": 1}}, {"profile": "hf", "finalize": "twice"}),
    ("chain-content",
     "{% for m in messages %}{{ '{\"content\": ' + (m.content|tojson) + ', \"role\": \"' + m.role + '\"}' }}|{% endfor %}",
     {"messages": MSGS}, HF),
    ("chain-items",
     "{% for key, val in d.items() if key != 'return' %}{% if val is string %}{{ '\"' + key + '\": \"' + val + '\"' }}"
     "{% else %}{{ '\"' + key + '\": ' + val|tojson }}{% endif %}{% if not loop.last %}, {% endif %}{% endfor %}",
     {"d": {"name": "f", "parameters": {"type": "object", "properties": {"x": {"type": "integer"}}}, "return": 1, "n": 2}}, HF),
    ("chain-concat", "{{ 'x' ~ (d|tojson) ~ 1 ~ (s|tojson) ~ none }}", {"d": [1, "a"], "s": "q\""}, HF),
    ("chain-first", "{{ (d|tojson) + '!' }}{{ d|tojson ~ '?' }}", {"d": {"a": [True]}}, HF),
    ("chain-args", "{{ 'x' + d|tojson(indent=1) + 'y' }}{{ 'x' + d|tojson(separators=(',', ':')) }}", {"d": {"a": [1, 2]}}, HF),
    ("chain-error-after", "A{{ 'a' + (d|tojson) + 1 }}", {"d": {"a": 1}}, HF),
    ("chain-error-in-filter", "A{{ 'a' + (x|tojson) + 'b' }}", {"x": {"__dict__": [[{"__tuple__": [1]}, "b"]]}}, HF),
    ("chain-undefined", "A{{ 'a' + (nothing|tojson) + 'b' }}", {}, HF),
    ("chain-markup-left", "{{ m + (d|tojson) }}|{{ m ~ (d|tojson) }}", {"m": {"__markup__": "<m>"}, "d": {"a": "<"}}, HF),
    ("chain-int-left", "{{ 1 + (d|tojson) }}", {"d": 1}, HF),
    ("chain-macro-operand",
     "{% macro m(x) %}<{{ x }}>{% endmacro %}{{ 'a' + (m(1)|tojson) + 'b' }}{{ 'c' ~ (m('q\"')|tojson) }}{{ m(2)|tojson }}",
     {}, HF),
    ("chain-caller-operand",
     "{% macro w() %}[{{ caller()|tojson }}]{{ 'x' + (caller()|tojson) }}{% endmacro %}{% call w() %}in\"{{ 1 }}{% endcall %}",
     {}, HF),
    ("set-calls", CALL_LOOP, {"calls": CALLS}, HF),
    ("set-calls-indent",
     "{% for tc in calls %}{% set out = tc.function|tojson(indent=1) %}{{ out[:-1] }}|{% endfor %}", {"calls": CALLS}, HF),
    ("set-slices",
     "{% set out = d|tojson %}{{ out[::-1] }}|{{ out[2:-2] }}|{{ 'p' + out[1:] + 'q' }}|{{ out[1:] ~ out[:1] }}|{{ out }}",
     {"d": {"k\u00e9": "v"}}, HF),
    ("set-other-read",
     "{% set ns = namespace(l=[]) %}{% for d in ds %}{% set out = d|tojson %}{% set ns.l = ns.l + [out] %}{{ out }}{% endfor %}{{ ns.l }}",
     {"ds": [{"a": 1}, [2], "s"]}, HF),
    ("set-length-read", "{% for d in ds %}{% set out = d|tojson %}{{ out }}{{ out|length }}{% endfor %}", {"ds": [{"a": 1}, "s"]}, HF),
    ("set-flows",
     "{% for d in ds %}{% set out = d|tojson %}{% set line = '<' + out + '>' %}{{ line }}{% set keep = out %}{{ keep[1:] }}{% endfor %}",
     {"ds": [{"a": 1}, "s"]}, HF),
    ("set-top-level", "{% set out = d|tojson %}{{ out[:-1] }}{% set out = out + '!' %}{{ out }}", {"d": {"a": [1]}}, HF),
    ("set-in-macro",
     "{% macro j(x) %}{% set out = x|tojson %}{{ out[1:-1] }}{% endmacro %}{{ j({'a': 1}) }}|{{ j('s') }}|{{ j([1, 2]) }}", {}, HF),
    ("set-error", "{% for d in ds %}{% set out = d|tojson %}{{ out }}{% endfor %}", {"ds": [{"a": 1}, {"__dict__": [[{"__tuple__": [1]}, "b"]]}]}, HF),
    ("set-undefined-slice", "{% set out = nothing|tojson %}{{ out[:-1] }}", {}, HF),
    ("set-constant", "{% set out = 'c\"'|tojson %}{{ out[:-1] }}{% set o2 = [1]|tojson %}{{ o2 }}", {}, HF),
    ("set-twice",
     "{% for d in ds %}{% set out = d|tojson %}{% set out2 = d|tojson %}{{ out2[:1] }}{{ out }}{% endfor %}{{ out is defined }}",
     {"ds": [{"a": "x" * 70}, {"b": "y" * 2000}]}, HF),
    # the built-in tojson (no append form): HTML-safe, keys sorted
    ("builtin", "{{ d|tojson }}{{ 'x' ~ (d|tojson) }}{% set out = d|tojson %}{{ out[:-1] }}", {"d": {"b": "<", "a": 1}}, {}),
]


def main():
    handmade.write_rows("appendform", CASES)


if __name__ == "__main__":
    main()
