package driver

import (
	"reflect"
	"runtime"
	"strconv"
	"unsafe"
)

// PanickingFunc returns the name under which vars hold the function of
// the data whose panic is being recovered, or "" when none of them is on
// the stack: an engine that calls a function found below a variable
// ({{obj.f}}, raymond's helper call, pongo2's) without naming it calls
// PanickingFunc from the deferred function that recovers the panic, while
// the function's frames are still below it. It looks through vars' maps,
// lists, pointers, interfaces and struct fields (the first MaxDepth levels,
// each map and pointer once, at most 100,000 values) for a function
// whose code is on the stack, the one nearest the panic; its name is its
// key or field, as Recovering names one at the top ("f" of obj.f; a list's
// item is named by the key the list is under, with the index). It costs
// nothing until a render panics.
func PanickingFunc(vars map[string]any) string {
	var pcs [64]uintptr
	n := runtime.Callers(2, pcs[:])
	w := funcWalk{entries: make(map[uintptr]int, n), budget: maxPanicWalk}
	for i, pc := range pcs[:n] {
		if f := runtime.FuncForPC(pc - 1); f != nil {
			if _, ok := w.entries[f.Entry()]; !ok {
				w.entries[f.Entry()] = i
			}
		}
	}
	w.best = n
	for k, v := range vars {
		w.walk(k, reflect.ValueOf(v), 0)
	}
	return w.name
}

// maxPanicWalk bounds the values PanickingFunc looks at.
const maxPanicWalk = 100000

// funcWalk is one PanickingFunc: entries are the functions on the stack
// (by entry address) and how far each is from the panic; name is the
// nearest function found in the data so far, at best.
type funcWalk struct {
	entries map[uintptr]int
	seen    Visited
	budget  int
	best    int
	name    string
	closure unsafe.Pointer // when not nil, the one closure to match (FuncNamed)
}

func (w *funcWalk) walk(name string, rv reflect.Value, depth int) {
	if !rv.IsValid() || depth > MaxDepth || w.budget <= 0 {
		return
	}
	w.budget--
	switch rv.Kind() {
	case reflect.Func:
		if rv.IsNil() {
			return
		}
		if w.closure != nil && (!rv.CanInterface() || closureOf(rv.Interface()) != w.closure) {
			return
		}
		if i, ok := w.entries[rv.Pointer()]; ok && (i < w.best || i == w.best && name < w.name) {
			w.best, w.name = i, name
		}
	case reflect.Interface:
		w.walk(name, rv.Elem(), depth)
	case reflect.Pointer, reflect.Map:
		if rv.IsNil() || w.seen.Been(rv.UnsafePointer()) {
			return
		}
		if rv.Kind() == reflect.Pointer {
			w.walk(name, rv.Elem(), depth+1)
			return
		}
		for it := rv.MapRange(); it.Next(); {
			k := name
			if it.Key().Kind() == reflect.String {
				k = it.Key().String()
			}
			w.walk(k, it.Value(), depth+1)
		}
	case reflect.Slice, reflect.Array:
		if basic(rv.Type().Elem().Kind()) {
			return // text or numbers: no function
		}
		for i := range rv.Len() {
			w.walk(name+"["+strconv.Itoa(i)+"]", rv.Index(i), depth+1)
		}
	case reflect.Struct:
		t := rv.Type()
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				w.walk(t.Field(i).Name, rv.Field(i), depth+1)
			}
		}
	}
}

// Visited holds the pointers and maps a walk of a value has been into,
// so that a value whose parts are shared (or hold it) is walked once.
// The zero Visited is empty.
type Visited map[unsafe.Pointer]bool

// Been reports whether the walk has been into p, and notes it.
func (v *Visited) Been(p unsafe.Pointer) bool {
	if (*v)[p] {
		return true
	}
	if *v == nil {
		*v = Visited{}
	}
	(*v)[p] = true
	return false
}

// basic reports whether a value of kind k holds no other value.
func basic(k reflect.Kind) bool {
	return k >= reflect.Bool && k <= reflect.Complex128 || k == reflect.String
}

// FuncNamed returns the name under which vars hold fn, a function value,
// named as PanickingFunc names one (its key or field, a list's item by the
// list's key and its index), or "" when vars hold none: for an engine that
// knows which function panicked but not where the data holds it. Two
// closures of one function literal are told apart (a value is matched by
// its closure, not its code); when several names hold fn itself, the
// first in sort order is returned.
func FuncNamed(vars map[string]any, fn any) string {
	rv := reflect.ValueOf(fn)
	if rv.Kind() != reflect.Func || rv.IsNil() {
		return ""
	}
	w := funcWalk{entries: map[uintptr]int{rv.Pointer(): 0}, closure: closureOf(fn), budget: maxPanicWalk, best: 1}
	for k, v := range vars {
		w.walk(k, reflect.ValueOf(v), 0)
	}
	return w.name
}

// closureOf returns the closure a func value in an interface points to:
// the interface's data word, which two closures of one literal do not
// share.
func closureOf(fn any) unsafe.Pointer {
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&fn))[1]
}
