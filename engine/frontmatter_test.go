package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/schema"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

func TestFrontMatter(t *testing.T) {
	src := `# Copyright header lines may come first.

---
name: bank
description: A bank manager
model: gpt-4o-mini
config:
  temperature: 0.2
  max_tokens: 100
input:
  schema:
    customer: string, the customer's name
    age?: integer
  default:
    customer: guest
output:
  format: text
tools:
  - name: get_rate
    description: Exchange rate of a currency
    parameters: {type: object, properties: {currency: {type: string}}}
  - type: function
    function: {name: noop}
x-team: payments
---
{{role "user"}}Hello from {{.customer}} on line 24`
	tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "bank.tmpl", src)
	require.NoError(t, err)
	fm := tpl.FrontMatter()
	require.NotNil(t, fm)
	assert.Equal(t, "bank", fm.Name)
	assert.Equal(t, "A bank manager", fm.Description)
	assert.Equal(t, "gpt-4o-mini", fm.Model)
	assert.Equal(t, map[string]any{"temperature": 0.2, "max_tokens": 100}, fm.Config)
	assert.Equal(t, map[string]any{"customer": "guest"}, fm.Defaults)
	assert.Equal(t, map[string]any{"format": "text"}, fm.Output)
	assert.Nil(t, fm.Ext, "a key without a dot is not in Ext, as in Dotprompt")
	assert.Equal(t, "payments", fm.Raw["x-team"])
	assert.Equal(t, []string{"customer", "age"}, fm.Input.Order)
	assert.Equal(t, []string{"customer"}, fm.Input.Required)
	tools, err := json.Marshal(fm.Tools)
	require.NoError(t, err)
	assert.JSONEq(t, `[{"type":"function","function":{"name":"get_rate","description":"Exchange rate of a currency","parameters":{"type":"object","properties":{"currency":{"type":"string"}}}}},{"type":"function","function":{"name":"noop"}}]`, string(tools))

	msgs, err := tpl.Messages(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "Hello from guest on line 24")}, msgs)

	_, err = tpl.Messages(context.Background(), map[string]any{"customer": "ann", "age": "x"})
	var ie *schema.InputError
	require.ErrorAs(t, err, &ie)
	assert.EqualError(t, err, `bank.tmpl:13:5: input "age" must be an integer, not string`)
}

func TestFrontMatterLinesKept(t *testing.T) {
	src := "---\nname: x\n---\n{{role \"user\"}}\n{{.nope}}"
	_, err := mustParse(t, src).Messages(context.Background(), map[string]any{})
	assert.EqualError(t, err, `t:5:3: variable "nope" is not supplied`, "the line counts the front matter")
}

func mustParse(t *testing.T, src string) *engine.Template {
	t.Helper()
	tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "t", src)
	require.NoError(t, err)
	return tpl
}

func TestFrontMatterErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"bad yaml", "---\nname: [unclosed\n---\nx", "t:2:7: front matter: did not find expected ',' or ']'"},
		// YAML problems at their own place: the YAML library gives a line,
		// not always the problem's, and no column
		{"unclosed quote", "---\nmodel: \"gpt\n---\nx", "t:2:8: front matter: found unexpected end of stream"},
		{"unclosed quote later", "---\nmodel: gpt\ndescription: 'a\nb: 2\n---\nx", "t:3:14: front matter: found unexpected end of stream"},
		{"two colons", "---\n😀: 1\nmodel: a: b\n---\nx", "t:3:9: front matter: mapping values are not allowed in this context"},
		{"two colons on the first line", "---\nmodel: a: b\n---\nx", "t:2:9: front matter: mapping values are not allowed in this context"},
		{"flow mapping never closed", "---\nmodel: gpt\ninput: {schema: [name\n---\nx", "t:3:17: front matter: did not find expected ',' or ']'"},
		{"bad indentation", "---\ninput:\n  schema: {}\n default: {}\n---\nx", "t:4:2: front matter: did not find expected key"},
		{"a tab", "---\ninput:\n\tschema: {}\n---\nx", "t:3:1: front matter: found character that cannot start any token"},
		{"a key twice", "---\nmodel: a\nconfig: {t: 1}\nmodel: b\n---\nx", `t:4:1: front matter: key "model" is already defined at line 2`},
		{"a nested key twice", "---\nmodel: a\nconfig: {t: 1, 😀: 1, t: 2}\n---\nx", `t:3:22: front matter: key "t" is already defined at line 3`},
		{"unknown anchor", "---\nmodel: gpt\nconfig: *base\n---\nx", "t:3:9: front matter: unknown anchor 'base' referenced"},
		{"not a mapping", "---\n- a\n---\nx", "t:2:1: front matter: expected a mapping of keys to values"},
		{"model not a string", "---\nmodel: {a: 1}\n---\nx", "t:2:8: front matter: model must be a string"},
		{"config not a mapping", "---\nconfig: 3\n---\nx", "t:2:9: front matter: config must be a mapping of model parameters"},
		{"unknown input key", "---\ninput:\n  schemas: {}\n---\nx", `t:3:3: front matter: input has no key "schemas"; expected schema or default`},
		{"unknown type", "---\ninput:\n  schema:\n    a: strng\n---\nx", `t:4:8: front matter: unknown type "strng"; expected string, number, integer, boolean, object, array, null or any`},
		{"tools by name", "---\ntools: [get_rate]\n---\nx", `t:2:9: front matter: unknown tool "get_rate": no tools are registered (engine.Tools; rolemark --tools FILE)`},
		{"tool neither name nor mapping", "---\ntools: [[a]]\n---\nx", "t:2:9: front matter: a tool must be the name of a registered tool or a mapping with name, description and parameters"},
		{"tools not a list", "---\ntools: get_rate\n---\nx", "t:2:8: front matter: tools must be a list of tool names or definitions"},
		{"toolDefs by name", "---\ntoolDefs: [get_rate]\n---\nx", "t:2:12: front matter: a tool definition must be a mapping with name, description and inputSchema"},
		{"tool without name", "---\ntools: [{description: x}]\n---\nx", "t:2:9: front matter: tool: chat: tool has no name"},
		{"unknown engine", "---\nengine: liquid\n---\nx", `t:2:9: front matter: unknown engine "liquid"; known: gotmpl`},
		{"default of the wrong type", "---\ninput:\n  schema:\n    age: integer\n  default:\n    age: old\n---\nx", `t:6:10: front matter: input.default "age" must be an integer, not string`},
		{"default before schema", "---\ninput:\n  default: {tags: [a, 2]}\n  schema:\n    tags(array): string\n---\nx", `t:3:19: front matter: input.default "tags[1]" must be a string, not number`},
		{"default not a mapping", "---\ninput:\n  default: [a]\n---\nx", `t:3:12: front matter: input.default must be a mapping of variable names to values`},
		{"name not a string", "---\nname: [a]\n---\nx", `t:2:7: front matter: name must be a string`},
		{"output not a mapping", "---\noutput: json\n---\nx", `t:2:9: front matter: output must be a mapping`},
		{"input not a mapping", "---\ninput: 3\n---\nx", `t:2:8: front matter: input must be a mapping with schema and default`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := engine.NewSet(gotmpl.New()).Parse("", "t", tc.src)
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			var ee *engine.Error
			assert.ErrorAs(t, err, &ee)
		})
	}
}

func TestOptionalInputWithoutDefault(t *testing.T) {
	tpl := mustParse(t, "---\ninput:\n  schema:\n    a?: string\n---\n{{role \"user\"}}x{{if .a}}={{.a}}{{end}}")
	msgs, err := tpl.Messages(context.Background(), nil)
	require.NoError(t, err, "a declared optional input may be left out")
	assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "x")}, msgs)
	msgs, err = tpl.Messages(context.Background(), map[string]any{"a": "1"})
	require.NoError(t, err)
	assert.Equal(t, []chat.Message{chat.Text(chat.RoleUser, "x=1")}, msgs)
}

func TestInputs(t *testing.T) {
	pico := "---\ninput:\n  schema:\n    name: string\n    n?: number\n    tags(array): string\n    addr(object):\n      city: string\n    tone(enum, how to speak): [formal, casual]\n---\n{{role \"user\"}}hi"
	jsonSchema := "---\ninput:\n  schema:\n    type: object\n    properties:\n      name: {type: string}\n      n: {type: [number, \"null\"]}\n    required: [name]\n---\n{{role \"user\"}}hi"
	tests := []struct {
		name string
		src  string
		vars map[string]any
		want string // error, or "" for none
	}{
		{"pico ok", pico, map[string]any{"name": "a", "tags": []string{"x"}, "addr": map[string]any{"city": "c"}, "tone": "formal"}, ""},
		{"pico missing required", pico, map[string]any{"tags": []any{}, "addr": map[string]any{"city": "c"}, "tone": "formal"}, `t:4:5: input "name" is required but not supplied`},
		{"pico wrong type", pico, map[string]any{"name": 3, "tags": []any{}, "addr": map[string]any{"city": "c"}, "tone": "formal"}, `t:4:5: input "name" must be a string, not number`},
		{"pico optional nil", pico, map[string]any{"name": "a", "n": nil, "tags": []any{}, "addr": map[string]any{"city": "c"}, "tone": "casual"}, ""},
		{"pico array items", pico, map[string]any{"name": "a", "tags": []any{"x", 2}, "addr": map[string]any{"city": "c"}, "tone": "formal"}, `t:6:5: input "tags[1]" must be a string, not number`},
		{"pico nested required", pico, map[string]any{"name": "a", "tags": []any{}, "addr": map[string]any{}, "tone": "formal"}, `t:7:5: input "addr.city" is required but not supplied`},
		{"pico enum", pico, map[string]any{"name": "a", "tags": []any{}, "addr": map[string]any{"city": "c"}, "tone": "rude"}, `t:9:5: input "tone" must be one of ["formal","casual"], not "rude"`},
		{"json schema ok", jsonSchema, map[string]any{"name": "a", "n": 1.5}, ""},
		{"json schema nullable", jsonSchema, map[string]any{"name": "a", "n": nil}, ""},
		{"json schema missing", jsonSchema, map[string]any{}, `t:6:13: input "name" is required but not supplied`},
		{"json schema wrong type", jsonSchema, map[string]any{"name": "a", "n": "1"}, `t:7:10: input "n" must be a number, not string`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mustParse(t, tc.src).Messages(context.Background(), tc.vars)
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.EqualError(t, err, tc.want)
		})
	}
}

// TestFrontMatterToolParametersOrder requires a tool's parameters in the
// order the front matter writes them: a JSON Schema reads type first, and
// the ReAct instruction prints the parameters as they come.
func TestFrontMatterToolParametersOrder(t *testing.T) {
	tests := []struct {
		name  string
		tools string
		want  string
	}{
		{"block mapping",
			"  - name: f\n    parameters:\n      type: object\n      properties:\n        zip: {type: string}\n        city: {type: string, description: \"<b> & c\"}\n      required: [zip, city]\n",
			`{"type":"object","properties":{"zip":{"type":"string"},"city":{"type":"string","description":"<b> & c"}},"required":["zip","city"]}`},
		{"flow mapping, function form",
			"  - type: function\n    function: {name: f, parameters: {type: object, properties: {n: {type: integer, minimum: 1, default: 2.5}}, additionalProperties: false}}\n",
			`{"type":"object","properties":{"n":{"type":"integer","minimum":1,"default":2.5}},"additionalProperties":false}`},
		{"Dotprompt inputSchema",
			"  - name: f\n    inputSchema: {type: object, properties: {b: {type: \"null\"}, a: {enum: [x, 1, true, null]}}}\n",
			`{"type":"object","properties":{"b":{"type":"null"},"a":{"enum":["x",1,true,null]}}}`},
		{"anchor and alias",
			"  - name: f\n    parameters: {type: object, properties: {s: &s {type: string, maxLength: 3}, t: *s}}\n",
			`{"type":"object","properties":{"s":{"type":"string","maxLength":3},"t":{"type":"string","maxLength":3}}}`},
		{"Qwen's list of parameters",
			"  - name: f\n    parameters:\n      - {name: q, required: true, schema: {type: string}}\n",
			`[{"name":"q","required":true,"schema":{"type":"string"}}]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "t.tmpl", "---\ntools:\n"+tc.tools+"---\nx")
			require.NoError(t, err)
			require.Len(t, tpl.FrontMatter().Tools, 1)
			assert.Equal(t, "f", tpl.FrontMatter().Tools[0].Name)
			assert.Equal(t, tc.want, string(tpl.FrontMatter().Tools[0].Parameters))
		})
	}
}

// TestFrontMatterExtNestsAsDotprompt checks Ext against what npm dotprompt
// 1.1.2's parse gives for the same front matter (its ext, printed with
// JSON.stringify): keys with a dot split at the last dot, other keys left
// to Raw.
func TestFrontMatterExtNestsAsDotprompt(t *testing.T) {
	src := "---\nmodel: m\nx-team: payments\next1.sub.foo: x\next1.bar: 2\na.b: {c: [1, 2]}\n.lead: 1\ntrail.: 3\n---\nHello"
	tpl, err := engine.NewSet(gotmpl.New()).Parse("gotmpl", "ext.tmpl", src)
	require.NoError(t, err)
	got, err := json.Marshal(tpl.FrontMatter().Ext)
	require.NoError(t, err)
	assert.JSONEq(t, `{"ext1.sub":{"foo":"x"},"ext1":{"bar":2},"a":{"b":{"c":[1,2]}},"":{"lead":1},"trail":{"":3}}`, string(got))
}

// TestFrontMatterNeverClosed: a file whose opening --- has no closing ---
// has no front matter, and the whole file is its template, as Dotprompt
// reads it (its FRONTMATTER_AND_BODY_REGEX does not match; parseDocument
// returns the source as the template). The same in every engine.
func TestFrontMatterNeverClosed(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	for _, tc := range []struct{ engine, name, src, want string }{
		{"handlebars", "a.prompt", "---\nmodel: x\nHello {{name}}\n", "---\nmodel: x\nHello Bob\n"},
		{"handlebars", "a.hbs", "---\nmodel: x\nHello {{name}}\n", "---\nmodel: x\nHello Bob"},
		{"jinja", "a.j2", "---\nmodel: x\nHello {{ name }}\n", "---\nmodel: x\nHello Bob"},
		{"pongo2", "a.pongo2", "---\nmodel: x\nHello {{ name }}\n", "---\nmodel: x\nHello Bob"},
		{"gotmpl", "a.tmpl", "---\nmodel: x\nHello {{.name}}\n", "---\nmodel: x\nHello Bob"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.Parse(tc.engine, tc.name, tc.src)
			require.NoError(t, err)
			fm := tpl.FrontMatter()
			if fm != nil {
				assert.Empty(t, fm.Model, "no front matter is read")
			}
			msgs, err := tpl.Messages(context.Background(), map[string]any{"name": "Bob"})
			require.NoError(t, err)
			require.Len(t, msgs, 1)
			assert.Equal(t, chat.RoleUser, msgs[0].Role)
			assert.Equal(t, tc.want, msgs[0].Text())
		})
	}
}

// TestFrontMatterErrorFarDown: a YAML problem far down a long front matter
// is placed at its own character too: the search from the start gives up
// after a budget and goes on near the line the YAML library names.
func TestFrontMatterErrorFarDown(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\n")
	for i := range 300 {
		fmt.Fprintf(&b, "key%d: value number %d with some text\n", i, i)
	}
	b.WriteString("bad: a: b\n---\nx")
	_, err := engine.NewSet(handlebars.New()).Parse("handlebars", "t", b.String())
	require.EqualError(t, err, "t:302:7: front matter: mapping values are not allowed in this context")
}

// TestFrontMatterErrorPastLimit: a YAML problem in a front matter of more
// than 16 KB gets its own column too, not the line's first non-blank one;
// a problem the YAML library reports after its own line (a quote never
// closed, reported at the end) keeps the line the library names.
func TestFrontMatterErrorPastLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\nmodel: gpt\ndescription: |\n")
	for i := range 500 {
		fmt.Fprintf(&b, "  line %d of a long description that goes on\n", i)
	}
	head := b.String() // 503 lines
	require.Greater(t, len(head), 16<<10)
	tests := []struct{ tail, want string }{
		{"input: {schema: [name\n", "t:504:17: front matter: did not find expected ',' or ']'"},
		{"config:\n  temperature: a: b\n", "t:505:17: front matter: mapping values are not allowed in this context"},
		{"config:\n  temperature: 1\n   top: 2\n", "t:506:7: front matter: mapping values are not allowed in this context"},
	}
	for _, tc := range tests {
		_, err := engine.NewSet(handlebars.New()).Parse("handlebars", "t", head+tc.tail+"---\nx")
		require.EqualError(t, err, tc.want, tc.tail)
	}
}
