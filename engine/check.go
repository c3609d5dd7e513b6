package engine

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/engine/schema"
	"github.com/rolemark/rolemark/internal/textpos"
	"github.com/rolemark/rolemark/roleparse"
)

// UnknownFuncError reports a function a template calls that neither the
// engine nor the data provides.
type UnknownFuncError = driver.UnknownFuncError

// UndeclaredError reports a variable a template reads that its declared
// input schema does not have, such as a misspelled name.
type UndeclaredError struct {
	Name string
	// Declared lists the schema's top-level inputs.
	Declared []string
	// Markup is set when Name is also one of the markup's functions
	// (media, role, user …), written where it reads a variable of that
	// name: {{media}} with no arguments in Handlebars, {{ media }} with
	// no call in Jinja.
	Markup bool
}

// LookalikeTagError reports text in a template that looks like a markup tag
// but is not one, such as a misspelled closing tag: it would stay in the
// message's text.
type LookalikeTagError struct {
	// Found is the text as written ("</mesage"); Tag is the markup tag it
	// resembles ("</message").
	Found, Tag string
}

func (e *LookalikeTagError) Error() string {
	return fmt.Sprintf("%q is not a markup tag and would stay in the message's text; did you mean %q?", e.Found, e.Tag)
}

func (e *UndeclaredError) Error() string {
	msg := fmt.Sprintf("variable %q is not declared in the input schema (declared: %s)", e.Name, strings.Join(e.Declared, ", "))
	if len(e.Declared) == 0 {
		msg = fmt.Sprintf("variable %q is not declared in the input schema, which declares none", e.Name)
	}
	if what := markupFuncs[e.Name]; e.Markup && what != "" {
		msg += fmt.Sprintf("; written so, %s reads a variable, not the markup's %s", e.Name, what)
	}
	return msg
}

// markupFuncs are the markup's functions that, written bare in Handlebars
// or without a call in Jinja and pongo2, read a variable of their name.
// Each is said as UndeclaredError says it.
var markupFuncs = map[string]string{"media": "media, which takes a url", "role": "role, which takes a role",
	"message": "message, which takes a role", "user": "user block", "system": "system block",
	"assistant": "assistant block", "history": "history, which is called"}

// Check looks for the template's problems without data and returns them
// joined (errors.Join), each an *Error with the file, line and column in
// the template the author wrote, each problem once:
//
//   - every variable the template reads that its declared input schema does
//     not have (when it declares one that lists every input: a (*)
//     wildcard or additionalProperties takes any name), at its first use;
//     loop variables and names the template binds itself are not variables;
//   - every function it calls that nothing provides (Jinja);
//   - every call of a markup function whose arguments do not fit, in
//     every branch (driver.Linter);
//   - front matter whose closing --- is missing, which a render reads as
//     template text, an input.default the input schema does not declare
//     and an output.format that misspells one of Dotprompt's (a custom
//     format is accepted);
//   - text that looks like a markup tag but is not one, such as a
//     misspelled </mesage> (roleparse.Lookalikes);
//   - a history placed inside a message, which any history breaks, at
//     the history's call;
//   - what a render with synthetic data finds: each declared input gets its
//     default, else its first enum value, else a value of its type (a
//     string that is a role, "user"; 1, true, an array of one item, an
//     object of every property, and of each name the render reads when
//     its schema has a (*) wildcard).
//     This is how problems that cannot be decided from the source alone
//     show: a computed role, a tool call's JSON, a literal tag that does not
//     parse, a default of the wrong type. The markup's parser stops at its
//     first mistake; the markup is then read on from the next <message
//     tag after each, for the later ones (faults).
//
// Unknown helpers and filters, syntax errors and missing partials are
// already errors of parsing (Set.Parse, Set.ParseFS). A template that
// declares no input schema is rendered with a string for every variable it
// reads; then only problems of the markup are reported, since the types of
// its inputs are unknown. One that reads no input is rendered with no data,
// and every problem of that render is reported.
func (t *Template) Check(ctx context.Context) error {
	var c checker
	add := c.add
	if t.fm != nil {
		for _, e := range t.fm.doubts {
			add(errorAt(t.name, e), "")
		}
	} else if line, ok := unclosedFrontMatter(t.src); ok {
		add(&Error{Template: t.name, Line: line, Col: 1, Err: errors.New("front matter is not closed: no --- line follows this one, so the whole file is read as the template")}, "")
	}
	cur := textpos.NewCursor(t.src)
	for _, l := range roleparse.Lookalikes(t.src) {
		line, col := cur.LineCol(l.Offset)
		add(&Error{Template: t.name, Line: line, Col: col, Err: &LookalikeTagError{Found: l.Found, Tag: l.Tag}}, "")
	}
	if l, ok := t.compiled.(driver.Linter); ok {
		for _, e := range l.Lint() {
			add(e, "")
		}
	}
	var input *schema.Schema
	if t.fm != nil {
		input = t.fm.Input
	}
	var vars []driver.Var
	if vl, ok := t.compiled.(driver.VarLister); ok {
		vars = vl.Vars()
	}
	report := vars
	// closed: the schema lists every input; a (*) wildcard or
	// additionalProperties takes names it does not list
	closed := input != nil && !input.Additional
	if rl, ok := t.compiled.(driver.ReadLister); ok && closed {
		// the names a render does not require, read where they are
		// tested or defaulted, are undeclared all the same; each is
		// reported at its first use
		report = slices.Clone(vars)
		for _, v := range rl.ReadVars() {
			if input.Properties[v.Name] == nil {
				report = append(report, v)
			}
		}
		slices.SortStableFunc(report, func(a, b driver.Var) int {
			return cmp.Or(cmp.Compare(a.Template, b.Template), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
		})
	}
	for _, v := range report {
		switch {
		case v.Call:
			if input == nil || input.Properties[v.Name] == nil {
				add(&Error{Template: v.Template, Line: v.Line, Col: v.Col, Err: &UnknownFuncError{Name: v.Name}}, v.Name)
			}
		case closed && input.Properties[v.Name] == nil:
			add(&Error{Template: v.Template, Line: v.Line, Col: v.Col, Err: &UndeclaredError{Name: v.Name, Declared: input.Order,
				Markup: markupFuncs[v.Name] != "" && t.engine.Name() != "gotmpl"}}, v.Name)
		}
	}
	data, open := t.syntheticData(input, vars)
	_, err := t.Messages(ctx, data)
	for i := 0; i < maxFill && err != nil && fillOpen(open, err); i++ {
		_, err = t.Messages(ctx, data)
	}
	if e := t.historyInside(ctx, data); e != nil {
		add(e, "")
	}
	if err != nil {
		var me *MissingError
		var ue *UnknownFuncError
		var pe *roleparse.Error
		var ee *Error
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case input == nil && !errors.As(err, &pe) && (len(data) > 0 || errors.As(err, &me)):
			// the inputs are not declared: a variable the walk did not
			// find (in a partial) is missing, or a stand-in string is
			// what failed. With no stand-in and nothing missing, the
			// template itself failed ({{ role() }}), and that is reported.
		case errors.As(err, &me):
			add(errorAt(t.name, err), me.Name)
		case errors.As(err, &ue):
			add(errorAt(t.name, err), ue.Name)
		case errors.As(err, &ee):
			add(ee, "")
		default:
			add(&Error{Template: t.name, Err: err}, "")
		}
		if errors.As(err, &pe) {
			// the parser stops at the first mistake of the markup; read
			// on past it for the later ones
			for _, e := range t.laterFaults(ctx, data) {
				add(e, "")
			}
		}
	}
	return c.join()
}

// unclosedFrontMatter reports whether src, a template without front
// matter, begins (after blank and # lines) with a --- line followed by a
// line that starts a YAML mapping (model:, input:), and no --- line
// closes it: front matter whose end the author forgot, which a render
// reads as template text as Dotprompt does. line is the --- line's.
func unclosedFrontMatter(src string) (line int, ok bool) {
	at := 0
	for n := 1; at < len(src); n++ {
		end, next, more := textpos.LineBreak(src[at:])
		if !more {
			return 0, false
		}
		l := strings.TrimRight(src[at:at+end], " \t")
		at += next
		switch {
		case l == "---":
			return n, yamlKeyLine.MatchString(src[at:]) && textpos.FrontMatterEnd(src) == 0
		case l != "" && !strings.HasPrefix(l, "#"):
			return 0, false
		}
	}
	return 0, false
}

// yamlKeyLine matches text that starts with a line "key: …".
var yamlKeyLine = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.-]*[ \t]*:([ \t]|\r?\n|\r|$)`)

// maxFaults is the most problems of its markup Check reports for one
// template.
const maxFaults = 20

// laterFaults renders the template with vars and returns the problems of
// its markup after the first, which Messages reports (faults), each placed
// in the template where sourcePos can place it.
func (t *Template) laterFaults(ctx context.Context, vars map[string]any) []*Error {
	r, _, err := t.request(vars, nil)
	if err != nil {
		return nil
	}
	markup, err := t.Render(ctx, vars)
	if err != nil {
		return nil
	}
	faults := t.faults(markup, maxFaults)
	var out []*Error
	for k := 1; k < len(faults); k++ {
		pe := faults[k]
		e := t.markupError(markup, pe).(*Error)
		find := func(s string) *roleparse.Error {
			if f := t.faults(s, k+1); len(f) > k {
				return f[k]
			}
			return nil
		}
		if file, line, col, ok := t.sourcePosOf(ctx, r, nil, pe, find); ok {
			e.Template, e.Line, e.Col = file, line, col
			e.Err.(*markupError).located = true
		}
		out = append(out, e)
	}
	return out
}

// checker gathers Check's problems, one per place and one per name.
type checker struct {
	problems []*Error
	seen     map[string]bool // names reported
	places   map[place]bool  // places reported
}

type place struct {
	template  string
	line, col int
}

// add keeps e unless a problem at its place, or about name (when not
// empty), is kept already.
func (c *checker) add(e *Error, name string) {
	at := place{e.Template, e.Line, e.Col}
	if c.places[at] {
		return // one problem per place
	}
	if name != "" {
		if c.seen[name] {
			return
		}
		if c.seen == nil {
			c.seen = map[string]bool{}
		}
		c.seen[name] = true
	}
	if c.places == nil {
		c.places = map[place]bool{}
	}
	c.places[at] = true
	c.problems = append(c.problems, e)
}

// join returns the problems in file order, joined; nil for none.
func (c *checker) join() error {
	if len(c.problems) == 0 {
		return nil
	}
	slices.SortStableFunc(c.problems, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Template, b.Template), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	errs := make([]error, len(c.problems))
	for i, p := range c.problems {
		errs[i] = p
	}
	return errors.Join(errs...)
}

// syntheticData returns the variables Check renders with: for each
// declared input without a default a value its schema accepts, and a
// stand-in string for every other variable read (the undeclared ones are
// reported already), so that the render goes on to what follows.
//
// open holds the objects of data whose schema takes names it does not list
// (a (*) wildcard): a key of them the template reads is filled in later
// (fillOpen).
func (t *Template) syntheticData(input *schema.Schema, vars []driver.Var) (data map[string]any, open []map[string]any) {
	data = map[string]any{}
	if input != nil {
		for _, name := range input.Order {
			if _, ok := t.fm.Defaults[name]; !ok {
				data[name] = synthetic(input.Properties[name], &open)
			}
		}
	}
	for _, v := range vars {
		_, given := data[v.Name]
		_, dflt := t.fm.defaults()[v.Name]
		if !v.Call && !given && !dflt && (input == nil || input.Properties[v.Name] == nil) {
			data[v.Name] = standIn
		}
	}
	return data, open
}

// maxFill is how many times Check renders again after filling in a key of
// an open object (fillOpen).
const maxFill = 20

// fillOpen gives the key that err, a render's error, reports missing a
// stand-in value in each object of open that lacks it, and reports whether
// it gave any: the template read a name of an object whose schema takes
// any name ({{profile.city}} for profile(object): {(*): string}), which is
// no mistake, and the render is to go on past it.
func fillOpen(open []map[string]any, err error) bool {
	var me *MissingError
	if len(open) == 0 || !errors.As(err, &me) {
		return false
	}
	key := me.Name[strings.LastIndexByte(me.Name, '.')+1:]
	filled := false
	for _, m := range open {
		if _, ok := m[key]; !ok && key != "" {
			m[key] = standIn
			filled = true
		}
	}
	return filled
}

// defaults returns the declared defaults, nil for no front matter.
func (fm *FrontMatter) defaults() map[string]any {
	if fm == nil {
		return nil
	}
	return fm.Defaults
}

// errorAt returns err's *Error, or err in one naming the template.
func errorAt(name string, err error) *Error {
	var ee *Error
	if errors.As(err, &ee) {
		return ee
	}
	return &Error{Template: name, Err: err}
}

// standIn is Check's string for an input it knows nothing more of. It is
// a role, so that a template that takes a message's role from an input
// ({{role who}}, <message role="{{who}}">) is not reported for a role the
// caller chooses; anywhere else one string is as good as another.
const standIn = "user"

// synthetic returns a value the schema accepts: its first enum value, else
// a value of its type.
// Each object made for a schema that takes names it does not list is
// appended to open.
func synthetic(s *schema.Schema, open *[]map[string]any) any {
	if s == nil {
		return standIn
	}
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	switch s.Type {
	case "number", "integer":
		return 1
	case "boolean":
		return true
	case "null":
		return nil
	case "array":
		return []any{synthetic(s.Items, open)}
	case "object":
		m := map[string]any{}
		for _, name := range s.Order {
			m[name] = synthetic(s.Properties[name], open)
		}
		if s.Additional {
			*open = append(*open, m)
		}
		return m
	}
	return standIn
}

// checkHistory is the history Check renders with to see where the
// template places it.
var checkHistory = []chat.Message{chat.Text(chat.RoleUser, "earlier")}

// historyCall matches a call of the history function as the engines write
// it: {{history}}, {{~history~}}, {{- history -}}, {{ history() }}.
var historyCall = regexp.MustCompile(`\{\{[-~]?\s*history(\s*\(\s*\))?\s*[-~]?\}\}`)

// historyInside reports a template that places the history inside a
// message: with no history (as Check renders) it renders well, but any
// history closes that message and its </message> then closes none. The
// problem is placed at the history's call when the template makes one
// (partials aside); else where the render with history fails.
func (t *Template) historyInside(ctx context.Context, vars map[string]any) *Error {
	if !strings.Contains(t.src, "history") {
		return nil
	}
	_, err := t.Messages(ctx, vars, History(checkHistory))
	var me *markupError
	if err == nil || !errors.As(err, &me) || me.hint != historyInMessage {
		return nil
	}
	calls := historyCall.FindAllStringIndex(t.src, 2)
	if len(calls) != 1 {
		return errorAt(t.name, err)
	}
	line, col := textpos.LineCol(t.src, calls[0][0])
	return &Error{Template: t.name, Line: line, Col: col,
		Err: fmt.Errorf("%s: %s", t.src[calls[0][0]:calls[0][1]], historyInMessage)}
}
