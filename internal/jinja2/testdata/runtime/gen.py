#!/usr/bin/env python3
"""Writes cases.json: templates rendered by Python's Jinja2 3.1, the
oracle of the runtime's tests (runtime_test.go).

Run from this directory: python3 gen.py
"""
import json
import jinja2
from jinja2.sandbox import ImmutableSandboxedEnvironment

CASES = []


def case(name, tmpl, vars=None, templates=None, check_msg=True, **opts):
    CASES.append(dict(name=name, template=tmpl, vars=vars or {}, templates=templates or {}, opts=opts, check_msg=check_msg))


# --- text, whitespace control, comments, raw
case("text", "hello")
case("trailing newline dropped", "a\n")
case("only one trailing newline dropped", "a\n\n")
case("keep trailing newline", "a\n", keep_trailing_newline=True)
case("crlf", "a\r\nb\rc")
case("comment", "a{# x #}b")
case("comment strip", "a  {#- x -#}  b")
case("var strip", "a  {{- 1 -}}  b")
case("block strip", "a \n {%- if true -%} \n b \n {%- endif %}")
case("plus keeps lstrip", "  {%+ if true %}x{% endif %}", lstrip_blocks=True)
case("trim_blocks", "{% if true %}\nx\n{% endif %}\ny", trim_blocks=True)
case("lstrip_blocks", "  {% if true %}\n  x\n  {% endif %}\ny", lstrip_blocks=True)
case("lstrip and trim", "<ul>\n    {% for i in [1,2] %}\n    <li>{{ i }}</li>\n    {% endfor %}\n</ul>", lstrip_blocks=True, trim_blocks=True)
case("lstrip comment", "  {# c #}\nx", lstrip_blocks=True)
case("lstrip not variable", "  {{ 1 }}", lstrip_blocks=True)
case("lstrip mid line", "a {% if true %}b{% endif %}", lstrip_blocks=True)
case("raw", "{% raw %}{{ x }}{% if %}{% endraw %}")
case("raw strip", "a {%- raw -%} {{ x }} {%- endraw -%} b")
case("trim comment", "{# c #}\nx", trim_blocks=True)
case("minus strips newlines", "x\n\n  {%- if true %}y{% endif %}")
case("unicode space strip", "a\u00a0{{- 'b' }}")

# --- literals and expressions (only what needs no filter)
case("string escapes", r"""{{ 'a\nb\t\'c\x41\u00e9\\' }}""")
case("adjacent strings", "{{ 'a' 'b' \"c\" }}")
case("ints", "{{ 1_000 }} {{ 0x1F }} {{ 0o17 }} {{ 0b101 }} {{ 00 }}")
case("floats", "{{ 1e3 }} {{ 1_000.5 }} {{ 2.5E-3 }} {{ 1.0 }}")
case("big int", "{{ 123456789012345678901234567890 }}")
case("name", "{{ name }}", {"name": "World"})
case("undefined prints empty", "[{{ nope }}]")
case("none true false", "{{ none }} {{ True }} {{ false }}")
case("arith", "{{ 1 + 2 * 3 }} {{ (1 + 2) * 3 }} {{ 7 // 2 }} {{ -7 // 2 }} {{ 7 % 3 }} {{ 2 ** 10 }} {{ 7 / 2 }}")
case("unary", "{{ -1 }} {{ +1 }} {{ - -1 }} {{ -2 ** 2 }}")
case("concat", "{{ 'a' ~ 1 ~ none }}")
case("concat precedence", "{{ 1 ~ 2 * 3 }}")
case("compare chain", "{{ 1 < 2 < 3 }} {{ 1 < 3 < 2 }} {{ 1 == 1.0 }} {{ 'a' != 'b' }}")
case("in", "{{ 1 in [1, 2] }} {{ 3 not in [1, 2] }} {{ 'b' in 'abc' }}")
case("and or not", "{{ 1 and 2 }} {{ 0 and 2 }} {{ 0 or 'x' }} {{ not 0 }} {{ not 1 or 2 }}")
case("condexpr", "{{ 'y' if x else 'n' }} {{ 'y' if not x else 'n' }}", {"x": True})
case("condexpr no else", "[{{ 'y' if false }}]")
case("nested condexpr", "{{ 1 if false else 2 if false else 3 }}")
case("list literal", "{{ [1, 'a', none, [2]] }} {{ [] }} {{ [1,] }}")
case("tuple literal", "{{ (1, 2) }} {{ (1,) }} {{ () }}")
case("dict literal", "{{ {'a': 1, 'b': [2]} }} {{ {} }}")
case("dict literal close braces", "{{ {'a': {'b': 1}}}}")
case("subscript", "{{ x[0] }} {{ x[-1] }} {{ d['k'] }} {{ d.k }} {{ x.1 }}", {"x": [1, 2, 3], "d": {"k": "v"}})
case("slice", "{{ x[1:] }} {{ x[:-1] }} {{ x[::2] }} {{ x[::-1] }} {{ s[1:3] }}", {"x": [1, 2, 3, 4], "s": "hello"})
case("attr of undefined", "{{ x.y }}")
case("attr missing prints empty", "[{{ d.nope }}]", {"d": {}})
case("attr of missing attr", "{{ d.nope.more }}", {"d": {}})
case("methods", "{{ 'a,b'.split(',') }} {{ ' x '.strip() }} {{ d.items() | list }}", {"d": {"a": 1}})
case("call star args", "{% macro f(a, b) %}{{ a }}{{ b }}{% endmacro %}{{ f(*[1, 2]) }}{{ f(**{'a': 3, 'b': 4}) }}{{ f(5, *[6]) }}")
case("string percent", "{{ '%s-%d' % ('a', 3) }}")
case("int plus str", "{{ 1 + 'a' }}")
case("div by zero", "{{ 1 / 0 }}")
case("undefined plus", "{{ x + 1 }}")
case("paren expr", "{{ (1) }}{{ ((((2)))) }}")
case("call undefined", "{{ nope() }}")
case("call non callable", "{{ x() }}", {"x": 1})

case("plus chain strs", "{{ 'a' + x + 'c' }}", {"x": "<b>"})
case("plus chain ints first", "{{ 1 + 2 + 3 }}")
case("plus chain type error", "{{ 'a' + 'b' + 1 }}")
case("plus chain error order", "{{ 'a' + 1 + nope.x }}")
case("plus chain autoescape", "{{ 'a' + x + 'c' }}", {"x": "<b>"}, autoescape=True)
# x + k, x - k and x % k of a variable and an int constant (the int fast
# path): at the int64 edges, and with an operand that is no int.
case("int const arith edges", "{{ x + 9223372036854775807 }} {{ x - 1 }} {{ x - -9223372036854775807 }} {{ x - (-9223372036854775807 - 1) }} {{ y - 9223372036854775807 }}",
     {"x": 9223372036854775807, "y": -9223372036854775807})
case("int const mod", "{{ x % 3 }} {{ y % 3 }} {{ x % 1 }} {{ y % 9223372036854775807 }} {{ f % 2 }} {{ f + 1 }} {{ f - 1 }}",
     {"x": 7, "y": -7, "f": 2.5})
case("int const arith of a str", "{{ s - 1 }}", {"s": "a"})
case("int const mod of a str", "{{ s % 2 }}", {"s": "%d"})
case("plus chain markup", "{{ '<b>'|safe + '<i>' + x }}", {"x": "&"}, autoescape=True)
case("concat markup", "{{ x|safe ~ '<i>' ~ 1 }}", {"x": "<b>"}, autoescape=True)
# Jinja2 folds a concatenation of constants at compile time into a plain str,
# Markup lost: the runtime does not fold, so it keeps the Markup.
# case("concat markup constant", "{{ '<b>'|safe ~ '<i>' }}", autoescape=True)
case("concat plain autoescape", "{{ '<b>' ~ 1 ~ none }}", autoescape=True)
case("concat undefined attr", "{{ 'a' ~ nope.x }}")

# --- if
case("if", "{% if x %}yes{% endif %}", {"x": 1})
case("if else", "{% if x %}yes{% else %}no{% endif %}", {"x": 0})
case("elif", "{% for i in [1,2,3] %}{% if i == 1 %}a{% elif i == 2 %}b{% else %}c{% endif %}{% endfor %}")
case("if tuple", "{% if 1, %}t{% endif %}")
case("if undefined", "{% if nope %}x{% else %}y{% endif %}")
case("if leaks set", "{% if true %}{% set q = 3 %}{% endif %}{{ q }}")

# --- for
case("for", "{% for i in x %}{{ i }},{% endfor %}", {"x": [1, 2, 3]})
case("for dict", "{% for k in d %}{{ k }}{% endfor %}", {"d": {"b": 1, "a": 2}})
case("for items", "{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}", {"d": {"b": 1, "a": 2}})
case("for string", "{% for c in 'abc' %}{{ c }}-{% endfor %}")
case("for else", "{% for i in [] %}x{% else %}empty{% endfor %}")
case("for else undefined", "{% for i in nope %}x{% else %}empty{% endfor %}")
case("for loop vars", "{% for i in [1,2,3] %}{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}{{ loop.revindex0 }}{{ loop.first }}{{ loop.last }}{{ loop.length }}{{ loop.depth }}{{ loop.depth0 }}|{% endfor %}")
case("for previtem nextitem", "{% for i in [1,2,3] %}[{{ loop.previtem }}/{{ loop.nextitem }}]{% endfor %}")
case("for cycle", "{% for i in [1,2,3] %}{{ loop.cycle('a', 'b') }}{% endfor %}")
case("for changed", "{% for i in [1,1,2,2,1] %}{% if loop.changed(i) %}{{ i }}{% endif %}{% endfor %}")
case("for filter", "{% for i in [1,2,3,4] if i is odd %}{{ loop.index }}:{{ i }} {% endfor %}")
case("for filter else", "{% for i in [1,2] if i > 5 %}x{% else %}none{% endfor %}")
case("for unpack", "{% for a, b in [[1,2],[3,4]] %}{{ a }}{{ b }}{% endfor %}")
case("for unpack few", "{% for a, b in [[1,2],[3]] %}{{ a }}{% endfor %}")
case("for unpack many", "{% for a, b in [[1,2,3]] %}{{ a }}{% endfor %}")
case("for scope", "{% set a = 'o' %}{% for i in [1,2] %}[{{ a }}]{% set a = i %}{{ a }}{% endfor %}{{ a }}")
case("for scope ctx", "{% for i in [1,2] %}[{{ x }}]{% set x = i %}{% endfor %}{{ x }}", {"x": 5})
case("for var does not leak", "{% for i in [1,2] %}{% endfor %}[{{ i }}]")
case("nested loops", "{% for i in [1,2] %}{% for j in 'ab' %}{{ loop.index }}{{ i }}{{ j }} {% endfor %}{{ loop.index }}|{% endfor %}")
case("outer loop", "{% for i in [1,2] %}{% set outer = loop %}{% for j in [1] %}{{ outer.index }}{{ loop.index }}{% endfor %}{% endfor %}")
case("for else scope", "{% set x = 5 %}{% for i in [] %}{% else %}{{ x }}{% set x = 1 %}{{ x }}{% endfor %}[{{ x }}]")
case("for else sees outer", "{% set i = 9 %}{% for i in [] %}{% else %}{{ i }}{% endfor %}")
case("break", "{% for i in [1,2,3,4] %}{% if i == 3 %}{% break %}{% endif %}{{ i }}{% endfor %}")
case("continue", "{% for i in [1,2,3,4] %}{% if i is even %}{% continue %}{% endif %}{{ i }}{% endfor %}")
case("break else", "{% for i in [1] %}{% break %}{% else %}e{% endfor %}")
case("recursive", "{% for a in x recursive %}<{{ a.n }}{% if a.c %}{{ loop(a.c) }}{% endif %}>{% endfor %}",
     {"x": [{"n": 1, "c": [{"n": 2, "c": [{"n": 3}]}]}, {"n": 4}]})
case("recursive depth", "{% for a in [[1,[2]]] recursive %}{{ loop.depth }}{% if a is iterable %}{{ loop(a) }}{% endif %}{% endfor %}")
case("loop undefined outside", "[{{ loop }}]")
case("cycle no args", "{% for i in [1] %}{{ loop.cycle() }}{% endfor %}")
case("iterate int", "{% for i in 3 %}{% endfor %}")
case("loop length filtered", "{% for i in range(10) if i > 6 %}{{ loop.length }}{% endfor %}")

# --- set, with, namespace
case("set", "{% set x = 1 %}{{ x }}")
case("set tuple", "{% set a, b = 1, 2 %}{{ a }}{{ b }}")
case("set unpack non iterable", "{% set a, b = 1 %}")
case("set overrides context", "{{ x }}{% set x = 1 %}{{ x }}", {"x": 5})
case("set block", "{% set b %}x{{ 1 }}y{% endset %}[{{ b }}]")
case("set block filter", "{% set b | upper %}abc{% endset %}{{ b }}")
case("set block scope", "{% set b %}{% set z = 1 %}{{ z }}{% endset %}[{{ z }}]{{ b }}")
case("namespace", "{% set ns = namespace(n=0) %}{% for i in [1,2,3] %}{% set ns.n = ns.n + i %}{% endfor %}{{ ns.n }}")
case("namespace non ns", "{% set x = 2 %}{% set x.a = 3 %}")
case("with", "{% with a = 1, b = 2 %}{{ a }}{{ b }}{% endwith %}[{{ a }}]")
case("with scope", "{% with a = 1 %}{% set b = 2 %}{{ a }}{{ b }}{% endwith %}[{{ a }}{{ b }}]")
case("with outer value", "{% set a = 5 %}{% with a = 1, b = a %}{{ a }}{{ b }}{% endwith %}")
case("do", "{% set l = [] %}{% do l.append(1) %}{{ l }}")
case("print", "{% print 1 %}{% print 'a' %}")

# --- macros and call blocks
case("macro", "{% macro m(a, b='d') %}[{{ a }}{{ b }}]{% endmacro %}{{ m(1) }}{{ m(1, 2) }}{{ m(b=3, a=4) }}")
case("macro default from arg", "{% macro m(a, b=a) %}{{ a }}{{ b }}{% endmacro %}{{ m(1) }}")
case("macro missing arg", "{% macro m(a) %}[{{ a }}]{% endmacro %}{{ m() }}")
case("macro varargs kwargs", "{% macro m(a) %}{{ a }}{{ varargs }}{{ kwargs }}{% endmacro %}{{ m(1,2,b=3) }}|{{ m() }}")
case("macro too many", "{% macro m(a) %}{% endmacro %}{{ m(1, 2) }}")
case("macro bad kw", "{% macro m(a) %}{% endmacro %}{{ m(1, b=2) }}")
case("macro reads global at call", "{% macro m() %}{{ y }}{% endmacro %}{% set y = 1 %}{{ m() }}{% set y = 2 %}{{ m() }}")
case("macro local shadow", "{% set x = 1 %}{% macro m() %}{{ x }}{% set x = 2 %}{{ x }}{% endmacro %}{{ m() }}{{ x }}")
case("macro recursion", "{% macro f(n) %}{% if n > 0 %}{{ n }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(3) }}")
case("macro in loop not visible", "{% for i in [1] %}{% macro m() %}{{ i }}{% endmacro %}{% endfor %}{{ m() }}")
case("macro context var", "{% macro m() %}{{ name }}{% endmacro %}{{ m() }}", {"name": "ctx"})
case("macro returns str", "{% macro m() %}a{% endmacro %}{{ m() ~ 'b' }}")
case("call block", "{% macro wrap() %}<{{ caller() }}>{% endmacro %}{% call wrap() %}inner{% endcall %}")
case("call block args", "{% macro each(xs) %}{% for x in xs %}{{ caller(x) }}{% endfor %}{% endmacro %}{% call(v) each([1,2]) %}[{{ v }}]{% endcall %}")
case("caller undefined", "{% macro m() %}{{ caller() }}{% endmacro %}{{ m() }}")
case("call block to non caller", "{% macro m() %}x{% endmacro %}{% call m() %}y{% endcall %}")
case("call not a call", "{% call foo %}{% endcall %}")
case("filter block", "{% filter upper %}abc{{ 'd' }}{% endfilter %}")
case("filter block chain", "{% filter upper|replace('A', 'x') %}abc{% endfilter %}")

# --- errors of the parser
case("unclosed for", "{% for x in y %}")
case("unknown tag", "{% foo %}")
case("stray endif", "{% endif %}")
case("nesting mistake", "{% for x in y %}{% endif %}")
case("missing end var", "{{ x")
case("bad paren", "{{ (1, 2 }}")
case("empty if", "{% if %}{% endif %}")
case("plus end", "{{ 1 + }}")
case("unknown filter", "{{ x|nofilter }}")
case("unknown filter in if", "{% if false %}{{ x|nofilter }}{% endif %}ok")
case("unknown filter in if taken", "{% if true %}{{ x|nofilter }}{% endif %}")
case("unknown filter after operand", "{% if true %}{{ nothere.x|nofilter }}{% endif %}")
case("unknown test after operand", "{% if true %}{{ nothere.x is notest }}{% endif %}")
case("unknown test in if taken", "{% if true %}{{ x is notest }}{% endif %}")
case("missing comment end", "{# abc")
case("missing raw end", "{% raw %}abc")
case("unexpected char", "{{ 1 ? 2 }}")
case("assign to const", "{% set 1 = 2 %}")
case("default after", "{% macro m(a=1, b) %}{% endmacro %}")
case("chained is", "{{ 1 is odd is odd }}")
case("line numbers", "a\nb\n{{ 1 +* 2 }}")
case("block hyphen", "{% block a-b %}{% endblock %}")
case("break outside loop", "{% break %}", check_msg=False)  # Python's own SyntaxError
case("extends twice", "{% extends 'a' %}{% extends 'a' %}", templates={"a": "A"})
case("loop unassignable", "{% for loop in [1] %}{% endfor %}")
case("caller param without default", "{% macro x(caller) %}{% endmacro %}ok")
case("caller param without default used", "{% macro x(caller) %}{{ caller() }}{% endmacro %}")
case("extends in for", "{% for i in [1] %}{% extends 'a' %}{% endfor %}", templates={"a": "A"})
case("block set after extends", "{% extends 'p' %}{% set x %}42{% endset %}", templates={"p": "[{{ x }}]"})
case("scoped block loop", "{% for i in 'ab' %}{% block b scoped %}{{ loop.index }}{{ i }}{% endblock %}{% endfor %}")
case("invalid kw syntax", "{{ f(a=1, 2) }}")

# --- include, import, extends
T = {
    "base": "<{% block title %}T{% endblock %}|{% block body %}B{% endblock %}>",
    "child": "{% extends 'base' %}{% block title %}C{{ super() }}{% endblock %}",
    "grandchild": "{% extends 'child' %}{% block body %}G{{ super() }}{% endblock %}",
    "inc": "[{{ x }}{{ y }}]",
    "macros": "{% macro hi(n) %}hi {{ n }}{% endmacro %}{% set val = 42 %}{% macro g() %}{{ val }}{{ name }}{% endmacro %}",
    "selfref": "{% block a %}A{% endblock %}{{ self.a() }}",
    "req": "{% block r required %}{% endblock %}",
    "usereq": "{% extends 'req' %}{% block r %}filled{% endblock %}",
    "setparent": "{% set v = 1 %}{% block b %}{{ v }}{% endblock %}",
}
case("extends", "{% extends 'base' %}{% block body %}X{% endblock %}", templates=T)
case("extends super", "{% extends 'child' %}", templates=T)
case("extends three", "{% extends 'grandchild' %}", templates=T)
case("extends ignores text", "{% extends 'base' %}outside{% block body %}X{% endblock %}", templates=T)
case("extends var", "{% extends p %}{% block body %}{{ 1 }}{% endblock %}", {"p": "base"}, templates=T)
case("extends child set", "{% extends 'setparent' %}{% set v = 2 %}", templates=T)
case("block inline", "a{% block x %}b{% endblock %}c")
case("block sees top set", "{% set v = 3 %}{% block x %}{{ v }}{% endblock %}")
case("block no loop var", "{% for i in [1] %}{% block x %}[{{ i }}]{% endblock %}{% endfor %}")
case("scoped block", "{% for i in [1,2] %}{% block x scoped %}[{{ i }}]{% endblock %}{% endfor %}")
case("self", "{% extends 'selfref' %}{% block a %}Z{% endblock %}", templates=T)
case("required missing", "{% extends 'req' %}", templates=T)
case("required filled", "{% extends 'usereq' %}", templates=T)
case("include", "{% set y = 2 %}{% include 'inc' %}", {"x": 1}, templates=T)
case("include loop var", "{% for x in [7] %}{% include 'inc' %}{% endfor %}", templates=T)
case("include without context", "{% include 'inc' without context %}", {"x": 1}, templates=T)
case("include missing", "{% include 'nope' %}", templates=T)
case("include ignore missing", "a{% include 'nope' ignore missing %}b", templates=T)
case("include list", "{% include ['nope', 'inc'] %}", {"x": 3}, templates=T)
case("import", "{% import 'macros' as m %}{{ m.hi(1) }} {{ m.val }}", templates=T)
case("import module global", "{% import 'macros' as m %}[{{ m.g() }}]", {"name": "N"}, templates=T)
case("import with context", "{% import 'macros' as m with context %}[{{ m.g() }}]", {"name": "N"}, templates=T)
case("from import", "{% from 'macros' import hi, val as v %}{{ hi(2) }} {{ v }}", templates=T)
case("from import missing", "{% from 'macros' import nope %}[{{ nope }}]", templates=T)
case("from import missing used", "{% from 'macros' import nope %}{{ nope() }}", templates=T)
case("from import underscore", "{% from 'macros' import _x %}", templates=T)
case("template not found", "{% include 'nope' %}")

# --- autoescape and sandbox
case("autoescape", "{{ s }}{{ s|safe }}{{ '<b>' }}", {"s": "<a href='x'>&"}, autoescape=True)
case("autoescape macro markup", "{% macro m() %}<b>{% endmacro %}{{ m() }}", autoescape=True)
case("autoescape block set", "{% set x %}<i>{% endset %}{{ x }}", autoescape=True)
case("autoescape tag", "{% autoescape true %}{{ '<' }}{% endautoescape %}{{ '<' }}")
case("generation tag without option", "{% generation %}x{% endgeneration %}")
case("sandbox append", "{% set l = [] %}{{ l.append(1) }}", sandbox=True)
case("sandbox append untaken", "{% set l = [] %}{% if false %}{{ l.append(1) }}{% endif %}ok", sandbox=True)
case("sandbox print method", "[{{ l.append }}]", {"l": []}, sandbox=True)
case("sandbox dict update", "{% do d.update({'a': 1}) %}", {"d": {}}, sandbox=True)

# --- more, mixed
case("call block defaults", "{% macro m() %}{{ caller(1) }}|{{ caller(1, 3) }}{% endmacro %}{% call(a, b=2) m() %}{{ a }}{{ b }}{% endcall %}")
case("call block reads loop", "{% macro m() %}[{{ caller() }}]{% endmacro %}{% for i in [1,2] %}{% call m() %}{{ i }}{{ loop.index }}{% endcall %}{% endfor %}")
case("nested call blocks", "{% macro a() %}a({{ caller() }}){% endmacro %}{% macro b() %}b({{ caller() }}){% endmacro %}{% call a() %}{% call b() %}x{% endcall %}{% endcall %}")
case("nested macro", "{% macro outer(x) %}{% macro inner(y) %}{{ x }}{{ y }}{% endmacro %}{{ inner(2) }}{% endmacro %}{{ outer(1) }}")
case("macro repr", "{% macro m() %}{% endmacro %}{{ m }}|{{ m is callable }}|{{ [m] }}")
# Macros are Funcs, which have no attributes yet: m.name, m.arguments, …
# case("macro attributes", "{% macro m(a, b) %}{{ varargs }}{% endmacro %}{{ m.name }} {{ m.arguments }} {{ m.catch_varargs }} {{ m.catch_kwargs }} {{ m.caller }}")
case("set in macro", "{% macro m() %}{% set x %}in{% endset %}{{ x }}{% endmacro %}{{ m() }}[{{ x }}]")
case("with in for", "{% for i in [1,2] %}{% with j = i * 10 %}{{ j }}{% endwith %}{% endfor %}")
case("revindex filtered", "{% for i in range(6) if i is even %}{{ loop.revindex }}{% endfor %}")
case("tests misc", "{{ x is not none }} {{ 9 is divisibleby 3 }} {{ false is sameas false }} {{ 3 is ge(2) }} {{ 'a' is in 'abc' }}", {"x": 1})
case("ws combos", "a\n  {%- if true -%}\n  b\n  {%- endif -%}\n  c")
case("ws var newline", "x {{- 1 }}\n{{ 2 -}}\n y")
case("trim minus", "{% if true -%}\n\n x{% endif %}", trim_blocks=True)
case("lstrip minus", "  {%- if true %}x{% endif %}", lstrip_blocks=True)
case("raw lstrip trim", "  {% raw %}\n{{ x }}\n  {% endraw %}\ny", trim_blocks=True, lstrip_blocks=True)
case("comment lstrip trim", "a\n  {# c #}\nb", trim_blocks=True, lstrip_blocks=True)
case("escaped newline string", "{{ 'a\\nb' }}|{{ \"a\\\\nb\" }}")
case("filter star args", "{{ '%s-%s'|format(*[1, 2]) }}")
case("test parens", "{{ 3 is divisibleby(3) }}{{ (3 is odd) and (4 is even) }}")
case("is not in chain", "{{ 1 is number and 'a' is string }}")
case("getattr int key", "{{ x.0.1 }}", {"x": [[1, 2]]})
case("dict get default", "{{ d.get('k', 'z') }} {{ d.k }}", {"d": {"k": None}})
case("loop over items unpack", "{% for k, v in d|dictsort %}{{ k }}{{ v }}{% endfor %}", {"d": {"b": 2, "a": 1}})
case("loop changed multi", "{% for a, b in [(1,1),(1,1),(1,2)] %}{{ loop.changed(a, b) }}{% endfor %}")
case("range loop", "{% for i in range(1, 10, 3) %}{{ i }}{% endfor %}")
case("set in if in for", "{% for i in [1,2] %}{% if i == 2 %}{% set x = i %}{% endif %}[{{ x }}]{% endfor %}")
case("namespace in macro", "{% set ns = namespace(v=0) %}{% macro inc() %}{% set ns.v = ns.v + 1 %}{% endmacro %}{{ inc() }}{{ inc() }}{{ ns.v }}")
case("top set after macro use", "{% macro m() %}{{ a }}{% endmacro %}[{{ m() }}]{% set a = 1 %}[{{ m() }}]")
case("self outside inheritance", "{% block x %}X{% endblock %}{{ self.x() }}")
case("super no parent", "{% block x %}{{ super() }}{% endblock %}")
case("block in for scoped and not", "{% set v = 'top' %}{% for v in ['loop'] %}{% block b %}{{ v }}{% endblock %}{% endfor %}")
case("include sees macro", "{% macro m() %}M{% endmacro %}{% include 'usem' %}", templates={"usem": "{{ m() }}"})
case("import does not see caller vars", "{% set name = 'outer' %}{% import 'mod' as mod %}[{{ mod.f() }}]", templates={"mod": "{% macro f() %}{{ name }}{% endmacro %}"})
case("from import with context", "{% set name = 'outer' %}{% from 'mod' import f with context %}[{{ f() }}]", templates={"mod": "{% macro f() %}{{ name }}{% endmacro %}"})
case("include undefined name", "{% include nope %}")
case("include none", "{% include none %}")
case("include int", "{% include 1 %}")
case("include empty list", "{% include [] %}")
case("tuple target nested", "{% for (a, b), c in [((1, 2), 3)] %}{{ a }}{{ b }}{{ c }}{% endfor %}")
case("set nested tuple", "{% set (a, b), c = (1, 2), 3 %}{{ a }}{{ b }}{{ c }}")
case("loop in loop filter", "{% for i in [1,2,3] if loop is undefined %}{{ i }}{% endfor %}")
case("output of none", "{{ none }}|{{ [none] }}|{{ {'a': none} }}")
case("print multiple", "{% print 'a', 'b' %}")
case("autoescape false block", "{% autoescape false %}{{ '<' }}{% endautoescape %}", autoescape=True)
case("autoescape macro arg", "{% macro m(x) %}{{ x }}{% endmacro %}{{ m('<') }}", autoescape=True)
case("autoescape caller", "{% macro m() %}{{ caller() }}{% endmacro %}{% call m() %}<{{ '<' }}{% endcall %}", autoescape=True)
case("autoescape filter block", "{% filter upper %}<{{ '<' }}{% endfilter %}", autoescape=True)
case("autoescape include", "{% include 'inc' %}", {"x": "<"}, templates={"inc": "{{ x }}<"}, autoescape=True)


def render(c):
    opts = dict(c["opts"])
    env_opts = {k: opts.pop(k) for k in ("trim_blocks", "lstrip_blocks", "keep_trailing_newline", "autoescape") if k in opts}
    cls = ImmutableSandboxedEnvironment if opts.pop("sandbox", False) else jinja2.Environment
    env = cls(loader=jinja2.DictLoader(c["templates"]), extensions=["jinja2.ext.loopcontrols", "jinja2.ext.do"], **env_opts)
    try:
        return {"out": env.from_string(c["template"]).render(**c["vars"])}
    except Exception as e:  # noqa: BLE001
        name = type(e).__name__
        if name == "SyntaxError":  # Python's compile of a bad template (break outside loop)
            name = "TemplateSyntaxError"
        return {"error": name, "msg": str(e).split("\n")[0], "line": getattr(e, "lineno", None)}


out = []
for c in CASES:
    c.update(render(c))
    out.append(c)
env = jinja2.Environment()
doc = {
    "jinja2": jinja2.__version__,
    "builtin_filters": sorted(env.filters),
    "builtin_tests": sorted(env.tests),
    "builtin_globals": sorted(env.globals),
    "methods": sorted({m for t in (str, list, dict) for m in dir(t) if not m.startswith("_")}),
    "cases": out,
}
with open("cases.json", "w") as f:
    json.dump(doc, f, indent=1, ensure_ascii=False)
    f.write("\n")
