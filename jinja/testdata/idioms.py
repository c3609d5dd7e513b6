"""Writes idioms.json: everyday Jinja2 idioms (issue 23) with a context, and
what Python's Jinja2 renders for each. The jinja engine's tests render each
template inside a user message and require the message's text to be
Jinja2's output, trimmed as the markup trims it.

Run: python3 idioms.py > idioms.json   (Jinja2 3.1)
"""
import json
import jinja2

CASES = [
    ("default", "{{ name|default('anon') }}", {}),
    ("default given", "{{ name|default('anon') }}", {"name": "Ann"}),
    ("join", "{{ items|join(', ') }}", {"items": ["a", "b", "c"]}),
    ("conditional expression", "{{ x if y else z }}", {"x": "yes", "y": False, "z": "no"}),
    ("concat", "{{ a ~ b ~ 1 }}", {"a": "x", "b": "y"}),
    ("loop index", "{% for i in items %}{{ loop.index }}.{{ i }} {% endfor %}", {"items": ["a", "b"]}),
    ("loop last", "{% for i in items %}{{ i }}{% if not loop.last %}, {% endif %}{% endfor %}", {"items": ["a", "b", "c"]}),
    ("is defined", "{% if x is defined %}x{% else %}no x{% endif %}", {}),
    ("format", "{{ '%s is %d years'|format(name, age) }}", {"name": "Ann", "age": 30}),
    ("map", "{{ users|map(attribute='name')|join('/') }}", {"users": [{"name": "a"}, {"name": "b"}]}),
    ("upper method", "{{ name.upper() }} {{ name.title() }}", {"name": "ann lee"}),
    ("negative index", "{{ items[-1] }}", {"items": [1, 2, 3]}),
    ("dict items", "{% for k, v in h.items() %}{{ k }}={{ v }};{% endfor %}", {"h": {"task": "x", "n": 2}}),
    ("dict printed", "{{ h }}", {"h": {"task": {"type": "string"}, "ok": True, "n": None}}),
    ("list printed", "{{ items }}", {"items": ["it's", 1, 2.5, True, None]}),
    ("raw", "{% raw %}{{ not a tag }}{% endraw %}", {}),
    ("slice", "{{ s[-5:] }}|{{ s[:3] }}", {"s": "abcdefghij"}),
    ("numbers", "{{ 7 // 2 }} {{ -7 // 2 }} {{ 7 / 2 }} {{ 2 ** 10 }} {{ 10 % 3 }} {{ 0.1 + 0.2 }}", {}),
    ("filters", "{{ names|sort|first }} {{ names|length }} {{ price|round(1) }} {{ -3|abs }}", {"names": ["b", "a"], "price": 2.345}),
    ("namespace", "{% set ns = namespace(n=0) %}{% for i in items %}{% set ns.n = ns.n + i %}{% endfor %}{{ ns.n }}", {"items": [1, 2, 3]}),
    ("macro", "{% macro greet(who, punct='!') %}Hi {{ who }}{{ punct }}{% endmacro %}{{ greet('Ann') }} {{ greet('Bo', '?') }}", {}),
    ("whitespace control", "{% for i in items -%}\n  {{ i }}\n{%- endfor %}", {"items": ["a", "b"]}),
    ("selectattr", "{{ tools|selectattr('on')|map(attribute='n')|list }}", {"tools": [{"n": "a", "on": True}, {"n": "b", "on": False}]}),
    ("string methods", "{{ s.strip().split(',')|join('+') }} {{ s.replace('a', 'o') }} {{ s.startswith(' a') }}", {"s": " a,b,c "}),
    ("in test", "{{ 'b' in items }} {{ 'z' not in items }}", {"items": ["a", "b"]}),
    ("tojson", "{{ data|tojson }}", {"data": {"b": [1, 2.5], "a": "x"}}),
    ("truncate and wordcount", "{{ text|truncate(9) }} {{ text|wordcount }}", {"text": "one two three four"}),
    ("dictsort", "{% for k, v in d|dictsort %}{{ k }}{{ v }}{% endfor %}", {"d": {"b": 2, "a": 1}}),
    ("batch", "{% for row in items|batch(2) %}{{ row|join }};{% endfor %}", {"items": ["a", "b", "c"]}),
    ("indent", "{{ text|indent(2) }}", {"text": "a\nb"}),
]

env = jinja2.Environment()
out = []
for name, src, ctx in CASES:
    out.append({"name": name, "src": src, "vars": ctx, "want": env.from_string(src).render(**ctx)})
print(json.dumps({"jinja2": jinja2.__version__, "cases": out}, indent=1, ensure_ascii=False))
