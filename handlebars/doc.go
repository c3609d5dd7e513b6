// Package handlebars is rolemark's Handlebars engine, an adapter for
// github.com/aymerick/raymond (Handlebars 3.0 syntax). New returns the
// engine; it is named "handlebars" and claims the extensions .hbs,
// .handlebars and .prompt (Dotprompt files). Front matter is read by
// package engine, which hands Compile the body with the front matter's
// lines left blank, so that lines keep their numbers.
//
//	set := engine.NewSet(handlebars.New())
//	tpl, err := set.ParseFS(prompts, "bank.hbs")
//	msgs, err := tpl.Messages(ctx, map[string]any{"input": "buy a house"})
//
// A template renders rolemark's markup, which package roleparse turns into
// messages. The security model is the one stated once in
// [github.com/rolemark/rolemark/roleparse] (section "Security model"): the
// template author is trusted, the data is not, and every value a template
// prints is escaped.
//
// # Writing roles
//
// Every style can be mixed with the others in one template.
//
//	<message role="user" name="{{who}}">…</message>    literal tags
//	{{role "user"}}…                                  marker: runs until the next message starts
//	{{role "tool" tool_call_id=id}}…                  (hash: name=, tool_call_id=)
//	{{#message role="user" name=who}}…{{/message}}    block (hash: role=, name=, tool_call_id=)
//	{{#system}}…{{/system}}                           blocks for system, user and assistant
//	{{#user name=who}}…{{/user}}                      (hash: name=; assistant also tool_call_id=)
//	{{history}}                                       the request's history, as markup
//	{{media url=u mimetype="image/png" detail="low"}} an <image>, <audio> or <file> part
//	{{{x}}}  {{&x}}                                   raw: x inserted unescaped (dangerous)
//
// Handlebars resolves a helper before data, so {{user}} would call the user
// helper. Used without a block and without arguments, the helpers role,
// message, system, user, assistant and media print the data value of their
// name instead, escaped: {{user}} is the variable user (the compiler rewrites
// it to {{[user]}}, a path raymond resolves as data only). Paths such as
// {{user.name}}, arguments such as name=user and {{#with user}} are data
// already. {{history}} is always the helper.
//
// Dotprompt's helpers are there too: {{role "model"}} (model is an alias of
// assistant), {{history}}, {{media url=… contentType=…}}, {{json v indent=2}}
// (JSON text, escaped), {{#ifEquals a b}} and {{#unlessEquals a b}}, and
// Dotprompt's render context: {{@state.count}}, {{@auth.email}} read the
// @-data a caller passes with engine.Data (driver.Request.Data); an
// @-variable that is neither passed nor raymond's own (@root, @index, @key,
// @first, @last) is an error naming it, unless AllowMissing is set or the
// file is a .prompt file, where it renders as empty, as in Dotprompt. A .prompt
// file's messages are made as Dotprompt makes them (package engine,
// docs/dotprompt.md).
// Dotprompt's {{section "name"}} renders nothing: in Dotprompt it leaves an
// empty placeholder part, which rolemark's markup has no form for; a caller's
// Funcs may define section to put something there.
//
// # Escaping
//
// raymond escapes the text of {{x}} by replacing & ' " < > with &amp;
// &apos; &quot; &lt; &gt;, whatever the value's Go type (numbers, structs,
// fmt.Stringers, errors: raymond prints the value, then escapes it). That is
// exactly what the markup needs: roleparse decodes the five references back,
// so a value can never open, close or forge a message, a part or an
// attribute (FuzzEscape and TestInjection hold this over
// testdata/hostile.json in 27 positions). rolemark's helpers escape their
// hash arguments themselves when they write attributes (raymond passes
// arguments to helpers unescaped), and return raymond.SafeString only for
// markup they built.
//
// What is inserted unescaped: the raw forms {{{x}}} and {{&x}}; a
// raymond.SafeString value in the data (only Go code can make one); the
// result of a helper from Funcs that returns raymond.SafeString or
// roleparse.Markup, or that is used as a block; and the result of a Go
// function in the data used as a section ({{#f}}…{{/f}}), which raymond
// treats as a block helper. Functions and SafeStrings in the data are the
// Go caller's code, trusted like Funcs; data decoded from JSON never holds
// either. A roleparse.Markup value in the data is escaped like any string
// (use {{{x}}} to insert it raw).
//
// Numbers print as in the other engines (roleparse.FormatValue: 1e+21,
// 1e-07, a float32 0.1 as 0.1): the compiler has every {{x}} print through
// a helper of its own, where raymond alone writes floats in full.
//
// Quirk of raymond kept as is: a value whose String or Error method has a
// pointer receiver, reached through a map or interface, prints as its
// struct fields ({…}), still escaped.
//
// {{#each}} over a Go map visits its entries in the order of their keys
// (strings by code point, numbers by value), as the jinja and gotmpl
// engines do, where raymond alone takes Go's random map order; the rest of
// #each is raymond's. A template with an #each that names a second block
// parameter ({{#each m as |value key|}}) keeps raymond's own #each, map
// order included, since only raymond's can set that parameter.
//
// # Partials
//
// {{> name}} reads a partial with driver.Config.ReadPartial, the one
// resolver every engine uses: from the template's file system only, in
// the template's directory, then each parent up to the prompt directory
// (the directory engine.Set.LoadDir loads; a file parsed alone with ParseFS
// has its own directory), nearest first; in each, _NAME.EXT before NAME.EXT,
// trying the template's own extension first and then the others shortest
// first (.hbs, .prompt, .handlebars; driver.PartialExts, the order of
// every engine). A name may hold slashes
// ({{> common/header}}); a name with . or .. elements, and a symbolic link,
// are refused.
// Partials used by partials are resolved the same way, relative to the
// template being compiled (raymond keeps one partial namespace per
// template). A partial is loaded, checked and parsed at compile time, and
// registered pre-parsed (raymond parses partials registered by source
// lazily, without a lock, on the first render: a data race). A missing
// partial, a partial name computed at render time ({{> (expr)}}), and a
// partial that includes itself, directly or through others, are compile
// errors: the compiler walks every partial reference, so recursion, which
// raymond turns into a fatal stack overflow, cannot happen.
//
// # What is checked
//
// Compile walks the template's tree once and rejects, with the template (or
// partial file), line and column:
//
//   - syntax errors (raymond reports a line only; rolemark a line and column);
//   - a call of an unknown helper: an expression with arguments or a hash,
//     {{foo "x"}}, {{#foo x}}…{{/foo}} or (foo x), whose name is neither one
//     of rolemark's helpers, nor a raymond built-in (if, unless, with, each,
//     equal, lookup), nor a Dotprompt helper, nor given with Funcs (raymond
//     would render it as empty). A bare {{foo}} or {{#foo}}…{{/foo}} is a
//     variable or a section and is not a call. A dotted path with
//     arguments, {{a.b "x"}}, is refused too: rolemark does not call
//     functions held in the data with arguments;
//   - the block helpers if, unless, with, each, equal, ifEquals,
//     unlessEquals, message, system, user and assistant used without a block
//     ({{if x}}, (each xs), {{user name="x"}}): raymond would run the
//     enclosing block again from inside itself, endless recursion and a
//     fatal stack overflow;
//   - the wrong number of arguments to a built-in helper, and to rolemark's
//     helpers, and hash keys they do not take (raymond renders some of these
//     as empty);
//   - role, media and history used as blocks or inside an expression, and
//     {{else}} inside a role block;
//   - the log helper (it writes to the process's standard logger);
//   - helpers given to Funcs that are not functions of one result or that
//     reuse the name of one of the helpers above.
//
// Execute checks, before running raymond, that every variable the template
// reads is present in the data, unless Config.AllowMissing is set (engine
// option AllowMissing). The error is an *driver.MissingError naming the path
// as written, inside an *driver.Error with the file, line and column of its
// first use. A variable is present when each part of its path resolves: a
// map key (present, even with a nil value), an exported struct field (first
// letter upper-cased, or a handlebars:"name" tag), a method, or a slice
// index in range. Checked: {{x}}, {{x.y}}, {{this.x}}, {{@root.x}},
// arguments and hash values of helpers (name=who), in the template and in
// partials included without a context argument, inside role blocks, and
// inside the branches of #if, #unless, the {{else}} of #each, #with and
// sections, and {{^x}}, where a variable is required only when its branch
// runs: the compiler records each branch's condition (a path from the root
// of the data) and Execute evaluates it with raymond's truthiness first, so
// {{#if extra}}Extra: {{extra}}{{/if}} does not require extra. A partial's
// variables are checked under the conditions of the first place that
// includes it.
//
// Not checked (a missing value renders as empty, as in Handlebars):
//
//   - paths inside #each, #with, a section {{#x}}…{{/x}}, a block with block
//     parameters (as |a b|) or a block helper from Funcs, because the context
//     there is not the root of the data (raymond also falls back to outer
//     contexts) — except @root paths, which are checked everywhere;
//   - ../ paths, raymond's own @data variables (@index, @key, @first, @last),
//     and the keys below a caller's @-variable (@state.count when state is
//     passed);
//   - partials included with a context or hash ({{> p ctx}}, {{> p a=b}});
//   - the condition itself of #if, #unless and sections, which may be absent
//     by design;
//   - paths in a branch whose condition cannot be evaluated before the
//     render: inside #equal, #ifEquals and #unlessEquals, and under an #if
//     whose condition is a subexpression, a literal, a ../ path, has
//     includeZero=, or goes through a method or a slice by name;
//   - a path through a method (its result is not inspected) or through a
//     slice by name (raymond maps the rest of the path over the items);
//   - literal-named paths such as {{"x"}}.
//
// # Faults
//
// raymond recovers only panics whose value is an error. Execute recovers
// every panic of a render — a string panic, a nil dereference in a helper
// or in a function held in the data — and returns it as an
// *driver.PanicError inside an *driver.Error; a function among the
// variables names itself in it (calling "f": panic: …), placed at the
// first use of the variable, as in every engine; one deeper in the data
// ({{obj.f}}, a struct's field) is named by its key or field once the
// render has panicked (driver.PanickingFunc) and placed at the first use
// of a path ending in that name (one used only as ../f or this.f is not
// placed), unless its panic value is an error, which raymond returns as
// the render's error. A helper that panics with an
// error value returns that error (errors.Is works). raymond's evaluation
// errors carry a byte offset, which rolemark turns into a line and column
// when the template uses no partials (with partials the offset may belong to
// a partial, so none is given). A render whose context is done stops at the
// next item of an #each or the next of rolemark's helpers, with the
// context's error. What cannot be stopped: a Go function in the data or in
// Funcs that never returns (and the loops of a template whose #each keeps
// raymond's, see #each above).
//
// raymond.Parse leaks its lexer goroutine (and the source it holds) on
// every parse that fails before the end of the source. rolemark never gives
// raymond a template that fails: it collects the lexer's tokens to the end
// (the lexer goroutine then exits) and parses them with its own parser,
// which follows raymond's grammar rule for rule (FuzzParse checks that both
// accept the same templates). Only a template that rolemark accepted reaches
// raymond.Parse, so failed compiles leave the goroutine count unchanged
// (TestNoGoroutineLeak: 1,000 failed compiles, no goroutine left). Were the
// two parsers ever to disagree, the bound is one goroutine per compile of
// that template, and the error says so.
//
// Nothing is registered in raymond's global helper or partial tables:
// helpers and partials are registered on each compiled template, and the
// state of a render (its context and *driver.Request, for {{history}})
// reaches helpers through raymond's private data frame (ExecWith). A
// compiled template is safe for concurrent use.
//
// Limits: blocks and subexpressions nest at most 256 deep (a compile
// error beyond), which bounds the recursion of both parsers and of raymond's
// evaluator. Printing cyclic Go data (a slice or map that contains itself)
// recurses without end in raymond and fmt and is not recovered (a fatal
// stack overflow); data decoded from JSON cannot be cyclic.
package handlebars
