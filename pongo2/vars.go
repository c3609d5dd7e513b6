package pongo2

import "github.com/rolemark/rolemark/engine/driver"

// Vars lists the variables the template (with every file it includes,
// extends or imports) reads and does not bind itself, by first use; a name
// tested in an if condition or given a default filter is not in it. With
// driver.Config.AllowMissing it is empty.
func (c *compiled) Vars() []driver.Var {
	out := make([]driver.Var, 0, len(c.required))
	for _, r := range c.required {
		out = append(out, driver.Var{Name: r.name, Template: r.file, Line: r.line, Col: r.col, Call: r.call})
	}
	return out
}

// ReadVars lists every variable the template (with the files it loads)
// reads and does not bind, those tested in an if condition or given a
// default filter included, by first use in each file; rolemark's and
// pongo2's own names and the functions it calls are not in it.
func (c *compiled) ReadVars() []driver.Var {
	var out []driver.Var
	for _, v := range c.readVars() {
		if !v.Call && !builtins[v.Name] {
			out = append(out, v)
		}
	}
	return out
}
