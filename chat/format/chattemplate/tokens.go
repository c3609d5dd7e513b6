package chattemplate

import (
	"regexp"
	"slices"
	"strings"

	"github.com/rolemark/rolemark/internal/jinja2"
)

// textTokenPattern matches what a chat template's text writes that has the
// form of a special token: <|…|> and DeepSeek's <｜…｜>; [INST], [/INST],
// [TOOL_CALLS], [gMASK] (brackets around a word with at least two capital
// letters, checked after the match); <start_of_turn>, </tool_call> (a tag
// whose name has an underscore); and <s>, </s>, <bos>, <eos>, <pad>, <unk>,
// <sop>, <eop>.
var textTokenPattern = regexp.MustCompile(`<\|[^\s|<>]{1,40}\|>|<｜[^\s｜]{1,40}｜>|\[/?[A-Za-z][A-Za-z0-9_]{1,30}\]|</?[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+>|</?s>|<(?:bos|eos|pad|unk|sop|eop)>`)

// textTokens returns the strings of sources that have the form of a
// special token (textTokenPattern), sorted, each once. A template without
// a tokenizer config takes these as its special tokens: the tokens a
// template writes are the ones that close and open turns, so content
// holding one could forge a turn whatever the tokenizer says.
func textTokens(sources ...string) []string {
	var out []string
	for _, src := range sources {
		for _, m := range textTokenPattern.FindAllString(src, -1) {
			if m[0] == '[' && upper(m) < 2 {
				continue
			}
			out = append(out, m)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func upper(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' {
			n++
		}
	}
	return n
}

// jinjaLiterals yields the texts a template writes of its own, read from
// its syntax tree: the text between its tags, as the parser leaves it
// after whitespace control and trim_blocks/lstrip_blocks, and its
// constants' strs (inside lists, tuples and dicts too), with their escapes
// decoded as Jinja2 decodes them. It stops, returning false, when yield
// does.
func jinjaLiterals(tree *jinja2.Tree, yield func(string) bool) bool {
	ok := true
	jinja2.Walk(tree.Body, func(n jinja2.Node) bool {
		switch x := n.(type) {
		case *jinja2.Text:
			ok = yield(x.Text)
		case *jinja2.Const:
			ok = constLiterals(x.Value, yield)
		}
		return ok
	})
	return ok
}

// constLiterals yields the strs of a constant.
func constLiterals(v jinja2.Value, yield func(string) bool) bool {
	switch v.Kind() {
	case jinja2.KindStr:
		return yield(v.Str())
	case jinja2.KindList, jinja2.KindTuple:
		for _, it := range v.Items() {
			if !constLiterals(it, yield) {
				return false
			}
		}
	case jinja2.KindDict:
		d := v.DictOf()
		for i, k := range d.Keys() {
			if !constLiterals(k, yield) || !constLiterals(d.Values()[i], yield) {
				return false
			}
		}
	}
	return true
}

// cutsLiterals reports whether a template may write a piece of one of its
// literals with data inside it or next to the cut, other than by printing
// the literal whole: % formatting, the format and replace filters and
// methods, a slice, the filters and methods that cut or pad a str, applied
// to what may hold a literal's bytes (dataVars.only is false), or to a
// block's body. The literal may reach
// the operation through a variable or a set block, so the whole template
// counts: every literal of a template that cuts is a source of pieces
// (literalPieces). tokenVars are the token variables, which are the
// template's own text.
func cutsLiterals(tree *jinja2.Tree, tokenVars map[string]string) bool {
	d := dataNames(tree, tokenVars)
	cuts := false
	cut := func(x jinja2.Expr) { cuts = cuts || !d.only(x) }
	jinja2.Walk(tree.Body, func(n jinja2.Node) bool {
		switch x := n.(type) {
		case *jinja2.BinExpr:
			if x.Op == "%" {
				cut(x.Left)
			}
		case *jinja2.FilterExpr:
			switch x.Name {
			case "format", "replace", "truncate", "wordwrap", "center", "indent", "trim":
				if x.X == nil { // a filter block's or set block's body
					cuts = true
				}
				cut(x.X)
			}
		case *jinja2.CallExpr:
			if a, ok := x.Fn.(*jinja2.AttrExpr); ok {
				switch a.Name {
				case "format", "format_map", "replace", "split", "rsplit", "splitlines", "partition",
					"rpartition", "removeprefix", "removesuffix", "center", "ljust", "rjust", "zfill",
					"expandtabs", "translate", "strip", "lstrip", "rstrip":
					cut(a.X)
				}
			}
		case *jinja2.ItemExpr:
			if _, ok := x.Key.(*jinja2.SliceExpr); ok {
				cut(x.X)
			}
		}
		return !cuts
	})
	return cuts
}

// dataVars is the names of a template's variables that hold none of its
// literals' bytes: those it never assigns (the data: messages, tools,
// the caller's variables), but for the token variables and the names
// Jinja2 gives (loop, caller, varargs, kwargs, self), and those it
// assigns only, with set or for, from what holds only data.
type dataVars struct {
	lit map[string]bool // the names that may hold a literal's bytes
	// ns holds the names assigned a namespace(…); "ns.attr" in lit is
	// an attribute of one that may hold a literal's bytes, "ns.*" any.
	ns map[string]bool
}

func dataNames(tree *jinja2.Tree, tokenVars map[string]string) dataVars {
	type assign struct {
		name string
		from jinja2.Expr // nil: not from data
	}
	var as []assign
	targets := func(t, from jinja2.Expr) {
		switch x := t.(type) {
		case *jinja2.Name:
			as = append(as, assign{x.Name, from})
		case *jinja2.TupleLit:
			for _, it := range x.Items {
				if n, ok := it.(*jinja2.Name); ok {
					as = append(as, assign{n.Name, from})
				}
			}
		}
	}
	params := func(ps []jinja2.Param) {
		for _, p := range ps {
			as = append(as, assign{p.Name, nil})
		}
	}
	ns := map[string]bool{}
	jinja2.Walk(tree.Body, func(n jinja2.Node) bool {
		switch x := n.(type) {
		case *jinja2.Set:
			if r, ok := x.Target.(*jinja2.NSRef); ok {
				as = append(as, assign{r.Name + "." + r.Attr, x.Value})
				break
			}
			if c, ok := x.Value.(*jinja2.CallExpr); ok {
				if f, ok := c.Fn.(*jinja2.Name); ok && f.Name == "namespace" {
					if n, ok := x.Target.(*jinja2.Name); ok {
						ns[n.Name] = true
						for _, kw := range c.Args.Kwargs {
							as = append(as, assign{n.Name + "." + kw.Name, kw.Value})
						}
						if len(c.Args.Args) > 0 || c.Args.DynArgs != nil || c.Args.DynKwargs != nil {
							as = append(as, assign{n.Name + ".*", nil})
						}
						break
					}
				}
			}
			targets(x.Target, x.Value)
		case *jinja2.For:
			targets(x.Target, x.Iter)
		case *jinja2.SetBlock:
			targets(x.Target, nil)
		case *jinja2.With:
			for _, t := range x.Targets {
				targets(t, nil)
			}
		case *jinja2.Macro:
			as = append(as, assign{x.Name, nil})
			params(x.Params)
		case *jinja2.CallBlock:
			params(x.Params)
		case *jinja2.Import:
			as = append(as, assign{x.Target, nil})
		case *jinja2.FromImport:
			for _, in := range x.Names {
				as = append(as, assign{in.Alias, nil})
			}
		}
		return true
	})
	d := dataVars{lit: map[string]bool{}, ns: ns}
	notData := map[string]bool{"loop": true, "caller": true, "varargs": true, "kwargs": true, "self": true}
	for v := range tokenVars {
		notData[v] = true
	}
	for changed := true; changed; {
		changed = false
		for _, a := range as {
			if !notData[a.name] && (a.from == nil || !d.only(a.from)) {
				notData[a.name], changed = true, true
			}
		}
		d.lit = notData
	}
	return d
}

// only reports whether x holds only the data's bytes, none of the
// template's literals.
func (d dataVars) only(x jinja2.Expr) bool {
	switch x := x.(type) {
	case nil:
		return true
	case *jinja2.Name:
		return !d.lit[x.Name]
	case *jinja2.Const:
		return x.Value.Kind() != jinja2.KindStr || x.Value.Str() == ""
	case *jinja2.AttrExpr:
		if n, ok := x.X.(*jinja2.Name); ok && n.Name == "loop" {
			return x.Name != "previtem" && x.Name != "nextitem" && x.Name != "cycle"
		} else if ok && d.ns[n.Name] && !d.lit[n.Name] {
			return !d.lit[n.Name+"."+x.Name] && !d.lit[n.Name+".*"]
		}
		return d.only(x.X)
	case *jinja2.ListLit:
		return d.all(x.Items)
	case *jinja2.TupleLit:
		return d.all(x.Items)
	case *jinja2.DictLit:
		return d.all(x.Keys) && d.all(x.Values)
	case *jinja2.ItemExpr:
		return d.only(x.X)
	case *jinja2.CondExpr:
		return d.only(x.Then) && d.only(x.Else)
	case *jinja2.BinExpr:
		return x.Op != "%" && d.only(x.Left) && d.only(x.Right)
	case *jinja2.Concat:
		return d.all(x.Items)
	case *jinja2.FilterExpr:
		switch x.Name {
		case "trim", "lower", "upper", "title", "capitalize", "string", "list", "first", "last",
			"reverse", "items", "dictsort", "selectattr", "rejectattr", "select", "reject", "unique",
			"sort", "length", "count", "int", "float", "abs", "round", "safe", "e", "escape", "tojson":
			return d.only(x.X)
		}
	case *jinja2.CallExpr:
		if a, ok := x.Fn.(*jinja2.AttrExpr); ok {
			switch a.Name {
			case "strip", "lstrip", "rstrip", "split", "rsplit", "splitlines", "lower", "upper",
				"title", "capitalize", "swapcase", "items", "keys", "values":
				return d.only(a.X)
			}
		}
	}
	return false
}

// literalPieces yields each part of a token (one of tokens) that lit
// holds and that has a mark (a byte that is not an ASCII letter or
// digit): what a template that cuts its literals may write of lit next
// to data.
func literalPieces(lit string, tokens []string, yield func(string)) {
	for _, tok := range tokens {
		for i := 0; i < len(tok); i++ {
			mark := false
			for j := i + 1; j <= len(tok); j++ {
				c := tok[j-1]
				mark = mark || !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
				if !strings.Contains(lit, tok[i:j]) {
					break
				}
				if mark {
					yield(tok[i:j])
				}
			}
		}
	}
}

// all is only of each of xs.
func (d dataVars) all(xs []jinja2.Expr) bool {
	for _, x := range xs {
		if !d.only(x) {
			return false
		}
	}
	return true
}
