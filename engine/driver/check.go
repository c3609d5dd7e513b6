package driver

import "fmt"

// Var is a variable a template reads from the top level of its data, where
// the template first reads it.
type Var struct {
	Name string
	// Template, Line and Col locate the first use (Template is the file
	// that holds it: the template itself or a partial).
	Template  string
	Line, Col int
	// Call says that the template calls it as a function.
	Call bool
}

// VarLister is implemented by a Compiled that can list, without rendering,
// the top-level variables its template reads: every one that a render with
// no data would report missing, in order of first use. Loop variables and
// names the template binds itself (with, set, macros) are not in it.
type VarLister interface {
	Vars() []Var
}

// ReadLister is implemented by a Compiled whose VarLister leaves out the
// variables a render does not require (a name tested by an if, or given a
// default): ReadVars lists those too, every top-level variable the
// template reads and does not bind, so that Check can report each that the
// input schema does not declare ({% if nmae %} is a misspelling as much as
// {{ nmae }} is). Functions it calls are not in it.
type ReadLister interface {
	ReadVars() []Var
}

// Linter is implemented by a Compiled that finds, in its syntax tree,
// mistakes that a render reports only where its data leads it: a markup
// function called with arguments that do not fit, in a branch the
// render does not take. Lint returns each, placed and worded as the
// render would report it; engine.Template.Check reports them all,
// before its render's problems.
type Linter interface {
	Lint() []*Error
}

// UnknownFuncError reports a function a template calls that neither the
// engine nor the data provides.
type UnknownFuncError struct {
	Name string
}

func (e *UnknownFuncError) Error() string {
	return fmt.Sprintf("unknown function %q", e.Name)
}
