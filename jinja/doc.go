// Package jinja is rolemark's engine for Python's Jinja2 template language,
// named "jinja", for the extensions .jinja, .j2 and .jinja2:
//
//	set := engine.NewSet(jinja.New())
//	tpl, err := set.ParseFS(prompts, "loan.j2")
//	msgs, err := tpl.Messages(ctx, map[string]any{"question": q}, engine.History(h))
//
// The language is Jinja2 3.1's, as the project's one implementation of it
// (internal/jinja2) renders it byte for byte: {{ x|default('anon') }},
// {{ a ~ b }}, {{ x if y else z }}, loop.index and loop.last, is defined,
// |format, |map, .upper(), items[-1], s[-5:], {% raw %}, namespace(),
// macros, call and filter blocks, str, list and dict methods, and Python's
// numbers and str/repr. Teams who write pongo2's Django-flavoured dialect
// ({{ x|default:"anon" }}, forloop.Counter) use package pongo2 and .pongo2
// files instead.
//
// # Writing roles
//
// A template renders rolemark's markup (see package roleparse). A message
// can be written in three ways, freely mixed:
//
//	<message role="user" name="{{ who }}">{{ question }}</message>       literal tags
//	{{ role("user") }}{{ question }}                                    marker: runs until the next message
//	{% message "user" name=who %}{{ question }}{% endmessage %}          block tag
//	{% user name=who %}{{ question }}{% enduser %}                      also {% system %}, {% assistant %}
//
// and inside a message:
//
//	{{ history() }}                   the request's history (engine.History) as messages, here
//	{{ media(url, "image/png") }}     an <image>, <audio> or <file> part, by media type
//	{{ args|tojson }}                 a value as JSON (Jinja2's tojson), escaped like any value
//	{{ x|safe }}                      x inserted as markup, unescaped (dangerous; see below)
//
// role takes the role and, positionally or as keywords, name and
// tool_call_id: role("user", name=who), role("tool", tool_call_id=id),
// role("tool", "", id). The block tags take their arguments as a call
// does, without the parentheses: {% message "tool" tool_call_id=id %};
// {% user %}, {% system %} and {% assistant %} take name= and
// tool_call_id=. Empty attribute values are left out. The block tags are
// not Jinja2's: each compiles to Jinja2's call block, {% call
// message("user") %}…{% endcall %}, whose body is the message's text.
// When a template does not call history(), engine.Template puts the
// history before the last user message.
//
// # Markup functions and variables of the same name
//
// A call of the bare name role(…), history(…) or media(…) is always the
// markup function; the name read without a call is an ordinary variable.
// So a variable named role, user, system, assistant, history, media or
// message stays usable as data: {{ role }} prints the data's role, escaped,
// while {{ role("user") }} opens a user message, and {% user %}…{% enduser
// %} is the block while {{ user }} prints the variable. {{ role }} with no
// such variable in the data is a missing variable, not the function.
//
// # Escaping
//
// The security model is roleparse's: the template author is trusted, the
// data is not. Every value a {{ }} prints is escaped with
// roleparse.EscapeNumeric (Jinja2's autoescaping, with markupsafe's table:
// an escaped value the template goes on using is the string Jinja2 makes,
// and roleparse reads it back), whatever its type: strings, numbers, lists, dicts, the results
// of filters, methods and functions. A roleparse.Markup value in the data
// is escaped like any string. What is not escaped is what Jinja2 marks
// safe: the output of macros, call blocks and rolemark's markup functions
// and tags, |safe (the raw form, for trusted values only), and the result
// of a function given to Funcs whose result type is roleparse.Markup.
// A str given as indent's width is escaped too (Jinja2 marks it safe when
// the value is a macro's output). tojson's result is escaped too: Jinja2 writes < > & and ' as \u escapes
// and marks it safe, but leaves ", which would end an attribute's value.
// {% autoescape %} may only turn escaping on: {% autoescape false %}, or a
// value known only when the template runs, is a SecurityError where the
// template compiles, since |safe on a value is the one raw form.
//
// Values print as Jinja2 prints them (True, None, ['a', 1], {'k': None},
// 2.5, 3.0 for 1.5 + 1.5): nil is None, printed "None" as Python prints
// it, where the other engines print nothing. An optional input of the
// front matter that the caller leaves out is not there, as a keyword a
// Python caller does not pass: Jinja2's Undefined, which prints as
// nothing, is not defined, and takes the value of default. A whole
// float64 of the data below 2**53 is Python's int, as json.loads reads the
// JSON it most likely came from (encoding/json makes every number a
// float64: {"step": 1} is 1.0 in Go, and Step {{ step + 1 }} would print
// Step 2.0); any other float64 is a float, a float32 the float of its
// shortest form. A fmt.Stringer or an error in
// the data prints as its String or Error text, and a Go struct as Go prints it
// (its fields are attributes). A Go function in the data (at the top, in a
// map or a list, or in a struct's field) is callable, as a Python callable in a Jinja2
// context is; what it returns is data, escaped even when it is a
// roleparse.Markup (one that returns nothing returns None). It prints as
// <function> and tojson refuses it, as Python's json does. A channel or an
// unsafe.Pointer (not nil), which Python lacks, in a variable or in its
// maps, lists and structs' fields is the *engine.UnprintableError
// of every engine ("cannot print a value of type chan int"), at the
// variable's first use: the data is converted before the render, and
// printing it would have written None or its type.
//
// # Missing variables
//
// A name the template reads that nothing defines (not the data, not an
// assignment, not a global) is an *engine.MissingError naming it, where a
// render reads it, with the file, line and column: Jinja2's
// StrictUndefined, so a branch that does not run reports nothing, and the
// tests defined and undefined and the filter default accept such a name
// ({% if x is defined %}, {{ x|default('none') }}). A call of such a name is an
// *engine.UnknownFuncError. An optional input the front matter declares
// (note?: string) is such a name only where the caller gives it; left out,
// it is Jinja2's Undefined, and a call of it or an attribute of it is the
// *Error Jinja2 raises (UndefinedError: 'note' is undefined). With engine.AllowMissing every name is Jinja2's
// Undefined: it prints as nothing, and using it (an attribute, a call)
// fails as in Jinja2. Check (rolemark check) reads the variables from the
// syntax tree (driver.VarLister), the partials named with a literal
// included.
//
// # Partials
//
// include, import, from … import and extends read templates only from the
// file system the template was loaded from, with
// driver.Config.ReadPartial: from the template's directory up to the
// prompt directory's root, whichever file names them; a name without an
// extension is tried with the template's own extension, then .j2, .jinja
// and .jinja2, the partial file _NAME before NAME. Partials named by a
// string literal are read and compiled with the template, so a missing or
// broken one is an error of parsing; others when a render reaches them.
//
// # Errors
//
// Errors are *engine.Error values with the file, line and column the
// author wrote; a Jinja2 exception is an *Error inside it with Python's
// exception name and Jinja2's message ("TemplateSyntaxError: unexpected
// '}'", "ZeroDivisionError: division by zero"). Jinja2 gives only a
// line; the column is the failing node's: a call of a name or a method
// that fails itself (too few or too many arguments, an unknown keyword, an
// unknown function) at the name it calls (a method's after its dot, a
// call block's callee), as the other engines place theirs,
// and an error raised inside the callee where it was raised (a Go
// function's own error at the call's parenthesis). A message that
// counts characters ("unexpected char '\"' at 34") counts them in the
// body after the front matter, the text Jinja2 would be given. Macros,
// includes and recursive loops nest at most 100 deep (MacroDepth).
//
// # Speed
//
// A template of text and plain variables ({{ name }}) with literal roles
// renders straight to messages without running Jinja2 and without
// parsing markup, when every value is a string, a bool, a number or nil
// (the fast path, a roleparse.Skeleton); every other template runs the
// compiled Jinja2 program and parses its markup.
package jinja
