"""Writes testdata/slices.txt: Python's answers to v[start:stop:step].

Each line is: value TAB start TAB stop TAB step TAB answer, where value and
the bounds are Python literals ("" for an omitted bound) and answer is
type:repr(result) or !ExceptionType: message, as testdata/ops.py writes.
Run: python3 testdata/slices.py > testdata/slices.txt
"""
from pyanswer import ans

values = ["''", "'abcdef'", "'h\\xe9llo w\\xf6rld'", "'\\U0001f600a\\xe9b\\u200b'", "[1, 2, 3, 4, 5]", "(1, 'a')"]
bounds = ["", "None", "-10**20", "-7", "-1", "0", "2", "5", "10**20"]
steps = ["", "1", "2", "-1", "-3", "0"]


def lit(b):
    return None if b == "" else eval(b)


for v in values:
    x = eval(v)
    for a in bounds:
        for b in bounds:
            for s in steps:
                print("\t".join([v, a, b, s, ans(lambda: x[lit(a):lit(b):lit(s)])]))
