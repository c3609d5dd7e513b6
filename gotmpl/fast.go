package gotmpl

import (
	"context"
	"reflect"
	"strconv"
	"text/template/parse"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/roleparse"
)

// The skeleton path renders a template straight to messages, without
// text/template and without markup to parse, when the template is
// template text and fields of the data ({{.name}}) and the request's
// values for them are strings or basic values (see value). The template's markup is fixed at compile
// time, so it is compiled then into a roleparse.Skeleton, which holds a
// hole for each field; a render looks the keys up in the data and puts
// each string, as it is, into its message's text. It is what Execute and
// roleparse.Parse give, because:
//
//   - the template's top level (after markup function calls are expanded)
//     holds only text, comments and actions that print one field of dot,
//     and roleparse.CompileSkeleton shows that the skeleton gives what
//     Parse gives for the markup with every value escaped;
//   - text/template prints a string as it is, and Execute escapes it;
//     value formats the few other kinds it takes as text/template prints
//     them, and any other value (a missing key, a fmt.Stringer, a slice, a
//     named type with methods) takes Execute, so its printing and its
//     errors stay text/template's own.
//
// Everything else (control flow, pipelines, markup functions left after
// expansion, history, AllowMissing, Loose parsing) takes Execute and the
// parse.

// buildProgram returns the skeleton path's program for the compiled
// template, or nil when the template must take Execute. opts are the parse
// options of the set.
func (c *compiled) buildProgram(opts []roleparse.Option) *driver.VarSkeleton {
	if c.allowMissing || c.t.Tree == nil || c.t.Tree.Root == nil {
		return nil
	}
	texts := []string{""}
	var keys []string
	for _, n := range c.t.Tree.Root.Nodes {
		switch n := n.(type) {
		case *parse.TextNode:
			texts[len(texts)-1] += string(n.Text)
		case *parse.ActionNode:
			k, ok := fieldKey(n)
			if !ok {
				return nil
			}
			keys = append(keys, k)
			texts = append(texts, "")
		case *parse.CommentNode:
		default:
			return nil
		}
	}
	sk, ok := driver.CompileSkeleton(texts, opts)
	if !ok {
		return nil
	}
	return &driver.VarSkeleton{Skeleton: sk, Names: keys}
}

// fieldKey returns name when action a prints a field of dot ({{.name}}) and
// does nothing else.
func fieldKey(a *parse.ActionNode) (string, bool) {
	p := a.Pipe
	if len(p.Decl) > 0 || len(p.Cmds) != 1 || len(p.Cmds[0].Args) != 1 {
		return "", false
	}
	f, ok := p.Cmds[0].Args[0].(*parse.FieldNode)
	if !ok || len(f.Ident) != 1 {
		return "", false
	}
	return f.Ident[0], true
}

// value returns what text/template prints for x, a value of the data other
// than a string (driver.SkeletonVarMessages prints it as it is), when the
// skeleton path can take it: nil as nothing, as Execute prints it (see
// fillNil); a value of a string type with no methods as it is; a bool, an
// int, an int64 or a float64 as fmt prints it.
func value(x any) (string, bool) {
	switch x := x.(type) {
	case nil:
		return "", true
	case bool:
		return strconv.FormatBool(x), true
	case int:
		return strconv.Itoa(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	}
	// A named string type: fmt prints the string unless a method (String,
	// Error, Format, on the value or its pointer) decides otherwise.
	t := reflect.TypeOf(x)
	if t.Kind() == reflect.String && t.NumMethod() == 0 && reflect.PointerTo(t).NumMethod() == 0 {
		return reflect.ValueOf(x).String(), true
	}
	return "", false
}

// ExecuteMessages renders the request straight to messages when the
// template has a program and every value it prints is a string (see
// program); ok is false otherwise.
func (c *compiled) ExecuteMessages(ctx context.Context, r *driver.Request) ([]chat.Message, bool, error) {
	return c.prog.Messages(ctx, r, value)
}
