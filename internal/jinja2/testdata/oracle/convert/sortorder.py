#!/usr/bin/env python3
"""Which comparison of a sort raises first: CPython's list.sort order.

    python3 convert/sortorder.py     # -> cases/sortorder.json

A sort of values that Python cannot all compare raises at the first
comparison that fails, and which one that is decides the exception
(TypeError for '<' between unrelated types, UndefinedError for an
Undefined). CPython's list.sort (3.11, Objects/listobject.c) sorts a list
of fewer than 64 items as one run: count_run, then binary insertion; with
reverse=True it reverses the list first and reverses it back after. The
templates sort mixed lists, most of them reversed, found by drawing random
ones and keeping those where another comparison order raises another
exception. u is undefined, v.x a missing attribute of a dict.
"""
import handmade

# (name, template)
CASES = [
    ("fuzz-reverse-attribute", "{% for x in ['a', [1], 1, {'a': 'x', 'b': 'y'}]|sort(reverse=true, attribute=0) %}{% endfor %}"),
    ("reverse-stable", "{{ [{'a': 1, 'b': 1}, {'a': 2, 'b': 2}, {'a': 1, 'b': 3}]|sort(reverse=true, attribute='a')|map(attribute='b')|list }}"),
    ("reverse-method", "{% set l = [1, 'a', u] %}{% do l.sort(reverse=true) %}"),
    ("forward-tuples", "{{ [(1, 0), (2, u), (3, 0), (2, 'x')]|sort }}"),
    ("reverse-mixed-01", "{{ ['a', [1], v.x, v.x, u, u, v.x, 1]|sort(reverse=true) }}"),
    ("reverse-mixed-02", "{{ ['a', u, [1], (1,), [1]]|sort(reverse=true) }}"),
    ("reverse-mixed-03", "{{ [(1,), 1, true, u, 'a', v.x, true]|sort(reverse=true) }}"),
    ("reverse-mixed-04", "{{ [(1,), u, u, [1], 1, 'a']|sort(reverse=true) }}"),
    ("reverse-mixed-05", "{{ [1, 'a', none, 'a', 1, v.x]|sort(reverse=true) }}"),
    ("reverse-mixed-06", "{{ [1, 'a', u, 2.5, none, (1,), [1], u]|sort(reverse=true) }}"),
    ("reverse-mixed-07", '{{ [2.5, (1,), none, (1,), u, none, none]|sort(reverse=true) }}'),
    ("reverse-mixed-08", '{{ [2.5, none, (1,), v.x]|sort(reverse=true) }}'),
    ("reverse-mixed-09", "{{ [2.5, none, none, 'a', 'a', u, v.x]|sort(reverse=true) }}"),
    ("reverse-mixed-10", "{{ [2.5, v.x, v.x, {'k': 1}, 2.5, 2.5]|sort(reverse=true) }}"),
    ("reverse-mixed-11", "{{ [[1], true, {'k': 1}, 2.5, v.x, true]|sort(reverse=true) }}"),
    ("reverse-mixed-12", "{{ [none, (1,), 'a']|sort(reverse=true, attribute=0) }}"),
    ("reverse-mixed-13", "{{ [none, true, 2.5, (1,), u, {'k': 1}]|sort(reverse=true) }}"),
    ("reverse-mixed-14", "{{ [none, u, 1, none, {'k': 1}, true, true]|sort(reverse=true) }}"),
    ("reverse-mixed-15", "{{ [u, 'a', none, [1], true, [1]]|sort(reverse=true) }}"),
    ("reverse-mixed-16", "{{ [v.x, none, 2.5, {'k': 1}, (1,)]|sort(reverse=true) }}"),
    ("reverse-mixed-17", '{{ [v.x, true, 2.5, u, true, (1,), 1, none]|sort(reverse=true) }}'),
    ("reverse-mixed-18", "{{ [v.x, v.x, u, 'a', 1]|sort(reverse=true) }}"),
    ("reverse-mixed-19", "{{ [v.x, {'k': 1}, true]|sort(reverse=true) }}"),
    ("reverse-mixed-20", "{{ [{'k': 1}, u, [1], 2.5, [1], 'a', none]|sort(reverse=true) }}"),
    ("reverse-mixed-21", "{{ [{'k': 1}, v.x, none, [1], 1, {'k': 1}]|sort(reverse=true) }}"),
]


def main():
    handmade.write_rows("sortorder", [(name, tpl, {"v": {}}, {"extensions": ["do"]}) for name, tpl in CASES])


if __name__ == "__main__":
    main()
