package pongo2

import (
	"reflect"

	p2 "github.com/flosch/pongo2/v6"
)

// unguarded is a place in a parsed template where rolemark's guards are
// missing: a {{ }} that pongo2 prints itself (escaping only strings, and
// only while its global autoescape is on) or a macro whose body does not
// count the depth of calls (a recursive one overflows the stack).
type unguarded struct {
	what string
	tok  *p2.Token
}

var macroGuardType = reflect.TypeOf((*macroGuard)(nil))

// verify walks the parsed template tpl, with every file it includes,
// extends or imports, and returns the first place where the rewriter's
// guards are missing, or nil. The rewriter follows pongo2's lexer, so this
// finds nothing unless the two disagree about where a comment, a string or
// a tag ends, as they once did after {# } (issue 23): it makes such a
// disagreement a compile error instead of an unescaped value or a crash.
// Like requiredVars, it reads pongo2 v6's unexported fields with reflect.
func verify(tpl *p2.Template) *unguarded {
	v := &verifier{seen: map[uintptr]bool{}}
	v.walk(reflect.ValueOf(tpl))
	return v.found
}

type verifier struct {
	seen  map[uintptr]bool
	found *unguarded
}

func (v *verifier) walk(x reflect.Value) {
	if v.found != nil {
		return
	}
	switch x.Kind() {
	case reflect.Pointer:
		if x.IsNil() || v.seen[x.Pointer()] {
			return
		}
		v.seen[x.Pointer()] = true
		v.walk(x.Elem())
	case reflect.Interface:
		if !x.IsNil() {
			v.walk(x.Elem())
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < x.Len(); i++ {
			v.walk(x.Index(i))
		}
	case reflect.Map:
		it := x.MapRange()
		for it.Next() {
			v.walk(it.Value())
		}
	case reflect.Struct:
		v.walkStruct(x)
	}
}

func (v *verifier) walkStruct(x reflect.Value) {
	t := x.Type()
	if t.PkgPath() == "github.com/flosch/pongo2/v6" {
		switch t.Name() {
		case "Token", "TemplateSet", "Parser", "Value", "Options":
			return
		case "Template":
			v.walk(x.FieldByName("root"))
			v.walk(x.FieldByName("parent"))
			v.walk(x.FieldByName("blocks"))
			v.walk(x.FieldByName("exportedMacros"))
			return
		case "nodeVariable":
			v.found = &unguarded{what: "{{ }} that pongo2 would print without rolemark's escaping", tok: tokenOf(x.FieldByName("locationToken"))}
			return
		case "tagMacroNode":
			nodes := x.FieldByName("wrapper").Elem().FieldByName("nodes")
			if nodes.Len() != 1 || nodes.Index(0).Elem().Type() != macroGuardType {
				v.found = &unguarded{what: "macro without rolemark's bound on the depth of calls", tok: tokenOf(x.FieldByName("position"))}
				return
			}
		}
	}
	for i := 0; i < x.NumField(); i++ {
		v.walk(x.Field(i))
	}
}

// tokenOf returns the *p2.Token a field of that type holds.
func tokenOf(f reflect.Value) *p2.Token {
	if f.Kind() != reflect.Pointer || f.IsNil() || f.Type() != reflect.TypeOf((*p2.Token)(nil)) {
		return nil
	}
	return (*p2.Token)(f.UnsafePointer())
}
