package schema

import (
	"encoding/json"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A schema compiler: front matter's input.schema and output.schema, written
// in Picoschema, in JSON Schema or as the name of a schema the caller
// registered (Schemas), compiled to JSON Schema exactly as Dotprompt
// compiles them. The result is a YAML node tree, so that it keeps the order
// in which the file wrote its properties; Compile writes it.

// picoScalars are Picoschema's scalar type names; any is the empty schema.
var picoScalars = map[string]bool{"string": true, "boolean": true, "null": true, "number": true, "integer": true, "any": true}

// jsonSchemaTypes are the type names that make a mapping JSON Schema rather
// than Picoschema.
var jsonSchemaTypes = map[string]bool{"string": true, "boolean": true, "null": true, "number": true, "integer": true, "object": true, "array": true}

type compiler struct {
	named map[string]json.RawMessage
}

// compile compiles a schema as written in front matter.
func (c *compiler) compile(n *yaml.Node) (*yaml.Node, error) {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind == yaml.MappingNode {
		if t := mapGet(n, "type"); t != nil && t.Kind == yaml.ScalarNode && jsonSchemaTypes[t.Value] {
			return n, nil
		}
		if p := mapGet(n, "properties"); p != nil && p.Kind == yaml.MappingNode {
			out := copyMapping(n)
			mapSet(out, "type", strNode("object"))
			return out, nil
		}
	}
	return c.pico(n)
}

// pico compiles Picoschema: a type name ("string, a description"), or a
// mapping of properties.
func (c *compiler) pico(n *yaml.Node) (*yaml.Node, error) {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return c.scalar(n)
	case yaml.MappingNode:
	default:
		return nil, errAt(n, "a schema is a type name or a mapping of properties, not a list")
	}
	required := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
	props := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Column: n.Column}
	mapSet(out, "type", strNode("object"))
	mapSet(out, "properties", props)
	mapSet(out, "required", required)
	mapSet(out, "additionalProperties", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"})
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value == "(*)" {
			ap, err := c.pico(v)
			if err != nil {
				return nil, err
			}
			mapSet(out, "additionalProperties", ap)
			continue
		}
		name, typeInfo, typed := strings.Cut(k.Value, "(")
		optional := strings.HasSuffix(name, "?")
		name = strings.TrimSuffix(name, "?")
		if name == "" {
			return nil, errAt(k, "a property needs a name")
		}
		if !optional {
			required.Content = append(required.Content, strNode(name))
		}
		var prop *yaml.Node
		var err error
		if !typed {
			if prop, err = c.pico(v); err != nil {
				return nil, err
			}
			if t := mapGet(prop, "type"); optional && t != nil && t.Kind == yaml.ScalarNode {
				mapSet(prop, "type", nullable(t))
			}
		} else if prop, err = c.typed(k, v, name, strings.TrimSuffix(typeInfo, ")"), optional); err != nil {
			return nil, err
		}
		prop.Line, prop.Column = k.Line, k.Column
		mapSet(props, name, prop)
	}
	if len(required.Content) == 0 {
		mapDel(out, "required")
	}
	return out, nil
}

// typed compiles a property written with its kind, name(kind) or
// name(kind, description): an array of v, an object v, or an enum of
// the values v lists. An optional property's type (or values) admits null.
func (c *compiler) typed(k, v *yaml.Node, name, typeInfo string, optional bool) (*yaml.Node, error) {
	kind, desc := describe(typeInfo)
	var prop *yaml.Node
	switch kind {
	case "array":
		items, err := c.pico(v)
		if err != nil {
			return nil, err
		}
		prop = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		if optional {
			mapSet(prop, "type", nullable(strNode("array")))
		} else {
			mapSet(prop, "type", strNode("array"))
		}
		mapSet(prop, "items", items)
	case "object":
		var err error
		if prop, err = c.pico(v); err != nil {
			return nil, err
		}
		if t := mapGet(prop, "type"); optional && t != nil {
			mapSet(prop, "type", nullable(t))
		}
	case "enum":
		if v.Kind != yaml.SequenceNode {
			return nil, errAt(v, "%s(enum) takes a list of values", name)
		}
		vals := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Content: append([]*yaml.Node(nil), v.Content...)}
		hasNull := false
		for _, e := range vals.Content {
			hasNull = hasNull || e.Tag == "!!null"
		}
		if optional && !hasNull {
			vals.Content = append(vals.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"})
		}
		prop = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		mapSet(prop, "enum", vals)
	default:
		return nil, errAt(k, "unknown Picoschema kind %q; expected array, object or enum", kind)
	}
	if desc != "" {
		mapSet(prop, "description", strNode(desc))
	}
	return prop, nil
}

// scalar compiles "type" or "type, description": a scalar type, any, or
// the name of a registered schema, whose description the one written here
// replaces.
func (c *compiler) scalar(n *yaml.Node) (*yaml.Node, error) {
	kind, desc := describe(n.Value)
	var out *yaml.Node
	switch {
	case kind == "any":
		out = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	case picoScalars[kind]:
		out = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		mapSet(out, "type", strNode(kind))
	default:
		raw, ok := c.named[kind]
		if !ok {
			return nil, errAt(n, "unknown type %q; expected string, number, integer, boolean, null, any, or a schema registered with engine.Schemas", kind)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(raw, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			return nil, errAt(n, "schema %q is not a JSON Schema object", kind)
		}
		out = doc.Content[0]
	}
	if desc != "" {
		mapSet(out, "description", strNode(desc))
	}
	out.Line, out.Column = n.Line, n.Column
	return out, nil
}

// describe splits "type, description" at its first comma, as Dotprompt
// does; both are trimmed when there is a comma.
func describe(s string) (kind, desc string) {
	kind, desc, ok := strings.Cut(s, ",")
	if !ok {
		return s, ""
	}
	return strings.TrimSpace(kind), strings.TrimSpace(desc)
}

// nullable returns [t, "null"] for a type node t.
func nullable(t *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle, Content: []*yaml.Node{t, strNode("null")}}
}

func strNode(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

func mapGet(m *yaml.Node, key string) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// mapSet sets key in place when the mapping has it, else appends it.
func mapSet(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, strNode(key), v)
}

func mapDel(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

func copyMapping(m *yaml.Node) *yaml.Node {
	c := *m
	c.Content = append([]*yaml.Node(nil), m.Content...)
	return &c
}
