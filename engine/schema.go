package engine

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Schema describes a template's variables: a subset of JSON Schema (type,
// description, properties, required, items, enum), written in front matter
// either as JSON Schema or in Dotprompt's compact Picoschema notation:
//
//	name: string, the customer's name
//	age?: integer
//	tags(array): string
//	address(object):
//	  city: string
//	tone(enum): [formal, casual]
type Schema struct {
	// Type is string, number, integer, boolean, object, array, null or
	// empty for any.
	Type        string
	Description string
	Nullable    bool
	Properties  map[string]*Schema
	// Order lists the properties in the order written.
	Order    []string
	Required []string
	Items    *Schema
	Enum     []any
	// line and col locate the declaration in the file.
	line, col int
}

// InputError is a variable that does not match the declared input schema.
type InputError struct {
	// Name is the variable's path, such as "address.city".
	Name string
	Msg  string
}

func (e *InputError) Error() string { return fmt.Sprintf("input %q %s", e.Name, e.Msg) }

func parseInput(fm *FrontMatter, n *yaml.Node, sc *schemaCompiler) error {
	errAt := sc.errAt
	var defaults *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "schema":
			js, cerr := sc.compile(v)
			s, err := parseSchema(v, errAt, fm.Line)
			if err != nil && cerr == nil {
				// Named schemas and (*) wildcards: check the input against
				// the compiled JSON Schema.
				s, err = parseJSONSchema(js, errAt, fm.Line)
			}
			if err != nil {
				return err
			}
			if cerr != nil {
				return cerr
			}
			b, ok := orderedJSON(js)
			if !ok {
				return errAt(v, "input.schema cannot be written as JSON")
			}
			fm.Input, fm.InputSchema = s, b
		case "default":
			if v.Kind != yaml.MappingNode {
				return errAt(v, "input.default must be a mapping of variable names to values")
			}
			if err := v.Decode(&fm.Defaults); err != nil {
				return errAt(v, "input.default: %v", err)
			}
			for k, x := range fm.Defaults {
				fm.Defaults[k] = jsonable(x)
			}
			defaults = v
		default:
			return errAt(k, "input has no key %q; expected schema or default", k.Value)
		}
	}
	return checkDefaults(fm, defaults, errAt)
}

// checkDefaults checks each declared default against the schema of its
// input, so that a default of the wrong type is a front-matter error at the
// default, not a render error.
func checkDefaults(fm *FrontMatter, defaults *yaml.Node, errAt nodeErr) error {
	if fm.Input == nil || defaults == nil {
		return nil
	}
	for i := 0; i+1 < len(defaults.Content); i += 2 {
		k, v := defaults.Content[i], defaults.Content[i+1]
		p := fm.Input.Properties[k.Value]
		if p == nil {
			continue
		}
		if ie := p.check(k.Value, fm.Defaults[k.Value]); ie != nil {
			return errAt(v, "input.default %q %s", ie.Name, ie.Msg)
		}
	}
	return nil
}

var jsonTypes = map[string]bool{"string": true, "number": true, "integer": true, "boolean": true,
	"object": true, "array": true, "null": true, "any": true}

// parseSchema reads JSON Schema (a mapping with type: object or properties)
// or Picoschema.
func parseSchema(n *yaml.Node, errAt nodeErr, firstLine int) (*Schema, error) {
	pos := func(s *Schema, n *yaml.Node) *Schema { s.line, s.col = firstLine+n.Line-1, n.Column; return s }
	switch n.Kind {
	case yaml.ScalarNode:
		// "string" or "string, a description"
		typ, desc, _ := strings.Cut(n.Value, ",")
		typ = strings.TrimSpace(typ)
		if !jsonTypes[typ] {
			return nil, errAt(n, "unknown type %q; expected string, number, integer, boolean, object, array, null or any", typ)
		}
		if typ == "any" {
			typ = ""
		}
		return pos(&Schema{Type: typ, Description: strings.TrimSpace(desc)}, n), nil
	case yaml.MappingNode:
	default:
		return nil, errAt(n, "a schema must be a type name or a mapping")
	}
	if isJSONSchema(n) {
		return parseJSONSchema(n, errAt, firstLine)
	}
	s := pos(&Schema{Type: "object", Properties: map[string]*Schema{}}, n)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name, optional := k.Value, false
		var kind, desc string
		if open := strings.IndexByte(name, '('); open >= 0 && strings.HasSuffix(name, ")") {
			kind, desc, _ = strings.Cut(name[open+1:len(name)-1], ",")
			kind, desc = strings.TrimSpace(kind), strings.TrimSpace(desc)
			name = name[:open]
		}
		if strings.HasSuffix(name, "?") {
			name, optional = strings.TrimSuffix(name, "?"), true
		}
		if name == "" {
			return nil, errAt(k, "a property needs a name")
		}
		var prop *Schema
		var err error
		switch kind {
		case "":
			prop, err = parseSchema(v, errAt, firstLine)
		case "array":
			var items *Schema
			items, err = parseSchema(v, errAt, firstLine)
			prop = &Schema{Type: "array", Items: items, Description: desc}
		case "object":
			prop, err = parseSchema(v, errAt, firstLine)
			if err == nil {
				prop.Description = desc
			}
		case "enum":
			var vals []any
			if err = v.Decode(&vals); err != nil {
				return nil, errAt(v, "%s(enum) takes a list of values", name)
			}
			prop = &Schema{Enum: vals, Description: desc}
		default:
			return nil, errAt(k, "unknown Picoschema kind %q; expected array, object or enum", kind)
		}
		if err != nil {
			return nil, err
		}
		pos(prop, k)
		if optional {
			prop.Nullable = true
		} else {
			s.Required = append(s.Required, name)
		}
		s.Properties[name] = prop
		s.Order = append(s.Order, name)
	}
	return s, nil
}

func isJSONSchema(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value == "properties" || (k.Value == "type" && v.Kind == yaml.ScalarNode && jsonTypes[v.Value]) {
			return true
		}
	}
	return false
}

func parseJSONSchema(n *yaml.Node, errAt nodeErr, firstLine int) (*Schema, error) {
	s := &Schema{line: firstLine + n.Line - 1, col: n.Column}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "type":
			switch v.Kind {
			case yaml.ScalarNode:
				s.Type = v.Value
			case yaml.SequenceNode: // [string, "null"]
				for _, t := range v.Content {
					if t.Value == "null" {
						s.Nullable = true
					} else {
						s.Type = t.Value
					}
				}
			}
			if s.Type != "" && !jsonTypes[s.Type] {
				return nil, errAt(v, "unknown type %q", s.Type)
			}
		case "description":
			s.Description = v.Value
		case "properties":
			if v.Kind != yaml.MappingNode {
				return nil, errAt(v, "properties must be a mapping")
			}
			s.Properties = map[string]*Schema{}
			for j := 0; j+1 < len(v.Content); j += 2 {
				p, err := parseJSONSchema(v.Content[j+1], errAt, firstLine)
				if err != nil {
					return nil, err
				}
				s.Properties[v.Content[j].Value] = p
				s.Order = append(s.Order, v.Content[j].Value)
			}
		case "required":
			if err := v.Decode(&s.Required); err != nil {
				return nil, errAt(v, "required must be a list of names")
			}
		case "items":
			items, err := parseJSONSchema(v, errAt, firstLine)
			if err != nil {
				return nil, err
			}
			s.Items = items
		case "enum":
			if err := v.Decode(&s.Enum); err != nil {
				return nil, errAt(v, "enum must be a list")
			}
		}
	}
	if s.Type == "any" {
		s.Type = ""
	}
	return s, nil
}

// check validates v, found at path, against the schema.
func (s *Schema) check(path string, v any) *InputError {
	if v == nil {
		if s.Nullable || s.Type == "" || s.Type == "null" {
			return nil
		}
		return &InputError{Name: path, Msg: "must be " + article(s.Type) + ", not null"}
	}
	if len(s.Enum) > 0 {
		ok := false
		for _, e := range s.Enum {
			if fmt.Sprint(e) == fmt.Sprint(v) {
				ok = true
			}
		}
		if !ok {
			return &InputError{Name: path, Msg: fmt.Sprintf("must be one of %s, not %s", jsonText(s.Enum), jsonText(v))}
		}
	}
	rv := reflect.ValueOf(v)
	kind := rv.Kind()
	bad := false
	switch s.Type {
	case "string":
		bad = kind != reflect.String
	case "boolean":
		bad = kind != reflect.Bool
	case "number":
		bad = !isNumber(kind)
	case "integer":
		switch {
		case kind >= reflect.Int && kind <= reflect.Uintptr:
		case kind == reflect.Float32 || kind == reflect.Float64:
			f := rv.Float()
			bad = f != math.Trunc(f) || math.IsInf(f, 0)
		default:
			bad = true
		}
	case "array":
		bad = kind != reflect.Slice && kind != reflect.Array
		if !bad && s.Items != nil {
			for i := 0; i < rv.Len(); i++ {
				if err := s.Items.check(fmt.Sprintf("%s[%d]", path, i), rv.Index(i).Interface()); err != nil {
					return err
				}
			}
		}
	case "object":
		if kind != reflect.Map || rv.Type().Key().Kind() != reflect.String {
			bad = kind != reflect.Struct && kind != reflect.Pointer
			break
		}
		for _, name := range s.Required {
			if !rv.MapIndex(reflect.ValueOf(name).Convert(rv.Type().Key())).IsValid() {
				return &InputError{Name: join(path, name), Msg: "is required but not supplied"}
			}
		}
		for _, name := range s.Order {
			x := rv.MapIndex(reflect.ValueOf(name).Convert(rv.Type().Key()))
			if !x.IsValid() {
				continue
			}
			if err := s.Properties[name].check(join(path, name), x.Interface()); err != nil {
				return err
			}
		}
	case "null":
		bad = true
	}
	if bad {
		return &InputError{Name: path, Msg: fmt.Sprintf("must be %s, not %s", article(s.Type), jsonKind(rv))}
	}
	return nil
}

// jsonKind names a value's kind in JSON's terms (string, number, boolean,
// object, array, null), never as a Go type.
func jsonKind(rv reflect.Value) string {
	switch k := rv.Kind(); {
	case k == reflect.String:
		return "string"
	case k == reflect.Bool:
		return "boolean"
	case isNumber(k):
		return "number"
	case k == reflect.Slice || k == reflect.Array:
		return "array"
	case k == reflect.Map || k == reflect.Struct:
		return "object"
	case k == reflect.Pointer || k == reflect.Interface:
		if rv.IsNil() {
			return "null"
		}
		return jsonKind(rv.Elem())
	case !rv.IsValid():
		return "null"
	}
	return "a value of no JSON type"
}

// jsonText writes v as JSON for a message, or as Go would print it when it
// has no JSON form.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func isNumber(k reflect.Kind) bool {
	return (k >= reflect.Int && k <= reflect.Uintptr) || k == reflect.Float32 || k == reflect.Float64
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func article(t string) string {
	switch t {
	case "integer", "object", "array":
		return "an " + t
	case "":
		return "a value"
	}
	return "a " + t
}
