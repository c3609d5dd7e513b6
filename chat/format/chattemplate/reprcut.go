package chattemplate

import (
	"strings"

	"github.com/rolemark/rolemark/internal/jinja2"
)

// Brackets Jinja2 writes of its own. The repr of a list, tuple or dict,
// and JSON (tojson), write an opening bracket, brace or parenthesis
// before an item's repr (a quote, a digit, a sign, a bracket, a letter
// of True, None, inf, …) or before the closing one, and a closing one
// after an item's repr or the opening one: a str's text, data, stands
// only between quotes. So an opening [, { or ( that Jinja2 writes is
// never followed by data, and a closing one never preceded by it, unless
// the template cuts such text (a slice, an index, |replace, |truncate,
// '%.2s' % x, …): then a bracket may stand at the cut, next to whatever
// follows it. The other side of each bracket (the start and end of the
// whole repr) may be next to data. reprCuts finds whether the template
// may cut such text.

// reprCuts reports whether the template may cut text that holds a repr
// or JSON (or what may print as one: a list, a dict, a value not known
// to be a str); the prefix cuts of tojson's output the write order
// follows (writeOrder.jsonCuts) do not count.
func reprCuts(tree *jinja2.Tree, followed map[*jinja2.ItemExpr]bool) bool {
	as, _ := assignments(tree)
	repr := reprMay{"varargs": true, "kwargs": true, "caller": true}
	repr.spread(as)
	isNum := numbers(as)
	cuts := false
	jinja2.Walk(tree.Body, func(n jinja2.Node) bool {
		cuts = cuts || repr.cutsAt(n, followed, isNum)
		return !cuts
	})
	return cuts
}

// reprMay holds the names whose value may be, or hold, a str the
// template made that may hold a repr or JSON text.
type reprMay map[string]bool

// spread adds the names assigned what may hold such text (and the
// namespace holding one), until no more are added.
func (repr reprMay) spread(as []assign) {
	for changed := true; changed; {
		changed = false
		for _, a := range as {
			if a.from != nil && !repr.may(a.from) {
				continue
			}
			for _, n := range assignedNames(a) {
				if !repr[n] {
					repr[n], changed = true, true
				}
			}
		}
	}
}

// may reports whether x's value may be, or hold, a str the template
// made that may hold a repr or JSON text.
func (repr reprMay) may(x jinja2.Expr) bool {
	switch x := x.(type) {
	case nil, *jinja2.Const, *jinja2.CompareExpr, *jinja2.TestExpr, *jinja2.UnaryExpr, *jinja2.SliceExpr:
		return false
	case *jinja2.Name:
		return repr[x.Name]
	case *jinja2.AttrExpr:
		if n, ok := x.X.(*jinja2.Name); ok && n.Name == "loop" {
			return x.Name == "previtem" || x.Name == "nextitem" || x.Name == "cycle"
		}
		return repr.may(x.X)
	case *jinja2.ItemExpr:
		return repr.may(x.X)
	case *jinja2.ListLit:
		return anyExpr(x.Items, repr.may)
	case *jinja2.TupleLit:
		return anyExpr(x.Items, repr.may)
	case *jinja2.DictLit:
		return anyExpr(x.Keys, repr.may) || anyExpr(x.Values, repr.may)
	case *jinja2.CondExpr:
		return repr.may(x.Then) || repr.may(x.Else)
	case *jinja2.Concat:
		for _, it := range x.Items {
			if c, ok := it.(*jinja2.Const); !ok || c.Value.Kind() != jinja2.KindStr {
				return true // str() of a value that may not be a str
			}
		}
		return false
	case *jinja2.BinExpr:
		switch x.Op {
		case "+", "*", "and", "or":
			return repr.may(x.Left) || repr.may(x.Right)
		case "%":
			return true
		}
		return false
	case *jinja2.FilterExpr:
		return repr.mayFilter(x)
	case *jinja2.CallExpr:
		return repr.mayCall(x)
	}
	return true
}

// mayFilter is may of a filter's value.
func (repr reprMay) mayFilter(x *jinja2.FilterExpr) bool {
	if x.X == nil {
		return true
	}
	switch x.Name {
	case "length", "count", "wordcount", "int", "float", "abs", "round", "filesizeformat":
		return false
	case "default", "d":
		return repr.may(x.X) || anyArg(&x.Args, repr.may)
	case "first", "last", "random", "min", "max", "reverse", "sort", "unique", "list", "select",
		"reject", "selectattr", "rejectattr", "batch", "slice", "groupby", "dictsort", "items", "sum":
		return repr.may(x.X) || anyArg(&x.Args, repr.may)
	case "map":
		if len(x.Args.Args) == 0 && x.Args.DynArgs == nil && x.Args.DynKwargs == nil {
			return repr.may(x.X) // map(attribute=…)
		}
	}
	return true // a str made of str(x)
}

// mayCall is may of a call's value: a method of what may hold such
// text, or a global.
func (repr reprMay) mayCall(x *jinja2.CallExpr) bool {
	switch f := x.Fn.(type) {
	case *jinja2.AttrExpr:
		switch f.Name {
		case "format", "format_map":
			return true
		case "strip", "lstrip", "rstrip", "split", "rsplit", "splitlines", "partition", "rpartition",
			"upper", "lower", "title", "capitalize", "swapcase", "casefold", "center", "ljust", "rjust",
			"zfill", "expandtabs", "removeprefix", "removesuffix", "replace", "join", "items", "keys",
			"values", "get", "copy", "pop", "setdefault", "startswith", "endswith", "find", "rfind",
			"index", "rindex", "count", "isalnum", "isalpha", "isdigit", "islower", "isupper",
			"isspace", "istitle", "isnumeric", "isdecimal":
			return repr.may(f.X) || anyArg(&x.Args, repr.may)
		}
	case *jinja2.Name:
		switch f.Name {
		case "range", "lipsum", "raise_exception", "strftime_now", "namespace", "cycler", "joiner":
			return false
		case "dict":
			return anyArg(&x.Args, repr.may)
		}
	}
	return true // a macro's output, caller(), a method not listed
}

// cutsStr is a filter that makes a str of what it is given (str()
// of a list writes its repr) and may cut it.
func cutsStr(name string, a *jinja2.CallArgs) bool {
	switch name {
	case "trim":
		return !noArgs(a)
	case "safe", "string", "tojson", "pprint", "e", "escape", "forceescape", "upper", "lower", "title",
		"capitalize", "center", "indent", "urlencode", "xmlattr", "length", "count", "wordcount", "int",
		"float", "abs", "round", "filesizeformat", "default", "d", "items", "dictsort", "join":
		return false
	case "first", "last", "random", "min", "max", "reverse", "sort", "unique", "list", "select",
		"reject", "selectattr", "rejectattr", "batch", "slice", "groupby", "sum", "map":
		return false // picks: a cut only of a str (below)
	}
	return true // replace, truncate, wordwrap, format, striptags, urlize, a filter not listed
}

// cutsAt reports whether node n may cut text that holds a repr or JSON;
// followed are the items of tojson's output the write order follows.
func (repr reprMay) cutsAt(n jinja2.Node, followed map[*jinja2.ItemExpr]bool, isNum func(jinja2.Expr) bool) bool {
	switch x := n.(type) {
	case *jinja2.Include, *jinja2.Import, *jinja2.FromImport, *jinja2.Extends:
		return true
	case *jinja2.ItemExpr:
		return !followed[x] && repr.may(x.X)
	case *jinja2.For:
		return repr.may(x.Iter) // a str's characters
	case *jinja2.BinExpr:
		return x.Op == "%" && !isNum(x.Left) && cutsFormat(x.Left) // not a number's modulo
	case *jinja2.FilterExpr:
		switch {
		case x.X == nil: // a filter block's or set block's body
			return cutsStr(x.Name, &x.Args) || x.Name != "trim" && pickFilters[x.Name]
		case x.Name == "format":
			return cutsFormat(x.X)
		case cutsStr(x.Name, &x.Args):
			c, ok := x.X.(*jinja2.Const)
			return !ok || c.Value.Kind() != jinja2.KindStr
		case pickFilters[x.Name] || x.Name == "map":
			return repr.may(x.X)
		}
	case *jinja2.CallExpr:
		if f, ok := x.Fn.(*jinja2.AttrExpr); ok {
			switch f.Name {
			case "upper", "lower", "title", "capitalize", "swapcase", "casefold", "center", "ljust", "rjust",
				"zfill", "expandtabs", "startswith", "endswith", "find", "rfind", "index", "rindex", "count",
				"isalnum", "isalpha", "isdigit", "islower", "isupper", "isspace", "istitle", "isnumeric",
				"isdecimal", "items", "keys", "values", "get", "copy", "append", "extend", "insert", "update",
				"pop", "remove", "clear", "setdefault", "join":
			case "strip", "lstrip", "rstrip":
				return !noArgs(&x.Args) && repr.may(f.X)
			case "format", "format_map":
				return cutsFormat(f.X)
			default:
				return repr.may(f.X)
			}
		}
	}
	return false
}

// cutsFormat reports whether format, a format string (% or format), may
// cut what it formats: it is not a constant, or it has a precision (%.2s,
// %.*r, {:.3}, {0!r:.2}).
func cutsFormat(format jinja2.Expr) bool {
	c, ok := format.(*jinja2.Const)
	if !ok || c.Value.Kind() != jinja2.KindStr {
		return true
	}
	f := c.Value.Str()
	for i := 0; i < len(f); i++ {
		switch f[i] {
		case '%':
			spec, j := percentSpec(f, i)
			if strings.IndexByte(spec, '.') >= 0 {
				return true
			}
			if j < len(f) && f[j] == '%' {
				i = j
			}
		case '{':
			if k := strings.IndexByte(f[i:], '}'); k >= 0 && strings.ContainsAny(f[i:i+k], ".") {
				return true
			}
		}
	}
	return false
}

// percentSpec reads the % conversion specifier at f[i]: it returns the
// flags, width and precision after its optional (key), and the index of
// the conversion character (len(f) when the string ends before it).
func percentSpec(f string, i int) (spec string, conv int) {
	j := i + 1
	if j < len(f) && f[j] == '(' {
		for j < len(f) && f[j] != ')' {
			j++
		}
		if j < len(f) {
			j++
		}
	}
	k := j
	for j < len(f) && strings.IndexByte("#0- +*.0123456789hlL", f[j]) >= 0 {
		j++
	}
	return f[k:j], j
}

// numbers returns whether an expression is a number (or an error): a
// number constant, a loop counter, a length, arithmetic on one, or a
// variable or namespace attribute the template assigns only such (as:
// its assignments).
func numbers(as []assign) func(jinja2.Expr) bool {
	num, has := map[string]bool{}, map[string]bool{}
	for _, a := range as {
		num[a.name], has[a.name] = true, true
	}
	var is func(x jinja2.Expr) bool
	is = func(x jinja2.Expr) bool {
		switch x := x.(type) {
		case *jinja2.Const:
			k := x.Value.Kind()
			return k == jinja2.KindInt || k == jinja2.KindFloat || k == jinja2.KindBool
		case *jinja2.Name:
			return num[x.Name]
		case *jinja2.AttrExpr:
			if n, ok := x.X.(*jinja2.Name); ok {
				if n.Name == "loop" {
					switch x.Name {
					case "index", "index0", "revindex", "revindex0", "length", "depth", "depth0":
						return true
					}
					return false
				}
				return num[n.Name+"."+x.Name] && !has[n.Name+".*"]
			}
		case *jinja2.UnaryExpr:
			return x.Op == "-" || x.Op == "+"
		case *jinja2.BinExpr:
			switch x.Op {
			case "+", "-":
				return is(x.Left) || is(x.Right)
			case "*":
				return is(x.Left) && is(x.Right)
			case "/", "//", "%", "**":
				return is(x.Left)
			}
		case *jinja2.FilterExpr:
			switch x.Name {
			case "length", "count", "int", "float", "abs", "round", "wordcount":
				return true
			}
		}
		return false
	}
	for changed := true; changed; {
		changed = false
		for _, a := range as {
			if num[a.name] && (a.from == nil || !is(a.from)) {
				num[a.name], changed = false, true
			}
		}
	}
	return is
}
