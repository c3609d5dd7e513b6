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

# str.casefold of Cherokee's capitals is themselves (CaseFolding.txt folds
# the small letters U+AB70.. to them; lower() makes them small): the
# package lowered them
for i, t in enumerate(["{{ s.casefold() }}", "{{ s.casefold() == s.lower() }}", "{{ s.casefold()|list }}", "{{ s.lower().casefold() == s.casefold() }}"]):
    for j, v in enumerate(["\u13a0\u13a1\u13ef\u13f0\u13f5", "\uab70\uabbf\u13f8\u13fd", "Ꮳ Ꭰ ꭰ ᏸ", "\u13f4\u13f5\u13f6\u13f7"]):
        FOUND.append(("casefold-cherokee-%d-%d" % (i, j), t, {"s": v}, "str.casefold of Cherokee"))

# str.islower and str.isidentifier are Python 3.11's, of Unicode 14.0:
# the modifier letters Unicode 15.0 added (U+1DF25.., U+1E030..) are no
# lowercase letters yet, and isidentifier is XID_Start then XID_Continue
# (Other_ID_Start's U+2118, U+212E, U+1885, U+1886 start a name; U+037A,
# U+0E33, U+2E2F and the Arabic ligatures U+FC5E.. NFKC turns into other
# text do not; U+0CF3 and U+0ECE, new in 15.0, continue none); the package
# read Go's Unicode 15.0 and letters
IDS = [0x1DF25, 0x1DF2A, 0x1E030, 0x1E06D, 0x2118, 0x212E, 0x1885, 0x1886, 0x37A, 0xE33, 0xEB3, 0x2E2F, 0xFC5E, 0xFC63, 0xFE70, 0xFE71, 0xFF9E, 0xCF3, 0xECE,
       0xB7, 0x387, 0x1369, 0x19DA, 0x309B, 0x2160, 0x5F, 0x300, 0x10EFD, 0x11F00, 0x13440, 0x1E4D0, 0x41, 0x661]
for i, cp in enumerate(IDS):
    FOUND.append(("unicode14-%05x" % cp, "{{ c.islower() }}{{ c.isupper() }}{{ c.isidentifier() }}{{ ('a' ~ c).isidentifier() }}{{ (c ~ 'a').isidentifier() }}{{ c.isalpha() }}{{ c.isprintable() }}{{ c.casefold() == c }}",
                  {"c": chr(cp)}, "str predicates of Unicode 14.0"))

# str.translate of an empty str looks nothing up: whatever the table is,
# it gives the empty str (found by the thirteenth generator's first run,
# where a call block's argument read an undefined name); the package
# checked the table first
TR = ["{{ ''.translate(1) }}", "{{ ''.translate(none) }}", "{{ ''.translate(nothere) }}", "{{ ''.translate(1.5) }}", "{{ ''.translate(true) }}",
      "{{ ''.translate({}) }}", "{{ (x|e).translate(1) }}", "{{ (x|e).translate(1).__class__.__name__ }}", "{{ ('a'|e).translate(1) }}", "{{ 'a'.translate(1) }}",
      "{{ ''.translate() }}", "{{ ''.translate(1, 2) }}", "{{ ''.translate(table=1) }}", "{{ ('' ~ x).translate(none) ~ '|' }}",
      "{% macro inner() %}{{ caller() }}{% endmacro %}{% macro outer(a) %}{% call inner() %}{{ caller(a) }}{% endcall %}{% endmacro %}{% call(x) outer((x|e).translate(1).__class__.__name__) %}{% endcall %}"]
for i, t in enumerate(TR):
    FOUND.append(("translate-empty-%02d" % i, t, {}, "exact: str.translate of an empty str"))

# a plain loop with one target over d.items() (or another view) whose body
# changes the dict's size raises at the next step, as a loop over d does;
# the package went on (found by the thirteenth generator's first run)
LOOPS = []
for it in ["d.items()", "d.keys()", "d.values()"]:
    for body in ["{% set _ = d.update({'q': 0}) %}", "{{ m() }}", "{% do d.update({'q': 0}) %}", "{{ d.pop('a', 0) }}", "{% set _ = d.update({'a': 9}) %}",
                 "{% if k == 'c' or k == ('c', 3) %}{% do d.update({'q': 0}) %}{% endif %}", "{% set _ = d.update({'q': 0}) %}{% break %}"]:
        for wrap in [("", ""), ("{% filter upper %}", "{% endfilter %}"), ("{% set v %}", "{% endset %}{{ v }}")]:
            LOOPS.append(wrap[0] + "{% set d = {'a': 1, 'b': 2, 'c': 3} %}{% macro m() %}{% set _ = d.update({'q': 0}) %}{% endmacro %}{% for k in " + it + " %}{{ k }}" + body + ";{% endfor %}{{ d }}" + wrap[1])
for i, t in enumerate(LOOPS):
    FOUND.append(("loop-view-changes-%02d" % i, t, {}, "exact: a plain loop over a dict view whose body changes the dict", {"extensions": ["do", "loopcontrols"]}))

# format() of Markup: str.__format__'s messages name the receiver's type,
# 'Markup' (the package wrote 'str')
for i, sp in enumerate(["d", "r", "x", ".1d", "=5x", "abc", "5.2.1", "#x", ",", "=5", "+", " ", "5", ".1", "z"]):
    FOUND.append(("format-markup-%02d" % i, "{{ '[{:%s}]'.format(v) }}|{{ v.__format__(%r) }}" % (sp, sp), {"v": {"__markup__": "<b>"}}, "exact: format() of Markup"))

# html.unescape (Markup.unescape, and striptags after it) as Python's:
# a numeric reference to a control or noncharacter is dropped, "&#x;"
# and "&#;" are no references, a number past U+10FFFF is U+FFFD, and
# "&nGt;" and "&nLt;" are HTML5's (Go's html package, which the package
# used, keeps the first kinds and lacks the two names)
ENTS = ["&#1114111;", "&#x;", "&#;", "&#11;", "&#x7F;", "&#xFFFE;", "&#xFFFF;", "&#x10FFFE;", "&#1;", "&#8;", "&#x1F;", "&#xFDD0;", "&#x1FFFF;", "&#0;", "&#13;", "&#128;",
        "&#x81;", "&#x9F;", "&#xD800;", "&#x110000;", "&#99999999999999999999;", "&#65", "&#x41", "&#X41;", "&#0065;", "&nGt;", "&nLt;", "&nGt", "&nGtx;", "&notit;", "&ampx",
        "&amp.x;", "&ampé;", "&" + "a" * 40 + ";", "&é;", "&;", "& amp;", "&&amp;", "&#x41;&#66;&lt;&unknown;", "a &#12; b &#x0c; c", "&#9;x&#10;y&#32;z"]
for i, e in enumerate(ENTS):
    FOUND.append(("unescape-%02d" % i, "{{ (s|safe).unescape()|list|map('string')|join(',') }}|{{ s|striptags|length }}|{{ (s|safe).striptags() }}", {"s": e}, "exact: html.unescape of numeric and named references"))

# a str.format field's attribute outside the sandbox is Python's getattr:
# a dunder method (<method-wrapper '__len__' of str object at …>), an
# Undefined's own dunders, Namespace's AttributeError(name), a class's
# "type object 'dict' has no attribute"; Markup's __repr__ is markupsafe's
# Python method. The package read only the attributes templates use and
# named every missing one as an instance's.
FA = []
for a in ["'s'", "[1]", "{'a': 1}", "(1,)", "namespace(b=1)", "nothere", "dict", "('x'|safe)", "1.5", "cycler(1)"]:
    for f in ["__len__", "__add__", "__class__.__name__", "__contains__", "__getitem__", "__call__", "__name__", "_x", "x", "real", "__repr__"]:
        if f == "__getitem__" and a in ("[1]", "{'a': 1}", "(1,)", "dict") or (a, f) in (("dict", "__call__"), ("cycler(1)", "__repr__")):
            continue  # slots the package refuses by name (unsupported.txt's kinds)
        FA.append("{{ '{0.%s}'.format(%s) }}" % (f, a))
FA += ["{{ ('x'|safe).__repr__ }}", "{{ ('x'|safe).__repr__() }}|{{ ('x'|safe).__repr__().__class__.__name__ }}|{{ ('<'|safe).__repr__() ~ '<' }}",
       "{{ ('x'|safe).__repr__(1) }}", "{{ ('x'|safe).__repr__(a=1) }}", "{{ ('{0.__repr__}'|safe).format('x'|safe) }}"]
for i, t in enumerate(FA):
    FOUND.append(("format-attr-%03d" % i, t, {}, "exact: getattr of a format field; Markup.__repr__"))
    if i % 3 == 0:
        FOUND.append(("format-attr-ae-%03d" % i, t, {}, "exact: getattr of a format field; Markup.__repr__", {"autoescape": True}))

# str.encode looks the codec up as Python's encodings package does: a name
# that names no codec (after normalize_encoding, ASCII lowered, a letter
# beyond ASCII dropped) is LookupError, a codec that is no text encoding
# (base64, rot13, zlib) is LookupError too, a NUL in either argument is
# ValueError, and UTF-8's aliases (utf, u8, cp65001, 'UTF 8') encode as
# UTF-8; the package refused each by name
ENC = ["", " ", "nope", ";", "a", "<b>", "utf.8", "u.t.f.8", "rot13", "ROT 13", "base64", "hex", "zlib", "quopri", "uu_codec", "mbcs", "dbcs", "ansi", "oem",
       "ascii\x00", "csHPRoman8", "UTF 8", "utf", "utfé8", "utf-é8", "utf8İ", "cp65001", "utf8_ucs4", "U8", "iso8859.1", "iso_8859.1", "ansi_x3.4_1968", "ansi.x3.4.1968",
       "8859", "LATIN 1", "latin-1!", "aliases", "encodings", "utf_8_sig.", "x" * 40]
for i, e in enumerate(ENC):
    FOUND.append(("encode-codec-%02d" % i, "{{ 'x'.encode(e) }}|{{ 'é'.encode(e, 'ignore') }}|{{ 'x'.encode(encoding=e, errors='nope') }}", {"e": e}, "exact: str.encode's codec lookup"))
FOUND.append(("encode-codec-errors-nul", "{{ 'x'.encode('utf-8', 'strict\x00') }}", {}, "exact: str.encode's codec lookup"))

# bytes.decode binds its arguments as str.encode does (a str each, no
# NUL) and looks the codec up the same way; UTF-8's aliases decode
DEC = ["", " ", "nope", ";", "utf-8", "UTF 8", "utf.8", "utf", "u8", "cp65001", "rot13", "base64", "hex", "mbcs", "ascii\x00", "utf8İ"]
for i, e in enumerate(DEC):
    FOUND.append(("decode-codec-%02d" % i, "{{ 'é'.encode().decode(e) }}|{{ 'x'.encode().decode(e, 'ignore') }}|{{ 'x'.encode().decode(encoding=e) }}", {"e": e}, "exact: bytes.decode's codec lookup"))
for i, t in enumerate(["{{ 'x'.encode().decode(1) }}", "{{ 'x'.encode().decode(none) }}", "{{ 'x'.encode().decode('utf-8', 1) }}", "{{ 'x'.encode().decode('utf-8', 'strict\x00') }}",
                       "{{ 'x'.encode().decode(errors=none) }}"]):
    FOUND.append(("decode-args-%02d" % i, t, {}, "exact: bytes.decode's codec lookup"))

if __name__ == "__main__":
    handmade.write("exact13", "issue 23's thirteenth round", "internal/jinja2/testdata/oracle/convert/exact13.py", FOUND)
