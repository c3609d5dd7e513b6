#!/usr/bin/env python3
"""Issue 23's sixth round of exactness (docs/FUZZING.md), made by Jinja2.

    python3 convert/exact6.py     # -> cases/exact6.json

\\N{name} escapes in string literals (Python's unicode-escape codec and
CPython 3.11's unicodedata, Unicode 14.0.0: names of every kind, aliases,
any case, algorithmic names, names new in Unicode 15.0, malformed escapes);
sets of numbers, which print in CPython 3.11's set table order (random
sets of ints, negative and big ints, floats, bools, tuples, drawn with a
fixed seed; every size the table grows or shrinks at); ranges beyond 64
bits or too long to build (len, items, slices, in, index, count, repr,
equality, loops, the sandbox's MAX_RANGE).
Python's Jinja2 decides what each entry prints or raises (oracle.py); a
note starting "exact:" compares the message word for word. The long lists
are drawn with a fixed seed, so the file is the same at every run.
"""
import random
import unicodedata

import handmade


def esc(names, sep="|"):
    return "{{ '" + sep.join("\\N{%s}" % n for n in names) + "' }}"


def named():
    """Every 97th explicit name, lower-cased every other one."""
    out = []
    for c in range(0x110000):
        n = unicodedata.name(chr(c), None)
        if n and not n.startswith(("CJK UNIFIED IDEOGRAPH-", "HANGUL SYLLABLE ")):
            out.append(n)
    return [n.lower() if i % 2 else n for i, n in enumerate(out[::97])]


def hangul():
    return [unicodedata.name(chr(c)) for c in range(0xAC00, 0xD7A4, 53)] + [unicodedata.name("\uD7A3")]


CJK_EDGES = [0x3400, 0x4DBF, 0x4E00, 0x9FFF, 0x20000, 0x2A6DF, 0x2A700, 0x2B738, 0x2B740, 0x2B81D,
             0x2B820, 0x2CEA1, 0x2CEB0, 0x2EBE0, 0x30000, 0x3134A]
ALIASES = ["NULL", "NUL", "LINE FEED", "lf", "BYTE ORDER MARK", "bom", "LATIN CAPITAL LETTER GHA",
           "Latin Small Letter Gha", "ZWNJ", "VS1", "vs256", "SHY", "NBSP", "HORIZONTAL TABULATION",
           "PRIVATE USE-2", "END OF MEDIUM", "WEIERSTRASS ELLIPTIC FUNCTION", "BYZANTINE MUSICAL SYMBOL FTHORA SKLIRON CHROMA VASIS"]

FOUND = [
    ("uniname-plain", esc(["BULLET", "LATIN SMALL LETTER A", "SNOWMAN", "GRINNING FACE", "DIGIT ZERO", "SPACE", "REVERSE SOLIDUS", "APOSTROPHE", "TANGUT COMPONENT-001", "NUSHU CHARACTER-1B170", "KHITAN SMALL SCRIPT CHARACTER-18B00", "CJK COMPATIBILITY IDEOGRAPH-F900"]), {}, "names of characters"),
    ("uniname-case", esc(["bullet", "BuLlEt", "latin capital letter a with grave", "Tangut Component-001", "cjk compatibility ideograph-f900", "Nushu Character-1b170"]), {}, "any ASCII case (Py_TOUPPER of each byte)"),
    ("uniname-many", esc(named()), {}, "every 97th name Python knows, every other one in lower case"),
    ("uniname-aliases", esc(ALIASES), {}, "name aliases (NameAliases.txt), in any case"),
    ("uniname-cjk", esc(["CJK UNIFIED IDEOGRAPH-%X" % c for c in CJK_EDGES] + ["CJK UNIFIED IDEOGRAPH-04E00"]), {}, "the first and last of each range of CJK unified ideographs (Unicode 14.0), five digits with a zero"),
    ("uniname-hangul", esc(hangul()), {}, "every 53rd Hangul syllable and the last"),
    ("uniname-hangul-short", esc(["HANGUL SYLLABLE GGWAELH", "HANGUL SYLLABLE A", "HANGUL SYLLABLE YI"]), {}, "long short names; an empty leading consonant"),
    ("uniname-in-places", "{% set s = \"\\N{bullet}\" %}{{ s }}|{{ 'a\\N{SPACE}b'|upper }}|{{ ['\\N{NULL}']|tojson }}|{{ '\\N{LESS-THAN SIGN}' }}|{{ {'\\N{LATIN SMALL LETTER B}': 1}|list }}", {}, "in a set, a filter, a list, a dict, double quotes, autoescaped", {"autoescape": True}),
    ("uniname-escaped-before", "{{ '\\\\N{BULLET}' }}|{{ '\\\\\\N{BULLET}' }}", {}, "an escaped backslash before N"),
    ("uniname-sandbox", esc(["BULLET", "vs1"]), {}, "in the sandbox too", {"sandbox": True}),
]
UNKNOWN = [
    ("unknown", "NOPE"),
    ("named-sequence", "KATAKANA LETTER AINU P"),
    ("named-sequence-2", "LATIN CAPITAL LETTER A WITH MACRON AND GRAVE"),
    ("cjk-lower-hex", "CJK UNIFIED IDEOGRAPH-4e00"),
    ("cjk-three-digits", "CJK UNIFIED IDEOGRAPH-4E0"),
    ("cjk-six-digits", "CJK UNIFIED IDEOGRAPH-004E00"),
    ("cjk-outside", "CJK UNIFIED IDEOGRAPH-4DC0"),
    ("cjk-outside-2", "CJK UNIFIED IDEOGRAPH-2EBE1"),
    ("cjk-plus", "CJK UNIFIED IDEOGRAPH-+4E0"),
    ("cjk-lower-prefix", "cjk unified ideograph-4E00"),
    ("cjk-mixed-prefix", "Cjk Unified Ideograph-20000"),
    ("hangul-lower", "hangul syllable ga"),
    ("hangul-lower-prefix", "hangul syllable GA"),
    ("hangul-mixed", "Hangul Syllable Ga"),
    ("hangul-no-vowel", "HANGUL SYLLABLE G"),
    ("hangul-extra", "HANGUL SYLLABLE GAX"),
    ("hangul-empty", "HANGUL SYLLABLE "),
    ("hangul-greedy", "HANGUL SYLLABLE GGAGGG"),
    ("tangut-ideograph", "TANGUT IDEOGRAPH-17000"),
    ("leading-space", " BULLET"),
    ("trailing-space", "BULLET "),
    ("double-space", "LATIN SMALL  LETTER A"),
    ("non-ascii", "BULL\u00c9T"),
    ("control-name", "<control>"),
    ("quote-in-name", "BULLET\\'"),
    # new in Unicode 15.0: Python 3.11's unicodedata (14.0.0) does not know them
    ("unicode15-cjk-ext-h", "CJK UNIFIED IDEOGRAPH-31350"),
    ("unicode15-cjk-ext-h-last", "CJK UNIFIED IDEOGRAPH-323AF"),
    ("unicode15-shaking-face", "SHAKING FACE"),
    ("unicode15-kawi", "KAWI LETTER A"),
    ("unicode15-nag-mundari", "NAG MUNDARI LETTER O"),
    ("unicode15-khojki", "KHOJKI LETTER QA"),
]
for cid, name in UNKNOWN:
    FOUND.append(("uniname-" + cid, "{{ 'a' }}\n{{ 'x\\N{%s}' }}" % name, {}, "exact: TemplateSyntaxError: unknown Unicode character name, on line 2"))
MALFORMED = [
    ("no-brace", "{{ 'x\\Nx' }}"),
    ("at-end", "{{ 'x\\N' }}"),
    ("empty", "{{ '\\N{}' }}"),
    ("unclosed", "{{ '\\N{BULLET' }}"),
        ("paren", "{{ '\\N(BULLET)' }}"),
]
for cid, tpl in MALFORMED:
    FOUND.append(("uniname-malformed-" + cid, tpl, {}, "exact: TemplateSyntaxError: malformed \\N character escape"))


# Sets of numbers: a dict view's difference prints in CPython's set table
# order, the same in every process when every item's hash is (ints, bools,
# floats, tuples of those; hash(int) is modulo 2**61 - 1, -1 hashes to -2).
SET_RNG = random.Random(23)


def pyint(n):
    return str(n)


def dict_lit(keys):
    return "{" + ", ".join("%s: %d" % (k, i) for i, k in enumerate(keys)) + "}"


def list_lit(items):
    return "[" + ", ".join(items) + "]"


def set_cases():
    out = []
    r = SET_RNG
    M = 2**61 - 1
    kinds = {
        "small": lambda: str(r.randrange(0, 64)),
        "wide": lambda: str(r.randrange(-10**6, 10**6)),
        "neg": lambda: str(-r.randrange(1, 40)),
        "big": lambda: str(r.choice([1, -1]) * r.randrange(0, 2**80)),
        "modulus": lambda: str(r.choice([M, M - 1, M + 1, 2 * M, -M, -M - 1, 2**63, -2**63, 2**64, -1, -2, 2**61, -(2**61)]) + r.randrange(0, 3)),
        "float": lambda: repr(r.choice([r.uniform(-1000, 1000), r.randrange(-50, 50) / 4, r.random(), r.randrange(0, 9) * 1.0, 1e300 * r.random(), -1e-300 * r.random()])),
        "inf": lambda: r.choice(["pinf", "ninf", "0.5", "-0.0", "2.5", str(r.randrange(0, 20))]),
        "bool": lambda: r.choice(["true", "false", "1", "0", "1.0", "2", "0.0"]),
        "tuple": lambda: "(%s)" % ", ".join([str(r.randrange(-5, 30)) for _ in range(r.randrange(0, 3))] + [""])[:-2] if False else "(" + ", ".join(str(r.randrange(-5, 30)) for _ in range(r.randrange(1, 4))) + ",)",
        "mixed": lambda: r.choice([str(r.randrange(-100, 100)), repr(r.randrange(-400, 400) / 8), "true", "(1, 2.5)", str(2**70 + r.randrange(9))]),
    }
    tmpl = "{%% set s = %s %%}{{ s }}|{{ s|list }}|{{ s|length }}|{{ s|join(',') }}|{%% for x in s %%}{{ x }};{%% endfor %%}"
    n = 0
    for kind, gen in kinds.items():
        for size in (2, 3, 5, 6, 9, 14, 20, 37, 60, 150):
            if size > 40 and kind in ("bool", "inf"):
                continue
            keys = [gen() for _ in range(size)]
            drop = [gen() for _ in range(r.randrange(0, 4))] + r.sample(keys, min(len(keys), r.randrange(0, size // 2 + 1)))
            form = r.randrange(0, 4)
            if form == 0:
                expr = "%s.keys() - %s" % (dict_lit(keys), list_lit(drop))
            elif form == 1:
                expr = "%s - %s.keys()" % (list_lit(keys), dict_lit(drop))
            elif form == 2:
                expr = "%s.keys() - %s.keys()" % (dict_lit(keys), dict_lit(drop))
            else:
                expr = "%s - {}.keys()" % list_lit(keys)
            n += 1
            ctx = {"pinf": {"__float__": "inf"}, "ninf": {"__float__": "-inf"}} if kind == "inf" else {}
            out.append(("set-%s-%d" % (kind, size), tmpl % expr, ctx, "set table order of %d %s items (form %d)" % (size, kind, form)))
    # every way the table grows and shrinks
    for size in range(2, 26):
        keys = [str(k) for k in r.sample(range(-3000, 3000), size)]
        out.append(("set-dict-presize-%d" % size, "{{ %s.keys() - [] }}|{{ %s - {}.keys() }}" % (dict_lit(keys), list_lit(keys)), {}, "set(dict) resizes once first; set(list) grows by adds"))
    for size in (10, 30, 100, 400):
        keys = [str(r.randrange(0, 10**9)) for _ in range(size)]
        drop = keys[: size * 3 // 4]
        out.append(("set-shrink-%d" % size, "{{ %s.keys() - %s }}|{{ (%s.keys() - %s).copy() }}" % (dict_lit(keys), list_lit(drop), dict_lit(keys), list_lit(drop)), {}, "more than a quarter dummies: difference_update resizes; copy() re-inserts"))
    out += [
        ("set-collide", "{{ {1: 1, 2305843009213693952: 2, 2305843009213693953: 3, -1: 4, -2: 5, 9: 6, 17: 7}.keys() - [] }}", {}, "hash(2**61) == 1, hash(-1) == hash(-2) == -2: collisions probe on"),
        ("set-equal-keys", "{{ [1, true, 1.0, 2, 2.0, 0, false, -0.0] - {}.keys() }}", {}, "1, True and 1.0 are one item: the first stays"),
        ("set-items", "{{ {3: 4, 1: 2, -1: 0.5, 10: (1, 2)}.items() - [] }}|{{ {1: 1, 2: 2, 3: 3}.items() - [(2, 2)] }}", {}, "an items view's set holds tuples: tuplehash"),
        ("set-tuples", "{{ [(1, 2), (2, 1), (), (0,), (1, (2, 3)), (-1, -2), (1.5, true)] - {}.keys() }}", {}, "tuples of numbers"),
        ("set-ops", "{% set s = {5: 1, 3: 2, 90: 3, -7: 4}.keys() - [90] %}{{ 3 in s }}|{{ 90 in s }}|{{ s == s.copy() }}|{{ s.copy() }}|{{ s|sort }}|{{ s|max }}|{{ s|sum }}|{{ s|first }}|{{ s|unique|list }}|{{ s|tojson }}", {}, "in, ==, copy(), filters in set order"),
        ("set-last", "{{ ({5: 1, 3: 2}.keys() - [])|last }}", {}, "exact: TypeError: 'set' object is not reversible"),
        ("set-of-set", "{{ ({5: 1, 3: 2, 90: 3, -7: 4}.keys() - []) - {3: 0}.keys() }}", {}, "a set minus a view: set(a_set) is set_merge"),
        ("set-drop-str", "{{ {5: 1, 3: 2, 90: 3}.keys() - ['a', none, 3] }}", {}, "removing a str or None from a set of numbers (their hashes do not matter: they are in no slot)"),
        ("set-str-refused", "{{ {'a': 1, 'b': 2}.keys() - [] }}", {}, "strs: refused (their order changes with PYTHONHASHSEED)"),
        ("set-str-removed", "{{ {'a': 1, 2: 2, 3: 3}.keys() - ['a'] }}", {}, "a str that was in the table: refused, it may have moved the numbers"),
        ("set-none-refused", "{{ {none: 1, 2: 2}.keys() - [] }}", {}, "None's hash is its address: refused"),
        ("set-nan-refused", "{{ [1, 2, nan] - {}.keys() }}", {"nan": {"__float__": "nan"}}, "nan's hash is its address: refused"),
        ("set-range", "{{ range(0, 100, 7) - {14: 0}.keys() }}|{{ range(-40, 40, 3)|list - {}.keys() }}", {}, "a range minus a view"),
        ("set-big-range", "{{ (range(5000) - {}.keys())|list == range(5000)|list }}|{{ (range(-20, 3000, 3) - {}.keys())|first }}", {}, "large sets: small ints are in order"),
        ("set-sandbox", "{% set s = {9: 1, 3: 2, 40: 3, -7: 4}.keys() - [] %}{{ s }}|{{ s.copy() }}", {}, "the sandbox prints them too", {"sandbox": True}),
        ("set-sandbox-mutator", "{% set s = {9: 1, 3: 2}.keys() - [] %}{{ s.add(4) }}", {}, "exact: the immutable sandbox refuses set.add", {"sandbox": True}),
    ]
    return out


FOUND += set_cases()

# Python's range holds ints of any size and builds nothing: len, items,
# slices, in, index, count, repr, equality and loops of ranges beyond 64
# bits or too long to build; the sandbox's MAX_RANGE.
LOOPS = {"extensions": ["loopcontrols"]}
RANGES = [
    ("range-big-repr", "{{ range(2**64) }}|{{ range(2**64, 2**64 + 3) }}|{{ range(-2**70, 2**70, 2**65) }}|{{ range(0, 2**64, 1) }}|{{ range(2**64+1, 5) }}|{{ range(2**63) }}", {}, "repr with ints of any size"),
    ("range-big-attrs", "{{ range(2**64).start }}|{{ range(0, 2**64, 3).step }}|{{ range(2**64).stop }}|{{ range(5, -2**64, -2**63).step }}", {}, "start, stop, step"),
    ("range-big-len", "{{ range(2**64)|length }}", {}, "exact: OverflowError: Python int too large to convert to C ssize_t"),
    ("range-big-len-fits", "{{ range(2**64, 2**64 + 3)|length }}|{{ range(2**63 - 1)|length }}|{{ range(-2**63, 2**63 - 1, 3)|length }}|{{ range(2**64, 3)|length }}|{{ range(9223372036854775807, -9223372036854775808, -3)|count }}", {}, "lengths that fit a Py_ssize_t"),
    ("range-int64-len-overflow", "{{ range(-9223372036854775808, 9223372036854775807)|length }}", {}, "exact: the length of two int64 bounds is beyond a Py_ssize_t"),
    ("range-big-items", "{{ range(2**64)[2**63] }}|{{ range(2**64)[-1] }}|{{ range(2**64)[0] }}|{{ range(2**64)[true] }}|{{ range(2**64)[2**64] }}|{{ range(2**64)[1.5] }}|{{ range(2**64)[-2**64 - 1] }}|{{ range(0, -2**70, -3)[10**6] }}", {}, "items; out of range is Undefined (getattr after the IndexError)"),
    ("range-big-item-str", "{{ range(2**64)['a'] }}", {}, "a str key reads the attribute"),
    ("range-big-slices", "{{ range(2**64)[::2**62] }}|{{ range(2**64)[::2**62]|list }}|{{ range(2**64)[2**63:] }}|{{ range(2**64)[-3:] }}|{{ range(2**64)[-3:]|list }}|{{ range(2**64)[::-1] }}|{{ range(2**64)[10:2:-3] }}|{{ range(3)[2**70:] }}|{{ range(3)[:-2**70] }}|{{ range(10)[::-2**70] }}|{{ range(10)[::2**70]|list }}", {}, "slices with bounds and steps of any size (_PySlice_GetLongIndices)"),
    ("range-big-slice-errors", "{{ range(2**64)[::0] }}", {}, "exact: ValueError: slice step cannot be zero"),
    ("range-big-slice-type", "{{ range(2**64)['a':] }}", {}, "exact: TypeError: slice indices must be integers or None or have an __index__ method"),
    ("range-big-in", "{{ 5 in range(2**64) }}|{{ 2**64 - 1 in range(2**64) }}|{{ 2**64 in range(2**64) }}|{{ 2.0 in range(2**64) }}|{{ true in range(2**64) }}|{{ -2**70 in range(0, -2**71, -2**69) }}|{{ -2**70 + 1 in range(0, -2**71, -2**69) }}|{{ 'a' in range(5) }}|{{ 2.5 in range(5) }}", {}, "in: arithmetic for ints and bools (Python searches item by item for others: 'a' in range(2**64) never ends)"),
    ("range-big-index", "{{ range(2**70).index(2**69) }}|{{ range(0, 2**70, 7).count(14) }}|{{ range(0, 2**70, 7).count(15) }}|{{ range(2**64).index(true) }}", {}, "index and count of ints"),
    ("range-big-index-missing", "{{ range(2**64).index(2**64) }}", {}, "exact: ValueError: 18446744073709551616 is not in range"),
    ("range-index-not-int", "{{ range(5).index('a') }}", {}, "exact: ValueError: sequence.index(x): x not in sequence (range_index searches for what is not an int)"),
    ("range-index-float", "{{ range(5).index(2.0) }}|{{ range(5).count(2.0) }}|{{ range(5).index(true) }}", {}, "a float equal to an item is found"),
    ("range-index-float-missing", "{{ range(5).index(2.5) }}", {}, "exact: ValueError: sequence.index(x): x not in sequence"),
    ("range-big-eq", "{{ range(2**64) == range(0, 2**64, 1) }}|{{ range(2**64+1, 5) == range(0) }}|{{ range(2**64, 2**64 + 1, 5) == range(2**64, 2**64 + 1, 7) }}|{{ range(2**64) == range(2**64 + 1) }}|{{ range(2**64) != range(2**64) }}|{{ range(2**64) is sameas range(2**64) }}", {}, "range_equals: length, start, step"),
    ("range-big-truth", "{% if range(2**64) %}t{% endif %}|{% if range(2**64, 3) %}t{% else %}f{% endif %}|{{ range(2**64)|string }}|{{ range(2**64) ~ '' }}|{{ range(2**64)|first }}|{{ range(2**64)|last }}|{{ range(2**64, 3)|first }}|{{ range(2**64) is iterable }}", {}, "truth, str, first, last"),
    ("range-big-list", "{{ range(2**64, 2**64 + 3)|list }}|{{ range(2**64, 2**64 + 9, 4)|sum }}|{{ range(2**64, 2**64 + 3)|reverse|list }}|{{ range(18446744073709551617, 5)|list }}|{{ range(3, 0, -2**64)|list }}|{{ range(2**64, 2**64 + 3)|join(',') }}", {}, "a short range of big ints builds its items"),
    ("range-big-list-overflow", "{{ range(2**64)|list }}", {}, "exact: list() asks the length first: OverflowError"),
    ("range-big-loop", "{% for x in range(2**64, 2**65) %}{{ x }}|{{ loop.index }}|{{ loop.first }};{% if loop.index == 3 %}{% break %}{% endif %}{% endfor %}", {}, "a loop takes the items one at a time", LOOPS),
    ("range-big-loop-length", "{% for x in range(2**64) %}{{ loop.length }}{% break %}{% endfor %}", {}, "exact: loop.length is len(range): OverflowError", LOOPS),
    ("range-big-loop-revindex", "{% for x in range(2**64) %}{{ loop.revindex }}{% break %}{% endfor %}", {}, "exact: OverflowError", LOOPS),
    ("range-huge-loop", "{% for x in range(a) %}{{ x }}:{{ loop.index }}:{{ loop.length }}:{{ loop.revindex }}:{{ loop.last }};{% if loop.index == 2 %}{% break %}{% endif %}{% endfor %}", {"a": 9223372036854775807}, "a range of 2**63 - 1 items: its length fits", LOOPS),
    ("range-huge-loop-simple", "{% for x in range(10**12, 0, -7) %}{{ x }};{% if x < 10**12 - 20 %}{% break %}{% endif %}{% endfor %}", {}, "no loop variable", LOOPS),
    ("range-huge-ops", "{{ range(a)|length }}|{{ 5 in range(a) }}|{{ range(a)[-1] }}|{{ range(a)[::10**9][:3]|list }}|{{ range(a) }}|{{ range(0, a, 2).index(10**15) }}", {"a": 9223372036854775807}, "len, in, items and slices of a range too long to build"),
    ("range-huge-nested-loop", "{% for x in range(2**64) %}{% for y in range(x, 2**66, 2**64) %}{{ y }},{% endfor %};{% if loop.index == 2 %}{% break %}{% endif %}{% endfor %}", {}, "nested loops over big ranges", LOOPS),
    ("range-huge-filtered-loop", "{% for x in range(2**64) if x is odd %}{{ x }}:{{ loop.index }};{% if loop.index == 3 %}{% break %}{% endif %}{% endfor %}", {}, "a filtered loop", LOOPS),
    ("range-sandbox-big-short", "{{ range(2**64, 2**64 + 3)|list }}|{{ range(2**64, 2**64 + 3) }}", {}, "the sandbox lets a short range of big ints through", {"sandbox": True}),
    ("range-sandbox-big-long", "{{ range(2**63) }}", {}, "exact: the sandbox's len() of a range beyond a Py_ssize_t is OverflowError", {"sandbox": True}),
    ("range-sandbox-max", "{{ range(2**64, 2**64 + 100001) }}", {}, "exact: MAX_RANGE", {"sandbox": True}),
    ("range-sandbox-huge", "{{ range(9223372036854775807) }}", {}, "exact: MAX_RANGE for a length that fits", {"sandbox": True}),
    ("range-sandbox-slice", "{{ range(100)[::2**64] }}|{{ range(100)[2**64:] }}", {}, "slices in the sandbox", {"sandbox": True}),
]
FOUND += RANGES


def main():
    handmade.write("exact6", "issue 23", "internal/jinja2/testdata/oracle/convert/exact6.py", FOUND)


if __name__ == "__main__":
    main()
