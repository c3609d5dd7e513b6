package handlebars

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/aymerick/raymond"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/roleparse"
)

// stateKey is the name under which a render's state sits in raymond's
// private data frame (so a template could print it as {{@rolemark}}; it
// prints as nothing).
const stateKey = "rolemark"

// renderState is what one render's helpers need. It reaches them through
// raymond's data frame (ExecWith), never through shared state.
type renderState struct {
	ctx context.Context
	req *driver.Request
}

// String makes {{@rolemark}} print nothing.
func (renderState) String() string { return "" }

var errNoState = errors.New("handlebars: helper called outside a rolemark render")

func stateOf(o *raymond.Options) *renderState {
	st, _ := o.DataFrame().Get(stateKey).(*renderState)
	if st == nil {
		panic(errNoState)
	}
	if st.ctx != nil {
		if err := st.ctx.Err(); err != nil {
			panic(err)
		}
	}
	return st
}

// printHelper is the helper every {{x}} of a template prints its value
// through (the compiler inserts it: {{rolemark_print x}}), so that a number
// prints as in the other engines (roleparse.FormatValue: 1e+21, 1e-07, a
// float32 0.1 as 0.1), where raymond alone would write every float in full
// (1000000000000000000000) and a float32 as its float64 value
// (0.10000000149011612). Any other value comes back as it is, for raymond
// to print and escape as it always did.
const printHelper = "rolemark_print"

func printValue(v any) any {
	switch v.(type) {
	case float64, float32:
		return roleparse.FormatValue(v)
	case nil, string, bool, int, int64, raymond.SafeString, roleparse.Markup:
		return v
	}
	// raymond would print a map or list that holds itself without end,
	// of any type (a caller's own map type too); a helper's panic with an
	// error is raymond's error.
	if err := driver.CheckDepth("", v); err != nil {
		panic(err)
	}
	if err := driver.CheckPrint(v); err != nil {
		// raymond prints with fmt, which would write an address, or a
		// method's panic into the text ("%!s(PANIC=String method: …)"),
		// or panic with a message that holds an address and no place;
		// the print helper places this error.
		var pe *driver.PanicError
		if errors.As(err, &pe) {
			panic(&methodPanicError{pe})
		}
		panic(err)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && rv.IsNil() {
		return nil // raymond wrote %!s(*T=<nil>); null prints nothing
	}
	switch v.(type) {
	case complex64, complex128:
		// raymond wrote %!s(complex128=(1+2i)); as the other engines
		return roleparse.FormatValue(v)
	}
	for rv.Kind() == reflect.Pointer && !rv.IsNil() && rv.Type().NumMethod() == 0 {
		rv = rv.Elem() // raymond prints what a pointer points to
	}
	if rv.Kind() == reflect.Map && !rv.IsNil() || rv.Kind() == reflect.Struct && rv.CanInterface() && rv.Type().NumMethod() == 0 {
		// raymond prints a map or a struct with fmt's %s (%!s(float64=1)
		// for a number, %!s(*int=<nil>)); as gotmpl and pongo2, as Go
		// prints it
		return roleparse.FormatValue(rv.Interface())
	}
	return v
}

// methodPanicError is the panic of a printed value's Error or String
// method; the print helper places it as the *driver.PanicError it is.
// (It is not one itself: a failed render whose error is a *driver.PanicError
// is not located again.)
type methodPanicError struct{ *driver.PanicError }

// str is the text of a helper argument: raymond's own string conversion,
// with nil as "". The result is raw (hash arguments and parameters reach
// helpers unescaped); roleparse escapes it when it writes an attribute.
func str(v any) string {
	if v == nil {
		return ""
	}
	return raymond.Str(v)
}

func attrs(o *raymond.Options) []roleparse.Attr {
	return []roleparse.Attr{
		{Key: "name", Value: str(o.HashProp("name"))},
		{Key: "tool_call_id", Value: str(o.HashProp("tool_call_id"))},
	}
}

// roleHelper is {{role "user" name=… tool_call_id=…}}: the opening tag of a
// message that runs until the next one.
func roleHelper(role any, o *raymond.Options) raymond.SafeString {
	stateOf(o)
	r := str(role)
	if r == "" {
		panic(errors.New("role: the role is empty"))
	}
	return raymond.SafeString(roleparse.MessageTag(r, attrs(o)...))
}

// messageHelper is {{#message role="user" name=…}}…{{/message}}.
func messageHelper(o *raymond.Options) raymond.SafeString {
	stateOf(o)
	r := str(o.HashProp("role"))
	if r == "" {
		panic(errors.New("message: the role is empty"))
	}
	return raymond.SafeString(string(roleparse.MessageTag(r, attrs(o)...)) + o.Fn() + string(roleparse.EndTag))
}

// roleBlock returns the helper of {{#user}}…{{/user}} for one role.
func roleBlock(role string) func(*raymond.Options) raymond.SafeString {
	return func(o *raymond.Options) raymond.SafeString {
		stateOf(o)
		return raymond.SafeString(string(roleparse.MessageTag(role, attrs(o)...)) + o.Fn() + string(roleparse.EndTag))
	}
}

// historyHelper is {{history}}: the marker that engine.Template replaces
// with the render's history.
func historyHelper(o *raymond.Options) raymond.SafeString {
	stateOf(o)
	return driver.HistoryMarker
}

// mediaHelper is {{media url=… mimetype=…}} (Dotprompt's contentType= is
// read as mimetype).
func mediaHelper(o *raymond.Options) raymond.SafeString {
	stateOf(o)
	url := str(o.HashProp("url"))
	mt := str(o.HashProp("mimetype"))
	if mt == "" {
		mt = str(o.HashProp("contentType"))
	}
	if url == "" {
		panic(errors.New("media: the url is empty"))
	}
	tag := roleparse.MediaTag(url, mt)
	if d := str(o.HashProp("detail")); d != "" {
		// MediaTag chose the part's kind: <image, <audio or <file.
		kind, _, _ := strings.Cut(string(tag[1:]), " ")
		tag = roleparse.PartTag(kind,
			roleparse.Attr{Key: "url", Value: url},
			roleparse.Attr{Key: "mimetype", Value: mt},
			roleparse.Attr{Key: "detail", Value: d})
	}
	return raymond.SafeString(tag)
}

var (
	markupType = reflect.TypeOf(roleparse.Markup(""))
	safeType   = reflect.TypeOf(raymond.SafeString(""))
)

// wrapFunc lets a caller's helper return roleparse.Markup: raymond would
// escape it as a plain string, so its result is converted to SafeString.
func wrapFunc(fn any) any {
	t := reflect.TypeOf(fn)
	if t.NumOut() != 1 || t.Out(0) != markupType {
		// raymond prints a map or list that holds itself without end
		return driver.DepthChecked(fn)
	}
	return driver.WithFirstResult(fn, safeType, func(r reflect.Value) reflect.Value {
		return r.Convert(safeType)
	})
}

// jsonHelper is Dotprompt's {{json value indent=2}}: the value as JSON text,
// escaped like any other printed value. Like Dotprompt's JSON.stringify, it
// leaves < > & as they are (encoding/json would write \u003c …); the
// helper's result is escaped for the markup anyway.
func jsonHelper(v any, o *raymond.Options) string {
	stateOf(o)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if n, ok := o.HashProp("indent").(int); ok && n > 0 {
		enc.SetIndent("", strings.Repeat(" ", n))
	}
	if err := enc.Encode(v); err != nil {
		panic(err) // encoding/json's error says "json: " itself
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// ifEquals is Dotprompt's {{#ifEquals a b}}…{{else}}…{{/ifEquals}}.
func ifEquals(a, b any, o *raymond.Options) raymond.SafeString {
	stateOf(o)
	if equal(a, b) {
		return raymond.SafeString(o.Fn())
	}
	return raymond.SafeString(o.Inverse())
}

// unlessEquals is Dotprompt's {{#unlessEquals a b}}…{{/unlessEquals}}.
func unlessEquals(a, b any, o *raymond.Options) raymond.SafeString {
	stateOf(o)
	if !equal(a, b) {
		return raymond.SafeString(o.Fn())
	}
	return raymond.SafeString(o.Inverse())
}

// equal compares two values as JavaScript's === would for the values a
// template sees: numbers by value whatever their Go type (JSON gives
// float64, literals int), everything else by deep equality.
func equal(a, b any) bool {
	if x, ok := number(a); ok {
		y, ok := number(b)
		return ok && x == y
	}
	return reflect.DeepEqual(a, b)
}

func number(v any) (float64, bool) {
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		return rv.Float(), true
	}
	return 0, false
}

// sectionHelper is Dotprompt's {{section "name"}}. In Dotprompt it leaves a
// pending part, a placeholder with no content that Genkit may fill (with
// output instructions, say); the messages' text is as if it were not there.
// rolemark's markup has no placeholder, so it renders nothing. A caller's
// Funcs may define section to put something there.
func sectionHelper(name any) string { return "" }

// eachHelper is raymond's {{#each}} (its @index, @key, @first, @last,
// {{else}}, slices and arrays in order, a struct's exported fields in
// order), except that a map's entries are visited in the order of their
// keys, as the jinja and gotmpl engines visit them, where raymond takes
// Go's random map order and so renders a different prompt each time, and
// that a render whose context is done stops before the next item. It
// replaces raymond's on every template whose #each blocks take at most one
// block parameter: raymond gives helpers no way to set a second one
// (as |value key|), so a template that has one keeps raymond's own #each.
func eachHelper(ctx any, o *raymond.Options) raymond.SafeString {
	if !raymond.IsTrue(ctx) {
		return raymond.SafeString(o.Inverse())
	}
	var b strings.Builder
	st, _ := o.DataFrame().Get(stateKey).(*renderState)
	visit := func(n, i int, key, item any) {
		if st != nil && st.ctx != nil {
			select {
			case <-st.ctx.Done(): // a cancelled render stops at the next item
				panic(st.ctx.Err())
			default:
			}
		}
		df := o.DataFrame().Copy()
		df.Set("index", i)
		df.Set("key", key)
		df.Set("first", i == 0)
		df.Set("last", i == n-1)
		b.WriteString(o.FnCtxData(item, df))
	}
	v := reflect.ValueOf(ctx)
	switch v.Kind() {
	case reflect.Array, reflect.Slice:
		for i := range v.Len() {
			visit(v.Len(), i, nil, v.Index(i).Interface())
		}
	case reflect.Map:
		// Entries, not keys then lookups: a NaN key is found by no lookup.
		type entry struct{ k, v reflect.Value }
		entries := make([]entry, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			entries = append(entries, entry{it.Key(), it.Value()})
		}
		slices.SortFunc(entries, func(a, b entry) int { return compareKeys(a.k, b.k) })
		for i, e := range entries {
			visit(len(entries), i, e.k.Interface(), e.v.Interface())
		}
	case reflect.Struct:
		var fields []int
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fields = append(fields, i)
			}
		}
		for i, f := range fields {
			visit(len(fields), i, v.Type().Field(f).Name, v.Field(f).Interface())
		}
	}
	return raymond.SafeString(b.String())
}

// compareKeys orders map keys: strings by their bytes (code points, for
// UTF-8), numbers by value, anything else by how it prints.
func compareKeys(a, b reflect.Value) int {
	for a.Kind() == reflect.Interface && !a.IsNil() {
		a = a.Elem()
	}
	for b.Kind() == reflect.Interface && !b.IsNil() {
		b = b.Elem()
	}
	switch {
	case a.Kind() == reflect.String && b.Kind() == reflect.String:
		return strings.Compare(a.String(), b.String())
	case a.CanInt() && b.CanInt():
		return cmp.Compare(a.Int(), b.Int())
	case a.CanUint() && b.CanUint():
		return cmp.Compare(a.Uint(), b.Uint())
	case a.CanFloat() && b.CanFloat():
		return cmp.Compare(a.Float(), b.Float())
	}
	return strings.Compare(fmt.Sprint(a.Interface()), fmt.Sprint(b.Interface()))
}
