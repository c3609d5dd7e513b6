#!/usr/bin/env python3
"""The forms compile_into.go reads where they lie or writes into a slot, as cases.

    python3 convert/destination.py     # -> cases/destination.json

{% set x = … %} of a name writes the value into x's slot (the value may
read x itself); a condition, a test and a comparison read a local, a
field of a local dict or a path of constant items (messages[0]['role'])
where it lies. For each, the values that leave those paths: a missing
key, an index out of range, a method's name, Undefined, Markup, ints and
floats, a recursive loop called while a comparison's left operand is
held. Python's Jinja2 decides what each prints or raises (oracle.py).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

MS = [
    {"role": "system", "content": "S", "n": 1},
    {"role": "user", "content": "U", "n": 2.0},
    {"role": {"__markup__": "user"}, "content": "", "n": 2},
    {"content": None, "items": "it"},
]

# (name, template, context, env)
CASES = [
    ("set-self-field",
     "{% for m in ms %}{% set m = m.content %}[{{ m }}]{% set m = m %}{{ m is none }}{% endfor %}",
     {"ms": MS}, {}),
    ("set-self-item",
     "{% for m in ms %}{% set m = m['role'] %}[{{ m }}]{% endfor %}",
     {"ms": MS}, {}),
    ("set-paths",
     "{% for x in [1] %}{% set a = ms[0]['role'] %}{% set b = ms[1].content %}{% set c = ms[-1].content %}{% set d = ms[9] %}{% set e = ms[0].nothere %}{{ a }}|{{ b }}|{{ c }}|{{ d is defined }}|{{ e is defined }}{% endfor %}",
     {"ms": MS}, {}),
    ("set-path-of-undefined",
     "{% for x in [1] %}{% set d = ms[9].role %}{{ d }}{% endfor %}",
     {"ms": MS}, {}),
    ("set-name-and-const",
     "{% for x in xs %}{% set y = x %}{% set z = 'k' %}{% set w = nothere %}{{ y }}{{ z }}{{ w is defined }}{% endfor %}{{ y is defined }}",
     {"xs": [1, "a"]}, {}),
    ("set-method-name",
     "{% for m in ms %}{% set i = m.items %}{{ i is callable }}{% set k = m['items'] %}{{ k is defined }}{% endfor %}",
     {"ms": MS}, {}),
    ("set-not-a-dict",
     "{% for s in ss %}{% set u = s.upper %}{% set l = s['x'] %}{{ u is callable }}{{ l is defined }}{% endfor %}",
     {"ss": ["ab", 3]}, {}),
    ("set-item-of-int",
     "{% for s in ss %}{% set l = s['x'] %}{% endfor %}",
     {"ss": [None]}, {}),
    ("cond-truth",
     "{% for m in ms %}{% if m.content %}c{% endif %}{% if m['n'] %}n{% endif %}{% if ms[0].content %}0{% endif %}{% if m.nothere %}X{% endif %}{% if m %}m{% endif %}|{% endfor %}",
     {"ms": MS}, {}),
    ("cond-tests",
     "{% for m in ms %}{{ m.role is defined }}{{ m['role'] is undefined }}{{ m.content is none }}{{ ms[0].role is defined }}{{ ms[7] is defined }}{{ ms[3]['content'] is none }}{{ m.items is defined }}|{% endfor %}",
     {"ms": MS}, {}),
    ("cond-tests-of-undefined-path",
     "{{ ms[9].role is defined }}",
     {"ms": MS}, {}),
    ("cond-str-const",
     "{% for m in ms %}{% if ms[0]['role'] == 'system' %}s{% endif %}{% if ms[2].role == 'user' %}u{% endif %}{% if m.role != 'user' %}!{% endif %}{% if m.n == '2' %}N{% endif %}|{% endfor %}",
     {"ms": MS}, {}),
    ("cond-both-in-place",
     "{% for m in ms %}{% if m.n == ms[2].n %}={% endif %}{% if m.role == ms[1]['role'] %}r{% endif %}{% if m.n != k %}k{% endif %}{% if m.content < 'T' %}<{% endif %}|{% endfor %}",
     {"ms": MS[:3], "k": 2}, {}),
    ("cond-compare-error",
     "{% for m in ms %}{% if m.n < m.role %}x{% endif %}{% endfor %}",
     {"ms": MS}, {}),
    ("cond-int-const",
     "{% for m in ms %}{% if m.n == 2 %}2{% endif %}{% if m['n'] > 1 %}>{% endif %}{% if ms[1].n <= 2 %}l{% endif %}{% if x == 3 %}x{% endif %}|{% endfor %}",
     {"ms": MS[:3], "x": 3}, {}),
    ("cond-int-const-error",
     "{% for m in ms %}{% if m.content > 1 %}x{% endif %}{% endfor %}",
     {"ms": MS}, {}),
    ("cond-recursive-left-held",
     "{% for t in ts recursive %}{% if t.name == (loop(t.kids) if t.kids else 'b') %}={% endif %}{{ t.name }}{% endfor %}",
     {"ts": [{"name": "=b", "kids": [{"name": "b"}]}, {"name": "c", "kids": [{"name": "d"}]}]}, {}),
    ("cond-sandbox",
     "{% for m in ms %}{% if m._p is defined %}p{% endif %}{% if m.items is defined %}i{% endif %}{% if m._p == 1 %}1{% endif %}{% endfor %}",
     {"ms": [{"_p": 1}]}, {"sandbox": True}),
    ("loop-int-compare",
     "{% for x in xs %}{{ loop.index0 == 0 }}{{ loop.index % 2 == 0 }}{{ loop.revindex0 - 1 > 0 }}{{ loop.length + 1 == 4 }}{{ loop.revindex != 1 }}{{ loop.index0 - 3 < -1 }}|{% endfor %}",
     {"xs": "abc"}, {}),
    ("loop-int-alternate",
     "{% for m in ms %}{% if (m.role == 'user') != (loop.index0 % 2 == 1) %}!{% endif %}{{ m.role }}{% endfor %}",
     {"ms": MS[:3]}, {}),
    ("loop-int-item",
     "{% for m in ms %}{{ ms[loop.index0 - 1].role }}{{ ms[loop.index0 + 1] is defined }}{% if loop.index0 > 0 and ms[loop.index0 - 1].role != m.role %}!{% endif %}{% if ms[loop.index0 % 2]['content'] %}c{% endif %}|{% endfor %}",
     {"ms": MS}, {}),
    ("loop-int-item-str",
     "{% for c in s %}{{ s[loop.index0] }}{{ s[loop.index0 + 1] is defined }}{% if s[loop.revindex0] == 'a' %}A{% endif %}{% endfor %}",
     {"s": "abc"}, {}),
    ("loop-int-item-missing-attr",
     "{% for m in ms %}{% if ms[loop.index0 + 1].role == 'x' %}x{% endif %}{% endfor %}",
     {"ms": MS[:2]}, {}),
    ("loop-int-item-not-a-list",
     "{% for x in xs %}{% if d[loop.index0 + 1] is defined %}y{% endif %}{% endfor %}{% for x in xs %}{% if n[loop.index0] is defined %}y{% endif %}{% endfor %}",
     {"xs": [1, 2], "d": {"a": 1}, "n": None}, {}),
    ("loop-int-filtered",
     "{% for x in xs if x > 1 %}{{ loop.index0 == 0 }}{{ loop.last }}{{ xs[loop.index0 + 1] }}{% if loop.length - 1 == loop.index0 %}E{% endif %}|{% endfor %}",
     {"xs": [1, 2, 3, 4]}, {}),
    ("loop-int-not-a-loop",
     "{{ loop.index0 == 0 }}{{ xs[loop.index0 + 1] }}{% if loop.length % 2 == 1 %}o{% endif %}",
     {"loop": {"index0": 0, "length": 3}, "xs": ["a", "b"]}, {}),
    ("loop-int-of-undefined-loop",
     "{{ loop.index0 == 0 }}",
     {}, {}),
    ("ns-truth",
     "{% set ns = namespace(a=0, b='x', c=none, items=1) %}{% if ns.a %}a{% endif %}{% if ns.b %}b{% endif %}{% if ns.c %}c{% endif %}{% if ns.d %}d{% endif %}{% if ns._p %}p{% endif %}{% if ns.items %}i{% endif %}{% if ns.b == 'x' %}x{% endif %}",
     {}, {}),
    ("ns-compare-both-in-place",
     "{% set ns = namespace(role='user') %}{% for m in ms %}{% if ns.role == m.role %}={% endif %}{% if m.role == ns.role %}+{% endif %}{% set ns.role = m.role %}{{ ns.role }}{% endfor %}",
     {"ms": MS[:3]}, {}),
    ("ns-sandbox",
     "{% set ns = namespace(q=2) %}{% if ns.q %}q{% endif %}{% if ns._q %}p{% endif %}{% if ns.q == 2 %}2{% endif %}",
     {}, {"sandbox": True}),
]


def main():
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_case_list("destination", CASES)


if __name__ == "__main__":
    main()
