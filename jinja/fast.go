package jinja

import (
	"context"
	"slices"
	"strconv"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/jinja2"
	"github.com/rolemark/rolemark/roleparse"
)

// The fast path renders a template that is template text and plain
// variables ({{ name }}) straight to messages, without the Jinja2 runtime
// and without parsing markup: the text between the variables is fixed, so
// roleparse.CompileSkeleton parses it once, at compile time, and a render puts each
// value, unescaped, into the text of the message it prints in. It is what
// Execute and roleparse.Parse give, because:
//
//   - the syntax tree holds only text, {{ name }} of a name that is no
//     global (Jinja2's or a function of Funcs), rolemark's markup calls and
//     block tags with literal arguments, and nothing else (no partial, no
//     filter, no condition);
//   - the text between the values is taken from the engine's own render of
//     the template with a placeholder for each variable, and must hold the
//     placeholders in the order of the prints;
//   - at render time a value is used only when it is a string, a bool, an
//     integer, a float64 or nil, which it prints as Jinja2 does (None, True,
//     False) and escapes, and which roleparse decodes back; anything
//     else, and a missing variable, takes the general path.

// fastProgram returns the template's fast path, or nil when it has none.
func (c *compiled) fastProgram(funcs map[string]any, opts []roleparse.Option) *driver.VarSkeleton {
	var names []string
	if !plainStmts(c.tpl.Tree().Body, &names) {
		return nil
	}
	for _, name := range names {
		if _, fn := funcs[name]; fn || slices.Contains(jinjaGlobals, name) {
			return nil
		}
	}
	return driver.RenderVarSkeleton(names, func(vars map[string]any) (string, error) {
		return c.ExecuteString(context.Background(), &driver.Request{Vars: vars})
	}, opts)
}

// plainStmts reports whether body is made of what the fast path takes,
// and appends the names it prints to names.
func plainStmts(body []jinja2.Stmt, names *[]string) bool {
	for _, s := range body {
		switch s := s.(type) {
		case *jinja2.Text:
		case *jinja2.Print:
			switch x := s.X.(type) {
			case *jinja2.Name:
				*names = append(*names, x.Name)
			case *jinja2.CallExpr:
				if !constCall(x) {
					return false
				}
			default:
				return false
			}
		case *jinja2.CallBlock:
			if len(s.Params) > 0 || !constCall(s.Call) || !plainStmts(s.Body, names) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// constCall reports whether x calls one of rolemark's markup functions
// with literal arguments.
func constCall(x *jinja2.CallExpr) bool {
	k, ok := x.Fn.(*jinja2.Const)
	if !ok || k.Value.Kind() != jinja2.KindFunc || x.Args.DynArgs != nil || x.Args.DynKwargs != nil {
		return false
	}
	for _, a := range argExprs(x.Args) {
		if _, ok := a.(*jinja2.Const); a != nil && !ok {
			return false
		}
	}
	return true
}

// value returns the text {{ x }} prints, before escaping, when the fast
// path can take x, a value other than a string (which
// driver.SkeletonVarMessages prints as it is).
func value(x any) (string, bool) {
	switch x := x.(type) {
	case nil:
		return "None", true
	case bool:
		if x {
			return "True", true
		}
		return "False", true
	case int:
		return strconv.Itoa(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case int32:
		return strconv.FormatInt(int64(x), 10), true
	case float64:
		// as number makes it, and Python prints it
		return jinja2.Repr(number(x)), true
	}
	return "", false
}
