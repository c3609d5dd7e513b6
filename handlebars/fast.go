package handlebars

import (
	"context"
	"strings"

	"github.com/aymerick/raymond"
	"github.com/aymerick/raymond/ast"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/roleparse"
)

// The fast path renders a template that is template text and plain
// variables ({{name}}, {{user.name}}) straight to messages, without raymond
// and without parsing markup: the text between the variables is fixed, so
// roleparse.CompileSkeleton parses it once, at compile time, and a render puts each
// value, unescaped, into the text of the message it prints in. It is what
// Execute and roleparse.Parse give, because:
//
//   - the template's top level (after the edits that turn role markers and
//     blocks into message tags) holds only text, comments and escaped
//     mustaches of a path of plain names, none of which names a helper; no
//     partial, block, raw form, @-variable, ../ or this;
//   - the text between the values is taken from raymond's own render of the
//     template with a placeholder for each variable, and must hold the
//     placeholders in the order of the mustaches (so raymond's whitespace
//     rules, and any helper raymond would call instead, are raymond's);
//   - at render time a value is used only when every step of its path is a
//     map[string]any and the value is a string, a bool, a number or nil,
//     which raymond prints as raymond.Str does and escapes, and which
//     roleparse decodes back; anything else, and a missing variable, takes
//     the general path (which reports it).
type fastProg struct {
	sk    *roleparse.Skeleton
	paths [][]string // the variable each value prints
}

// fastProgram returns the template's fast path, or nil when it has none.
// src is the source raymond parsed.
func (t *compiled) fastProgram(src string, funcs map[string]any, opts []roleparse.Option) *fastProg {
	prog, _, _, err := parseTemplate(src)
	if err != nil || len(prog.BlockParams) > 0 {
		return nil
	}
	f := &fastProg{}
	index := map[string]int{} // distinct paths by name
	var order []int           // the path of each mustache
	root := map[string]any{}  // placeholder data
	for _, n := range prog.Body {
		switch n := n.(type) {
		case *ast.ContentStatement, *ast.CommentStatement:
		case *ast.MustacheStatement:
			path, name := plainPath(n)
			if path == nil {
				return nil
			}
			if _, isHelper := helperKind(path[0], funcs); isHelper && len(path) == 1 {
				return nil
			}
			k, seen := index[name]
			if !seen {
				k = len(f.paths)
				index[name] = k
				f.paths = append(f.paths, path)
				if !setPlaceholder(root, path, roleparse.Hole(k)) {
					return nil // {{a}} beside {{a.b}}
				}
			}
			order = append(order, k)
		default:
			return nil
		}
	}
	df := raymond.NewDataFrame()
	df.Set(stateKey, &renderState{ctx: context.Background(), req: &driver.Request{Vars: root}})
	out, err := t.exec(root, df)
	if err != nil {
		return nil
	}
	var ok bool
	if f.sk, ok = driver.SkeletonFromRender(out, order, opts); !ok {
		return nil
	}
	paths := make([][]string, len(order))
	for i, k := range order {
		paths[i] = f.paths[k]
	}
	f.paths = paths
	return f
}

// plainPath returns the path of {{a}} or {{a.b.c}} (a name may be written
// [a]) and its name as written, or nil for any other mustache.
func plainPath(n *ast.MustacheStatement) ([]string, string) {
	e := n.Expression
	if n.Unescaped || e == nil || len(e.Params) > 0 || e.Hash != nil {
		return nil, ""
	}
	p, ok := e.Path.(*ast.PathExpression)
	if !ok || p.Data || p.Depth > 0 || p.Scoped || len(p.Parts) == 0 {
		return nil, ""
	}
	path := make([]string, len(p.Parts))
	for i, part := range p.Parts {
		if len(part) > 2 && part[0] == '[' && part[len(part)-1] == ']' {
			part = part[1 : len(part)-1]
		}
		if !plainName(part) || part == "this" {
			return nil, ""
		}
		path[i] = part
	}
	return path, strings.Join(path, ".")
}

// plainName reports whether s is a path part the fast path takes: an
// ASCII word that does not start with a digit.
func plainName(s string) bool {
	return driver.ASCIIWord(s) && !('0' <= s[0] && s[0] <= '9')
}

// setPlaceholder sets path in root to ph, making maps on the way; it
// reports false when a step is taken already by a value of another kind.
func setPlaceholder(root map[string]any, path []string, ph string) bool {
	m := root
	for _, p := range path[:len(path)-1] {
		x, ok := m[p]
		if !ok {
			x = map[string]any{}
			m[p] = x
		}
		if m, ok = x.(map[string]any); !ok {
			return false
		}
	}
	if _, ok := m[path[len(path)-1]]; ok {
		return false
	}
	m[path[len(path)-1]] = ph
	return true
}

// value returns the text raymond prints, before escaping, for path in vars,
// when the fast path can take it.
func value(vars map[string]any, path []string) (string, bool) {
	m := vars
	for _, p := range path[:len(path)-1] {
		var ok bool
		if m, ok = m[p].(map[string]any); !ok {
			return "", false
		}
	}
	x, ok := m[path[len(path)-1]]
	if !ok {
		return "", false
	}
	switch x := x.(type) {
	case string:
		return x, true
	case nil:
		return "", true
	case float32, float64:
		return roleparse.FormatValue(x), true // as printHelper prints it
	case bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return raymond.Str(x), true
	}
	return "", false
}

// ExecuteMessages renders the request straight to messages when the
// template has a fast path and the request's values suit it; ok is false
// otherwise.
func (t *compiled) ExecuteMessages(ctx context.Context, r *driver.Request) ([]chat.Message, bool, error) {
	f := t.fast
	if f == nil {
		return nil, false, nil
	}
	return driver.SkeletonMessages(ctx, r, f.sk, len(f.paths), func(i int) (string, bool) {
		return value(r.Vars, f.paths[i])
	})
}
