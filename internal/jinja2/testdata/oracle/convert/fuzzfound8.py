#!/usr/bin/env python3
"""What FuzzPython's eighth widening found (docs/FUZZING.md), made small.

    python3 convert/fuzzfound8.py     # -> cases/fuzz8.json

As convert/fuzzfound7.py, for the runs of the generator that draws str
methods with unusual arguments, slices with steps, filters over dicts and
Undefined values, tests over odd values and floats through %, format and
round: Python's Jinja2 decides what each entry prints or raises
(oracle.py); the note says what the fuzzer saw. A note starting "exact:"
compares the message word for word.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, template, context, note[, env[, loader]])
FOUND = [
    # PySlice_Unpack reads the step first
    ("slice-step-zero-first-range", "{{ range(1, 20, 3)['a':0:false] }}", {}, "exact: ValueError: slice step cannot be zero, before the bad start (the package said TypeError)"),
    ("slice-step-zero-first-list", "{{ x['a':'b':0] }}", {"x": [1, 2]}, "exact: the same for a list"),
    ("slice-step-zero-first-str", "{{ x[none:'b':0] }}", {"x": "ab"}, "exact: and a str"),
    ("slice-step-type-first", "{{ x['a':0:'c'] }}|{{ x[0:'b':'c'] }}", {"x": "ab"}, "exact: a bad step is the TypeError either way"),
    ("slice-bad-start-step-ok", "{{ x['a':0:2] }}", {"x": (1, 2)}, "exact: a bad start with a good step is TypeError"),
    # string.Formatter (the sandbox's, Markup's) numbers a field only when its whole name is empty or digits
    ("formatter-empty-first-attr", "{{ '{.real}'.format(1.5) }}", {}, "exact: get_value('') is kwargs['']: KeyError: '' (the package numbered it)", {"sandbox": True}),
    ("formatter-empty-first-item", "{{ '{[0]}'.format(x) }}", {"x": [1, 2]}, "exact: the same for an item", {"sandbox": True}),
    ("formatter-empty-first-markup", "{{ ('{.real}'|safe).format(1.5) }}", {}, "exact: Markup.format is a string.Formatter outside the sandbox too"),
    ("formatter-empty-first-map", "{{ '{[0]}'.format_map(d) }}|", {"d": {"a": 1}}, "exact: format_map's mapping['']", {"sandbox": True}),
    ("formatter-empty-first-kwarg", "{{ '{.real}'.format(1.5, **{'': 3}) }}", {}, "the keyword named ''", {"sandbox": True}),
    ("formatter-digit-attr-no-switch", "{{ '{}{0.real}'.format(1, 2) }}|{{ '{0.real}{}'.format(1, 2) }}", {}, "'0.real' is not isdigit(): no numbering switch", {"sandbox": True}),
    ("format-empty-first-attr", "{{ '{.real}{}'.format(1.5, 2) }}|{{ '{[1]}'.format(x) }}", {"x": [1, 2]}, "str.format numbers it", {}),
    ("format-digit-attr-switch", "{{ '{}{0.real}'.format(1, 2) }}", {}, "exact: str.format switches", {}),
]


def main():
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_found("fuzz8.json", "fuzz8", "FuzzPython", "internal/jinja2/fuzz_python_test.go (FuzzPython)", FOUND)


if __name__ == "__main__":
    main()
