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
package jinja2
