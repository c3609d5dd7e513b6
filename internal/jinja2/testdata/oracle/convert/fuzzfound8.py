#!/usr/bin/env python3
"""What FuzzPython's eighth widening found (docs/FUZZING.md), made small.

    python3 convert/fuzzfound8.py     # -> cases/fuzz8.json

As convert/fuzzfound7.py, for the runs of the generator that draws str
methods with unusual arguments, slices with steps, filters over dicts and
Undefined values, tests over odd values and floats through %, format and
round; a hand-made list (handmade.py).
"""
import handmade

# (name, template, context, note[, env[, loader]])
FOUND = [
    # PySlice_Unpack reads the step first
    ("slice-step-zero-first-range", "{{ range(1, 20, 3)['a':0:false] }}", {}, "exact: ValueError: slice step cannot be zero, before the bad start (the package said TypeError)"),
    ("slice-step-zero-first-list", "{{ x['a':'b':0] }}", {"x": [1, 2]}, "exact: the same for a list"),
    ("slice-step-zero-first-str", "{{ x[none:'b':0] }}", {"x": "ab"}, "exact: and a str"),
    ("slice-step-type-first", "{{ x['a':0:'c'] }}|{{ x[0:'b':'c'] }}", {"x": "ab"}, "exact: a bad step is the TypeError either way"),
    ("slice-bad-start-step-ok", "{{ x['a':0:2] }}", {"x": (1, 2)}, "exact: a bad start with a good step is TypeError"),
    # string.Formatter (the sandbox's, Markup's) numbers a field only when its whole name is empty or digits
    ("formatter-empty-first-attr", "{{ '{.real}'.format(1.5) }}", {}, "exact: get_value('') is kwargs['']: KeyError: '' (the package numbered it)", {"sandbox": True}),
    ("formatter-empty-first-item", "{{ '{[0]}'.format(x) }}", {"x": [1, 2]}, "exact: the same for an item", {"sandbox": True}),
    ("formatter-empty-first-markup", "{{ ('{.real}'|safe).format(1.5) }}", {}, "exact: Markup.format is a string.Formatter outside the sandbox too"),
    ("formatter-empty-first-map", "{{ '{[0]}'.format_map(d) }}|", {"d": {"a": 1}}, "exact: format_map's mapping['']", {"sandbox": True}),
    ("formatter-empty-first-kwarg", "{{ '{.real}'.format(1.5, **{'': 3}) }}", {}, "the keyword named ''", {"sandbox": True}),
    ("formatter-digit-attr-no-switch", "{{ '{}{0.real}'.format(1, 2) }}|{{ '{0.real}{}'.format(1, 2) }}", {}, "'0.real' is not isdigit(): no numbering switch", {"sandbox": True}),
    ("format-empty-first-attr", "{{ '{.real}{}'.format(1.5, 2) }}|{{ '{[1]}'.format(x) }}", {"x": [1, 2]}, "str.format numbers it", {}),
    ("format-digit-attr-switch", "{{ '{}{0.real}'.format(1, 2) }}", {}, "exact: str.format switches", {}),
    # a precision and no type: 'g' keeping a fractional digit, exponent one digit sooner
    ("format-float-no-type-precision", "{{ '{0:.0}'.format(x) }}|{{ '{:.1}'.format(x) }}|{{ '{:.2}'.format(x) }}|{{ '{:.2}'.format(30.0) }}|{{ '{:.3}'.format(30.0) }}|{{ '{:#.1}'.format(x) }}|{{ '{:.5}'.format(123.456) }}|{{ '{:10.0}'.format(-0.0) }}|{{ '{:.1}'.format(0.5) }}", {"x": 3.0}, "3e+00 (the package said 3.0)"),
    ("format-float-percent-overflow", "{{ '{:.3%}'.format(1.7976931348623157e308) }}|{{ '{:%}'.format(x) }}", {"x": -1.7976931348623157e308}, "x * 100 is inf: inf% (the package said +Inf%)"),
    # round(value, None) is round(value), an int
    ("round-precision-none", "{{ 0.045|round(none) }}|{{ 2.5|round(none) }}|{{ 3.5|round(none, 'common') }}|{{ x|round(none) }}|{{ 3|round(none) }}|{{ true|round(precision=none) }}", {"x": -2.5}, "an int (the package said TypeError)"),
    ("round-precision-none-inf", "{{ x|round(none) }}", {"x": {"__float__": "inf"}}, "exact: OverflowError: cannot convert float infinity to integer"),
    ("round-precision-none-floor", "{{ 2.5|round(none, 'floor') }}", {}, "exact: 10 ** None is TypeError"),
    # a class's __name__, __qualname__ and __module__ (refused before)
    ("class-name", "{{ x.__class__.__name__ }}|{{ s.__class__.__qualname__ }}|{{ s.__class__.__module__ }}|{{ nothere.__class__.__name__ }}{{ nothere.__class__.__module__ }}|{{ (s|safe).__class__.__module__ }}|{{ cycler.__name__ }}{{ joiner.__module__ }}|{{ dict.__class__.__name__ }}|{{ dict[1].__class__.__name__ }}{{ dict[1].__class__.__module__ }}|{{ true.__class__.__mro__[1].__name__ }}|{{ ''.join.__class__.__name__ }}", {"x": [1], "s": "a"}, "the class's names"),
    ("class-name-loop-macro", "{% macro m() %}{% endmacro %}{% for i in x %}{{ loop.__class__.__name__ }}{{ loop.__class__.__module__ }}{% endfor %}|{{ m.__class__.__qualname__ }}{{ m.__class__.__module__ }}|{{ (x|map('string')).__class__.__module__ }}", {"x": [1]}, "Jinja2's own classes"),
    # groupby's _GroupTuple is jinja2.filters'
    ("grouptuple-module", "{{ ([[1, 2]]|groupby(0)|first).__class__ }}|{{ ([[1, 2]]|groupby(0)|first).__class__.__module__ }}", {}, "<class 'jinja2.filters._GroupTuple'> (the package left the module out)"),
    ("grouptuple-undefined-message", "{{ ([[1, 2]]|groupby(0)|first).x.y }}", {}, "exact: 'jinja2.filters._GroupTuple object' has no attribute 'x'"),
    # self.b and super are BlockReferences
    ("blockref-repr", "{% block b %}{{ self.b|string|length }}|{{ self.b.__class__ }}|{{ self.b is callable }}|{{ self.b.name }}|{{ self.b.super is defined }}{% endblock %}", {}, "a BlockReference (the package printed a function)"),
    ("blockref-call-args", "{% block b %}{{ self.b(1) }}{% endblock %}", {}, "exact: BlockReference.__call__ takes no arguments (the package recursed)"),
    ("blockref-call-kwargs", "{% block b %}{{ self.b(x=1) }}{% endblock %}", {}, "exact: nor keywords"),
    ("blockref-undefined-message", "{% block b %}{{ self.b.x.y }}{% endblock %}", {}, "exact: 'jinja2.runtime.BlockReference object' has no attribute 'x'"),
    ("blockref-super-chain", "{% extends 'mid' %}{% block b %}[{{ super.super() }}|{{ super.super.super is defined }}|{{ super.name }}|{{ self.b.super() }}|{{ self.c.super is defined }}|{{ super.__class__.__name__ }}]{% endblock %}", {"x": 1}, "super and a reference's super", {},
     {"base": "{% block b %}B{{ x }}{% endblock %}{% block c %}C{% endblock %}", "mid": "{% extends 'base' %}{% block b %}M{{ super() }}{% endblock %}"}),
    # __str__ and __repr__ of numbers and None (refused before); object's __str__ is type(x).__repr__(x)
    ("dunder-str-numbers", "{{ (1).__str__() }}|{{ true.__str__() }}|{{ none.__str__() }}|{{ 1.5.__repr__() }}|{{ 1e16.__str__() }}|{{ true.__repr__() }}|{{ (1).__str__|string|length }}", {}, "method-wrappers"),
    ("dunder-str-unbound", "{{ (1).__class__.__str__ }}|{{ x.__class__.__str__ }}|{{ (1).__class__.__repr__(true) }}|{{ x.__class__.__str__(1) }}|{{ (1).__class__.__str__('a') }}|{{ true.__class__.__str__(s) }}", {"x": [1], "s": {"__markup__": "<b>"}}, "object.__str__ is repr (the package named list's slot and checked the type)"),
    ("dunder-str-unbound-no-arg", "{{ (1).__class__.__str__() }}", {}, "exact: descriptor '__str__' of 'object' object needs an argument"),
    ("dunder-repr-unbound-type", "{{ 1.5.__class__.__repr__(1) }}", {}, "exact: descriptor '__repr__' requires a 'float' object but received a 'int'"),
    ("dunder-method-classes", "{{ (1.5).__str__.__class__.__name__ }}|{{ (1).__class__.__str__.__class__.__name__ }}|{{ nothere.__str__.__class__.__name__ }}|{{ (1).__class__.__str__.__class__.__module__ }}", {}, "method-wrapper, wrapper_descriptor, method (the package said function)"),
    # Cycler's methods and Joiner's attributes
    ("cycler-bound-methods", "{% set c = cycler(1, 2) %}{{ c.next|string|length }}|{{ c.next.__class__.__name__ }}|{{ c.reset|string|length }}", {}, "bound methods (the package printed functions)"),
    ("cycler-next-args", "{% set c = cycler(1, 2) %}{{ c.next(1) }}", {}, "exact: Cycler.next() takes 1 positional argument but 2 were given (the package ignored it)"),
    ("cycler-reset-kwargs", "{% set c = cycler(1, 2) %}{{ c.reset(x=1) }}", {}, "exact: Cycler.reset() got an unexpected keyword argument 'x'"),
    ("joiner-attrs", "{% set j = joiner('|') %}{{ j.sep }}|{{ j.used }}|{{ j() }}{{ j.used }}|{{ j.__call__() }}|{{ j.__call__.__class__.__name__ }}", {}, "sep and used (the package printed '')"),
    ("joiner-call-args", "{% set j = joiner() %}{{ j(1) }}", {}, "exact: Joiner.__call__() takes 1 positional argument but 2 were given (the package ignored it)"),
    ("joiner-call-sandbox", "{% set j = joiner() %}{{ j.__call__() }}", {}, "exact: the sandbox refuses the dunder", {"sandbox": True}),
    # LoopContext.__call__(self, iterable) binds its arguments first
    ("loop-call-not-recursive", "{% for i in x %}{{ loop(x) }}{% endfor %}", {"x": [1]}, "exact: The loop must have the 'recursive' marker to be called recursively."),
    ("loop-call-too-many", "{% for i in x %}{{ loop(1, 2) }}{% endfor %}", {"x": [1]}, "exact: the arguments are bound before the recursive check"),
    ("loop-call-keyword", "{% for i in [[1]] recursive %}{{ i }}{% if i is iterable %}{{ loop(iterable=i) }}{% endif %}{% endfor %}", {}, "iterable= is the argument (the package raised TypeError)"),
    ("loop-call-missing", "{% for i in x recursive %}{{ loop() }}{% endfor %}", {"x": [1]}, "exact: missing 1 required positional argument: 'iterable'"),
    ("loop-call-twice", "{% for i in x recursive %}{{ loop([], iterable=[]) }}{% endfor %}", {"x": [1]}, "exact: got multiple values for argument 'iterable'"),
    ("loop-cycle-keyword", "{% for i in x %}{{ loop.cycle(1, x=1) }}{% endfor %}", {"x": [1]}, "exact: LoopContext.cycle() got an unexpected keyword argument 'x'"),
    # the dunders of Jinja2's objects: refused, not looked up as items
    ("loop-dunder-len", "{% for i in x %}{{ loop.__len__() }}{% endfor %}", {"x": [1, 2]}, "LoopContext.__len__ (the package said UndefinedError)"),
    # messages of filters over odd values
    ("namespace-no-attr-message", "{{ namespace(a=1)|dictsort }}", {}, "exact: Namespace.__getattribute__ raises AttributeError: items"),
    ("namespace-no-splitlines-message", "{{ namespace(a=1)|wordwrap(3) }}", {}, "exact: AttributeError: splitlines"),
    ("indent-bytes-message", "{{ 'ab'.encode()|indent(2) }}", {}, "exact: can't concat str to bytes"),
    ("indent-tuple-message", "{{ (1, 2)|indent(2) }}", {}, "exact: can only concatenate tuple (not \"str\") to tuple"),
    ("float-markup-message", "{{ ('<a>'|safe)|filesizeformat }}", {}, "exact: the Markup's repr"),
    # what _GroupTuple and the class Undefined have: refused by name, not looked up as items
    ("grouptuple-dunder", "{{ ([[1, 2]]|groupby(0)|first).__len__|list }}", {}, "a method-wrapper, not iterable (the package printed [] for an Undefined; now refused)"),
    ("grouptuple-private", "{{ ([[1, 2]]|groupby(0)|first)._fields }}", {}, "namedtuple's _fields (the package printed ''; now refused)"),
    ("undefined-class-dunder", "{{ nothere.__class__.__len__ }}", {}, "Undefined.__len__, a function (the package printed ''; now refused)"),
    # a call block's caller is a Macro named None
    ("caller-too-many-message", "{% macro m() %}{{ caller(1, 2, 3) }}{% endmacro %}{% call(x) m() %}{{ x }}{% endcall %}", {}, "exact: macro None takes not more than 1 argument(s)"),
    ("caller-keyword-message", "{% macro m() %}{{ caller(y=1) }}{% endmacro %}{% call(x) m() %}{{ x }}{% endcall %}", {}, "exact: macro None takes no keyword argument 'y'"),
    # a callable's type in messages is its class: Macro, builtin_function_or_method, method
    ("type-name-macro", "{% macro m() %}{% endmacro %}{{ m + 1 }}", {}, "exact: 'Macro' and 'int' (the package said 'function')"),
    ("type-name-builtin-method", "{{ x.append is odd }}", {"x": [1]}, "exact: 'builtin_function_or_method' and 'int'"),
    ("type-name-bound-method", "{% for i in x %}{{ loop.cycle + 1 }}{% endfor %}", {"x": [1]}, "exact: 'method' and 'int'"),
    ("type-name-in-string", "{{ x.append is in('abc') }}", {"x": [1]}, "exact: 'in <string>' requires string as left operand, not builtin_function_or_method"),
    # a dict view has a length and no __getitem__
    ("dict-view-not-sequence", "{{ d.keys() is sequence }}|{{ d.items() is sequence }}|{{ d.values() is sequence }}|{{ range(2) is sequence }}|{{ 'ab'.encode() is sequence }}", {"d": {"a": 1}}, "False for the views (the package said True)"),
    # the '0' flag fills with '0' whatever the alignment, inf and nan too
    ("format-zero-fill-align", "{{ '{:<08}'.format(1.5) }}|{{ '{:^08}'.format(-1.5) }}|{{ '{:>08}'.format(5) }}|{{ '{:=08}'.format(-1.5) }}|{{ '{:<08x}'.format(255) }}|{{ '{:<08}'.format('a') }}|{{ '{:08}'.format('a') }}|{{ '{:*<08}'.format(1.5) }}|{{ '{:^+08}'.format(true) }}", {}, "'1.500000' (the package padded with spaces)"),
    ("format-zero-fill-inf", "{{ '{:05.1f}'.format(x) }}|{{ '{:<08}'.format(x) }}|{{ '{:+08}'.format(y) }}|{{ '{:08%}'.format(x) }}", {"x": {"__float__": "inf"}, "y": {"__float__": "nan"}}, "00inf"),
    ("percent-zero-fill-inf", "{{ '%05.1f' % x }}|{{ '%+06f' % y }}|{{ '% 06e' % x }}|{{ '%06.1F' % x }}|{{ '%-06f' % x }}|{{ '%06s' % x }}", {"x": {"__float__": "inf"}, "y": {"__float__": "nan"}}, "'%05.1f' % inf is '00inf' (the package padded with spaces)"),
    ("format-alt-repr", "{{ '{:#}'.format(1e16) }}|{{ '{:#}'.format(x) }}|{{ '{:#}'.format(1.5) }}|{{ '{:#10}'.format(1e-5) }}|{{ '{:#,}'.format(1e22) }}", {"x": 3.0}, "the alternate form keeps the point: 1.e+16"),
    # argument errors of builtin methods in CPython's words: METH_O and METH_NOARGS name the type, PyArg_ParseTuple does not, Argument Clinic has its own
    ("method-args-list", "{{ x.append(x=1) }}", {"x": [1]}, "exact: list.append() takes no keyword arguments"),
    ("method-args-list-one", "{{ x.count(1, 2) }}", {"x": [1]}, "exact: list.count() takes exactly one argument (2 given)"),
    ("method-args-tuple-one", "{{ (1, 2).count(1, 2) }}", {}, "exact: tuple.count()"),
    ("method-args-dict-none", "{{ d.items(1) }}", {"d": {}}, "exact: dict.items() takes no arguments (1 given)"),
    ("method-args-dict-kw", "{{ d.get('a', default=2) }}", {"d": {}}, "exact: dict.get() takes no keyword arguments"),
    ("method-args-str-one", "{{ 'a'.join() }}", {}, "exact: str.join() takes exactly one argument (0 given)"),
    ("method-args-str-tuple-kw", "{{ 'a'.find(x=1) }}", {}, "exact: find() takes no keyword arguments"),
    ("method-args-str-tuple-few", "{{ 'a'.count() }}", {}, "exact: count() takes at least 1 argument (0 given)"),
    ("method-args-str-tuple-many", "{{ 'a'.startswith(1, 2, 3, 4) }}", {}, "exact: startswith() takes at most 3 arguments (4 given)"),
    ("method-args-clinic-kw", "{{ 'a'.split(x=1) }}", {}, "exact: 'x' is an invalid keyword argument for split()"),
    ("method-args-encode-kw", "{{ 'a'.encode(x=1) }}", {}, "exact: 'x' is an invalid keyword argument for encode()"),
    ("method-args-encode-twice", "{{ 'a'.encode('utf-8', encoding='x') }}", {}, "exact: argument for encode() given by name ('encoding') and position (1)"),
    ("method-args-int-conjugate", "{{ (1).conjugate(x=1) }}", {}, "exact: int.conjugate() takes no keyword arguments (the package printed 1)"),
    ("method-args-float-conjugate", "{{ (1.5).conjugate(1) }}", {}, "exact: float.conjugate() takes no arguments (1 given)"),
    ("method-args-int", "{{ (1).bit_length(1) }}", {}, "exact: int.bit_length() takes no arguments (1 given)"),
    # run 3: a GenericAlias forwards what it does not have to its origin
    ("generic-alias-forwards", "{{ dict[1].__origin__ }}|{{ dict[1].__args__ }}|{{ dict[1, 2].__args__ }}|{{ dict[1].__parameters__ }}|{{ dict[1].__unpacked__ }}|{{ dict[1].__len__(d) }}|{{ dict[1].keys(d)|list }}|{{ dict[1].__name__ }}", {"d": {"a": 1}}, "ga_getattro (the package printed Undefineds)"),
    ("generic-alias-dunder-call", "{{ dict.x.__len__() }}", {}, "exact: descriptor '__len__' of 'dict' object needs an argument (the package said UndefinedError)"),
    # run 3: self iterates by index, and self[0] is a KeyError
    ("self-iterate", "{% for x in self %}{{ x }}{% endfor %}", {}, "exact: KeyError: 0 (the package said not iterable)"),
    ("self-list", "{{ self|list }}", {}, "exact: KeyError: 0"),
    ("self-unpack", "{% set a, b = self %}", {}, "exact: unpacking iterates: KeyError: 0"),
    ("self-iterable", "{{ self is iterable }}|{{ self is sequence }}", {}, "iter(self) works"),
    # run 3: sync_do_slice computes length // slices before range(slices)
    ("slice-float-zero", "{{ x|slice(0.0)|list }}", {"x": [1, 2, 3]}, "exact: ZeroDivisionError: float floor division by zero (the package said TypeError)"),
    ("slice-str-count", "{{ x|slice('a')|list }}", {"x": [1, 2, 3]}, "exact: unsupported operand type(s) for //: 'int' and 'str'"),
    ("slice-float-count", "{{ x|slice(2.0)|list }}", {"x": [1, 2, 3]}, "exact: then range(2.0)"),
    # run 4: truncate's end is any sized value, added only when the text is cut
    ("truncate-end-sized", "{{ d|truncate(end=dict(a=1)) }}|{{ 'abc'|truncate(end=[1, 2]) }}|{{ 'a b c d e f'|truncate(5, end=('<'|safe)) }}", {"d": {"a": 1}}, "len(end) and a text not cut (the package said must be str)"),
    ("truncate-end-list-cut", "{{ ('a ' * 200)|truncate(end=[1, 2]) }}", {}, "exact: can only concatenate str (not \"list\") to str"),
    ("truncate-end-none", "{{ 'abc'|truncate(end=none) }}", {}, "exact: object of type 'NoneType' has no len()"),
    ("truncate-end-list-seq", "{{ x|truncate(5, true, end=[9]) }}|{{ x|truncate(5, true, end='!') }}", {"x": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}, "a list cut joins a list end"),
    # sweeps beside run 4: a float leeway with an int length cuts; tojson reads its indent only for what is no str
    ("truncate-float-leeway", "{{ 'a b c ab'|truncate(5, false, '.', 1.5) }}|{{ 'a b c ab'|truncate(5, true, '.', 1.5) }}|{{ x|truncate(1, true, '.', 0.5) }}", {"x": [1, 2, 3]}, "s[:length - len(end)] (the package raised the slice TypeError)"),
    ("truncate-float-length", "{{ 'a b c ab'|truncate(5.0, false, '.', 1) }}", {}, "exact: a float length still fails the slice"),
    ("tojson-str-indent-unread", "{{ 'a'|tojson(1.5) }}|{{ 'a'|tojson(nothere) }}|{{ 'a'|tojson([1]) }}|{{ x|tojson(-1) }}", {"x": [1]}, "JSONEncoder.encode writes a str before it reads the indent"),
    ("tojson-indent-undefined", "{{ x|tojson(nothere) }}", {"x": [1]}, "exact: ' ' * Undefined is UndefinedError"),
    ("tojson-indent-float", "{{ x|tojson(1.5) }}", {"x": [1]}, "exact: can't multiply sequence by non-int of type 'float'"),
    ("tojson-indent-huge", "{{ x|tojson(18446744073709551617) }}", {"x": [1]}, "exact: cannot fit 'int' into an index-sized integer"),
    # first and last are passed the environment; attr's name is looked up by getattr_static, then hasattr
    ("first-arg-count", "{{ x|first(1) }}", {"x": [1]}, "exact: sync_do_first() takes 2 positional arguments but 3 were given"),
    ("last-arg-count", "{{ x|last(1) }}", {"x": [1]}, "exact: do_last() takes 2 positional arguments but 3 were given"),
    ("attr-name-int", "{{ x|attr(1) }}", {"x": [1]}, "exact: attribute name must be string, not 'int'"),
    ("attr-name-unhashable", "{{ x|attr([1]) }}", {"x": [1]}, "exact: unhashable type: 'list'"),
    ("attr-name-missing", "{{ x|attr }}", {"x": [1]}, "exact: do_attr() missing 1 required positional argument: 'name'"),
    # a sweep of 5,720 operator pairs: two messages
    ("number-minus-keys-message", "{{ 1 - d.keys() }}", {"d": {"a": 1}}, "exact: dict_keys.__rsub__ makes a set of the int: 'int' object is not iterable"),
    ("seq-times-bytes-message", "{{ 'ab' * 'ab'.encode() }}", {}, "exact: can't multiply sequence by non-int of type 'bytes'"),
    # run 4: sorting a dict's keys compares an Undefined key, which raises
    ("pprint-undefined-key", "{{ {nothere: 1, 0: 2}|pprint }}", {}, "exact: pprint's _safe_key falls back on a TypeError only (the package printed {Undefined: 1, 0: 2})"),
    ("pprint-undefined-key-nested", "{{ [{'a': {nothere: 1, 'b': 2}}]|pprint }}|", {}, "exact: at any depth"),
    ("pprint-undefined-key-alone", "{{ {nothere: 1}|pprint }}|{{ [nothere, 1]|pprint }}|{{ {none: 1, 0: 2}|pprint }}", {}, "one key is not compared; None and 0 fall back"),
    ("tojson-undefined-key", "{{ {nothere: 1, 0: 2}|tojson }}", {}, "exact: sorted(dct.items()) raises UndefinedError (the package said TypeError)"),
    # the dunders of Jinja2's objects the generator draws most
    ("loop-dunder-call", "{% for i in [[1]] recursive %}{{ i }}{% if i is iterable %}{{ loop.__call__(i) }}{% endif %}{% endfor %}|{% for i in x %}{{ loop.__len__|string|length }}{{ loop.__weakref__ }}{% endfor %}", {"x": [1]}, "bound methods; __weakref__ is None"),
    ("cycler-dunder-next", "{% set c = cycler(1, 2) %}{{ c.__next__() }}{{ c.__next__() }}|{{ c.__next__.__class__.__name__ }}|{{ c.__weakref__ }}", {}, "__next__ = next"),
    ("cycler-dunder-next-args", "{% set c = cycler(1, 2) %}{{ c.__next__(1) }}", {}, "exact: the function is named next"),
    # run 5: '#' with 'c' for an int
    ("format-alt-char", "{{ '{a:#06c}'.format(1, a=1) }}", {}, "exact: Alternate form (#) not allowed with integer format specifier 'c' (the package printed the character)"),
    # a sweep of nested format specs: str.format refuses two levels of nesting, string.Formatter a field two levels down
    ("format-nested-depth", "{{ '{:{:{}}}'.format(1.5, 5, 2) }}", {}, "exact: Max string recursion exceeded (the package formatted it)"),
    ("format-nested-depth-sandbox", "{{ '{:{:{}}}'.format(1.5, 5, 2) }}", {}, "exact: string.Formatter expands even an empty spec one level down", {"sandbox": True}),
    ("format-nested-depth-sandbox-lookup", "{{ '{:{:{}}}'.format(1.5, 5) }}", {}, "exact: after the field's lookup", {"sandbox": True}),
    ("format-nested-one-level", "{{ '{:{}}'.format(1.5, 5) }}|{{ ('{:{}}'|safe).format(1.5, 5) }}", {}, "one level is fine"),
    # a keyed % field's * takes the key's item
    ("percent-keyed-star", "{{ '%(a)*d' % {'a': nothere} }}", {}, "exact: * wants int"),
    ("percent-keyed-star-int", "{{ '%(a)*d' % {'a': 1} }}", {}, "exact: not enough arguments for format string"),
    # run 5: an Undefined element of dict()'s sequence iterates as empty
    ("dict-seq-undefined-element", "{{ dict([[1, 2], nothere]) }}", {}, "exact: dictionary update sequence element #1 has length 0; 2 is required (the package said TypeError)"),
    ("namespace-seq-undefined-element", "{{ namespace([nothere]) }}", {}, "exact: the same through namespace"),
    # a sweep of attributes and items of twenty-one kinds of value
    ("bool-numerator", "{{ true.numerator }}|{{ false.numerator }}|{{ true.real }}|{{ true.denominator }}", {}, "bool's numerator is an int (the package printed True)"),
    ("markup-builtin-methods", "{{ ('<'|safe).count|string|length }}|{{ ('<'|safe).count.__class__.__name__ }}|{{ ('<'|safe).upper.__class__.__name__ }}|{{ ('<'|safe).startswith|string|truncate(30, true, '') }}", {}, "str's built-in methods Markup does not wrap"),
    ("grouptuple-method-repr", "{{ ([[1, 2]]|groupby(0)|first).count|string|truncate(40, true, '') }}", {}, "of _GroupTuple object"),
    # run 5: a range's count beyond int64 overflowed into a MemoryError; it is refused as every range too long to build
    ("range-count-overflow", "{{ range(-9223372036854775808, 5)|length }}", {}, "OverflowError in Python (len of a lazy range); refused by name (the package said MemoryError)"),
    ("range-count-extremes", "{{ range(-9223372036854775808, 9223372036854775807, 9223372036854775807)|list }}|{{ range(9223372036854775807, -9223372036854775808, -9223372036854775808)|list }}|{{ range(9223372036854775806, 9223372036854775807)|list }}", {}, "counts at the int64 bounds"),
    # a sweep of 2,712 str method calls: messages
    ("str-method-none-message", "{{ 'a'.replace(none, 'x') }}", {}, "exact: _PyArg_BadArgument names None as None"),
    ("str-method-none-message-prefix", "{{ 'a'.removeprefix(none) }}", {}, "exact: removeprefix() argument must be str, not None"),
    ("markup-join-not-iterable", "{{ ('<'|safe).join(1) }}", {}, "exact: Markup.join maps escape over the argument: 'int' object is not iterable"),
    # the sweeps under autoescape: escaping the class Markup calls its __html__ without an instance
    ("markup-class-escaped", "{{ ('<'|safe).__class__ }}", {}, "exact: Markup.__html__() missing 1 required positional argument: 'self'", {"autoescape": True}),
    ("markup-class-join", "{{ [('<'|safe).__class__]|join }}", {}, "exact: join escapes when an item has __html__", {"autoescape": True}),
    ("markup-class-forceescape", "{{ ('<'|safe).__class__|forceescape }}", {}, "exact: forceescape calls __html__"),
    ("markup-class-plain", "{{ ('<'|safe).__class__ }}|{{ ('<'|safe).__class__|string }}", {}, "without autoescape it prints"),
    # run 6: an attribute part that str.isdigit accepts is int(part)
    ("attr-part-digit-not-decimal", "{{ {'k': 1}|unique(attribute='①')|list }}", {}, "exact: invalid literal for int() with base 10: '①' (the package looked up the str)"),
    ("attr-part-other-script", "{{ [[1, 2]]|map(attribute='١')|list }}|{{ [{'a': [5, 6]}]|map(attribute='a.١')|list }}", {}, "Arabic-Indic digits are an index"),
    ("attr-part-selectattr", "{{ [[1, 2]]|selectattr('²')|list }}", {}, "exact: the compiled select too"),
]


def main():
    handmade.write("fuzz8", "FuzzPython", "internal/jinja2/fuzz_python_test.go (FuzzPython)", FOUND)


if __name__ == "__main__":
    main()
