package handlebars

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/aymerick/raymond"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/textpos"
)

// compiled is a compiled template. raymond's Exec is safe for concurrent use
// once helpers and pre-parsed partials are registered, which Compile does
// before returning; nothing here is written after that.
type compiled struct {
	name         string
	src          string
	tpl          *raymond.Template
	vars         []checkedVar
	tested       []driver.Var // what #if and #unless test (ReadVars)
	allowMissing bool
	// allowMissingData: an @-variable the request lacks renders as empty
	// (driver.Config.AllowMissingData, a Dotprompt file).
	allowMissingData bool
	partials         bool   // the template uses partials
	edits            []edit // the edits of the template's source, in order
	fast             *fastProg
	// register registers the template's helpers and partials on a
	// raymond template (locateDepth's copy of the template).
	register func(*raymond.Template)
	// calls are the template's helper calls, and helper returns the
	// function registered under a helper's name (for locate's copy).
	calls  []call
	helper func(name string) any
}

var (
	_ driver.StringExecuter   = (*compiled)(nil)
	_ driver.MessagesExecuter = (*compiled)(nil)
)

// checkedVar is a variable that must be present in the data.
type checkedVar struct {
	template  string
	line, col int
	name      string
	path      []string
	conds     []cond // the variable is needed only when these hold
	data      bool   // an @-variable: path[0] must be a key of the request's Data
}

// needed reports whether the branch that uses the variable runs for vars,
// by raymond's truthiness (false, 0, "", nil, empty slices and maps are
// falsy; a missing value is falsy).
func (v *checkedVar) needed(vars map[string]any) bool {
	for _, c := range v.conds {
		val, st := resolve(vars, c.path)
		truth := false
		switch st {
		case unsure:
			return false
		case found:
			truth = val.IsValid() && val.CanInterface() && raymond.IsTrue(val.Interface())
		}
		if truth == c.negate {
			return false
		}
	}
	return true
}

// Execute renders the template's markup for one request into w.
func (t *compiled) Execute(ctx context.Context, w io.Writer, r *driver.Request) error {
	out, err := t.ExecuteString(ctx, r)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, out)
	return err
}

// ExecuteString renders the template's markup for one request: raymond
// renders to a string, which engine.Template.Messages parses as it is.
func (t *compiled) ExecuteString(ctx context.Context, r *driver.Request) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if !t.allowMissing {
		for i := range t.vars {
			v := &t.vars[i]
			if v.data {
				if t.allowMissingData {
					continue
				}
				if _, ok := r.Data[v.path[0]]; !ok {
					return "", &driver.Error{Template: v.template, Line: v.line, Col: v.col, Err: &driver.MissingError{Name: v.name}}
				}
				continue
			}
			if _, st := resolve(r.Vars, v.path); st == missing && v.needed(r.Vars) {
				return "", &driver.Error{Template: v.template, Line: v.line, Col: v.col, Err: &driver.MissingError{Name: v.name}}
			}
		}
	}
	df := raymond.NewDataFrame()
	for k, v := range r.Data {
		// raymond prints an @-variable itself, and a map or list that
		// holds itself without end (printValue checks the others).
		if err := driver.CheckDepth("@"+k, v); err != nil {
			return "", t.dataDepthError(err.(*driver.DepthError))
		}
		df.Set(k, v)
	}
	df.Set(stateKey, &renderState{ctx: ctx, req: r})
	// raymond calls a function of the data as a helper, with no node to
	// place its panic: each is wrapped to name itself in it (placeCall)
	out, err := t.exec(recoveringVars(r.Vars), df)
	if err != nil {
		if perr := t.placeCall(err); perr != nil {
			return "", perr
		}
		if perr := t.locate(ctx, r, err); perr != nil {
			return "", perr
		}
		if perr := t.placeFieldFunc(err); perr != nil {
			return "", perr
		}
		return "", t.execError(err)
	}
	return out, nil
}

// recoveringVars returns vars with each function among its values wrapped
// by driver.RecoveringNil under its name, copying vars only when it holds one;
// functions deeper in the data are left as they are.
func recoveringVars(vars map[string]any) map[string]any {
	var out map[string]any
	for k, v := range vars {
		switch v.(type) {
		case nil, string, bool, int, int64, float64, map[string]any, []any:
			continue
		}
		if reflect.ValueOf(v).Kind() != reflect.Func {
			continue
		}
		if out == nil {
			out = maps.Clone(vars)
		}
		out[k] = driver.RecoveringNil(k, v) // a nil one too: raymond would call it
	}
	if out == nil {
		return vars
	}
	return out
}

// placeCall places the panic of a function of the data that names it
// (driver.Recovering) at the first use of a variable of that name; nil for
// any other error.
func (t *compiled) placeCall(err error) error {
	var pe *driver.PanicError
	var ee *driver.Error
	if !errors.As(err, &pe) || pe.Call == "" || errors.As(err, &ee) {
		return nil
	}
	e := &driver.Error{Template: t.name, Err: pe}
	for _, v := range t.vars {
		if !v.data && len(v.path) > 0 && pe.Call == fmt.Sprintf("calling %q", v.path[len(v.path)-1]) {
			e.Template, e.Line, e.Col = v.template, v.line, v.col
			break
		}
	}
	return e
}

// fieldFuncPrefix starts the error raymond raises, without a node, when a
// function of the data (or a method) it calls as a helper does not return
// exactly one value; the field's name follows.
const fieldFuncPrefix = "Helper function must return a string or a SafeString: "

// placeFieldFunc places that error at the first use of a variable whose
// path ends in the field's name ({{json f}} of a func() f), and says what
// the value is; nil for any other error.
func (t *compiled) placeFieldFunc(err error) error {
	field, ok := strings.CutPrefix(err.Error(), fieldFuncPrefix)
	if !ok || field == "" {
		return nil
	}
	for _, v := range t.vars {
		if !v.data && len(v.path) > 0 && v.path[len(v.path)-1] == field {
			return &driver.Error{Template: v.template, Line: v.line, Col: v.col,
				Err: fmt.Errorf("%s is a Go function that does not return one value: raymond calls a function of the data as a helper, and a helper returns a string", v.name)}
		}
	}
	return nil
}

// dataDepthError places the *DepthError of an @-variable at its first use.
func (t *compiled) dataDepthError(de *driver.DepthError) error {
	for _, v := range t.vars {
		if v.data && "@"+v.path[0] == de.Name {
			return &driver.Error{Template: v.template, Line: v.line, Col: v.col, Err: de}
		}
	}
	return &driver.Error{Template: t.name, Err: de}
}

// printAtHelper is printHelper with the offset in the template's source of
// the print it stands for, in the copy of the template locate renders.
const printAtHelper = "rolemark_print_at"

// locate finds the place of an error a helper raised as it rendered (an
// empty role, a value nested deeper than driver.MaxDepth that a print
// reached, a caller's helper's error), which raymond does not tell: it
// renders the request again with a copy of the template in which each
// print and each call of rolemark's or the caller's helpers is a helper of
// its own that knows its offset, and returns the error as a *driver.Error
// at that place, or nil when the error is raymond's own (it has a node) or
// the copy does not fail the same way (the helper is in a partial, or a
// caller's helper answered differently). Only a failed render pays for it,
// and a caller's helpers run a second time.
func (t *compiled) locate(ctx context.Context, r *driver.Request, failed error) (perr error) {
	var ee *driver.Error
	if errors.As(failed, &ee) || strings.HasPrefix(failed.Error(), evalPrefix) || errors.Is(failed, ctx.Err()) {
		return nil
	}
	var pe *driver.PanicError
	if errors.As(failed, &pe) {
		return nil
	}
	at := func(pos int, err error) *driver.Error {
		line, col := textpos.LineCol(t.src, pos)
		return &driver.Error{Template: t.name, Line: line, Col: col, Err: err}
	}
	edits := slices.Clone(t.edits)
	helpers := map[string]any{}
	for i, e := range edits {
		if e.text == printHelper+" " {
			edits[i].text = printAtHelper + " " + strconv.Quote(strconv.Itoa(e.pos)) + " "
		}
	}
	for _, c := range t.calls {
		if slices.ContainsFunc(t.edits, func(e edit) bool { return e.pos < c.pos+len(c.name) && c.pos < e.end }) {
			continue // expanded at compile time: no call is left
		}
		fn := t.helper(c.name)
		if fn == nil {
			continue
		}
		name := "rolemark_at_" + strconv.Itoa(c.pos) + "_" + c.name
		helpers[name] = placed(fn, func(err error) *driver.Error { return at(c.pos, err) })
		edits = append(edits, edit{pos: c.pos, end: c.pos + len(c.name), text: name})
		if c.closePos >= 0 {
			edits = append(edits, edit{pos: c.closePos, end: c.closePos + len(c.name), text: name})
		}
	}
	tpl, err := raymond.Parse(applyEdits(t.src, edits))
	if err != nil {
		return nil
	}
	t.register(tpl)
	for name, fn := range helpers {
		tpl.RegisterHelper(name, fn)
	}
	tpl.RegisterHelper(printAtHelper, func(pos string, v any) any {
		defer func() {
			if p := recover(); p != nil {
				n, _ := strconv.Atoi(pos)
				if ue, ok := p.(*driver.UnprintableError); ok {
					panic(at(n, ue))
				}
				if me, ok := p.(*methodPanicError); ok {
					panic(at(n, me.PanicError))
				}
				de, ok := p.(*driver.DepthError)
				if !ok {
					panic(p)
				}
				if de.Name == "" {
					de = &driver.DepthError{Name: printedPath(t.src, n)}
				}
				panic(at(n, de))
			}
		}()
		return printValue(v)
	})
	df := raymond.NewDataFrame()
	for k, v := range r.Data {
		df.Set(k, v)
	}
	df.Set(stateKey, &renderState{ctx: ctx, req: r})
	defer func() {
		if recover() != nil {
			perr = nil
		}
	}()
	_, err = tpl.ExecWith(r.Vars, df)
	var de, failedDE *driver.DepthError
	if errors.As(err, &ee) && ee.Line > 0 && (ee.Err.Error() == failed.Error() || errors.As(ee, &de) && errors.As(failed, &failedDE)) {
		return ee
	}
	return nil
}

// printedPath returns the path a print at pos of src prints, as written
// ({{x}}, {{x.y}}, {{this}}).
func printedPath(src string, pos int) string {
	end := pos
	for end < len(src) && !strings.ContainsRune(" \t\r\n}~()", rune(src[end])) {
		end++
	}
	return src[pos:end]
}

// placed returns fn (a helper) as a helper of the same type that turns an
// error it panics with into the *driver.Error place gives, unless the
// error already has its place (a helper called inside a block's body).
func placed(fn any, place func(error) *driver.Error) any {
	v := reflect.ValueOf(fn)
	return reflect.MakeFunc(v.Type(), func(args []reflect.Value) []reflect.Value {
		defer func() {
			if p := recover(); p != nil {
				err, ok := p.(error)
				var ee *driver.Error
				if !ok || errors.As(err, &ee) {
					panic(p)
				}
				panic(place(err))
			}
		}()
		if v.Type().IsVariadic() {
			return v.CallSlice(args)
		}
		return v.Call(args)
	}).Interface()
}

// exec runs raymond, turning every panic into an error: raymond recovers
// only panics with an error value and lets string panics and runtime errors
// (a nil dereference in a helper) through.
func (t *compiled) exec(vars map[string]any, df *raymond.DataFrame) (out string, err error) {
	defer func() {
		if p := recover(); p != nil {
			if pe, ok := p.(*driver.PanicError); ok {
				out, err = "", pe // a function of the data, named
				return
			}
			if name := driver.PanickingFunc(vars); name != "" {
				// one below a variable ({{obj.f}}), named by where the
				// data holds it
				out, err = "", driver.CallPanic(name, p)
				return
			}
			out, err = "", &driver.PanicError{Value: p}
		}
	}()
	return t.tpl.ExecWith(vars, df)
}

const evalPrefix = "Evaluation error: "

// execError names the template, and for raymond's own evaluation errors
// (which carry the byte offset of the node) the line and column when the
// node is in the template itself rather than in a partial.
func (t *compiled) execError(err error) error {
	var ee *driver.Error
	if errors.As(err, &ee) {
		return err
	}
	e := &driver.Error{Template: t.name, Err: err}
	msg := err.Error()
	if !strings.HasPrefix(msg, evalPrefix) {
		return e
	}
	msg = strings.TrimPrefix(msg, evalPrefix)
	node := ""
	if i := strings.Index(msg, "\nCurrent node:"); i >= 0 {
		msg, node = msg[:i], msg[i:]
	}
	e.Err = errors.New(msg)
	if t.partials {
		return e // the node may be in a partial: no position rather than a wrong one
	}
	if i := strings.LastIndex(node, "Pos:"); i >= 0 {
		digits := strings.TrimLeft(node[i+len("Pos:"):], " ")
		n := 0
		for n < len(digits) && digits[n] >= '0' && digits[n] <= '9' {
			n++
		}
		if pos, err := strconv.Atoi(digits[:n]); err == nil {
			e.Line, e.Col = textpos.LineCol(t.src, originalPos(t.edits, pos))
		}
	}
	return e
}

type lookupState int

const (
	found lookupState = iota
	missing
	unsure // a method, whose result is not inspected, or a path through a slice
)

// resolve looks path up in the data the way raymond looks it up at the
// root: map keys, exported struct fields (name with its first letter
// upper-cased, or a handlebars:"name" tag), methods, and slice or array
// indexes. It is unsure through a method (its result is not inspected) or a
// slice by name (raymond maps the rest of the path over the items).
func resolve(v any, path []string) (reflect.Value, lookupState) {
	if m, ok := v.(map[string]any); ok && len(path) > 0 && path[0] != "" && path[0][0] != '[' {
		// The usual root, a plain map, answers the first step without
		// reflection (it has no methods).
		x, ok := m[path[0]]
		if !ok {
			return reflect.Value{}, missing
		}
		if len(path) == 1 {
			return reflect.ValueOf(x), found
		}
		v, path = x, path[1:]
	}
	rv := reflect.ValueOf(v)
	for _, part := range path {
		if len(part) >= 2 && part[0] == '[' && part[len(part)-1] == ']' {
			part = part[1 : len(part)-1]
		}
		if rv.IsValid() && hasMethod(rv, part) {
			return reflect.Value{}, unsure
		}
		for rv.Kind() == reflect.Pointer || rv.Kind() == reflect.Interface {
			if rv.IsNil() {
				return reflect.Value{}, missing
			}
			rv = rv.Elem()
			if hasMethod(rv, part) {
				return reflect.Value{}, unsure
			}
		}
		switch rv.Kind() {
		case reflect.Invalid:
			return rv, missing
		case reflect.Map:
			key := reflect.ValueOf(part)
			if !key.Type().AssignableTo(rv.Type().Key()) {
				return reflect.Value{}, unsure
			}
			rv = rv.MapIndex(key)
			if !rv.IsValid() {
				return rv, missing
			}
		case reflect.Struct:
			f, ok := field(rv, part)
			if !ok {
				return reflect.Value{}, missing
			}
			rv = f
		case reflect.Slice, reflect.Array:
			i, err := strconv.Atoi(part)
			if err != nil {
				return reflect.Value{}, unsure
			}
			if i < 0 || i >= rv.Len() {
				return reflect.Value{}, missing
			}
			rv = rv.Index(i)
		default:
			return reflect.Value{}, missing // a field of a number, string or bool
		}
	}
	return rv, found
}

func hasMethod(rv reflect.Value, name string) bool {
	if name == "" {
		return false
	}
	if rv.MethodByName(name).IsValid() || (rv.MethodByName(strings.ToUpper(name[:1]) + name[1:]).IsValid()) {
		return true
	}
	if rv.Kind() != reflect.Pointer && rv.CanAddr() {
		return hasMethod(rv.Addr(), name)
	}
	return false
}

func field(rv reflect.Value, name string) (reflect.Value, bool) {
	if name == "" {
		return reflect.Value{}, false
	}
	if f, ok := rv.Type().FieldByName(strings.ToUpper(name[:1]) + name[1:]); ok && f.PkgPath == "" {
		v, err := rv.FieldByIndexErr(f.Index)
		return v, err == nil
	}
	for i := 0; i < rv.NumField(); i++ {
		if rv.Type().Field(i).Tag.Get("handlebars") == name {
			return rv.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// originalPos maps an offset in the edited source back to the original: an
// offset inside a replacement maps to the start of what it replaced.
func originalPos(edits []edit, pos int) int {
	shift := 0
	for _, e := range edits {
		start := e.pos + shift
		if pos < start {
			break
		}
		if pos < start+len(e.text) {
			return e.pos
		}
		shift += len(e.text) - (e.end - e.pos)
	}
	return pos - shift
}
