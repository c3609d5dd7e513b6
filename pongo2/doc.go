// Package pongo2 is rolemark's adapter for github.com/flosch/pongo2/v6,
// for teams who write pongo2's Django-flavoured template syntax (which is
// not Python's Jinja2: {{ x|default:"anon" }}, forloop.Counter, no inline
// if, no loop.index). New returns a driver.Engine named "pongo2" that claims
// the extension .pongo2:
//
//	set := engine.NewSet(pongo2.New())
//	tpl, err := set.ParseFS(prompts, "loan.pongo2")
//	msgs, err := tpl.Messages(ctx, map[string]any{"question": q}, engine.History(h))
//
// # Writing roles
//
// A template renders rolemark's markup (see package roleparse). A message can
// be written in three ways, freely mixed:
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
//	{{ x|safe }}                      x inserted as markup, unescaped (dangerous; see below)
//
// Attributes: the message tag takes the role as its first argument (a string
// or any expression) and name=… and tool_call_id=… as keyword arguments; the
// system, user and assistant tags take name=…. pongo2 function calls take
// positional arguments only, so the marker is role(role), role(role, name)
// or role(role, name, tool_call_id), as in {{ role("tool", "", call_id) }}.
// Empty attribute values are left out. Tool calls are written as literal
// <tool_call id="…" name="…">{{ args|tojson }}</tool_call> parts: the
// tojson filter (tojson:2 indents by two spaces) writes a value as JSON, and
// its result is escaped like any value, so no value can close the tool call
// or the message. It is registered in pongo2's global filter registry with
// the tags, unless a filter of that name is already registered. When a template does
// not call history(), engine.Template puts the history before the last user
// message.
//
// Variables are the keys of the data that are identifiers (letters, digits,
// underscore); other keys cannot be named in a template and are left out
// (pongo2 would fail the render). Funcs adds functions to role, history and
// media; a function given to Funcs under one of those three names, or under
// a name starting with rolemark_, is an error when a template is compiled
// (the same rule in every engine).
//
// A variable may be named like a markup function or tag (role, user,
// system, assistant, history, media, message): a persona's role is
// ordinary prompt vocabulary. A call, role(…), history() or media(…), is
// always the function (the rewriter renames the call, so it reaches the
// function whatever the data holds); the bare name is the data's value,
// printed escaped like any other: {{ role }}, {% if role %}, role(role).
// When the data has no value of that name, the bare name is the function,
// as it was before: {{ history }} places the history. user, system,
// assistant and message are tags only right after {%, so {{ user }} is
// always the variable.
//
// # Escaping
//
// The security model is roleparse's: the template author is trusted, the
// data is not. Every value a template prints is escaped with roleparse's
// rules whatever its Go type: strings, numbers, booleans, nil, errors,
// fmt.Stringers, structs, slices, maps, pointers to any of these, and the
// results of functions, filters and macros, in message text and in attribute
// values alike. A value can therefore never open, close or forge a message,
// a part or an attribute. Values print as roleparse.EscapeValue prints them,
// the same in every rolemark engine (1.5, true; pongo2 alone would print
// 1.500000 and True).
//
// pongo2 v6 itself escapes only values of string kind (a fmt.Stringer is
// printed raw) and only while its global autoescape switch is on, and it
// offers no per-template-set setting. So rolemark does not rely on it: before
// pongo2 parses a template, rolemark rewrites every {{ expr }} into a tag of
// its own, {% rolemark_print expr %}, which evaluates expr as pongo2 would and
// escapes the result itself (in the spirit of html/template, which rewrites
// text/template's parse tree once at parse time). The rewriter follows
// pongo2's lexer exactly ({# #} comments, {% verbatim %}, string literals,
// {{- -}} whitespace control), and positions in errors are mapped back to the
// source the user wrote. The cost, measured on the shared 1.5 KB benchmark
// prompt while this adapter was the engine named jinja (docs/PERFORMANCE.md:
// BenchmarkRender/rolemark/jinja of that time against
// BenchmarkRender/raw/pongo2 of the bench module, medians of ten), was about
// raw pongo2's time (0.91–0.98 of it), with fewer allocations (21 against
// 44). BenchmarkRender/rolemark/jinja now measures the Jinja2 engine (package
// jinja); the bench module does not render this adapter.
//
// The raw forms, which insert markup unescaped, are: |safe anywhere in the
// filter chain (as in pongo2); a *Value of flosch/pongo2 marked safe
// (its AsSafeValue, the output of a macro or of block.Super, the result
// of role, history and media, and of a function given to Funcs that returns
// roleparse.Markup). A roleparse.Markup value in the data, or returned by a
// function in the data, is escaped like any value. Only the template
// author and the calling program can produce them: never use |safe on data.
// |escape is not needed and escapes a second time. {% filter … %} applies its
// filters to text that is already escaped.
//
// # What a template may not do
//
// These pongo2 tags and filters are refused at compile time with an error
// that says why: ssi (reads any local file), cycle (prints unescaped, keeps
// state in the parsed template, panics without arguments), ifchanged (keeps
// state in the parsed template: a data race between renders), firstof
// (escapes only while pongo2's global autoescape is on), autoescape
// (escaping cannot be turned off), lorem, center, ljust and rjust
// (unbounded output: {{ x|center:1000000000 }} allocates a gigabyte),
// truncatechars_html and truncatewords_html (return their input unescaped).
// A filter whose argument is required is refused without it, at its name:
// add, cut, date, time, default, default_if_none, divisibleby, get_digit,
// length_is, removetags, slice, split, stringformat, truncatechars,
// truncatewords, urlizetrunc and wordwrap ({{ x|truncatechars }} would print
// "" in pongo2 v6, {{ x|slice }} fail at render). Django refuses these too,
// but for date and time, which it formats with its settings' default; pongo2
// v6 has none and prints "" ({{ t|date }} of a time.Time).
// Not bounded: floatformat's precision ({{ f|floatformat:100000000 }}
// prints that many digits); compile only templates whose author you trust
// with the process's memory.
//
// include, extends and import read files with driver.Config.ReadPartial,
// the one resolver every engine uses: from the template's file system
// only, in the directory of the template being compiled, then each parent
// up to the prompt directory (the directory engine.Set.LoadDir loads; a file
// parsed alone with ParseFS has its own directory), nearest first. A name
// is looked up from there whichever file names it, as Jinja's own loaders
// look names up from their search path, not from the including file. In
// each directory, _NAME is tried before NAME ("x.pongo2" finds _x.pongo2
// first); a name without an extension is tried with .pongo2 (with the
// including template's own extension first, then .j2, .jinja and .jinja2,
// shortest first, for the jinja engine). A name
// with . or .. elements, an absolute name, and a symbolic link are refused,
// as is any name when the template was not loaded from a file system.
// An include must name its file with a string literal: pongo2 would load a
// computed name at render time, from whatever the data says. include … only
// is refused too: it would render the file without the render's context,
// which carries role, history, media and the macro depth limit (pass values
// with include … with instead). One compile
// loads at most 500 files, which bounds a template that includes itself
// (pongo2 parses static includes eagerly and has no cycle check).
//
// # Faults of pongo2 v6, and how they are bounded
//
//   - Panics ({{ 1/0 }}, {{ 5 % 0 }}, {% if l == l %} on slices or maps,
//     m[nil], a panicking function) are recovered in Compile and Execute and
//     returned as an *driver.Error wrapping an *driver.PanicError; a
//     function of the data is named in it by its variable, or below one by
//     its key or field (calling "f": panic: …, driver.PanickingFunc). The line
//     and column are those of the {{ }} being evaluated or of the tag that
//     evaluates expressions (if, for, set, with, ifequal, ifnotequal,
//     include, widthratio, filter) that began last: the rewriter puts a
//     position marker before each of those tags.
//   - {% comment %}…{% endcomment junk %} (anything between endcomment and %},
//     or an endcomment tag left open) makes pongo2 v6's parser loop forever.
//     The rewriter refuses any such endcomment tag, in the template and in
//     every file it loads, before pongo2 sees it; a second check looks for
//     it in the text pongo2 will read, wherever the rewriter thought it was
//     (in a string or in verbatim, which it may refuse needlessly).
//   - pongo2 v6's lexer takes a U+0001 character for the end of the input
//     (its EOF token kind is 1), so the rest of the file after one would be
//     dropped without an error. A template or included file holding U+0001
//     is refused at its position; data may hold it, since pongo2 does not
//     lex values.
//   - The rewriter must see the template as pongo2's lexer does, or a {{ }}
//     it did not rewrite is printed by pongo2 itself (a fmt.Stringer
//     unescaped) and a macro it did not guard can recurse until the process
//     dies. A comment ends at the first #} after its {#, so {#} opens a
//     comment ({#} {% verbatim %} #}{{ x }} prints x, escaped); rolemark
//     once read {#} as a whole comment (issue 23). After pongo2 parses,
//     Compile walks the parse tree and refuses a template that holds a
//     {{ }} pongo2 would print or a macro without the depth guard, so a
//     disagreement the tests have not found is a compile error, not an
//     unescaped value or a crash.
//   - A recursive macro overflows the goroutine stack, which kills the
//     process (recover cannot catch it). rolemark wraps the body of every
//     macro in a guard that counts the depth of macro calls per render and
//     fails the render beyond 100 (MacroDepth changes the limit). Recursion
//     is bounded at run time rather than refused at compile time because a
//     recursive macro with a base case is legitimate and a macro can reach
//     itself through a variable or an imported template.
//   - pongo2 parses and renders nested parentheses and block tags by
//     recursion: a million of them (a template of a few megabytes) overflow
//     the stack. A {{ }} or {% %} may hold at most 10,000 tokens and block
//     tags may nest 200 deep in one file; more is a compile error.
//   - TrimBlocks and LStripBlocks are never enabled: pongo2 v6 applies them
//     by rewriting the parsed tokens on every Execute (the text shrinks at
//     each render, and concurrent renders race). Use {%- and -%} instead.
//   - ExecutionContext.Shared is a nil map in pongo2 v6; no rolemark tag uses
//     it.
//
// A compiled template is safe for concurrent use: each template has its own
// pongo2 TemplateSet and loader, nothing is written to the parsed template
// after Compile, and all per-render state (the request for history(), the
// macro depth, a scratch buffer) travels in the pongo2 context built for
// that render.
//
// # Missing variables
//
// Unless engine.AllowMissing is set, a render fails with an *driver.Error
// wrapping an *driver.MissingError when the data lacks a variable the
// template uses, naming the variable and the file, line and column of its
// first use. pongo2 v6 resolves a missing name to an empty value and has no
// hook for lookups, so the check is static: after parsing, rolemark walks
// pongo2's parse tree (with reflect, read-only) of the template and of every
// file it includes, extends or imports, and collects the first segment of
// every variable path. A render checks those names against the data's keys
// before pongo2 runs. Where this cannot tell:
//
//   - Only the first segment is checked: {{ user.name }} requires user, but
//     a missing field, map key or index below it prints as empty.
//   - A name bound anywhere in the template ({% set %}, {% for %}, {% with
//     %}, macro names and arguments, {% import %}, include … with) is never
//     required, even where it is used outside the binding's scope.
//   - A name tested anywhere in an {% if %}/{% elif %} condition or in
//     {% ifequal %}/{% ifnotequal %}, or whose first filter is default or
//     default_if_none, is optional everywhere: that is how a template marks a
//     variable optional.
//   - A name used only in a branch that is not taken is still required.
//   - The names role, history, media, those given to Funcs, forloop, block
//     and pongo2 are provided by rolemark or pongo2 and never required.
//
// # Errors
//
// Every error from Compile and Execute is an *driver.Error naming the file
// the problem is in (the template, or the file it includes), with the line
// and the column in runes as the user wrote them; pongo2's messages are kept,
// with the innermost message and position when an error passes through
// macro calls. errors.As finds *driver.MissingError, *driver.PanicError and
// context errors (a render stops at the next {{ }} once its context is
// done).
//
// # The one global side effect
//
// pongo2 v6 keeps its tags in an unsynchronised package-level map; there are
// no per-set tags before v7. The first call of New registers rolemark's tags
// there, exactly once per process (guarded by a sync.Once): rolemark_print,
// rolemark_at, rolemark_tick, rolemark_macro, rolemark_message, rolemark_system, rolemark_user,
// rolemark_assistant and rolemark_widthratio. The tags users write (message, system, user,
// assistant and their end tags, and widthratio) are renamed to these by the rewriter, so
// rolemark adds no tag named message or user to other pongo2 templates of
// the program. Because pongo2 does not lock its registry, call New before
// other goroutines compile pongo2 templates (at program start, as one would
// call flosch/pongo2.RegisterTag from init). If another package already registered
// one of these names, every Compile of the engine returns that error.
// The same first call registers two filters in pongo2's global filter
// registry: rolemark_keys (see below), and tojson unless a filter of that
// name is already there; rolemark never calls flosch/pongo2.SetAutoescape.
//
// # Loops over maps
//
// A for loop over a Go map visits its keys in order (integers and floats
// by value, anything else by its text, as pongo2's sorted keyword orders
// them), as the jinja and gotmpl engines do, so that a prompt renders the
// same every time; pongo2 v6 alone takes Go's random map order. The
// rewriter adds sorted to a loop with two variables ({% for k, v in m %})
// and the filter rolemark_keys to the object of a loop with one ({% for k
// in m %}), which turns a map into the list of its keys and passes
// anything else through, so lists and strings keep their order. A loop
// whose object is an expression with operators ({% for k in a or b %})
// keeps pongo2's order.
package pongo2
