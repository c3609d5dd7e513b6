#!/usr/bin/env python3
"""Templates FuzzPython found rendering differently from Jinja2, made small.

    python3 convert/fuzzfound.py     # -> cases/fuzz.json

Each entry below is a reduced form of a difference FuzzPython reported
(ROLEMARK_FUZZ_PYTHON=report); Python's Jinja2 decides what each prints
or raises (oracle.py), the note says what the fuzzer saw. Add to the list
when the fuzzer finds something, so that it stays found.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, template, context, note[, env])
FOUND = [
    ("truncate-list", "{{ [1, 2]|truncate(9) }}", {}, "truncate returns a short list unchanged"),
    ("truncate-tuple", "{{ (1, 2)|truncate(9, true, '..', 0)|last }}", {}, "truncate of a tuple"),
    ("truncate-dict", "{{ {}|truncate(5) }}", {}, "truncate returns a short dict unchanged"),
    ("truncate-undefined", "[{{ nothere|truncate(5) }}]", {}, "len(Undefined) is 0, so it is returned"),
    ("abs-undefined", "{{ nothere|abs }}", {}, "TypeError: bad operand type for abs(): 'Undefined'"),
    ("round-undefined", "{{ nothere|round }}", {}, "TypeError: type Undefined doesn't define __round__ method"),
    ("xmlattr-undefined", "{{ d.a|xmlattr }}", {"d": {}}, "UndefinedError when xmlattr reads the Undefined's items"),
    ("selectattr-int-lazy", "{% set v = 3|selectattr('a', 'defined') %}[{{ v is defined }}]", {}, "select/reject/map are lazy: no error until iterated"),
    ("reject-namespace-lazy", "{% set v = namespace(x=1)|reject('odd') %}ok", {}, "lazy reject of a non-iterable"),
    ("range-slice", "{{ range(1)[-2:100:3] }}|{{ range(10)[1::3]|list }}|{{ range(5)[-1] }}", {}, "a range is sliceable and indexable"),
    ("range-index", "{{ range(5, 1, -2).index(3) }}|{{ range(5).count(2) }}", {}, "range's methods"),
    ("range-index-missing", "{{ range(5, 1, -2).index(1) }}", {}, "ValueError: 1 is not in range"),
    ("str-encode", "{{ 'ab'.encode() }}", {}, "bytes repr"),
    ("dict-class-getitem", "{{ dict['a'] }}|{{ {'b': {'k': dict[-2:]}|count} }}", {}, "dict is a class: dict[...] is a types.GenericAlias"),
    ("dict-class-attr", "{{ dict.a }}", {}, "getattr then getitem on the class dict"),
    ("class-repr", "{{ dict }}|{{ range }}|{{ cycler }}|{{ joiner }}|{{ namespace }}", {}, "reprs of the global classes"),
    ("function-repr", "{{ lipsum }}", {}, "a function prints as Python writes it"),
    ("generator-repr", "{{ [1, 2]|select }}|{{ [1]|map('string') }}|{{ 'ab'|batch(1) }}|{{ [1]|slice(1) }}", {}, "a generator prints with its function's name and an address"),
    ("items-non-mapping-lazy", "{{ ''|items }}", {}, "items is a generator: printing it does not raise"),
    ("unknown-filter-order", "{{ (1 if -nothere|trim.split() else 2) }}", {}, "the operand is evaluated before an unknown (dotted) filter fails"),
    ("negative-fractional-power", "{{ (-8) ** 0.5 }}", {}, "a complex number"),
    ("complex-attribute", "{{ ((-7) ** 0.5).real }}", {}, "complex's attributes"),
    ("unary-minus-type", "{{ -dict }}", {}, "TypeError: bad operand type for unary -: 'type'"),
    ("dict-call-two-args", "{{ dict(1, 2) }}", {}, "TypeError: dict expected at most 1 argument, got 2"),
    ("dict-unbound-values", "{{ dict.values() }}", {}, "TypeError: unbound method dict.values() needs an argument"),
    ("int-class-subscript", "{{ (1).__class__[0] }}", {}, "__class__ is unsafe only in the sandbox"),
    ("macro-default-unhashable", "{% macro m(b={'k': [1]|unique}) %}{{ b }}{% endmacro %}{{ m() }}", {}, "a default built per call"),
    ("generator-is-lower", "{{ (0|reject('odd') is lower) * 3 }}", {}, "str() of a generator is its repr, which is lower case"),
    ("dict-class-attr-autoescape", "{% with w = dict.content %}{{ w }}{% endwith %}", {}, "dict.content is dict['content']"),
    ("str-plus-list-class", "{{ 'a' - dict.role }}", {}, "TypeError for str - GenericAlias"),
    ("class-ops", "{{ dict.items }}|{{ dict[0] }}|{{ dict[1:] }}|{{ dict[(1, 2)] }}|{{ dict[dict] }}|{{ dict[cycler] }}|{{ dict.a.items }}|{{ dict.a|list }}|{{ (dict.a,) }}|{{ dict == dict }}|{{ dict in [dict] }}|{{ dict.a == dict.a }}|{{ dict.upper(a=1) }}|{{ range.count }}|{{ range.start }}|{{ range.a }}|{{ cycler.a }}|{{ namespace.x }}|{{ dict is callable }}|{{ dict.a is callable }}|{{ dict ~ 1 }}|{{ dict|pprint }}", {}, "the global classes as values"),
    ("class-len", "{{ dict|length }}", {}, "TypeError: object of type 'type' has no len()"),
    ("class-alias-len", "{{ dict.a|length }}", {}, "TypeError: object of type 'types.GenericAlias' has no len()"),
    ("class-iter", "{{ dict|list }}", {}, "TypeError: 'type' object is not iterable"),
    ("class-range-slice", "{{ range[1:] }}", {}, "TypeError: type 'range' is not subscriptable"),
    ("class-unbound-get", "{{ dict.get('a') }}", {}, "TypeError: descriptor 'get' for 'dict' objects doesn't apply to a 'str' object"),
    ("dunder-class", "{{ (1).__class__ }}|{{ true.__class__.mro() }}|{{ 'a'.__class__.upper('b') }}|{{ [].__class__[0] }}|{{ none.__class__() }}|{{ nothere.__class__ }}|{{ (1).__class__.real }}|{{ (1.5).__class__.is_integer }}|{{ {}.__class__ }}|{{ range.__class__ }}", {}, "__class__ outside the sandbox"),
    ("dunder-class-unbound", "{{ 'a'.__class__.upper() }}", {}, "TypeError: unbound method str.upper() needs an argument"),
    ("dunder-class-sandbox", "{{ (1).__class__ }}", {}, "SecurityError in the sandbox", {"sandbox": True}),
    ("class-mro-sandbox", "{{ dict.mro() }}", {}, "SecurityError: mro of a class", {"sandbox": True}),
    ("lower-of-repr", "{{ range(5, 1, -2) is lower }}|{{ 3 is upper }}|{{ [1]|select is lower }}|{{ ('A', 'B') is upper }}", {}, "lower and upper test str(value)"),
    ("sandbox-range-repr", "{{ range }}|{{ range(2)|list }}", {}, "SandboxedEnvironment's range is the function safe_range", {"sandbox": True}),
    ("sandbox-range-mro", "{{ range.mro() }}", {}, "UndefinedError: safe_range is a function", {"sandbox": True}),
    ("undefined-in-str", "{{ nothere in 'abc' }}", {}, "TypeError: 'in <string>' requires string as left operand, not Undefined"),
    ("in-class", "{{ 1 in dict }}", {}, "TypeError: argument of type 'type' is not iterable"),
    ("loop-repr", "{% for x in 'ab' %}{{ loop }}{% endfor %}", {}, "LoopContext's repr"),
    ("loop-iterated", "{% for x in 'abcd' %}[{{ x }}{{ loop|list }}]{% endfor %}|{% for x in 'abc' %}{{ loop|list|length }}{{ loop.index }}{% else %}E{% endfor %}", {}, "iterating the loop variable takes the remaining items as (item, loop)"),
    ("bytes-ops", "{{ 'ab'.encode() }}|{{ s.encode() }}|{{ t.encode() }}|{{ 'ab'.encode()|list }}|{{ 'ab'.encode()|length }}|{{ 'ab'.encode()[0] }}|{{ 'é'.encode().decode() }}|{{ 'ab'.encode() == 'ab'.encode() }}|{{ ''.encode()|string }}|{{ 'a'.encode() ~ 1 }}|{{ 'ab'.encode('utf-8') }}", {"s": "it's é\n\\\t\x01", "t": "a\"b'c"}, "str.encode gives bytes"),
    ("bytes-method", "{{ 'ab'.encode().upper() }}", {}, "Unsupported: the methods of bytes but decode (Jinja2 prints b'AB')"),
    ("str-mod-undefined", "{{ 'abc' % nothere }}|{{ 'a%sc' % nothere }}|{{ 'a%sc'|safe % nothere }}", {}, "Undefined is a mapping to %: %s prints ''"),
    ("str-mod-undefined-key", "{{ '%(k)s' % nothere }}", {}, "UndefinedError: the mapping's item"),
    ("undefined-callable", "{{ nothere is callable }}|{{ (namespace(x=1)[-0] is not callable) * 1 }}", {}, "Undefined has __call__"),
    ("unpack-undefined", "{% for k, v in [1]|map(attribute='a') %}{% endfor %}", {}, "ValueError: not enough values to unpack (expected 2, got 0)"),
    ("filter-test-unhashable", "{{ b is filter }}", {"b": {}}, "TypeError: unhashable type: 'dict'"),
    ("test-test-unhashable", "{{ [1] is test }}", {}, "TypeError: unhashable type: 'list'"),
    ("reverse-undefined", "{{ nothere|reverse|list }}|{% if nothere|reverse %}t{% endif %}|{{ (nothere|reverse is iterable) }}", {}, "reversed(Undefined) is an empty iterator, and true"),
    ("address-length", "{{ ([1]|select|string|length) - ('x'|string|length) }}|{{ lipsum|string|length > 40 }}", {}, "an address is as long as CPython's, so the text around it counts the same"),
    ("urlencode-non-iterable", "{{ namespace(x=-2)|urlencode }}|{{ dict|urlencode }}|{{ 3.5|urlencode }}", {}, "urlencode quotes str(value) when value is not iterable"),
    ("sandbox-unsafe-iterates", "{% for x in (1).__class__ %}a{% else %}E{% endfor %}|{{ 'a' in (1).__class__ }}|{{ (1).__class__|list }}|{{ (1).__class__|length }}|{{ '%s' % (1).__class__ }}|{{ (1).__class__ ~ 1 }}", {}, "the sandbox's unsafe Undefined iterates as empty and prints ''", {"sandbox": True}),
    ("sandbox-unsafe-key", "{{ '%(k)s' % (1).__class__ }}", {}, "SecurityError: its items raise", {"sandbox": True}),
    ("cycler-joiner-repr", "{{ cycler(1) }}|{{ joiner() }}|{{ [cycler(1)] }}", {}, "object.__repr__ of the utils classes"),
    ("dictsort-class", "{{ dict|dictsort(by='value') }}", {}, "TypeError: unbound method dict.items() needs an argument"),
    ("xmlattr-class", "{{ dict|xmlattr }}", {}, "TypeError: unbound method dict.items() needs an argument"),
    ("dictsort-namespace", "{{ namespace(x=1)|dictsort }}", {}, "AttributeError: 'Namespace' object has no attribute 'items'"),
    ("bytes-contains", "{{ 97 in 'ab'.encode() }}|{{ 'b'.encode() in 'ab'.encode() }}|{{ true in 'a\\x01'.encode() }}", {}, "bytes.__contains__"),
    ("bytes-contains-float", "{{ 0.5 in 'ab'.encode() }}", {}, "TypeError: a bytes-like object is required, not 'float'"),
    ("bytes-contains-range", "{{ 256 in 'ab'.encode() }}", {}, "ValueError: byte must be in range(0, 256)"),
    ("wordwrap-markup", "{{ [x|wordwrap(5)] }}|{{ [y|wordwrap(3)] }}|{{ y|wordwrap(3, wrapstring='<br>'|safe) }}", {"x": {"__markup__": "é"}, "y": {"__markup__": "<b> aaaa bbbb"}}, "wordwrap returns str unless wrapstring is Markup"),
    ("wordwrap-markup-autoescape", "{{ x|wordwrap(5) }}", {"x": {"__markup__": "<b>é</b>"}}, "the str result is escaped", {"autoescape": True}),
    ("title-markup", "{{ [x|title] }}|{{ [x|upper] }}|{{ [x|capitalize] }}", {"x": {"__markup__": "<b>a b</b>"}}, "title returns str, upper and capitalize Markup"),
    ("title-markup-autoescape", "{% set v %}{% filter title %}{{ d }}{% endfilter %}{% endset %}{{ v|title }}", {"d": {"a": 3}}, "a filter block's output is not escaped; title's str is", {"autoescape": True}),
    ("filter-block-raw", "{% filter upper %}<{% endfilter %}|{% filter replace('a', '<') %}a{% endfilter %}|{% filter title %}{{ '<x>' }}{% endfilter %}", {}, "a filter block's value is written as it is, unescaped", {"autoescape": True}),
    ("filter-block-not-str", "x{% filter length %}abc{% endfilter %}", {}, "TypeError: sequence item 1: expected str instance, int found"),
    ("in-range", "{{ true in range(5, 1, -2) }}|{{ 1 in range(5, 0, -2) }}|{{ 3.0 in range(5) }}|{{ 2 in range(5, 1, -2) }}|{{ 'a' in range(3) }}", {}, "x in range is membership, not an index"),
    ("percent-class", "{{ 'its' % range }}", {}, "TypeError: a class is not a mapping to % (its [] is __class_getitem__)"),
    ("percent-cycler", "{{ 'a' % cycler }}", {}, "TypeError: not all arguments converted"),
    ("percent-dict-keys", "{{ 'a' % {}.keys() }}", {}, "TypeError: a dict view has no items"),
    ("percent-mappings", "{{ 'a' % range(3) }}|{{ 'a' % 'x'.encode() }}|{{ 'a' % dict.a }}|{{ '%s-%s' % ([{'a': 1}]|groupby('a'))[0] }}", {}, "a range, bytes and a GenericAlias are mappings to %; groupby's items are tuples"),
    ("percent-group-tuple", "{{ 'a' % ([{'a': 1}]|groupby('a'))[0] }}", {}, "TypeError: a _GroupTuple gives two arguments"),
    ("percent-key-range", "{{ '%(k)s' % range(3) }}", {}, "TypeError: range indices must be integers or slices, not str"),
    ("percent-key-bytes", "{{ '%(k)s' % 'x'.encode() }}", {}, "TypeError: byte indices must be integers or slices, not str"),
    ("percent-key-alias", "{{ '%(k)s' % dict.a }}", {}, "TypeError: dict['a'] is not a generic class"),
    ("bytes-slice", "{{ 'ab'.encode()[1:] }}|{{ 'é😀'.encode()[1:3] }}|{{ 'abc'.encode()[::2] }}|{{ ''.encode()[1:] }}|{{ 'abcdef'.encode()[-2:1:-2] }}|{{ 'abc'.encode()[1:]|length }}|{{ 'abc'.encode()[1:] == 'bc'.encode() }}|{{ s.encode()[x:] }}", {"s": "it's", "x": None}, "a slice of bytes is bytes"),
    ("bytes-slice-step-zero", "{{ 'ab'.encode()[::0] }}", {}, "ValueError: slice step cannot be zero"),
    ("group-tuple-slice", "{% set g = [{'a': 1}]|groupby('a') %}{{ g[0][::-1] }}|{{ ([{'a': 1}]|groupby('a'))[0][1:] }}", {}, "a _GroupTuple slices as a tuple (folded or not)"),
    ("alias-slice", "{{ dict.a[1:] }}", {}, "TypeError: dict['a'] is not a generic class"),
    ("loop-filter-lazy", "{% for k, v in s if x %}{{ k }}{{ x[:1] }}{% endfor %}", {"s": [[1, 2], "abc"], "x": 1}, "TypeError from the body: the filter unpacks and tests an item when the loop reaches it"),
    ("loop-filter-lookahead", "{% for k, v in s if x %}{{ k }}{{ loop.last }}{{ x[:1] }}{% endfor %}", {"s": [[1, 2], "abc"], "x": 1}, "ValueError: loop.last tests the next item first"),
    ("loop-filter-break", "{% for a in s if a.b.c %}{{ a }}{% break %}{% endfor %}|{% for a in t if 1 / a %}{{ a }}{% break %}{% endfor %}", {"s": [{"b": {"c": 1}}, 1], "t": [2, 0]}, "items after a break are never tested", {"extensions": ["loopcontrols"]}),
    ("loop-filter-attrs", "{% for a in s if a > 1 %}{{ a }}{{ loop.nextitem }}{{ a }}{{ loop.length }}{{ a }}{{ loop.revindex }}{{ loop }}|{% endfor %}{% for a in s if a > 1 %}{% set a = 9 %}{{ loop.last }}{{ a }}|{% endfor %}{% for a in s if a > 1 %}{{ a }}{{ loop|list }}{% endfor %}", {"s": [1, 2, 3, 0, 4]}, "a look ahead keeps the body's variables"),
    ("bytes-arith", "{{ 'ab'.encode() * 2 }}|{{ 'ab'.encode() + 'c'.encode() }}|{{ 2 * 'ab'.encode() }}|{{ 'ab'.encode() * -1 }}|{{ 'ab'.encode() * true }}|{{ 'ab'.encode() < 'b'.encode() }}|{{ 'ab'.encode() >= 'ab'.encode() }}|{{ ''.encode() * 5 }}|{{ (s.encode()[:] * 1) }}", {"s": "MiXeD"}, "bytes repeat, concatenate and compare"),
    ("bytes-concat-str", "{{ 'ab'.encode() + 'c' }}", {}, "TypeError: can't concat str to bytes"),
    ("bytes-mul-float", "{{ 1.5 * 'ab'.encode() }}", {}, "TypeError: can't multiply sequence by non-int of type 'float'"),
    ("bytes-order-str", "{{ 'ab'.encode() < 'b' }}", {}, "TypeError: '<' not supported between instances of 'bytes' and 'str'"),
    ("bytes-repeat-overflow", "{{ 'ab'.encode() * 9223372036854775807 }}", {}, "OverflowError: repeated bytes are too long"),
    ("class-call", "{{ [].__class__('ab') }}|{{ ().__class__('ab') }}|{{ ''.__class__(3) }}|{{ (1).__class__('7') }}|{{ (1.5).__class__('2') }}|{{ true.__class__(0) }}|{{ none.__class__() }}|{{ [].__class__() }}|{{ ().__class__() }}|{{ {}.__class__(a=1) }}|{{ [].__class__(range(3)) }}|{{ [].__class__({'a': 1}) }}|{{ (1).__class__() }}|{{ (1).__class__(' -1_0 ') }}|{{ (1).__class__('ff', 16) }}|{{ (1).__class__('0x1f', 0) }}|{{ (1).__class__(2.7) }}|{{ (1.0).__class__() }}|{{ true.__class__() }}|{{ true.__class__('') }}|{{ ''.__class__() }}|{{ ''.__class__([1, 'a']) }}|{{ ''.__class__(nothere) }}|{{ [].__class__(nothere) }}", {}, "the builtin classes called, outside the sandbox"),
    ("class-call-list-int", "{{ [].__class__(1) }}", {}, "TypeError: 'int' object is not iterable"),
    ("class-call-list-two", "{{ [].__class__('a', 'b') }}", {}, "TypeError: list expected at most 1 argument, got 2"),
    ("class-call-tuple-kw", "{{ ().__class__(x=1) }}", {}, "TypeError: tuple() takes no keyword arguments"),
    ("class-call-int-base", "{{ (1).__class__(1.5, 2) }}", {}, "TypeError: int() can't convert non-string with explicit base"),
    ("class-call-int-bad", "{{ (1).__class__('z') }}", {}, "ValueError: invalid literal for int() with base 10: 'z'"),
    ("class-call-float-none", "{{ (1.5).__class__(none) }}", {}, "TypeError: float() argument must be a string or a real number, not 'NoneType'"),
    ("class-call-copies", "{% set y = x.__class__(x) %}{{ y is sameas x }}|{{ y == x }}", {"x": [1, 2]}, "list(x) is a new list"),
    ("sandbox-private-item", "{{ d._p }}|{{ d['_p'] }}|{{ d.__p }}|{{ d._p is defined }}|{{ d._p + 1 }}|{{ d._q }}|{{ d|attr('_p') }}|{{ [1]._p }}|{{ (1)._x }}|{{ d.__class__ }}|{{ d['__class__'] }}", {"d": {"_p": 1, "__p": 2, "__class__": 3}}, "the sandbox checks an attribute getattr finds: a dict has no _p, so d._p is the item", {"sandbox": True}),
    ("sandbox-dunder-unsafe", "{{ d.__len__ + 1 }}", {"d": {}}, "SecurityError: a dunder getattr finds is unsafe", {"sandbox": True}),
    ("sandbox-private-missing", "{{ d._q + 1 }}", {"d": {}}, "UndefinedError: neither an attribute nor an item", {"sandbox": True}),
    ("index-undefined", "{{ 'a'.center(nothere) }}", {}, "TypeError: 'Undefined' object cannot be interpreted as an integer (it has no __index__)"),
    ("range-undefined", "{{ range(nothere) }}", {}, "TypeError: 'Undefined' object cannot be interpreted as an integer"),
    ("center-filter-undefined", "{{ 'a'|center(nothere) }}", {}, "TypeError: str.center of an Undefined width"),
    ("indent-undefined", "{{ 'a'|indent(nothere) }}", {}, "UndefinedError: ' ' * width is Undefined's operator"),
    ("int-filter-bad-base", "{{ 'a'|int(base=nothere) }}|{{ '12'|int(base=nothere) }}|{{ '12'|int(base=99) }}|{{ 'x'|int(base=nothere) }}", {}, "do_int catches the TypeError of a bad base"),
    ("wordwrap-order", "{{ ''|wordwrap(nothere) }}|{{ ''|wordwrap(-1) }}|{{ 'a b c'|wordwrap(18446744073709551617) }}", {}, "textwrap checks the width only for a line"),
    ("wordwrap-wrapstring-first", "{{ x|wordwrap(-1, wrapstring=1) }}", {"x": 1}, "AttributeError: wrapstring.join is read first"),
    ("wordwrap-splitlines-second", "{{ x|wordwrap(-1) }}", {"x": 1}, "AttributeError: then s.splitlines"),
    ("wordwrap-width-str", "{{ 'a'|wordwrap('x') }}", {}, "TypeError: '<=' not supported between instances of 'str' and 'int'"),
    ("wordwrap-width-undefined", "{{ 'a'|wordwrap(nothere) }}", {}, "UndefinedError: Undefined <= 0"),
    ("truncate-numbers", "{{ 'ab'|truncate(3.5) }}|{{ 'abcdefghij'|truncate(5.5, leeway=5) }}|{{ 'ab'|truncate(18446744073709551617) }}|{{ 'ab'|truncate(5, leeway=1.5) }}|{{ 'ab'|truncate(true, end='') }}", {}, "truncate compares length and leeway as Python does"),
    ("truncate-float-short", "{{ 'ab'|truncate(2.5) }}", {}, "AssertionError: expected length >= 3, got 2.5"),
    ("truncate-float-slice", "{{ 'abcdefgh'|truncate(3.5, leeway=0) }}", {}, "TypeError: slice indices must be integers"),
    ("truncate-length-str", "{{ 'ab'|truncate('x') }}", {}, "TypeError: '>=' not supported between instances of 'str' and 'int'"),
    ("loop-filter-outer-loop", "{% for x in 'ab' %}{% for y in x if loop %}{{ loop.index }}{% endfor %}{% endfor %}|{% for x in 'ab' %}{% for y in 'cd' if loop.index > 1 %}{{ loop.index }}{{ y }}{% endfor %}{% endfor %}|{% for y in 'cd' if loop %}{{ loop.index }}{% else %}E{% endfor %}", {}, "a loop's filter reads the enclosing loop"),
    ("alias-unhashable", "{{ dict[:2:3] is filter }}", {}, "TypeError: unhashable type: 'slice' (hash of a GenericAlias hashes its arguments; Python 3.11)"),
    ("dict-view-unhashable", "{{ {}.keys() is test }}", {}, "TypeError: unhashable type: 'dict_keys'"),
    ("filter-block-unknown-filter", "{% if false %}{% filter upper(x|nofilter) %}x{% endfilter %}{% endif %}", {}, "TemplateAssertionError: a filter block's filter is compiled in its own frame, not a conditional one"),
    ("set-block-unknown-filter", "{% if false %}{% set v | upper(x|no.filter) %}x{% endset %}{% endif %}", {}, "TemplateAssertionError: also a set block's"),
    ("filter-block-chain-fold", "{% filter default(('ab'[1:2:2] is not defined)|trim('a'))|upper %}1{% endfilter %}|{% set v | default(('ab'[1:2:2] is not defined)|trim('a'))|upper %}1{% endset %}{{ v }}", {}, "a block's filter chain is not folded as an expression; its arguments are"),
    ("sandbox-unsafe-dunder", "{{ (a.__class__).__class__ }}|{{ a.__class__.__class__.__class__ is defined }}", {"a": 0.0}, "a dunder of the unsafe Undefined is another unsafe Undefined", {"sandbox": True}),
    ("sandbox-unsafe-dunder-op", "{{ a.__class__.__class__ + 1 }}", {"a": 0.0}, "SecurityError: its operators raise", {"sandbox": True}),
    ("set-block-markup", "{% set v | batch(2, 'x') %}ab{% endset %}{{ v|length > 10 }}|{% set w | list %}ab{% endset %}{{ w }}|{% set u | upper %}<{% endset %}{{ u }}|{% set t | length %}ab{% endset %}{{ t }}|{% set s | replace('a', '<') %}a{% endset %}{{ s }}", {}, "under autoescape a set block's value is Markup(value)", {"autoescape": True}),
    ("set-block-markup-int", "{% set t | length %}ab{% endset %}{{ t + 1 }}", {}, "TypeError: Markup + int", {"autoescape": True}),
    ("sort-reverse-int", "{{ []|sort('x') }}", {}, "TypeError: sorted() takes reverse as an int"),
    ("sort-reverse-ok", "{{ [2, 1]|sort(2) }}|{{ [2, 1]|sort(true) }}", {}, "an int reverses"),
    ("address-urlencode", "{% set v|upper|urlencode %}{{- range -}}{% endset %}{{ [v] }}", {}, "an address after %20 is normalized too", {"profile": "hf"}),
    ("indent-big-width", "{{ 'a'|indent(-340282366920938463463374607431768211457) }}", {}, "OverflowError: cannot fit 'int' into an index-sized integer"),
    ("truncate-big-unsized", "{{ 7.0|truncate(18446744073709551617) }}", {}, "TypeError: object of type 'float' has no len()"),
    # constant folding: Jinja2 evaluates a constant slice through
    # environment.getitem (Undefined where Python raises TypeError), and
    # keeps the folded value when it has a safe repr or is printed
    ("fold-slice-print", "{{ 3[:2] }}|{{ {}[:2] }}|{{ [3[:2]] }}|{{ (3[:2],) }}|{{ 3[:2]|list }}", {}, "a printed constant is folded whatever its value"),
    ("fold-slice-test", "{{ 3[:2] is defined }}|{{ (none[1:] or 'x') }}|{{ (1 if 2 else q)[1:] }}|{{ (-7 or q.f())[::-1] }}", {}, "a test of a folded Undefined"),
    ("fold-slice-set", "{% set y = 3[:2] %}{{ y }}", {}, "TypeError: an Undefined is not kept, so the slice runs"),
    ("fold-slice-name", "{{ x[:2] }}", {"x": 3}, "TypeError: a variable is not folded"),
    ("fold-slice-concat-var", "{{ 3[:2] ~ x }}", {"x": 3}, "TypeError: only the constant slice is tried, and dropped"),
    ("fold-slice-filter-chain", "{{ 1[:1]|list|wordwrap(5) }}", {}, "the inner filter is folded, wordwrap of a list raises"),
    ("fold-literal-operand", "{{ x and {'b': 2[:100:3], 'b': (0 is not mapping)} }}|{% set v = x or [{'b': 2[:1], 'b': 1}] %}{{ v }}|{{ {'b': 2[:1], 'b': 1} }}", {"x": 0}, "the optimizer folds a literal operand of a folded node: the slice is never run"),
    ("fold-literal-set", "{% set v = {'b': 2[:1], 'b': 1} %}{{ v }}", {}, "TypeError: a literal that is not an operand is not folded"),
    ("fold-literal-operand-undefined", "{% set v = x or [{'b': 2[:1]}] %}{{ v }}", {"x": 0}, "TypeError: a folded Undefined has no safe repr, so the literal runs"),
    ("fold-concat-autoescape", "{{ '<a>'|safe ~ '<' }}|{% set x = '<' %}{{ '<a>'|safe ~ x }}|{% set y = '<b>'|safe ~ 1 %}{{ y }}", {}, "a constant ~ joins str, not Markup", {"autoescape": True}),
    ("filter-block-join-late", "{% filter batch(2)|list %}xy{% endfilter %}{{ 1/0 }}", {}, "runs H to J: a filter block's list is yielded, and the join of the output fails only after the rest has rendered"),
    ("filter-block-join-macro", "{% macro m() %}{% filter batch(2)|list %}xy{% endfilter %}{{ x.y }}{% endmacro %}{{ m() }}", {}, "UndefinedError: a macro's output is joined when its body has run"),
    ("filter-block-join-recursive", "{% for x in [1] recursive %}{% filter batch(2)|list %}xy{% endfilter %}{% endfor %}{{ 1/0 }}", {}, "TypeError: a recursive loop's output is joined when the loop ends"),
    ("filter-block-join-set", "{% set v %}{% filter length %}xy{% endfilter %}{% endset %}{{ 1/0 }}", {}, "TypeError: a set block's output is joined at endset"),
    ("filter-block-join-called-once", "{% macro m() %}{% filter batch(2)|list %}xy{% endfilter %}{% endmacro %}{% set y = m %}{{ 'a'.nope() }}", {}, "UndefinedError: a macro never called joins nothing"),
    ("finalize-concat", "{{ s ~ t }}|{{ s + t }}|{{ a ~ b }}|{{ s + t + s }}|{{ a ~ n ~ s }}|{{ s }}|{{ 'x' ~ 'y' }}|{{ 'x' + s }}|a{{ n }}b|{{ s|upper }}|{{ s|tojson }}|{{ [s] }}", {"a": 0.5, "b": 0.25, "s": "s", "t": "<t>", "n": None}, "finalize takes the value of a ~ or + chain, joined (a streamed print skipped it)", {"finalize": "twice"}),
    ("finalize-concat-autoescape", "{{ s ~ t }}|{{ s + t }}|{{ a ~ b }}|{{ t|safe ~ s }}|{{ '<'|safe }}|{{ '<' }}|{{ t }}|{% filter upper %}x{% endfilter %}|{% set v %}a{{ t }}{% endset %}{{ v }}|{{ s|tojson }}|{% macro m() %}<{{ s }}>{% endmacro %}{{ m() }}", {"a": 0.5, "b": 0.25, "s": "s", "t": "<t>", "n": None}, "finalize, then escaping; a filter block's value is not finalized", {"finalize": "twice", "autoescape": True}),
    ("fold-cond-class", "{{ (x if 1e3[::-1] else ([1, -7] if (-7 ** 2) else y).__class__) }}|{{ (x if 1[:1] else 'a'[::-1].__class__) }}", {}, "run J: a folded conditional whose test is an Undefined takes the else branch, folded whatever its value"),
    ("fold-cond-complex", "{{ (x if 1e3[::-1] else ([1, -7] if (-7 ** 0.5) else y).__class__) }}", {}, "run J: Jinja2 folds the test (-7) ** 0.5, a complex and true; the package refuses the fold, not TypeError from running the slice"),
]


def main():
    sys.path.insert(0, os.path.join(HERE, ".."))
    import oracle
    cases = []
    for name, tpl, ctx, note, *env in FOUND:
        cases.append({"id": "fuzz/" + name, "source": {"test": "FuzzPython", "note": note},
                      "template": tpl, "context": ctx, "env": env[0] if env else {}})
    doc = {"jinja2": "", "source": {"repo": "rolemark", "path": "internal/jinja2/fuzz_python_test.go (FuzzPython)", "licence": "this project's"},
           "cases": cases}
    path = os.path.join(HERE, "..", "cases", "fuzz.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(oracle.dump(doc))
    oracle.run_file(path)


if __name__ == "__main__":
    main()
