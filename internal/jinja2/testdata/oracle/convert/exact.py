#!/usr/bin/env python3
"""Exactness leftovers of issue 23, as cases.

    python3 convert/exact.py     # -> cases/exact.json

Corners where the package once printed something other than Jinja2, found
by reading Jinja2's source and probing it rather than by a converted
suite: tojson's sort_keys=True over keys that are not all strs (sorted by
value, a TypeError for keys Python cannot order, and two keys that write
alike written twice); whether a macro takes caller, kwargs and varargs
when its body stores them (a set, for or with target, a nested macro's
parameter); the order of finalize and escaping for a constant print;
sameas on strs where CPython's identity is reproducible; iterating the
loop variable, and generators read in part; the autoescape tag's scope. Python's Jinja2 decides what each prints or raises
(oracle.py).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def int_keys(n, extra=()):
    """A dict of n int keys in a scrambled order (more than Python's
    binary-insertion threshold of 64 when n is large), then extra keys."""
    return {"__dict__": [[i * 37 % 101, i] for i in range(n)] + [list(kv) for kv in extra]}


# (name, template, context, env)
CASES = [
    # tojson is htmlsafe_json_dumps(sort_keys=True): json.dumps sorts
    # dct.items(), so keys compare as Python values, not as their JSON text
    ("tojson-int-keys-sorted", "{{ {2: 1, 10: 2}|tojson }}|{{ {5: 1, 4: 2, 3: 3, 10: 4, 1: 5, 2.5: 6, False: 7}|tojson }}|{{ {2**70: 1, -1: 2, 1.5: 3}|tojson }}", {}, {}),
    ("tojson-key-kinds", "{{ {True: 1}|tojson }}|{{ {1.5: 1}|tojson }}|{{ {none: 1}|tojson }}|{{ {1.0: 1}|tojson }}|{{ {1e20: 1}|tojson }}|{{ {True: 1, False: 2}|tojson }}", {}, {}),
    ("tojson-int-keys-nested", "{{ [{3: 'a', 1: {20: 1, 3: 2}}, {'b': 1, 'a': {2: 0, 1: 1}}]|tojson }}|{{ {3: [1, {2: 1, 1: 2}], 1: none}|tojson(2) }}", {}, {}),
    ("tojson-int-keys-context", "{{ d|tojson }}|{{ big|tojson }}", {"d": {"__dict__": [[10, 1], [9, 2], [-3, 3]]}, "big": int_keys(80)}, {}),
    ("tojson-str-and-int-key", "{{ {1: 'a', '1': 'b'}|tojson }}", {}, {}),
    ("tojson-int-and-str-key", "{{ {'1': 'b', 1: 'a'}|tojson }}", {}, {}),
    ("tojson-none-and-float-key", "{{ {True: 1, 1.5: 2, None: 3}|tojson }}", {}, {}),
    ("tojson-mixed-nested", "{{ {'a': {1: 1, 'x': 2}}|tojson }}", {}, {}),
    ("tojson-mixed-many", "{{ big|tojson }}", {"big": int_keys(80, [("s", 1)])}, {}),
    ("tojson-sorted-then-values", "{{ {2: nothere, 1: 2}|tojson }}", {}, {}),
    # transformers' tojson: json.dumps without sort_keys writes a dict's
    # keys in order, two that write alike both
    ("hf-tojson-keys-alike", "{{ {1: 'a', '1': 'b'}|tojson }}|{{ {1: 'a', '1': 'b', True: 'c'}|tojson(indent=1) }}|{{ {True: 1, 1.5: 2, None: 3}|tojson }}", {}, {"profile": "hf"}),
    ("hf-tojson-sort-keys", "{{ {3: 1, 10: 2, 2.5: 3}|tojson(sort_keys=true) }}|{{ {3: 1, 10: 2}|tojson }}", {}, {"profile": "hf"}),
    ("hf-tojson-sort-keys-mixed", "{{ {3: 1, 10: 2, 'a': 3}|tojson(sort_keys=true) }}", {}, {"profile": "hf"}),
    # a macro takes caller, kwargs and varargs when its body reads them
    # before storing them (find_undeclared visits fields in order; a set,
    # for or with target and a nested macro's parameter end the search)
    ('macro-special-caller-set', '{% macro m() %}{% set caller = 1 %}{{ caller }}{% endmacro %}{{ m() }}|{{ m.caller }}', {}, {}),
    ('macro-special-caller-set-call', '{% macro m() %}{% set caller = 1 %}{{ caller }}{% endmacro %}{% call m() %}x{% endcall %}', {}, {}),
    ('macro-special-caller-set-cond', '{% macro m() %}{% if false %}{% set caller = 1 %}{% endif %}{{ caller is defined }}{% endmacro %}{{ m() }}|{{ m.caller }}', {}, {}),
    ('macro-special-caller-for', '{% macro m() %}{% for caller in [1] %}{{ caller }}{% endfor %}{% endmacro %}{{ m() }}|{{ m.caller }}', {}, {}),
    ('macro-special-caller-arg', '{% macro m(caller) %}{{ caller }}{% endmacro %}{{ m(2) }}|{{ m.caller }}', {}, {}),
    ('macro-special-caller-set-after', '{% macro m() %}{{ caller is defined }}{% set caller = 1 %}{% endmacro %}{{ m() }}|{{ m.caller }}', {}, {}),
    ('macro-special-nested-param', '{% macro o() %}{% macro i(caller=1) %}{% endmacro %}{{ caller is defined }}{% endmacro %}{{ o.caller }}|{{ o() }}', {}, {}),
    ('macro-special-nested-read', '{% macro o() %}{% macro i() %}{{ caller() }}{% endmacro %}{% endmacro %}{{ o.caller }}|{{ i is defined }}', {}, {}),
    ('macro-special-nested-read-call', '{% macro o() %}{% macro i() %}[{{ caller() }}]{% endmacro %}{{ i() }}{% endmacro %}{% call o() %}X{% endcall %}', {}, {}),
    ('macro-special-callblock-param', '{% macro o() %}{% call(caller) p() %}{% endcall %}{{ caller is defined }}{% endmacro %}{% macro p() %}{{ caller(1) }}{% endmacro %}{{ o.caller }}|{{ o() }}', {}, {}),
    ('macro-special-with', '{% macro m() %}{% with caller = 1 %}{{ caller }}{% endwith %}{{ caller is defined }}{% endmacro %}{{ m.caller }}|{{ m() }}', {}, {}),
    ('macro-special-with-value', '{% macro m() %}{% with x = caller %}{{ x is defined }}{% endwith %}{% endmacro %}{{ m.caller }}|{{ m() }}', {}, {}),
    ('macro-special-with-self', '{% macro m() %}{% with caller = caller %}{{ caller is defined }}{% endwith %}{% endmacro %}{{ m.caller }}|{{ m() }}', {}, {}),
    ('macro-special-set-self', '{% macro m() %}{% set caller = caller %}{{ caller is defined }}{% endmacro %}{{ m.caller }}', {}, {}),
    ('macro-special-setblock', '{% macro m() %}{% set caller %}x{% endset %}{{ caller }}{% endmacro %}{{ m.caller }}|{{ m() }}', {}, {}),
    ('macro-special-for-filter', '{% macro m() %}{% for x in [1] if caller %}{% endfor %}{% endmacro %}{{ m.caller }}', {}, {}),
    ('macro-special-for-filter-after-body', '{% macro m() %}{% for x in [1] if caller %}{% set caller = 2 %}{% endfor %}{% endmacro %}{{ m.caller }}', {}, {}),
    ('macro-special-for-tuple', '{% macro m() %}{% for a, caller in [(1, 2)] %}{{ caller }}{% endfor %}{{ caller is defined }}{% endmacro %}{{ m.caller }}|{{ m() }}', {}, {}),
    ('macro-special-filterblock', "{% macro m() %}{% filter upper %}{% set caller = 'a' %}{% endfilter %}{{ caller }}{% endmacro %}{{ m.caller }}", {}, {}),
    ('macro-special-filterblock-arg', "{% macro m() %}{% filter replace('a', caller) %}{% set caller = 'a' %}a{% endfilter %}{% endmacro %}{{ m.caller }}", {}, {}),
    ('macro-special-block', '{% macro m() %}{% block b %}{{ caller() }}{% endblock %}{% endmacro %}{{ m.caller }}', {}, {}),
    ('macro-special-kwargs-set', '{% macro m() %}{% set kwargs = 1 %}{{ kwargs }}{% endmacro %}{{ m.catch_kwargs }}|{{ m() }}', {}, {}),
    ('macro-special-kwargs-set-call', '{% macro m() %}{% set kwargs = 1 %}{{ kwargs }}{% endmacro %}{{ m(a=1) }}', {}, {}),
    ('macro-special-varargs-for', '{% macro m() %}{% for varargs in [1] %}{% endfor %}{{ varargs }}{% endmacro %}{{ m.catch_varargs }}|{{ m() }}', {}, {}),
    ('macro-special-varargs-for-call', '{% macro m() %}{% for varargs in [1] %}{% endfor %}{{ varargs }}{% endmacro %}{{ m(1) }}', {}, {}),
    ('macro-special-nested-kwargs', '{% macro o() %}{% macro i(kwargs) %}{% endmacro %}{{ kwargs }}{% endmacro %}{{ o.catch_kwargs }}|{{ o() }}', {}, {}),
    ('macro-special-ns', '{% macro m() %}{% set ns = namespace(caller=1) %}{% set ns.caller = 2 %}{{ ns.caller }}{% endmacro %}{{ m.caller }}|{{ m() }}', {}, {}),
    ('macro-special-import-as', "{% macro m() %}{% import 'x' as caller %}{{ caller.a }}{% endmacro %}{{ m.caller }}", {}, {}),
    ('macro-special-callblock-caller-reads', '{% macro p() %}{{ caller() }}{% endmacro %}{% call p() %}{{ caller is defined }}{% endcall %}', {}, {}),
    ('macro-special-callblock-set-caller', '{% macro p() %}{{ caller() }}{% endmacro %}{% call p() %}{% set caller = 3 %}{{ caller }}{% endcall %}', {}, {}),
    ('macro-special-default-reads', '{% macro m(a=caller) %}{{ a is defined }}{% endmacro %}{{ m.caller }}|{{ m() }}', {}, {}),
    ('macro-special-macro-named-caller', '{% macro m() %}{% macro caller() %}x{% endmacro %}{{ caller() }}{% endmacro %}{{ m.caller }}|{{ m() }}', {}, {}),
    ('macro-special-macro-named-caller-call', '{% macro m() %}{% macro caller() %}x{% endmacro %}{{ caller() }}{% endmacro %}{% call m() %}y{% endcall %}', {}, {}),
    ('macro-special-if-order', '{% macro m() %}{% if caller is defined %}{% set caller = 1 %}{% endif %}{% endmacro %}{{ m.caller }}', {}, {}),
    ('macro-special-autoescape', '{% macro m() %}{% autoescape caller is defined %}{% endautoescape %}{% endmacro %}{{ m.caller }}', {}, {}),
    ('macro-special-caller-in-caller', '{% macro o() %}{{ caller() }}{% endmacro %}{% macro p() %}<{{ caller() }}>{% endmacro %}{% call o() %}{% call p() %}in{% endcall %}{% endcall %}', {}, {}),
    ('macro-special-caller-args', '{% macro o() %}{{ caller(1, 2) }}{% endmacro %}{% call(a, b=5, c=7) o() %}{{ a }}{{ b }}{{ c }}{% endcall %}', {}, {}),
    ('macro-special-caller-varargs', '{% macro o() %}{{ caller(1, 2, 3, k=4) }}{% endmacro %}{% call(a) o() %}{{ a }}{{ varargs }}{{ kwargs }}{% endcall %}', {}, {}),
    ('macro-special-caller-attrs', '{% macro o() %}{{ caller.name }}|{{ caller.arguments }}|{{ caller.caller }}|{{ caller.catch_kwargs }}|{{ caller }}{% endmacro %}{% call(x, y=1) o() %}{{ kwargs }}{% endcall %}', {}, {}),
    # finalize: a constant is escaped, then finalized (Jinja2 folds it at
    # compile time); a value at render time is finalized, then escaped
    ('finalize-kinds', "{{ 1 }}|{{ 1.5 }}|{{ none }}|{{ true }}|{{ [1, '<'] }}|{{ (1,) }}|{{ {'a': '<'} }}|{{ '' }}|{{ 2**70 }}", {}, {'autoescape': True, 'finalize': 'twice'}),
    ('finalize-ops', "{{ 1 + 2 }}|{{ 'a' ~ 1 }}|{{ none ~ 'x' }}|{{ 'a' * 2 }}|{{ 1 if true }}|{{ 1 if false }}|{{ 1 if false else none }}|{{ not 1 }}|{{ 1 < 2 }}", {}, {'autoescape': True, 'finalize': 'twice'}),
    ('finalize-filters', "{{ 'a'|upper }}|{{ 'a'|default('b') }}|{{ [1, 2]|join }}|{{ 'x'|safe }}|{{ '<'|e }}|{{ [1, 2]|first }}|{{ [1]|length }}|{{ 'a'|list }}|{{ [3, 1]|sort }}|{{ 1|string }}|{{ [1,2]|map('string')|list }}", {}, {'autoescape': True, 'finalize': 'twice'}),
    ('finalize-attrs', "{{ 'ab'[0] }}|{{ 'ab'[5] }}|{{ 'ab'.x }}|{{ (1, 2)[1] }}|{{ {'a': 1}.a }}|{{ 'ab'[1:] }}|{{ 'ab'.upper() }}", {}, {'autoescape': True, 'finalize': 'twice'}),
    ('finalize-none-empty', "[{{ none }}]|[{{ x }}]|[{{ none if true }}]|[{{ [none] }}]|[{{ none|default('d') }}]|[{{ none ~ '' }}]", {'x': None}, {'autoescape': True, 'finalize': 'none_empty'}),
    ('finalize-none-empty-plain', '[{{ none }}]|[{{ x }}]|[{{ [none]|first }}]', {'x': None}, {'finalize': 'none_empty'}),
    ('finalize-blocks', "{% autoescape false %}{{ 1 }}{{ '<' }}{% endautoescape %}|{% autoescape true %}{{ 1 }}{{ '<' }}{% endautoescape %}", {}, {'finalize': 'twice'}),
    ('finalize-blocks2', "{% autoescape false %}{{ 1 }}{{ '<' }}{% endautoescape %}|{% autoescape true %}{{ 1 }}{{ '<' }}{% endautoescape %}", {}, {'autoescape': True, 'finalize': 'twice'}),
    ('finalize-macro', '{% macro m() %}{{ 1 }}{{ none }}{% endmacro %}{{ m() }}|{% set v %}{{ 1 }}{% endset %}{{ v }}|{% filter upper %}{{ 1 }}{% endfilter %}', {}, {'autoescape': True, 'finalize': 'twice'}),
    ('finalize-callblock', '{% macro m() %}[{{ caller() }}]{% endmacro %}{% call m() %}{{ 2 }}{{ none }}{% endcall %}', {}, {'autoescape': True, 'finalize': 'twice'}),
    ('finalize-loop', '{% for x in [1] %}{{ 3 }}{{ loop.index }}{{ x }}{% endfor %}', {}, {'autoescape': True, 'finalize': 'twice'}),
    ('finalize-volatile', "{% autoescape x %}{{ 1 }}{{ 'a'|upper }}{% endautoescape %}", {'x': True}, {'autoescape': True, 'finalize': 'twice'}),
    ('finalize-volatile2', "{% autoescape x %}{{ 1 }}{{ 'a'|upper }}{% endautoescape %}", {'x': False}, {'autoescape': True, 'finalize': 'twice'}),
    ('finalize-print-stmt', '{% print 1 %}|{% print none %}', {}, {'autoescape': True, 'finalize': 'twice'}),
    ('finalize-sandbox', '{{ 1 }}|{{ none }}', {}, {'autoescape': True, 'finalize': 'twice', 'sandbox': True}),
    ('finalize-undef-const', "[{{ 'ab'.x }}]|[{{ {}.a }}]|[{{ none.a }}]", {}, {'autoescape': True, 'finalize': 'none_empty'}),
    ('finalize-tojson', "{{ 1|tojson }}|{{ {'a': none}|tojson }}|{{ '<'|tojson }}", {}, {'autoescape': True, 'finalize': 'twice'}),
    ('finalize-concat-markup', "{{ '<'|safe ~ '<' }}|{{ '<' ~ 1 }}", {}, {'autoescape': True, 'finalize': 'twice'}),
    ('finalize-strmod', "{{ '%s' % 1 }}|{{ '%s<' % none }}|{{ '{}'.format(1) }}", {}, {'autoescape': True, 'finalize': 'twice'}),
    ('finalize-range', '{{ range(2) }}|{{ range(2)|list }}|{{ lipsum is defined }}|{{ dict(a=1) }}', {}, {'autoescape': True, 'finalize': 'twice'}),
    ('finalize-unknown-filter', '{% if false %}{{ 1|nofilter }}{% endif %}ok', {}, {'autoescape': True, 'finalize': 'twice'}),
    # sameas on strs: CPython's identity where the package can tell it
    # (docs/FUZZING.md says where it cannot)
    ('sameas-literals', "{{ 'a' is sameas 'a' }}|{{ 'ab' is sameas 'ab' }}|{{ '' is sameas '' }}|{{ 'é' is sameas 'é' }}|{{ 'ā' is sameas 'ā' }}|{{ '😀' is sameas '😀' }}|{{ 'a b' is sameas 'a b' }}|{% set b = 'a' %}{{ b is sameas 'a' }}", {}, {}),
    ('sameas-same-value', "{{ x is sameas x }}|{{ x is sameas y }}|{{ x is sameas 'ab' }}|{{ c is sameas c }}|{{ e is sameas '' }}|{% set a = 'ab' %}{{ a is sameas a }}|{{ x|string is sameas x }}|{{ x|default('z') is sameas x }}|{{ x|trim is sameas x }}|{{ x|upper is sameas x }}|{{ x|replace('z', 'y') is sameas x }}|{{ l[0] is sameas l[0] }}|{% for k in d %}{{ d[k] is sameas d.key }}{% endfor %}", {'x': 'ab', 'y': 'ab', 'c': 'a', 'e': '', 'l': ['ab'], 'd': {'key': 'value'}}, {}),
    ('sameas-slices', "{{ 'ab'[0] is sameas 'a' }}|{{ 'ab'[:1] is sameas 'a' }}|{{ 'ab'[:] is sameas 'ab' }}|{{ x[:] is sameas x }}|{{ x[0:2] is sameas x }}|{{ x[0] is sameas x[0] }}|{{ 'éa'[0] is sameas 'é' }}|{{ 'ab'|first is sameas 'a' }}|{{ ('a' ~ 'b')[0] is sameas 'a' }}", {'x': 'ab'}, {}),
    # the loop variable is an iterator (LoopContext.__next__): iterating
    # it moves the loop on an item at a time, and what a filter reads of
    # an item is the loop at that item; generators keep their place
    ('loop-var-join', "{% for x in 'abc' %}[{{ loop|join(',') }}]{% endfor %}", {}, {}),
    ('loop-var-list', "{% for x in 'abc' %}{{ loop|list }}{{ loop.index }}{% endfor %}", {}, {}),
    ('loop-var-for', "{% for x in 'abc' %}{% for y in loop %}{{ y }}{% endfor %}|{{ loop.index }};{% endfor %}", {}, {}),
    ('loop-var-for-unpack', "{% for x in 'abc' %}{% for y, l in loop %}{{ y }}{{ l.index }}{% endfor %}|{{ loop.index }}{{ x }};{% endfor %}", {}, {}),
    ('loop-var-for-innerloop', "{% for x in 'abcd' %}{% for y, l in loop %}{{ loop.index }}{{ loop.length }}{{ loop.last }}{{ y }}{% endfor %};{% endfor %}", {}, {}),
    ('loop-var-first', "{% for x in 'abc' %}{{ loop|first }}{{ loop.index }}{% endfor %}", {}, {}),
    ('loop-var-first-filter', "{% for x in 'abcd' if x != 'b' %}{{ loop|first }}{{ loop.index }}{% endfor %}", {}, {}),
    ('loop-var-length', "{% for x in 'abc' %}{{ loop|length }}{{ loop.index }}{% endfor %}", {}, {}),
    ('loop-var-count', "{% for x in 'abc' %}{{ loop|count }}{{ loop.index }}{% endfor %}", {}, {}),
    ('loop-var-last', "{% for x in 'abc' %}{{ loop|last }}{{ loop.index }}{% endfor %}", {}, {}),
    ('loop-var-map', "{% for x in 'abc' %}{{ loop|map('string')|join }}{% endfor %}", {}, {}),
    ('loop-var-map-list', "{% for x in 'abc' %}{{ loop|map('string')|list }}{% endfor %}", {}, {}),
    ('loop-var-select-list', "{% for x in 'abc' %}{{ loop|select|list }}{% endfor %}", {}, {}),
    ('loop-var-sum', "{% for x in 'abc' %}{{ loop|sum(attribute='1.index') }}{% endfor %}", {}, {}),
    ('loop-var-in', "{% for x in 'abc' %}{{ 'c' in loop }}{{ loop.index }}{% endfor %}", {}, {}),
    ('loop-var-tojson', "{% for x in 'ab' %}{{ loop|batch(1)|list }}{% endfor %}", {}, {}),
    ('loop-var-string', "{% for x in 'abc' %}{{ loop|string }}{{ loop|pprint }}{% endfor %}", {}, {}),
    ('loop-var-unique', "{% for x in 'abc' %}{{ loop|unique|list|length }}{{ loop.index }}{% endfor %}", {}, {}),
    ('loop-var-reverse', "{% for x in 'abc' %}{{ loop|reverse|list|length }}{{ loop.index }}{% endfor %}", {}, {}),
    ('loop-var-cycle-after', "{% for x in 'abcd' %}{{ loop.cycle(1,2,3) }}{{ loop|first }}{{ loop.cycle(1,2,3) }}{{ loop.changed(x) }}{% endfor %}", {}, {}),
    ('loop-var-recursive', '{% for x in [[1, 2], [3]] recursive %}{{ loop.depth }}{% if x is iterable %}{{ loop(x) }}{% endif %}{% endfor %}', {}, {}),
    ('loop-var-else-after-iter', "{% for x in 'abc' %}{% for p in loop %}{% endfor %}{{ x }}{% else %}E{% endfor %}", {}, {}),
    ('loop-var-break-iter', "{% for x in 'abcd' %}{% for p in loop %}{{ p[0] }}{% break %}{% endfor %}{{ x }}{% endfor %}", {}, {'extensions': ['loopcontrols']}),
    ('loop-var-more-prev-after', "{% for x in 'abcd' %}{{ loop|first }}{{ loop.previtem }}{{ loop.nextitem }}{{ loop.first }}{{ loop.last }}{{ loop.revindex }};{% endfor %}", {}, {}),
    ('loop-var-more-inner-filter', "{% for x in 'abcde' %}{% for y, l in loop if y != 'c' %}{{ y }}{{ loop.index }}{{ loop.length }}{{ loop.last }}{{ l.index }}{% endfor %};{% endfor %}", {}, {}),
    ('loop-var-more-inner-else', "{% for x in 'a' %}{% for p in loop %}{{ p }}{% else %}E{{ loop.index }}{% endfor %}{% endfor %}", {}, {}),
    ('loop-var-more-outer-filter', "{% for x in 'abcde' if x != 'b' %}{% for p in loop %}{{ p[0] }}{{ p[1].index }}{{ loop.revindex }}{% endfor %}|{{ loop.length }};{% endfor %}", {}, {}),
    ('loop-var-more-outer-filter-first', "{% for x in 'abcde' if x != 'b' %}{{ (loop|first)[0] }}{{ loop.index }}{{ loop.length }};{% endfor %}", {}, {}),
    ('loop-var-more-nested-two', "{% for x in 'abc' %}{% for y in 'de' %}{% for p in loop %}{{ p[0] }}{% endfor %}{{ loop.index }}{% endfor %}{{ loop.index }};{% endfor %}", {}, {}),
    ('loop-var-more-changed-after', "{% for x in 'aabb' %}{{ loop.changed(x) }}{% for p in loop %}{{ loop.changed(p[0]) }}{% endfor %}{% endfor %}", {}, {}),
    ('loop-var-more-cycle-inner', "{% for x in 'abcd' %}{% for p in loop %}{{ loop.cycle('x', 'y') }}{{ p[1].cycle('X', 'Y') }}{% endfor %}{% endfor %}", {}, {}),
    ('loop-var-more-recursive-iter', '{% for x in [[1, 2], [3, 4]] recursive %}{% if x is iterable %}[{{ loop(x) }}]{% else %}{{ x }}{% for p in loop %}{{ p[0] }}{{ p[1].depth }}{% endfor %}{% endif %}{% endfor %}', {}, {}),
    ('loop-var-more-join-attr', "{% for x in 'abc' %}{{ loop|join(',', attribute='1.index') }}{% endfor %}", {}, {}),
    ('loop-var-more-join-autoescape', "{% for x in 'abc' %}[{{ loop|join(',') }}]{% endfor %}", {}, {'autoescape': True}),
    ('loop-var-more-join-autoescape-safe', "{% for x in 'abc' %}[{{ loop|join(','|safe) }}]{% endfor %}", {}, {'autoescape': True}),
    ('loop-var-more-select-map', "{% for x in 'abc' %}{{ loop|select|map('string')|join }}{% endfor %}", {}, {}),
    ('loop-var-more-reject', "{% for x in 'abcd' %}{{ loop|reject('sameas', none)|map(attribute='1.index')|list }}{% endfor %}", {}, {}),
    ('loop-var-more-map-attr', "{% for x in 'abcd' %}{{ loop|map(attribute='1.revindex')|list }}{{ loop|map(attribute='0')|join }}{% endfor %}", {}, {}),
    ('loop-var-more-unique', "{% for x in 'abc' %}{{ loop|map('string')|unique|list }}{% endfor %}", {}, {}),
    ('loop-var-more-batch', "{% for x in 'abcd' %}{{ loop|batch(2)|list }}{% endfor %}", {}, {}),
    ('loop-var-more-list-then', "{% for x in 'abc' %}{{ loop|list|map('string')|join }}{% endfor %}", {}, {}),
    ('loop-var-more-sum-plain', "{% for x in [1, 2, 3] %}{{ loop|map(attribute='0')|sum }}{{ loop.index }}{% endfor %}", {}, {}),
    ('loop-var-more-sum-start-str', "{% for x in [1, 2] %}{{ loop|sum(start='') }}{% endfor %}", {}, {}),
    ('loop-var-more-in', "{% for x in 'abc' %}{{ ('c', loop) in loop }}{{ loop.index }}{% endfor %}", {}, {}),
    ('loop-var-more-truth', "{% for x in 'abc' %}{% if loop %}T{% endif %}{{ loop|length }}{{ loop is sequence }}{{ loop is iterable }}{% endfor %}", {}, {}),
    ('loop-var-more-truth-filter', "{% for x in 'abcd' if x > 'a' %}{{ loop|length }}{{ loop|count }}{{ loop.index }}{% endfor %}", {}, {}),
    ('loop-var-more-break-continue', "{% for x in 'abcdef' %}{% for p in loop %}{% if p[0] == 'c' %}{% continue %}{% endif %}{{ p[0] }}{% if p[0] == 'e' %}{% break %}{% endif %}{% endfor %}{{ x }}.{% endfor %}", {}, {'extensions': ['loopcontrols']}),
    ('loop-var-more-set-in-inner', "{% for x in 'abc' %}{% for p in loop %}{% set x = 'z' %}{% endfor %}{{ x }}{% endfor %}", {}, {}),
    ('loop-var-more-dict-items-loop', '{% for k, v in d.items() %}{% for p in loop %}{{ p[0] }}{% endfor %}{{ k }}{% endfor %}', {'d': {'a': 1, 'b': 2, 'c': 3}}, {}),
    ('loop-var-more-pprint', "{% for x in 'ab' %}{{ loop|pprint }}{{ loop|list|pprint }}{% endfor %}", {}, {}),
    ('loop-var-more-tojson', "{% for x in 'ab' %}{{ loop|tojson }}{% endfor %}", {}, {}),
    ('loop-var-more-first-empty', "{% for x in 'ab' %}[{{ loop|first }}]{% endfor %}", {}, {}),
    ('loop-var-gen-for-select', "{% for x in 'abcd' %}{% for p in loop|select %}{{ p[1].index }}{{ loop.index }}{{ loop.length }}{% endfor %};{% endfor %}", {}, {}),
    ('loop-var-gen-for-map', "{% for x in 'abc' %}{% for s in loop|map('string') %}{{ s }}{% endfor %};{% endfor %}", {}, {}),
    ('loop-var-gen-first-map', "{% for x in 'abcd' %}{{ loop|map(attribute='1.index')|first }}{{ loop.index }};{% endfor %}", {}, {}),
    ('loop-var-gen-map-err', "{% for x in 'ab' %}{{ loop|map|list }}{% endfor %}", {}, {}),
    ('loop-var-gen-map-repr', "{% for x in 'ab' %}{{ (loop|map('string') is iterable) }}{{ loop|select|list|length }}{% endfor %}", {}, {}),
    ('loop-var-gen-selectattr', "{% for x in 'abcd' %}{{ loop|selectattr('0', 'ne', 'c')|map(attribute='1.index')|list }}{% endfor %}", {}, {}),
    ('loop-var-gen-map-twice', "{% set m = [1, 2]|map('string') %}{{ m|list }}{{ m|list }}", {}, {}),
    ('loop-var-gen-gen-loop-twice', "{% for x in 'abcd' %}{% set g = loop|map(attribute='0') %}{{ g|first }}{{ g|list }}{{ loop.index }};{% endfor %}", {}, {}),
    ('loop-var-gen-join-gen', "{% for x in 'abc' %}{{ loop|map(attribute='1')|join('|') }};{% endfor %}", {}, {}),
    ('loop-var-gen-sum-gen', "{% for x in [1, 2, 3] %}{{ loop|map(attribute='1.index')|sum }};{% endfor %}", {}, {}),
    ('loop-var-gen-plain-unchanged', "{{ [1, 2, 3]|select('odd')|map('string')|join(',') }}|{{ [1, 0]|map('abs')|first }}|{{ range(3)|sum }}|{{ ['a', 'b']|join(attribute='x') }}", {}, {}),
    ('gen-partial-in-found', "{% for x in 'abcd' %}{{ 'x' in loop|map(attribute='0')|map('replace', 'b', 'x') }}{{ loop.index }};{% endfor %}", {}, {}),
    ('gen-partial-in-loop', "{% for x in 'abcd' %}{{ ('c', loop) in loop }}{{ loop.index }};{% endfor %}", {}, {}),
    ('gen-partial-gen-partial', '{% set g = [1, 2, 3]|select %}{{ 2 in g }}{{ g|list }}', {}, {}),
    ('gen-partial-gen-first', "{% set g = [1, 2, 3]|map('string') %}{{ g|first }}{{ g|list }}", {}, {}),
    # the autoescape tag is a scope; a block's function starts from the
    # Environment's eval context; loop.cycle and loop.changed
    ('autoescape-block-in-ae', "{% autoescape false %}{% block b %}{{ 1 }}{{ '<' }}{% endblock %}{% endautoescape %}", {}, {'autoescape': True, 'finalize': 'twice'}),
    ('autoescape-block-in-ae-on', "{% autoescape true %}{% block b %}{{ 1 }}{{ '<' }}{% endblock %}{% endautoescape %}", {}, {'finalize': 'twice'}),
    ('autoescape-macro-in-ae', "{% autoescape false %}{% macro m() %}{{ 1 }}{{ '<' }}{% endmacro %}{% endautoescape %}{{ m() }}", {}, {'autoescape': True, 'finalize': 'twice'}),
    ('autoescape-macro-call-ae', "{% macro m() %}{{ 1 }}{{ '<' }}{% endmacro %}{% autoescape false %}{{ m() }}{% endautoescape %}", {}, {'autoescape': True, 'finalize': 'twice'}),
    ('autoescape-ae-nested', "{% autoescape false %}{% autoescape x %}{{ 1 }}{{ 'a'|upper }}{% endautoescape %}{{ 2 }}{% endautoescape %}", {'x': True}, {'autoescape': True, 'finalize': 'twice'}),
    ('autoescape-finalize-undef-attr', "[{{ 'ab'.nothere }}]|[{{ none.x }}]|[{{ (1, 2)[5] }}]", {}, {'autoescape': True, 'finalize': 'twice'}),
    ('autoescape-finalize-call', "{{ range(2) }}|{{ dict(a=1) }}|{{ 'a'.upper() }}|{{ '%s' % none }}", {}, {'autoescape': True, 'finalize': 'twice'}),
    ('autoescape-finalize-safe-none', '{{ none|safe }}|{{ none|e }}|{{ none|string }}', {}, {'autoescape': True, 'finalize': 'twice'}),
    ('autoescape-finalize-rec', '{% for x in [1, [2]] recursive %}{{ 3 }}{% if x is iterable %}{{ loop(x) }}{% endif %}{% endfor %}', {}, {'autoescape': True, 'finalize': 'twice'}),
    ('autoescape-cycle-changed-odd', "{% for x in 'aab' %}{{ loop.cycle() if false }}{{ loop.changed() }}{{ loop.changed() }}{{ loop.changed(x, 1) }}{% endfor %}", {}, {}),
    ('autoescape-cycle-empty', "{% for x in 'a' %}{{ loop.cycle() }}{% endfor %}", {}, {}),
    ('autoescape-changed-kw', "{% for x in 'ab' %}{{ loop.changed(a=x) }}{% endfor %}", {}, {}),
    ('autoescape-cycle-macro', "{% macro m(l) %}{{ l.cycle('x', 'y') }}{{ l.index }}{% endmacro %}{% for x in 'abc' %}{{ m(loop) }}{% endfor %}", {}, {}),
    ('autoescape-loop-after', "{% for x in 'ab' %}{% set l = loop %}{% endfor %}{{ l is defined }}", {}, {}),
    ('autoescape-loop-stored-ns', "{% set ns = namespace(l=none) %}{% for x in 'abc' %}{% set ns.l = loop %}{% endfor %}{{ ns.l }}{{ ns.l.index }}{{ ns.l|list }}", {}, {}),
    ('autoescape-loop-stored-iter', "{% set ns = namespace(l=none) %}{% for x in 'abc' %}{% if loop.first %}{% set ns.l = loop %}{% endif %}{% endfor %}{{ ns.l|list }}{{ ns.l.index }}", {}, {}),
    ('autoescape-scope-set', '{% autoescape true %}{% set x = 1 %}{% endautoescape %}{{ x }}', {}, {}),
    ('autoescape-scope-set-outer', '{% set x = 0 %}{% autoescape true %}{% set x = 1 %}{{ x }}{% endautoescape %}{{ x }}', {}, {}),
    ('autoescape-scope-macro', '{% autoescape false %}{% macro m() %}m{% endmacro %}{{ m() }}{% endautoescape %}{{ m is defined }}', {}, {}),
    ('autoescape-scope-for', '{% set ns = namespace(a=0) %}{% autoescape true %}{% set ns.a = 5 %}{% endautoescape %}{{ ns.a }}', {}, {}),
    ('autoescape-include-runtime', '{% autoescape false %}{{ x }}{% endautoescape %}', {'x': '<'}, {'autoescape': True}),
    # more probes around tojson's keys, caller, varargs and kwargs, and
    # loop.cycle and loop.changed, which already agreed
    ('tojson-more-merge', "{{ {True: 1, 1: 2}|tojson }}|{{ {1: 1, 1.0: 2}|tojson }}|{{ {0: 'a', False: 'b', -0.0: 'c'}|tojson }}", {}, {}),
    ('tojson-more-negzero', '{{ {-0.0: 1}|tojson }}|{{ {0.5: 1, -1: 2, -0.0: 3}|tojson }}', {}, {}),
    ('tojson-more-markup-key', '{{ d|tojson }}', {'d': {'__dict__': [[{'__markup__': '<b>'}, 1], ['a', 2]]}}, {}),
    ('tojson-more-markup-val', "{{ {'a': x}|tojson }}", {'x': {'__markup__': '<b>&'}}, {}),
    ('tojson-more-nan-key-sort', "{{ {1: 1, 2: 2}|tojson(indent='--') }}", {}, {}),
    ('tojson-more-dict-items', "{{ {'b': {2: 1, 1: 2}, 'a': [{3: 3, -3: -3}]}|tojson(indent=1) }}", {}, {}),
    ('tojson-more-ns', '{{ namespace(a=1)|tojson }}', {}, {}),
    ('tojson-more-loop-tojson', "{% for x in 'a' %}{{ {'i': loop.index, 'l': loop.length}|tojson }}{% endfor %}", {}, {}),
    ('tojson-more-undef-key', '{{ {nothere: 1}|tojson }}', {}, {}),
    ('tojson-more-bigint-vs-float', '{{ {2**64: 1, 1e19: 2, 3: 0}|tojson }}', {}, {}),
    ('tojson-more-hf-indent-sort', "{{ {3: 1, 'a': 2}|tojson(indent=2, sort_keys=false) }}", {}, {'profile': 'hf'}),
    ('tojson-more-hf-ensure', "{{ {'é': '😀', 2: 1, 1: 2}|tojson(ensure_ascii=true, sort_keys=true) }}", {}, {'profile': 'hf'}),
    ('tojson-more-hf-separators', "{{ {2: [1, 2], 1: none}|tojson(separators=(',', ':'), sort_keys=true) }}", {}, {'profile': 'hf'}),
    ('macro-loop-more-outer-caller-in-callblock', '{% macro inner() %}[{{ caller() }}]{% endmacro %}{% macro outer() %}{% call inner() %}{{ caller() }}{% endcall %}{% endmacro %}{% call outer() %}X{% endcall %}|{{ outer.caller }}|{{ inner.caller }}', {}, {}),
    ('macro-loop-more-callblock-reads-caller-attr', '{% macro inner() %}{{ caller.caller }}{{ caller() }}{% endmacro %}{% call inner() %}{{ caller is defined }}{% endcall %}', {}, {}),
    ('macro-loop-more-caller-default', '{% macro m(caller=none) %}{{ caller }}{% endmacro %}{{ m() }}|{% call m() %}x{% endcall %}|{{ m.caller }}|{{ m.arguments }}', {}, {}),
    ('macro-loop-more-caller-kw-call', '{% macro m() %}{{ caller() }}{% endmacro %}{{ m(caller=lipsum) is string }}', {}, {}),
    ('macro-loop-more-caller-via-kwargs', '{% macro m() %}{{ kwargs }}{% endmacro %}{% call m() %}x{% endcall %}', {}, {}),
    ('macro-loop-more-caller-no-read', '{% macro m() %}body{% endmacro %}{% call m() %}x{% endcall %}', {}, {}),
    ('macro-loop-more-varargs-in-default', '{% macro m(a=varargs) %}{{ a }}{% endmacro %}{{ m.catch_varargs }}|{{ m() }}|{{ m(1, 2) }}', {}, {}),
    ('macro-loop-more-kwargs-set-after', '{% macro m() %}{{ kwargs }}{% set kwargs = 1 %}{% endmacro %}{{ m.catch_kwargs }}|{{ m(a=1) }}', {}, {}),
    ('macro-loop-more-recursive-macro-caller', '{% macro m(n) %}{% if n %}{% call m(n - 1) %}<{{ caller() if caller is defined }}>{% endcall %}{% else %}{{ caller() }}{% endif %}{% endmacro %}{% call m(2) %}x{% endcall %}', {}, {}),
    ('macro-loop-more-cycle-recursive', "{% for x in [[1, 2], [3]] recursive %}{{ loop.cycle('a', 'b') }}{% if x is iterable %}({{ loop(x) }}){% endif %}{% endfor %}", {}, {}),
    ('macro-loop-more-changed-recursive', '{% for x in [[1, 1], [1]] recursive %}{{ loop.changed(x) }}{% if x is iterable %}({{ loop(x) }}){% endif %}{% endfor %}', {}, {}),
    ('macro-loop-more-changed-list', '{% for x in [[1], [1], [2]] %}{{ loop.changed(x) }}{{ loop.changed(x, x) }}{% endfor %}', {}, {}),
    ('macro-loop-more-cycle-break', "{% for x in 'abc' %}{{ loop.cycle(*'xy') }}{% if loop.index == 2 %}{% break %}{% endif %}{% endfor %}", {}, {'extensions': ['loopcontrols']}),
    ('macro-loop-more-loop-attrs-after-cont', "{% for x in 'abcd' if x != 'c' %}{% if loop.first %}{% continue %}{% endif %}{{ loop.index }}{{ loop.revindex }}{{ loop.previtem }}{{ loop.nextitem }}{% endfor %}", {}, {'extensions': ['loopcontrols']}),
    # {% break %} and {% continue %} are jinja2.ext.loopcontrols' tags:
    # without the extension they are unknown tags (LoopControls)
    ('loopcontrols-off-break', "{% for x in 'ab' %}{{ x }}{% break %}{% endfor %}", {}, {}),
    ('loopcontrols-off-continue', "{% for x in 'ab' %}{% continue %}{{ x }}{% endfor %}", {}, {}),
    ('loopcontrols-off-toplevel', "a{% break %}", {}, {}),
    ('loopcontrols-off-sandbox', "{% for x in 'ab' %}{% if x == 'b' %}{% break %}{% endif %}{{ x }}{% endfor %}", {}, {'sandbox': True}),
    ('loopcontrols-off-untaken', "{% if false %}{% for x in 'ab' %}{% continue %}{% endfor %}{% endif %}ok", {}, {}),
    ('loopcontrols-off-macro', "{% macro m() %}{% for x in 'ab' %}{% break %}{% endfor %}{% endmacro %}ok", {}, {}),
    ('loopcontrols-on-break', "{% for x in 'abc' %}{% if x == 'c' %}{% break %}{% endif %}{{ x }}{% endfor %}", {}, {'extensions': ['loopcontrols']}),
    ('loopcontrols-on-toplevel', "a{% break %}", {}, {'extensions': ['loopcontrols']}),
    ('loopcontrols-on-in-macro', "{% for x in 'ab' %}{% macro m() %}{% continue %}{% endmacro %}{% endfor %}", {}, {'extensions': ['loopcontrols']}),
    ('loopcontrols-hf-continue', "{% for x in 'abc' %}{% if x == 'b' %}{% continue %}{% endif %}{{ x }}{% endfor %}", {}, {'profile': 'hf'}),
]


def main():
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_case_list("exact", CASES)


if __name__ == "__main__":
    main()
