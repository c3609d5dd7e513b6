package handlebars

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aymerick/raymond/ast"

	"github.com/rolemark/rolemark/roleparse"
)

// kind says how a helper may be used.
type kind int

const (
	kindMarker    kind = iota // role: {{role "user"}}, never a block
	kindRoleBlock             // message, system, user, assistant: blocks only
	kindHistory               // {{history}}: no arguments, never a block
	kindMedia                 // {{media url=…}}: never a block
	kindBlock                 // if, unless, with, each, equal, ifEquals, unlessEquals: blocks only
	kindInline                // lookup, json, section: never a block
	kindRejected              // log (writes to the process's log)
	kindUser                  // a caller's helper (Funcs): anything goes
)

// builtinArity holds the number of arguments of raymond's built-in helpers
// (registered globally by raymond itself) and of the Dotprompt helpers
// rolemark adds (json, ifEquals, unlessEquals).
var builtinArity = map[string]int{
	"if": 1, "unless": 1, "with": 1, "each": 1, "equal": 2, "lookup": 2, "log": 1,
	"json": 1, "ifEquals": 2, "unlessEquals": 2,
}

func helperKind(name string, user map[string]any) (kind, bool) {
	if _, ok := user[name]; ok {
		// Funcs cannot take the name of another helper (checkFuncs), but
		// may define section.
		return kindUser, true
	}
	switch name {
	case "role":
		return kindMarker, true
	case "message", "system", "user", "assistant":
		return kindRoleBlock, true
	case "history":
		return kindHistory, true
	case "media":
		return kindMedia, true
	case "if", "unless", "with", "each", "equal", "ifEquals", "unlessEquals":
		return kindBlock, true
	case "lookup", "json", "section":
		return kindInline, true
	case "log":
		return kindRejected, true
	}
	return 0, false
}

// allowedHash lists the hash keys each of rolemark's helpers accepts.
var allowedHash = map[string][]string{
	"role":      {"name", "tool_call_id"},
	"message":   {"role", "name", "tool_call_id"},
	"system":    {"name"},
	"user":      {"name"},
	"assistant": {"name", "tool_call_id"},
	"media":     {"url", "mimetype", "contentType", "detail"},
}

// varRef is a variable a template reads from the root of its data.
type varRef struct {
	unit  *unit
	pos   int
	name  string   // as written, such as user.name or @root.x
	path  []string // the parts to look up in the data
	conds []cond   // checked only when these hold
	data  bool     // an @-variable, looked up in the request's Data
}

// builtinData are the @-variables raymond itself provides, and the one
// rolemark's helpers read their state from.
var builtinData = map[string]bool{"root": true, "index": true, "key": true, "first": true, "last": true, stateKey: true}

// edit replaces src[pos:end] by text before raymond parses the source,
// such as the name of a path with [name].
type edit struct {
	pos, end int
	text     string
}

// unit is one parsed source: the template or one partial.
type unit struct {
	name    string // the template's name or the partial's file path
	partial string // the partial's name ("" for the template)
	src     string
	prog    *ast.Program
	ends    map[*ast.MustacheStatement]int // where mustaches without ~ end
	spans   map[*ast.BlockStatement]blockSpan
	edits   []edit
	// prints are the edits that make {{x}} print x through printHelper:
	// raymond's own source only (the fast path prints values itself).
	prints []edit
	walked [2]bool // walked with scoped = false, true
	// calls are the template's calls of rolemark's helpers and the
	// caller's, which locate renames to find the one that failed (the
	// template itself only, not a partial).
	calls    []call
	partials []string
}

// call is a helper call of a unit: the helper's name at pos and, for a
// block, at closePos in its closing tag (-1 for a mustache).
type call struct {
	name          string
	pos, closePos int
}

// call records the helper call of the mustache or block e (span is the
// block's), when the helper is rolemark's or the caller's and is called.
func (w *walker) call(e *ast.Expression, span *blockSpan) {
	if !w.record || w.u.partial != "" {
		return
	}
	path, ok := e.Path.(*ast.PathExpression)
	if !ok || path.Data || len(path.Parts) != 1 || path.Original != e.HelperName() {
		return
	}
	name := path.Original
	ours := false
	switch name {
	case "role", "message", "system", "user", "assistant", "history", "media", "json", "ifEquals", "unlessEquals":
		ours = true // helpers()'s names
	}
	_, theirs := w.c.eng.funcs[name]
	if !ours && !theirs || span == nil && !theirs && len(e.Params) == 0 && e.Hash == nil {
		return // not a helper, or {{user}}: the data value
	}
	c := call{name: name, pos: path.Pos, closePos: -1}
	if span != nil {
		i := strings.LastIndex(w.u.src[span.closeStart:span.closeEnd], name)
		if i < 0 {
			return
		}
		c.closePos = span.closeStart + i
	}
	w.u.calls = append(w.u.calls, c)
}

// compileError is a problem at a position of a unit.
type compileError struct {
	unit *unit
	pos  int
	err  error
}

func (e *compileError) Error() string { return e.err.Error() }

// walker walks a template's tree once at compile time, html/template
// style: it decides for every expression whether it is a helper call or a
// variable, rejects what raymond would silently render empty or crash on,
// records the variables to check against the data at render time, records
// the partials to load, and records the edits that turn {{user}} (a role
// helper used without a block) into {{[user]}}, a path raymond resolves to
// data.
type walker struct {
	c      *compiler
	u      *unit
	record bool   // record edits (first walk of the unit only)
	conds  []cond // the conditions of the enclosing branches
}

func (w *walker) failf(n ast.Node, format string, args ...any) {
	panic(&compileError{unit: w.u, pos: n.Location().Pos, err: fmt.Errorf(format, args...)})
}

// program walks a program. scoped means that the current context may not be
// the root of the data (inside #each, #with, a section or a caller's block
// helper), so variables cannot be checked.
func (w *walker) program(p *ast.Program, scoped bool, c cond) {
	if p == nil {
		return
	}
	if len(p.BlockParams) > 0 {
		scoped = true
	}
	if !c.always() {
		w.conds = append(w.conds, c)
		defer func() { w.conds = w.conds[:len(w.conds)-1] }()
	}
	for _, n := range p.Body {
		switch n := n.(type) {
		case *ast.MustacheStatement:
			w.expression(n.Expression, posMustache, scoped)
			w.expandRole(n)
			w.call(n.Expression, nil)
		case *ast.BlockStatement:
			w.block(n, scoped)
			if span, ok := w.u.spans[n]; ok {
				w.call(n.Expression, &span)
			}
		case *ast.PartialStatement:
			w.partial(n, scoped)
		}
	}
}

type position int

const (
	posMustache position = iota
	posBlock
	posSexpr
)

func (p position) describe(name string) string {
	switch p {
	case posBlock:
		return "{{#" + name + "}}"
	case posSexpr:
		return "(" + name + " …)"
	}
	return "{{" + name + " …}}"
}

// expression walks the expression of a mustache, a block or a
// subexpression: a call of a known helper, checked for how it is used, or a
// variable.
func (w *walker) expression(e *ast.Expression, at position, scoped bool) {
	name := e.HelperName()
	k, known := helperKind(name, w.c.eng.funcs)
	hasArgs := len(e.Params) > 0 || e.Hash != nil
	if !known {
		if hasArgs {
			if name == "" {
				w.failf(e, "%s is not a helper name: only a helper takes arguments", exprName(e))
			}
			w.failf(e, "unknown helper %q (known: %s)", name, w.c.knownList())
		}
		// A variable: {{x}}, or a section {{#x}}…{{/x}}, whose value is a
		// condition and is not required.
		if at != posBlock {
			w.value(e.Path, scoped)
		}
		if at == posMustache {
			w.print(e)
		}
		return
	}
	switch k {
	case kindMarker, kindRoleBlock, kindMedia:
		if !hasArgs && at != posBlock {
			// {{user}}: the data value of that name.
			w.dataShadow(e, scoped)
			return
		}
		if at == posSexpr {
			w.failf(e, "%s writes markup and cannot be used inside an expression", name)
		}
		switch {
		case k == kindMarker && at == posBlock:
			w.failf(e, `role is a marker that runs until the next one: write {{role "user"}}, or {{#message role="user"}}…{{/message}} for a block`)
		case k == kindMedia && at == posBlock:
			w.failf(e, `media is not a block helper: write {{media url=… mimetype=…}}`)
		case k == kindRoleBlock && at != posBlock:
			if name == "message" {
				w.failf(e, `message is a block helper: write {{#message role="user"}}…{{/message}}, or the marker {{role "user"}}`)
			}
			w.failf(e, "%s is a block helper: write {{#%s}}…{{/%s}} ({{%s}} without arguments prints the variable %s)", name, name, name, name, name)
		}
		w.checkArgs(e, name, scoped)
	case kindHistory:
		if at != posMustache {
			w.failf(e, "history inserts the conversation's history and cannot be used as %s", at.describe(name))
		}
		if hasArgs {
			w.failf(e, "history takes no arguments")
		}
	case kindBlock:
		if at != posBlock {
			// raymond would evaluate the enclosing block again from inside
			// itself: endless recursion, a fatal stack overflow.
			w.failf(e, "%s is a block helper: write {{#%s …}}…{{/%s}}", name, name, name)
		}
		n := builtinArity[name]
		if name == "section" {
			n = 1 // not in builtinArity: a caller's Funcs may define section
		}
		if len(e.Params) != n {
			w.failf(e, "#%s takes %d argument(s), found %d", name, n, len(e.Params))
		}
		for i, p := range e.Params {
			if i == 0 && (name == "if" || name == "unless") {
				w.condition(p, scoped)
				continue
			}
			w.value(p, scoped)
		}
		w.hash(e.Hash, scoped)
	case kindInline:
		if at == posBlock {
			w.failf(e, "%s is not a block helper", name)
		}
		n := builtinArity[name]
		if name == "section" {
			n = 1 // not in builtinArity: a caller's Funcs may define section
		}
		if len(e.Params) != n {
			w.failf(e, "%s takes %d argument(s), found %d", name, n, len(e.Params))
		}
		if e.Hash != nil && (name != "json" || len(e.Hash.Pairs) != 1 || e.Hash.Pairs[0].Key != "indent") {
			w.failf(e.Hash, "%s takes no named arguments%s", name, map[bool]string{true: " but indent=", false: ""}[name == "json"])
		}
		w.values(e.Params, scoped)
		w.hash(e.Hash, scoped)
	case kindRejected:
		w.failf(e, "the %s helper writes to the process's log and is not available in rolemark", name)
	case kindUser:
		w.values(e.Params, scoped)
		w.hash(e.Hash, scoped)
	}
}

// checkArgs checks the arguments of rolemark's own helpers.
func (w *walker) checkArgs(e *ast.Expression, name string, scoped bool) {
	// raymond calls a helper only with exactly as many positional
	// arguments as its Go function takes: role takes one, the others none.
	want := 0
	if name == "role" {
		want = 1
	}
	if len(e.Params) != want {
		switch name {
		case "role":
			w.failf(e, `role takes one argument, the role: {{role "user" name=…}}`)
		case "media":
			w.failf(e, "media takes its arguments by name: {{media url=… mimetype=…}}")
		case "message":
			w.failf(e, `message takes its arguments by name: {{#message role="user" name=…}}`)
		}
		w.failf(e, "%s takes no positional arguments", name)
	}
	if e.Hash != nil {
		for _, pair := range e.Hash.Pairs {
			ok := false
			for _, k := range allowedHash[name] {
				ok = ok || pair.Key == k
			}
			if !ok {
				w.failf(pair, "%s does not take %s= (it takes %s)", name, pair.Key, strings.Join(allowedHash[name], "=, ")+"=")
			}
		}
	}
	switch name {
	case "message":
		if !hasKey(e.Hash, "role") {
			w.failf(e, `message needs a role: {{#message role="user"}}`)
		}
	case "media":
		if !hasKey(e.Hash, "url") {
			w.failf(e, "media needs a url: {{media url=… mimetype=…}}")
		}
	}
	w.values(e.Params, scoped)
	w.hash(e.Hash, scoped)
}

func hasKey(h *ast.Hash, key string) bool {
	if h == nil {
		return false
	}
	for _, p := range h.Pairs {
		if p.Key == key {
			return true
		}
	}
	return false
}

// dataShadow handles {{user}}: the helper's name used without arguments and
// without a block prints the data value, so the path is rewritten to
// {{[user]}}, which raymond resolves as data only.
func (w *walker) dataShadow(e *ast.Expression, scoped bool) {
	path := e.Path.(*ast.PathExpression)
	if w.record {
		w.u.edits = append(w.u.edits, edit{pos: path.Pos, end: path.Pos + len(path.Original), text: "[" + path.Original + "]"})
	}
	w.print(e)
	w.value(path, scoped)
}

// print records the edit that makes the mustache {{x}} (or {{{x}}}) print
// the value of the path x through printHelper; an @-variable prints as
// raymond prints it (@index and @key are integers and strings).
func (w *walker) print(e *ast.Expression) {
	if path, ok := e.Path.(*ast.PathExpression); ok && w.record && !path.Data {
		w.u.prints = append(w.u.prints, edit{pos: path.Pos, end: path.Pos, text: printHelper + " "})
	}
}

func (w *walker) block(b *ast.BlockStatement, scoped bool) {
	name := b.Expression.HelperName()
	k, known := helperKind(name, w.c.eng.funcs)
	isHelper := known || len(b.Expression.Params) > 0 || b.Expression.Hash != nil
	w.expression(b.Expression, posBlock, scoped)
	w.expandBlock(b)
	var subject ast.Node // what the block tests: the section's path or the helper's argument
	if !isHelper {
		subject = b.Expression.Path
	} else if len(b.Expression.Params) > 0 && b.Expression.Hash == nil {
		subject = b.Expression.Params[0]
	}
	if name == "each" && b.Program != nil && len(b.Program.BlockParams) > 1 {
		w.c.eachKeyParam = true
	}
	switch {
	case !isHelper || (k == kindBlock && (name == "with" || name == "each")):
		// A section over data, #each or #with: the body runs with the
		// value as its context; the {{else}} part runs when the value is
		// falsy, in the current context. A section's value is a
		// condition, tested as #if tests it.
		if !isHelper {
			w.test(subject, scoped)
		}
		w.program(b.Program, true, cond{})
		w.program(b.Inverse, scoped, w.cond(subject, scoped, true))
	case k == kindRoleBlock:
		if b.Inverse != nil {
			w.failf(b, "{{#%s}} has no {{else}} part", name)
		}
		w.program(b.Program, scoped, cond{})
	case name == "if" || name == "unless":
		w.test(subject, scoped)
		c := w.cond(subject, scoped, name == "unless")
		w.program(b.Program, scoped, c)
		c.negate = !c.negate
		w.program(b.Inverse, scoped, c)
	case k == kindBlock: // equal, ifEquals, unlessEquals
		w.program(b.Program, scoped, cond{unknown: true})
		w.program(b.Inverse, scoped, cond{unknown: true})
	default: // a caller's helper: context unknown
		w.program(b.Program, true, cond{})
		w.program(b.Inverse, true, cond{})
	}
}

// cond is the condition under which a branch of a block runs: the value at
// path (from the root of the data) is truthy, or falsy when negate is set.
// The zero cond is "always"; an unknown cond cannot be evaluated before the
// render (a subexpression, a literal, a comparison, a path that is not at
// the root), and variables under it are not checked.
type cond struct {
	path    []string
	negate  bool
	unknown bool
}

func (c cond) always() bool { return c.path == nil && !c.unknown }

// cond returns the condition that subject is truthy (falsy with negate).
func (w *walker) cond(subject ast.Node, scoped, negate bool) cond {
	p, ok := subject.(*ast.PathExpression)
	if !ok || scoped || p.Depth > 0 || len(p.Parts) == 0 || p.Data && p.Parts[0] != "root" {
		return cond{unknown: true}
	}
	parts := p.Parts
	if p.Data {
		parts = parts[1:]
	}
	if len(parts) == 0 {
		return cond{unknown: true}
	}
	return cond{path: parts, negate: negate}
}

func (w *walker) partial(p *ast.PartialStatement, scoped bool) {
	if n, ok := p.Name.(*ast.PathExpression); ok && n.Data {
		w.failf(p, "a partial name cannot be a @data variable")
	}
	// The name raymond looks the partial up by: a path without its
	// brackets ({{> [a b]}} is "a b"), a literal's text ({{> 404}}).
	name, ok := ast.HelperNameStr(p.Name)
	if !ok {
		w.failf(p, "partial names must be written out ({{> name}}): dynamic partials are not supported")
	}
	w.values(p.Params, scoped)
	w.hash(p.Hash, scoped)
	if len(p.Params) > 0 || p.Hash != nil {
		scoped = true
	}
	if w.record {
		w.u.partials = append(w.u.partials, name)
	}
	w.c.include(w, p, name, scoped)
}

func (w *walker) values(ns []ast.Node, scoped bool) {
	for _, n := range ns {
		w.value(n, scoped)
	}
}

func (w *walker) hash(h *ast.Hash, scoped bool) {
	if h == nil {
		return
	}
	for _, p := range h.Pairs {
		w.value(p.Val, scoped)
	}
}

// condition walks a value that may be missing (the argument of #if and
// #unless).
func (w *walker) condition(n ast.Node, scoped bool) {
	if s, ok := n.(*ast.SubExpression); ok {
		w.expression(s.Expression, posSexpr, scoped)
	}
}

// test records a path of the data's root that #if or #unless tests or a
// section opens: a render does not require it, but the template reads it
// (ReadVars).
func (w *walker) test(n ast.Node, scoped bool) {
	p, ok := n.(*ast.PathExpression)
	if !ok || !w.record || scoped || p.Depth > 0 || p.Data || len(p.Parts) == 0 {
		return
	}
	w.c.tested = append(w.c.tested, varRef{unit: w.u, pos: p.Pos, name: p.Original, path: p.Parts})
}

// value walks a parameter, hash value or variable.
func (w *walker) value(n ast.Node, scoped bool) {
	switch n := n.(type) {
	case *ast.SubExpression:
		w.expression(n.Expression, posSexpr, scoped)
	case *ast.PathExpression:
		w.variable(n, scoped)
	}
}

// variable records a path that must resolve in the data.
func (w *walker) variable(p *ast.PathExpression, scoped bool) {
	parts := p.Parts
	switch {
	case p.Data && len(parts) > 0 && parts[0] == "root":
		parts = parts[1:] // @root.x reads the root whatever the scope
	case p.Data && len(parts) > 0 && !builtinData[parts[0]]:
		// The caller's @-data (driver.Request.Data), checked by its first
		// name wherever it is read.
		w.c.vars = append(w.c.vars, varRef{unit: w.u, pos: p.Pos, name: "@" + parts[0], path: parts[:1], data: true})
		return
	case p.Data, scoped, p.Depth > 0:
		return
	}
	if len(parts) == 0 {
		return
	}
	for _, c := range w.conds {
		if c.unknown {
			return
		}
	}
	w.c.vars = append(w.c.vars, varRef{unit: w.u, pos: p.Pos, name: p.Original, path: parts, conds: append([]cond(nil), w.conds...)})
}

func exprName(e *ast.Expression) string {
	if s, ok := ast.HelperNameStr(e.Path); ok {
		return s
	}
	return "this expression"
}

func (c *compiler) knownList() string {
	names := []string{"role", "message", "system", "user", "assistant", "history", "media", "if", "unless", "with", "each", "equal", "lookup", "json", "ifEquals", "unlessEquals", "section"}
	for n := range c.eng.funcs {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// expandRole replaces {{role "user"}}, a marker with one literal role and
// nothing else, by the message tag it prints, so that rendering makes no
// helper call for it. Whitespace control (~) keeps the helper call.
func (w *walker) expandRole(n *ast.MustacheStatement) {
	e := n.Expression
	end, ok := w.u.ends[n]
	if !w.record || !ok || n.Unescaped || e.HelperName() != "role" || len(e.Params) != 1 || e.Hash != nil {
		return
	}
	if _, user := w.c.eng.funcs["role"]; user {
		return
	}
	lit, ok := e.Params[0].(*ast.StringLiteral)
	if !ok || lit.Value == "" {
		return
	}
	tag := string(roleparse.MessageTag(lit.Value))
	if !literalText(tag) {
		return
	}
	w.u.edits = append(w.u.edits, edit{pos: n.Pos, end: end, text: tag})
}

// literalText reports whether text, written into a template's source by
// an edit, stays text when raymond parses it: a {{ in it (from a literal
// argument such as role="us{{er") would open a mustache.
func literalText(text string) bool { return !strings.Contains(text, "{{") }

// expandBlock replaces the tags of {{#user}}…{{/user}} (and system,
// assistant, and {{#message role="…"}}) whose arguments are all literal by
// the message's tags, so that rendering makes no helper call for them. The
// standalone-line rule that raymond applies to block tags changes only
// whitespace at the ends of the message, which the markup trims anyway.
func (w *walker) expandBlock(b *ast.BlockStatement) {
	span, ok := w.u.spans[b]
	e := b.Expression
	if !w.record || !ok || b.Inverse != nil || len(b.Program.BlockParams) > 0 || len(e.Params) > 0 {
		return
	}
	name := e.HelperName()
	if _, user := w.c.eng.funcs[name]; user {
		return
	}
	role := ""
	switch name {
	case "system", "user", "assistant":
		role = name
	case "message":
	default:
		return
	}
	var attrs []roleparse.Attr
	if e.Hash != nil {
		for _, p := range e.Hash.Pairs {
			lit, ok := p.Val.(*ast.StringLiteral)
			if !ok {
				return
			}
			switch {
			case p.Key == "role" && name == "message":
				role = lit.Value
			case p.Key == "name" || p.Key == "tool_call_id":
				attrs = append(attrs, roleparse.Attr{Key: p.Key, Value: lit.Value})
			default:
				return
			}
		}
	}
	if role == "" {
		return
	}
	tag := string(roleparse.MessageTag(role, attrs...))
	if !literalText(tag) {
		return
	}
	w.u.edits = append(w.u.edits,
		edit{pos: span.openStart, end: span.openEnd, text: tag},
		edit{pos: span.closeStart, end: span.closeEnd, text: string(roleparse.EndTag)})
}
