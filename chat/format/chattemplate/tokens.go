package chattemplate

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rolemark/rolemark/internal/jinja2"
)

// textTokenPattern matches what a chat template's text writes that has the
// form of a special token: <|…|> and DeepSeek's <｜…｜>; Gemma 4's halves
// <|turn>, <turn|>, <|tool_call>, <channel|> (a pipe on one side, a letter
// first); MiniMax's ]~!b[, ]~b] and [e~[; EXAONE's [|user|] and
// [|endofturn|] (a word in [| |]); Seed-OSS's <seed:bos> and MiniMax's
// <minimax:tool_call> (a tag of two words and a colon); TeleFLM's <_user>
// (a tag whose name starts with an underscore); [INST], [/INST],
// [TOOL_CALLS], [gMASK] (brackets around a word with at least two capital
// letters, checked after the match); <start_of_turn>, </tool_call> (a tag
// whose name has an underscore); and <s>, </s>, <bos>, <eos>, <pad>, <unk>,
// <sop>, <eop>.
var textTokenPattern = regexp.MustCompile(`<\|[^\s|<>]{1,40}\|>|<\|[A-Za-z][^\s|<>]{0,39}>|<[A-Za-z][^\s|<>]{0,39}\|>|<｜[^\s｜]{1,40}｜>|\]~!?b[\[\]]|\[e~\[|\[\|[A-Za-z][^\s|\[\]]{0,39}\|\]|</?[A-Za-z][A-Za-z0-9]*:[A-Za-z][A-Za-z0-9_]*>|</?_[A-Za-z][A-Za-z0-9_]*>|\[/?[A-Za-z][A-Za-z0-9_]{1,30}\]|</?[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+>|</?s>|<(?:bos|eos|pad|unk|sop|eop)>`)

// textTokens returns the strings of sources that have the form of a
// special token (textTokenPattern), sorted, each once. A template without
// a tokenizer config takes these as its special tokens: the tokens a
// template writes are the ones that close and open turns, so content
// holding one could forge a turn whatever the tokenizer says.
func textTokens(sources ...string) []string {
	var out []string
	for _, src := range sources {
		for _, m := range textTokenPattern.FindAllString(src, -1) {
			if m[0] == '[' && m[1] != '|' && m[len(m)-1] == ']' && upper(m) < 2 { // [x], [Note]: not [e~[ or [|user|]
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
// after whitespace control and trim_blocks/lstrip_blocks, its
// constants' strs (inside lists, tuples and dicts too), with their escapes
// decoded as Jinja2 decodes them, and the names of keyword arguments
// (dict(a=1) makes a key of one). It stops, returning false, when yield
// does.
func jinjaLiterals(tree *jinja2.Tree, yield func(string) bool) bool {
	ok := true
	jinja2.Walk(tree.Body, func(n jinja2.Node) bool {
		switch x := n.(type) {
		case *jinja2.Text:
			ok = yield(x.Text)
		case *jinja2.Const:
			ok = constLiterals(x.Value, yield)
		case *jinja2.CallExpr: // dict(a=1) writes a as a key
			for _, kw := range x.Args.Kwargs {
				if ok = yield(kw.Name); !ok {
					break
				}
			}
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

// ownText is what a template may write of its own, next to data,
// besides its literals printed whole (jinjaLiterals) and the token
// variables: newTemplate gives the guard these as joining pieces too.
type ownText struct {
	// cuts is set when it may write a part of a literal or of a token
	// variable, or its characters in another order or case (% formatting,
	// replace, a slice, an index, |first, |reverse, |upper, iterating
	// it, …): every part of a token that a literal or a token variable
	// holds is then a piece (literalPieces). A character so written is a
	// character of a literal, and no case mapping makes a mark.
	cuts bool
	// cutLits are literals it may write a part of, when cuts is not
	// set: constants it cuts where they stand ('<|%s|>' % role).
	cutLits []string
	// loose is set when it may write text that none of its literals
	// holds: an object's repr (<function safe_range at 0x…>, <Macro 'f'>,
	// <built-in method upper of str object at 0x…>), what urlize,
	// striptags and lipsum write, a character made of a number (%c) the
	// template computes. Every mark of every token is then a piece, so
	// step 2 runs when the data holds any mark of a token.
	loose bool
	// trims is set when it may trim white space off the ends of what
	// holds a literal's bytes (|trim, .strip(), a {% filter trim %}
	// body): each literal and token variable, trimmed at either end or
	// both as Python's str.strip trims, is then a piece too.
	trims bool
	// decodes is set when it decodes the character references of data
	// (striptags turns &lt; and &#60; into <): '&' is then a mark too
	// (special.Guard.AlsoMark), so the neutral data holds none.
	decodes bool
	// chars are the characters % formatting may make of the template's
	// int constants (%c), as pieces.
	chars []string
}

// merge adds what o may write to what t may write: the variants of one
// template write what any of them writes.
func (t *ownText) merge(o ownText) {
	t.cuts = t.cuts || o.cuts
	t.loose = t.loose || o.loose
	t.decodes = t.decodes || o.decodes
	t.trims = t.trims || o.trims
	t.cutLits = append(t.cutLits, o.cutLits...)
	t.chars = append(t.chars, o.chars...)
}

// wholeFilters write what they are given whole (or a number, a bool),
// with at most punctuation of their own (reprPunct); pickFilters pick
// items of what they are given, whole when it is a list, tuple or dict
// literal, characters when it is a str.
var (
	wholeFilters = setOf("default", "d", "string", "safe", "tojson", "length", "count", "wordcount", "int",
		"float", "abs", "round", "items", "dictsort", "e", "escape", "forceescape", "urlencode", "xmlattr",
		"filesizeformat", "pprint")
	pickFilters = setOf("first", "last", "random", "min", "max", "reverse", "sort", "unique", "list", "join",
		"select", "reject", "selectattr", "rejectattr", "batch", "slice", "groupby", "sum")
	// wholeMethods are the methods that write the object they are called
	// on whole, or no str of it.
	wholeMethods = setOf("startswith", "endswith", "find", "rfind", "index", "rindex", "count", "isalnum",
		"isalpha", "isdigit", "islower", "isupper", "isspace", "istitle", "isnumeric", "isdecimal",
		"isidentifier", "isprintable", "isascii", "get", "items", "keys", "values", "copy", "join", "append",
		"extend", "insert", "update", "pop", "remove", "clear", "setdefault")
	// methodNames are the methods of str, list, dict and a loop: a value
	// of one not called prints as <built-in method …>.
	methodNames = setOf("capitalize", "casefold", "center", "count", "encode", "endswith", "expandtabs", "find",
		"format", "format_map", "index", "isalnum", "isalpha", "isascii", "isdecimal", "isdigit",
		"isidentifier", "islower", "isnumeric", "isprintable", "isspace", "istitle", "isupper", "join", "ljust",
		"lower", "lstrip", "maketrans", "partition", "removeprefix", "removesuffix", "replace", "rfind",
		"rindex", "rjust", "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith", "strip",
		"swapcase", "title", "translate", "upper", "zfill", "append", "clear", "copy", "extend", "insert", "pop",
		"remove", "reverse", "sort", "fromkeys", "get", "items", "keys", "popitem", "setdefault", "update",
		"values", "cycle", "changed")
	// objectNames are the globals a chat template reads, and the names
	// Jinja2 gives, that print as an object's repr.
	objectNames = setOf("range", "lipsum", "dict", "cycler", "joiner", "namespace", "raise_exception",
		"strftime_now", "caller", "self", "loop", "super")
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// litDepth is how many item lookups in a row x, a list, tuple or dict
// literal, gives whole: 0 for what is not such a literal, 1 for one whose
// items (a dict's values) are not all such literals, 1 + the least
// depth of its items (values) otherwise. A pick of a container (an item,
// |first, a loop over it, …) takes an item, or a dict's key, whole;
// risk_bank[r]["default"] of a dict of dicts of strs takes a str whole.
func litDepth(x jinja2.Expr) int {
	var items []jinja2.Expr
	switch x := x.(type) {
	case *jinja2.ListLit:
		items = x.Items
	case *jinja2.TupleLit:
		items = x.Items
	case *jinja2.DictLit:
		items = x.Values
	default:
		return 0
	}
	least := -1
	for _, it := range items {
		if d := litDepth(it); least < 0 || d < least {
			least = d
		}
	}
	if least < 0 { // empty: no item to take, as deep as any
		least = maxLitDepth
	}
	return 1 + min(least, maxLitDepth)
}

// maxLitDepth bounds litDepth.
const maxLitDepth = 8

// containerNames returns the names a template assigns only with set,
// and only list, tuple or dict literals, with the least litDepth of
// those: a pick of one (an item, a loop over it) takes its items whole,
// or data's if the caller gives the variable.
func containerNames(tree *jinja2.Tree) map[string]int {
	out := map[string]int{}
	not := map[string]bool{}
	mark := func(t jinja2.Expr, depth int) {
		switch x := t.(type) {
		case *jinja2.Name:
			if depth == 0 {
				not[x.Name] = true
			} else if d, ok := out[x.Name]; !ok || depth < d {
				out[x.Name] = depth
			}
		case *jinja2.TupleLit:
			for _, it := range x.Items {
				if n, ok := it.(*jinja2.Name); ok {
					not[n.Name] = true
				}
			}
		}
	}
	jinja2.Walk(tree.Body, func(n jinja2.Node) bool {
		switch x := n.(type) {
		case *jinja2.Set:
			mark(x.Target, litDepth(x.Value))
		case *jinja2.For:
			mark(x.Target, 0)
		case *jinja2.SetBlock:
			mark(x.Target, 0)
		case *jinja2.With:
			for _, t := range x.Targets {
				mark(t, 0)
			}
		case *jinja2.Macro:
			not[x.Name] = true
			for _, p := range x.Params {
				not[p.Name] = true
			}
		case *jinja2.CallBlock:
			for _, p := range x.Params {
				not[p.Name] = true
			}
		case *jinja2.Import:
			not[x.Target] = true
		case *jinja2.FromImport:
			for _, in := range x.Names {
				not[in.Alias] = true
			}
		}
		return true
	})
	for n := range not {
		delete(out, n)
	}
	return out
}

// readOwnText reads what the template's tree may write of its own
// (ownText) other than by printing a literal or token variable whole.
// tokenVars are the token variables, which are the template's own text.
// Anything done to what may hold a literal's bytes (dataVars.only is
// false), or to a block's body, that is not known to keep it whole
// makes it cut: the literal may reach the operation through a
// variable, so the whole template counts.
func readOwnText(tree *jinja2.Tree, tokenVars map[string]string) ownText {
	d := dataNames(tree, tokenVars)
	as, _ := assignments(tree)
	r := &ownReader{
		d:        d,
		reprs:    methodReprs(tree, as),
		assigned: map[string]bool{},
		conts:    containerNames(tree),
		quiet:    map[jinja2.Node]bool{},
		objects:  maps.Clone(objectNames),
		kept:     map[*jinja2.CallExpr]bool{},
	}
	for _, a := range as {
		r.assigned[a.name] = true
	}
	for n := range d.ns {
		r.objects[n] = true
	}
	jinja2.Walk(tree.Body, func(n jinja2.Node) bool {
		r.visit(n)
		return true
	})
	o := r.o
	for _, n := range r.names {
		o.loose = o.loose || r.objects[n.Name] && !r.quiet[n]
	}
	for _, it := range r.methodItems {
		o.loose = o.loose || !r.quiet[it]
	}
	for _, a := range r.attrs {
		o.loose = o.loose || methodNames[a.Name] && !r.quiet[a]
	}
	return o
}

// ownReader is readOwnText's walk of a tree: what it found so far (o)
// and what it decides a node by.
type ownReader struct {
	o        ownText
	d        dataVars
	reprs    func(jinja2.Expr) bool
	assigned map[string]bool
	conts    map[string]int
	// quiet are the nodes where an object is called, tested or assigned,
	// not printed.
	quiet   map[jinja2.Node]bool
	objects map[string]bool
	// kept are the calls that make an object (makesObject) whose value
	// a set keeps in a variable, which is then one of objects.
	kept map[*jinja2.CallExpr]bool
	// the names, attributes and items of a method's name the walk met,
	// loose where they are not quiet (readOwnText decides at the end)
	names       []*jinja2.Name
	attrs       []*jinja2.AttrExpr
	methodItems []*jinja2.ItemExpr
}

// cut records what an operation that may not keep x whole does: a str
// constant cuts that literal only ('<|%s|>' % x), anything else that
// may hold a literal's bytes cuts the whole template.
func (r *ownReader) cut(x jinja2.Expr) {
	if c, ok := x.(*jinja2.Const); ok && c.Value.Kind() == jinja2.KindStr {
		r.o.cutLits = append(r.o.cutLits, c.Value.Str())
		return
	}
	r.o.cuts = r.o.cuts || !r.d.only(x)
	r.o.loose = r.o.loose || r.reprs != nil && r.reprs(x)
}

// depth is litDepth for a container name and for an item of a
// container (not a slice: a slice of a str is a cut).
func (r *ownReader) depth(x jinja2.Expr) int {
	switch x := x.(type) {
	case *jinja2.Name:
		return r.conts[x.Name]
	case *jinja2.ItemExpr:
		if _, ok := x.Key.(*jinja2.SliceExpr); !ok {
			return max(r.depth(x.X)-1, 0)
		}
		return 0
	}
	return litDepth(x)
}

// pick is cut for an operation that takes a container's items whole
// (join, an item): a container is not cut.
func (r *ownReader) pick(x jinja2.Expr) {
	if r.depth(x) <= 0 {
		r.cut(x)
	}
}

// quietTarget marks an assignment's target, and a tuple's items, quiet.
func (r *ownReader) quietTarget(t jinja2.Expr) {
	r.quiet[t] = true
	if tl, ok := t.(*jinja2.TupleLit); ok {
		for _, it := range tl.Items {
			r.quiet[it] = true
		}
	}
}

// formatArgs reads the arguments a format string is applied to: the
// characters %c makes of int constants, and loose when one holds a
// literal's bytes or a method's repr, or, when the format may make a
// character of a number (makesChars), is not data as given (d.raw):
// it may be a number the template computes.
func (r *ownReader) formatArgs(format jinja2.Expr, args ...jinja2.Expr) {
	chars := makesChars(format)
	for _, a := range args {
		r.formatArg(a, chars)
	}
}

// formatArg is formatArgs' reading of one argument.
func (r *ownReader) formatArg(a jinja2.Expr, chars bool) {
	switch a := a.(type) {
	case nil:
	case *jinja2.TupleLit:
		for _, it := range a.Items {
			r.formatArg(it, chars)
		}
	case *jinja2.Const:
		if a.Value.Kind() == jinja2.KindInt {
			r.o.chars = append(r.o.chars, intChar(a.Value))
		}
	default:
		// %c of a number the template computes (61 + 1,
		// messages|length + 61) is no literal's character
		r.o.loose = r.o.loose || !r.d.only(a) || chars && !r.d.raw(a, r.assigned) || r.reprs != nil && r.reprs(a)
	}
}

// visit reads one node of the walk.
func (r *ownReader) visit(n jinja2.Node) {
	switch x := n.(type) {
	case *jinja2.Macro:
		r.objects[x.Name] = true
	case *jinja2.For:
		r.quietTarget(x.Target)
		if r.depth(x.Iter) <= 0 {
			r.cut(x.Iter)
		}
	case *jinja2.Set:
		r.quietTarget(x.Target)
		if c, ok := x.Value.(*jinja2.CallExpr); ok && makesObject(c) {
			if n, ok := x.Target.(*jinja2.Name); ok {
				r.objects[n.Name], r.kept[c] = true, true
			}
		}
	case *jinja2.SetBlock:
		r.quietTarget(x.Target)
	case *jinja2.With:
		for _, t := range x.Targets {
			r.quietTarget(t)
		}
	case *jinja2.TestExpr:
		r.quiet[x.X] = true
	case *jinja2.Name:
		r.names = append(r.names, x)
	case *jinja2.AttrExpr:
		r.attrs = append(r.attrs, x)
		if n, ok := x.X.(*jinja2.Name); ok && (n.Name == "loop" || r.d.ns[n.Name]) {
			// loop.index, ns.attr: no object printed, nor a method,
			// but for loop.cycle and loop.changed
			r.quiet[n] = true
			if x.Name != "cycle" && x.Name != "changed" {
				r.quiet[x] = true
			}
		}
	case *jinja2.BinExpr:
		if x.Op == "%" {
			if c, ok := x.Left.(*jinja2.Const); !ok || c.Value.Kind() == jinja2.KindStr {
				r.cut(x.Left)
				r.formatArgs(x.Left, x.Right)
			}
		}
	case *jinja2.FilterExpr:
		r.visitFilter(x)
	case *jinja2.CallExpr:
		r.visitCall(x)
	case *jinja2.ItemExpr:
		if _, ok := x.Key.(*jinja2.SliceExpr); ok {
			r.cut(x.X)
		} else {
			r.pick(x.X)
		}
		// x['items'] of a dict without that key, a list or a str is
		// the method, as x.items is (Jinja2's getitem falls back to
		// getattr)
		if c, ok := x.Key.(*jinja2.Const); ok && c.Value.Kind() == jinja2.KindStr && methodNames[c.Value.Str()] {
			r.methodItems = append(r.methodItems, x)
		}
	}
}

// bareArgs tells whether a call passes no arguments.
func bareArgs(a jinja2.CallArgs) bool {
	return len(a.Args) == 0 && len(a.Kwargs) == 0 && a.DynArgs == nil && a.DynKwargs == nil
}

// visitFilter reads a filter: what it may write of its own (striptags,
// urlize, attr; format's arguments), and whether it keeps its operand
// whole (wholeFilters), trims it, takes a container's items whole
// (pickFilters) or cuts it.
func (r *ownReader) visitFilter(x *jinja2.FilterExpr) {
	switch {
	case x.Name == "striptags":
		r.o.loose, r.o.decodes = true, true
	case x.Name == "urlize" || x.Name == "attr":
		r.o.loose = true
	case x.Name == "format":
		r.formatArgs(x.X, x.Args.Args...)
		r.formatArgs(x.X, x.Args.DynArgs)
	}
	switch {
	case wholeFilters[x.Name]:
	case x.Name == "trim" && bareArgs(x.Args): // white space off the ends
		r.o.trims = r.o.trims || x.X == nil || !r.d.only(x.X)
	case x.X == nil: // a filter block's or set block's body
		r.o.cuts = true
	case pickFilters[x.Name]:
		r.pick(x.X)
	default:
		r.cut(x.X)
	}
}

// visitCall reads a call: a method of what it is called on (which it
// keeps whole, trims or cuts; join's and format's arguments), or a
// global that makes text or an object of its own.
func (r *ownReader) visitCall(x *jinja2.CallExpr) {
	r.quiet[x.Fn] = true
	switch f := x.Fn.(type) {
	case *jinja2.AttrExpr:
		switch {
		case wholeMethods[f.Name]:
		case bareArgs(x.Args) && (f.Name == "strip" || f.Name == "lstrip" || f.Name == "rstrip"):
			r.o.trims = r.o.trims || !r.d.only(f.X)
		default:
			r.cut(f.X)
		}
		switch f.Name {
		case "join":
			for _, a := range x.Args.Args {
				r.pick(a)
			}
		case "format", "format_map":
			r.formatArgs(f.X, x.Args.Args...)
			r.formatArgs(f.X, x.Args.DynArgs)
			for _, kw := range x.Args.Kwargs {
				r.formatArgs(f.X, kw.Value)
			}
		}
	case *jinja2.Name:
		switch f.Name {
		case "lipsum":
			r.o.loose = true
		case "cycler", "joiner", "namespace": // an object, printed unless kept in a variable
			r.o.loose = r.o.loose || !r.kept[x]
		case "loop": // a recursive loop's next level
			for _, a := range x.Args.Args {
				r.pick(a)
			}
		}
	}
}

// makesObject reports whether c makes an object that prints as its repr
// (<jinja2.utils.Cycler object at 0x…>, <Namespace {…}>).
func makesObject(c *jinja2.CallExpr) bool {
	f, ok := c.Fn.(*jinja2.Name)
	return ok && (f.Name == "cycler" || f.Name == "joiner" || f.Name == "namespace")
}

// makesChars reports whether format, a format string (% or
// str.format), may make a character of a number: it is not a constant,
// or it has a c conversion (%c, %-3c, %(n)c, {:c}, {0:>3c}).
func makesChars(format jinja2.Expr) bool {
	c, ok := format.(*jinja2.Const)
	if !ok || c.Value.Kind() != jinja2.KindStr {
		return true
	}
	f := c.Value.Str()
	if strings.Contains(f, "c}") {
		return true
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		_, j := percentSpec(f, i)
		if j < len(f) && f[j] == 'c' {
			return true
		}
		if j < len(f) && f[j] == '%' {
			i = j
		}
	}
	return false
}

// intChar is the character % formatting's %c makes of an int constant,
// or "" when it makes none.
func intChar(v jinja2.Value) string {
	n, ok := v.Int64()
	if !ok || n < 0 || n > utf8.MaxRune {
		return ""
	}
	return string(rune(n))
}

// reprPunct is the punctuation Jinja2 writes of its own around data,
// or around a character of it: the repr of lists, tuples, dicts and strs
// (brackets, quotes, ", ", ": ", backslash escapes), JSON (tojson),
// numbers (-, ., +), the filters' own text (truncate's "...", the padding
// of center and indent, wordwrap's newline, escape's and xmlattr's
// entities and quotes, urlencode's %XX) and strftime_now's (a zone's
// sign). Each of its characters is a piece that may stand anywhere: a
// template may cut what a repr writes (|string, then a slice), so an
// opening bracket next to a str's text is not ruled out.
const reprPunct = "[]{}()'\",: \n\t\\-.+&;#%="

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

// assign is a name the template assigns and what from: nil when not
// known (a set block's body, a loop's next level, an import, a macro
// parameter whose calls cannot be followed). "ns.attr" names a
// namespace's attribute, "ns.*" any of them.
type assign struct {
	name string
	from jinja2.Expr
}

func dataNames(tree *jinja2.Tree, tokenVars map[string]string) dataVars {
	as, ns := assignments(tree)
	d := dataVars{lit: map[string]bool{}, ns: ns}
	notData := maps.Clone(objectNames)
	notData["varargs"], notData["kwargs"] = true, true
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

// assignments returns what the template assigns (macro parameters
// followed to their calls, macroParams) and the names it assigns a
// namespace(…).
func assignments(tree *jinja2.Tree) ([]assign, map[string]bool) {
	w := assignWalk{
		ns:     map[string]bool{},
		macros: map[string][]*jinja2.Macro{},
		calls:  map[string][]*jinja2.CallArgs{},
		callee: map[*jinja2.Name]bool{},
	}
	jinja2.Walk(tree.Body, w.visit)
	w.macroAssigns()
	return w.as, w.ns
}

// assignWalk is assignments' walk of a template: what it assigns and the
// names assigned a namespace(…), and for following a macro's parameters
// to what its calls pass (macroParams) the macros by name, the
// arguments of the calls of each name, the names in call position, every
// name read, and whether the template includes, extends or imports.
type assignWalk struct {
	as     []assign
	ns     map[string]bool
	macros map[string][]*jinja2.Macro
	calls  map[string][]*jinja2.CallArgs
	callee map[*jinja2.Name]bool
	uses   []*jinja2.Name
	opaque bool
}

// visit records what node n assigns or tells of the macros' calls.
func (w *assignWalk) visit(n jinja2.Node) bool {
	switch x := n.(type) {
	case *jinja2.CallExpr:
		if f, ok := x.Fn.(*jinja2.Name); ok {
			w.callee[f] = true
			w.calls[f.Name] = append(w.calls[f.Name], &x.Args)
		}
	case *jinja2.Name:
		w.uses = append(w.uses, x)
	case *jinja2.Include, *jinja2.Extends:
		w.opaque = true
	case *jinja2.Set:
		w.set(x)
	case *jinja2.For:
		if x.Recursive { // loop(…) gives the next level
			w.targets(x.Target, nil)
		} else {
			w.targets(x.Target, x.Iter)
		}
	case *jinja2.SetBlock:
		w.targets(x.Target, nil)
	case *jinja2.With:
		for _, t := range x.Targets {
			w.targets(t, nil)
		}
	case *jinja2.Macro:
		w.as = append(w.as, assign{x.Name, nil})
		w.macros[x.Name] = append(w.macros[x.Name], x)
	case *jinja2.CallBlock:
		w.params(x.Params)
	case *jinja2.Import:
		w.opaque = true
		w.as = append(w.as, assign{x.Target, nil})
	case *jinja2.FromImport:
		w.opaque = true
		for _, in := range x.Names {
			w.as = append(w.as, assign{in.Alias, nil})
		}
	}
	return true
}

// set records a set statement's assignment: a namespace's attribute, a
// name given a namespace(…) (its keyword arguments its attributes, any
// other argument any attribute), or its targets.
func (w *assignWalk) set(x *jinja2.Set) {
	if r, ok := x.Target.(*jinja2.NSRef); ok {
		w.as = append(w.as, assign{r.Name + "." + r.Attr, x.Value})
		return
	}
	if c, ok := x.Value.(*jinja2.CallExpr); ok {
		if f, ok := c.Fn.(*jinja2.Name); ok && f.Name == "namespace" {
			if n, ok := x.Target.(*jinja2.Name); ok {
				w.ns[n.Name] = true
				for _, kw := range c.Args.Kwargs {
					w.as = append(w.as, assign{n.Name + "." + kw.Name, kw.Value})
				}
				if len(c.Args.Args) > 0 || c.Args.DynArgs != nil || c.Args.DynKwargs != nil {
					w.as = append(w.as, assign{n.Name + ".*", nil})
				}
				return
			}
		}
	}
	w.targets(x.Target, x.Value)
}

// targets records a name or the names of a tuple assigned from.
func (w *assignWalk) targets(t, from jinja2.Expr) {
	switch x := t.(type) {
	case *jinja2.Name:
		w.as = append(w.as, assign{x.Name, from})
	case *jinja2.TupleLit:
		for _, it := range x.Items {
			if n, ok := it.(*jinja2.Name); ok {
				w.as = append(w.as, assign{n.Name, from})
			}
		}
	}
}

// params records parameters assigned what is not known.
func (w *assignWalk) params(ps []jinja2.Param) {
	for _, p := range ps {
		w.as = append(w.as, assign{p.Name, nil})
	}
}

// macroAssigns records the macros' parameters: followed to their calls
// where macroParams may (one macro of its name, the name read only in
// call position, nothing included or imported), unknown elsewhere.
func (w *assignWalk) macroAssigns() {
	escaped := map[string]bool{}
	for _, u := range w.uses {
		if !w.callee[u] {
			escaped[u.Name] = true
		}
	}
	for name, ms := range w.macros {
		if len(ms) != 1 || escaped[name] || w.opaque {
			for _, m := range ms {
				w.params(m.Params)
			}
			continue
		}
		w.as = append(w.as, macroParams(ms[0], w.calls[name])...)
	}
}

// macroParams returns what m's parameters may take: each one's default,
// and what every call of m's name passes in its place (positionally or
// by keyword; a call that passes none takes the default, or leaves it
// undefined). m must be the only macro of its name, the name read only
// in call position (never passed on, kept or compared), and the template
// must include and import nothing (a template that includes or imports
// it might call it with other values); calls is every call of the name.
// A call with *args or **kwargs may pass anything to any parameter.
func macroParams(m *jinja2.Macro, calls []*jinja2.CallArgs) []assign {
	var out []assign
	for _, c := range calls {
		if c.DynArgs != nil || c.DynKwargs != nil {
			for _, p := range m.Params {
				out = append(out, assign{p.Name, nil})
			}
			return out
		}
	}
	for i, p := range m.Params {
		if p.Default != nil {
			out = append(out, assign{p.Name, p.Default})
		}
		for _, c := range calls {
			if i < len(c.Args) {
				out = append(out, assign{p.Name, c.Args[i]})
				continue
			}
			for _, kw := range c.Kwargs {
				if kw.Name == p.Name {
					out = append(out, assign{p.Name, kw.Value})
				}
			}
		}
	}
	return out
}

// raw reports whether x is data as given, computed from nothing: a
// variable the template never assigns (assigned holds those it does)
// and only data holds, an attribute or item of one (with a constant or
// raw key), a constant other than a str holding a literal. % formatting
// of anything else may make, with %c, a character that is no literal's
// (a number the template computes).
func (d dataVars) raw(x jinja2.Expr, assigned map[string]bool) bool {
	switch x := x.(type) {
	case *jinja2.Name:
		return !assigned[x.Name] && d.only(x)
	case *jinja2.Const:
		return d.only(x)
	case *jinja2.AttrExpr:
		if n, ok := x.X.(*jinja2.Name); ok && n.Name == "loop" {
			return false
		}
		return d.raw(x.X, assigned)
	case *jinja2.ItemExpr:
		if _, ok := x.Key.(*jinja2.SliceExpr); ok {
			return false
		}
		return d.raw(x.X, assigned) && d.raw(x.Key, assigned)
	case *jinja2.CondExpr:
		return d.raw(x.Then, assigned) && (x.Else == nil || d.raw(x.Else, assigned))
	}
	return false
}

// only reports whether x holds only the data's bytes, none of the
// template's literals.
func (d dataVars) only(x jinja2.Expr) bool {
	switch x := x.(type) {
	case nil:
		return true
	case *jinja2.Name:
		return !d.lit[x.Name] && !d.ns[x.Name] // a namespace may hold literals
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
		if x.X == nil { // a filter block's or set block's body
			return false
		}
		switch x.Name {
		case "trim", "lower", "upper", "title", "capitalize", "string", "list", "first", "last",
			"reverse", "items", "dictsort", "selectattr", "rejectattr", "select", "reject", "unique",
			"sort", "length", "count", "int", "float", "abs", "round", "safe", "e", "escape", "tojson":
			return d.only(x.X)
		}
	case *jinja2.CallExpr:
		if f, ok := x.Fn.(*jinja2.Name); ok && f.Name == "range" {
			return true // ints
		}
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

// globalFuncs are the globals a chat template calls whose value holds no
// text of their arguments' but what the arguments hold.
var globalFuncs = setOf("range", "dict", "namespace", "cycler", "joiner", "lipsum", "raise_exception", "strftime_now")

// methodItem reports whether x, an item read, may be a method: an item
// read with a str key that names a method, or with a key that may be a
// str (anything but a number), of a dict without that key, a list or a
// str is the method (Jinja2's getitem falls back to getattr:
// messages[0]['items'] is dict.items).
func methodItem(x *jinja2.ItemExpr) bool {
	switch k := x.Key.(type) {
	case *jinja2.SliceExpr:
		return false
	case *jinja2.Const:
		return k.Value.Kind() == jinja2.KindStr && methodNames[k.Value.Str()]
	}
	return !numeric(x.Key)
}

// numeric reports whether x is a number (or an error): an int constant,
// a loop counter, a sum or difference with one.
func numeric(x jinja2.Expr) bool {
	switch x := x.(type) {
	case *jinja2.Const:
		k := x.Value.Kind()
		return k == jinja2.KindInt || k == jinja2.KindFloat || k == jinja2.KindBool
	case *jinja2.AttrExpr:
		if n, ok := x.X.(*jinja2.Name); ok && n.Name == "loop" {
			switch x.Name {
			case "index", "index0", "revindex", "revindex0", "length", "depth", "depth0":
				return true
			}
		}
	case *jinja2.UnaryExpr:
		return x.Op == "-" || x.Op == "+"
	case *jinja2.BinExpr:
		return (x.Op == "+" || x.Op == "-") && (numeric(x.Left) || numeric(x.Right))
	case *jinja2.FilterExpr:
		return x.Name == "length" || x.Name == "count" || x.Name == "int"
	}
	return false
}

// methodReprs returns whether a value may be a method read as an item
// (methodItem) or a str that holds the repr of one
// (<built-in method items of dict object at 0x…>), following the
// template's assignments as: such a repr cut (a slice, |replace, '%.1s'
// %, …) may put its < or > next to data, which no literal holds. It
// returns nil when the template reads no item that may be a method.
func methodReprs(tree *jinja2.Tree, as []assign) func(jinja2.Expr) bool {
	if !readsMethodItem(tree) {
		return nil
	}
	m := methodFlow{
		meth: map[string]bool{"varargs": true, "kwargs": true, "caller": true},
		repr: map[string]bool{"varargs": true, "kwargs": true, "caller": true},
	}
	m.follow(as)
	return m.either
}

// readsMethodItem reports whether the template reads an item that may
// be a method (methodItem).
func readsMethodItem(tree *jinja2.Tree) bool {
	found := false
	jinja2.Walk(tree.Body, func(n jinja2.Node) bool {
		if x, ok := n.(*jinja2.ItemExpr); ok && methodItem(x) {
			found = true
		}
		return !found
	})
	return found
}

// methodFlow is methodReprs' knowledge of the names: meth holds those
// that may hold a method (or a container of one), repr those that may
// hold a str with a method's repr.
type methodFlow struct {
	meth, repr map[string]bool
}

// follow adds the names assigned what may hold a method or such a repr
// (and the namespace holding one), until no more are added.
func (m *methodFlow) follow(as []assign) {
	for changed := true; changed; {
		changed = false
		for _, a := range as {
			isM, isR := a.from == nil || m.isMeth(a.from), a.from == nil || m.isRepr(a.from)
			for _, n := range assignedNames(a) {
				if isM && !m.meth[n] {
					m.meth[n], changed = true, true
				}
				if isR && !m.repr[n] {
					m.repr[n], changed = true, true
				}
			}
		}
	}
}

// assignedNames are the names an assignment gives a value: its own, and
// the namespace's of a namespace attribute (ns.x), which then holds it.
func assignedNames(a assign) []string {
	names := []string{a.name}
	if i := strings.IndexByte(a.name, '.'); i >= 0 {
		names = append(names, a.name[:i])
	}
	return names
}

// either reports whether x may be a method or hold such a repr.
func (m *methodFlow) either(x jinja2.Expr) bool { return m.isMeth(x) || m.isRepr(x) }

// isMeth reports whether x may be a method, or a container of one.
func (m *methodFlow) isMeth(x jinja2.Expr) bool {
	switch x := x.(type) {
	case *jinja2.ItemExpr:
		return methodItem(x) || m.isMeth(x.X)
	case *jinja2.Name:
		return m.meth[x.Name]
	case *jinja2.FilterExpr:
		return x.X != nil && m.isMeth(x.X) || anyArg(&x.Args, m.isMeth)
	case *jinja2.CallExpr:
		if a, ok := x.Fn.(*jinja2.AttrExpr); ok && m.isMeth(a.X) {
			return true
		}
		return anyArg(&x.Args, m.isMeth)
	}
	return through(x, m.isMeth)
}

// isRepr reports whether x may be a str that holds a method's repr.
func (m *methodFlow) isRepr(x jinja2.Expr) bool {
	switch x := x.(type) {
	case *jinja2.Name:
		return m.repr[x.Name]
	case *jinja2.ItemExpr:
		return m.isRepr(x.X)
	case *jinja2.Concat:
		return anyExpr(x.Items, m.either)
	case *jinja2.BinExpr:
		return m.either(x.Left) || m.either(x.Right)
	case *jinja2.FilterExpr:
		return x.X == nil || m.either(x.X) || anyArg(&x.Args, m.either) // a block's body may print one
	case *jinja2.CallExpr:
		switch f := x.Fn.(type) {
		case *jinja2.AttrExpr:
			return m.either(f.X) || anyArg(&x.Args, m.either)
		case *jinja2.Name:
			if globalFuncs[f.Name] {
				return anyArg(&x.Args, m.either)
			}
		}
		return true // a macro's output, caller(): may print one
	}
	return through(x, m.isRepr)
}

// through is f of the operands x gives back, for the kinds isMeth and
// isRepr look through alike: an attribute (loop.previtem and
// loop.nextitem are an item of a loop's sequence), a list, tuple or dict
// literal, a conditional expression; any other kind is false.
func through(x jinja2.Expr, f func(jinja2.Expr) bool) bool {
	switch x := x.(type) {
	case *jinja2.AttrExpr:
		if n, isName := x.X.(*jinja2.Name); isName && n.Name == "loop" {
			return x.Name == "previtem" || x.Name == "nextitem"
		}
		return f(x.X)
	case *jinja2.ListLit:
		return anyExpr(x.Items, f)
	case *jinja2.TupleLit:
		return anyExpr(x.Items, f)
	case *jinja2.DictLit:
		return anyExpr(x.Keys, f) || anyExpr(x.Values, f)
	case *jinja2.CondExpr:
		return f(x.Then) || x.Else != nil && f(x.Else)
	}
	return false
}

// anyExpr reports whether f holds of one of xs.
func anyExpr(xs []jinja2.Expr, f func(jinja2.Expr) bool) bool {
	for _, x := range xs {
		if f(x) {
			return true
		}
	}
	return false
}

// anyArg reports whether f holds of one of a call's arguments.
func anyArg(a *jinja2.CallArgs, f func(jinja2.Expr) bool) bool {
	if anyExpr(a.Args, f) {
		return true
	}
	for _, kw := range a.Kwargs {
		if f(kw.Value) {
			return true
		}
	}
	return a.DynArgs != nil && f(a.DynArgs) || a.DynKwargs != nil && f(a.DynKwargs)
}
