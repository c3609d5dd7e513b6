#!/usr/bin/env python3
"""Issue 23's seventeenth round (j2-exact17): what the fifteenth generator
(fuzz_python_gen15_test.go), its FuzzPython runs and this round's sweeps
(testdata/sweep17.py) found, each made small.

    python3 convert/exact17.py     # -> cases/exact17.json

A hand-made list (handmade.py).
"""
import handmade

# (name, template, context, note[, env[, loader]])
FOUND = []

# str.maketrans, str's static method (Markup inherits it): one dict
# argument whose keys are ints (kept as they are, True too) or strs of one
# character (made code points), or two strs of one length and a third
# whose characters map to None; the package had no maketrans
MAKETRANS = ["()", "({})", "({'a': 'b'})", "({97: none})", "({'a': 1, 97: 2})", "({true: 1, '\\x01': 2})", "({'ab': 1})", "({'': 1})", "({1.5: 1})",
             "({(1,): 1})", "({none: 1})", "({2**64: 'x', -1: [1]})", "({'😀': 'é'})", "(d)", "(d.items())", "(none)", "(1)", "(nothere)", "('ab')",
             "('ab', 'cd')", "('ab', 'c')", "('aa', 'bc')", "('', '')", "('ab', 'cd', '')", "('a', 'b', 'c')", "('a', 'b', 'aa')", "('😀', 'é', 'ß')",
             "(1, 2)", "('a', 2)", "(1, 'b')", "(nothere, 'b')", "('a', nothere)", "('a', 'b', 3)", "('a', 'b', none)", "('ab', 'c', 1)", "({'a': 1}, none)",
             "(1, 2, 3, 4)", "(x=1)", "('a', y='b')", "(*[])", "(*['ab', 'cd'])", "(**{})", "(m, m)", "({m: 1})", "('a', 'b', m)", "({'a': 1}.keys())"]
for i, call in enumerate(MAKETRANS):
    FOUND.append(("maketrans-%02d" % i, "{{ s.maketrans%s }}" % call, {"s": "abc", "d": {"b": 2, "c": None}, "m": {"__markup__": "<"}},
                  "exact: str.maketrans"))
    FOUND.append(("maketrans-%02d-markup" % i, "{{ m.maketrans%s }}" % call, {"s": "abc", "d": {"b": 2, "c": None}, "m": {"__markup__": "<"}},
                  "exact: str.maketrans bound to a Markup", {"autoescape": True}))
    FOUND.append(("maketrans-%02d-sb" % i, "{{ ''.maketrans%s }}" % call, {"s": "abc", "d": {"b": 2, "c": None}, "m": {"__markup__": "<"}},
                  "exact: str.maketrans in the sandbox", {"sandbox": True}))
for i, t in enumerate(["{{ 'abc'.translate('abc'.maketrans('ab', 'xy', 'c')) }}", "{{ 'aé😀'.translate(''.maketrans({'a': 'A', 'é': none, 128512: 'x'})) }}",
                       "{{ s.maketrans is defined }}|{{ s.maketrans('a', 'b')|length }}", "{{ s.maketrans('ab', 'cd')|dictsort }}",
                       "{{ s.maketrans|string|truncate(32, true, '') }}", "{{ (s|e).maketrans('<', '>')|tojson }}", "{{ s|attr('maketrans') is callable }}",
                       "{% for k, v in s.maketrans('ab', 'cd', 'e')|items %}{{ k }}={{ v }};{% endfor %}", "{{ s.maketrans({'a': 1}) == {97: 1} }}"]):
    FOUND.append(("maketrans-use-%02d" % i, t, {"s": "abc"}, "exact: str.maketrans's table"))
    FOUND.append(("maketrans-use-%02d-sb" % i, t, {"s": "abc"}, "exact: str.maketrans's table", {"sandbox": True}))

# object.__format__ of Jinja2's objects, ranges, functions, macros, loops,
# bytes and dict views: str(v) for an empty spec, a TypeError naming the
# type for another; the package refused the attribute by name
FORMATTED = ["cycler(1, 2)", "joiner(',')", "range(3)", "range(2**70)", "lipsum", "m", "loop", "self", "caller", "'x'.encode()", "{'a': 1}.keys()",
             "{'a': 1}.items()", "{'a': 1}.values()", "namespace(a=1)", "(1, 2)|batch(1)", "[1]|groupby(0)|first", "'a'.upper", "m.name", "x", "[1]|map('x')"]
for i, v in enumerate(FORMATTED):
    for j, call in enumerate(["('')", "('x')", "('>5')", "(1)", "()", "(spec='')", "('', '')", "", "|string|length > 0"]):
        t = "{% macro m() %}{% endmacro %}{% for x in [1] %}{% if call != '' %}{{ " + ("(" + v + ").__format__" if call.startswith("(") or call == "" else "(" + v + ").__format__") + \
            (call if call.startswith("(") else "|string|truncate(40, true, '') if false" if call == "" else call) + " }}{% endif %}{% endfor %}"
        FOUND.append(("format-dunder-%02d-%d" % (i, j), t, {"call": "c"}, "object.__format__"))
    FOUND.append(("format-dunder-%02d-sb" % i, "{% macro m() %}{% endmacro %}{{ (" + v + ").__format__('') }}", {}, "object.__format__ in the sandbox", {"sandbox": True}))

# Markup.__format__ is str's, bound to the Markup: its errors name the
# type Markup, its result is a plain str; the package named str
for i, spec in enumerate(["", ">5", "%", "d", "x", "%Y", "{}", "^+08.3%Y", ".2", "=10", "z", ",", "s", "#s", "é^7"]):
    FOUND.append(("markup-format-dunder-%02d" % i, "{{ m.__format__(%r) }}|{{ ('<b>'|safe).__format__(%r) }}" % (spec, spec), {"m": {"__markup__": "<i>"}}, "exact: Markup.__format__"))
    FOUND.append(("markup-format-dunder-%02d-ae" % i, "{{ m.__format__(%r) }}" % spec, {"m": {"__markup__": "<i>"}}, "exact: Markup.__format__", {"autoescape": True}))

# ... and str.format gives that Markup as its result when the field is
# the last thing of the format string and nothing printed before it
# (do_markup stops overallocating for the last field, and the empty
# writer takes the object): '{:s}'.format(m) is not escaped again
for i, f in enumerate(["{:s}", "{}", "{0}", "{:<}", "{:>3}", "{:>4}", "{:.3}", "{:.2}", "{!s}", "{!s:s}", "{!r:s}", "a{:s}", "{:s}b", "{0:s}{1:s}", "{1}{0:s}", "{1:s}{0}",
                      "{{}}{:s}", "{:s}{{}}", "{0:{1}}", "{:^}", "{:0}", "{:s}{}", "{}{:s}", "{0[0]:s}", "{0.x:s}"]):
    t = "{{ %r.format(m, e) }}" % f if "0.x" not in f else "{{ %r.format(n) }}" % f
    if "0[0]" in f:
        t = "{{ %r.format([m]) }}" % f
    ctx = {"m": {"__markup__": "<i>"}, "e": "", "n": {"x": {"__markup__": "<i>"}}}
    FOUND.append(("markup-format-whole-%02d" % i, t, ctx, "exact: str.format of one Markup field", {"autoescape": True}))
    FOUND.append(("markup-format-whole-%02d-plain" % i, t + "{{ (%r.format(m, e)) is escaped }}" % f.replace("0.x", "0").replace("0[0]", "0"), ctx, "exact: str.format of one Markup field"))
    FOUND.append(("markup-format-whole-%02d-sb" % i, t, ctx, "exact: str.format of one Markup field (the sandbox's Formatter)", {"autoescape": True, "sandbox": True}))
for i, f in enumerate(["{a:s}", "{a}", "{a:>3}", "x{a:s}", "{a:s}{b}", "{b}{a:s}"]):
    FOUND.append(("markup-format-map-%02d" % i, "{{ %r.format_map(d) }}|{{ %r.format(**d) }}" % (f, f), {"d": {"a": {"__markup__": "<i>"}, "b": ""}}, "exact: str.format_map of one Markup field", {"autoescape": True}))

# Markup % of %d, %i and %u calls int() of the Markup argument, whose
# ValueError writes its repr, Markup('<b>'); the package wrote a str's
for i, f in enumerate(["<%d>", "%05i", "%-3u", "%+d", "%(a)d", "%.2d", "%f", "%e", "%s|%d"]):
    for j, a in enumerate(["m", "'<b>'", "'12'", "m ~ ''", "'1_0'|safe", "' 7 '|safe", "'x' * 3|safe"]):
        arg = "{'a': %s}" % a if "(a)" in f else ("(1, %s)" % a if f.count("%") == 2 else "(%s,)" % a)
        FOUND.append(("markup-mod-int-%d-%d" % (i, j), "{{ (%r|safe) %% %s }}" % (f, arg), {"m": {"__markup__": "<b>"}}, "exact: Markup %% calls int()", {"autoescape": True}))

# textwrap splits at hyphens only when break_on_hyphens is True itself
# (TextWrapper._split: "is True"), and cuts a long word after a hyphen when
# it is true: wordwrap(4, break_on_hyphens=1) cuts but does not split; the
# package split on any true value
for i, h in enumerate(["true", "false", "1", "0", "'x'", "none", "1.0", "''", "[1]", "h", "nothere"]):
    for j, (text, args) in enumerate([("a-b-c-d-e well-known long-hyphenated-word", "4, break_on_hyphens=%s"), ("ab-cd-ef", "3, true, '/', %s"),
                                      ("1.5e|a-b-c-d-e well-known", "width=3, break_on_hyphens=%s"), ("x--y---z well--known", "5, false, '|', %s")]):
        FOUND.append(("wordwrap-hyphens-%02d-%d" % (i, j), "{{ %r|wordwrap(%s)|replace('\\n', '/') }}" % (text, args % h), {"h": 1}, "wordwrap's break_on_hyphens is True"))

# pprint's _safe_key orders keys that do not compare by str(type(key)),
# "<class 'markupsafe.Markup'>" with its module: False comes before a
# Markup, None before a float; the package compared the bare type names
# (found by run 2). Two such keys of one type are ordered by id(), which
# the cases leave out.
for i, d in enumerate(["{false: 1, m: 2}", "{m: 2, false: 1}", "{m: 2, none: 1, 1.5: 3, (1,): 4}", "{m: 2, none: 1, 1.5: 3, (1,): 4, 'b': 5, true: 6, 'a': 0}",
                       "{(none in {}): 1, m: 2}", "{m: 1, 'z': 2, (1, 2): 4, 0: 5}", "{joiner(): 1, none: 2, m: 3}", "{f: 1, 'a': 2, 3: 4}"]):
    t = "{% macro f() %}{% endmacro %}{{ " + d + "|pprint }}"
    FOUND.append(("pprint-mixed-keys-%d" % i, t, {"m": {"__markup__": "<a>"}}, "pprint's keys of types that do not compare"))
    FOUND.append(("pprint-mixed-keys-%d-ae" % i, t, {"m": {"__markup__": "<a>"}}, "pprint's keys of types that do not compare", {"autoescape": True}))

# Jinja2's optimizer drops the right operand of a constant and/or, and
# what follows a false comparison of constants, before code generation:
# an unknown filter or test there is no error in a for loop's filter
# either (found by run 2); the package raised TemplateAssertionError
for i, t in enumerate(["(1 or 2|nope)", "(0 and 2|nope)", "('a'|upper or 2|nope)", "({'a': 1}|xmlattr or (-1e-7)|format.split(','))", "(1 < 0 < 2|nope)",
                       "(1 < 2 < 2|nope)", "(0 or 1 or 2|nope)", "(x or 2|nope)", "((1 or 2|nope) and 3|nope2)", "([] and 2 is nope)", "((1, 2|nope) and 3)",
                       "('a'|nope or 2|nope2)", "(0 or 2 is nope)", "(none and x is nope)"]):
    FOUND.append(("for-filter-dead-%02d" % i, "{% for x in [1, 0] if " + t + " %}{{ x }}{% else %}E{% endfor %}", {}, "exact: a for filter's dropped operand"))


if __name__ == "__main__":
    handmade.write("exact17", "issue 23's seventeenth round", "internal/jinja2/testdata/oracle/convert/exact17.py", FOUND)
