#!/usr/bin/env python3
"""The forms compile_fast.go compiles on fast paths, as cases.

    python3 convert/fastpath.py     # -> cases/fastpath.json

A field of a dict compared with a constant (m.role == "user"), tested
(is defined, is none, not m.x) or read; the loop's attributes in values
and conditions, and a list indexed with loop.index0 plus or minus a
constant; and, for each, the values that leave the fast path: a missing
field, a dict method's name, Markup, numbers, Undefined, an int at the
edge of 64 bits, a name that is not the loop. Python's Jinja2 decides
what each prints or raises (oracle.py).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

MSGS = [
    {"role": "system", "content": "S"},
    {"role": "user", "content": "U1"},
    {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "f", "arguments": {"a": 1}}}]},
    {"role": "tool", "content": "T1"},
    {"role": "tool", "content": "T2"},
    {"role": "assistant", "content": "A"},
    {"role": {"__markup__": "user"}, "content": "M"},
    {"role": 1, "content": "N"},
    {"content": "no role", "items": "it", "keys": 2},
]

CHAT = """{%- for m in messages -%}
{%- if (m.role == "user") or (m.role == "system" and not loop.first) or (m.role == "assistant" and not m.tool_calls) -%}
[{{ m.role }}:{{ m.content }}]
{%- elif m.role == "assistant" -%}
<{{ m.role }}{% for tc in m.tool_calls %}{% if tc.function is defined %}{% set tc = tc.function %}{% endif %} {{ tc.name }}={{ tc.arguments|tojson }}{% endfor %}>
{%- elif m.role == "tool" -%}
{%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}(tools{% endif -%}
 {{ m.content }}
{%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}){% endif -%}
{%- else -%}
?{{ m.role is defined }}{{ m.role is none }}{{ m.role is undefined }}{{ m.role == 1 }}{{ m.role != "user" }}
{%- endif -%}
{%- endfor -%}"""

# (name, template, context, env)
CASES = [
    ("chat", CHAT, {"messages": MSGS}, {}),
    ("chat-sandbox", CHAT, {"messages": MSGS}, {"sandbox": True}),
    ("chat-hf", CHAT, {"messages": MSGS}, {"profile": "hf"}),
    ("loop-attributes",
     "{% for x in xs %}{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}{{ loop.revindex0 }}{{ loop.first }}{{ loop.last }}{{ loop.length }}|{% endfor %}",
     {"xs": "abc"}, {}),
    ("loop-attributes-conditions",
     "{% for x in xs %}{% if loop.first %}F{% endif %}{% if not loop.last %}-{% endif %}{% if loop.index0 %}i{% endif %}{% if loop.revindex0 == 0 %}E{% endif %}{% if loop.length > 2 and loop.index is even %}e{% endif %}{% endfor %}",
     {"xs": [1, 2, 3, 4]}, {}),
    ("loop-index-arithmetic",
     "{% for x in xs %}{{ xs[loop.index0 - 1] }}{{ xs[loop.index0 + 1] }}{{ xs[loop.index0 + 1] is defined }}{{ loop.index0 - 0 }}{{ loop.index + -1 }}|{% endfor %}",
     {"xs": ["a", "b", "c"]}, {}),
    ("loop-outer", "{% for x in xs %}{% set outer = loop %}{% for y in xs %}{{ outer.first }}{{ loop.first }}{% endfor %}|{% endfor %}",
     {"xs": [1, 2]}, {}),
    ("loop-named-in-context", "{{ loop.first }}{{ loop.index0 + 1 }}{% if loop.last %}L{% endif %}",
     {"loop": {"first": "f", "index0": 41, "last": 0}}, {}),
    ("loop-recursive", "{% for x in xs recursive %}{{ loop.depth }}{{ loop.first }}{{ loop.last }}{% if x is iterable %}[{{ loop(x) }}]{% endif %}{% endfor %}",
     {"xs": [1, [2, 3], 4]}, {}),
    ("loop-set-refused", "{% for x in xs %}{% set loop = 1 %}{{ loop.first }}{% endfor %}", {"xs": [1]}, {}),
    ("int-edge-plus", "{{ n + 1 }} {{ m - 1 }} {{ n - 1 }} {{ m + 1 }} {{ n + 0 }}",
     {"n": 9223372036854775807, "m": -9223372036854775808}, {}),
    ("int-edge-big", "{{ b + 1 }} {{ b - 1 }}", {"b": 18446744073709551616}, {}),
    ("arith-other-kinds", "{{ t + 1 }} {{ f + 1 }} {{ f - 2 }} {{ t - 1 }}", {"t": True, "f": 1.5}, {}),
    ("arith-str-plus-int", "{{ s + 1 }}", {"s": "a"}, {}),
    ("arith-undefined", "{{ u + 1 }}", {}, {}),
    ("compare-missing", "{{ d.role == 'user' }}{{ d.role != 'user' }}{% if d.role == 'user' %}Y{% else %}N{% endif %}", {"d": {}}, {}),
    ("compare-undefined-object", "{% if u.role == 'user' %}Y{% endif %}", {}, {}),
    ("compare-none-object", "{% if u.role == 'user' %}Y{% endif %}", {"u": None}, {}),
    ("compare-markup", "{{ d.role == 'user' }}{{ d.role != 'user' }}", {"d": {"role": {"__markup__": "user"}}}, {}),
    ("compare-number", "{{ d.n == '1' }}{{ d.n != '1' }}{{ d.n == 1 }}{{ d.x == 1.0 }}", {"d": {"n": 1, "x": 1}}, {}),
    ("compare-list-str", "{{ d.l == 'ab' }}{{ 'ab' == d.l }}{{ d.s == 'ab' }}", {"d": {"l": ["a", "b"], "s": "ab"}}, {}),
    ("compare-method-name", "{{ d.items == 'x' }}{{ d.keys == 2 }}{{ d.get is defined }}{{ d.pop is defined }}", {"d": {"items": "x", "keys": 2, "pop": 1}}, {}),
    ("compare-method-name-sandbox", "{{ d.items == 'x' }}{{ d.pop is defined }}{{ d.pop == 1 }}", {"d": {"items": "x", "pop": 1}}, {"sandbox": True}),
    ("compare-private-sandbox", "{{ d._x is defined }}{{ d._x == 1 }}{{ d.__class__ is defined }}", {"d": {"_x": 1}}, {"sandbox": True}),
    ("compare-private", "{{ d._x is defined }}{{ d._x == 1 }}", {"d": {"_x": 1}}, {}),
    ("compare-chain", "{{ d.a == 'x' == d.b }}{{ d.a < 'y' }}{{ d.a in 'xyz' }}{{ d.a not in 'xyz' }}", {"d": {"a": "x", "b": "x"}}, {}),
    ("compare-order-error", "{{ d.a < 1 }}", {"d": {"a": "x"}}, {}),
    ("tests", "{{ d.a is defined }}{{ d.z is defined }}{{ d.z is undefined }}{{ d.n is none }}{{ d.a is none }}{{ z is defined }}",
     {"d": {"a": 1, "n": None}}, {}),
    ("tests-undefined-attribute-error", "{{ z.y.w is defined }}", {}, {}),
    ("not-and-or", "{{ not d.a }}{{ not d.z }}{{ d.a and d.e }}{{ d.e or d.a }}{% if not d.e and d.a %}Y{% endif %}{% if d.e or not d.a %}N{% endif %}",
     {"d": {"a": [1], "e": ""}}, {}),
    ("attribute-of-list-item", "{{ xs[0].a }}{{ xs[-1].a }}{{ xs[1].a == 2 }}{{ xs[5] is defined }}", {"xs": [{"a": 1}, {"a": 2}]}, {}),
    ("attribute-of-missing-item", "{{ xs[5].a is defined }}", {"xs": [{"a": 1}]}, {}),
    ("item-compare", "{{ d['role'] == 'user' }}{{ d['x'] != 'user' }}{{ l['role'] == 'user' }}{{ s['upper'] is defined }}{% if d['role'] == 'user' %}Y{% endif %}{{ d['role'] }}{{ d['nope'] is defined }}{{ d['items'] == 1 }}{{ d['n'] == '1' }}",
     {"d": {"role": "user", "items": 1, "n": 1}, "l": [1], "s": "ab"}, {}),
    ("item-compare-sandbox", "{{ d['role'] == 'user' }}{{ d['pop'] is defined }}{{ d['_x'] == 1 }}{{ l['append'] is defined }}", {"d": {"role": "user", "_x": 1}, "l": []}, {"sandbox": True}),
    ("item-of-undefined", "{% if u['role'] == 'x' %}Y{% endif %}", {}, {}),
    ("stream-constants", "{{ 'a' + d['c'] + 'b' + 'c' }}|{{ 'x' ~ 1 ~ none ~ 'y' }}|{{ d['c'] + 'z' }}", {"d": {"c": "C"}}, {}),
    ("stream-constant-type-error", "{{ 'a' + 'b' + n + 'c' }}", {"n": 1}, {}),
    ("stream-constants-autoescape", "{{ '<a>' + d['c'] + '&' }}|{{ '<' ~ m ~ '>' }}", {"d": {"c": "<C>"}, "m": {"__markup__": "<b>"}}, {"autoescape": True}),
    ("literal-built-once-sandbox", "{% for i in [1, 2] %}{% set d = {'a': [1, (2, 3)], 'b': {'c': 'x'}, 'a': 0} %}{{ d }}{{ d.b.c }}{{ d.update is defined }}{{ d is sameas d }}|{% endfor %}{{ [1, 2] + [3] }}{{ {'k': 1, 'j': 2}|dictsort }}{{ [] }}{{ {} }}",
     {}, {"sandbox": True}),
    ("literal-sameas-sandbox",
     "{% set ns = namespace(p=none, q=none) %}{% for i in range(2) %}{% set c = [1] %}{% set d = {'a': (1, 2)} %}{{ c is sameas ns.p }}{{ d is sameas ns.q }}{{ c is sameas c }}{% set ns.p = c %}{% set ns.q = d %}{% endfor %}",
     {}, {"sandbox": True}),
    ("literal-append-sandbox", "{% for i in [1, 2] %}{% set l = [1, 2] %}{{ l }}{{ l.append(3) }}{% endfor %}", {}, {"sandbox": True}),
    ("literal-update-sandbox", "{% set d = {'a': 1} %}{{ d.update(b=2) }}", {}, {"sandbox": True}),
    ("literal-unhashable-key-sandbox", "{{ {'a': 1, [1]: 2} }}", {}, {"sandbox": True}),
    ("literal-tuple-key-sandbox", "{{ {(1, 'a'): 2, 1.0: 'f', 1: 'i', True: 't'} }}", {}, {"sandbox": True}),
    ("literal-hf", "{% for m in messages %}{% set names = {'user': 'U', 'assistant': 'A'} %}{{ names[m.role] }}{% endfor %}", {"messages": MSGS[:3]}, {"profile": "hf"}),
    ("loop-filter-look-ahead-nested-scopes",
     "{% for x in xs if x %}{% set a = x %}{% set outer = loop %}{% for y in [x, x * 2] %}{% set b = y %}{{ outer.last }}{{ outer.length }}{{ a }}{{ b }}{{ y }};{% endfor %}{{ a }}{{ b is defined }}{{ x }}|{% endfor %}",
     {"xs": [1, 0, 2, 0, 3, 0]}, {}),
    ("loop-filter-look-ahead-recursive",
     "{% for x in xs if x != 0 recursive %}{% set v = x %}{% if x is iterable %}({{ loop(x) }}){% endif %}{{ loop.last }}{{ loop.length }}{{ v }}{{ x }};{% endfor %}",
     {"xs": [1, [2, 0, [3, 0]], 0, 4, 0]}, {}),
    ("loop-filter-look-ahead-outer-names",
     "{% set a = 'A' %}{% for x in xs if x > 0 %}{% for z in [x] if loop.last or z %}{{ a }}{{ x }}{{ z }}{{ loop.last }}{% endfor %}{{ loop.last }}{{ a }}|{% endfor %}{{ a }}",
     {"xs": [2, -1, 3, -1]}, {}),
    ("plus-chain-strs",
     "{% set s = '<' + d['c'] + '|' + d['c']|trim + '>' %}{{ s }}|{{ (s + s + s)|length }}|{% set t = s + '' + '' %}{{ t == s }}",
     {"d": {"c": " C "}}, {}),
    ("plus-chain-type-error-late", "{% set s = 'a' + 'b' + n + 'c' %}{{ s }}", {"n": 1}, {}),
    ("plus-chain-type-error-first", "{% set s = n + 'a' + 'b' %}{{ s }}", {"n": 1}, {}),
    ("plus-chain-numbers", "{% set s = n + 1 + 2.5 + n %}{{ s }}", {"n": 1}, {}),
    ("plus-chain-lists", "{% set s = [1] + l + [3] %}{{ s }}{% set t = l + [2] + 'x' %}", {"l": [2]}, {}),
    ("plus-chain-undefined", "{% set s = 'a' + 'b' + nope + 'c' %}{{ s }}", {}, {}),
    ("plus-chain-undefined-after-error", "{% set s = 'a' + 1 + nope.x %}{{ s }}", {}, {}),
    ("plus-chain-markup", "{% set s = '<a>' + m + '&' + 'b' %}{{ s }}|{% set t = m + '<' + '>' %}{{ t }}",
     {"m": {"__markup__": "<b>"}}, {"autoescape": True}),
    ("plus-chain-markup-plain", "{% set s = '<a>' + m + '&' + 'b' %}{{ s }}", {"m": {"__markup__": "<b>"}}, {}),
    ("plus-chain-non-ascii", "{% set s = 'é' + d['c'] + '😀' %}{{ s }}{{ s|length }}{{ s[1] }}", {"d": {"c": "ü"}}, {}),
    ("print-chain-fields",
     "{% for m in messages %}{{ '[' ~ m.role ~ '|' ~ m['content'] ~ '|' ~ m.items ~ ']' }}{% if m.role is string %}{{ '<' + m['role'] + ':' + m.content + '>' }}{% endif %}{% endfor %}",
     {"messages": MSGS}, {}),
    ("print-chain-fields-autoescape",
     "{% for m in messages %}{{ '[' ~ m.role ~ '|' ~ m['content'] ~ ']' }}{% if m.role is string %}{{ '<' + m['role'] + ':' + m.content + '>' }}{% endif %}{% endfor %}",
     {"messages": MSGS[:7]}, {"autoescape": True}),
    ("print-chain-fields-sandbox",
     "{% for m in messages %}{{ m.role ~ m.pop ~ m._x }}{{ '<' + m['role'] + m['_x'] + '>' }}{% endfor %}",
     {"messages": [{"role": "a", "_x": "b", "pop": "c"}]}, {"sandbox": True}),
    ("print-chain-not-dict", "{% for m in ms %}{{ '<' ~ m.role ~ m['role'] ~ '>' }}{% endfor %}", {"ms": ["s", 1, None, [1], {"__tuple__": [1]}]}, {}),
    # chains of constants and fields or locals alone, written in one
    # pass (streamRuns), and the values that send them back to stream
    ("print-chain-runs-markup",
     "{% for m in ms %}{% set c = m.content %}{{ '<' + c + '&' + m.role }}|{{ '<' ~ c ~ m['content'] ~ '>' }}|{{ m.role + c }}|{% endfor %}",
     {"ms": [{"role": "u", "content": {"__markup__": "<m>"}}, {"role": "<r>", "content": "<s>"}, {"role": {"__markup__": "<R>"}, "content": "&"}]}, {}),
    ("print-chain-runs-numbers",
     "{% for m in ms %}{% set c = m.content %}{{ '<' ~ c ~ '|' ~ m.n ~ '>' }}{{ m.n ~ c }}{% endfor %}",
     {"ms": [{"content": 1, "n": 2.5}, {"content": None, "n": [1]}, {"content": "x"}, {"content": {"__tuple__": [1]}, "n": True}]}, {}),
    ("print-chain-runs-type-error", "{% for m in ms %}{{ '<' + m.role }}{% set c = m.content %}{{ '[' + c + ']' }}{% endfor %}",
     {"ms": [{"role": "a", "content": "x"}, {"role": "b", "content": 3}]}, {}),
    ("print-chain-runs-missing", "{% for m in ms %}{{ '<' ~ m.role ~ '|' ~ m.content ~ '>' }}{{ '<' + m.role + '|' + m.content + '>' }}{% endfor %}",
     {"ms": [{"role": "a", "content": "b"}, {"role": "c"}]}, {}),
    ("print-chain-runs-unset-local", "{% for m in ms %}{% if m.x %}{% set c = m.x %}{% endif %}{{ '<' ~ c ~ '>' }}{{ c + '.' }}{% endfor %}",
     {"ms": [{"x": "a"}, {}]}, {}),
    ("print-chain-runs-trim",
     "{% for m in ms %}{% set c = m.content %}{{ '<' ~ m.content|trim ~ '|' ~ c|trim ~ '>' }}{% if m.content is string %}{{ '[' + m['content']|trim + '|' + c|trim + ']' }}{% endif %}{% endfor %}",
     {"ms": [{"content": "  a \n"}, {"content": {"__markup__": " <b> "}}, {"content": 3}, {}, {"content": "\u00a0x\u2003\u3000"}, {"content": " \t\x1c\x85y\u200b "}]}, {}),
    ("print-chain-runs-trim-error", "{% for m in ms %}{{ '<' + m.content|trim + '>' }}{% endfor %}", {"ms": [{"content": " a "}, {"content": None}]}, {}),
    ("print-chain-runs-not-dict", "{% for m in ms %}{{ '<' + m.role + '>' }}{% endfor %}", {"ms": [{"role": "a"}, "s"]}, {}),
    # an if/elif chain on one field (fieldSwitch): the field read once
    ("if-field-switch",
     "{% for m in messages %}{% if m['role'] == 'system' and m.content %}S{% elif m.role == 'user' %}U{% elif m['role'] == 'assistant' %}A{% elif m['role'] == 'user' %}u{% elif m.content == 'N' %}n{% else %}E{% endif %}{% endfor %}",
     {"messages": MSGS + ["x", {"role": "system", "content": ""}, {"role": "user\u00e9"}]}, {}),
    ("if-field-switch-and-changes",
     "{% for m in ms %}{% if m['role'] == 'a' and m.update({'role': 'b', 'x': 1, 'y': 2, 'z': 3}) %}A{% elif m['role'] == 'b' %}B{% elif m['role'] == 'a' %}a{% endif %}{% endfor %}",
     {"ms": [{"role": "a"}, {"role": "b"}]}, {}),
    ("if-field-switch-and-error",
     "{% for m in ms %}{% if m['role'] == 'a' and m.n.x %}A{% elif m['role'] == 'b' %}B{% endif %}{% endfor %}",
     {"ms": [{"role": "b"}, {"role": "a"}]}, {}),
    ("if-field-switch-sandbox",
     "{% for m in ms %}{% if m['_r'] == 'a' %}A{% elif m['_r'] == 'b' %}B{% else %}-{% endif %}{% if m._r == 'a' %}A{% elif m._r == 'b' %}B{% endif %}{% endfor %}",
     {"ms": [{"_r": "a"}, {"_r": "b"}]}, {"sandbox": True}),
    ("print-chain-missing-field", "A{{ 'x' + m.content + 'y' + m.role + 'z' }}B", {"m": {"content": "C"}}, {}),
    ("print-chain-missing-item", "A{{ 'x' + m['content'] + m['role'] }}B", {"m": {"content": "C"}}, {}),
    ("print-chain-markup-late", "A{{ '<x>' + d['c'] + '&' + m + '<y>' + d['c'] }}B|{{ '<' + m }}|{{ m + '<' }}",
     {"d": {"c": "<C>"}, "m": {"__markup__": "<b>"}}, {}),
    ("print-chain-markup-field", "{{ '<x>' + d['m'] + '&' + d.m }}", {"d": {"m": {"__markup__": "<b>"}}}, {}),
    ("print-chain-type-error-late", "A{{ 'x' + d['c'] + 'y' + d['n'] + 'z' }}B", {"d": {"c": "C", "n": 1}}, {}),
    ("print-chain-type-error-first", "A{{ d['n'] + 'x' + 'y' }}B", {"d": {"n": 1}}, {}),
    ("print-chain-error-operand", "A{{ 'x' + d['c'] + 'y' + (1 // 0)|string }}B", {"d": {"c": "C"}}, {}),
    ("print-chain-numbers-lists", "{{ d['n'] + 1 + 2.5 }}|{{ [1] + d['l'] + [3] }}|{{ d['l'] + d['l'] }}", {"d": {"n": 1, "l": [2]}}, {}),
    ("print-chain-macro",
     "{% macro m(x) %}<{{ 'm' + x + 'm' }}>{% endmacro %}{{ 'a' + m('b') + 'c' + m(d['c']) }}|{{ 'a' ~ m('b') ~ 1 }}|{% set s %}{{ 'p' + m('q') }}{% endset %}{{ s }}",
     {"d": {"c": "C"}}, {}),
    ("print-chain-macro-autoescape", "{% macro m(x) %}<{{ 'm' + x }}>{% endmacro %}{{ '<a>' + m('<b>') + '&' }}|{{ '&' ~ m('&') ~ '&' }}", {}, {"autoescape": True}),
    ("print-concat-kinds",
     "{{ 'a' ~ 1 ~ -7 ~ 2.5 ~ -0.0 ~ 1e100 ~ none ~ true ~ u ~ [1, 'x'] ~ {'k': d['c']} ~ d['c'] ~ big ~ d.n ~ (1, 2) ~ m }}|{{ 1 ~ 2 }}|{{ u ~ u }}",
     {"d": {"c": "it's", "n": 0.1}, "big": 18446744073709551616, "m": {"__markup__": "<b>"}}, {}),
    ("print-concat-kinds-autoescape", "{{ '<' ~ 1 ~ 2.5 ~ ['<'] ~ d['c'] }}|{{ '<' ~ m ~ d['c'] ~ 1 }}", {"d": {"c": "<C>"}, "m": {"__markup__": "<b>"}}, {"autoescape": True}),
    ("print-concat-error-order", "A{{ 'x' ~ d['c'] ~ u.x ~ (1 // 0) }}B", {"d": {"c": "C"}}, {}),
    ("print-concat-undefined-attribute", "A{{ 'x' ~ d['c'] ~ u.x }}B", {"d": {"c": "C"}}, {}),
    ("print-chain-non-ascii", "{{ 'é' + d['c'] + '😀' }}{{ 'é' ~ d.c ~ 1 }}", {"d": {"c": "ü\u00a0\u200b"}}, {}),
    ("trim-bare",
     "{% for x in xs %}[{{ x|trim }}|{{ x.strip() if x is string else '' }}|{{ (x|trim)|length }}]{% endfor %}{{ u|trim }}|{{ d.c|trim + '!' }}|{{ d.c|trim|upper }}",
     {"xs": [" a ", "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f a b \x85\xa0\u3000\u2028", "", "   ", {"__markup__": " <b> "}, 1, None, [1],
             "\u00e9 ", " \u200b ", "\U0001F600\u2029"], "d": {"c": " c "}}, {}),
    ("trim-bare-autoescape", "{{ m|trim }}|{{ s|trim }}|{{ m|trim + s|trim }}", {"m": {"__markup__": " <b> "}, "s": " <i> "}, {"autoescape": True}),
    ("bare-filters", "{{ s|upper }}{{ s|length }}{{ n|string }}{{ l|first }}{{ u|default }}{{ l|join }}{{ d.s|lower }}", {"s": "aB", "n": 1, "l": ["x", "y"], "d": {"s": "Q"}}, {}),
    ("bare-filter-error", "{{ n|first }}", {"n": 1}, {}),
    ("print-field-segments",
     "{% for m in messages %}<{{ m.role }}|{{ m['content'] }}|{{ m['items'] }}|{{ m.keys }}>\n{% endfor %}{{ d.x }}{{ d['x'] }}{{ l.x }}",
     {"messages": MSGS, "d": {}, "l": [1]}, {}),
    ("print-field-segments-autoescape", "{% for m in messages %}<{{ m.role }}|{{ m['content'] }}>{% endfor %}",
     {"messages": MSGS[:7] + [{"role": "<u>", "content": {"__markup__": "<c>"}}]}, {"autoescape": True}),
    ("print-field-segments-sandbox", "{% for m in messages %}<{{ m.role }}{{ m._x }}{{ m['_x'] }}{{ m['pop'] }}>{% endfor %}",
     {"messages": [{"role": "a", "_x": "b", "pop": "c"}]}, {"sandbox": True}),
    ("print-field-segments-finalize", "{% for m in messages %}<{{ m.role }}|{{ m['content'] }}|{{ m.n }}>{% endfor %}",
     {"messages": [{"role": "a", "content": None, "n": 1}, {"role": None, "content": "c"}]}, {"finalize": "none_empty"}),
    ("print-field-segment-undefined-error", "<{{ m.role }}{{ m['content'].x }}>", {"m": {}}, {}),
    ("print-field-segment-of-undefined", "<{{ u.role }}>", {}, {}),
    ("print-field-segment-loop", "{% for x in xs %}{{ loop.index }}:{{ x['a'] }}{{ loop.last }},{% endfor %}", {"xs": [{"a": 1}, {"a": [2]}]}, {}),
    ("namespace-missing-attribute",
     "{% set ns = namespace(a=1) %}{% for x in xs %}{{ ns.b is defined }}{{ ns.b is undefined }}{% if ns.b %}Y{% endif %}{{ ns.b }}{{ ns.b|default('d') }}{{ loop.nothere is defined }}{{ loop.nothere }}|{% endfor %}{% set ns.b = 2 %}{{ ns.b }}",
     {"xs": [1, 2]}, {}),
    ("namespace-missing-attribute-used", "{% set ns = namespace(a=1) %}{{ ns.b.c }}", {}, {}),
    ("namespace-missing-attribute-plus", "{% set ns = namespace(a=1) %}{{ 'x' + ns.b }}", {}, {}),
    ("loop-missing-attribute-used", "{% for x in [1] %}{{ loop.nothere + 1 }}{% endfor %}", {}, {}),
    ("namespace-missing-attribute-sandbox", "{% set ns = namespace(a=1) %}{{ ns.b is defined }}{{ ns._c is defined }}{{ ns.b.c }}", {}, {"sandbox": True}),
    ("set-in-scopes",
     "{% macro m(x) %}{% set y = x ~ '!' %}{{ y }}{% endmacro %}{% for i in [1, 2] %}{{ y }}{% set y = i * 2 %}{{ y }}{{ m(y) }}{% if i %}{% set z = y %}{% endif %}{{ z }}|{% endfor %}{{ y }}{{ z }}{% set y = 'top' %}{{ y }}",
     {"y": "ctx", "z": "zc"}, {}),
    ("namespace-set-in-place",
     "{% set ns = namespace(a=1, b=2, c=3, d=4, e=5, f=6, g=7, h=8, i=9) %}{% for x in [1, 2] %}{% set ns.a = ns.a + x %}{% set ns.i = ns.i ~ x %}{% set ns.new = x %}{% endfor %}{{ ns.a }}{{ ns.i }}{{ ns.new }}{{ ns }}",
     {}, {}),
    ("namespace-set-not-namespace", "{% set d = {} %}{% for x in [1] %}{% set d.a = 1 %}{% endfor %}", {}, {}),
    ("unary-constants",
     "{{ xs[-1] }}{{ xs[-2] }}{{ -1 }}{{ +2 }}{{ -2.5 }}{{ - -3 }}{{ -true }}{{ +false }}{{ -9223372036854775808 }}{{ -(-9223372036854775808) }}{{ -0.0 }}{{ xs[-1:] }}{{ -1 * 2 }}",
     {"xs": [1, 2, 3]}, {}),
    ("unary-constant-type-error", "{{ -'a' if n else 0 }}{{ -'a' }}", {"n": 0}, {}),
    ("alternate-roles",
     "{% for m in messages %}{% if (m['role'] == 'user') != (loop.index0 % 2 == 0) %}!{% endif %}{{ (m.role == 'user') == (loop.index is odd) }}{{ (not m.content) != (m.x is defined) }}{{ (m.role in ['user']) == (loop.first) }}|{% endfor %}",
     {"messages": MSGS}, {}),
    ("compare-conditions-errors", "{{ (1 == 1) != (u < 1) }}", {}, {}),
    ("compare-conditions-error-order", "{{ (u.x < 1) == (v.y < 1) }}", {}, {}),
    ("modulo-int-const",
     "{{ n % 2 }}{{ m % 2 }}{{ m % 3 }}{{ b % 2 }}{{ t % 2 }}{{ f % 2 }}{{ g % 2 }}{{ big % 7 }}{{ small % 7 }}{{ s % 2 }}{{ x % 1 }}{{ nan % 2 }}",
     {"n": 7, "m": -7, "b": 9223372036854775807, "t": True, "f": -7.5, "g": -0.0, "nan": {"__float__": "nan"}, "big": 18446744073709551616, "small": -9223372036854775808, "s": "a%sb", "x": 5}, {}),
    ("modulo-undefined", "{{ u % 2 }}", {}, {}),
    ("modulo-type-error", "{{ l % 2 }}", {"l": [1]}, {}),
    ("compare-int-const",
     "{% for v in vals %}{{ v == 0 }}{{ v != 0 }}{{ v < 1 }}{{ v <= 0 }}{{ v > -1 }}{{ v >= 1 }}|{% endfor %}",
     {"vals": [0, 1, -1, True, False, 0.0, 0.5, {"__float__": "nan"}, 18446744073709551616, -18446744073709551616, 9223372036854775807]}, {}),
    ("compare-int-const-equality", "{% for v in vals %}{{ v == 0 }}{{ v != 0 }}{% if v == 1 %}Y{% endif %}|{% endfor %}",
     {"vals": [None, "0", "1", [0], {"__markup__": "1"}, {"__float__": "inf"}]}, {}),
    ("compare-int-const-order-error", "{{ v == 0 }}{{ v < 0 }}", {"v": "0"}, {}),
    ("compare-int-const-undefined", "{{ u == 0 }}{{ u != 0 }}{% if u == 0 %}Y{% endif %}", {}, {}),
    ("compare-int-const-undefined-order", "{{ u == 0 }}{{ u < 0 }}", {}, {}),
    ("compare-int-const-edges", "{{ n == 9223372036854775807 }}{{ n > -9223372036854775808 }}{{ n == 9223372036854775808 }}",
     {"n": 9223372036854775807}, {}),
    # {% set x = m.k %} and m['k'] of a local m copy the dict's item in
    # place; anything else reads it as the expression would
    ("set-field",
     "{% for m in ms %}{% set a = m.role %}{% set b = m['content'] %}{% set c = m.items %}{% set d = m['items'] %}{{ a }}|{{ b }}|{{ c is defined }}|{{ d }}|{{ a is defined }}{{ b is defined }};{% endfor %}",
     {"ms": [{"role": "u", "content": "x", "items": 3}, {"content": {"__markup__": "<b>"}}, "str", 1, None, [1], {"role": 2.5, "content": [1, "a"]}]}, {}),
    ("set-field-sandbox",
     "{% for m in ms %}{% set a = m.role %}{% set b = m['content'] %}{{ a }}|{{ b }};{% endfor %}",
     {"ms": [{"role": "u", "content": "x"}, {"content": "y"}, "s"]}, {"sandbox": True}),
    ("set-field-undefined-used", "{% for m in ms %}{% set a = m.role %}{{ a ~ 'x' }}{{ a.b }}{% endfor %}",
     {"ms": [{}]}, {}),
    # a local name in a printed chain: a str is written from its slot,
    # anything else is evaluated as the chain's operand
    ("chain-local",
     "{% for v in vals %}{% set c = v %}{{ '<' + c + '>' }}{{ '[' ~ c ~ ']' }}{{ c ~ c }}|{% endfor %}",
     {"vals": ["a", {"__markup__": "<b>"}, "", "it's"]}, {}),
    ("chain-local-concat-values",
     "{% for v in vals %}{% set c = v %}{{ '[' ~ c ~ ']' }}|{% endfor %}",
     {"vals": [1, 2.5, None, [1, "a"], {"k": "v"}, True, 18446744073709551616]}, {}),
    ("chain-local-plus-error", "{% for v in [1] %}{% set c = v %}{{ 'x' + c }}{% endfor %}", {}, {}),
    ("chain-local-undefined", "{% for v in [1] %}{{ 'x' ~ nothere ~ 'y' }}{{ 'x' + nothere }}{% endfor %}", {}, {}),
    ("chain-local-autoescape",
     "{% for v in vals %}{% set c = v %}{{ '<' + c + '>' }}{{ '<' ~ c ~ '>' }}|{% endfor %}",
     {"vals": ["<a>", {"__markup__": "<b>"}]}, {"autoescape": True}),
    ("attribute-chain",
     "{% for m in ms %}<{{ m.a.b.c }}|{{ m.a.b }}|{% if m.a.b.c %}T{% endif %}{{ 'c' in m.a.b }}{{ m.a.b.keys is defined }}{{ m.a.b.c.d is defined }}{{ m.a.pop is defined }}>{% endfor %}",
     {"ms": [{"a": {"b": {"c": "x"}}}, {"a": {"b": {"c": {"__markup__": "<m>"}}}}, {"a": {"b": "str"}}, {"a": {"b": {"c": 1, "keys": 2}}},
             {"a": {"b": {"c": None}, "pop": 3}}, {"a": {"b": [1]}}, {"a": {"b": {"__dict__": [[1, "one"], ["c", [2]]]}}}]}, {}),
    ("attribute-chain-autoescape", "{% for m in ms %}{{ m.a.b.c }}{% endfor %}", {"ms": [{"a": {"b": {"c": "<x>"}}}, {"a": {"b": {"c": {"__markup__": "<m>"}}}}]}, {"autoescape": True}),
    ("attribute-chain-finalize", "{% for m in ms %}[{{ m.a.b.c }}]{% endfor %}", {"ms": [{"a": {"b": {"c": None}}}, {"a": {"b": {"c": 0}}}]}, {"finalize": "none_empty"}),
    ("attribute-chain-objects",
     "{% set ns = namespace(d={'k': {'v': 1}}) %}{% set d = {'ns': ns} %}{{ d.ns.d.k.v }}{{ d.ns.x is defined }}{{ d.ns.d.k.w is defined }}"
     "{% for x in 'ab' %}{% set o = {'l': loop} %}{{ o.l.index }}{{ o.l.first }}{{ o.l.cycle('p', 'q') }}{% endfor %}{% set s = {'t': 'Ab'} %}{{ s.t.upper() }}",
     {}, {}),
    ("attribute-chain-undefined-error", "A{{ d.a.b.c }}B", {"d": {}}, {}),
    ("attribute-chain-undefined-middle-error", "A{{ d.a.b.c }}B", {"d": {"a": {}}}, {}),
    ("attribute-chain-list-error", "A{{ d.a.b.c }}B", {"d": {"a": [1]}}, {}),
    ("attribute-chain-sandbox", "{{ d.a._x is defined }}{{ d.a.b._y is defined }}{{ d.a.b.c }}", {"d": {"a": {"_x": 1, "b": {"_y": 2, "c": "ok"}}}}, {"sandbox": True}),
    ("attribute-chain-sandbox-error", "A{{ d.a._x.y }}B", {"d": {"a": {"_x": {"y": 1}}}}, {"sandbox": True}),
    ("case-filter-prints",
     "{% for x in xs %}<{{ x|capitalize }}|{{ x|upper }}|{{ x|lower }}>{% endfor %}{{ d.r|capitalize }}{{ 'lIT'|capitalize }}{{ u|upper }}",
     {"xs": ["user", "ASSISTANT", "", "a", "1abc", " x", "mIxEd CaSe wORDS", "é", "ßx", "ǆ", "ﬁ", "i̇", "ΣΑΣ", {"__markup__": "<b>x</b>"}, 1, 2.5, None, True, [1, "a"], {"k": "v"}],
      "d": {"r": "tool"}}, {}),
    ("case-filter-prints-autoescape", "{% for x in xs %}<{{ x|capitalize }}|{{ x|upper }}|{{ x|lower }}>{% endfor %}",
     {"xs": ["<user> & 'a'", {"__markup__": "<b>x</b>"}, "é<"]}, {"autoescape": True}),
    ("case-filter-prints-finalize", "{% for x in xs %}[{{ x|capitalize }}{{ x|upper }}]{% endfor %}", {"xs": ["ab", None]}, {"finalize": "none_empty"}),
    ("case-filter-print-undefined", "<{{ u|lower }}|{{ d.x|capitalize }}>", {"d": {}}, {}),
    ("case-filter-print-undefined-error", "A{{ u.x.y|upper }}B", {}, {}),
    ("case-filter-print-sandbox", "{{ s|capitalize }}{{ d.a|upper }}", {"s": "sAND", "d": {"a": "b"}}, {"sandbox": True}),
    # paths of items and attributes read where the value lies
    # (compile_place.go), and what leaves them
    ("place-paths",
     "{{ ms[0]['role'] }}|{{ ms[0].content }}|{{ ms[-1]['role'] }}|{{ ms[-1].content }}|{{ ms[9] is defined }}|{{ ms[-9] is defined }}|"
     "{{ ms[1].role }}|{{ ms[1]['x'] is defined }}|{{ t[1][0] }}|{{ t[-1].k }}|{{ d['a'][1] }}|{{ d.a[-1] }}|{{ d.b.c }}|{{ d[0] }}|{{ d.items is defined }}|"
     "{{ s[0] }}|{{ s[0].x is defined }}|{{ n[0] is defined }}|{{ ms[0]['role'] == 'system' }}|{{ ms[1].content ~ '!' }}|{{ d.b['c'] ~ d['b'].c }}",
     {"ms": [{"role": "system", "content": "S"}, {"role": {"__markup__": "<u>"}, "content": 1}, {"role": "user", "content": [1]}],
      "t": {"__tuple__": [1, ["a", "b"], {"k": None}]}, "d": {"a": [1, 2, 3], "b": {"c": "C"}, 0: "zero"}, "s": "str", "n": 5}, {}),
    ("place-paths-sandbox",
     "{% for i in [0] %}{{ ms[0]['role'] }}{{ ms[1].content }}{{ ms[-1]['_x'] }}{{ ms[i].role }}{% endfor %}",
     {"ms": [{"role": "system"}, {"content": "c"}, {"_x": "underscore"}]}, {"sandbox": True}),
    ("place-paths-undefined-error", "{{ ms[5].role }}", {"ms": [{"role": "r"}]}, {}),
    ("place-paths-list-of-undefined", "{{ u[0][1] }}", {}, {}),
    ("attribute-of-str", "{{ s.upper() }}{{ s.upper is defined }}{{ s.nothere is defined }}", {"s": "ab"}, {}),
    # constant arguments, made once per call site and shared by its calls
    # (compiledArgs.consts): each call gets what it got before, a callee
    # that keeps them or builds a value from them (namespace, dict,
    # cycler, varargs, format's tuple, split's list) holds its own copy
    ("constant-arguments",
     "{% macro m() %}{{ varargs }}{{ kwargs }}{% endmacro %}{% for i in [1, 2] %}{{ xs|join(', ') }}|{{ xs|join(-1) }}|{{ 2.567|round(-1) }}{{ 2.567|round(1, 'floor') }}|{{ u|default(-0.0) }}|{{ u|default(+2) }}|"
     "{{ 'a'|center(-3) }}|{{ '%s-%s'|format(-1, 'a') }}|{{ xs|select('odd')|list }}{{ xs|reject('gt', -1)|list }}|{{ range(-3, 3, 2)|list }}|"
     "{{ 'a,b'.split(',') }}{{ 'a-b'.replace('-', '+', -1) }}{{ 'a'.startswith(('b', 'a')) if false else 'a'.startswith('a') }}|"
     "{% set ns = namespace(a=-1, b='x') %}{{ ns.a }}{% set ns.a = i %}{{ ns.a }}|{% set c = cycler('p', 'q') %}{{ c.next() }}{{ c.next() }}{{ c.next() }}|"
     "{{ m(1, 'a', -2) }}|{% endfor %}{{ m(-9223372036854775808, z=-0.5) }}",
     {"xs": [1, 2, 3]}, {}),
    ("constant-arguments-mutated",
     "{% for i in [1, 2] %}{% set d = dict(a=1, b='x') %}{% set _ = d.update(c=i) %}{{ d }}{% set l = [] %}{% set _ = l.append('x') %}{{ l }}"
     "{% set p = 'a,b'.split(',') %}{% set _ = p.append(i) %}{{ p }}|{% endfor %}",
     {}, {}),
    ("constant-arguments-errors", "{% for i in [1, 2] %}{{ i }}{{ xs|join(1)|int if i == 2 else '' }}{{ range(1, 2, 0) if i == 2 }}{% endfor %}",
     {"xs": [1, 2]}, {}),
    ("constant-arguments-unknown-kwarg", "{{ xs|join(', ') }}{{ xs|join(sep=', ') }}", {"xs": [1, 2]}, {}),
    # select, reject, selectattr, rejectattr and map give a generator that
    # takes its source's items one at a time, as Python's does (eachGen): a
    # reader stopping early never tests the items after; a for loop over
    # select_or_reject with constant arguments tests each item as it
    # reaches it (compile_select.go)
    ('select-lazy-break-err',
     "{% for x in xs|select('gt', 0) %}{{x}}{% break %}{% endfor %}",
     {'xs': [1, 'a']}, {'extensions': ['loopcontrols']}),
    ('select-lazy-selectattr-break-err',
     "{% for x in xs|selectattr('a', 'gt', 0) %}{{x.a}}{% break %}{% endfor %}",
     {'xs': [{'a': 1}, {'a': 's'}]}, {'extensions': ['loopcontrols']}),
    ('select-lazy-map-break-err',
     "{% for x in xs|map(attribute='a.b') %}{{x}}{% break %}{% endfor %}{{ xs|map(attribute='a.b')|first }}",
     {'xs': [{'a': {'b': 1}}, 2]}, {'extensions': ['loopcontrols']}),
    ('select-lazy-map-error',
     "{% for x in xs|map(attribute='a.b') %}{{x}}{% endfor %}",
     {'xs': [{'a': {'b': 1}}, 2]}, {}),
    ('select-lazy-ns',
     "{% set ns = namespace(n=0) %}{% for x in xs|selectattr('a', 'gt', ns.n) %}{% set ns.n = 5 %}{{x.a}}{% endfor %}",
     {'xs': [{'a': 1}, {'a': 3}, {'a': 7}]}, {}),
    ('select-lazy-first',
     "{{ xs|select('gt', 0)|first }}{{ 1 in xs|select('gt', 0) }}{{ xs|map('upper')|first }}",
     {'xs': [1, 'a']}, {}),
    ('select-lazy-falsy',
     "{{ u|select('nothere')|list }}{{ 0|select('x')|list }}{{ ''|selectattr()|list }}{{ none|map()|list }}",
     {}, {}),
    ('select-lazy-errors-lazy',
     '{% set g = 3|select %}{% set h = xs|selectattr %}{% set m = xs|map %}ok',
     {'xs': [1]}, {}),
    ('select-lazy-errors-consumed-1',
     '{{ 3|select|list }}',
     {'xs': [1]}, {}),
    ('select-lazy-errors-consumed-2',
     '{{ xs|selectattr|list }}',
     {'xs': [1]}, {}),
    ('select-lazy-errors-consumed-3',
     '{{ xs|map|list }}',
     {'xs': [1]}, {}),
    ('select-lazy-errors-consumed-4',
     "{{ xs|select('nothere')|list }}",
     {'xs': [1]}, {}),
    ('select-lazy-twice',
     "{% set g = xs|select('odd') %}{{ g|list }}{{ g|list }}{% set m = xs|map('string') %}{{ m|first }}{{ m|list }}",
     {'xs': [1, 2, 3, 5]}, {}),
    ('select-lazy-loop-last',
     "{% for x in xs|select('odd') %}{{ x }}{{ loop.last }}{{ loop.length }}{% endfor %}{% for x in xs|reject('odd') %}{{ loop.revindex }}{% else %}E{% endfor %}",
     {'xs': [1, 3, 5]}, {}),
    ('select-lazy-dict',
     "{{ d|select('gt', 'a')|list }}{{ d|map('upper')|list }}{{ 'abc'|reject('eq', 'b')|join }}",
     {'d': {'a': 1, 'b': 2, 'c': 3}}, {}),
    ('select-lazy-of-loop',
     "{% for x in xs %}{{ loop|map('first')|list }}{% endfor %}",
     {'xs': [1, 2]}, {}),
    ('select-loop-else',
     "{% for x in xs|selectattr('a', 'gt', 5) %}{{ x.a }}{% else %}E{% endfor %}|{% for x in xs|rejectattr('a') %}{{ x }}{% else %}F{% endfor %}|{% for x in u|select %}{{ x }}{% else %}G{% endfor %}",
     {'xs': [{'a': 1}, {'a': 3}]}, {}),
    ('select-loop-continue',
     "{% for x in xs|select('odd') %}{% if x == 3 %}{% continue %}{% endif %}{{ x }}{% else %}E{% endfor %}|{% for x in [3]|select('odd') %}{% continue %}{% else %}E{% endfor %}",
     {'xs': [1, 2, 3, 5]}, {'extensions': ['loopcontrols']}),
    ('select-loop-unpack',
     "{% for a, b in xs|selectattr('0', 'ne', 'x') %}{{ a }}={{ b }};{% endfor %}{% for a, b in xs|selectattr('1') %}{{ a }}{% endfor %}",
     {'xs': [['p', 1], ['x', 2], ['q', 0]]}, {}),
    ('select-loop-body-error-first',
     "{% for x in xs|select('gt', 0) %}{{ x.y.z }}{% endfor %}",
     {'xs': [1, 'a']}, {}),
    ('select-loop-test-error',
     "{% for x in xs|select('gt', 0) %}{{ x }}{% endfor %}",
     {'xs': [1, 'a']}, {}),
    ('select-loop-attr-error',
     "{% for x in xs|selectattr('a.b', 'eq', 1) %}{{ x }}{% endfor %}",
     {'xs': [{'a': {'b': 1}}, {'a': 2}]}, {}),
    ('select-loop-no-test',
     "{% for x in xs|selectattr('a', 'nothere') %}{{ x }}{% endfor %}",
     {'xs': [{'a': 1}]}, {}),
    ('select-loop-no-test-empty',
     "{% for x in xs|selectattr('a', 'nothere') %}{{ x }}{% endfor %}ok",
     {'xs': []}, {}),
    ('select-loop-not-iterable',
     '{% for x in 3|select %}{{ x }}{% endfor %}',
     {}, {}),
    ('select-loop-of-loop',
     "{% for x in xs %}{% for y in loop|selectattr('1.first') %}{{ y[0] }}{% endfor %}|{% endfor %}",
     {'xs': [1, 2, 3]}, {}),
    ('select-loop-str',
     "{% for c in s|select('ne', 'b') %}{{ c }}{% endfor %}|{% for c in s|selectattr('type', 'equalto', 'image') %}{{ c }}{% endfor %}",
     {'s': 'abcb'}, {}),
    ('select-loop-dict',
     "{% for k in d|reject('eq', 'b') %}{{ k }}{% endfor %}",
     {'d': {'a': 1, 'b': 2, 'c': 3}}, {}),
    ('select-loop-ns',
     "{% set ns = namespace(n=0) %}{% for m in ms %}{% for c in m.content|selectattr('type', 'equalto', 'image') %}{% set ns.n = ns.n + 1 %}{% endfor %}{% endfor %}{{ ns.n }}",
     {'ms': [{'content': 'hi'}, {'content': [{'type': 'image'}, {'type': 'text'}, {'type': 'image'}]}]}, {}),
    ('select-loop-scope',
     "{% set x = 'out' %}{% for x in xs|select %}{% set y = x %}{{ x }}{% endfor %}{{ x }}{{ y }}",
     {'xs': [0, 1, 2]}, {}),
    ('select-loop-markup',
     "{% for x in xs|select('equalto', '<a>') %}{{ x }}{% endfor %}",
     {'xs': [{'__markup__': '<a>'}, '<a>', '<b>']}, {'autoescape': True}),
    ('select-loop-undefined-items',
     "{% for x in xs|selectattr('a', 'defined') %}{{ x.a }}{% endfor %}{% for x in xs|rejectattr('a', 'none') %}{{ x.a }}{% endfor %}",
     {'xs': [{'a': None}, {}, {'a': 2}]}, {}),
    ('select-loop-sandbox',
     "{% for x in xs|selectattr('_p') %}{{ x }}{% endfor %}|{% for x in xs|selectattr('items') %}Y{% endfor %}",
     {'xs': [{'_p': 1}]}, {'sandbox': True}),
    ('select-loop-big-index',
     "{% for x in xs|selectattr('0') %}{{ x }}{% endfor %}{% for x in xs|selectattr('-1') %}{{ x }}{% endfor %}",
     {'xs': [[1], [0], 'ab']}, {}),
    ('select-loop-str-non-ascii',
     "{% for c in s|reject('eq', 'b') %}[{{ c }}]{% endfor %}{% for c in s|selectattr('x') %}{{ c }}{% endfor %}",
     {'s': 'éb😀\xa0a'}, {}),
    # a for loop over select_or_reject whose arguments after the test's
    # name are not constants (x|reject('in', names)): they are evaluated
    # once, after x, as the filter's call evaluates them
    ("select-loop-args",
     "{% set ks = ['type', 'enum'] %}{% for k in d.keys()|reject('in', ks) %}{{ k }},{% endfor %}"
     "|{% for x in xs|select('gt', n) %}{{ x }}{% else %}E{% endfor %}|{% for x in xs|select('gt', n * 10) %}{{ x }}{% else %}E{% endfor %}"
     "|{% for x in ys|selectattr('a', 'in', ks) %}{{ x.b }}{% endfor %}|{% for x in ys|rejectattr('a', 'equalto', ks[0]) %}{{ x.b }}{% endfor %}"
     "|{% for c in s|select('in', 'xyz' ~ n) %}{{ c }}{% endfor %}|{% for x in xs|select('divisibleby', num=n) %}{{ x }}{% endfor %}",
     {"d": {"type": 1, "x": 2, "enum": 3, "y-z": 4}, "xs": [1, 5, 3, 9], "n": 3,
      "ys": [{"a": "type", "b": 1}, {"a": "q", "b": 2}], "s": "axbyc3"}, {}),
    ("select-loop-args-mutated",
     "{% set ks = ['a'] %}{% for x in xs|reject('in', ks) %}{{ x }}{% set _ = ks.append('c') %}{% set ks = ['b'] %}{% endfor %}{{ ks }}",
     {"xs": ["a", "b", "c", "d"]}, {}),
    ("select-loop-args-error", "{% for x in xs|select('gt', 1 // 0) %}{{ x }}{% endfor %}", {"xs": [1]}, {}),
    ("select-loop-args-error-empty", "{% for x in xs|select('gt', 1 // 0) %}{{ x }}{% else %}E{% endfor %}", {"xs": []}, {}),
    ("select-loop-args-source-error", "{% for x in (1 // 0)|select('gt', nothere.x) %}{{ x }}{% endfor %}", {}, {}),
    ("select-loop-args-unknown-test", "{% for x in xs|select('nothere', n) %}{{ x }}{% endfor %}", {"xs": [1], "n": 1}, {}),
    ("select-loop-args-unknown-test-empty", "{% for x in xs|select('nothere', n) %}{{ x }}{% else %}E{% endfor %}", {"xs": [], "n": 1}, {}),
    ("select-loop-args-undefined", "{% for x in xs|reject('in', nothere) %}{{ x }}{% endfor %}", {"xs": [1]}, {}),
    ("select-loop-args-undefined-hf", "{% for x in xs|reject('in', nothere) %}{{ x }}{% endfor %}", {"xs": [1]}, {"profile": "hf"}),
    ("select-loop-args-undefined-hf-empty", "{% for x in xs|reject('in', nothere) %}{{ x }}{% else %}E{% endfor %}", {"xs": []}, {"profile": "hf"}),
    ("select-loop-args-generator",
     "{% for x in xs|select('odd')|reject('in', ks) %}{{ x }}{% endfor %}|{% for x in range(6)|reject('in', ks) %}{{ x }}{% endfor %}",
     {"xs": [1, 2, 3, 5, 7], "ks": [3, 7]}, {}),
    ("select-loop-args-bad-test-name", "{% for x in xs|select(t, 1) %}{{ x }}{% endfor %}", {"xs": [1, 2], "t": "gt"}, {}),
    # … over x.keys() or x.values(), read in place when x is a dict
    ("select-loop-view",
     "{% for v in d.values()|select('gt', 1) %}{{ v }}{% endfor %}|{% for k in d.keys()|select('ne', 'b') %}{{ k }}{% else %}E{% endfor %}"
     "|{% for k in e.keys()|reject('in', ks) %}{{ k }}{% else %}E{% endfor %}|{% for k in kd.keys()|select %}{{ k }}{% endfor %}"
     "|{% for k in d.keys()|selectattr('upper') %}{{ k }}{% endfor %}|{% for x in d.items()|select %}{{ x }}{% endfor %}",
     {"d": {"a": 1, "b": 2, "c": 3}, "e": {}, "ks": ["a"], "kd": {"keys": 5, "x": 1}}, {}),
    ("select-loop-view-sandbox",
     "{% for v in d.values()|select('gt', 1) %}{{ v }}{% endfor %}|{% for k in d.keys()|reject('in', ks) %}{{ k }}{% endfor %}",
     {"d": {"a": 1, "b": 2, "c": 3}, "ks": ["a"]}, {"sandbox": True}),
    ("select-loop-view-not-dict", "{% for k in xs.keys()|select %}{{ k }}{% endfor %}", {"xs": [1]}, {}),
    ("select-loop-view-undefined", "{% for k in nothere.keys()|select %}{{ k }}{% endfor %}", {}, {}),
    ("select-loop-view-mutated", "{% for k in d.keys()|select %}{{ k }}{% set _ = d.update({'z': 1}) %}{% endfor %}{{ d|length }}",
     {"d": {"a": 1, "b": 2}}, {}),
    ("select-loop-dict-mutated", "{% for k in d|select %}{{ k }}{% set _ = d.update({'z': 1}) %}{% endfor %}{{ d|length }}",
     {"d": {"a": 1, "b": 2}}, {}),
    ("select-loop-dict-mutated-break", "{% for k in d|reject('in', ks) %}{{ k }}{% set _ = d.update({'z': 1}) %}{% break %}{% endfor %}{{ d|length }}",
     {"d": {"a": 1, "b": 2}, "ks": []}, {"extensions": ["loopcontrols"]}),
    ("select-loop-view-str-values", "{% for c in d.values()|reject('eq', 'b') %}[{{ c }}]{% endfor %}", {"d": {"x": "abc", "y": "b"}}, {}),
    # a generation block of a render that records no spans writes its body
    # in place (compile_stmt.go): its scope, nesting, macros and set blocks
    ("generation-in-place",
     "{% set x = 0 %}{% for m in ms %}<{% generation %}{{ m }}{% set x = 1 %}{{ x }}{% endgeneration %}{{ x }}>{% endfor %}"
     "{% macro g() %}{% generation %}[{{ caller is defined }}{{ varargs }}]{% endgeneration %}{% endmacro %}{{ g() }}{{ g(1, 2) }}"
     "{% set s %}{% generation %}S{% endgeneration %}{% endset %}{{ s }}|{% generation %}{% generation %}N{% endgeneration %}M{% endgeneration %}"
     "{% for m in ms %}{% generation %}{{ loop.index }}{{ loop.last }}{% endgeneration %}{% endfor %}",
     {"ms": ["a", "b"]}, {"profile": "hf"}),
    ("generation-in-place-break", "{% for m in ms %}{% generation %}{% break %}{% endgeneration %}{% endfor %}", {"ms": [1]}, {"profile": "hf"}),
    ("generation-in-place-error", "A{% generation %}B{{ 1 // 0 }}{% endgeneration %}", {}, {"profile": "hf"}),
    ("constant-arguments-sandbox", "{% set l = [] %}{{ 'a b'.split(' ') }}{{ l.append('x') }}", {}, {"sandbox": True}),
    # a dict past smallDict entries keeps its str keys in a map of their
    # own (values_dict.go): str and Markup keys, numbers equal across
    # kinds, keys added, replaced and removed after the index was built
    ("dict-indexed",
     "{% set d = {'a': 1, 'b': 2, 'c': 3, 'd': 4, 'e': 5, 'f': 6, 'g': 7, 'h': 8, 'i': 9, 1: 'one', 2.5: 'f', none: 'n'} %}"
     "{{ d['a'] }}{{ d[m] }}{{ d.i }}{{ d[1] }}{{ d[1.0] }}{{ d[true] }}{{ d[2.5] }}{{ d[none] }}{{ d['z'] is defined }}{{ d['1'] is defined }}"
     "{{ 'h' in d }}{{ m in d }}{{ 1 in d }}{{ '1' in d }}{{ d|length }}"
     "{% set _ = d.update({'j': 10, m: 11, 3: 'three'}) %}{{ d['a'] }}{{ d['j'] }}{{ d[3] }}{{ d|length }}"
     "{{ d.pop('b') }}{{ d.pop(1) }}{{ d['c'] }}{{ d.get('b', 'gone') }}{{ d.get(1, 'gone') }}{{ d[2.5] }}{{ d|length }}"
     "{% set _ = d.setdefault('k', 12) %}{{ d.k }}{{ d.keys()|list|last }}",
     {"m": {"__markup__": "a"}}, {}),
    ("dict-indexed-loop",
     "{% set c = {'S1': 'v1', 'S2': 'v2', 'S3': 'v3', 'S4': 'v4', 'S5': 'v5', 'S6': 'v6', 'S7': 'v7', 'S8': 'v8', 'S9': 'v9', 'S10': 'v10'} %}"
     "{% for k in c %}{% if k not in x %}{{ k + ':' + c[k] }},{% endif %}{% endfor %}{{ c['S10'] }}{{ c.S9 }}",
     {"x": ["S2"]}, {"sandbox": True}),
    # a ~ chain is str_join: every operand evaluated, then str()'d and
    # joined once (concatOf), into the render's arena for a name only
    # printed or joined; under autoescape, markup_join
    ("concat-chain",
     "{% for m in ms %}{% set b = '<' ~ m.role ~ '>' ~ m.content ~ n ~ f ~ nothing ~ m.missing ~ t %}{{ b }}"
     "{% set c = b ~ '|' ~ long %}{{ '[' ~ c ~ ']' }}{% set e = '' ~ m.role ~ '' %}{{ e }}{% endfor %}"
     "{% set x = 'a' ~ 1 %}{{ x|length }}{{ [x] }}{{ ('x' ~ ms[0].role) is string }}{{ (ms[1].content ~ '') is string }}",
     {"ms": [{"role": "user", "content": "Hi"}, {"role": {"__markup__": "<b>"}, "content": [1, "x"]}, {"role": 7, "content": None}],
      "n": 3, "f": 2.5, "nothing": None, "t": True, "long": "L" * 70}, {}),
    ("concat-chain-autoescape",
     "{% for m in ms %}{% set b = '<' ~ m ~ '>' %}{{ b }}{{ '<' ~ m ~ '>' }}{% set c = b ~ '&' %}{{ c }}{% endfor %}",
     {"ms": [{"__markup__": "<i>"}, "<u>", 1]}, {"autoescape": True}),
    ("concat-chain-hf",
     "{% for m in messages %}{% set block = '<|' ~ m.role ~ '|>\n' ~ m.content ~ '<|eot|>' %}{% if loop.first %}{% set block = bos ~ block %}{% endif %}{{- block -}}{% endfor %}",
     {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "A" * 80}], "bos": "<s>"}, {"profile": "hf"}),
    ("concat-chain-error-order", "{% set b = 'a' ~ u ~ d.x.y %}{{ b }}", {"d": {}}, {}),
    ("concat-chain-error-middle", "{{ 'a' ~ (1 // 0) ~ 'b' }}", {}, {}),
    # x.strip() in a printed chain is written as x|trim is (bareTrimOf):
    # for a str x; anything else calls the method
    ("strip-in-chain",
     "{% for m in ms %}{{ '<' + m['content'].strip() + '|' + m.content.strip() + '>' }}{% set c = m.content %}{{ '[' ~ c.strip() ~ ']' }}{% endfor %}",
     {"ms": [{"content": "  a b \n"}, {"content": "\u3000x\u00a0\u2028"}, {"content": ""}, {"content": {"__markup__": " <i> "}}]}, {}),
    ("strip-in-chain-autoescape",
     "{% for m in ms %}{{ '<' ~ m.content.strip() ~ '>' }}{{ '<' + m.content.strip() + '>' }}{% endfor %}",
     {"ms": [{"content": " <b> "}, {"content": {"__markup__": " <i> "}}]}, {"autoescape": True}),
    ("strip-in-chain-int", "{% for m in ms %}{{ '<' + m.content.strip() + '>' }}{% endfor %}", {"ms": [{"content": "ok"}, {"content": 1}]}, {}),
    ("strip-in-chain-dict", "{% for m in ms %}{{ '<' + m.content.strip() + '>' }}{% endfor %}", {"ms": [{"content": {"strip": "s"}}]}, {}),
    ("strip-in-chain-missing", "{% for m in ms %}{{ '<' ~ m.content.strip() ~ '>' }}{% endfor %}", {"ms": [{"role": "user"}]}, {}),
    ("strip-in-chain-hf",
     "{% for m in messages %}{{ '<|' + m['role'] + '|>\n' + m['content'].strip() + '\n' }}{% endfor %}",
     {"messages": [{"role": "user", "content": " Hi \t"}, {"role": "assistant", "content": [{"type": "text", "text": "t"}]}]}, {"profile": "hf"}),
    # x.upper(), lower, title, capitalize, lstrip, rstrip in a printed
    # chain: an ASCII str written a byte at a time (appendStrMethod),
    # anything else through the method
    ("str-method-in-chain",
     "{% for m in ms %}{{ 'GPT4 ' + m.role.title() + ': ' + m.role.upper() + '|' + m.role.lower() + '|' + m.role.capitalize() + '|' + m.role.lstrip() + '|' + m.role.rstrip() + '.' }}"
     "{{ '<' ~ m.role.title() ~ m.role.upper() ~ '>' }}\n{% endfor %}",
     {"ms": [{"role": "user"}, {"role": "aSSISTANT tool_calls 1st x2y o'neil"}, {"role": "  ", "content": ""}, {"role": ""},
             {"role": "\u00dfstra\u00dfe \u01c6x \u0130i \u03a3\u03a3 \ufb01"}, {"role": " \t\u3000mixed CASE\u00a0 "}]}, {}),
    ("str-method-in-chain-markup",
     "{% for m in ms %}{{ '<' + m.role.title() + '>' }}{{ '<' ~ m.role.upper() ~ '>' }}{% endfor %}",
     {"ms": [{"role": {"__markup__": "<b>x</b>"}}, {"role": "<i>"}]}, {"autoescape": True}),
    ("str-method-in-chain-other", "{% for m in ms %}{{ '<' ~ m.role.upper() ~ '>' }}{% endfor %}", {"ms": [{"role": "ok"}, {"role": 1}]}, {}),
    ("str-method-in-chain-hf",
     "{% for m in messages %}{{ 'GPT4 Correct ' + m['role'].title() + ': ' + m['content'] + '<|end_of_turn|>' }}{% endfor %}",
     {"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "A"}, {"role": "tool", "content": [1]}]}, {"profile": "hf"}),
    # a loop without loop or a filter over a str steps through its
    # characters without a list of them (runStr)
    ("str-loop",
     "{% for c in s %}[{{ c }}{{ c|length }}]{% else %}E{% endfor %}|{% for c in e %}[{{ c }}]{% else %}E{% endfor %}"
     "|{% for c in s %}{% if c == 'z' %}{% break %}{% endif %}{% if c == 'a' %}{% continue %}{% endif %}{{ c }}{% endfor %}"
     "|{% for c in m %}{{ c }}{{ c is string }}{% endfor %}{% for c in s %}{% set c = c ~ '.' %}{% endfor %}{{ c }}"
     "|{% for a, b in pairs %}{{ a }}{{ b }}{% endfor %}",
     {"s": "a\u00e9\u4e2d\U0001F600z\ufffd!", "e": "", "m": {"__markup__": "<b>"}, "pairs": ""},
     {"extensions": ["loopcontrols"]}),
    ("str-field-compare",
     "{% for c in s %}{% if c.type == 'image' %}I{% elif c['type'] != 'x' %}n{% endif %}{{ c.upper == 'A' }}{{ c.format != 'x' }}{{ c._x == 'y' }}{{ c.type == 'image' }}{% endfor %}",
     {"s": ["a", {"type": "image"}, {"type": "x"}, "", {"__markup__": "<b>"}]}, {}),
    ("str-field-compare-sandbox",
     "{% for c in s %}{% if c.type == 'image' %}I{% elif c['type'] != 'x' %}n{% endif %}{{ c.format != 'x' }}{{ c.__class__ == 'y' }}{% endfor %}",
     {"s": ["a", {"type": "image"}]}, {"sandbox": True}),
    ("str-loop-unpack", "{% for a, b in s %}{{ a }}{% endfor %}", {"s": "ab"}, {}),
    ("str-loop-hf",
     "{%- for m in messages %}{%- for content in m['content'] %}{%- if content['type'] == 'image' %}<img>{%- elif content is string %}{{ content }}{%- endif %}{%- endfor %}|{%- endfor %}",
     {"messages": [{"role": "user", "content": "Hi \u00e9"}, {"role": "user", "content": [{"type": "image"}]}]}, {"profile": "hf"}),
    # x['type'] of a str x (a loop over a message's text where the template
    # expects parts): a key no str has is an Undefined without GetItem's
    # lookups (strLacks); a method's name, a private name, Markup's own
    # methods and a dict keep the general path
    ("str-item-lacking",
     "{% for c in s %}{% if c['type'] == 'image' %}I{% endif %}{% if c['type'] != 'text' %}n{% endif %}"
     "[{{ c['type'] }}{{ c['type'] is defined }}{{ c['upper'] is defined }}{{ c['escape'] is defined }}{{ c['_x'] is defined }}"
     "{{ c['__class__'] is defined }}{{ c['count'] is defined }}{{ (c['type'] or 'u') }}]{% endfor %}"
     "{% for c in s|selectattr('type', 'equalto', 'image') %}S{% endfor %}{{ s|selectattr('type')|list }}{{ s|rejectattr('type')|list|length }}"
     "{{ s|selectattr('upper')|list|length }}{{ m|selectattr('escape')|list|length }}{{ s|selectattr('escape')|list|length }}"
     "{% for c in m %}{{ c['escape'] is defined }}{{ c['type'] is defined }}{% endfor %}",
     {"s": ["ab", "c", {"type": "image"}, {"type": "text"}, "", 1], "m": [{"__markup__": "<b>"}, "x"]}, {}),
    ("str-item-lacking-sandbox",
     "{% for c in s %}{% if c['type'] == 'image' %}I{% endif %}[{{ c['type'] }}{{ c['format'] is defined }}{{ c['_x'] is defined }}]{% endfor %}"
     "{{ s|selectattr('type', 'equalto', 'image')|list }}{{ s|rejectattr('_x')|list|length }}",
     {"s": ["ab", {"type": "image"}, {"_x": 1}]}, {"sandbox": True}),
    ("str-item-lacking-hf",
     "{%- for m in messages %}{%- for content in m['content'] %}{%- if content['type'] == 'image' %}<img>{%- elif content['type'] == 'text' %}{{ content['text'] }}{%- endif %}{%- endfor %}"
     "{%- for content in m['content'] | selectattr('type', 'equalto', 'text') %}({{ content['text'] }}){%- endfor %}|{%- endfor %}",
     {"messages": [{"role": "user", "content": "Hi"}, {"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "T"}]}]}, {"profile": "hf"}),
    ("str-item-lacking-error", "{% for c in s %}{{ c['type'] + 1 }}{% endfor %}", {"s": "a"}, {}),
    ("str-item-lacking-error-attr", "{% for c in s|selectattr('type', 'equalto', 'x') %}{% endfor %}{{ (s|selectattr('type.x')|list) }}", {"s": "a"}, {}),
]


def main():
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_case_list("fastpath", CASES)


if __name__ == "__main__":
    main()
