#!/usr/bin/env python3
"""Issue 23's eleventh round: Markup's own dunders, and what probing where
prompt templates go found, each made small.

    python3 convert/exact11.py     # -> cases/exact11.json

A hand-made list (handmade.py).
"""
import handmade

SB = {"sandbox": True}
AE = {"autoescape": True}

# (name, template, context, note[, env[, loader]])
FOUND = []

# markupsafe's Python methods of Markup (refused by name before): __html__,
# __add__ and __radd__ (a str or an object with __html__, escaped; else
# NotImplemented), __mul__ and __rmul__, __mod__, __html_format__, each with
# its positional-only parameter; str's __rmod__; striptags' and unescape's
# arguments (ignored before)
MARKUP = [
    "{{ ('<a>'|safe).__html__() }}",
    "{{ ('<a>'|safe).__html__ }}",
    "{{ ('<a>'|safe).__html__(1) }}",
    "{{ ('<a>'|safe).__html__(x=1) }}",
    "{{ ('<a>'|safe).__add__('<') }}",
    "{{ ('<a>'|safe).__add__(x) }}",
    "{{ ('<a>'|safe).__add__('<b>'|safe) }}",
    "{{ ('<a>'|safe).__add__(1) }}",
    "{{ ('<a>'|safe).__add__(none) }}",
    "{{ ('<a>'|safe).__add__ }}",
    "{{ ('<a>'|safe).__add__() }}",
    "{{ ('<a>'|safe).__add__('a', 'b') }}",
    "{{ ('<a>'|safe).__add__(value='a') }}",
    "{{ ('<a>'|safe).__add__(1, 2, x=3) }}",
    "{{ ('<a>'|safe).__radd__('<') }}",
    "{{ ('<a>'|safe).__radd__(1) }}",
    "{{ ('<a>'|safe).__radd__([1]) }}",
    "{{ ('%s'|safe).__mod__('<') }}",
    "{{ ('%s %s'|safe).__mod__(('<', 1)) }}",
    "{{ ('%(a)s'|safe).__mod__({'a': '<'}) }}",
    "{{ ('<a>'|safe).__mod__({'a': 1}) }}",
    "{{ ('%d'|safe).__mod__('x') }}",
    "{{ ('<a>'|safe).__mod__() }}",
    "{{ ('<a>'|safe).__mod__(1, 2) }}",
    "{{ ('<a>'|safe).__mul__(2) }}",
    "{{ ('<a>'|safe).__rmul__(2) }}",
    "{{ ('<a>'|safe).__mul__(-1) }}",
    "{{ ('<a>'|safe).__mul__(true) }}",
    "{{ ('<a>'|safe).__mul__('x') }}",
    "{{ ('<a>'|safe).__mul__(2.0) }}",
    "{{ ('<a>'|safe).__mul__(2**70) }}",
    "{{ ('<a>'|safe).__mul__() }}",
    "{{ ('<a>'|safe).__mul__(x=1) }}",
    "{{ ('<a>'|safe).__html_format__('') }}",
    "{{ ('<a>'|safe).__html_format__('x') }}",
    "{{ ('<a>'|safe).__html_format__(0) }}",
    "{{ ('<a>'|safe).__html_format__(1) }}",
    "{{ ('<a>'|safe).__html_format__ }}",
    "{{ ('<a>'|safe).__rmod__('%s') }}",
    "{{ ('<a>'|safe).__rmod__(1) }}",
    "{{ ('<a> <b>x</b>'|safe).striptags() }}",
    "{{ ('<a>'|safe).striptags(1) }}",
    "{{ ('<a>'|safe).striptags(x=1) }}",
    "{{ ('&lt;a&gt;'|safe).unescape() }}",
    "{{ ('&lt;a&gt;'|safe).unescape(1) }}",
    "{{ ('<a>'|safe).__add__(x) ~ x }}",
    "{{ (('<a>'|safe).__mul__(2) ~ x)|length }}",
    "{% set f = ('<a>'|safe).__add__ %}{{ f(x) }}{{ f(x)|length }}",
]
for i, t in enumerate(MARKUP):
    FOUND.append(("markup-dunder-%02d" % i, t, {"x": "<y>"}, "exact: markupsafe's Markup dunders were refused by name"))
    FOUND.append(("markup-dunder-ae-%02d" % i, t, {"x": "<y>"}, "exact: markupsafe's Markup dunders were refused by name", AE))
# Markup % wraps each argument in markupsafe's _MarkupEscapeHelper: %d
# takes int() of it, the float conversions float(), %x, %o and %c refuse
# it, %s and %r escape before the precision cuts (the package formatted the
# argument itself, as str % does)
MOD = [
    "{{ ('%d'|safe) % 'x' }}", "{{ ('%d'|safe) % '5' }}", "{{ ('%f'|safe) % '1.5' }}", "{{ ('%x'|safe) % '5' }}",
    "{{ ('%d'|safe) % [1] }}", "{{ ('%d'|safe) % 2.5 }}", "{{ ('%s'|safe) % x }}", "{{ ('%r'|safe) % x }}",
    "{{ ('%a'|safe) % x }}", "{{ ('%c'|safe) % 65 }}", "{{ ('%c'|safe) % '<' }}", "{{ ('%5s|'|safe) % '<' }}",
    "{{ ('%(a)d'|safe) % {'a': '7'} }}", "{{ ('%i'|safe) % ' 7 ' }}", "{{ ('%e'|safe) % 'x' }}", "{{ ('%d'|safe) % none }}",
    "{{ ('%o'|safe) % '8' }}", "{{ ('%d'|safe) % true }}", "{{ ('%.2f'|safe) % '3' }}", "{{ ('%g'|safe) % 'inf' }}",
    "{{ ('%X'|safe) % 2.0 }}", "{{ ('%x'|safe) % 255 }}", "{{ ('%d'|safe) % nope }}", "{{ ('%f'|safe) % nope }}",
    "{{ ('%f'|safe) % none }}", "{{ ('%f'|safe) % [1] }}", "{{ ('%.2s'|safe) % '<a' }}", "{{ ('%.3r'|safe) % ('<a'|safe) }}",
    "{{ ('%r'|safe) % ('<a'|safe) }}", "{{ ('%s'|safe) % ('<a'|safe) }}", "{{ ('%d'|safe) % ('5'|safe) }}", "{{ ('%d'|safe) % '1_000' }}",
    "{{ ('%d'|safe) % '0x10' }}", "{{ ('%f'|safe) % ' 1e3 ' }}", "{{ ('%f'|safe) % 'nan' }}", "{{ ('%d'|safe) % 1e300 }}",
    "{{ ('%d'|safe) % '٣' }}", "{{ ('%a'|safe) % 'é<' }}", "{{ ('%(a)x'|safe) % {'a': 1} }}", "{{ ('%d %s'|safe) % (1, '<') }}",
    "{{ ('%5.1f|'|safe) % '2.25' }}", "{{ ('%d'|safe) % 'nan' }}", "{{ ('%d'|safe) % (1.0 / 0) if false else ('%d'|safe) % 'inf' }}",
    "{{ ('%d'|safe) % 1e400 if false else 1 }}", "{{ ('<%s>'|safe)|format('<') }}", "{{ ('%d'|safe)|format('4') }}",
    "{{ '%d'|safe|format('x') }}", "{{ ('%.1s'|safe).__mod__('&') }}",
]
for i, t in enumerate(MOD):
    FOUND.append(("markup-mod-%02d" % i, t, {"x": "<y>"}, "exact: Markup % formatted its arguments as str % does"))
    FOUND.append(("markup-mod-ae-%02d" % i, t, {"x": "<y>"}, "exact: Markup % formatted its arguments as str % does", AE))
FOUND += [
    ("markup-dunder-sandbox", "{{ ('<a>'|safe).__html__() }}", {}, "exact: the sandbox refuses it", SB),
    ("markup-dunder-sandbox-add", "{{ ('<a>'|safe).__add__('<') }}", {}, "exact: the sandbox refuses it", SB),
]

# a dict view's mapping, a mappingproxy (refused by name before): the dict,
# read-only, as every filter and test reads a mapping; its repr, methods,
# tojson, urlencode, pprint, sameas and set blocks are its own
MP = [
 "{{ d.keys().mapping }}", "{{ d.items().mapping['a'] }}", "{{ d.values().mapping|length }}", "{{ d.keys().mapping|list }}", "{{ d.keys().mapping|string }}",
 "{{ d.keys().mapping|pprint }}", "{{ d.keys().mapping|tojson }}", "{{ d.keys().mapping is mapping }}", "{{ 'a' in d.keys().mapping }}", "{{ d.keys().mapping == d }}",
 "{{ d.keys().mapping.get('a') }}", "{{ d.keys().mapping.get('z', 5) }}", "{{ d.keys().mapping.keys() }}", "{{ d.keys().mapping.items()|list }}", "{{ d.keys().mapping.values()|list }}",
 "{{ d.keys().mapping.copy() }}", "{{ d.keys().mapping.update }}", "{{ d.keys().mapping.pop }}", "{{ d.keys().mapping.a }}", "{{ d.keys().mapping['zz'] }}",
 "{{ d.keys().mapping|dictsort }}", "{{ d.keys().mapping|items|list }}", "{% for k, v in d.keys().mapping.items() %}{{ k }}={{ v }};{% endfor %}", "{% for k in d.keys().mapping %}{{ k }}{% endfor %}",
 "{{ d.keys().mapping|first }}", "{{ d.keys().mapping|join(',') }}", "{{ d.keys().mapping|sort }}", "{{ d.keys().mapping ~ '' }}", "{{ '%s'|format(d.keys().mapping) }}",
 "{{ '%(a)s'|format(d.keys().mapping) }}", "{{ '{}'.format(d.keys().mapping) }}", "{{ [d.keys().mapping] }}", "{{ {'m': d.keys().mapping} }}", "{{ d.keys().mapping is sameas d }}",
 "{{ d.keys().mapping|attr('get')('a') }}", "{{ d.keys().mapping.__class__ }}", "{{ d.keys().mapping|count }}", "{{ dict(d.keys().mapping) }}", "{{ dict(**d.keys().mapping) }}",
 "{% set m = d.keys().mapping %}{% set _ = d.update({'c': 3}) %}{{ m }}", "{{ d.keys().mapping.setdefault }}", "{{ d.keys().mapping is iterable }}{{ d.keys().mapping is sequence }}",
 "{{ d.keys().mapping|map('upper')|list }}", "{{ d.keys().mapping|reverse|list }}", "{{ d.keys().mapping|sum }}", "{{ d.keys().mapping|batch(1)|list }}", "{{ d.keys().mapping|groupby(0)|list }}",
 "{{ d.keys().mapping|unique|list }}", "{{ d.keys().mapping|max }}", "{{ d.keys().mapping|e }}", "{{ d.keys().mapping|xmlattr }}", "{{ d.keys().mapping|urlencode }}", "{{ d.keys().mapping|length }}",
 "{{ d.keys().mapping.mapping }}", "{{ d.keys().mapping.keys().mapping }}", "{{ {d.keys().mapping: 1} }}", "{{ d.keys().mapping|random if false else 1 }}", "{{ d.keys().mapping|select|list }}",
 "{% set n = namespace() %}{{ d.keys().mapping|selectattr('x')|list }}", "{{ d.keys().mapping|min }}", "{{ d.keys().mapping|center(30) }}", "{{ d.keys().mapping|trim }}", "{{ d.keys().mapping|wordcount }}",
 "{{ d.keys().mapping.__len__() }}", "{{ d.keys().mapping.__contains__('a') }}",
]
for i, t in enumerate(MP):
    FOUND.append(("mappingproxy-%02d" % i, t, {"d": {"a": 1, "b": "<x>"}}, "exact: a dict view's mapping (a mappingproxy) was refused"))
    FOUND.append(("mappingproxy-sb-%02d" % i, t, {"d": {"a": 1, "b": "<x>"}}, "exact: a dict view's mapping (a mappingproxy) was refused", SB))
FOUND.append(("mappingproxy-ae", "{{ d.keys().mapping }}|{{ d.keys().mapping|pprint }}", {"d": {"a": 1, "b": "<x>"}}, "exact: a dict view's mapping (a mappingproxy) was refused", AE))
MP2 = ["{% set m = d.keys().mapping %}{{ m }}", "{% for m in [d.keys().mapping] %}{{ m }}{% endfor %}", "{{ [d.keys().mapping]|join }}", "{% set m = d.keys().mapping %}{{ m|e }}{{ m|safe }}",
      "{% macro f(x) %}{{ x }}{% endmacro %}{{ f(d.keys().mapping) }}", "{% set n = namespace(m=d.keys().mapping) %}{{ n.m }}", "{{ d.keys().mapping if true }}", "{{ (d.keys().mapping) }}",
      "{% filter upper %}{{ d.keys().mapping }}{% endfilter %}", "{{ d.keys().mapping|tojson }}", "{% set m = d.keys().mapping %}{{ m == m }}{{ m is sameas m }}{{ m != d }}",
      "{{ d.keys().mapping|dictsort(by='value') if false else d.keys().mapping|dictsort(reverse=true) }}", "{% set m = d.keys().mapping %}{% set m.a %}x{% endset %}{{ d }}",
      "{{ d.keys().mapping.get() }}", "{{ d.keys().mapping.copy(1) }}", "{{ d.keys().mapping.keys(1) }}", "{{ d.keys().mapping|pprint(true) if false else d.keys().mapping|pprint }}",
      "{{ d.keys().mapping ~ d.keys().mapping }}", "{{ d.keys().mapping.__class__.__name__ }}", "{{ d.keys().mapping.items() == d.items() }}",
      "{{ d.keys().mapping|string|length }}{{ d.keys().mapping|list|length }}", "{% set m = d.keys().mapping %}{{ m['a'] }}{{ m.b }}{{ m.get('b') }}", "{{ x.keys().mapping|pprint }}"]
for i, t in enumerate(MP2):
    FOUND.append(("mappingproxy-more-%02d" % i, t, {"d": {"a": 1, "b": "<x>"}, "x": {"k%02d" % j: "v" * 10 for j in range(8)}}, "exact: a dict view's mapping (a mappingproxy) was refused"))
    FOUND.append(("mappingproxy-more-ae-%02d" % i, t, {"d": {"a": 1, "b": "<x>"}, "x": {"k%02d" % j: "v" * 10 for j in range(8)}}, "exact: a dict view's mapping (a mappingproxy) was refused", AE))
FOUND.append(("mappingproxy-hf", "{{ d.keys().mapping|tojson }}", {"d": {"a": 1}}, "exact: a dict view's mapping (a mappingproxy) was refused", {"profile": "hf"}))

# a cycler's and a joiner's __dict__ (refused by name before): Python's
# instance dict, live both ways; next(), reset() and a joiner's call read
# and write it as Jinja2's code does
CY = ["{% set c = cycler(1, 2) %}{{ c.__dict__ }}", "{% set c = cycler(1, 2) %}{% set _ = c.next() %}{{ c.__dict__ }}", "{% set c = cycler(1, 2) %}{% set d = c.__dict__ %}{{ c.next() }}{{ d }}",
     "{% set c = cycler(1, 2, 3) %}{% set _ = c.__dict__.update({'pos': 2}) %}{{ c.current }}{{ c.next() }}{{ c.next() }}{{ c.pos }}",
     "{% set c = cycler(1, 2) %}{% set _ = c.__dict__.update({'items': ['a', 'b', 'c']}) %}{{ c.next() }}{{ c.next() }}{{ c.next() }}{{ c.next() }}{{ c.items }}",
     "{% set c = cycler(1, 2) %}{% set _ = c.__dict__.update({'pos': -1}) %}{{ c.current }}{{ c.next() }}{{ c.pos }}", "{% set c = cycler(1, 2) %}{% set _ = c.__dict__.update({'x': 5}) %}{{ c.x }}",
     "{% set c = cycler(1, 2) %}{% set _ = c.__dict__.update({'next': 5}) %}{{ c.next }}", "{% set c = cycler(1, 2) %}{{ c.__dict__.pop('pos') }}{{ c.pos }}|{{ c.items }}",
     "{% set c = cycler(1, 2) %}{% set _ = c.__dict__.update({'pos': 1}) %}{{ c.reset() }}{{ c.pos }}{{ c.__dict__ }}", "{% set c = cycler(1, 2) %}{{ c.__dict__|tojson }}",
     "{% set j = joiner('|') %}{{ j.__dict__ }}{{ j() }}{{ j.__dict__ }}{{ j() }}", "{% set j = joiner('|') %}{% set _ = j.__dict__.update({'used': 1, 'sep': '+'}) %}{{ j() }}{{ j.sep }}{{ j.used }}",
     "{% set j = joiner() %}{% set d = j.__dict__ %}{{ j() }}{{ d.used }}{{ j() }}", "{% set j = joiner() %}{{ j.__dict__.pop('sep') }}{{ j.sep }}|{{ j() }}",
     "{% set c = cycler('a') %}{% for i in range(3) %}{{ c.next() }}{{ c.__dict__.pos }}{% endfor %}", "{{ cycler(1).__dict__|length }}{{ joiner().__dict__|list }}"]
FOUND += [("cycler-dict-%02d" % i, t, {}, "exact: a cycler's or joiner's __dict__ was refused by name") for i, t in enumerate(CY)]
FOUND += [("cycler-dict-sb-%02d" % i, t, {}, "exact: the sandbox refuses it", {"sandbox": True}) for i, t in enumerate(CY[:2])]


def main():
    handmade.write("exact11", "issue 23, eleventh round", "internal/jinja2/testdata/oracle/convert/exact11.py", FOUND)


if __name__ == "__main__":
    main()
