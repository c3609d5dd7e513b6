package jinja

import (
	"errors"
	"maps"
	"slices"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/jinja2"
)

// Lint returns a problem for each call of a markup function (role,
// history, media) or block tag (message, system, user, assistant) in the
// template and the partials it names with a literal whose arguments do
// not fit: the TypeError the call raises, at the function's or tag's
// name. A render raises it only in a branch its data takes; this finds
// it in every branch. A call with *args or **kwargs is left to the
// render.
func (c *compiled) Lint() []*driver.Error {
	var out []*driver.Error
	trees := []*jinja2.Tree{c.tpl.Tree()}
	for _, name := range slices.Sorted(maps.Keys(c.partials)) {
		trees = append(trees, c.partials[name].Tree())
	}
	for _, t := range trees {
		file := c.file(t.Name)
		if t == c.tpl.Tree() {
			file = c.name
		}
		called := map[*jinja2.CallExpr]bool{} // the calls of {% call %} blocks
		jinja2.Walk(t.Body, func(n jinja2.Node) bool {
			if b, ok := n.(*jinja2.CallBlock); ok {
				called[b.Call] = true
			}
			x, ok := n.(*jinja2.CallExpr)
			if !ok || x.Args.DynArgs != nil || x.Args.DynKwargs != nil {
				return true
			}
			k, ok := x.Fn.(*jinja2.Const)
			if !ok || k.Value.Kind() != jinja2.KindFunc {
				return true
			}
			sig, ok := markupSigs[k.Value.FuncOf().Name]
			if !ok {
				return true
			}
			args := make([]jinja2.Value, len(x.Args.Args))
			kw := make([]jinja2.Kwarg, len(x.Args.Kwargs))
			for i, a := range x.Args.Kwargs {
				kw[i].Name = a.Name
			}
			if fn := k.Value.FuncOf().Name; called[x] && (fn == "role" || fn == "history" || fn == "media") {
				// {% call role() %} passes caller=, which only the block
				// tags take
				kw = append(kw, jinja2.Kwarg{Name: "caller"})
			}
			if _, err := bindArgs(k.Value.FuncOf().Name, sig.params, sig.required, args, kw); err != nil {
				at := k.Position()
				var je *jinja2.Error
				if errors.As(err, &je) {
					err = &Error{Kind: je.Kind, Msg: je.Msg}
				}
				out = append(out, &driver.Error{Template: file, Line: at.Line, Col: at.Col, Err: err})
			}
			return true
		})
	}
	return out
}

// signature is what bindArgs binds a markup function's arguments to: its
// parameters, of which the first required ones must be given.
type signature struct {
	params   []string
	required int
}

// The signatures of rolemark's markup functions and block tags, and
// markupSigs, all of them by name.
var (
	roleSig    = signature{[]string{"role", "name", "tool_call_id"}, 1}
	historySig = signature{nil, 0}
	mediaSig   = signature{[]string{"url", "mimetype"}, 1}
	blockSig   = signature{[]string{"name", "tool_call_id"}, 0} // system, user, assistant
	markupSigs = map[string]signature{
		"role": roleSig, "history": historySig, "media": mediaSig, "message": roleSig,
		"system": blockSig, "user": blockSig, "assistant": blockSig,
	}
)
