package schema_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/rolemark/rolemark/engine/schema"
)

// node reads YAML text into the node a schema is read from.
func node(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(src), &doc))
	require.NotEmpty(t, doc.Content)
	return doc.Content[0]
}

var person = map[string]json.RawMessage{"Person": json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)}

func TestCompile(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"picoschema",
			"name: string, the name\nage?: integer\ntags(array): string\naddr(object, where):\n  city: string\ntone?(enum): [formal, casual]\n(*): number",
			`{"type":"object","properties":{"name":{"type":"string","description":"the name"},"age":{"type":["integer","null"]},"tags":{"type":"array","items":{"type":"string"}},"addr":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false,"description":"where"},"tone":{"enum":["formal","casual",null]}},"required":["name","tags","addr"],"additionalProperties":{"type":"number"}}`},
		{"json schema kept as written", "type: object\nproperties: {b: {type: string}, a: {type: integer}}",
			`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}}`},
		{"properties without a type", "properties: {a: {type: string}}",
			`{"properties":{"a":{"type":"string"}},"type":"object"}`},
		{"a scalar", "string, a name", `{"type":"string","description":"a name"}`},
		{"any", "any", `{}`},
		{"a named schema, described", "Person, who", `{"type":"object","properties":{"name":{"type":"string"}},"description":"who"}`},
		{"a named property", "a: Person", `{"type":"object","properties":{"a":{"type":"object","properties":{"name":{"type":"string"}}}},"required":["a"],"additionalProperties":false}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			js, err := schema.Compile(node(t, tc.src), person)
			require.NoError(t, err, tc.src)
			assert.Equal(t, tc.want, string(js))
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct{ name, src, compile, parse string }{
		{"a list", "[a]",
			"1:1: a schema is a type name or a mapping of properties, not a list",
			"1:1: a schema must be a type name or a mapping"},
		{"unknown type", "a: string\nb: strng",
			`2:4: unknown type "strng"; expected string, number, integer, boolean, null, any, or a schema registered with engine.Schemas`,
			`2:4: unknown type "strng"; expected string, number, integer, boolean, object, array, null or any`},
		{"unknown kind", "a(list): string",
			`1:1: unknown Picoschema kind "list"; expected array, object or enum`,
			`1:1: unknown Picoschema kind "list"; expected array, object or enum`},
		{"enum not a list", "a(enum): x",
			"1:10: a(enum) takes a list of values",
			"1:10: a(enum) takes a list of values"},
		{"no name", "?: string",
			"1:1: a property needs a name",
			"1:1: a property needs a name"},
		{"a merge key", "type: object\nproperties:\n  <<: {a: {type: string}}",
			"1:1: the schema cannot be written as JSON",
			"1:1: the schema cannot be written as JSON"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var se *schema.Error
			_, err := schema.Compile(node(t, tc.src), nil)
			require.ErrorAs(t, err, &se)
			assert.EqualError(t, err, tc.compile)
			_, _, err = schema.Parse(node(t, tc.src), nil)
			require.ErrorAs(t, err, &se)
			assert.EqualError(t, err, tc.parse)
		})
	}
}

func TestParse(t *testing.T) {
	s, js, err := schema.Parse(node(t, "name: string, who\nage?: integer\ntags(array): string\ntone(enum): [a, b]"), nil)
	require.NoError(t, err)
	assert.Equal(t, `{"type":"object","properties":{"name":{"type":"string","description":"who"},"age":{"type":["integer","null"]},"tags":{"type":"array","items":{"type":"string"}},"tone":{"enum":["a","b"]}},"required":["name","tags","tone"],"additionalProperties":false}`, string(js))
	assert.Equal(t, "object", s.Type)
	assert.Equal(t, []string{"name", "age", "tags", "tone"}, s.Order)
	assert.Equal(t, []string{"name", "tags", "tone"}, s.Required)
	assert.Equal(t, &schema.Schema{Type: "string", Description: "who", Line: 1, Col: 1}, s.Properties["name"])
	assert.Equal(t, &schema.Schema{Type: "integer", Nullable: true, Line: 2, Col: 1}, s.Properties["age"])
	assert.Equal(t, "array", s.Properties["tags"].Type)
	assert.Equal(t, &schema.Schema{Type: "string", Line: 3, Col: 14}, s.Properties["tags"].Items)
	assert.Equal(t, []any{"a", "b"}, s.Properties["tone"].Enum)

	// A named schema is read from its compiled JSON Schema.
	s, _, err = schema.Parse(node(t, "who: Person"), person)
	require.NoError(t, err)
	assert.Equal(t, "object", s.Properties["who"].Type)
	assert.Equal(t, []string{"name"}, s.Properties["who"].Order)
}

func TestCheck(t *testing.T) {
	s, _, err := schema.Parse(node(t, "name: string\nn?: number\ni?: integer\ntags(array): string\naddr(object):\n  city: string\ntone(enum): [formal, casual]"), nil)
	require.NoError(t, err)
	ok := func() map[string]any {
		return map[string]any{"name": "a", "tags": []any{"x"}, "addr": map[string]any{"city": "c"}, "tone": "formal"}
	}
	tests := []struct {
		name   string
		change func(map[string]any)
		want   string
	}{
		{"ok", func(map[string]any) {}, ""},
		{"optional nil", func(m map[string]any) { m["n"] = nil }, ""},
		{"integer as float", func(m map[string]any) { m["i"] = 2.0 }, ""},
		{"integer with a fraction", func(m map[string]any) { m["i"] = 2.5 }, `input "i" must be an integer, not number`},
		{"missing", func(m map[string]any) { delete(m, "name") }, `input "name" is required but not supplied`},
		{"required nil", func(m map[string]any) { m["name"] = nil }, `input "name" must be a string, not null`},
		{"wrong type", func(m map[string]any) { m["name"] = 3 }, `input "name" must be a string, not number`},
		{"array item", func(m map[string]any) { m["tags"] = []any{"x", true} }, `input "tags[1]" must be a string, not boolean`},
		{"nested", func(m map[string]any) { m["addr"] = map[string]any{} }, `input "addr.city" is required but not supplied`},
		{"enum", func(m map[string]any) { m["tone"] = "rude" }, `input "tone" must be one of ["formal","casual"], not "rude"`},
		{"object", func(m map[string]any) { m["addr"] = []any{} }, `input "addr" must be an object, not array`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := ok()
			tc.change(m)
			err := s.Check("", m)
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			var ie *schema.InputError
			require.ErrorAs(t, err, &ie)
			assert.EqualError(t, err, tc.want)
		})
	}
}
