#!/usr/bin/env python3
"""Issue 23's fourteenth round: what the fourteenth generator and this
round's sweeps (testdata/sweep14.py: every filter and str method over odd
values, whitespace around every tag kind) found, each made small.

    python3 convert/exact14.py     # -> cases/exact14.json

A hand-made list (handmade.py).
"""
import handmade

# (name, template, context, note[, env[, loader]])
FOUND = []

# markupsafe leaves str's predicates (isalnum ... isupper) to str, and
# Jinja2 calls the method bound to the Markup: CPython's bound builtin
# method names the receiver's type, "Markup.isupper() takes no arguments
# (1 given)"; the package said str.isupper()
PREDICATES = ["isalnum", "isalpha", "isascii", "isdecimal", "isdigit", "isidentifier", "islower", "isnumeric", "isprintable", "isspace", "istitle", "isupper"]
for p in PREDICATES:
    for i, call in enumerate(["(1)", "('a', 2)", "(x=1)", "(*[1])", "(**{'k': 1})", "()", "(*[])"]):
        FOUND.append(("markup-%s-%d" % (p, i), "{{ m.%s%s }}|{{ s.%s%s }}" % (p, call, p, call), {"m": {"__markup__": "<b>"}, "s": "ab"},
                      "exact: a str predicate bound to a Markup names Markup"))
        FOUND.append(("markup-%s-%d-lit" % (p, i), "{{ ('<i>'|safe).%s%s }}" % (p, call), {}, "exact: a str predicate bound to a Markup names Markup"))

# str.translate's table is any object with __getitem__: a range (its
# items, IndexError keeping the character), bytes (their ints), and
# TypeError for an object that is not subscriptable; the package refused
# every table but a dict, list, tuple or str
TABLES = ["range(3)", "range(100, 300)", "range(0, 500, 2)", "range(97, 99)", "range(-1, -200, -1)", "range(1114112, 1114200)", "range(2**70, 2**71)",
          "range(0)", "range(200)[::-1]", "range(1, 300)|list", "'x'.encode()", "'é€'.encode()", "namespace()", "cycler(1)", "joiner()", "lipsum",
          "m", "loop", "{1: 2}.keys()", "{1: 2}.items()", "(1, 2)|batch(1)", "range(98)|reverse", "[(1, 2)]|groupby(0)|first", "nothere", "r", "b"]
def t_msg(t):
    """The message where a table's item is no character: 0x110000."""
    return "range(0x110000)" if t in ("range(-1, -200, -1)", "range(1114112, 1114200)", "range(2**70, 2**71)") else ""


for i, t in enumerate(TABLES):
    FOUND.append(("translate-table-%02d" % i, "{% macro m() %}{% endmacro %}{% for x in [1] %}{{ s.translate(" + t + ") }}|{{ (s|e).translate(" + t + ") }}{% endfor %}",
                  {"s": "\x00\x01abcé<", "r": "ab"},
                  # (oracle.py takes 0x110000 in the message for an address)
                  ("" if "range(0x110000)" in t_msg(t) else "exact: ") + "str.translate's table"))

# After {% extends %} Jinja2 skips the template's output nodes ({{ }}
# and text) but not an include's or a call block's: its code yields their
# events with no "parent_template is None" check, so they print before
# the parent's text (in loops, ifs, withs and autoescape blocks too); a
# filter or set block's body stays in its buffer. The package printed
# nothing of them.
EXT_LOADER = {"b.j2": "[{% block t %}T{% endblock %}]", "p.j2": "P{{ v|default('') }}", "bad.j2": "{{ '\\U00110000' }}"}
EXT = ["{% include 'p.j2' %}", "{% macro m() %}M{{ caller() }}{% endmacro %}{% call m() %}x{% endcall %}", "{% filter upper %}f{% include 'p.j2' %}{% endfilter %}",
       "{% for x in [1, 2] %}{% include 'p.j2' %}{{ x }}{% endfor %}", "{% if true %}{% include 'p.j2' %}{{ 1 }}{% endif %}", "{% include 'p.j2' %}x{% include 'p.j2' %}",
       "{% set x %}s{% include 'p.j2' %}{% endset %}{{ x }}", "{% block t %}<{% include 'p.j2' %}>{% endblock %}{% include 'p.j2' %}",
       "{% with v = 'w' %}{% include 'p.j2' %}{% endwith %}", "{% autoescape true %}{% include 'p.j2' %}{% endautoescape %}",
       "{% macro m() %}{% include 'p.j2' %}{% endmacro %}{{ m() }}{% call m() %}{% endcall %}", "{% include 'nope.j2' ignore missing %}{% include ['nope.j2', 'p.j2'] %}",
       "{% include 'bad.j2' %}", "{% set v = 3 %}{% include 'p.j2' %}", "{% include 'p.j2' without context %}", "{% for x in [1] %}{% call range() %}{% endcall %}{% endfor %}",
       "{% macro m(a) %}[{{ a }}{{ caller(a) }}]{% endmacro %}{% call(y) m(2) %}{{ y }}{% include 'p.j2' %}{% endcall %}"]
for i, body in enumerate(EXT):
    FOUND.append(("extends-then-%02d" % i, "{% extends 'b.j2' %}" + body, {}, "exact: an include or call block after extends prints", {}, EXT_LOADER))
    FOUND.append(("extends-then-%02d-before" % i, "a" + body + "{% extends 'b.j2' %}" + body + "z", {}, "exact: an include or call block after extends prints", {}, EXT_LOADER))
    FOUND.append(("extends-then-%02d-dynamic" % i, "{% if e %}{% extends e %}{% endif %}" + body, {"e": "b.j2"}, "exact: an include or call block after extends prints", {}, EXT_LOADER))
    FOUND.append(("extends-then-%02d-none" % i, "{% if e %}{% extends e %}{% endif %}" + body, {"e": ""}, "exact: an include or call block after extends prints", {}, EXT_LOADER))


# A call block's call given caller=: Jinja2's code generator writes
# caller=caller after the call's own keywords, so Python's compiler
# refuses the module (SyntaxError: keyword argument repeated: caller),
# wherever the block stands (a macro never called, a false branch); a
# caller in ** is the call's TypeError. The package raised its runtime
# TypeError, "invoked with two values for the special caller argument".
CALLER = ["{% call m(caller=1) %}x{% endcall %}", "{% call(q) m(1, caller=none) %}{{ q }}{% endcall %}", "{% if false %}{% call m(caller=1) %}{% endcall %}{% endif %}",
          "{% macro n() %}{% call m(caller=1) %}{% endcall %}{% endmacro %}", "{% call m(caller=1) %}{{ f(a=1, a=2) }}{% endcall %}",
          "{{ f(a=1, a=2) }}{% call m(caller=1) %}{% endcall %}", "{% call m(caller=1, b=f(a=1, a=2)) %}{% endcall %}", "{% call m(**{'caller': 1}) %}x{% endcall %}",
          "{% call m(caller=1, caller=2) %}{% endcall %}", "{% call m(b=1) %}{% call m(caller=1) %}{% endcall %}{% endcall %}", "{{ m(caller=1) }}",
          "{% extends 'b.j2' %}{% block t %}{% call m(caller=1) %}{% endcall %}{% endblock %}", "{% set x %}{% call m(caller=1) %}{% endcall %}{% endset %}",
          "{% for i in [] %}{% call m(caller=1) %}{% endcall %}{% endfor %}{{ 1/0 }}"]
for i, t in enumerate(CALLER):
    FOUND.append(("call-caller-kwarg-%02d" % i, "{% macro m(b=0) %}[{{ caller() }}]{% endmacro %}" + t, {"f": {"__func__": "dict"}} if False else {},
                  "a call block's call given caller=", {}, {"b.j2": "[{% block t %}{% endblock %}]"}))


# Once an extends at the template's top level has been compiled (Jinja2's
# has_known_extends), Jinja2 writes no code for an output node the parent
# check would drop, at the top level, in loops, withs, ifs, autoescape
# and filter blocks: an unknown filter or test, or a keyword repeated in
# it, raises nothing; a set block's body, a macro's, a call block's, a
# block's and an if's test are still compiled. The package compiled them
# (TemplateAssertionError, SyntaxError).
KNOWN = ["{{ 1|nofilter }}", "{% if true %}{{ 1|nofilter }}{% endif %}", "{% for x in [1] %}{{ x|nofilter }}{% endfor %}", "{% with %}{{ 1|nofilter }}{% endwith %}",
         "{% filter upper %}{{ 1|nofilter }}{% endfilter %}", "{% autoescape true %}{{ 1|nofilter }}{% endautoescape %}", "{{ 1 is notest }}", "{{ f(a=1, a=2) }}",
         "{% for x in [1] %}{{ f(a=1, a=2) }}{% endfor %}", "{{ '<s>'[0]|length.format_map({'a': 1}) }}", "{% set x %}a{{ 1|nofilter }}{% endset %}",
         "{% set x %}{{ f(a=1, a=2) }}{% endset %}", "{% macro m() %}{{ 1|nofilter }}{% endmacro %}", "{% call range() %}{{ 1|nofilter }}{% endcall %}",
         "{% if 1|nofilter %}{% endif %}", "{% set x = 1|nofilter %}", "{% block t %}{{ 1|nofilter }}{% endblock %}", "{% for x in [1]|nofilter %}{% endfor %}",
         "{{ 1/0 }}{{ nothere.x }}", "{% include 'p.j2' %}{{ 1|nofilter }}"]
for i, body in enumerate(KNOWN):
    FOUND.append(("known-extends-%02d" % i, "{% extends 'b.j2' %}" + body, {}, "output after a known extends has no code", {}, {"b.j2": "[{% block t %}T{% endblock %}]", "p.j2": "P"}))
    FOUND.append(("known-extends-%02d-before" % i, body + "{% extends 'b.j2' %}", {}, "output after a known extends has no code", {}, {"b.j2": "[{% block t %}T{% endblock %}]", "p.j2": "P"}))
    FOUND.append(("known-extends-%02d-if" % i, "{% if true %}{% extends 'b.j2' %}{% endif %}" + body, {}, "output after a known extends has no code", {}, {"b.j2": "[{% block t %}T{% endblock %}]", "p.j2": "P"}))


# str.format over an Undefined, its attribute and attr() of it: the
# sandbox's and Markup's string.Formatter words a switch between
# automatic and manual numbering one way for both ("cannot switch from
# manual field specification to automatic field numbering"); the package
# gave str.format's other message for "{}{0}". (The cases with
# attr('__class__') belong to attr of an Undefined, below.)
FMT = ["{0!s!r}", "{", "}", "{0:{1:{2}}}", "{a!x}", "{}{0}", "{0.}", "{0[", "{0!}", "{!r:}}", "{0!r}{", "{0}}", "{:{:}}x{", "{0:d}{1!q}", "{0}", "{a}"]
ARGS = ["nothere", "nothere.x", "nothere, 1", "1, nothere", "a=nothere", "nothere|attr('__class__')"]
for i, f in enumerate(FMT):
    for j, a in enumerate(ARGS):
        FOUND.append(("format-parse-first-%02d-%d" % (i, j), "{{ %r.format(%s) }}" % (f, a), {}, "exact: str.format over an Undefined"))
        FOUND.append(("format-parse-first-%02d-%d-sb" % (i, j), "{{ %r.format(%s) }}" % (f, a), {}, "exact: str.format over an Undefined", {"sandbox": True}))


# attr of an Undefined: its __getattr__ raises for a name, but a dunder
# is getattr's (the class's own attribute, or AttributeError and a new
# Undefined); the package raised UndefinedError for every name
for i, n in enumerate(["__class__", "__str__", "__len__", "__nope__", "__html__", "__eq__", "__class__.__name__", "_x", "x", "__dict__", "__doc__x"]):
    for j, t in enumerate(["{{ nothere|attr(%r) }}", "{{ nothere|attr(%r) is defined }}", "{{ '{}'.format(nothere|attr(%r)) }}", "{{ (nothere|attr(%r))|string|length > 0 }}"]):
        FOUND.append(("attr-undefined-%02d-%d" % (i, j), t % n, {}, "attr of an Undefined"))
        FOUND.append(("attr-undefined-%02d-%d-sb" % (i, j), t % n, {}, "attr of an Undefined", {"sandbox": True}))


if __name__ == "__main__":
    handmade.write("exact14", "issue 23's fourteenth round", "internal/jinja2/testdata/oracle/convert/exact14.py", FOUND)
