package pongo2

import (
	"fmt"
	"reflect"
	"strings"

	p2 "github.com/flosch/pongo2/v6"
)

// unguarded is a place in a parsed template where rolemark's guards are
// missing: a {{ }} that pongo2 prints itself (escaping only strings, and
// only while its global autoescape is on) or a macro whose body does not
// count the depth of calls (a recursive one overflows the stack).
type unguarded struct {
	what string
	tok  *p2.Token
	// err, when set, is an author's mistake that verify found, reported
	// as it is (a filter called without the argument it needs).
	err error
	// word, when set, is the mistake's own word in the tag that tok
	// starts, a filter's name in {% filter %}, which keeps no token of it.
	word string
}

// argFilters are pongo2's built-in filters that need their argument, each
// with an example of it. Called without one, pongo2 v6 gives an empty or
// unchanged value ({{ x|truncatechars }} is "", {{ x|default }} is "" when
// x is empty), nonsense (stringformat) or an error at render (slice);
// Django refuses them when it parses, but for date and time, whose
// format its settings default ({{ t|date }} is "" in pongo2 v6). join (with "" it concatenates, as
// Jinja's join does) and the filters whose argument is optional are not in
// it.
var argFilters = map[string]string{
	"add": "add:1", "cut": `cut:" "`, "date": `date:"2006-01-02"`, "time": `time:"15:04"`,
	"default": `default:"none"`, "default_if_none": `default_if_none:"none"`,
	"divisibleby": "divisibleby:2", "get_digit": "get_digit:1", "length_is": "length_is:3",
	"removetags": `removetags:"b,i"`, "slice": `slice:":3"`, "split": `split:","`,
	"stringformat": `stringformat:"%05d"`, "truncatechars": "truncatechars:100",
	"truncatewords": "truncatewords:20", "urlizetrunc": "urlizetrunc:30", "wordwrap": "wordwrap:10",
}

var macroGuardType = reflect.TypeOf((*macroGuard)(nil))

// verify walks the parsed template tpl, with every file it includes,
// extends or imports, and returns the first place where the rewriter's
// guards are missing, or nil. The rewriter follows pongo2's lexer, so this
// finds nothing unless the two disagree about where a comment, a string or
// a tag ends, as they once did after {# } (issue 23): it makes such a
// disagreement a compile error instead of an unescaped value or a crash.
// It also finds a filter of argFilters called without its argument.
// Like requiredVars, it reads pongo2 v6's unexported fields with reflect.
func verify(tpl *p2.Template) *unguarded {
	var found *unguarded
	walkNodes(tpl, func(name string, x reflect.Value) bool {
		if found != nil {
			return false
		}
		switch name {
		case "nodeVariable":
			found = &unguarded{what: "{{ }} that pongo2 would print without rolemark's escaping", tok: tokenOf(x.FieldByName("locationToken"))}
			return false
		case "filterCall":
			if name := x.FieldByName("name").String(); argFilters[name] != "" && x.FieldByName("parameter").IsNil() {
				found = &unguarded{tok: tokenOf(x.FieldByName("token")),
					err: fmt.Errorf("filter %q needs its argument, as in |%s", name, argFilters[name])}
				return false
			}
		case "tagFilterNode":
			calls := x.FieldByName("filterChain")
			for i := 0; i < calls.Len(); i++ {
				call := calls.Index(i).Elem()
				if name := call.FieldByName("name").String(); argFilters[name] != "" && call.FieldByName("paramExpr").IsNil() {
					found = &unguarded{tok: tokenOf(x.FieldByName("position")), word: name,
						err: fmt.Errorf("filter %q needs its argument, as in |%s", name, argFilters[name])}
					return false
				}
			}
		case "tagMacroNode":
			nodes := x.FieldByName("wrapper").Elem().FieldByName("nodes")
			if nodes.Len() != 1 || nodes.Index(0).Elem().Type() != macroGuardType {
				found = &unguarded{what: "macro without rolemark's bound on the depth of calls", tok: tokenOf(x.FieldByName("position"))}
				return false
			}
		}
		return true
	})
	return found
}

// walkNodes walks the parsed template tpl, with every file it includes,
// extends or imports, read-only with reflect, each pointer once, and calls
// visit with each struct of pongo2's package it reaches (by its type's
// name) that is not a token, a value or the parser's; visit returns
// whether to walk the struct's fields.
func walkNodes(tpl *p2.Template, visit func(name string, x reflect.Value) bool) {
	seen := map[uintptr]bool{}
	var walk func(x reflect.Value)
	walk = func(x reflect.Value) {
		switch x.Kind() {
		case reflect.Pointer:
			if x.IsNil() || seen[x.Pointer()] {
				return
			}
			seen[x.Pointer()] = true
			walk(x.Elem())
		case reflect.Interface:
			if !x.IsNil() {
				walk(x.Elem())
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < x.Len(); i++ {
				walk(x.Index(i))
			}
		case reflect.Map:
			it := x.MapRange()
			for it.Next() {
				walk(it.Value())
			}
		case reflect.Struct:
			t := x.Type()
			if t.PkgPath() == "github.com/flosch/pongo2/v6" {
				switch t.Name() {
				case "Token", "TemplateSet", "Parser", "Value", "Options":
					return
				case "Template":
					for _, f := range []string{"root", "parent", "blocks", "exportedMacros"} {
						walk(x.FieldByName(f))
					}
					return
				}
				if !visit(t.Name(), x) {
					return
				}
			}
			for i := 0; i < x.NumField(); i++ {
				walk(x.Field(i))
			}
		}
	}
	walk(reflect.ValueOf(tpl))
}

// tokenOf returns the *p2.Token a field of that type holds.
func tokenOf(f reflect.Value) *p2.Token {
	if f.Kind() != reflect.Pointer || f.IsNil() || f.Type() != reflect.TypeOf((*p2.Token)(nil)) {
		return nil
	}
	return (*p2.Token)(f.UnsafePointer())
}

// wordCol returns the column (pongo2's: 1-based, in bytes) of the first
// word w after the token at line and col of src, on that line and inside
// its tag, or col when it is not there.
func wordCol(src string, line, col int, w string) int {
	start := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(src[start:], '\n')
		if i < 0 {
			return col
		}
		start += i + 1
	}
	rest := src[start:]
	if end := strings.IndexByte(rest, '\n'); end >= 0 {
		rest = rest[:end]
	}
	if col-1 > len(rest) {
		return col
	}
	tag := rest[col-1:]
	if end := strings.Index(tag, "%}"); end >= 0 {
		tag = tag[:end]
	}
	for off := 0; ; {
		i := strings.Index(tag[off:], w)
		if i < 0 {
			return col
		}
		at := off + i
		end := at + len(w)
		if at > 0 && (tag[at-1] == ' ' || tag[at-1] == '\t' || tag[at-1] == '|') && (end == len(tag) || !isIdent(tag[end])) {
			return col + at
		}
		off = at + 1
	}
}

func isIdent(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}
