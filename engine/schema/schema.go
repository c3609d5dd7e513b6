// Package schema reads the variables a prompt declares in its front matter
// (input.schema) and the output it asks for (output.schema): Dotprompt's
// compact Picoschema notation, a subset of JSON Schema, or the name of a
// schema the caller registered. Compile turns such a schema into JSON
// Schema exactly as Dotprompt compiles it; Parse also gives the Schema that
// Check uses to validate a render's variables before any engine runs.
//
// Schemas arrive as YAML nodes (go.yaml.in/yaml/v3), because front matter
// is YAML and a schema keeps the order in which it writes its properties.
// Package engine reads front matter and calls this package; the command
// line, the language server and the preview read the Schema it gives.
package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/rolemark/rolemark/engine/internal/yamljson"
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
	// Additional is set when an object takes properties it does not
	// declare: a Picoschema (*) wildcard, or additionalProperties other
	// than false.
	Additional bool
	// Line and Col locate the declaration in the YAML the node was read
	// from (1-based), so that a caller can point at it.
	Line, Col int
}

// Error is a schema that cannot be read, at the line and column of its
// YAML node (1-based, in the YAML the node was read from).
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

func errAt(n *yaml.Node, format string, args ...any) error {
	return &Error{Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)}
}

// InputError is a value that does not match its schema: a variable that
// does not match the declared input schema.
type InputError struct {
	// Name is the variable's path, such as "address.city" or "tags[1]".
	Name string
	Msg  string
}

func (e *InputError) Error() string { return fmt.Sprintf("input %q %s", e.Name, e.Msg) }

// Compile compiles a schema as written in front matter (Picoschema, JSON
// Schema, or the name of a schema in named, Dotprompt's registered
// schemas) to JSON Schema as Dotprompt compiles it: Picoschema becomes an
// object schema (additionalProperties false, optional properties nullable,
// (*) the additionalProperties), a mapping with a JSON Schema type or
// properties is kept as written, and a registered name is replaced by its
// schema. The keys keep the order written. Problems are *Error values.
func Compile(n *yaml.Node, named map[string]json.RawMessage) (json.RawMessage, error) {
	js, err := (&compiler{named: named}).compile(n)
	if err != nil {
		return nil, err
	}
	return writeJSON(js, n)
}

// Parse compiles a schema as Compile does and reads it as a Schema, for
// Check. A named schema or a (*) wildcard is read from its compiled JSON
// Schema. Problems are *Error values.
func Parse(n *yaml.Node, named map[string]json.RawMessage) (*Schema, json.RawMessage, error) {
	js, cerr := (&compiler{named: named}).compile(n)
	s, err := parseSchema(n)
	if err != nil && cerr == nil {
		s, err = parseJSONSchema(js)
	}
	if err != nil {
		return nil, nil, err
	}
	if cerr != nil {
		return nil, nil, cerr
	}
	b, err := writeJSON(js, n)
	if err != nil {
		return nil, nil, err
	}
	return s, b, nil
}

func writeJSON(js, n *yaml.Node) (json.RawMessage, error) {
	b, ok := yamljson.Ordered(js)
	if !ok {
		return nil, errAt(n, "the schema cannot be written as JSON")
	}
	return b, nil
}

var jsonTypes = map[string]bool{"string": true, "number": true, "integer": true, "boolean": true,
	"object": true, "array": true, "null": true, "any": true}

// parseSchema reads JSON Schema (a mapping with type: object or properties)
// or Picoschema.
func parseSchema(n *yaml.Node) (*Schema, error) {
	pos := func(s *Schema, n *yaml.Node) *Schema { s.Line, s.Col = n.Line, n.Column; return s }
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
		return parseJSONSchema(n)
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
			prop, err = parseSchema(v)
		case "array":
			var items *Schema
			items, err = parseSchema(v)
			prop = &Schema{Type: "array", Items: items, Description: desc}
		case "object":
			prop, err = parseSchema(v)
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

func parseJSONSchema(n *yaml.Node) (*Schema, error) {
	s := &Schema{Line: n.Line, Col: n.Column}
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
				p, err := parseJSONSchema(v.Content[j+1])
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
			items, err := parseJSONSchema(v)
			if err != nil {
				return nil, err
			}
			s.Items = items
		case "enum":
			if err := v.Decode(&s.Enum); err != nil {
				return nil, errAt(v, "enum must be a list")
			}
		case "additionalProperties":
			s.Additional = v.Kind != yaml.ScalarNode || v.Value != "false"
		}
	}
	if s.Type == "any" {
		s.Type = ""
	}
	return s, nil
}

// Check validates v, the value of the variable at path (empty for the
// root, a mapping of variables), against the schema. The error is an
// *InputError, or nil when v matches.
func (s *Schema) Check(path string, v any) error {
	if ie := s.check(path, v); ie != nil {
		return ie
	}
	return nil
}

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
