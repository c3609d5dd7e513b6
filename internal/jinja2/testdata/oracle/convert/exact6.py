#!/usr/bin/env python3
"""Issue 23's sixth round of exactness (docs/FUZZING.md), made by Jinja2.

    python3 convert/exact6.py     # -> cases/exact6.json

\\N{name} escapes in string literals (Python's unicode-escape codec and
CPython 3.11's unicodedata, Unicode 14.0.0: names of every kind, aliases,
any case, algorithmic names, names new in Unicode 15.0, malformed escapes).
Python's Jinja2 decides what each entry prints or raises (oracle.py); a
note starting "exact:" compares the message word for word. The long lists
are drawn with a fixed seed, so the file is the same at every run.
"""
import os
import random
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))


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


def main():
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    oracle.write_found("exact6.json", "exact6", "issue 23", "internal/jinja2/testdata/oracle/convert/exact6.py", FOUND)


if __name__ == "__main__":
    main()
