#!/usr/bin/env python3
"""Issue 23's thirteenth round: what the thirteenth generator and this
round's sweeps (format specs, numeric strs, Unicode text filters,
comparisons, collections by attribute) found, each made small.

    python3 convert/exact13.py     # -> cases/exact13.json

A hand-made list (handmade.py).
"""
import handmade

# (name, template, context, note[, env[, loader]])
FOUND = []

# int() and float() of a str allow an underscore only between two digits,
# and int() one right after a base prefix too (int('0x_1f', 16) is 31);
# a sign is no digit ('-_1' is no number) and float() takes one sign
# before inf and nan ('--inf' is no number). The package refused '0x_1f'
# and read '-_1' as -1 and '--inf' as 0.0.
NUMSTRS = ["0x_1f", "0X_F_F", "-0x_1f", "0x__1f", "0x_", "0b_1", "0b_", "0o_7", "-_1", "+_1", "_1", "1_", "1_0", "1__0", "0_0", "0_7",
           "1_.5", "1._5", "1e_5", "1e1_0", "1_0.5", "1.5e1_0", "--inf", "+-nan", "-+1", "++1", "-inf", "+nan", "-Infinity", "1_e5", "0x1_f", "0x1f_"]
FILTERS = ["int", "int(-1)", "int(-1, 0)", "int(-1, 16)", "int(-1, 2)", "int(-1, 8)", "float", "float(-1)", "int(-1, 36)"]
for i, s in enumerate(NUMSTRS):
    for j, f in enumerate(FILTERS):
        FOUND.append(("numstr-underscore-%02d-%d" % (i, j), "{{ s|%s }}" % f, {"s": s}, "int() and float() of a str with underscores and signs"))
    FOUND.append(("numstr-underscore-lit-%02d" % i, "{{ %r|int(-1, 0) }}|{{ %r|float(-1) }}" % (s, s), {}, "int() and float() of a str with underscores and signs"))

if __name__ == "__main__":
    handmade.write("exact13", "issue 23's thirteenth round", "internal/jinja2/testdata/oracle/convert/exact13.py", FOUND)
