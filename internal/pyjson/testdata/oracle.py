#!/usr/bin/env python3
"""Oracle for internal/pyjson: what Python's json module does.

Writes testdata/corpus.json: a list of cases {"name", "in", "opts", and
"out" (json.dumps(json.loads(in), **opts)) or "error" (json.loads raised)}.
The inputs are generated with a fixed seed: JSON texts with nested
objects and arrays, repeated keys, numbers in every spelling (big
integers, -0, exponents, 1e999, 1e-999), strings with escapes, control
characters, non-ASCII and astral characters, odd white space; plus fixed
edge cases and invalid texts. The options cover json.dumps's ensure_ascii,
indent (None, int, negative, 0, str), separators and sort_keys.

Regenerate from the repository root (python3 only, no packages):

    python3 internal/pyjson/testdata/oracle.py
"""

import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

CHARS = ["a", "Z", " ", "\"", "\\", "/", "\n", "\r", "\t", "\b", "\f", "\x00", "\x01", "\x1f", "\x7f",
         "é", "ß", "中", "😀", "\u2028", "\u2029", "\u00a0", "\ufeff", "\U0001f600", "<", ">", "&", "'"]

NUMBERS = ["0", "-0", "1", "-1", "10", "123456789012345678901234567890", "-98765432109876543210",
           "0.0", "-0.0", "1.0", "1.50", "0.1", "-2.5", "1e5", "1E5", "1e+5", "1e-5", "1.5e-7",
           "1e16", "1e15", "9999999999999998", "1e22", "1e308", "1e999", "-1e999", "1e-999", "-1e-999",
           "0.0001", "0.00001", "123.456e2", "2.5E-3", "3.141592653589793", "0.30000000000000004",
           "1.7976931348623157e308", "5e-324", "123456789.123456789", "1e-7", "100.0"]


def rand_string(rnd):
    n = rnd.randint(0, 8)
    s = "".join(rnd.choice(CHARS) for _ in range(n))
    return s


def write_string(rnd, s):
    """A JSON string literal for s, escaped in one of several valid ways."""
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif o < 0x20:
            short = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
            if ch in short and rnd.random() < 0.5:
                out.append(short[ch])
            else:
                out.append("\\u%04x" % o if rnd.random() < 0.5 else "\\u%04X" % o)
        elif ch == "/" and rnd.random() < 0.5:
            out.append("\\/")
        elif o > 0x7f and rnd.random() < 0.3:
            if o > 0xffff:
                v = o - 0x10000
                out.append("\\u%04x\\u%04x" % (0xd800 + (v >> 10), 0xdc00 + (v & 0x3ff)))
            else:
                out.append("\\u%04x" % o)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def ws(rnd):
    return rnd.choice(["", "", "", " ", "\n", "\t", " \r\n "])


def gen(rnd, depth):
    r = rnd.random()
    if depth > 3 or r < 0.45:
        k = rnd.random()
        if k < 0.35:
            return write_string(rnd, rand_string(rnd))
        if k < 0.75:
            return rnd.choice(NUMBERS)
        return rnd.choice(["true", "false", "null"])
    if r < 0.7:
        n = rnd.randint(0, 4)
        return "[" + ws(rnd) + ("," + ws(rnd)).join(gen(rnd, depth + 1) for _ in range(n)) + ws(rnd) + "]"
    n = rnd.randint(0, 5)
    keys = [rand_string(rnd) for _ in range(n)]
    if n > 1 and rnd.random() < 0.3:
        keys.append(rnd.choice(keys))  # a repeated key
    items = [write_string(rnd, k) + ws(rnd) + ":" + ws(rnd) + gen(rnd, depth + 1) for k in keys]
    return "{" + ws(rnd) + ("," + ws(rnd)).join(items) + ws(rnd) + "}"


OPTION_SETS = [
    {"ensure_ascii": False},
    {"ensure_ascii": True},
    {"ensure_ascii": False, "sort_keys": True},
    {"ensure_ascii": True, "sort_keys": True},
    {"ensure_ascii": False, "indent": 2},
    {"ensure_ascii": False, "indent": 4, "sort_keys": True},
    {"ensure_ascii": True, "indent": 0},
    {"ensure_ascii": False, "indent": -1},
    {"ensure_ascii": False, "indent": "\t"},
    {"ensure_ascii": False, "separators": [",", ":"]},
    {"ensure_ascii": True, "separators": [", ", ": "], "indent": 2},
    {"ensure_ascii": False, "separators": [" ; ", " = "], "sort_keys": True},
]

FIXED = [
    ("repeated key keeps first place, last value", '{"b":1,"a":2,"b":3}'),
    ("repeated key nested", '{"x":{"k":1,"k":{"z":2}},"x":[1]}'),
    ("1e999", "[1e999, -1e999, 1e-999, -1e-999]"),
    ("huge float exponent", "1E400"),
    ("ints", "[0,-0,10,-7,123456789012345678901234567890]"),
    ("floats", "[1.5,1.0,-0.0,0.1,1e5,1e16,1e15,1.5e-5,0.0001,2.5E-3,1e+20]"),
    ("strings", '"q\\"b\\\\s\\/\\n\\r\\t\\b\\f\\u0001\\u001f\\u007f\\u2028\u00e9\u4e2d\U0001f600"'),
    ("surrogate pair escape", '"\\ud83d\\ude00"'),
    ("empty containers", '[[],{},[{}],{"a":[]}]'),
    ("white space", ' \n\t { "a" :\r\n [ 1 , 2 ] } \n'),
    ("tool schema", '{"type":"object","properties":{"city":{"type":"string","description":"City — 城市"}},"required":["city"]}'),
    ("top-level string", '"hello"'),
    ("top-level number", "42"),
    ("literals", "[true,false,null]"),
]

INVALID = ["", " ", "{", "[1,]", '{"a":}', "1 2", "nope", "01", "1.", ".5", "-", "1e", '"\\x"', '"a',
           '"tab\there"', "[1 2]", '{"a" 1}', '{a:1}', "[", "]", "tru", "nul", "+1", "0x10", '"\\u12"',
           '{"a":1,}', "[1]]"]


def main():
    rnd = random.Random(20261123)
    cases = []
    for name, text in FIXED:
        for i, opts in enumerate(OPTION_SETS):
            cases.append((f"{name} / options {i}", text, opts))
    for k in range(600):
        text = ws(rnd) + gen(rnd, 0) + ws(rnd)
        cases.append((f"random {k}", text, rnd.choice(OPTION_SETS)))
    out = []
    for name, text, opts in cases:
        c = {"name": name, "in": text, "opts": opts}
        kwargs = dict(opts)
        if "separators" in kwargs:
            kwargs["separators"] = tuple(kwargs["separators"])
        c["out"] = json.dumps(json.loads(text), **kwargs)
        out.append(c)
    for text in INVALID:
        try:
            json.loads(text)
            raise SystemExit(f"{text!r} was expected to be invalid")
        except json.JSONDecodeError as e:
            out.append({"name": "invalid " + repr(text), "in": text, "opts": {}, "error": str(e)})
    with open(os.path.join(HERE, "corpus.json"), "w", encoding="utf-8") as f:
        f.write("[\n" + ",\n".join(json.dumps(c, ensure_ascii=True) for c in out) + "\n]\n")
    print(len(out), "cases")


if __name__ == "__main__":
    main()
