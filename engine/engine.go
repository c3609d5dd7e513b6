// Package engine is what callers use: a Set of engines parses templates, and
// a Template renders markup and the chat messages it holds. What an engine
// adapter implements is in package engine/driver, as database/sql/driver is
// apart from database/sql.
//
//	set := engine.NewSet(handlebars.New(), jinja.New(), gotmpl.New())
//	tpl, err := set.ParseFS(prompts, "bank.hbs")
//	msgs, err := tpl.Messages(ctx, map[string]any{"input": "buy a house"})
//
// The security model is the one stated in package roleparse: the template
// author is trusted, the data is not, and every engine escapes every value it
// inserts.
//
// # Values of the data
//
// A value of the data prints as its contents: a string, number or bool as
// itself, a map, list or struct as the engine writes one (fmt's form, or
// Python's in jinja). In handlebars, pongo2 and gotmpl a value whose text
// would hold an address (a channel, a function, an unsafe.Pointer, or a
// pointer below the top of the printed value) is an *UnprintableError at
// the print, and an Error or String method that panics is a *PanicError
// there (driver.CheckPrint); jinja prints a struct holding a pointer as
// Python prints an object, without the address. In every engine a function
// of the data that panics when the template calls it is a *PanicError at
// the call that names it.
//
// # Prompt files
//
// A file may start with YAML front matter (FrontMatter): engine, model,
// config, tools, and the input and output schemas, which package
// engine/schema reads and checks. A .prompt file is a Dotprompt file: it is
// rendered into messages as Dotprompt renders it (the text before the first
// role marker is a user message, whitespace is kept, {{history}} opens a
// model message), and NAME.VARIANT.prompt is a variant of NAME (Variant,
// Dir.Variant). Test cases of a prompt live beside it (package engine/cases), and
// Template.Check finds a template's problems without data.
//
// # Partials
//
// Handlebars {{> name}}, Jinja's and pongo2's include, import and extends,
// and text/template {{template "name"}} of a name the file does not define
// read partials from the fs.FS the template was loaded from, and from
// nowhere else, all four with one resolver (driver.Config.ReadPartial): the template's directory
// first, then each parent directory up to a root, nearest first, and in
// each the partial file _NAME before NAME. Set.LoadDir's root is the
// directory it loads, so a partial at its top serves every subdirectory;
// Set.ParseFS's root is the file's own directory, so a file parsed alone
// sees only its neighbours (the PartialRoot option gives another). Names
// with . or .. elements, absolute names and symbolic links are refused.
package engine

import "github.com/rolemark/rolemark/engine/driver"

// Error is a problem in a template, at compile or render time: a
// driver.Error, so errors.As finds it whichever package names it. Line and
// Col are 1-based; zero means unknown. errors.As finds the cause through
// Unwrap, such as a *roleparse.Error for bad rendered markup.
type Error = driver.Error

// MissingError reports a variable that the template uses but the data does
// not supply.
type MissingError = driver.MissingError

// PanicError is a panic inside a template engine, returned as an error.
type PanicError = driver.PanicError

// UnprintableError is a print of a value whose text would be meaningless
// or unsafe (a channel, a function, an unsafe.Pointer, an address) at any
// depth; see driver.UnprintableError.
type UnprintableError = driver.UnprintableError

// DepthError is a variable whose maps and lists nest deeper than MaxDepth
// (a map or list that holds itself, most likely); see driver.DepthError.
type DepthError = driver.DepthError

// MaxDepth is how deep the maps and lists of a render's data may nest; see
// driver.MaxDepth.
const MaxDepth = driver.MaxDepth
