#!/usr/bin/env python3
"""Differences the other ports' suites showed, made small.

    python3 convert/portfound.py     # -> cases/portfound.json

Each entry is the reduced form of a case of cases/minijinja.json,
cases/jinja2cpp.json, cases/gonja.json or of a real chat template that
the package rendered differently from Jinja2 (the note says which and
what it was), in a hand-made list (handmade.py); nothing here is a
suite's own expectation.
"""
import handmade

# (name, template, context, note[, env])
FOUND = [
    # Jinja2's lexer stops when a tag that opens a state ends the source:
    # an unclosed {% raw %} or {# is then no error (jinja2cpp errors_test).
    ("raw-open-at-end", "{% raw %}", {}, "an unclosed raw at the very end is no error"),
    ("raw-open-at-end-newline", "{% raw %}\n", {}, "the final newline is dropped before lexing"),
    ("raw-open-at-end-kept-newline", "{% raw %}\n", {}, "with keep_trailing_newline the newline remains: Missing end of raw directive",
     {"keep_trailing_newline": True}),
    ("raw-open-at-end-strip", "x {%- raw -%}  ", {}, "-%} eats the whitespace up to the end"),
    ("raw-open-before-space", "{% raw %} ", {}, "text after the tag: Missing end of raw directive"),
    ("comment-open-at-end", "a{#", {}, "an unclosed comment at the very end is no error"),
    ("comment-open-at-end-minus", "a  {#-", {}, "{#- strips, then the end"),
    ("comment-open-at-end-plus", "a  {#+", {}, "{#+ keeps, then the end"),
    ("comment-open-at-end-lstrip", "  {#", {}, "lstrip_blocks strips before the comment", {"lstrip_blocks": True}),
    ("comment-open-at-end-newline", "{{ 1 }}\n{#\n", {}, "the final newline is dropped before lexing"),
    ("comment-open-two-newlines", "{#\n\n", {}, "one newline remains: Missing end of comment tag"),
    # A block inside a block of the same name is defined twice; the
    # package rendered it, recursing until the stack overflowed (gonja's
    # errors/compilation/tags.err).
    ("block-nested-same-name", "{% block test %}{% block test %}{% endblock %}{% endblock %}", {},
     "TemplateAssertionError: block 'test' defined twice"),
    ("block-nested-same-name-deeper", "{% block a %}{% block b %}{% block a %}{% endblock %}{% endblock %}{% endblock %}", {},
     "TemplateAssertionError, at the inner a"),
    ("block-nested-then-sibling", "{% block a %}{% block b %}{% endblock %}{% endblock %}{% block b %}{% endblock %}", {},
     "TemplateAssertionError, at the second b"),
    # {% set ns.attr = value %} checks that ns is a Namespace before it
    # evaluates the value (jinjava's ForTagTest).
    ("set-nsref-check-first", "{% set ns.found = ns.found + 1 %}", {}, "TemplateRuntimeError, not the UndefinedError of the value"),
    ("set-nsref-check-first-tuple", "{% set ns = namespace() %}{% set ns.a, x.b = nope.c, 2 %}", {},
     "every ns of the targets is checked first: x is no Namespace"),
    ("set-nsref-value-error", "{% set ns = namespace() %}{% set ns.a = nope.b %}", {}, "a Namespace: the value's UndefinedError"),
    # {% set ns.attr %}…{% endset %} writes ns[attr] with no Namespace
    # check (jinjava's EagerSetTagTest).
    ("setblock-nsref-missing", "{% set ns.enabled %}x{% endset %}", {}, "TypeError: '_MissingType' object does not support item assignment"),
    ("setblock-nsref-dict", "{% set d.a %}x{% endset %}{{ d }}", {"d": {"b": 1}}, "a dict's key is set"),
    ("setblock-nsref-list", "{% set d.a %}x{% endset %}", {"d": [1]}, "TypeError: list indices must be integers or slices, not str"),
    ("setblock-nsref-int", "{% set d = 1 %}{% set d.a %}x{% endset %}", {}, "TypeError: 'int' object does not support item assignment"),
    ("setblock-nsref-str", "{% set d.a %}x{% endset %}", {"d": "s"}, "TypeError: 'str' object does not support item assignment"),
    ("setblock-nsref-undefined-param", "{% macro m(ns) %}{% set ns.a %}x{% endset %}{% endmacro %}{{ m() }}", {},
     "TypeError: 'Undefined' object does not support item assignment"),
    ("setblock-nsref-namespace", "{% set ns = namespace() %}{% for i in [1, 2] %}{% set ns.a %}{{ i }}{% endset %}{% endfor %}{{ ns.a }}", {},
     "a Namespace's attribute"),
    # self prints as <TemplateReference name> (jinjava's MacroTagTest).
    ("self-repr", "{{ self }}|{{ [self] }}|{{ self|string }}", {}, "<TemplateReference None> for a template from a string"),
    ("self-repr-named", "{% include 'i.html' %}|{{ self }}", {}, "the name of the template whose context it is", {},
     {"i.html": "{{ self }}"}),
    # A for loop over a list reads the list at each step (jinjava's ForTagTest).
    ("for-list-appended", "{% set l = [1, 2, 3] %}{% for i in l %}{{ i }}{% if i == 1 %}{{ l.append(4) }}{% endif %}{% endfor %}{{ l }}", {},
     "the appended item is iterated"),
    ("for-list-popped", "{% set l = [1, 2, 3, 4] %}{% for i in l %}{{ i }}{{ l.pop() }}{% endfor %}|{{ l }}", {},
     "the list shrinks under the loop"),
    ("for-list-appended-context", "{% for i in l %}{{ i }}{% if l|length < 5 %}{% do l.append(i * 10) %}{% endif %}{% endfor %}", {"l": [1, 2]},
     "a context list", {"extensions": ["do"]}),
    # With loop, the list is read live too; loop.length is len(list) when
    # first read, kept after (LoopContext caches it).
    ("for-list-appended-loop-length", "{% set l = [1, 2, 3] %}{% for i in l %}{{ i }}{{ loop.length }}{% if i < 3 %}{% do l.append(9) %}{% endif %}{% endfor %}", {},
     "the appended items are iterated, length stays 3", {"extensions": ["do"]}),
    ("for-list-appended-loop-last", "{% set l = [1, 2, 3] %}{% for i in l %}{{ i }}{% if loop.last %}L{% endif %}{% if l|length < 5 %}{% do l.append(9) %}{% endif %}{% endfor %}", {},
     "last looks at the list as it is", {"extensions": ["do"]}),
    ("for-list-appended-loop-attrs", "{% set l = [1, 2, 3] %}{% for i in l %}{% do l.append(9) if i < 3 %}{{ i }}:{{ loop.index }}/{{ loop.revindex }}/{{ loop.length }}{{ loop.nextitem }},{% endfor %}", {},
     "revindex from the length first read", {"extensions": ["do"]}),
    ("for-list-appended-length-later", "{% set l = [1, 2] %}{% for i in l %}{{ loop.length }}{% do l.append(5) if i < 3 %}{{ loop.length }}{{ i }}{% endfor %}", {},
     "length read before the append", {"extensions": ["do"]}),
    # A dict's iterator raises once the body changed the dict's size
    # (found probing the live list's neighbours).
    ("for-dict-grown", "{% set d = {'a': 1} %}{% for k in d %}{% do d.update({'b': 2}) %}{{ k }}{% endfor %}", {},
     "RuntimeError: dictionary changed size during iteration", {"extensions": ["do"]}),
    ("for-dict-shrunk", "{% set d = {'a': 1, 'b': 2} %}{% for k in d %}{% do d.pop('b', none) %}{{ k }}{% endfor %}", {},
     "RuntimeError, even when no item is left", {"extensions": ["do"]}),
    ("for-dict-same-size", "{% set d = {'a': 1} %}{% for k in d %}{% do d.update({'a': 2}) %}{{ k }}{% endfor %}{{ d }}", {},
     "a value changed: no error", {"extensions": ["do"]}),
]


def main():
    handmade.write("portfound", "convert/portfound.py", "internal/jinja2/testdata/oracle/convert/portfound.py", FOUND)


if __name__ == "__main__":
    main()
