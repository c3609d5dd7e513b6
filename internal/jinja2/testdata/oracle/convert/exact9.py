#!/usr/bin/env python3
"""Issue 23's ninth round: the message-only differences the eighth left,
and what probing beside them found, each made small.

    python3 convert/exact9.py     # -> cases/exact9.json

A hand-made list (handmade.py).
"""
import handmade

SB = {"sandbox": True}
HF = {"profile": "hf"}
NOOP = {"__func__": "noop"}

# (name, template, context, note[, env[, loader]])
FOUND = [
    # *args of a value that is no iterable: Python's LIST_EXTEND names it
    ("star-call", "{{ dict(*1) }}", {}, "exact: Value after * must be an iterable, not int (the package: 'int' object is not iterable)"),
    ("star-call-none", "{{ x(*none) }}", {"x": NOOP}, "exact: not NoneType"),
    ("star-filter", "{{ x|default(*1) }}", {"x": "a"}, "exact: a filter's call too"),
    ("star-test", "{{ 1 is odd(*1.5) }}", {}, "exact: and a test's"),
    ("star-method", "{{ 'a'.split(*1) }}", {}, "exact: and a method's"),
    ("star-before-dstar", "{{ range(*1, **2) }}", {}, "exact: * is read before **"),
    ("star-iterables", "{{ range(*'2') is defined }}|{{ dict(*[[('a', 1)]]) }}|{{ [1, 2]|join(*{'-': 1}) }}|{{ 'ab'|replace(*nothere) }}", {}, "a str, list, dict and Undefined are iterables"),
    # **kwargs of a value that is no mapping: the function's name, as
    # _PyObject_FunctionStr writes it, first
    ("dstar-call", "{{ range(**1) }}", {}, "exact: jinja2.runtime.Context.call() argument after ** must be a mapping, not int (the package left the name out)"),
    ("dstar-method", "{{ 'a'.upper(**none) }}", {}, "exact: a method is called through context.call too"),
    ("dstar-macro", "{% macro m() %}{% endmacro %}{{ m(**[1]) }}", {}, "exact: and a macro"),
    ("dstar-filter", "{{ x|center(**1) }}", {"x": "a"}, "exact: a filter's function: jinja2.filters.do_center()"),
    ("dstar-filter-map", "{{ x|map(**1) }}", {"x": [1]}, "exact: jinja2.filters.do_map()"),
    ("dstar-filter-builtin", "{{ x|abs(**1) }}", {"x": -1}, "exact: abs(), a builtin"),
    ("dstar-filter-length", "{{ x|length(**1) }}", {"x": [1]}, "exact: len()"),
    ("dstar-filter-escape", "{{ x|e(**1) }}", {"x": 1}, "exact: markupsafe.escape()"),
    ("dstar-filter-string", "{{ x|string(**1) }}", {"x": 1}, "exact: markupsafe.soft_str()"),
    ("dstar-filter-block", "{% filter center(**1) %}a{% endfilter %}", {}, "exact: a filter block's filter"),
    ("dstar-test", "{{ x is defined(**1) }}", {"x": 1}, "exact: jinja2.tests.test_defined()"),
    ("dstar-test-operator", "{{ x is eq(**1) }}", {"x": 1}, "exact: _operator.eq()"),
    ("dstar-test-callable", "{{ x is callable(**1) }}", {"x": 1}, "exact: callable()"),
    # a keyword given by name and by ** (DICT_MERGE), unless folded
    ("dstar-repeated-call", "{{ dict(a=1, **{'a': 2}) }}", {}, "exact: jinja2.runtime.Context.call() got multiple values for keyword argument 'a' (the package printed {'a': 2})"),
    ("dstar-repeated-macro", "{% macro m(a) %}{{ a }}{% endmacro %}{{ m(a=1, **{'a': 2}) }}", {}, "exact: before the macro binds (the package: takes no keyword argument 'a')"),
    ("dstar-repeated-filter", "{{ x|center(width=1, **{'width': 2}) }}", {"x": "a"}, "exact: jinja2.filters.do_center() got multiple values for keyword argument 'width'"),
    ("dstar-repeated-folded", "{{ 'a'|center(width=1, **{'width': 3}) }}|{{ 1 is divisibleby(num=2, **{'num': 1}) }}", {}, "as_const updates the keywords with the mapping: ' a |True' (the package raised)"),
    ("dstar-repeated-folded-other", "{{ 'a'|center(width=1, **{'w': 3}) }}", {}, "exact: an unexpected keyword still raises"),
    # |random is random.choice: len(seq), then seq[i]
    ("random-int", "{{ 1|random }}", {}, "exact: object of type 'int' has no len() (the package: 'int' object is not iterable)"),
    ("random-none", "{{ none|random }}", {}, "exact: NoneType"),
    ("random-generator", "{{ [1]|map('abs')|random }}", {}, "exact: a generator has no len()"),
    ("random-dict-int-key", "{{ {0: 'a'}|random }}|{{ x|random }}", {"x": {"__dict__": [[0, "z"]]}}, "a dict's item of the key 0: its value (the package printed the key, 0)"),
    ("random-dict-str-key", "{{ {'x': 'a'}|random }}", {}, "exact: KeyError: 0"),
    ("random-set", "{{ {1}|random }}", {}, "exact: 'set' object is not subscriptable"),
    ("random-view", "{{ {1: 2}.keys()|random }}", {}, "exact: 'dict_keys' object is not subscriptable"),
    ("random-loop", "{% for i in [1] %}{{ loop|random }}{% endfor %}", {}, "exact: LoopContext has a len, no item"),
    ("random-one", "{{ 'a'|random }}|{{ [1]|random }}|{{ (1,)|random }}|{{ range(1)|random }}|{{ []|random }}|{{ ''|random }}|{{ nothere|random }}|{{ 'a'.encode()|random }}|{{ ('<'|safe)|random }}", {}, "one item or none: an empty one's Undefined; bytes' item is an int"),
    # the tests' Python functions
    ("test-in-arity", "{{ 1 is in([1], 2) }}", {}, "exact: test_in() takes 2 positional arguments but 3 were given (the package: in() takes from 1 to 2 …)"),
    ("test-in-keyword", "{{ 1 is in(x=[1]) }}", {}, "exact: test_in() got an unexpected keyword argument 'x'"),
    ("test-in-keyword-first", "{{ 1 is in([1], 2, x=3) }}", {}, "exact: the keyword's error before the count of positions, as CPython binds"),
    ("test-in-repeated", "{{ 1 is in([1], seq=2) }}", {}, "exact: test_in() got multiple values for argument 'seq'"),
    ("test-in-missing", "{{ 1 is in }}", {}, "exact: test_in() missing 1 required positional argument: 'seq'"),
    ("test-divisibleby-arity", "{{ 1 is divisibleby(1, 2) }}", {}, "exact: test_divisibleby()"),
    ("test-sameas-arity", "{{ 1 is sameas(1, 2) }}", {}, "exact: test_sameas()"),
    ("test-eq-arity", "{{ 1 is eq(1, 2) }}", {}, "exact: eq expected 2 arguments, got 3 (operator.eq)"),
    ("test-eq-none", "{{ 1 is eq }}", {}, "exact: eq expected 2 arguments, got 1"),
    ("test-lt-keyword", "{{ 1 is lt(other=2) }}", {}, "exact: _operator.lt() takes no keyword arguments (the package compared)"),
    ("test-ge-keyword-arity", "{{ 1 is ge(1, 2, b=3) }}", {}, "exact: the keywords first"),
    ("filter-keyword-first", "{{ x|center(1, 2, 3, y=1) }}", {"x": "a"}, "exact: do_center() got an unexpected keyword argument 'y' (the package counted the positions first)"),
    ("filter-repeated-first", "{{ x|center(1, 2, 3, width=1) }}", {"x": "a"}, "exact: got multiple values for argument 'width'"),
    # the sandbox's range is safe_range(*args)
    ("sandbox-range-keyword", "{{ range(1, x=2) }}", {}, "exact: safe_range() got an unexpected keyword argument 'x' (the package: range() takes no keyword arguments)", SB),
    ("sandbox-range-stop", "{{ range(stop=2) }}", {}, "exact: safe_range()", SB),
    ("range-keyword", "{{ range(stop=2) }}", {}, "exact: range() takes no keyword arguments"),
    # the hf profile's tojson (json.dumps) names a generator's type
    ("hf-tojson-generator", "{{ [1]|map('abs')|tojson }}", {}, "exact: Object of type generator is not JSON serializable (the stand-in said object)", HF),
    ("hf-tojson-nested-generator", "{{ {'a': [[1]|select]}|tojson(indent=2) }}", {}, "exact: inside a dict and a list", HF),
    ("hf-tojson-macro", "{% macro m() %}{% endmacro %}{{ m|tojson }}", {}, "exact: Macro", HF),
    ("hf-tojson-cycler", "{{ cycler(1)|tojson }}", {}, "exact: Cycler", HF),
    ("hf-tojson-range", "{{ range(1)|tojson }}", {}, "exact: range", HF),
    ("hf-tojson-groupby", "{{ [[1, 2]]|groupby(0)|tojson }}", {}, "a _GroupTuple is a tuple (the stand-in raised)", HF),
    # a float literal holding a digit that is not ASCII: literal_eval's
    # words, as Python 3.11's tokenizer reads it
    ("number-exponent-digit", "{{ 1e\uff12 }}", {}, "exact: invalid decimal literal (the package: invalid character)"),
    ("number-exponent-sign-digit", "{{ 1.5e-\u0663 }}", {}, "exact: after a sign too"),
    ("number-exponent-upper", "{{ 1E\u0663 }}", {}, "exact: E"),
    ("number-underscore-digit", "{{ 1_\u0663.5 }}|{{ 1e1_\u0663 }}", {}, "exact: Jinja2 drops the underscores before literal_eval: invalid character"),
    ("number-fraction-digit", "{{ 1.\u0663 }}", {}, "exact: after the point the number ends: invalid character '\u0663' (U+0663)"),
    ("number-integer-digit", "{{ 1\u0663.5 }}", {}, "exact: after a digit too"),
    ("number-first-digit", "{{ \u0663e2 }}", {}, "exact: the first"),
    # str.format's fields as CPython's parse_field reads them (found by
    # probing beside them): the name runs to the first '}', ':' or '!'
    # outside brackets, a conversion is one character
    ("format-conversion-brace", "{{ '{0!}'.format(1) }}", {}, "exact: unmatched '{' in format spec (the package: end of string while looking for conversion specifier)"),
    ("format-bracket-open", "{{ '{0[}'.format(1) }}", {}, "exact: expected '}' before end of string (the package: Missing ']')"),
    ("format-bracket-brace", "{{ '{0[}]}'.format({'}': 1}) }}|{{ '{0[{]}'.format({'{': 2}) }}", {}, "a brace inside brackets belongs to the key"),
    ("format-conversion-colon", "{{ '{0!rx}'.format(1) }}", {}, "exact: expected ':' after conversion specifier"),
    ("format-conversion-end", "{{ '{0!'.format(1) }}", {}, "exact: end of string while looking for conversion specifier"),
    ("format-brace-in-name", "{{ '{0{}'.format(1) }}", {}, "exact: unexpected '{' in field name"),
    ("format-conversion-nonascii", "{{ '{0!\u00e9}'.format(1) }}", {}, "exact: Unknown conversion specifier \\xe9 (str.format writes the code)"),
    ("format-conversion-control", "{{ '{0!\x01}'.format(1) }}", {}, "exact: \\x1"),
    ("format-conversion-nonascii-sandbox", "{{ '{0!\u00e9}'.format(1) }}", {}, "exact: string.Formatter writes the character", SB),
    ("format-empty-key", "{{ '{0[]}'.format(1) }}", {}, "exact: Empty attribute in format string (the package: 'int' object is not subscriptable)"),
    ("format-empty-key-sandbox", "{{ '{0[]}'.format(1) }}", {}, "exact: the sandbox's formatter too (the package printed '')", SB),
    ("format-empty-key-markup", "{{ m.format(1) }}", {"m": {"__markup__": "{0[]}"}}, "exact: and Markup's"),
    # the methods of int and float the package lacked (an Undefined before)
    ("float-hex", "{% for f in [1.5, 0.1, -0.0, 0.0, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1e-310, 123.456, 1e300] %}{{ f.hex() }} {{ f.as_integer_ratio() }} {{ f.fromhex(f.hex()) == f }},{% endfor %}", {}, "float.hex, as_integer_ratio and fromhex (the package: 'float object' has no attribute 'hex')"),
    ("float-hex-special", "{{ x.hex() }}|{{ y.hex() }}|{{ z.hex() }}", {"x": {"__float__": "inf"}, "y": {"__float__": "-inf"}, "z": {"__float__": "nan"}}, "inf, -inf, nan"),
    ("float-ratio-inf", "{{ x.as_integer_ratio() }}", {"x": {"__float__": "inf"}}, "exact: cannot convert Infinity to integer ratio"),
    ("float-ratio-nan", "{{ x.as_integer_ratio() }}", {"x": {"__float__": "nan"}}, "exact: cannot convert NaN to integer ratio"),
    ("float-fromhex", "{% for s in [' 0X1.8P+1 ', '1', 'infinity', '-nan', 'INF', '0x1.', '0x.8', '.8', '-0x1p-99999999999999', '0x1p-1075', '0x3p-1076', '0x1.fffffffffffff7p1023', '0x0p99999999999999999999', '+0x10', 'abc.defp-3', '\\t0x1\\n'] %}{{ 0.0.fromhex(s) }},{% endfor %}", {}, "the forms fromhex reads"),
    ("float-fromhex-underscore", "{{ 0.0.fromhex('0x1_0p0') }}", {}, "exact: invalid hexadecimal floating-point string"),
    ("float-fromhex-unicode-space", "{{ 0.0.fromhex('\u2003 0x1p0') }}", {}, "exact: ASCII whitespace only"),
    ("float-fromhex-exponent", "{{ 0.0.fromhex('0x1p') }}", {}, "exact: an exponent needs digits"),
    ("float-fromhex-overflow", "{{ 0.0.fromhex('0x1.fffffffffffff8p1023') }}", {}, "exact: hexadecimal value too large to represent as a float"),
    ("float-fromhex-type", "{{ 0.0.fromhex(1) }}", {}, "exact: bad argument type for built-in operation"),
    ("float-fromhex-arity", "{{ 0.0.fromhex('1', 2) }}", {}, "exact: float.fromhex() takes exactly one argument (2 given)"),
    ("float-method-reprs", "{{ 1.5.hex|string|truncate(30, true, '') }}|{{ 1.5.fromhex|string|truncate(33, true, '') }}|{{ 3 .bit_count|string|truncate(33, true, '') }}", {}, "fromhex is bound to the class (the package printed '')"),
    ("int-ratio-bit-count", "{{ 3 .as_integer_ratio() }}|{{ true.as_integer_ratio() }}|{{ 7 .bit_count() }}|{{ (-7).bit_count() }}|{{ (2**100 - 1).bit_count() }}|{{ (-(2**70)).as_integer_ratio() }}", {}, "int.as_integer_ratio and bit_count"),
    ("int-bit-count-arity", "{{ 3 .bit_count(1) }}", {}, "exact: int.bit_count() takes no arguments (1 given)"),
    ("dict-fromkeys-repr", "{{ d.fromkeys|string|truncate(33, true, '') }}|{{ d['fromkeys']|string|truncate(33, true, '') }}|{{ d.fromkeys('ab') }}", {"d": {"a": 1}}, "a classmethod, bound to the class: 'of type object' (the package: of dict object; found by chat-slow9)"),
    ("item-dunder-method", "{{ d['__len__']() }}|{{ 'ab'['__len__']() }}|{{ [1]['__len__']() }}|{{ d['__contains__']('a') }}", {"d": {"a": 1}}, "x['__len__'] is getattr(x, '__len__') when x has no such item, as x.__len__ (the package: an Undefined; found by chat-slow9)"),
    ("item-dunder-repr", "{{ d['__len__']|string|truncate(30, true, '') }}|{{ d['__len__'] is callable }}", {"d": {}}, "the method-wrapper"),
    ("item-dunder-key-wins", "{{ d['__len__'] }}", {"d": {"__len__": "key"}}, "the item first"),
    ("item-dunder-missing", "{{ d['__nope__'] is defined }}|{{ d['__nope__']|default('u') }}", {"d": {}}, "a dunder no dict has: Undefined"),
    ("item-dunder-sandbox", "{{ d['__len__'] is defined }}|{{ d['__len__']|default('u') }}", {"d": {}}, "the sandbox's unsafe Undefined", SB),
    ("item-dunder-sandbox-call", "{{ d['__len__']() }}", {"d": {}}, "exact: and calling it raises", SB),
    ("float-hex-sandbox", "{{ 1.5.hex() }}|{{ 0.0.fromhex('0x1p3') }}", {}, "the sandbox allows them", SB),
    # wordwrap with a float or bool width (refused before): textwrap
    # compares the float as it is, and a long word's slices fail
    ("wordwrap-float", "{{ 'aa bb cc\\n\\ndd ee'|wordwrap(5.9) }}|{{ 'aa bb cc'|wordwrap(2.0) }}|{{ 'aa bb cc'|wordwrap(1e300) }}|{{ 'aaa bbb ccc'|wordwrap(x) }}|{{ 'aaaaaaaaa b-bbb ccc'|wordwrap(3.5, false) }}|{{ 'aaaaaaa bbb'|wordwrap(0.5, false) }}", {"x": {"__float__": "inf"}}, "the width compared as a float (refused before)"),
    ("wordwrap-float-long-word", "{{ 'aaaaaaaaa bbb'|wordwrap(3.5) }}", {}, "exact: slice indices must be integers or None or have an __index__ method"),
    ("wordwrap-float-hyphen", "{{ 'aaaaaaaaa b-bbb ccc'|wordwrap(3.5, break_on_hyphens=false) }}", {}, "exact: chunk[:space_left]"),
    ("wordwrap-float-below-one", "{{ 'aaa bbb ccc'|wordwrap(0.5) }}", {}, "below 1, space_left is the int 1"),
    ("wordwrap-float-negative", "{{ 'aaa bbb'|wordwrap(-1.5) }}", {}, "exact: invalid width -1.5 (must be > 0)"),
    ("wordwrap-float-zero", "{{ 'aaa bbb'|wordwrap(-0.0) }}", {}, "exact: invalid width -0.0 (must be > 0)"),
    ("wordwrap-false", "{{ 'aaa bbb'|wordwrap(false) }}", {}, "exact: invalid width False (must be > 0) (the package: 0)"),
    ("wordwrap-true", "{{ 'aaa bbb'|wordwrap(true) }}|{{ ''|wordwrap(-1.5) }}", {}, "True is 1; no line, no check"),
    # found by the tenth widening's sampler: the sandbox's calls, a bool's
    # methods, the joiner's constructor, str.find's order of checks
    ("sandbox-dstar", "{{ joiner(**none) }}", {}, "exact: in the sandbox Jinja2 writes environment.call(context, …): jinja2.sandbox.SandboxedEnvironment.call()", SB),
    ("sandbox-dstar-repeated", "{{ dict(a=1, **{'a': 2}) }}", {}, "exact: got multiple values for keyword argument 'a'", SB),
    ("hf-dstar", "{{ raise_exception(**1) }}", {}, "exact: the hf profile is sandboxed", HF),
    ("bool-method-arity", "{{ true.as_integer_ratio(1) }}", {}, "exact: bool.as_integer_ratio() takes no arguments (1 given) (the package: int.)"),
    ("bool-bit-length-arity", "{{ false.bit_length(1) }}", {}, "exact: bool.bit_length()"),
    ("joiner-keyword", "{{ joiner(default_value=0) }}", {}, "exact: Joiner.__init__() got an unexpected keyword argument 'default_value' (the package: Joiner())"),
    ("find-slice-first", "{{ 'abcabc'.index(('a', 'c'), 1.0) }}", {}, "exact: slice indices must be integers or None or have an __index__ method: start and end are read before the substring (the package: must be str, not tuple)"),
    ("count-slice-first", "{{ 'abc'.count(1, 'x') }}", {}, "exact: count too"),
    # sequence item N: the index of the failing item in its output's join,
    # counting what Jinja2's code yields (the package left it out): one item
    # per run of constant text and folded prints, per other print, per loop
    # pass's, per call or filter block
    ("join-index-text", "a{% call dict() %}x{% endcall %}", {}, "exact: sequence item 1"),
    ("join-index-folded", "a{{ 1 }}b{{ 'x'|upper }}{% call dict() %}x{% endcall %}z", {}, "exact: constants fold into one item: 1"),
    ("join-index-prints", "a{{ x }}b{{ x }}{% call dict() %}x{% endcall %}", {"x": 1}, "exact: each print of a name is one: 4"),
    ("join-index-loop", "a{{ 2 }}b{% for i in [1, 2] %}{{ i }}{% endfor %}{% call dict() %}x{% endcall %}", {}, "exact: each pass's items: 3"),
    ("join-index-loop-else", "{% for i in x %}{{ i }}{% else %}e{% endfor %}{% if x %}t{% endif %}{% filter list %}ab{% endfilter %}", {"x": [1, 2, 3]}, "exact: 4"),
    ("join-index-macro", "{% macro m() %}a{{ 1 }}{% for i in [1, 2] %}{{ i }}{% endfor %}{% call dict() %}x{% endcall %}{% endmacro %}q{{ m() }}", {}, "exact: the macro's own buffer: 3"),
    ("join-index-set-block", "{{ 1 }}{% set y %}{{ x }}a{% filter length %}abc{% endfilter %}{% endset %}", {"x": 1}, "exact: the set block's buffer: 2"),
    ("join-index-caller", "{% macro m() %}{{ caller() }}{% endmacro %}{% call m() %}a{{ x }}{% call dict() %}{% endcall %}{% endcall %}", {"x": 1}, "exact: the caller's buffer: 2"),
    ("join-index-recursive", "{% for i in [[1], 2] recursive %}{{ i }}{% if i is iterable %}{{ loop(i) }}{% else %}{% call dict() %}{% endcall %}{% endif %}{% endfor %}", {}, "exact: the recursive loop's buffer"),
    ("join-index-nested", "{% filter upper %}a{{ x }}{% filter list %}b{% endfilter %}{% endfilter %}", {"x": 1}, "exact: the inner filter's value in the outer's buffer: 2"),
    ("join-index-volatile", "{% autoescape x %}a{{ 1 }}b{% endautoescape %}{% call dict() %}{% endcall %}", {"x": 1}, "exact: no text folds in a volatile eval context: 3"),
    ("join-index-finalize", "a{{ 'b' }}{{ none }}{% call dict() %}{% endcall %}", {}, "exact: finalize folds with the constants: 1", {"finalize": "twice"}),
    ("join-index-block", "a{% block x %}{{ 1 }}{{ y }}{% call dict() %}{% endcall %}{% endblock %}", {}, "exact: a block's items flow into the top level's: 3"),
    ("join-index-include-generator", "{% macro m() %}{{ caller() }}{% include 'p' without context %}{% endmacro %}a{{ 2 }}{% call m() %}c{% endcall %}{{ 1 }}", {}, "exact: the generator after one item: 1", {}, {"p": "P{{ 1 }}"}),
    ("join-index-recursive-include", "x{{ y }}{% for i in [1] recursive %}a{{ i }}{% include 'p' without context %}{% endfor %}", {}, "exact: a recursive loop's generator: 2", {}, {"p": "P"}),
    ("join-index-include", "a{{ x }}{% include 'c' %}", {"x": 1}, "the included template's items: sequence item 2 (the package leaves the index out where a template it did not count wrote into the output)", {}, {"c": "{% call dict() %}{% endcall %}"}),
    # the sampler's second pass
    ("format-str-grouping-first", "{{ '{0:#020,.12}'.format('a') }}", {}, "exact: Cannot specify ',' with 's'.: the spec's parser checks the separator first (the package: Alternate form (#) not allowed)"),
    ("format-str-grouping-type", "{{ '{0:,x}'.format('a') }}", {}, "exact: Cannot specify ',' with 'x'. before the unknown format code"),
    ("format-str-grouping-allowed", "{{ '{0:_b}'.format('a') }}", {}, "exact: '_' with 'b' passes the parser: Unknown format code 'b' for object of type 'str'"),
    ("length-keyword", "{{ [1]|length(1, a=2) }}", {}, "exact: len() takes no keyword arguments, before the count (the package: takes exactly one argument (3 given))"),
    ("filter-lead-keyword", "{{ x|sort(environment=1) }}", {"x": [2, 1]}, "exact: do_sort() got multiple values for argument 'environment': the parameters the filter fills (the package: unexpected keyword)"),
    ("filter-lead-keyword-value", "{{ x|indent(s=1) }}", {"x": "a"}, "exact: do_indent()'s value is s"),
    ("filter-lead-keyword-only-value", "{{ x|upper(s=1) }}", {"x": "a"}, "exact: do_upper() got multiple values for argument 's'"),
    ("filter-lead-keyword-first", "{{ x|first(environment=1) }}", {"x": [1]}, "exact: sync_do_first()"),
    ("filter-lead-keyword-random", "{{ x|random(context=1) }}", {"x": [1]}, "exact: do_random()"),
    ("filter-lead-keyword-escape", "{{ x|e(s=1) }}", {"x": 1}, "exact: escape() got some positional-only arguments passed as keyword arguments: 's'"),
    ("filter-lead-keyword-string", "{{ x|string(s=1) }}", {"x": 1}, "exact: soft_str() too"),
    ("format-grouping-upper-exponent", "{{ '{:,E}|{:_G}|{:,.3E}|{:012,E}|{:,G}|{:,F}|{:,.1%}|{:,.20G}'.format(1234567.5, 1e300, 12345.678, 1e-300, 12345678.9, 1234567.891, 12345.6, 1e300) }}", {}, "the integer part ends at E too (the package grouped the exponent: 1E+,300)"),
    ("format-grouping-upper-special", "{{ '{:,E}|{:_G}|{:012,E}|{:,G}|{:,F}'.format(x, x, x, y, y) }}", {"x": {"__float__": "inf"}, "y": {"__float__": "nan"}}, "INF and NAN"),
    ("join-index-generation", "{% generation %}a{{ 1 }}{% endgeneration %}{% call dict() %}{% endcall %}", {}, "exact: a generation block is a call block: one item, not its body's (sequence item 1)", HF),
    ("bytes-dunder-refused", "{{ 'ab'.encode().__len__() }}", {}, "bytes' dunders are refused by name, as other types' unimplemented ones (an Undefined before; found by the final FuzzPython run)"),
]


def main():
    handmade.write("exact9", "issue 23, ninth round", "internal/jinja2/testdata/oracle/convert/exact9.py", FOUND)


if __name__ == "__main__":
    main()
