// Package jinja2 is the project's one implementation of Python's Jinja2 3.1
// template language: a template renders byte for byte as Jinja2 renders it,
// or fails where Jinja2 raises, with an *Error naming the construct, the
// template, line and column.
//
// A template is lexed, parsed into a syntax tree (which check and the
// language server read) and compiled once into closures over slots; a
// compiled Template is safe for concurrent use. Values follow Python's
// semantics: arbitrary-size integers, floor division and modulo signs,
// floats printed as Python prints them, str and repr exactly as Python
// writes them, % formatting and str.format, and the str, list and dict
// methods templates call.
//
// An Env holds what Jinja2's Environment holds: whitespace options
// (TrimBlocks, LStripBlocks, KeepTrailingNewline), the loader that include,
// import and extends read through, autoescaping with a caller's escape
// function (the jinja engine escapes as markup, chat templates do not
// autoescape), the immutable sandbox's rules, extra filters, tests and
// globals, and the limits an untrusted template runs under (recursion
// depth, output size, loop iterations, string and list growth, the render
// context's deadline), each an error that names the limit.
//
// # Why one package of this size
//
// The package is about 21,000 lines of non-test code (November 2026), seven
// times the size the project allows a package without a reason. The reason is that it is
// one language, not several jobs: Python's values and their str and repr
// (numbers, str, bytes, lists, dicts, classes), % formatting and
// str.format, Jinja2's 54 filters, 39 tests and its globals, the str,
// list and dict methods, the lexer, parser and compiler. These share one
// value type and one render state whose layout the compiled closures read
// directly; a split into packages would export that representation to
// each of them, or put an interface call on every value a template
// touches, which the speed figures (docs/PERFORMANCE.md) do not allow.
// The files are grouped by prefix instead: values_* and str_* (Python's
// data model), filters_*, tests_*, globals_*, methods_*, lexer, parser and
// ast (the syntax tree), compile_* (closures) and runtime. It is internal:
// the jinja engine and chat templates are its only callers, and its API
// (api.go) is what they use.
package jinja2
