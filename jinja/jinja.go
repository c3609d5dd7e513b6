// Package jinja is rolemark's engine for Jinja templates, named "jinja",
// for the extensions .jinja, .j2 and .jinja2:
//
//	set := engine.NewSet(jinja.New())
//	tpl, err := set.ParseFS(prompts, "loan.j2")
//
// Until rolemark's Jinja2 engine lands, the language of these templates is
// pongo2's, Django-flavoured, not Python's Jinja2: New returns the pongo2
// adapter (package pongo2, which documents the syntax, the escaping and the
// limits) under the name "jinja". Its templates, messages and errors are
// those of package pongo2; only the engine's name, its extensions and the
// extensions a partial name without one is tried with (.j2, .jinja,
// .jinja2) differ. Teams that mean pongo2's syntax should name their files
// .pongo2 and use package pongo2, which stays when this engine becomes
// Jinja2.
package jinja

import "github.com/rolemark/rolemark/pongo2"

// Engine is the engine New returns: the pongo2 adapter named "jinja".
type Engine = pongo2.Engine

// Option configures the engine (see package pongo2).
type Option = pongo2.Option

// New returns the engine named "jinja", for the extensions .jinja, .j2 and
// .jinja2: pongo2.New with the given options under that name.
func New(opts ...Option) *Engine {
	return pongo2.New(append(opts[:len(opts):len(opts)], pongo2.As("jinja", ".jinja", ".j2", ".jinja2"))...)
}

// Funcs is pongo2.Funcs: functions every template may call.
func Funcs(funcs map[string]any) Option { return pongo2.Funcs(funcs) }

// MacroDepth is pongo2.MacroDepth: how deeply macros may call one another.
func MacroDepth(n int) Option { return pongo2.MacroDepth(n) }
