#!/usr/bin/env python3
"""Jinja2's frame scoping: a name a frame stores before it reads it.

    python3 convert/scoping.py     # -> cases/scoping.json

Jinja2's symbol analysis (idtracking.py) starts a name as missing in a
frame (VAR_LOAD_UNDEFINED, `l_0_x = missing`) when the first thing the
frame's own analysis sees of it is a store outside an if. A nested frame
(set block, filter block, loop body, with block, macro, call block,
autoescape tag) is analysed only when it is compiled, so its reads of
the name use the outer frame's variable: read before the store runs, the
name is undefined there, even when the context has it. A name read first,
or stored only inside an if, starts as the context's value; a name an
enclosing frame references at all starts as that frame's value. Every
case has b=1 (and others) in its context, so a read that gives the
context's value shows. Python's Jinja2 decides each expectation
(oracle.py).
"""
import handmade

P = "{{ b }}|{{ b is defined }}"
CTX = {"b": 1, "c": True, "xs": [1, 2]}

# (name, template, note[, loader])
CASES = [
    # each kind of nested frame reading a name the root stores later
    ("set-block", "{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}", "a set block's body"),
    ("set-block-attr", "{% set v %}{{ b.x }}{% endset %}{% set b = 2 %}", "UndefinedError: 'b' is undefined"),
    ("filter-block", "{% filter upper %}[{{ b }}]{% endfilter %}{% set b = 2 %}", "a filter block's body"),
    ("for-body", "{% for x in xs %}[{{ b }}]{% endfor %}{% set b = 2 %}", "a loop body"),
    ("for-else", "{% for x in [] %}{% else %}[{{ b }}]{% endfor %}{% set b = 2 %}", "a loop's else"),
    ("for-filter", "{% for x in xs if b is defined %}[{{ x }}]{% endfor %}{% set b = 2 %}", "a loop's filter"),
    ("with-body", "{% with a = 1 %}[{{ b }}]{% endwith %}{% set b = 2 %}", "a with block's body"),
    ("with-value", "{% with a = b %}[{{ a }}]{% endwith %}{% set b = 2 %}", "a with block's value is the root's load: the context's b"),
    ("macro", "{% macro m() %}[{{ b }}]{% endmacro %}{{ m() }}{% set b = 2 %}{{ m() }}", "a macro reads the root's variable when it is called"),
    ("macro-default", "{% macro m(x=b) %}[{{ x }}]{% endmacro %}{{ m() }}{% set b = 2 %}{{ m() }}", "a macro's default is in the macro's frame"),
    ("call-block", "{% macro m() %}{{ caller() }}{% endmacro %}{% call m() %}[{{ b }}]{% endcall %}{% set b = 2 %}", "a call block's body"),
    ("call-block-args", "{% macro m(x) %}[{{ x }}]{% endmacro %}{% call m(b) %}{% endcall %}{% set b = 2 %}", "a call block's call is the root's load"),
    ("autoescape", "{% autoescape true %}[{{ b }}]{% endautoescape %}{% set b = 2 %}", "an autoescape tag is a Scope"),
    ("nested-frames", "{% for x in [1] %}{% with %}{% set v %}[{{ b }}]{% endset %}{{ v }}{% endwith %}{% endfor %}{% set b = 2 %}", "frames in frames read the root's variable"),
    ("after-store", "{% set b = 2 %}{% set v %}{{ b }}{% endset %}[{{ v }}]", "after the store, the stored value"),
    ("set-block-self", "{% set b %}[{{ b }}]{% endset %}{{ b }}", "a set block stores its target first"),
    # what the root stores first: every kind of store
    ("store-for-later-set", "{% for x in xs %}[{{ b }}]{% endfor %}{% for b in xs %}{% endfor %}", "a root for's target is the loop's, not the root's: the context's b"),
    ("store-macro", "{% set v %}{{ b }}{% endset %}[{{ v }}]{% macro b() %}{% endmacro %}", "a macro's name is a store"),
    ("store-import", "{% set v %}{{ b }}{% endset %}[{{ v }}]{% import 'm' as b %}", "an import's name is a store", {"m": "x"}),
    ("store-from-import", "{% set v %}{{ b }}{% endset %}[{{ v }}]{% from 'm' import f as b %}", "a from-import's name is a store", {"m": "{% macro f() %}{% endmacro %}"}),
    ("store-tuple", "{% set v %}{{ a }}{{ b }}{% endset %}[{{ v }}]{% set a, b = 1, 2 %}", "a tuple target stores each name", ),
    ("store-set-block", "{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b %}2{% endset %}", "a set block's target is a store"),
    ("store-value-first", "{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = b + 1 %}{{ b }}", "a set's value is read before its target is stored: a load first"),
    ("store-namespace", "{% set v %}{{ ns }}{% endset %}[{{ v }}]{% set ns.x = 1 %}", "a namespace attribute's set loads the namespace"),
    # read first at the root: the context's value
    ("root-read-first", "[{{ b }}]{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}", "the root reads b first"),
    ("root-read-first-in-if", "{% if false %}{{ b }}{% endif %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}", "a read in a branch not taken is a load all the same"),
    ("root-read-in-test", "{% if b %}{% endif %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}", "an if's test is a load"),
    ("root-read-in-for-iter", "{% for x in b|string %}{% endfor %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}", "a for's iterable is the root's load"),
    # stored in an if: the context's value
    ("if-branch-taken", "{% set v %}{{ b }}{% endset %}[{{ v }}]{% if c %}{% set b = 2 %}{% endif %}{{ b }}", "a name stored in an if starts as the context's (branch_update)"),
    ("if-branch-not-taken", "{% set v %}{{ b }}{% endset %}[{{ v }}]{% if not c %}{% set b = 2 %}{% endif %}{{ b }}", "a branch not taken"),
    ("if-all-branches", "{% set v %}{{ b }}{% endset %}[{{ v }}]{% if c %}{% set b = 2 %}{% elif b %}{% set b = 3 %}{% else %}{% set b = 4 %}{% endif %}{{ b }}", "stored in every branch, still resolved"),
    ("if-after-store", "{% set b = 2 %}{% if c %}{% set b = 3 %}{% endif %}{% set v %}{{ b }}{% endset %}[{{ v }}]", "stored before the if"),
    ("if-nested-frame", "{% if c %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}{% endif %}", "the store is in an if at the root: resolved"),
    ("if-then-store", "{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}{% if c %}{% set b = 3 %}{% endif %}", "a store before the if decides"),
    # the same rule in nested frames
    ("for-store-later", "{% for x in xs %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = x %}{% endfor %}", "a loop body that stores b: each iteration starts missing"),
    ("for-store-later-outer-ref", "{{ b }}{% for x in xs %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = x %}{% endfor %}", "the root reads b: the loop's b starts as the root's"),
    ("for-store-later-outer-store", "{% set b = 5 %}{% for x in xs %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = x %}{% endfor %}", "the root stores b: the loop's b starts as the root's"),
    ("for-store-later-outer-if-ref", "{% if false %}{{ b }}{% endif %}{% for x in xs %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = x %}{% endfor %}", "a reference in a branch not taken counts"),
    ("for-store-in-if", "{% for x in xs %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% if x %}{% set b = x %}{% endif %}{% endfor %}", "stored in an if of the loop: resolved"),
    ("for-filter-store", "{% for x in xs if b is defined %}{% set b = x %}[{{ x }}]{% endfor %}", "the loop's filter is a frame of its own"),
    ("macro-store-later", "{% macro m() %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}{% endmacro %}{{ m() }}", "a macro that stores b"),
    ("macro-store-later-param", "{% macro m(b) %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}{% endmacro %}{{ m(7) }}", "a parameter is no store: the argument"),
    ("macro-store-later-root-ref", "{% macro m() %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}{% endmacro %}{{ m() }}{{ b }}", "the root reads b: the macro's b starts as the root's"),
    ("call-block-store-later", "{% macro m() %}{{ caller() }}{% endmacro %}{% call m() %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}{% endcall %}", "a call block that stores b"),
    ("with-store-later", "{% with %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}{% endwith %}", "a with block that stores b"),
    ("filter-block-store-later", "{% filter upper %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}{% endfilter %}", "a filter block that stores b"),
    ("autoescape-store-later", "{% autoescape false %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}{% endautoescape %}{{ b }}", "an autoescape tag that stores b; nothing leaks out"),
    ("autoescape-value-ref", "{% autoescape b is defined %}{% for x in [1] %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}{% endfor %}{% endautoescape %}", "the tag's value references b in the Scope's frame"),
    ("set-block-store-later", "{% set w %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}{% endset %}{{ w }}", "a set block that stores b"),
    ("block-no-parent", "{% block k %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% endblock %}{% set b = 2 %}", "a block is a frame without a parent: it resolves from the context"),
    ("block-store-later", "{% block k %}{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}{% endblock %}", "a block that stores b"),
    ("global-name", "{% set v %}{{ range is defined }}{% endset %}[{{ v }}]{% set range = 2 %}", "a global's name the root stores later is missing too"),
    # a macro's parameter the call does not give is missing while the defaults run
    ("macro-default-reads-itself", "{% macro m(a=[{'a': 1, 'b': {'c': 2}}]|sum(attribute=a)) %}{{ a }}{% endmacro %}{{ m() }}", "UndefinedError: the default reads the parameter itself, an Undefined (FuzzPython)"),
    ("macro-default-reads-later", "{% macro m(a=b, b=2) %}[{{ a }}|{{ b }}]{% endmacro %}{{ m() }}{{ m(b=3) }}{{ m(a is defined) }}", "a default reads a later parameter: given, or missing"),
    ("macro-default-reads-itself-again", "{% macro m(a=a) %}[{{ a is defined }}]{% endmacro %}{{ m() }}{{ m(5) }}{{ m() }}", "not the context's a, nor the last call's"),
    # a set block's and a filter block's filter run in the block's frame
    ("filter-block-filter-frame", "{% filter replace('1', b) %}{{ b }}{% set b = 'x' %}1{% endfilter %}", "the filter sees what the body stored"),
    ("filter-block-filter-missing", "{% filter replace('1', b is defined) %}1{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 'x' %}{% endfilter %}", "the body's b starts missing; the filter runs after the store"),
    ("set-block-filter-frame", "{% set v | replace('1', b) %}{% set b = 'x' %}1{% endset %}{{ v }}|{{ b }}", "the filter sees what the body stored; nothing leaks out"),
    # included and imported templates: the rule in their own root
    ("include-store-later", "{% include 'p' %}", "an included template's root", {"p": "{% set v %}{{ b }}{% endset %}[{{ v }}]{% set b = 2 %}"}),
    ("include-inside-frame", "{% set v %}{% include 'p' %}{% endset %}[{{ v }}]{% set b = 2 %}", "a missing local is not passed to an include: it sees the context's", {"p": P}),
    ("include-in-loop", "{% for x in [1] %}{% include 'p' %}{% endfor %}{% set b = 2 %}", "the same from a loop", {"p": P}),
    ("import-store-later", "{% import 'm' as lib %}{{ lib.m() }}|{{ lib.v }}", "an imported module's root", {"m": "{% macro m() %}[{{ b }}]{% endmacro %}{% set v %}{{ b is defined }}{% endset %}{% set b = 2 %}"}),
    ("import-with-context", "{% import 'm' as lib with context %}{{ lib.m() }}|{{ lib.v }}", "with context: the module's own frame decides", {"m": "{% macro m() %}[{{ b }}]{% endmacro %}{% set v %}{{ b }}{% endset %}{% set b = 2 %}"}),
    ("from-import-macro", "{% from 'm' import m %}{{ m() }}", "a macro of a module reads the module's variable", {"m": "{% macro m() %}[{{ b }}]{% endmacro %}{{ m() }}{% set b = 2 %}"}),
    # what an include, a with-context import and a scoped block are given
    # of the frames around them (dump_local_context): every stored local
    # but the missing ones, so a local holding an Undefined hides the
    # context's value (new_context filters only `missing`)
    ("include-undefined-local-root", "{% set b = nothere %}{% include 'p' %}", "an Undefined stored at the root", {"p": P}),
    ("include-undefined-local-loop", "{% for x in [1] %}{% set b = nothere %}{% include 'p' %}{% endfor %}", "an Undefined stored in a loop", {"p": P}),
    ("include-defined-local-loop", "{% for x in [1] %}{% set b = 2 %}{% include 'p' %}{% endfor %}", "a value stored in a loop", {"p": P}),
    ("include-missing-local-loop", "{% for x in [1] %}{% include 'p' %}{% set b = 2 %}{% endfor %}", "missing in the loop: the context's", {"p": P}),
    ("include-missing-outer-loop", "{% for x in [1] %}{% for y in [2] %}{% include 'p' %}{% endfor %}{% set b = 2 %}{% endfor %}", "missing in the outer loop", {"p": P}),
    ("include-missing-alias-set", "{% for x in [1] %}{% for y in [1] %}{% set c = b %}{% include 'p2' %}{% endfor %}{% set b = 3 %}{% endfor %}", "a missing value read and stored is an Undefined", {"p2": "{{ c is defined }}"}),
    ("include-missing-set-block-copy", "{% set v %}{% set c = b %}{% include 'p2' %}{% endset %}[{{ v }}]{% set b = 2 %}", "a set block's copy of the root's missing b", {"p2": "{{ c is defined }}"}),
    ("include-missing-filter-block-copy", "{% filter upper %}{% set c = [b][0] %}{% include 'p2' %}{% endfilter %}{% set b = 2 %}", "a filter block's copy of the root's missing b", {"p2": "{{ c is defined }}"}),
    ("include-undefined-loop-target", "{% for b in [nothere] %}{% include 'p' %}{% endfor %}", "a loop target holding an Undefined", {"p": P}),
    ("include-undefined-with", "{% with b = nothere %}{% include 'p' %}{% endwith %}", "a with target holding an Undefined", {"p": P}),
    ("include-undefined-local-macro", "{% macro m() %}{% set b = nothere %}{% include 'p' %}{% endmacro %}{{ m() }}", "an Undefined stored in a macro", {"p": P}),
    ("include-missing-local-macro", "{% macro m() %}{% include 'p' %}{% set b = 2 %}{% endmacro %}{{ m() }}", "missing in a macro: the context's", {"p": P}),
    ("include-defined-local-macro", "{% macro m() %}{% set b = 2 %}{% include 'p' %}{% endmacro %}{{ m() }}", "a value stored in a macro", {"p": P}),
    ("include-macro-param-not-given", "{% macro m(b) %}{% include 'p' %}{% endmacro %}{{ m() }}|{{ m(3) }}", "a parameter not given is an Undefined", {"p": P}),
    ("include-missing-macro-arg", "{% for x in [1] %}{% macro m(c) %}{% include 'p2' %}{% endmacro %}{% for y in [1] %}{{ m(b) }}{% endfor %}{% set b = 2 %}{% endfor %}", "a missing value passed to a macro is an Undefined", {"p2": "{{ c is defined }}"}),
    ("include-undefined-local-set-block", "{% set w %}{% set b = nothere %}{% include 'p' %}{% endset %}[{{ w }}]", "an Undefined stored in a set block", {"p": P}),
    ("include-missing-local-set-block", "{% set w %}{% include 'p' %}{% set b = 2 %}{% endset %}[{{ w }}]", "missing in a set block: the context's", {"p": P}),
    ("include-resolved-undefined-loop", "{% for x in [1] %}{% if false %}{% set zz = 2 %}{% endif %}{% include 'pz' %}{% endfor %}", "stored only in an if: resolved from the context, which lacks it", {"pz": "{{ zz is defined }}"}),
    ("import-undefined-local-loop", "{% for x in [1] %}{% set b = nothere %}{% import 'm' as lib with context %}{{ lib.v }}{% endfor %}", "an Undefined stored in a loop, imported with context", {"m": "{% set v %}{{ b }}|{{ b is defined }}{% endset %}"}),
    ("import-missing-local-loop", "{% for x in [1] %}{% import 'm' as lib with context %}{{ lib.v }}{% set b = 2 %}{% endfor %}", "missing in the loop: the context's", {"m": "{% set v %}{{ b }}|{{ b is defined }}{% endset %}"}),
    ("import-defined-local-loop", "{% for x in [1] %}{% set b = 2 %}{% import 'm' as lib with context %}{{ lib.v }}{% endfor %}", "a value stored in a loop", {"m": "{% set v %}{{ b }}|{{ b is defined }}{% endset %}"}),
    ("from-import-undefined-local-macro", "{% macro g() %}{% set b = nothere %}{% from 'm' import f with context %}{{ f() }}{% endmacro %}{{ g() }}", "an Undefined stored in a macro, from-imported with context", {"m": "{% macro f() %}{{ b }}|{{ b is defined }}{% endmacro %}"}),
    ("from-import-missing-local-macro", "{% macro g() %}{% from 'm' import f with context %}{{ f() }}{% set b = 2 %}{% endmacro %}{{ g() }}", "missing in a macro: the context's", {"m": "{% macro f() %}{{ b }}|{{ b is defined }}{% endmacro %}"}),
    ("scoped-block-undefined-local-loop", "{% for x in [1] %}{% set b = nothere %}{% block k scoped %}{{ b }}|{{ b is defined }}{% endblock %}{% endfor %}", "an Undefined stored in a loop, in a scoped block"),
    ("scoped-block-missing-local-loop", "{% for x in [1] %}{% block k scoped %}{{ b }}|{{ b is defined }}{% endblock %}{% set b = 2 %}{% endfor %}", "missing in the loop: the context's"),
    ("scoped-block-defined-local-loop", "{% for x in [1] %}{% set b = 2 %}{% block k scoped %}{{ b }}|{{ b is defined }}{% endblock %}{% endfor %}", "a value stored in a loop"),
    ("scoped-block-undefined-local-set-block", "{% set w %}{% set b = nothere %}{% block k scoped %}{{ b }}|{{ b is defined }}{% endblock %}{% endset %}[{{ w }}]", "an Undefined stored in a set block"),
]


def main():
    found = [(name, tpl, CTX, note, {}, *rest) for name, tpl, note, *rest in CASES]
    handmade.write("scoping", "convert/scoping.py", "internal/jinja2/testdata/oracle/convert/scoping.py", found)


if __name__ == "__main__":
    main()
