package jinja

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/jinja2"
	"github.com/rolemark/rolemark/roleparse"
)

// converter converts a render's variables to template values, taking the
// values' memory from one slab that the next render reuses: no value
// outlives the render (the jinja2 package is internal, so no caller's
// function receives one, and the output is a string of its own).
type converter struct {
	vars map[string]jinja2.Value
	slab jinja2.Slab
	keys []string
	// depth is how many maps and lists the conversion is inside; deep is
	// set, and the conversion stops descending, past driver.MaxDepth (a
	// value that holds itself would make it recurse without end).
	depth int
	deep  bool
	// key is the name of the value being converted: the variable, or
	// the key of a dict it is in, which names a function of the data in
	// its panic.
	key string
	// err, set with deep, is the panic of an Error or String method
	// (a *driver.PanicError) that stopped the conversion.
	err error
}

var converters = sync.Pool{New: func() any { return &converter{vars: map[string]jinja2.Value{}} }}

// toValues converts the render's variables; release gives the memory back
// once the render is done with them. A variable nested deeper than
// driver.MaxDepth is a *driver.DepthError.
func toValues(vars map[string]any) (map[string]jinja2.Value, *converter, error) {
	cv := converters.Get().(*converter)
	for k, v := range vars {
		cv.key = k
		cv.vars[k] = cv.value(v)
		if cv.deep {
			cv.depth, cv.deep = 0, false
			if err := cv.err; err != nil {
				cv.err = nil
				return nil, cv, &varError{name: k, err: err}
			}
			return nil, cv, &driver.DepthError{Name: k}
		}
	}
	return cv.vars, cv, nil
}

func (cv *converter) release() {
	if len(cv.vars) > 256 || cv.slab.Cap() > 1<<16 {
		return // let a large one go rather than keep it pooled
	}
	clear(cv.vars)
	cv.slab.Reset()
	converters.Put(cv)
}

// value converts a Go value as jinja2.FromGo does, except that a
// fmt.Stringer or an error (that is no number, string, slice or map of
// those) prints as its String or Error text, and a struct as Go prints it
// (roleparse.FormatValue), as in every engine, and keeps its fields; this
// holds inside []any and map[string]any too.
func (cv *converter) value(x any) jinja2.Value {
	switch x := x.(type) {
	case string:
		return jinja2.StrV(x)
	case nil, bool, int, int64, jinja2.Value:
		return jinja2.FromGo(x)
	case float64:
		return number(x)
	case float32:
		return float32Value(x)
	case []any:
		if cv.depth == driver.MaxDepth {
			cv.deep = true
			return jinja2.Value{}
		}
		cv.depth++
		items := cv.slab.Take(len(x))
		for i, it := range x {
			if items[i] = cv.value(it); cv.deep {
				break
			}
		}
		cv.depth--
		return jinja2.ListV(items)
	case map[string]any:
		if cv.depth == driver.MaxDepth {
			cv.deep = true
			return jinja2.Value{}
		}
		cv.depth++
		// A dict in the order of its sorted keys, as FromGo makes one.
		keys := cv.keys[:0]
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		n := len(keys)
		kv := cv.slab.Take(2 * n)
		for i, k := range keys {
			kv[i] = jinja2.StrV(k)
		}
		cv.keys = keys[:0]
		key := cv.key
		for i := 0; i < n; i++ {
			cv.key = kv[i].Str()
			if kv[n+i] = cv.value(x[cv.key]); cv.deep {
				break
			}
		}
		cv.key = key
		cv.depth--
		return jinja2.DictV(jinja2.StrDict(kv))
	case error, fmt.Stringer:
		text, err := methodText(x)
		if err != nil {
			// fmt would print the panic into the text; the render
			// fails at the variable's first use
			cv.deep, cv.err = true, err
			return jinja2.Value{}
		}
		return jinja2.ObjectV(&printer{text: text, of: cv.fromGo(x)})
	}
	switch rv := reflect.ValueOf(x); rv.Kind() {
	case reflect.Func:
		// A Go function in the data is a callable, as a Python one in a
		// Jinja2 context is (one that returns nothing returns None).
		if rv.IsNil() {
			break
		}
		return dataFunc(cv.key, x)
	case reflect.Chan, reflect.UnsafePointer:
		// A channel or an unsafe.Pointer cannot be printed (fmt would
		// print its address), as in every engine; jinja cannot fail at
		// the print, so the render fails at the variable's first use.
		if !rv.IsNil() {
			cv.deep, cv.err = true, &driver.UnprintableError{Type: rv.Type()}
			return jinja2.Value{}
		}
	case reflect.Map, reflect.Slice, reflect.Array, reflect.Pointer, reflect.Struct:
		// A caller's own map or list type or a struct, which
		// jinja2.FromGo converts (a struct's fields when the template
		// reads them), writes a channel or an unsafe.Pointer in it as
		// None: the same error, looked for only in a type that can hold
		// one.
		if mayHoldUnprintable(rv.Type()) {
			if t := (&unprintableWalk{}).in(rv, cv.depth); t != nil {
				cv.deep, cv.err = true, &driver.UnprintableError{Type: t}
				return jinja2.Value{}
			}
		}
	}
	v := cv.fromGo(x)
	if v.Kind() == jinja2.KindObject {
		// A Go struct: its fields are attributes, and it prints as Go
		// prints it, as in every engine (Python would print its address);
		// fmt would print one that holds itself without end.
		if driver.TooDeep(x, cv.depth) {
			cv.deep = true
			return jinja2.Value{}
		}
		text := ""
		var ue *driver.UnprintableError
		switch err := driver.CheckPrint(x); {
		case errors.As(err, &ue):
			// Go would print an address (a pointer field): as Python
			// prints an object, without its address
			text = "<" + reflect.TypeOf(x).String() + " object>"
		case err != nil:
			cv.deep, cv.err = true, err // a method's panic
			return jinja2.Value{}
		default:
			text = roleparse.FormatValue(x)
		}
		return jinja2.ObjectV(&printer{text: text, of: v})
	}
	return v
}

// fromGo converts x as jinja2.FromGo does (a caller's own map or slice
// type, a struct, a pointer), setting cv.deep where its maps and lists go
// deeper than driver.MaxDepth counting those x is inside.
func (cv *converter) fromGo(x any) jinja2.Value {
	v, ok := jinja2.FromGoWith(x, driver.MaxDepth-cv.depth, dataFunc)
	if !ok {
		cv.deep = true
	}
	return v
}

// dataFunc is a Go function of the data found as name: a callable, or
// an object that prints as <function> when its signature is not one a
// template can call.
func dataFunc(name string, f any) jinja2.Value {
	if v, err := callable(name, f, false); err == nil {
		return v
	}
	return jinja2.ObjectV(&printer{text: "<function>", of: jinja2.ObjectV(opaque("function"))})
}

// toValue converts a value outside a render (a function's result).
// A value nested deeper than driver.MaxDepth is a *driver.DepthError.
func toValue(x any) (jinja2.Value, error) {
	cv := &converter{key: "function"} // a function's result: no name
	v := cv.value(x)
	if cv.err != nil {
		return jinja2.Value{}, cv.err
	}
	if cv.deep {
		return jinja2.Value{}, &driver.DepthError{}
	}
	return v, nil
}

// methodText returns the Error or String text of x, an error or a
// fmt.Stringer, or its panic as a *driver.PanicError; a nil pointer's text
// is "<nil>", as fmt prints one whose method panics.
func methodText(x any) (text string, err error) {
	var call func() string
	method := "String"
	switch x := x.(type) {
	case error:
		call, method = x.Error, "Error"
	case fmt.Stringer:
		call = x.String
	}
	defer func() {
		if p := recover(); p != nil {
			if rv := reflect.ValueOf(x); rv.Kind() == reflect.Pointer && rv.IsNil() {
				text, err = "<nil>", nil
				return
			}
			err = &driver.PanicError{Value: p, Call: fmt.Sprintf("calling the %s method of %T", method, x)}
		}
	}()
	return call(), nil
}

// varError is an error converting the variable name.
type varError struct {
	name string
	err  error
}

func (e *varError) Error() string { return e.err.Error() }
func (e *varError) Unwrap() error { return e.err }

// float32Value is a float32 of the data as the float64 of its shortest
// decimal form, so that float32(0.1) is 0.1, as every engine prints it.
func float32Value(f float32) jinja2.Value {
	g, _ := strconv.ParseFloat(strconv.FormatFloat(float64(f), 'g', -1, 32), 64)
	return number(g)
}

// maxExact is 2**53, below which every integer is a float64 exactly.
const maxExact = 1 << 53

// number is a float64 of the data as Python's json.loads would have read
// the JSON it most likely came from: a whole number below 2**53 is an int
// (encoding/json makes every number a float64, so {"step": 1} is 1.0 in
// Go, and Step {{ step + 1 }} would print Step 2.0), any other a float.
func number(x float64) jinja2.Value {
	if x == math.Trunc(x) && x > -maxExact && x < maxExact {
		return jinja2.IntV(int64(x))
	}
	return jinja2.FloatV(x)
}

// opaque is a Go value with no Python counterpart and no attributes, of
// the type name given.
type opaque string

func (o opaque) TypeName() string                 { return string(o) }
func (o opaque) Attr(string) (jinja2.Value, bool) { return jinja2.Value{}, false }

// printer is a Go value with its own text (a fmt.Stringer or an error):
// str() of it is the text, and its attributes are those of the value.
type printer struct {
	text string
	of   jinja2.Value
}

func (p *printer) TypeName() string {
	if o := p.of.ObjectOf(); o != nil {
		return o.TypeName()
	}
	return jinja2.TypeName(p.of)
}

func (p *printer) Attr(name string) (jinja2.Value, bool) {
	if o := p.of.ObjectOf(); o != nil {
		return o.Attr(name)
	}
	return jinja2.Value{}, false
}

func (p *printer) Str() string  { return p.text }
func (p *printer) Repr() string { return p.text }

// holders caches mayHoldUnprintable's answer by type.
var holders sync.Map // reflect.Type → bool

// mayHoldUnprintable reports whether a value of type t can hold a channel
// or an unsafe.Pointer: in its maps, lists, pointers and interfaces, and
// in the fields of its structs a template can read (exported, not
// json:"-"), which it reads as None.
func mayHoldUnprintable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Map:
		if basic(t.Key()) && basic(t.Elem()) {
			return false // map[string]string: no lookup in the cache
		}
	case reflect.Slice, reflect.Array, reflect.Pointer:
		if basic(t.Elem()) {
			return false
		}
	}
	if r, ok := holders.Load(t); ok {
		return r.(bool)
	}
	r := holdsUnprintable(t, nil)
	holders.Store(t, r)
	return r
}

// basic reports whether a value of type t is a bool, a number or a
// string, which holds no other value.
func basic(t reflect.Type) bool {
	k := t.Kind()
	return k >= reflect.Bool && k <= reflect.Complex128 || k == reflect.String
}

// holdsUnprintable is mayHoldUnprintable of t inside the types on (whose
// answer is being found: a type that holds itself adds nothing).
func holdsUnprintable(t reflect.Type, on []reflect.Type) bool {
	switch t.Kind() {
	case reflect.Chan, reflect.UnsafePointer, reflect.Interface:
		return true
	case reflect.Map, reflect.Slice, reflect.Array, reflect.Pointer, reflect.Struct:
		if slices.Contains(on, t) {
			return false
		}
		on = append(on, t)
	default:
		return false
	}
	switch t.Kind() {
	case reflect.Map:
		return holdsUnprintable(t.Key(), on) || holdsUnprintable(t.Elem(), on)
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); attrField(f) && holdsUnprintable(f.Type, on) {
				return true
			}
		}
		return false
	}
	return holdsUnprintable(t.Elem(), on)
}

// attrField reports whether a template reads the struct field f, as
// jinja2's Go struct does: exported, and not json:"-".
func attrField(f reflect.StructField) bool {
	tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return f.IsExported() && tag != "-"
}

// unprintableWalk looks for a channel or an unsafe.Pointer in a value;
// seen holds the pointers and maps it has been into and lists the lists,
// so that a value whose parts are shared (or hold it) is walked once: a
// list that holds itself twice would be walked 2**1000 times.
type unprintableWalk struct {
	seen  driver.Visited
	lists map[unsafe.Pointer]int // a list's first item: the most items walked from it
}

// in returns the type of a channel or unsafe.Pointer (not nil) in rv's
// maps, lists, pointers, interfaces and readable struct fields, not past
// driver.MaxDepth counting depth, or nil when it holds none.
func (w *unprintableWalk) in(rv reflect.Value, depth int) reflect.Type {
	if depth > driver.MaxDepth {
		return nil // too deep: the conversion says so
	}
	switch rv.Kind() {
	case reflect.Chan, reflect.UnsafePointer:
		if !rv.IsNil() {
			return rv.Type()
		}
	case reflect.Pointer, reflect.Map:
		if rv.IsNil() || !mayHoldUnprintable(rv.Type()) || w.seen.Been(rv.UnsafePointer()) {
			return nil
		}
		if rv.Kind() == reflect.Pointer {
			return w.in(rv.Elem(), depth+1)
		}
		for it := rv.MapRange(); it.Next(); {
			if t := w.in(it.Key(), depth+1); t != nil {
				return t
			}
			if t := w.in(it.Value(), depth+1); t != nil {
				return t
			}
		}
	case reflect.Interface:
		if !rv.IsNil() {
			return w.in(rv.Elem(), depth+1)
		}
	case reflect.Slice, reflect.Array:
		if !mayHoldUnprintable(rv.Type().Elem()) {
			return nil
		}
		if rv.Kind() == reflect.Slice && rv.Len() > 0 && w.listBeen(rv) {
			return nil
		}
		for i := range rv.Len() {
			if t := w.in(rv.Index(i), depth+1); t != nil {
				return t
			}
		}
	case reflect.Struct:
		t := rv.Type()
		for i := range t.NumField() {
			if f := t.Field(i); attrField(f) && mayHoldUnprintable(f.Type) {
				if t := w.in(rv.Field(i), depth); t != nil {
					return t
				}
			}
		}
	}
	return nil
}

// listBeen reports whether the walk has been into the items of rv, a
// list that is not empty (from its first item, as many or more), and
// notes them.
func (w *unprintableWalk) listBeen(rv reflect.Value) bool {
	p, n := rv.UnsafePointer(), rv.Len()
	if w.lists[p] >= n {
		return true
	}
	if w.lists == nil {
		w.lists = map[unsafe.Pointer]int{}
	}
	w.lists[p] = n
	return false
}
