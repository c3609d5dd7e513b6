package pongo2

import (
	"cmp"
	"reflect"
	"slices"

	p2 "github.com/flosch/pongo2/v6"

	"github.com/rolemark/rolemark/engine/driver"
)

// varRef is a variable a template requires, at its first use.
type varRef struct {
	name      string
	call      bool // the template calls it: {{ name(…) }}
	file      string
	line, col int
}

// builtins are names pongo2 or rolemark provide during a render.
var builtins = map[string]bool{
	"forloop": true, "pongo2": true, "block": true, "nil": true,
	stateKey: true,
}

// defaultFilters make their subject optional: {{ x|default:"none" }}.
var defaultFilters = map[string]bool{"default": true, "default_if_none": true}

// requiredVars lists the variables the template tpl (with every file it
// includes, extends or imports) reads and does not bind itself, in order of
// first use. pongo2 v6 offers no API to inspect a parsed template, so this
// walks pongo2's node types with reflect, read-only; the names of the
// types and fields it relies on are those of pongo2 v6.0.0, and the
// package's tests fail if they change.
//
// A name is not required when it is bound anywhere in the template ({% set
// %}, {% for %}, {% with %}, macro names and arguments, {% import %},
// include … with), when it is tested in an {% if %}/{% elif %} condition or
// {% ifequal %}, or when default/default_if_none is its first filter.
func requiredVars(tpl *p2.Template, funcs p2.Context) []varRef {
	w := &walker{
		seen:     map[uintptr]bool{},
		bound:    map[string]bool{},
		optional: map[string]bool{},
		firstRef: map[string]int{},
	}
	w.walk(reflect.ValueOf(tpl), false)
	var out []varRef
	for _, r := range w.refs {
		if w.bound[r.name] || w.optional[r.name] || builtins[r.name] {
			continue
		}
		if _, ok := funcs[r.name]; ok {
			continue
		}
		out = append(out, r)
	}
	return out
}

// readVars lists every variable the template reads and does not bind,
// by first use, those that are only tested or defaulted too, as Vars
// lists them (the place of a deep value's error when Vars has none).
func (c *compiled) readVars() []driver.Var {
	w := &walker{
		seen:     map[uintptr]bool{},
		bound:    map[string]bool{},
		optional: map[string]bool{},
		firstRef: map[string]int{},
		all:      true,
	}
	w.walk(reflect.ValueOf(c.tpl), false)
	var out []driver.Var
	placers := map[*source]*placer{}
	for _, r := range w.refs {
		if !w.bound[r.name] {
			file, line, col := c.placeWith(placers, r.file, r.line, r.col)
			out = append(out, driver.Var{Name: r.name, Template: file, Line: line, Col: col, Call: r.call})
		}
	}
	// the walk's order is the tree's, not the source's: the template's own
	// places first, then the files it loads, each by position
	rank := func(v driver.Var) int {
		if v.Template == c.name {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(out, func(a, b driver.Var) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a.Template, b.Template),
			cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	return out
}

type walker struct {
	seen     map[uintptr]bool
	bound    map[string]bool
	optional map[string]bool
	firstRef map[string]int
	refs     []varRef
	// all records every reference, those that are only tested or
	// defaulted too (readVars).
	all bool
}

func (w *walker) walk(v reflect.Value, opt bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if w.seen[v.Pointer()] {
			return
		}
		w.seen[v.Pointer()] = true
		w.walk(v.Elem(), opt)
	case reflect.Interface:
		if !v.IsNil() {
			w.walk(v.Elem(), opt)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			w.walk(v.Index(i), opt)
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			w.walk(it.Value(), opt)
		}
	case reflect.Struct:
		w.walkStruct(v, opt)
	}
}

func (w *walker) walkStruct(v reflect.Value, opt bool) {
	t := v.Type()
	if t.PkgPath() != "github.com/flosch/pongo2/v6" {
		// rolemark's own nodes: walk every field
		if t == reflect.TypeFor[widthratioNode]() {
			w.bind(v.FieldByName("name").String()) // {% widthratio … as name %}
		}
		for i := 0; i < v.NumField(); i++ {
			w.walk(v.Field(i), opt)
		}
		return
	}
	switch t.Name() {
	case "Token", "TemplateSet", "Parser", "Value", "Options":
		return
	case "Template":
		// root, and what it extends; blocks and macros are nodes of root
		// or of the parent.
		w.fields(v, opt, "root", "parent", "blocks", "exportedMacros")
		return
	case "variableResolver":
		parts := v.FieldByName("parts")
		if parts.Len() > 0 {
			p := parts.Index(0).Elem()
			if p.FieldByName("typ").Int() == 1 { // varTypeIdent
				w.ref(p.FieldByName("s").String(), v.FieldByName("locationToken"), opt, p.FieldByName("isFunctionCall").Bool())
			}
		}
		for i := 0; i < parts.Len(); i++ {
			p := parts.Index(i).Elem()
			w.walk(p.FieldByName("subscript"), false)
			w.walk(p.FieldByName("callingArgs"), false)
		}
		return
	case "nodeFilteredVariable":
		chain := v.FieldByName("filterChain")
		o := opt
		if chain.Len() > 0 && defaultFilters[chain.Index(0).Elem().FieldByName("name").String()] {
			o = true
		}
		w.walk(v.FieldByName("resolver"), o)
		w.walk(chain, false)
		return
	case "tagIfNode":
		w.fields(v, true, "conditions")
		w.fields(v, opt, "wrappers")
		return
	case "tagIfEqualNode", "tagIfNotEqualNode":
		w.fields(v, true, "var1", "var2")
		w.fields(v, opt, "thenWrapper", "elseWrapper")
		return
	case "tagSetNode":
		w.bind(v.FieldByName("name").String())
	case "tagForNode":
		w.bind(v.FieldByName("key").String())
		w.bind(v.FieldByName("value").String())
	case "tagMacroNode":
		w.bind(v.FieldByName("name").String())
		args := v.FieldByName("argsOrder")
		for i := 0; i < args.Len(); i++ {
			w.bind(args.Index(i).String())
		}
	case "tagWithNode", "tagIncludeNode":
		w.bindKeys(v.FieldByName("withPairs"))
	case "tagImportNode":
		w.bindKeys(v.FieldByName("macros"))
	case "tagWidthratioNode":
		w.bind(v.FieldByName("ctxName").String())
	case "tagCycleNode":
		w.bind(v.FieldByName("asName").String())
	}
	for i := 0; i < v.NumField(); i++ {
		w.walk(v.Field(i), opt)
	}
}

// fields walks the fields of struct v that names name, in that order.
func (w *walker) fields(v reflect.Value, opt bool, names ...string) {
	for _, n := range names {
		w.walk(v.FieldByName(n), opt)
	}
}

func (w *walker) bind(name string) {
	if name != "" {
		w.bound[name] = true
	}
}

func (w *walker) bindKeys(m reflect.Value) {
	if m.Kind() != reflect.Map {
		return
	}
	it := m.MapRange()
	for it.Next() {
		w.bind(it.Key().String())
	}
}

func (w *walker) ref(name string, tok reflect.Value, opt, call bool) {
	if opt && !w.all {
		w.optional[name] = true
		return
	}
	if _, ok := w.firstRef[name]; ok && !w.all {
		return
	}
	r := varRef{name: name, call: call}
	if tok.Kind() == reflect.Pointer && !tok.IsNil() {
		t := tok.Elem()
		r.file = t.FieldByName("Filename").String()
		r.line = int(t.FieldByName("Line").Int())
		r.col = int(t.FieldByName("Col").Int())
	}
	w.firstRef[name] = len(w.refs)
	w.refs = append(w.refs, r)
}
