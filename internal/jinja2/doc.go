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
// # Values a Go callback receives
//
// A Filter, a Test, a global function (WithGlobal) and an embedding
// engine's hooks (ext.go) receive the render's values. A namespace, the
// loop variable, a macro or caller live in memory the Env hands to later
// renders (its pool's, or a Renderer's): a callback may read, call and
// change them while it runs, and keeps past its return only what it
// converted while it ran (ToStr, Iterate, the items of a list). Kept as
// they are, a namespace reads as empty once the render ends and holds a
// later render's names while that one runs, and a loop or a macro must
// not be used (TestCallbackKeepsValue). Values that came from the caller,
// and str, numbers, lists and dicts, stay what they are. Under the sandbox
// a list literal, and a dict literal of a template that cannot change one,
// is built once and shared by every render: a callback must not change a
// list or dict it did not make.
//
// # Why one package of this size
//
// The package is about 36,500 lines of non-test code (November 2026), ten
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
//
// # Map of the files
//
// The face callers use:
//
//	api.go              Env, Template, Render, Error, the options and limits
//	ext.go              an embedding engine's block tags, fixed calls, finalize
//	layout.go           variables passed by position (chat templates)
//	renderer.go         a Renderer: one render's reusable state
//	generation.go       Span: what {% generation %} blocks and the template's own text wrote
//	varies.go           Ctx.Varies, Renderer.Varied: a render's reads that may differ at the next
//	slab.go, values_mem.go  lists and dicts in memory the caller keeps
//	doc.go              this overview
//
// Reading a template (jinja2/lexer.py, parser.py, nodes.py):
//
//	lexer.go            tokens, with the whitespace options
//	unicode_names.go, unicode_names_gen.go  \N{name} in str literals: Python's names
//	parser.go           the syntax tree from the tokens
//	parser_chain.go     chains of links too long for the Python code Jinja2 compiles
//	ast.go              the nodes, each with its place
//	walk.go             Walk over statements and expressions
//	walk_pairs.go       d.items() pairs and xs[::-1] a loop alone sees, made in the Ctx's room
//	intern.go           chat data's keys and roles shared with the host's constants
//
// Compiling it to closures (jinja2/compiler.py, idtracking.py):
//
//	compile.go          scopes, slots, the compiler's state
//	symbols.go          where a frame's name starts missing (idtracking.py)
//	compile_stmt.go     output, if, set, with, filter and autoescape blocks
//	compile_switch.go   an if chain on a loop item's field: branches written in place
//	compile_expr.go     expressions, calls, filters and tests
//	compile_for.go      for loops and loop
//	loop_dict.go        a loop stepping a dict (or a filtered one a list) its body may change, as Python
//	compile_alias.go    a loop body's set of its item's field, read where it is read
//	compile_macro.go    macros, caller, call blocks
//	compile_tmpl.go     extends, include, import
//	compile_fold.go     constant folding where Jinja2 folds
//	compile_kwrepeat.go a keyword named twice: Python's SyntaxError, or folded
//	compile_fast.go, compile_fast_cmp.go, compile_select.go
//	                    fast paths for what chat templates do on every message
//	compile_place.go, compile_into.go  values read where they lie, written into their slot
//	compile_arena.go    strs a render builds only to print, in its string arena
//	compile_append.go   a filter's append form: its str written into the output
//
// Running it (jinja2/runtime.py, sandbox.py):
//
//	runtime.go, runtime_needs.go  one render's state, counters and limits
//	padded.go           constant text of up to 16 bytes written as one store; a loop item's fields printed
//	ops.go              operators, truth, comparison, attribute and item lookup, slices
//
// Python's values (CPython's data model as templates see it):
//
//	value.go, values_core.go  the Value type and its kinds
//	values_num.go, values_pow.go  int and float arithmetic, x**y
//	values_num_dunder.go  int, bool and float dunders ((1).__add__(2)), NotImplemented
//	values_markup_dunder.go  Markup's own dunders (markupsafe's __html__, __add__, __mod__…)
//	values_markup_methods.go  Markup's str wrappers bound as Python functions, __getitem__, str.translate
//	values_proxy.go     a mappingproxy (a dict view's mapping): the dict, read-only
//	values_instdict.go  the __dict__ of a cycler or joiner: its state, live both ways
//	values_int_bytes.go  int.to_bytes and int.from_bytes
//	values_complex.go   complex numbers (a negative number to a fractional power)
//	values_dict.go, values_bytes.go, values_class.go, values_dunder.go
//	                    dicts, bytes, objects and classes, dunder attributes
//	values_bytes_methods.go  bytes' methods without arguments, bytes % without a conversion
//	codec_names_gen.go  Python 3.11's codec names (str.encode's LookupError)
//	values_bytes_args.go  bytes' methods with arguments (find, split, strip, replace, join, center…)
//	values_private.go   loop's and macros' private attributes (loop._length)
//	values_range.go     ranges beyond 64 bits or too long to build (lazyRange)
//	values_set.go       sets (d.keys() - x)
//	values_set_table.go, values_set_hash.go  CPython's set table and hashes (set order)
//	values_go.go        Go values converted (FromGo)
//	pysort.go           CPython's list.sort (timsort), comparison for comparison
//	values_needs.go     what the values use of the runtime
//	str_py.go, str_tables.go  str's methods' rules, Unicode tables
//	values_str_split.go x.split(sep)[0] and [-1]: the piece without the list
//	str_repr.go         str() and repr() as Python writes them
//	str_wtf8.go         lone surrogates (\ud83d), held as their three bytes
//	str_html.go         markupsafe's escaping
//	pyfmt.go, pyfmt_call.go  format specs, str.format and % formatting
//	json_append.go      tojson as Jinja2's htmlsafe_json_dumps writes it
//
// The built-ins (jinja2/filters.py, tests.py, defaults.py):
//
//	filters.go          the filters
//	filters_pprint.go, filters_urlize.go, filters_urlize_classes.go, filters_wrap.go
//	                    pprint, urlize, wordwrap
//	tests_builtin.go    the tests
//	pyfuncs.go          the Python functions the filters and tests are, by name
//	globals.go, globals_lipsum.go  range, dict, namespace, cycler, joiner, lipsum
//	methods.go, methods_str.go, methods_coll.go, methods_maketrans.go
//	                    the str, list and dict methods a template calls
package jinja2
