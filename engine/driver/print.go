package driver

import (
	"fmt"
	"reflect"
)

// UnprintableError is a print of a value whose text, as fmt would write
// it, is meaningless or unsafe: a channel, a function or an
// unsafe.Pointer, or a pointer below the top of the value (fmt writes its
// address, which changes from run to run), at any depth of the maps, lists
// and structs that are printed. Package engine calls it
// engine.UnprintableError.
type UnprintableError struct {
	// Type is the type of the value that cannot be printed.
	Type reflect.Type
}

func (e *UnprintableError) Error() string {
	return "cannot print a value of type " + e.Type.String()
}

// CheckPrint returns an error when printing v as an engine prints a value
// (fmt's %v of it, after the pointers at its top) would write something
// other than its contents: an *UnprintableError for a value of a kind
// UnprintableError names, a *PanicError for an Error or String method that
// panics (fmt would write "%!v(PANIC=String method: …)"; it is called once
// here, and again when the value prints), and a *DepthError (with no name)
// for maps and lists nested deeper than MaxDepth (one that holds itself).
// Like fmt it calls the Error or String method of every value it can and
// looks no further into that value. A string, number or bool costs a type
// switch.
func CheckPrint(v any) error {
	switch v.(type) {
	case nil, string, bool, int, int64, float64:
		return nil
	}
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() && !printsItself(rv) {
		rv = rv.Elem() // engines print what a pointer points to
	}
	return checkPrint(rv, 0)
}

var (
	stringerType = reflect.TypeFor[fmt.Stringer]()
	formatType   = reflect.TypeFor[fmt.Formatter]()
)

// printsItself reports whether fmt prints rv with a method of its own.
func printsItself(rv reflect.Value) bool {
	t := rv.Type()
	return rv.CanInterface() && (t.Implements(formatType) || t.Implements(errorType) || t.Implements(stringerType))
}

func checkPrint(rv reflect.Value, depth int) (err error) {
	if !rv.IsValid() {
		return nil
	}
	if depth > MaxDepth {
		return &DepthError{}
	}
	if rv.Kind() == reflect.Interface {
		if rv.IsNil() {
			return nil
		}
		rv = rv.Elem()
	}
	if rv.Kind() != reflect.Interface && printsItself(rv) {
		return callPrintMethod(rv)
	}
	switch rv.Kind() {
	case reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return &UnprintableError{Type: rv.Type()}
	case reflect.Pointer:
		if rv.IsNil() || depth == 0 && printsWhole(rv.Elem().Kind()) {
			if rv.IsNil() {
				return nil // <nil>
			}
			return checkPrint(rv.Elem(), depth+1) // &{…}, &[…], &map[…]
		}
		return &UnprintableError{Type: rv.Type()}
	case reflect.Map:
		it := rv.MapRange()
		for it.Next() {
			if err := checkPrint(it.Key(), depth+1); err != nil {
				return err
			}
			if err := checkPrint(it.Value(), depth+1); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		if plain(rv.Type().Elem()) {
			return nil
		}
		for i := 0; i < rv.Len(); i++ {
			if err := checkPrint(rv.Index(i), depth+1); err != nil {
				return err
			}
		}
	case reflect.Struct:
		for i := 0; i < rv.NumField(); i++ {
			if err := checkPrint(rv.Field(i), depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

// printsWhole reports whether fmt prints a pointer at the top of a value
// to one of kind k as &{…} (or &[…], &map[…]) rather than as its address.
func printsWhole(k reflect.Kind) bool {
	switch k {
	case reflect.Array, reflect.Slice, reflect.Struct, reflect.Map:
		return true
	}
	return false
}

// plain reports whether every value of type t prints as its contents
// without a method: a string, bool or number type with no methods.
func plain(t reflect.Type) bool {
	if t.NumMethod() > 0 {
		return false
	}
	k := t.Kind()
	return k == reflect.String || k == reflect.Bool || k >= reflect.Int && k <= reflect.Complex128 && k != reflect.Uintptr
}

// callPrintMethod calls the Error or String method fmt would call to print
// rv, and returns its panic as a *PanicError. A nil pointer is left to fmt,
// which prints "<nil>" when the method panics on it; a fmt.Formatter is
// trusted.
func callPrintMethod(rv reflect.Value) (err error) {
	if rv.Kind() == reflect.Pointer && rv.IsNil() {
		return nil
	}
	x := rv.Interface()
	var method string
	var call func() string
	switch x := x.(type) {
	case fmt.Formatter:
		return nil
	case error:
		method, call = "Error", x.Error
	case fmt.Stringer:
		method, call = "String", x.String
	default:
		return nil
	}
	defer func() {
		if p := recover(); p != nil {
			err = &PanicError{Value: p, Call: fmt.Sprintf("calling the %s method of %s", method, rv.Type())}
		}
	}()
	call()
	return nil
}

// CallPanic returns the *PanicError of p, the panic of a call of the
// function the template found as name: its message names the function
// (`calling "lookup": panic: index out of range`).
func CallPanic(name string, p any) *PanicError {
	if pe, ok := p.(*PanicError); ok {
		return pe // a function's wrapper (Recovering) named it
	}
	return &PanicError{Value: p, Call: fmt.Sprintf("calling %q", name)}
}

// Recovering returns v, the value of the data found as name, wrapped when
// it is a function: the wrapper has fn's type and panics with
// CallPanic(name, p) when fn panics with p, for an engine that calls it
// where it cannot tell which function panicked. Any other value comes back
// as it is; a string, number, bool, map or list costs a type switch.
func Recovering(name string, v any) any {
	if !isFunc(v) {
		return v
	}
	return recovering(name, reflect.ValueOf(v))
}

// RecoveringNil is Recovering for an engine that calls every function of
// the data it meets (raymond, pongo2): it wraps a nil function too, whose
// call panics in reflect with no name and, in raymond, no place; the
// wrapper's panic names it (`calling "f": panic: reflect.Value.Call: call
// of nil function`).
func RecoveringNil(name string, v any) any {
	if fv := reflect.ValueOf(v); fv.Kind() == reflect.Func && fv.IsNil() {
		return recovering(name, fv)
	}
	return Recovering(name, v)
}

func recovering(name string, fv reflect.Value) any {
	return reflect.MakeFunc(fv.Type(), func(args []reflect.Value) []reflect.Value {
		defer func() {
			if p := recover(); p != nil {
				panic(CallPanic(name, p))
			}
		}()
		if fv.Type().IsVariadic() {
			return fv.CallSlice(args)
		}
		return fv.Call(args)
	}).Interface()
}

func isFunc(v any) bool {
	switch v.(type) {
	case nil, string, bool, int, int64, float64, map[string]any, []any:
		return false
	}
	fv := reflect.ValueOf(v)
	return fv.Kind() == reflect.Func && !fv.IsNil()
}
