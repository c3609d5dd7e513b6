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


def main():
    handmade.write("exact11", "issue 23, eleventh round", "internal/jinja2/testdata/oracle/convert/exact11.py", FOUND)


if __name__ == "__main__":
    main()
