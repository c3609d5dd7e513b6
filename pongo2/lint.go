package pongo2

import (
	"fmt"
	"reflect"
	"strings"

	p2 "github.com/flosch/pongo2/v6"

	"github.com/rolemark/rolemark/engine/driver"
)

// Lint returns a problem for each call of a markup function (role, media,
// history) in the template and every file it includes, extends or
// imports whose number of arguments does not fit, at the function's name,
// in the words of the render's error: a render finds it only in a branch
// its data takes. Like verify, it walks pongo2 v6's nodes with reflect.
func (c *compiled) Lint() []*driver.Error {
	var out []*driver.Error
	walkNodes(c.tpl, func(name string, x reflect.Value) bool {
		if name == "variableResolver" {
			if e := c.lintCall(x); e != nil {
				out = append(out, e)
			}
		}
		return true
	})
	return out
}

// arityError is the error of a call of the markup function name with n
// arguments, nil when they fit.
func arityError(name string, n int) error {
	args := make([]*p2.Value, n)
	for i := range args {
		args[i] = p2.AsValue("x")
	}
	switch name {
	case "role":
		if n == 0 || n > 3 {
			_, err := roleFunc(args...)
			return err
		}
	case "media":
		if n == 0 || n > 2 {
			_, err := mediaFunc(args...)
			return err
		}
	case "history":
		if n != 0 {
			return fmt.Errorf("function input argument count (0) of 'history' must be equal to the calling argument count (%d)", n)
		}
	}
	return nil
}

// lintCall returns the problem of the variableResolver x, a call of a
// markup function whose arguments do not fit, or nil.
func (c *compiled) lintCall(x reflect.Value) *driver.Error {
	parts := x.FieldByName("parts")
	if parts.Len() == 0 {
		return nil
	}
	p := parts.Index(0).Elem()
	if p.FieldByName("typ").Int() != 1 || !p.FieldByName("isFunctionCall").Bool() { // varTypeIdent
		return nil
	}
	// the rewriter renames each call of a markup function it leaves as a
	// call: role( is rolemark_role(
	name, ok := strings.CutPrefix(p.FieldByName("s").String(), tagPrefix)
	if !ok {
		return nil
	}
	err := arityError(name, p.FieldByName("callingArgs").Len())
	if err == nil {
		return nil
	}
	e := &driver.Error{Template: c.name, Err: err}
	if tok := tokenOf(x.FieldByName("locationToken")); tok != nil {
		e.Template, e.Line, e.Col = c.place(tok.Filename, tok.Line, tok.Col)
	}
	return e
}
