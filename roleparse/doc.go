// Package roleparse reads and writes rolemark's message markup: the text every
// template engine renders, in which <message role="…">…</message> elements
// carry the messages of a chat.
//
//	<message role="system">You are a bank manager.</message>
//	<message role="user" name="alice">I want to buy a house</message>
//
// Parse turns markup into []chat.Message with a purpose-built scanner
// (ParseOwned does the same with markup it may decode in place, as the
// template engines hand it over), Escape makes any string safe to insert
// into markup, and Marshal writes messages back as canonical markup.
// CompileSkeleton compiles markup with holes for values, so that an engine
// renders a template of fixed text and plain values straight to messages,
// with what Parse would give, and no other package needs to know the
// grammar. docs/markup.md is the full reference.
//
// # Security model
//
// The template author is trusted; the data a template is rendered with is
// not. Every engine adapter escapes every value it inserts with Escape (or
// EscapeValue), so for any string s,
//
//	Parse(`<message role="user">` + Escape(s) + `</message>`)
//
// is one user message whose text is s, trimmed of literal ASCII whitespace at
// both ends: a value can never open, close or forge a message, a part or an
// attribute. The only way to insert a value unescaped is the engine's one
// explicit raw form ({{{x}}} in Handlebars, |safe in Jinja, raw in
// text/template); a Markup value in the data is escaped like any other.
// Fuzz tests hold this property.
package roleparse
