// Package gotmpl is rolemark's adapter for Go's text/template.
//
// A template writes messages three ways:
//
//	<message role="user">{{.question}}</message>              literal tags
//	{{role "user"}}{{.question}}                               marker: runs until the next marker
//	{{message "user" .question}}                               a whole message from values
//
// and uses these functions:
//
//	role ROLE [ATTR...]          opens a message; ATTR is (attr "name" .user) or (attr "tool_call_id" .id)
//	message ROLE VALUE... [ATTR...]  a whole message; each VALUE is escaped unless it is markup (media, raw)
//	attr KEY VALUE               an attribute for role or message
//	history                      the history passed with engine.History, as messages
//	media URL [MIMETYPE]         an image, audio or file part
//	raw VALUE                    VALUE inserted as markup, unescaped: trusted values only
//	json VALUE [INDENT]          VALUE as JSON text, escaped like any value
//
// A tool call's arguments are written from data with json:
// <tool_call id="c1" name="get_rate">{{json .args}}</tool_call>; the JSON is
// escaped like any value, so no value can close the tool call or the
// message. Funcs adds a caller's functions; one named like rolemark's or
// text/template's own is an error when a template is compiled (the same
// rule in every engine). A caller's function whose result type is
// roleparse.Markup writes markup, as in the other engines: an action whose
// last command calls it prints its result unescaped ({{myfunc .x}}, like
// raw). Any other result is escaped like any value.
//
// # Escaping
//
// Every action's output is escaped with roleparse.Escape whatever its type,
// as package roleparse's security model requires. The only output that is
// not escaped is template text and the result of an action whose last
// command is role, message, media, history, raw or a caller's function
// that returns roleparse.Markup: that function must be the last command of
// its pipeline ({{.x | raw}}); {{raw .x | printf "%s"}} is escaped again,
// and so is such a result printed through a variable or passed to message.
// A value is data whatever its Go type: a roleparse.Markup value in the
// data is escaped too, and only raw inserts it as markup.
//
// A nil value prints as empty, as in the other engines, where
// text/template would print "<no value>": before a render, every nil in the
// data's map[string]any and []any values (JSON null, a declared optional
// input not supplied) is replaced, in a copy, by a value that prints as
// empty, is false for if and with, and ranges over nothing. A nil in other
// types (a struct field, a typed map) prints as text/template prints it.
//
// # Rendering straight to messages
//
// engine.Template.Messages does not always render markup and parse it: when
// the compiler can show, from the template's shape, that the messages are
// those the markup with every value escaped would parse to, whatever the
// values (template text that fixes where every message starts and ends,
// each value printing in a message's text, control flow that only prints
// text), the template's markup is parsed once at compile time and values go
// straight into their message's text at render time. Other templates (a
// value inside a tag, a comment, a CDATA section or a part; history; raw;
// a caller's function that returns roleparse.Markup; AllowMissing; roleparse.Loose) render through markup as described above.
// When every action of such a template prints a field of the data
// ({{.name}}) and each of those fields holds a string, text/template itself
// is not run: the strings are what it would print. The messages are the
// same either way.
//
// # Missing variables
//
// A map key the data lacks is an error naming it (text/template's
// missingkey=error), unless the set was configured with
// engine.AllowMissing, when it prints as empty, from a map of any type
// (map[string]int too, as in the other engines): it is text/template's
// missingkey=default, a missing value, which is false, is equal to no
// other value (eq .counts.x 0 is false) and is JSON null. A field missing
// from a struct is always an error, as in text/template.
//
// # Partials
//
// {{template "name" .}} of a template the file does not define reads it
// with driver.Config.ReadPartial, the one resolver every engine uses:
// from the template's file system only, in the template's directory, then
// each parent up to the prompt directory (the directory engine.Set.LoadDir
// loads; a file parsed alone with ParseFS has its own directory), nearest
// first; in each, _NAME.tmpl, NAME.tmpl, _NAME.gotmpl, NAME.gotmpl, the
// template's own extension first (a .gotmpl file tries _NAME.gotmpl and
// NAME.gotmpl first; driver.PartialExts, the order of every engine); a
// name with an extension: _NAME, then NAME. A name with . or .. elements, an
// absolute name, and a symbolic link are refused.
//
// A render whose context is done stops at the next text or value it
// writes, with the context's error (errors.Is finds context.Canceled or
// context.DeadlineExceeded). What cannot be stopped: a loop that writes
// nothing, and a function that never returns.
package gotmpl
