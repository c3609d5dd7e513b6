package driver

import (
	"fmt"
	"iter"
	"maps"
	"reflect"
	"slices"
)

// MaxDepth is how deep the maps and lists of a render's data
// (map[string]any and []any, as JSON decodes) may nest. An engine refuses
// deeper data with a *DepthError (see CheckDepth): it is almost always a map
// or list that holds itself, which an engine would follow until the Go
// runtime ends the process (a stack overflow is not a panic that recover
// catches). Python's Jinja2 goes no deeper either: its recursion limit is
// 1000. Package engine calls it engine.MaxDepth.
const MaxDepth = 1000

// DepthError is a variable whose maps and lists nest deeper than MaxDepth.
// Package engine calls it engine.DepthError.
type DepthError struct {
	// Name is the variable, "@name" for an @-variable (Request.Data), the
	// path as the template prints it when the engine found the value as it
	// printed it (handlebars: "x.y", "this"), or empty when it cannot
	// tell (a print inside a handlebars partial).
	Name string
}

func (e *DepthError) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("a value nests more than %d maps and lists deep (a map or list that holds itself?)", MaxDepth)
	}
	return fmt.Sprintf("variable %q nests more than %d maps and lists deep (a map or list that holds itself?)", e.Name, MaxDepth)
}

// DepthErrorAt returns err as an *Error at the first use of its variable
// that vars lists (a VarLister's Vars), or in template with no position
// when vars does not list it: an engine that refuses deep data before it
// renders still names the place that reads it. It costs nothing until a
// render fails.
func DepthErrorAt(template string, err *DepthError, vars []Var) *Error {
	e := &Error{Template: template, Err: err}
	for _, v := range vars {
		if v.Name == err.Name && !v.Call {
			if v.Template != "" {
				e.Template = v.Template
			}
			e.Line, e.Col = v.Line, v.Col
			break
		}
	}
	return e
}

// CheckDepth returns a *DepthError naming the variable when v's maps and
// lists nest deeper than MaxDepth. It descends into maps, slices and
// arrays of any type (a caller's own map type too), the values interfaces
// hold, the fields of structs, and a pointer that v itself is, as fmt
// prints them; a value that holds itself is found on the first path that
// comes back to it, after MaxDepth steps.
func CheckDepth(name string, v any) error {
	if TooDeep(v, 0) {
		return &DepthError{Name: name}
	}
	return nil
}

// TooDeep reports whether v, found depth maps and lists deep, has maps and
// lists nested deeper than MaxDepth, as CheckDepth counts them.
func TooDeep(v any, depth int) bool {
	switch v := v.(type) {
	case nil, string, bool, int, int64, float64:
		return false
	case map[string]any:
		return itemsTooDeep(maps.Values(v), depth)
	case []any:
		return itemsTooDeep(slices.Values(v), depth)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Pointer && depth == 0 {
		// fmt prints what a pointer points to only at the top; below, it
		// prints the address
		if rv.IsNil() {
			return false
		}
		rv = rv.Elem()
	}
	return tooDeepReflect(rv, depth)
}

// itemsTooDeep reports whether a map or list found depth maps and lists
// deep, whose values are items, nests deeper than MaxDepth. It calls items
// itself rather than ranging over it: a range over a function keeps state
// that costs about a tenth more instructions per check (BenchmarkCheckDepth).
func itemsTooDeep(items iter.Seq[any], depth int) bool {
	if depth >= MaxDepth {
		return true
	}
	deep := false
	items(func(x any) bool {
		deep = TooDeep(x, depth+1)
		return !deep
	})
	return deep
}

// mayNest reports whether a value of type t may hold a map or a list.
func mayNest(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Map, reflect.Slice, reflect.Array, reflect.Interface, reflect.Struct:
		return true
	}
	return false
}

func tooDeepReflect(rv reflect.Value, depth int) bool {
	switch rv.Kind() {
	case reflect.Interface:
		if rv.IsNil() {
			return false
		}
		return tooDeepReflect(rv.Elem(), depth)
	case reflect.Map:
		if rv.IsNil() {
			return false
		}
		if depth >= MaxDepth {
			return true
		}
		if !mayNest(rv.Type().Elem()) {
			return false
		}
		for it := rv.MapRange(); it.Next(); {
			if tooDeepReflect(it.Value(), depth+1) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		if depth >= MaxDepth {
			return true
		}
		if !mayNest(rv.Type().Elem()) {
			return false
		}
		for i := 0; i < rv.Len(); i++ {
			if tooDeepReflect(rv.Index(i), depth+1) {
				return true
			}
		}
	case reflect.Struct:
		for i := 0; i < rv.NumField(); i++ {
			if f := rv.Field(i); mayNest(f.Type()) && tooDeepReflect(f, depth) {
				return true
			}
		}
	}
	return false
}

// DepthChecked returns fn wrapped so that a first result nested deeper
// than MaxDepth is a *DepthError: the function's error result when it has
// a second one, an error, and otherwise a panic with the error (a panic of
// a function with an error is the render's error in text/template and
// raymond). fn comes back as it is when it is not a function or when its
// first result cannot hold a map or a list.
func DepthChecked(fn any) any {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func || v.IsNil() {
		return fn
	}
	t := v.Type()
	if t.NumOut() == 0 || !mayNest(t.Out(0)) {
		return fn
	}
	withErr := t.NumOut() == 2 && t.Out(1) == errorType
	return reflect.MakeFunc(t, func(args []reflect.Value) []reflect.Value {
		out := call(v, args)
		if tooDeepReflect(out[0], 0) {
			err := &DepthError{}
			if !withErr {
				panic(err)
			}
			out[1] = reflect.ValueOf(error(err))
		}
		return out
	}).Interface()
}

var errorType = reflect.TypeFor[error]()

// WithFirstResult returns fn, a non-nil function, wrapped as a function of
// the same parameters whose first result, of type t, is conv of fn's and
// whose other results are fn's. An engine wraps a caller's function so that
// a result of the caller's type (roleparse.Markup) reaches templates as the
// engine's own (a string its printing does not escape).
func WithFirstResult(fn any, t reflect.Type, conv func(reflect.Value) reflect.Value) any {
	v := reflect.ValueOf(fn)
	ft := v.Type()
	in := make([]reflect.Type, ft.NumIn())
	for i := range in {
		in[i] = ft.In(i)
	}
	out := make([]reflect.Type, ft.NumOut())
	out[0] = t
	for i := 1; i < len(out); i++ {
		out[i] = ft.Out(i)
	}
	return reflect.MakeFunc(reflect.FuncOf(in, out, ft.IsVariadic()), func(args []reflect.Value) []reflect.Value {
		res := call(v, args)
		res[0] = conv(res[0])
		return res
	}).Interface()
}

// call calls fn with the arguments reflect.MakeFunc hands a function of
// fn's type, where a variadic function's last argument is already a slice.
func call(fn reflect.Value, args []reflect.Value) []reflect.Value {
	if fn.Type().IsVariadic() {
		return fn.CallSlice(args)
	}
	return fn.Call(args)
}
