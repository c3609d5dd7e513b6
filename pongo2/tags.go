package pongo2

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"

	p2 "github.com/flosch/pongo2/v6"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/roleparse"
)

// maxMacroDepth bounds how deeply macros may call each other. pongo2 v6 has
// no limit: a recursive macro overflows the goroutine stack, which kills the
// process.
const maxMacroDepth = 100

// registration guards the one global side effect of this package: adding
// rolemark's tags to pongo2's tag registry, which pongo2 v6 keeps in an
// unsynchronised package-level map.
var (
	registerOnce sync.Once
	registerErr  error
)

// register adds rolemark's tags to pongo2's registry, once per process.
func register() error {
	registerOnce.Do(func() {
		tags := []struct {
			name string
			fn   p2.TagParser
		}{
			{printTag, parsePrint},
			{atTag, parseAt},
			{tickTag, parseTick},
			{macroTag, parseMacroGuard},
			{tagPrefix + "message", parseMessage},
			{tagPrefix + "system", fixedRoleParser("system")},
			{tagPrefix + "user", fixedRoleParser("user")},
			{tagPrefix + "assistant", fixedRoleParser("assistant")},
			{tagPrefix + "widthratio", parseWidthratio},
		}
		for _, t := range tags {
			if err := p2.RegisterTag(t.name, t.fn); err != nil {
				registerErr = fmt.Errorf("pongo2: registering pongo2 tag %q: %w", t.name, err)
				return
			}
		}
		if err := p2.RegisterFilter(keysFilter, keysFilterFunc); err != nil {
			registerErr = fmt.Errorf("pongo2: registering pongo2 filter %s: %w", keysFilter, err)
			return
		}
		if !p2.FilterExists("tojson") {
			if err := p2.RegisterFilter("tojson", tojsonFilter); err != nil {
				registerErr = fmt.Errorf("pongo2: registering pongo2 filter tojson: %w", err)
			}
		}
	})
	return registerErr
}

// keysFilterFunc is the filter the rewriter puts after the object of a
// for loop with one variable (orderFor): a map becomes the list of its keys
// in the order pongo2's sorted keyword gives them (integers and floats by
// value, anything else by its text); a list, a string or nil passes
// through, and any other value (a number, a bool, a struct) is an error.
// With the parameter 2 (a loop with two variables, made sorted) a string
// becomes the list of its bytes, which pongo2 can sort.
func keysFilterFunc(in *p2.Value, param *p2.Value) (*p2.Value, *p2.Error) {
	rv := reflect.ValueOf(in.Interface())
	for rv.Kind() == reflect.Interface || rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return in, nil
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Map, reflect.Slice, reflect.Array, reflect.String, reflect.Invalid:
	default:
		// pongo2 v6 loops over a number, a bool or a struct zero times,
		// silently; Django raises TypeError
		return nil, &p2.Error{Sender: "filter:" + keysFilter, OrigError: fmt.Errorf("for cannot loop over %s, a value of type %s", format(in.Interface()), rv.Type())}
	}
	if param != nil && param.IsInteger() && param.Integer() == 2 {
		// a loop with two variables, which the rewriter made sorted
		if rv.Kind() != reflect.String {
			return in, nil
		}
		s := rv.String()
		bytes := make([]string, len(s)) // []string: pongo2 sorts no []any
		for i := range len(s) {
			bytes[i] = s[i : i+1] // pongo2 walks a string byte by byte
		}
		return p2.AsValue(bytes), nil
	}
	if rv.Kind() != reflect.Map {
		return in, nil
	}
	keys := rv.MapKeys()
	slices.SortStableFunc(keys, func(a, b reflect.Value) int {
		va, vb := p2.AsValue(a.Interface()), p2.AsValue(b.Interface())
		switch {
		case va.IsInteger() && vb.IsInteger():
			return cmp.Compare(va.Integer(), vb.Integer())
		case va.IsFloat() && vb.IsFloat():
			return cmp.Compare(va.Float(), vb.Float())
		}
		return strings.Compare(va.String(), vb.String())
	})
	out := make([]any, len(keys))
	for i, k := range keys {
		out[i] = k.Interface()
	}
	return p2.AsValue(out), nil
}

// tojsonFilter is Jinja's {{ v|tojson }} and {{ v|tojson:2 }} (pongo2 writes a filter's argument after a colon): the value
// as JSON text, indented by the number of spaces given. Its result is not
// safe: it is escaped like any value, so it cannot leave the <tool_call> or
// message it is written in. Unlike Jinja2's, it does not write < > & and '
// as \u escapes, which the markup's escaping makes needless; the JSON means
// the same.
func tojsonFilter(in *p2.Value, param *p2.Value) (*p2.Value, *p2.Error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if param != nil && param.IsInteger() && param.Integer() > 0 {
		enc.SetIndent("", strings.Repeat(" ", param.Integer()))
	}
	if err := enc.Encode(in.Interface()); err != nil {
		return nil, &p2.Error{Sender: "filter:tojson", OrigError: err}
	}
	return p2.AsValue(strings.TrimSuffix(buf.String(), "\n")), nil
}

// renderState is what one render's tags and functions share. It reaches
// them through the pongo2 context under stateKey, so every render has its
// own and no state is global.
type renderState struct {
	req      *driver.Request
	ctx      context.Context
	done     <-chan struct{}
	depth    int
	maxDepth int
	// scratch is reused to escape strings into.
	scratch []byte
	// at is the {{ }} being evaluated, to place a panic.
	at *p2.Token
}

// stateKey is the context key of the render state. pongo2 requires context
// keys to be identifiers.
const stateKey = "rolemark_render_state"

func stateOf(ctx *p2.ExecutionContext) *renderState {
	st, _ := ctx.Public[stateKey].(*renderState)
	return st
}

// safeField is the index of p2.Value's unexported "safe" flag, or -1
// when pongo2's layout changed (then no value counts as safe, which errs on
// the side of escaping; a test catches it).
var safeField = func() int {
	f, ok := reflect.TypeOf(p2.Value{}).FieldByName("safe")
	if !ok || f.Type.Kind() != reflect.Bool || len(f.Index) != 1 {
		return -1
	}
	return f.Index[0]
}()

// isSafe reports whether pongo2 marked v safe: the result of a macro, of
// block.Super, of a function returning p2.AsSafeValue.
func isSafe(v *p2.Value) bool {
	if safeField < 0 || v == nil {
		return false
	}
	return reflect.ValueOf(v).Elem().Field(safeField).Bool()
}

// printNode is {{ expr }} after rewriting: it prints expr's value escaped
// with roleparse's rules, whatever its type (a roleparse.Markup value
// included), unless |safe is applied or pongo2 marks the value safe (the
// result of a macro, of block.Super, of role, history and media, of a
// caller's function returning roleparse.Markup).
type printNode struct {
	expr p2.IEvaluator
	tok  *p2.Token
	safe bool // |safe appears in the filter chain
}

func parsePrint(doc *p2.Parser, start *p2.Token, args *p2.Parser) (p2.INodeTag, *p2.Error) {
	if args.Remaining() == 0 {
		return nil, args.Error("Expected an expression between {{ and }}.", start)
	}
	expr, err := args.ParseExpression()
	if err != nil {
		return nil, err
	}
	if args.Remaining() > 0 {
		return nil, args.Error("'}}' expected", nil)
	}
	tok := expr.GetPositionToken()
	if tok == nil {
		tok = start
	}
	return &printNode{expr: expr, tok: tok, safe: expr.FilterApplied("safe")}, nil
}

func (n *printNode) Execute(ctx *p2.ExecutionContext, w p2.TemplateWriter) *p2.Error {
	st := stateOf(ctx)
	var prev *p2.Token
	if st != nil {
		if st.done != nil {
			select {
			case <-st.done:
				return ctx.OrigError(st.ctx.Err(), n.tok)
			default:
			}
		}
		prev, st.at = st.at, n.tok
	}
	v, err := n.expr.Evaluate(ctx)
	if err != nil {
		return err
	}
	if st != nil {
		st.at = prev
	}
	x := printable(v.Interface())
	if err := driver.CheckPrint(x); err != nil {
		// fmt would print an address, which changes from run to run,
		// or a method's panic
		return ctx.OrigError(err, n.tok)
	}
	if n.safe || isSafe(v) {
		w.WriteString(format(x))
		return nil
	}
	if s, ok := x.(string); ok && st != nil {
		// The common case, without building an escaped string.
		st.scratch = roleparse.AppendEscape(st.scratch[:0], s)
		w.Write(st.scratch)
		return nil
	}
	w.WriteString(roleparse.EscapeValue(x))
	return nil
}

// printable dereferences pointers, as pongo2 does when it prints, unless the
// pointer itself prints (a fmt.Stringer or an error).
func printable(x any) any {
	switch x.(type) {
	case string, roleparse.Markup, int, float64, bool, nil, fmt.Stringer, error:
		return x
	}
	v := reflect.ValueOf(x)
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
		if !v.CanInterface() {
			return x
		}
		switch e := v.Interface().(type) {
		case fmt.Stringer, error:
			return e
		}
	}
	if v.CanInterface() {
		return v.Interface()
	}
	return x
}

// format prints a value as roleparse.EscapeValue does, without escaping.
func format(v any) string { return roleparse.FormatValue(v) }

// atNode records where the tag after it begins, to place a panic in it.
type atNode struct{ tok *p2.Token }

func parseAt(doc *p2.Parser, start *p2.Token, args *p2.Parser) (p2.INodeTag, *p2.Error) {
	return &atNode{tok: start}, nil
}

func (n *atNode) Execute(ctx *p2.ExecutionContext, w p2.TemplateWriter) *p2.Error {
	if st := stateOf(ctx); st != nil {
		st.at = n.tok
	}
	return nil
}

// tickNode starts every iteration of a for loop: a render whose context
// is done stops there, with the context's error at the for tag.
type tickNode struct{ tok *p2.Token }

func parseTick(doc *p2.Parser, start *p2.Token, args *p2.Parser) (p2.INodeTag, *p2.Error) {
	return &tickNode{tok: start}, nil
}

func (n *tickNode) Execute(ctx *p2.ExecutionContext, w p2.TemplateWriter) *p2.Error {
	if st := stateOf(ctx); st != nil && st.done != nil {
		select {
		case <-st.done:
			return ctx.OrigError(st.ctx.Err(), n.tok)
		default:
		}
	}
	return nil
}

// macroGuard wraps the body of every macro and bounds the depth of calls.
type macroGuard struct {
	tok  *p2.Token
	body *p2.NodeWrapper
}

func parseMacroGuard(doc *p2.Parser, start *p2.Token, args *p2.Parser) (p2.INodeTag, *p2.Error) {
	body, end, err := doc.WrapUntilTag(endMacroTag)
	if err != nil {
		return nil, err
	}
	if end.Count() > 0 {
		return nil, end.Error("Arguments not allowed here.", nil)
	}
	return &macroGuard{tok: start, body: body}, nil
}

func (g *macroGuard) Execute(ctx *p2.ExecutionContext, w p2.TemplateWriter) *p2.Error {
	st := stateOf(ctx)
	if st == nil {
		// Without the render's state the depth cannot be counted: refuse
		// rather than risk a stack overflow.
		return ctx.Error("macro called outside a rolemark render context", g.tok)
	}
	if st.depth >= st.maxDepth {
		return ctx.OrigError(fmt.Errorf("macros nested more than %d deep (recursive macro?)", st.maxDepth), st.at)
	}
	st.depth++
	err := g.body.Execute(ctx, w)
	st.depth--
	return err
}

// messageNode is {% message "role" name=… tool_call_id=… %}…{% endmessage %}
// and {% user name=… %}…{% enduser %} (and system, assistant).
type messageNode struct {
	tok   *p2.Token
	tag   string        // the start tag when role and attributes are fixed
	role  string        // fixed role, or
	roleE p2.IEvaluator // a role computed at render time
	attrs []attrExpr
	body  *p2.NodeWrapper
}

type attrExpr struct {
	key  string
	expr p2.IEvaluator
}

func parseMessage(doc *p2.Parser, start *p2.Token, args *p2.Parser) (p2.INodeTag, *p2.Error) {
	if args.Remaining() == 0 {
		return nil, args.Error("Tag 'message' needs a role, as in {% message \"user\" %}.", start)
	}
	role, err := args.ParseExpression()
	if err != nil {
		return nil, err
	}
	n := &messageNode{tok: start, roleE: role}
	return parseMessageRest(doc, args, n, "endrolemark_message", "name", "tool_call_id")
}

func fixedRoleParser(role string) p2.TagParser {
	return func(doc *p2.Parser, start *p2.Token, args *p2.Parser) (p2.INodeTag, *p2.Error) {
		n := &messageNode{tok: start, role: role}
		return parseMessageRest(doc, args, n, "end"+tagPrefix+role, "name")
	}
}

// parseMessageRest reads key=expression attributes and the body up to the
// end tag.
func parseMessageRest(doc, args *p2.Parser, n *messageNode, end string, keys ...string) (p2.INodeTag, *p2.Error) {
	for args.Remaining() > 0 {
		key := args.MatchType(p2.TokenIdentifier)
		if key == nil || !slices.Contains(keys, key.Val) {
			return nil, args.Error(fmt.Sprintf("Expected an attribute (%s) as key=value.", joinOr(keys)), nil)
		}
		if args.Match(p2.TokenSymbol, "=") == nil {
			return nil, args.Error("Expected '=' after "+key.Val+".", nil)
		}
		for _, a := range n.attrs {
			if a.key == key.Val {
				return nil, args.Error("Attribute "+key.Val+" given twice.", key)
			}
		}
		e, err := args.ParseExpression()
		if err != nil {
			return nil, err
		}
		n.attrs = append(n.attrs, attrExpr{key: key.Val, expr: e})
	}
	body, endArgs, err := doc.WrapUntilTag(end)
	if err != nil {
		return nil, err
	}
	if endArgs.Count() > 0 {
		return nil, endArgs.Error("Arguments not allowed here.", nil)
	}
	n.body = body
	if n.roleE == nil && len(n.attrs) == 0 {
		n.tag = string(roleparse.MessageTag(n.role))
	}
	return n, nil
}

func (n *messageNode) Execute(ctx *p2.ExecutionContext, w p2.TemplateWriter) *p2.Error {
	if n.tag != "" {
		w.WriteString(n.tag)
		if err := n.body.Execute(ctx, w); err != nil {
			return err
		}
		w.WriteString(string(roleparse.EndTag))
		return nil
	}
	role := n.role
	if n.roleE != nil {
		v, err := n.roleE.Evaluate(ctx)
		if err != nil {
			return err
		}
		role = format(v.Interface())
		if role == "" {
			return ctx.Error("message role is empty", n.tok)
		}
	}
	var attrs []roleparse.Attr
	if len(n.attrs) > 0 {
		attrs = make([]roleparse.Attr, 0, len(n.attrs))
		for _, a := range n.attrs {
			v, err := a.expr.Evaluate(ctx)
			if err != nil {
				return err
			}
			attrs = append(attrs, roleparse.Attr{Key: a.key, Value: format(v.Interface())})
		}
	}
	w.WriteString(string(roleparse.MessageTag(role, attrs...)))
	if err := n.body.Execute(ctx, w); err != nil {
		return err
	}
	w.WriteString(string(roleparse.EndTag))
	return nil
}

func joinOr(list []string) string {
	s := ""
	for i, x := range list {
		if i > 0 {
			s += " or "
		}
		s += x
	}
	return s
}

// widthratioNode is pongo2's widthratio, {% widthratio value max width
// [as name] %}, with pongo2's arithmetic (ceil(value/max*width + 0.5)),
// except where that is not a finite number: pongo2 v6 converts it to an
// int as it is and prints -9223372036854775808 for a zero maximum. Django
// prints 0 there (its ZeroDivisionError), and so does rolemark; another
// number that is not finite (NaN, an infinite value) prints as empty, as
// Django's ValueError and OverflowError do.
type widthratioNode struct {
	current, max, width p2.IEvaluator
	name                string
}

func parseWidthratio(doc *p2.Parser, start *p2.Token, args *p2.Parser) (p2.INodeTag, *p2.Error) {
	n := &widthratioNode{}
	var err *p2.Error
	if n.current, err = args.ParseExpression(); err != nil {
		return nil, err
	}
	if n.max, err = args.ParseExpression(); err != nil {
		return nil, err
	}
	if n.width, err = args.ParseExpression(); err != nil {
		return nil, err
	}
	if args.MatchOne(p2.TokenKeyword, "as") != nil {
		name := args.MatchType(p2.TokenIdentifier)
		if name == nil {
			return nil, args.Error("Expected name (identifier).", nil)
		}
		n.name = name.Val
	}
	if args.Remaining() > 0 {
		return nil, args.Error("Malformed widthratio-tag arguments.", nil)
	}
	return n, nil
}

func (n *widthratioNode) Execute(ctx *p2.ExecutionContext, w p2.TemplateWriter) *p2.Error {
	var v [3]*p2.Value
	for i, e := range [3]p2.IEvaluator{n.current, n.max, n.width} {
		x, err := e.Evaluate(ctx)
		if err != nil {
			return err
		}
		v[i] = x
	}
	var out any
	switch f := math.Ceil(v[0].Float()/v[1].Float()*v[2].Float() + 0.5); {
	case v[1].Float() == 0:
		out = 0
	case math.IsNaN(f) || math.IsInf(f, 0) || f >= math.MaxInt64 || f < math.MinInt64:
		out = ""
	default:
		out = int(f)
	}
	if n.name != "" {
		ctx.Private[n.name] = out
		return nil
	}
	w.WriteString(fmt.Sprint(out))
	return nil
}
