"""Writes testdata/ops.txt: Python's answers to the operations of ops.go.

Each line is: operation TAB left TAB right TAB answer, where left and right
are Python literals and answer is repr(result) or !ExceptionType: message.
Run: python3 testdata/ops.py > testdata/ops.txt (CPython 3.11, markupsafe).
"""
import math

from pyanswer import ans

values = ["0", "1", "-1", "7", "-7", "2", "3", "-2", "10", "2**62", "2**63", "-2**63", "10**20", "2**100", "-10**20",
          "0.0", "-0.0", "0.5", "2.5", "-7.5", "1e16", "1e-05", "0.1", "3.0", "1e308", "float('inf')", "float('nan')",
          "True", "False", "None", "''", "'a'", "'ab'", "'it\\'s'", "'q\"'", "'both\\'\"'", "'\\n\\t\\\\'", "'\\x00\\x7f'",
          "'\\xa0'", "'\\u200b'", "'\\xe9t\\xe9'", "'\\U0001f600'", "'\\x85'", "'\\ud7ff'", "'\\U000e0001'", "'\\u2028'",
          "[]", "[1]", "[1, 'a']", "[1, 2]", "()", "(1,)", "(1, 2)", "{}", "{'a': 1}", "{'a': [1, (2,)], 3: None}",
          "[[]]", "[1.0, -0.0]"]
ops = ["+", "-", "*", "/", "//", "%", "**", "==", "!=", "<", "<=", ">", ">=", "in"]

for v in values:
    x = eval(v)
    print("str\t%s\t\t%s" % (v, ans(lambda: str(x))))
    print("repr\t%s\t\t%s" % (v, ans(lambda: repr(x))))
    print("bool\t%s\t\t%s" % (v, ans(lambda: bool(x))))
    print("neg\t%s\t\t%s" % (v, ans(lambda: -x)))
    print("len\t%s\t\t%s" % (v, ans(lambda: len(x))))
for a in values:
    for b in values:
        x, y = eval(a), eval(b)
        for op in ops:
            if op == "**" and isinstance(y, int) and not isinstance(y, bool) and y > 100 and isinstance(x, int) and abs(x) > 1:
                continue
            if op == "**" and isinstance(x, float) and x < 0 and isinstance(y, float) and y != int(y) if isinstance(y, float) and math.isfinite(y) else False:
                continue
            if op == "**" and isinstance(x, (int, float)) and not isinstance(x, bool) and x < 0 and isinstance(y, float) and math.isfinite(y) and y != int(y):
                continue
            if op in ("*",) and ((isinstance(x, (str, list, tuple)) and isinstance(y, int) and y > 1000) or (isinstance(y, (str, list, tuple)) and isinstance(x, int) and x > 1000)):
                continue
            if op == "in":
                f = lambda: x in y
            else:
                f = lambda: eval("x %s y" % op)
            print("%s\t%s\t%s\t%s" % (op, a, b, ans(f)))
