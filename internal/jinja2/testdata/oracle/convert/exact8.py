#!/usr/bin/env python3
"""Issue 23's eighth round: the known fuzz difference, the refusals left in
unsupported.txt and what the widened FuzzPython found, each made small.

    python3 convert/exact8.py     # -> cases/exact8.json

A hand-made list (handmade.py).
"""
import handmade

SB = {"sandbox": True}
L = {"p": "P{{ 1 }}"}
W = "{% include 'p' without context %}"

# (name, template, context, note[, env[, loader]])
FOUND = [
    # a volatile eval context (an autoescape tag whose value is known only at
    # render time): a filter's or test's as_const raises Impossible there and
    # the optimizer does not run, so a print's filter runs its operand as
    # generated: 1[1:5] is a native slice (TypeError), not the folded Undefined
    ("volatile-filter-slice", "{% autoescape x %}{{ 1[1:5]|length }}{% endautoescape %}", {"x": 0}, "exact: 'int' object is not subscriptable (the package folded 1[1:5] and printed 0)"),
    ("volatile-test-slice", "{% autoescape x %}{{ 1[1:5] is undefined }}{% endautoescape %}", {"x": 1}, "exact: a test's as_const too (the package printed True)"),
    ("volatile-filter-default", "{% autoescape x %}{{ none[1:5]|d|length }}{% endautoescape %}", {"x": 1}, "exact: 'NoneType' object is not subscriptable"),
    ("volatile-filter-nested", "{% autoescape x %}{{ 'a' if 1 else [1[1:5]|length] }}{% endautoescape %}", {"x": 1}, "a filter inside a folded expression: the condition folds, the branch is not reached"),
    ("volatile-filter-in-list", "{% autoescape x %}{{ [1[1:5]|length] }}{% endautoescape %}", {"x": 1}, "exact: a list holding a filter does not fold"),
    ("volatile-list-folds", "{% autoescape x %}{{ [1[1:5]] }}|{{ (1[1:5], 2) }}|{{ 1[1:5] ~ 'a' }}|{{ 1[1:5] }}{% endautoescape %}", {"x": 1}, "no filter: the output's child still folds ([Undefined])"),
    ("volatile-set-block", "{% autoescape x %}{% set y %}{{ 1[1:5]|length }}{% endset %}{% endautoescape %}{{ y }}", {"x": 1}, "exact: in a set block"),
    ("volatile-not-volatile", "{% autoescape true %}{{ 1[1:5]|length }}{% endautoescape %}|{{ 1[1:5]|length }}", {}, "a constant autoescape folds the filter: 0|0"),
    ("volatile-autoescape-order", "{% autoescape x is defined %}{{ 1[1:5:-9223372036854775808]|length }}{% endautoescape %}{{ -0.0.__str__ }}", {"x": 1}, "exact: the earlier print's TypeError (the package raised the later one's SecurityError; found by FuzzPython)", SB),
    # a keyword named twice: Python's compiler refuses the code Jinja2 generates
    # ("keyword argument repeated"), unless Jinja2 folds the expression, whose
    # as_const gathers the keywords in a dict (the last value wins)
    ("kwarg-repeated-filter", "{{ x|default(default_value=1, default_value=2) }}", {"x": 1}, "exact: keyword argument repeated: default_value (the package bound it: TypeError got multiple values)"),
    ("kwarg-repeated-folded", "{{ 'a'|default(default_value=1, default_value=2) }}|{{ 'a b'|trim(chars=1, chars='x') }}|{{ ['a']|join(d=1, d=2) }}|{{ 'a' is sameas(other=1, other=2) }}", {}, "folded: the last value wins (the package raised TypeError)"),
    ("kwarg-repeated-folded-operand", "{{ ('a'|trim(chars='a', chars='b')) ~ x }}|{{ [('a'|trim(chars='a', chars='b')), x] }}", {"x": 1}, "folded inside an expression that is not"),
    ("kwarg-repeated-folded-set", "{% set y = [1]|default(default_value=1, default_value=2) %}{{ y }}{% for i in [1]|default(default_value=1, default_value=2) %}{{ i }}{% endfor %}", {}, "the optimizer folds a value with a safe repr"),
    ("kwarg-repeated-branch-taken", "{{ 1 if 0 else ('a'|trim(chars='a', chars=x)) }}", {"x": 1}, "exact: keyword argument repeated: chars"),
    ("kwarg-repeated-branch-not-taken", "{{ 1 if 1 else ('a'|trim(chars='a', chars=x)) }}", {"x": 1}, "the branch not taken is folded away"),
    ("kwarg-repeated-never-run", "{% if false %}{{ x|trim(chars='a', chars=x) }}{% endif %}", {"x": 1}, "exact: at compile time, in a branch never taken"),
    ("kwarg-repeated-call", "{{ dict(a=1, a=2) }}", {}, "exact: a call never folds (the package printed {'a': 2})"),
    ("kwarg-repeated-call-dynamic", "{{ x(a=1, a=2, **{}) }}", {"x": 1}, "exact: before the call fails"),
    ("kwarg-repeated-volatile", "{% autoescape x %}{{ 'a'|default(default_value=1, default_value=2) }}{% endautoescape %}", {"x": 1}, "exact: a volatile eval context folds no filter"),
    ("kwarg-repeated-fold-raises", "{{ 'a'|replace('a', 'b', old=1, old=2) }}", {}, "exact: the folding raises, so the code is generated"),
    ("kwarg-repeated-syntax-first", "{{ x|default(default_value=1, default_value=2) }}{{ 1 + }}", {}, "exact: the parser's error comes first"),
    ("kwarg-repeated-assertion-first", "{{ x|default(default_value=1, default_value=2) }}{{ 1|nofilter }}", {}, "exact: Jinja2's code generator's error comes first"),
    ("kwarg-repeated-dup-param-first", "{{ x|default(default_value=1, default_value=2) }}{% macro m(a, a) %}{% endmacro %}", {}, "exact: the symbol table's duplicate argument comes first"),
    ("kwarg-repeated-block", "{% block b %}{{ x|d(default_value=1, default_value=2) }}{% endblock %}", {}, "exact: in a block"),
    ("kwarg-repeated-earlier-raises", "{{ 1|float(default=([1]|reverse(**{'x': 1}))|length, default=none) }}", {}, "exact: as_const evaluates every value: the first one's TypeError fails the folding (the package folded the last; found by FuzzPython)"),
    ("kwarg-repeated-earlier-undefined", "{{ 'a'|default(default_value=nothere.x, default_value=1) }}", {}, "exact: an earlier value that raises"),
    ("kwarg-repeated-earlier-folds", "{% for x in (1|float(default=1, default=none))|list %}{% endfor %}", {}, "exact: both values fold: the filter folds, the loop's list does not ('float' object is not iterable)"),
    ("kwarg-repeated-macro-default", "{% macro m(a=x|d(default_value=1, default_value=2)) %}{% endmacro %}", {}, "exact: a macro's default"),
    # filters called with the wrong arguments (FuzzPython's ninth generator)
    ("abs-arity", "{{ x|abs(1) }}", {"x": -1}, "exact: abs() takes exactly one argument (2 given) (the package printed 1)"),
    ("abs-keyword", "{{ x|abs(1, a=1) }}", {"x": -1}, "exact: abs() takes no keyword arguments"),
    ("abs-arity-negated", "{{ -3|abs('') }}", {}, "exact: -(3|abs('')): the filter binds tighter"),
    ("format-value-keyword", "{{ 'a'|format(value=1) }}", {}, "exact: do_format() got multiple values for argument 'value' (the package printed a)"),
    ("map-value-keyword", "{{ [1]|map(value=1) }}", {}, "exact: sync_do_map() got multiple values for argument 'value' (the package printed the generator)"),
    ("map-context-keyword", "{{ [1]|map('string', context=1)|list }}", {}, "exact: context too"),
    ("select-value-keyword", "{{ [1]|select(value=1)|list }}", {}, "exact: sync_do_select()"),
    ("reject-context-keyword", "{{ [1]|reject(context=1) }}", {}, "exact: sync_do_reject()"),
    ("selectattr-value-keyword", "{{ [1]|selectattr('a', value=1) }}", {}, "exact: sync_do_selectattr()"),
    ("rejectattr-value-keyword", "{{ x|rejectattr(value='') }}", {"x": [1]}, "exact: sync_do_rejectattr()"),
    ("batch-huge-linecount", "{{ 'abc'|batch(linecount=18446744073709551617)|list }}|{{ 'abc'|batch(-18446744073709551617)|list }}|{{ 'abc'|batch(-18446744073709551617, 'x')|list }}", {}, "an int beyond 64 bits never equals a length (the package: OverflowError)"),
    ("batch-huge-linecount-fill", "{{ 'abc'|batch(18446744073709551617, 'x')|list }}", {}, "exact: [fill_with] * (linecount - len(tmp))"),
    ("partition-markup-sep", "{{ ' a,b, c '.partition('a'|safe) }}|{{ 'abc'.rpartition('b'|safe) }}|{{ 'abc'.partition('z'|safe) }}|{{ ('a<b'|safe).partition('<') }}", {}, "str.partition returns its separator object: Markup('a') (the package: 'a')"),
    # transformers' tojson (the hf profile): json.dumps's order of checks
    ("hf-tojson-str-indent", "{{ 'a'|tojson('x y', indent=1.5) }}", {}, "a str is encoded before the indent is read", {"profile": "hf"}),
    ("hf-tojson-float-indent", "{{ [1]|tojson(false, 1.5) }}", {}, "exact: ' ' * indent", {"profile": "hf"}),
    ("hf-tojson-separators-bool", "{{ 'a'|tojson(false, none, true) }}", {}, "exact: cannot unpack non-iterable bool object", {"profile": "hf"}),
    ("hf-tojson-separators-three", "{{ [1, 2]|tojson(false, none, 'abc') }}", {}, "exact: too many values to unpack (expected 2)", {"profile": "hf"}),
    ("hf-tojson-separators-int", "{{ 1|tojson(false, none, (1, 2)) }}", {}, "exact: make_encoder() argument 5 must be str, not int", {"profile": "hf"}),
    ("hf-tojson-separators-str", "{{ [1, 2]|tojson(false, none, 'ab') }}|{{ [1]|tojson(false, 'ab') }}", {}, "two characters unpack", {"profile": "hf"}),
    # Jinja2 3.1.6 writes an include without context as "yield from …" whatever
    # the frame's buffer: a macro's or a caller's function becomes a generator,
    # its body never run (found by FuzzPython's ninth generator)
    ("include-macro-generator", "{% macro m() %}a" + W + "{% endmacro %}{{ m() }}", {}, "<generator object root.<locals>.macro at 0xADDR> (the package printed aP1)", {}, L),
    ("include-macro-generator-tests", "{% macro m() %}a" + W + "{% endmacro %}{{ m() is iterable }}{{ m() is string }}{{ m().__class__ }}", {}, "a generator object", {}, L),
    ("include-macro-generator-nested", "{% macro m() %}{% macro n() %}a" + W + "{% endmacro %}{{ n() }}{% endmacro %}{{ m() }}", {}, "root.<locals>.macro.<locals>.macro", {}, L),
    ("include-macro-generator-caller", "{% macro m() %}{{ caller() }}{% endmacro %}{% call m() %}a" + W + "{% endcall %}", {}, "a call block's caller too", {}, L),
    ("include-macro-generator-block", "{% block b %}{% macro m() %}a" + W + "{% endmacro %}{{ m() }}{% endblock %}", {}, "block_b.<locals>.macro", {}, L),
    ("include-macro-generator-loop", "{% for i in [1] recursive %}{% macro m() %}a" + W + "{% endmacro %}{{ m() }}{% endfor %}", {}, "root.<locals>.loop.<locals>.macro", {}, L),
    ("include-macro-generator-nested-statements", "{% macro m() %}{% for i in [1] %}{% if false %}{% set x %}" + W + "{% endset %}{% endif %}{% endfor %}{% endmacro %}[{{ m() }}]", {}, "an include anywhere in the function, reached or not", {}, L),
    ("include-macro-generator-body-not-run", "{% macro m(a, b=1/0) %}{{ a.b.c }}" + W + "{% endmacro %}{{ m(none) }}|{{ m() }}", {}, "neither the defaults nor the body run", {}, L),
    ("include-macro-generator-arity", "{% macro m(a) %}" + W + "{% endmacro %}{{ m(1, 2) }}", {}, "exact: Macro.__call__ binds the arguments first", {}, L),
    ("include-macro-generator-missing", "{% macro m() %}{% include ['nope'] without context %}{% endmacro %}[{{ m() }}]", {}, "the missing template is never loaded", {}, L),
    ("include-macro-generator-value", "{% macro m() %}" + W + "{% endmacro %}{% set x = m() %}{{ x }}{{ x ~ 'a' }}", {}, "str of the generator", {}, L),
    ("include-macro-generator-autoescape", "{% autoescape true %}{% macro m() %}" + W + "{% endmacro %}{{ m() }}{{ m()|length > 10 }}{% endautoescape %}|{% macro n() %}" + W + "{% endmacro %}{% autoescape true %}{{ n() }}{% endautoescape %}", {}, "Markup of its str", {}, L),
    ("include-macro-with-context", "{% macro m() %}a{% include 'p' %}{% include 'p' ignore missing with context %}{% endmacro %}[{{ m() }}]", {}, "with context: a loop over the events, into the buffer", {}, L),
    # ... and in a set or filter block of the top level or a block, the
    # included output goes past the buffers: written before the outermost
    # block's own output, and not into its value
    ("include-set-block", "{% set x %}a" + W + "b{% endset %}[{{ x }}]", {}, "P1[ab] (the package: [aP1b])", {}, L),
    ("include-filter-block", "{% filter upper %}a" + W + "b{% endfilter %}|{% set x | upper %}a" + W + "b{% endset %}[{{ x }}]", {}, "P1AB|P1[AB]: not filtered", {}, L),
    ("include-nested-buffers", "x{% filter upper %}a{% set y %}c" + W + "d{% endset %}" + W + "b{{ y }}{% endfilter %}e", {}, "xP1P1ABCDe: before the outermost block", {}, L),
    ("include-set-block-loop", "{% set x %}{% for i in [1, 2] %}{% if true %}" + W + "{% endif %}{% endfor %}{% endset %}[{{ x }}]|{% with %}{% set x %}" + W + "{% endset %}{% endwith %}", {}, "in loops, ifs and withs of the same function", {}, L),
    ("include-set-block-in-block", "{% block b %}{% set x %}a" + W + "{% endset %}[{{ x }}]{% endblock %}|{% set y %}{% block c %}a" + W + "{% endblock %}{% endset %}[{{ y }}]", {}, "a block's function too; a block in a set block yields into the buffer", {}, L),
    ("include-set-block-extends", "{% extends 'base' %}{% block b %}{% set x %}a" + W + "{% endset %}[{{ x }}]{% endblock %}", {}, "BP1[a]", {}, dict(L, base="B{% block b %}{% endblock %}")),
    ("include-set-block-included", "{% set x %}{% include 'q' %}{% endset %}[{{ x }}]|{% set x %}{% include 'q' without context %}{% endset %}[{{ x }}]", {}, "the included template's own top level is another function", {}, dict(L, q="Q" + W + "{% set z %}z" + W + "{% endset %}[{{ z }}]")),
    ("include-set-block-error", "{% set x %}a" + W + "{{ 1/0 }}{% endset %}", {}, "exact: division by zero", {}, L),
    ("include-set-block-missing", "{% set x %}{% include 'nope' ignore missing without context %}{% endset %}[{{ x }}]", {}, "ignored", {}, L),
    ("include-set-block-autoescape", "{% autoescape true %}{% set x %}<" + W + "{% endset %}{{ x }}{% endautoescape %}", {}, "P1<", {}, L),
    ("include-recursive-loop", "{% for i in [1] recursive %}" + W + "{% endfor %}", {}, "the loop's function is a generator: sequence item 0: expected str instance, generator found", {}, L),
    ("include-recursive-loop-later-error", "a{% for i in [1] recursive %}" + W + "{% endfor %}{{ 1/0 }}", {}, "exact: the join fails after the rest has rendered", {}, L),
    ("include-recursive-loop-iter-error", "{% for i in nothere.x recursive %}" + W + "{% endfor %}", {}, "exact: the iterable is read at the call", {}, L),
    # bytes (str.encode()'s): the methods taking no argument, ASCII only, and
    # % without a conversion specifier (refused before)
    ("bytes-case", "{% set b = 'h\u00e9llo wORLD-x1y \u00c9'.encode() %}{{ [b.upper(), b.lower(), b.swapcase(), b.capitalize(), b.title()] }}", {}, "ASCII letters only: \u00e9's bytes stay (refused before)"),
    ("bytes-classify", "{% for s in ['ab', 'aB1 x', '', 'Hello World', 'hELLO wORLD', '\u00e9 a', '\t\n\x0b\x0c\r ', '123', 'a1', 'ABC', 'Ab Cd', 'aB', '\x1c', '\u01c5', 'A_b'] %}{% set b = s.encode() %}{{ [b.isalpha(), b.isdigit(), b.isalnum(), b.isspace(), b.isascii(), b.islower(), b.isupper(), b.istitle(), b.hex(), b.title(), b.capitalize()] }}{% endfor %}", {}, "\x1c is no space, \xc3 no letter (str's differ)"),
    ("bytes-method-arity", "{{ 'ab'.encode().upper(1) }}", {}, "exact: bytes.upper() takes no arguments (1 given)"),
    ("bytes-method-keyword", "{{ 'ab'.encode().isalpha(x=1) }}", {}, "exact: bytes.isalpha() takes no keyword arguments"),
    ("bytes-method-repr", "{{ 'ab'.encode().upper|string|truncate(33, true, '') }}", {}, "a builtin method"),
    ("bytes-mod-plain", "{{ 'ab'.encode() % x }}|{{ 'ab'.encode() % () }}|{{ 'ab'.encode() % {} }}|{{ 'ab'.encode() % [1] }}|{{ 'ab'.encode() % range(2) }}|{{ 'ab'.encode() % ([[1, 2]]|groupby(0)|first).list }}", {}, "no conversion: a mapping or an empty tuple leaves nothing over"),
    ("bytes-mod-left-over", "{{ 'ab'.encode() % 1 }}", {}, "exact: not all arguments converted during bytes formatting"),
    ("bytes-mod-left-over-str", "{{ 'ab'.encode() % 'x' }}", {}, "exact: a str is no mapping to bytes %"),
    ("bytes-mod-left-over-bytes", "{{ 'ab'.encode() % 'x'.encode() }}", {}, "exact: nor are bytes (str % bytes is a mapping)"),
    ("bytes-mod-left-over-tuple", "{{ 'ab'.encode() % (1,) }}", {}, "exact: a tuple's item"),
    ("bytes-mod-left-over-view", "{{ 'ab'.encode() % {}.keys() }}", {}, "exact: a dict view has no __getitem__"),
    # str.encode with the ascii and latin-1 codecs (refused before; FuzzPython's
    # runs refused it most after __doc__)
    ("encode-byte-codecs", "{{ ['aé€b'.encode('latin-1', 'replace'), 'aé€b'.encode('ascii', 'ignore'), 'aé€b'.encode('ascii', 'replace'), 'abc'.encode('ascii'), 'aé'.encode('Latin_1'), 'aé'.encode('l1'), 'a'.encode(' US-ascii '), 'é'.encode('iso8859-1'), 'a'.encode('646')] }}", {}, "bytes of one byte per character"),
    ("encode-byte-codecs-bytes", "{{ 'aé'.encode('latin-1')|list }}|{{ 'aé'.encode('latin-1')|length }}|{{ 'aé'.encode('latin-1') == 'aé'.encode('latin1') }}|{{ 'a\\ud83d'.encode('ascii', 'replace') }}", {}, "a latin-1 byte is one item; a surrogate is one character"),
    ("encode-ascii-strict", "{{ 'aé€b'.encode('ascii') }}", {}, "exact: 'ascii' codec can't encode characters in position 1-2: ordinal not in range(128)"),
    ("encode-latin1-strict", "{{ 'aé€b'.encode('latin-1') }}", {}, "exact: 'latin-1' codec can't encode character '\\u20ac' in position 2: ordinal not in range(256)"),
    ("encode-latin1-strict-astral", "{{ 'x\\U0001F600'.encode('latin_1', errors='strict') }}", {}, "exact: an astral character's escape"),
    ("encode-ascii-surrogate", "{{ '\\ud83d'.encode('ascii') }}", {}, "exact: the surrogate named by its escape, in position 0"),
    ("encode-unknown-handler", "{{ 'aé'.encode('ascii', 'nope') }}", {}, "exact: unknown error handler name 'nope'"),
    ("encode-unknown-handler-unused", "{{ 'a'.encode('ascii', 'nope') }}", {}, "the handler is looked up only on an error"),
    ("encode-encoding-type", "{{ 'a'.encode(1) }}", {}, "exact: encode() argument 'encoding' must be str, not int"),
    ("encode-errors-type", "{{ 'a'.encode('ascii', none) }}", {}, "exact: encode() argument 'errors' must be str, not None"),
    # a call block yields its call's value as it is (found by FuzzPython's third run)
    ("callblock-generator", "{% macro m() %}{{ caller() }}" + W + "{% endmacro %}a{% call m() %}c{% endcall %}{{ 1 }}", {}, "the yielding macro's generator object fails the output's join: sequence item 1: expected str instance, generator found (the package printed its repr)", {}, L),
    ("callblock-generator-autoescape", "{% autoescape true %}{% macro m() %}{{ caller() }}" + W + "{% endmacro %}{% call m() %}c{% endcall %}{% endautoescape %}", {}, "Markup of its str is a str", {}, L),
    ("callblock-generator-arity", "{% macro m() %}{{ caller() }}" + W + "{% endmacro %}{% call m(1) %}c{% endcall %}", {}, "exact: macro 'm' takes not more than 0 argument(s)", {}, L),
    ("callblock-dict", "{% call dict() %}x{% endcall %}", {}, "a dict is no str either (the package printed {'caller': <Macro anonymous>})"),
    ("callblock-dict-later-error", "a{% call namespace() %}x{% endcall %}{{ 1/0 }}", {}, "exact: the join fails after the rest has rendered"),
    ("callblock-cycler", "{% call cycler(1) %}x{% endcall %}", {}, "exact: Cycler.__init__() got an unexpected keyword argument 'caller' (the package printed the cycler)"),
    ("cycler-keyword", "{{ cycler(1, x=2) }}", {}, "exact: Cycler.__init__() takes *items only"),
    # the sandbox's getattr and getitem wrap str.format and format_map in a
    # function of their name (found by chat-slow8's random check)
    ("sandbox-format-repr", "{{ s.format }}|{{ s['format_map'] }}|{{ m.format }}|{{ m['format_map'] }}|{{ s.upper }}", {"s": "ab", "m": {"__markup__": "x"}}, "the package printed <built-in method format of str object …>", SB),
    ("sandbox-format-repr-call", "{{ s.format(1) }}|{{ (s.format ~ '')[:13] }}", {"s": "a{}"}, "the wrapper still formats", SB),
    ("format-repr-unsandboxed", "{{ s.format }}", {"s": "ab"}, "outside the sandbox: the bound builtin"),
]


def main():
    handmade.write("exact8", "issue 23, eighth round", "internal/jinja2/testdata/oracle/convert/exact8.py", FOUND)


if __name__ == "__main__":
    main()
