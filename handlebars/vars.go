package handlebars

import "github.com/rolemark/rolemark/engine/driver"

// Vars lists the top-level variables the template and its partials read
// outside #each and #with blocks (where a name reads the block's context,
// not the root), by first use. A variable tested by #if or #unless is not
// in it.
func (t *compiled) Vars() []driver.Var {
	var out []driver.Var
	seen := map[string]bool{}
	for _, v := range t.vars {
		if len(v.path) == 0 || seen[v.path[0]] {
			continue
		}
		seen[v.path[0]] = true
		out = append(out, driver.Var{Name: v.path[0], Template: v.template, Line: v.line, Col: v.col})
	}
	return out
}

// ReadVars lists what Vars lists and the paths of the data's root that #if
// and #unless test, and sections ({{#x}}…{{/x}}) open, which a render does
// not require, by first use.
func (t *compiled) ReadVars() []driver.Var {
	return append(t.Vars(), t.tested...)
}
