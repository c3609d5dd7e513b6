#!/usr/bin/env python3
"""What FuzzPython's seventh widening found (docs/FUZZING.md), made small.

    python3 convert/fuzzfound7.py     # -> cases/fuzz7.json

As convert/fuzzfound.py, for the runs of the generator that draws Markup,
format_map, star calls and keyword filters; a hand-made list
(handmade.py).
"""
import handmade

# (name, template, context, note[, env[, loader]])
FOUND = [
    # format_map reads mapping[name] with Python's subscript
    ("format-map-undefined", "{{ '{w}'.format_map(d) }}", {}, "exact: Undefined.__getitem__ raises UndefinedError (the package said KeyError)"),
    ("format-map-int", "{{ '{w}'.format_map(3) }}", {}, "exact: TypeError: 'int' object is not subscriptable"),
    ("format-map-str", "{{ '{w}'.format_map('abc') }}", {}, "exact: TypeError: string indices must be integers, not 'str'"),
    ("format-map-list", "{{ '{w}'.format_map([1]) }}", {}, "exact: TypeError: list indices must be integers or slices, not str"),
    ("format-map-none", "{{ '{w}'.format_map(none) }}", {}, "exact: TypeError: 'NoneType' object is not subscriptable"),
    ("format-map-namespace", "{{ '{w}'.format_map(namespace(w=1)) }}", {}, "exact: TypeError: 'Namespace' object is not subscriptable"),
    ("format-map-dict", "{{ '{w}|{w[0]}'.format_map({'w': 'ab'}) }}", {}, "a dict is read as before"),
    ("format-map-missing", "{{ '{w}'.format_map({}) }}", {}, "exact: KeyError: 'w'"),
    ("format-map-positional", "{{ '{0}'.format_map({}) }}", {}, "exact: str.format_map refuses positional fields"),
    # the sandbox's and Markup's format are string.Formatter's
    ("format-map-sandbox-positional", "{{ '{:n}'.format_map(3) }}", {}, "exact: SandboxedFormatter.vformat(s, (), mapping): args[0] is IndexError", {"sandbox": True}),
    ("format-map-sandbox-undefined", "{{ '{w}'.format_map(d) }}", {}, "exact: UndefinedError in the sandbox too", {"sandbox": True}),
    ("format-sandbox-index", "{{ '{1}'.format(1) }}", {}, "exact: Formatter.get_value is args[1]: IndexError: tuple index out of range", {"sandbox": True}),
    ("format-index", "{{ '{1}'.format(1) }}", {}, "exact: str.format's own message outside the sandbox"),
    ("format-markup-index", "{{ ('{1}'|safe).format(1) }}", {}, "exact: Markup.format is markupsafe's EscapeFormatter, a string.Formatter"),
    ("format-markup-map-positional", "{{ ('{}'|safe).format_map({}) }}", {}, "exact: Markup.format_map is vformat(s, (), mapping)"),
    ("format-markup-map-undefined", "{{ ('{a}'|safe).format_map(d) }}", {}, "exact: UndefinedError"),
    ("format-markup-map", "{{ ('{a}'|safe).format_map({'a': '<'}) }}", {}, "escaped"),
    ("format-index-too-long", "{{ '{99999999999999999999}'.format(1) }}", {}, "exact: ValueError: Too many decimal digits in format string (the package said IndexError)"),
    ("format-index-too-long-markup", "{{ ('{99999999999999999999}'|safe).format(1) }}", {}, "exact: the parser's error under string.Formatter too"),
    ("format-index-too-long-after-auto", "{{ '{}{99999999999999999999}'.format(1) }}", {}, "exact: before the numbering switch"),
    ("format-key-too-long", "{{ '{0[99999999999999999999]}'.format(nothere) }}", {}, "exact: an item index beyond a Py_ssize_t"),
    # Markup's replace, ljust, rjust and center escape the new text or fill, whatever its type
    ("markup-replace-any", "{{ ('<a>'|safe).replace('<', 1.5) }}|{{ ('<a>'|safe).replace('<', {}) }}|{{ ('<a>'|safe).replace('<', none) }}|{{ ('<a>'|safe).replace('<', nothere) }}|{{ ('<a>'|safe).replace('<', '&') }}|{{ ('<a>'|safe).replace('<', ['<']) }}", {}, "Markup.replace escapes new (the package said TypeError)"),
    ("markup-replace-old-int", "{{ ('<a>'|safe).replace(1, 'x') }}", {}, "exact: replace() argument 1 must be str, not int"),
    ("markup-just-any", "{{ ('<a>'|safe).ljust(5, 1) }}|{{ ('<a>'|safe).rjust(9, '<'|safe) }}|{{ ('a'|safe).center(4, 0) }}", {}, "Markup's fill is escaped, then must be one character"),
    ("markup-just-escaped-long", "{{ ('<a>'|safe).center(9, '&') }}", {}, "exact: '&' escapes to '&amp;': The fill character must be exactly one character long"),
    ("markup-just-undefined", "{{ ('<a>'|safe).rjust(9, nothere) }}", {}, "exact: str(Undefined) is '': The fill character must be exactly one character long"),
    # Markup * n reads n as an index: Markup.__mul__ calls str.__mul__ itself
    ("markup-mul-undefined", "{{ (''|safe) * 0[0] }}", {}, "exact: TypeError: 'Undefined' object cannot be interpreted as an integer (the package raised the UndefinedError)"),
    ("markup-mul-float", "{{ ('a'|safe) * 1.5 }}", {}, "exact: not str's 'can't multiply sequence by non-int'"),
    ("markup-rmul-list", "{{ [1] * ('a'|safe) }}", {}, "exact: Markup.__rmul__ is tried first: TypeError: 'list' object cannot be interpreted as an integer"),
    ("markup-rmul-str", "{{ 'a' * ('a'|safe) }}", {}, "exact: 'str' object cannot be interpreted as an integer"),
    ("markup-mul-undefined-left", "{{ nothere * ('a'|safe) }}", {}, "exact: Undefined.__mul__ raises first"),
    ("markup-mul-int", "{{ ('<'|safe) * 3 }}|{{ 2 * ('<'|safe) }}|{{ true * ('<'|safe) }}|{{ ('<'|safe) * -1 }}", {}, "repeated, still Markup", {"autoescape": True}),
    # Jinja2's optimizer folds dict literals below the nodes it is handed, and Dict.as_const lets an unhashable key's TypeError through
    ("optimizer-dict-unhashable-branch", "{% if s %}{{ 1 if false else {[]: 1} }}{% endif %}", {}, "exact: a compile-time TypeError, in a branch never taken (the package printed '')"),
    ("optimizer-dict-unhashable-call", "{% if s %}{{ m({{}: 1, s: 2}[true], 1, 2) }}{% endif %}", {}, "exact: unhashable type: 'dict', under a call"),
    ("optimizer-dict-unhashable-call-arg", "{% if s %}{{ m({[]: 1}) }}{% endif %}", {}, "exact: a call is handed to the optimizer, its arguments folded"),
    ("optimizer-dict-unhashable-filter", "{% if s %}{{ {(1, []): 2}|length }}|{{ {[1, 2][0:1]: 2}|length }}{% endif %}", {}, "exact: a tuple holding a list, a folded slice"),
    ("optimizer-dict-unhashable-macro-default", "{% macro m(a={[]: 1}|length) %}{% endmacro %}ok", {}, "exact: a macro's default"),
    ("optimizer-dict-not-const-first", "{% if s %}{{ {s: 1, []: 2}|length }}{{ {1: s, []: 2}|length }}{% endif %}", {}, "a pair that is not constant stops the folding (Impossible)"),
    ("optimizer-dict-literal-only", "{% if s %}{{ ({[]: 1},) }}{{ [{[]: 1}] }}{{ {[]: 1} }}{% endif %}ok", {}, "literals above no optimized node are compiled as written"),
    ("optimizer-dict-volatile", "{% autoescape s is defined %}{% if s %}{{ ({[]: 1}).a }}{% endif %}{% endautoescape %}ok", {}, "no folding in a volatile eval context"),
    # CondExpr.as_const without else and a false test is Impossible: "we better do that at runtime"
    ("condexpr-no-else-not-folded", "{% set v = (1 if 100000000000000000000[1:-1])|length %}{{ v }}", {}, "exact: the folded test is an Undefined, so the conditional runs and the int's slice raises (the package folded it to an Undefined, length 0)"),
    ("condexpr-no-else-not-folded-concat", "{{ (1 if 3[1:2]) ~ 'a' }}", {}, "exact: the same under ~"),
    ("condexpr-no-else-false-const", "{{ (1 if false)|length }}|{{ (1 if false) ~ 'a' }}|{{ (1 if 0) is defined }}", {}, "a constant false test: the Undefined at run time"),
    # a dict display evaluates every key and value before BUILD_MAP hashes the keys
    ("dict-display-order", "{{ {{'b': 1}: 1, nothere.x: 2} }}", {}, "exact: the UndefinedError of the second key comes before the first key's TypeError (the package hashed each pair at once)"),
    ("dict-display-order-value", "{{ {[]: 1, 'a': '}'.format(1)} }}", {}, "exact: ValueError: Single '}' encountered in format string, from a later value"),
    ("dict-display-unhashable", "{{ {'a': 1, []: 2, {}: 3} }}", {}, "exact: then the first unhashable key, in order"),
    # urlize reads trim_url_limit only for a link it makes, rel with str.split, extra_schemes with re.fullmatch
    ("urlize-limit-lazy", "{{ '0.1'|urlize(trim_url_limit=[1]) }}|{{ 'x http://abc.com y'|urlize(-3) }}|{{ 'x http://abc.com y'|urlize(2.5e20) }}|{{ 'http://a.co'|urlize(true) }}", {}, "no link, no error; a negative limit cuts from the end (the package refused a list, and took -3 for no limit)"),
    ("urlize-limit-list", "{{ 'x http://abc.com y'|urlize([1]) }}", {}, "exact: len(x) > limit"),
    ("urlize-limit-float", "{{ 'x http://abc.com y'|urlize(2.5) }}", {}, "exact: x[:limit]"),
    ("urlize-rel-list", "{{ 'x'|urlize(rel=['a']) }}", {}, "exact: (rel or '').split() (the package printed the str of the list)"),
    ("urlize-scheme-int", "{{ 'x'|urlize(extra_schemes=['ftp:', none]) }}", {}, "exact: _uri_scheme_re.fullmatch(None)"),
    # map, select and reject look the filter or test up in a dict
    ("map-name-unhashable", "{{ [1]|map(['0'])|list }}", {}, "exact: TypeError: unhashable type: 'list' (the package looked up the str of the list)"),
    ("map-name-int", "{{ [1]|map(1)|list }}", {}, "exact: No filter named 1."),
    ("map-name-undefined", "{{ [1]|map(nothere)|list }}", {}, "exact: with the hint for an undefined name"),
    ("select-name-unhashable", "{{ [1]|select({})|list }}", {}, "exact: TypeError: unhashable type: 'dict'"),
    ("reject-name-none", "{{ [{'a': 1}]|rejectattr('a', none)|list }}", {}, "exact: No test named None."),
    ("map-name-lazy", "{{ []|map(['0'])|list }}|{{ []|select({})|list }}", {}, "nothing is looked up for no item"),
    # a range of ints beyond 64 bits is refused, by name
    ("range-big-int", "{{ range(18446744073709551617, 5)|list }}", {}, "Python's range holds ints of any size (the package raised OverflowError, then refused it until issue 23's sixth round)"),
    ("range-slice-big-step", "{{ range(3)[9223372036854775808:100:9223372036854775808] }}", {}, "the slice's step is beyond 64 bits (the package printed a clamped step, then refused it until issue 23's sixth round)"),
    ("range-slice", "{{ range(3)[::2] }}|{{ range(10)[-2:1:-3] }}|{{ range(1, 20, 3)[2:] }}|{{ range(5)[::-1] }}|{{ range(5)[10:] }}", {}, "range slices as before"),
    ("range-huge-lazy", "{% for x in range(a) %}{{ loop.index }}{% break %}{% endfor %}|{{ range(a)|length }}|{{ 5 in range(a) }}", {"a": 9223372036854775807}, "Python's range is lazy (the package raised MemoryError, then refused it until issue 23's sixth round)", {"extensions": ["loopcontrols"]}),
    # \N{name} in a str literal: the package does not know Unicode's names
    ("str-escape-unicode-name", "{{ '\\N{BULLET}' }}|{{ '\\N{latin small letter a}' }}", {}, "Jinja2 decodes the escape with Python's unicode-escape codec; the package raised TemplateSyntaxError: unknown Unicode character name (until issue 23's sixth round, cases/exact6.json)"),
    # Markup.escape is a classmethod: markupsafe.escape of its argument
    ("markup-escape-method", "{{ ('x'|safe).escape('<a>') }}|{{ ('x'|safe).escape('<a>'|safe) }}|{{ ('x'|safe).escape(1.5) }}|{{ ('x'|safe).escape(nothere) }}|{{ ('x'|safe).escape(none) }}|{{ ('x'|safe).escape([1, '<']) }}|{{ ('x'|safe).escape }}", {}, "the package had no attribute escape on Markup"),
    ("markup-escape-method-args", "{{ ('x'|safe).escape() }}", {}, "exact: Markup.escape() missing 1 required positional argument: 's'"),
    ("str-escape-method", "{{ 'x'.escape('<a>') }}", {}, "exact: a str has none"),
    # xmlattr matches each key with a regex: a key that is no str is TypeError
    ("xmlattr-key-tuple", "{{ {(1, 2): 1}|xmlattr(true) }}", {}, "exact: _attr_key_re.search(key): expected string or bytes-like object, got 'tuple' (the package said ValueError: Invalid character)"),
    ("xmlattr-key-none", "{{ {none: 1}|xmlattr }}", {}, "exact: got 'NoneType'"),
    ("xmlattr-key-skipped", "{{ {1: none, 'a': 2}|xmlattr }}|{{ {'a'|safe: '<'}|xmlattr }}", {}, "a None value is skipped before the key is read"),
]


def main():
    handmade.write("fuzz7", "FuzzPython", "internal/jinja2/fuzz_python_test.go (FuzzPython)", FOUND)


if __name__ == "__main__":
    main()
