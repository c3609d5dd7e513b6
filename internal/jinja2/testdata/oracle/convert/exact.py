#!/usr/bin/env python3
"""Exactness leftovers of issue 23, as cases.

    python3 convert/exact.py     # -> cases/exact.json

Corners where the package once printed something other than Jinja2, found
by reading Jinja2's source and probing it rather than by a converted
suite: tojson's sort_keys=True over keys that are not all strs (sorted by
value, a TypeError for keys Python cannot order, and two keys that write
alike written twice). Python's Jinja2 decides what each prints or raises
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
]


def main():
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    cases = []
    for name, tpl, ctx, env in CASES:
        cases.append({"id": "exact/" + name, "source": {"test": "exact"}, "template": tpl, "context": ctx, "env": env})
    doc = {"jinja2": "", "source": {"repo": "rolemark", "path": "internal/jinja2/testdata/oracle/convert/exact.py", "licence": "this project's"},
           "cases": cases}
    oracle.write_cases("exact.json", doc)


if __name__ == "__main__":
    main()
