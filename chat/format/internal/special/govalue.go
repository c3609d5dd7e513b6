package special

import (
	"encoding/json"
	"reflect"
	"strings"
)

// A template variable is any Go value, and a chat template sees it as
// jinja2.FromGo shows it: the strings of every string kind, the items of
// slices and arrays, the keys and values of maps, what pointers and
// interfaces hold, and the exported fields of structs (but those whose
// json tag is "-"), to any depth, through cycles. Step 1 reads every
// string the template could read that way, and step 2's neutral copy
// replaces the marks in each of them, keeping the types, so that the
// template sees the same shapes. A json.RawMessage is the value its JSON
// text holds, or that text as a string when it is not JSON, as FromGo
// reads it: its text is read as a tool call's arguments are (scan.json),
// and its neutral copy is neutralJSON's.

// rawJSON is the type FromGo reads as JSON text.
var rawJSON = reflect.TypeFor[json.RawMessage]()

// visit names a map, slice or pointer met before, so that a value that
// holds itself is read once.
type visit struct {
	typ reflect.Type
	ptr uintptr
	n   int
}

func visitOf(rv reflect.Value) (visit, bool) {
	switch rv.Kind() {
	case reflect.Map, reflect.Pointer:
		return visit{rv.Type(), rv.Pointer(), 0}, true
	case reflect.Slice:
		return visit{rv.Type(), rv.Pointer(), rv.Len()}, true
	}
	return visit{}, false
}

// visible reports whether a template sees the field f of a struct.
func visible(f reflect.StructField) bool {
	if !f.IsExported() {
		return false
	}
	tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return tag != "-"
}

// goValue checks every string of rv a template can read.
func (s *scan) goValue(g *Guard, where string, rv reflect.Value, seen map[visit]bool) bool {
	if !rv.IsValid() {
		return true
	}
	if v, ok := visitOf(rv); ok && !rv.IsNil() {
		if seen[v] {
			return true
		}
		seen[v] = true
	}
	switch rv.Kind() {
	case reflect.String:
		return s.str(g, -1, where, rv.String())
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return true
		}
		return s.goValue(g, where, rv.Elem(), seen)
	case reflect.Slice, reflect.Array:
		if rv.Type() == rawJSON {
			return s.json(g, -1, where, rv.Bytes())
		}
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return true // bytes: a list of ints to a template
		}
		for i := 0; i < rv.Len(); i++ {
			if !s.goValue(g, where, rv.Index(i), seen) {
				return false
			}
		}
	case reflect.Map:
		it := rv.MapRange()
		for it.Next() {
			if !s.goValue(g, where, it.Key(), seen) || !s.goValue(g, where, it.Value(), seen) {
				return false
			}
		}
	case reflect.Struct:
		t := rv.Type()
		// A template prints a struct as <Name object at 0x…>: a template
		// that cuts that text writes its marks, which count as the
		// data's, so that step 2 runs when they and the data's could
		// make a token.
		name := t.Name()
		if name == "" {
			name = "struct"
		}
		s.reprMarks(g, "<"+name+" object at 0x0123456789abcdef>")
		for i := 0; i < t.NumField(); i++ {
			if visible(t.Field(i)) && !s.goValue(g, where, rv.Field(i), seen) {
				return false
			}
		}
	}
	return true
}

// reprMarks adds the marks of a value's repr to the marks seen.
func (s *scan) reprMarks(g *Guard, repr string) {
	for i := 0; i < len(repr); i++ {
		if g.mark.has(repr[i]) {
			s.seen.add(repr[i])
		}
	}
}

// neutralGo returns rv's neutral copy (neutralString of every string a
// template can read), of rv's type; memo holds the copies of the maps,
// slices and pointers made so far, so that the copy of a value that holds
// itself holds its copy. A value without marks may be returned as it is.
func (g *Guard) neutralGo(rv reflect.Value, memo map[visit]reflect.Value) reflect.Value {
	if !rv.IsValid() {
		return rv
	}
	v, shared := visitOf(rv)
	if shared {
		if rv.IsNil() {
			return rv
		}
		if out, ok := memo[v]; ok {
			return out
		}
	}
	t := rv.Type()
	switch rv.Kind() {
	case reflect.String:
		s := rv.String()
		n := g.neutralString(s)
		if n == s {
			return rv
		}
		out := reflect.New(t).Elem()
		out.SetString(n)
		return out
	case reflect.Interface:
		if rv.IsNil() {
			return rv
		}
		out := reflect.New(t).Elem()
		out.Set(g.neutralGo(rv.Elem(), memo))
		return out
	case reflect.Pointer:
		out := reflect.New(t.Elem())
		memo[v] = out
		out.Elem().Set(g.neutralGo(rv.Elem(), memo))
		return out
	case reflect.Slice:
		if t == rawJSON {
			return reflect.ValueOf(json.RawMessage(g.neutralJSON(rv.Bytes())))
		}
		if t.Elem().Kind() == reflect.Uint8 {
			return rv
		}
		out := reflect.MakeSlice(t, rv.Len(), rv.Len())
		memo[v] = out
		for i := 0; i < rv.Len(); i++ {
			out.Index(i).Set(g.neutralGo(rv.Index(i), memo))
		}
		return out
	case reflect.Array:
		out := reflect.New(t).Elem()
		for i := 0; i < rv.Len(); i++ {
			out.Index(i).Set(g.neutralGo(rv.Index(i), memo))
		}
		return out
	case reflect.Map:
		out := reflect.MakeMapWithSize(t, rv.Len())
		memo[v] = out
		it := rv.MapRange()
		for it.Next() {
			out.SetMapIndex(g.neutralGo(it.Key(), memo), g.neutralGo(it.Value(), memo))
		}
		return out
	case reflect.Struct:
		out := reflect.New(t).Elem()
		out.Set(rv)
		for i := 0; i < t.NumField(); i++ {
			if visible(t.Field(i)) {
				out.Field(i).Set(g.neutralGo(rv.Field(i), memo))
			}
		}
		return out
	}
	return rv
}
