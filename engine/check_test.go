package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
	"github.com/rolemark/rolemark/roleparse"
)

const inputHeader = "---\ninput:\n  schema:\n    name: string\n    items(array): string\n---\n"

// problems returns the lines of Check's error, or nil.
func problems(t *testing.T, fsys fstest.MapFS, name string) []string {
	t.Helper()
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	tpl, err := set.ParseFS(fsys, name)
	require.NoError(t, err)
	err = tpl.Check(context.Background())
	if err == nil {
		return nil
	}
	var ee *engine.Error
	require.ErrorAs(t, err, &ee, "every problem is an *engine.Error")
	return strings.Split(err.Error(), "\n")
}

func TestCheck(t *testing.T) {
	role := `unknown role "wizard"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)`
	tests := []struct {
		name string
		src  string
		want []string
	}{
		// good templates: loop, with and set locals are not variables
		{"t.hbs", inputHeader + "{{#user}}{{name}}{{#each items}}{{this}}{{/each}}{{/user}}", nil},
		{"t.j2", inputHeader + "{{ role(\"user\") }}{{ name }}{% for it in items %}{{ it }}{% endfor %}{% set n = 2 %}{{ n }}", nil},
		{"t.tmpl", inputHeader + "{{role \"user\"}}{{.name}}{{range .items}}{{.}}{{end}}{{with .name}}{{.}}{{end}}{{$x := 1}}{{$x}}", nil},
		// every undeclared variable, once, at its first use, also in a
		// branch a render does not take
		{"t.hbs", inputHeader + "{{#user}}{{nmae}} {{nmae}}{{#if name}}{{else}}{{itmes}}{{/if}}{{/user}}", []string{
			`t.hbs:7:12: variable "nmae" is not declared in the input schema (declared: name, items)`,
			`t.hbs:7:49: variable "itmes" is not declared in the input schema (declared: name, items)`}},
		{"t.j2", inputHeader + "{{ role(\"user\") }}{{ nmae }}\n{% if name %}{% else %}{{ itmes }}{% endif %}", []string{
			`t.j2:7:22: variable "nmae" is not declared in the input schema (declared: name, items)`,
			`t.j2:8:27: variable "itmes" is not declared in the input schema (declared: name, items)`}},
		{"t.tmpl", inputHeader + "{{role \"user\"}}{{.nmae}}\n{{if .name}}{{else}}{{$.itmes}}{{end}}", []string{
			`t.tmpl:7:18: variable "nmae" is not declared in the input schema (declared: name, items)`,
			`t.tmpl:8:24: variable "itmes" is not declared in the input schema (declared: name, items)`}},
		// the pongo2 engine reads pongo2's tree as the jinja engine does
		{"t.pongo2", inputHeader + "{{ role(\"user\") }}{{ nmae }}\n{% if name %}{% else %}{{ itmes }}{% endif %}", []string{
			`t.pongo2:7:22: variable "nmae" is not declared in the input schema (declared: name, items)`,
			`t.pongo2:8:27: variable "itmes" is not declared in the input schema (declared: name, items)`}},
		// a name only tested (or given a default) is not required, but
		// it is read: not declared, it is reported, in every engine
		{"t.hbs", inputHeader + "{{#user}}{{#if nmae}}x{{/if}}{{#unless itmes}}y{{/unless}}{{/user}}", []string{
			`t.hbs:7:16: variable "nmae" is not declared in the input schema (declared: name, items)`,
			`t.hbs:7:40: variable "itmes" is not declared in the input schema (declared: name, items)`}},
		{"t.pongo2", inputHeader + "{{ role(\"user\") }}{% if nmae %}x{% endif %}{{ nmea|default:\"x\" }}", []string{
			`t.pongo2:7:25: variable "nmae" is not declared in the input schema (declared: name, items)`,
			`t.pongo2:7:47: variable "nmea" is not declared in the input schema (declared: name, items)`}},
		{"t.j2", inputHeader + "{{ role(\"user\") }}{% if nmae %}x{% endif %}{{ nmea|default(\"x\") }}", []string{
			`t.j2:7:25: variable "nmae" is not declared in the input schema (declared: name, items)`,
			`t.j2:7:47: variable "nmea" is not declared in the input schema (declared: name, items)`}},
		{"t.tmpl", inputHeader + "{{role \"user\"}}{{if .nmae}}x{{end}}", []string{
			`t.tmpl:7:21: variable "nmae" is not declared in the input schema (declared: name, items)`}},
		// a function nothing provides
		{"t.j2", "{{ role(\"user\") }}{{ shout(\"hi\") }}", []string{`t.j2:1:22: unknown function "shout"`}},
		{"t.pongo2", "{{ role(\"user\") }}{{ shout(\"hi\") }}", []string{`t.pongo2:1:22: unknown function "shout"`}},
		// markup problems at the place in the template, in every style,
		// with synthetic data for inputs that have no default
		{"t.hbs", inputHeader + "{{#user}}{{name}}{{/user}}\n{{role \"wizard\"}}x", []string{"t.hbs:8:1: rendered markup: " + role}},
		{"t.j2", inputHeader + "{{ role(\"user\") }}{{ name }}\n{% message \"wizard\" %}x{% endmessage %}", []string{"t.j2:8:1: rendered markup: " + role}},
		{"t.pongo2", inputHeader + "{{ role(\"user\") }}{{ name }}\n{% message \"wizard\" %}x{% endmessage %}", []string{"t.pongo2:8:1: rendered markup: " + role}},
		{"t.tmpl", inputHeader + "{{role \"user\"}}{{.name}} and {{.name}}\n  <message role=\"wizard\">{{.name}}</message>", []string{"t.tmpl:8:17: rendered markup: " + role}},
		{"t.tmpl", inputHeader + "{{role \"assistant\"}}<tool_call id=\"1\" name=\"f\">{\"a\": {{.name}}}</tool_call>", []string{
			`t.tmpl:7:54: rendered markup: <tool_call name="f"> arguments "{\"a\": user}" are not valid JSON: invalid character 'u' looking for beginning of value`}},
		// a role taken from a string input is the caller's to choose: the
		// stand-in string is a role, so no unknown role is reported
		{"t.hbs", "{{role who}}hi", nil},
		{"t.j2", "{{ role(who) }}hi{% message who %}x{% endmessage %}", nil},
		{"t.pongo2", "{{ role(who) }}hi", nil},
		{"t.tmpl", "{{role .who}}hi{{message .who \"x\"}}<message role=\"{{.who}}\">y</message>", nil},
		{"t.hbs", "---\ninput:\n  schema:\n    who: string\n---\n{{#message role=who}}hi{{/message}}", nil},
		// text that looks like a tag but is not one stays in the text: a
		// problem at its place in the file, in every engine
		{"t.hbs", inputHeader + "<message role=\"assistant\">{{name}}</mesage>", []string{
			`t.hbs:7:35: "</mesage" is not a markup tag and would stay in the message's text; did you mean "</message"?`}},
		{"t.j2", inputHeader + "{{ role(\"user\") }}{{ name }}\n<tool_cal id=\"1\" name=\"f\">{}</tool_call>", []string{
			`t.j2:8:1: "<tool_cal" is not a markup tag and would stay in the message's text; did you mean "<tool_call"?`,
			`t.j2:8:29: rendered markup: </tool_call> closes no <tool_call> (the open element is <message> opened at line 7, col 1)`}},
		{"t.tmpl", "<mesage role=\"user\">{{.q}}", []string{
			`t.tmpl:1:1: "<mesage" is not a markup tag and would stay in the message's text; did you mean "<message"?`}},
		// without a schema, only markup problems count
		{"t.hbs", "{{#user}}{{anything}}{{/user}}", nil},
		// but a template that reads no input fails on its own: a call
		// with the wrong arguments is reported in every engine
		{"t.j2", "{{ role(\"user\") }}hi\n{{ role() }}", []string{`t.j2:2:4: TypeError: role() missing required argument: 'role'`}},
		{"t.j2", "{% message %}x{% endmessage %}", []string{`t.j2:1:4: TypeError: message() missing required argument: 'role'`}},
		{"t.pongo2", "{{ role(\"user\", \"x\", \"y\", \"z\") }}hi", []string{`t.pongo2:1:4: role takes a role and optionally a name and a tool call id, not 4 arguments`}},
		{"t.tmpl", "{{message}}", []string{`t.tmpl:1:3: executing "t.tmpl" at <message>: wrong number of args for message: want at least 1 got 0`}},
		{"t.tmpl", "{{role \"user\" \"x\"}}hi", []string{`t.tmpl:1:3: executing "t.tmpl" at <role "user" "x">: error calling role: role takes attributes written (attr "name" VALUE) after the role; found the string "x"`}},
		{"t.hbs", "{{#user}}{{anything}}{{/user}}<message role=\"wizard\">", []string{"t.hbs:1:45: rendered markup: " + role}},
		// a schema that takes names it does not list declares every name,
		// and a default of one is no mistake
		{"t.prompt", "---\ninput:\n  schema:\n    name: string\n    (*): any\n  default:\n    extra: 3\n---\n{{role \"user\"}}{{name}} {{extra}}", nil},
		{"t.j2", "---\ninput:\n  schema:\n    type: object\n    additionalProperties: true\n    properties:\n      name: {type: string}\n  default:\n    extra: 3\n---\n{{ role(\"user\") }}{{ name }} {{ extra }}", nil},
		{"t.j2", "---\ninput:\n  schema:\n    type: object\n    additionalProperties: false\n    properties:\n      name: {type: string}\n  default:\n    extra: 3\n---\n{{ role(\"user\") }}{{ name }} {{ extra }}", []string{
			`t.j2:9:5: front matter: input.default "extra" is not an input of the schema (declared: name)`,
			`t.j2:11:33: variable "extra" is not declared in the input schema (declared: name)`}},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprint(i, tc.name), func(t *testing.T) {
			got := problems(t, fstest.MapFS{tc.name: {Data: []byte(tc.src)}}, tc.name)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestMarkupErrorInTemplateCoordinates: a render's markup error names the
// place in the template that wrote it, also when the line holds values
// (which the rendered text cannot be searched for) and for markers and
// blocks whose tags the template never spells out.
func TestMarkupErrorInTemplateCoordinates(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	vars := map[string]any{"name": "Ada", "r": "boss"}
	tests := []struct{ name, src, want string }{
		{"t.hbs", "{{#system}}x{{/system}}\n<message role=\"user\">{{name}}</message><message role=\"x\" foo=\"1\">{{name}}</message>", "t.hbs:2:54"},
		{"t.j2", "{{ role(\"user\") }}{{ name }}\n  {{ role(r) }}{{ name }}", "t.j2:2:3"},
		{"t.pongo2", "{# a comment #}{{ role(\"user\") }}{{ name }}\n  {{ role(r) }}{{ name }}", "t.pongo2:2:3"},
		{"t.tmpl", "{{role \"user\"}}{{.name}}\n{{if .name}}{{.name}}{{end}}{{message .r .name}}", "t.tmpl:2:29"},
		{"t.hbs", "<message role=\"user\">{{! a comment }} {{!-- {{no}} --}}\\{{not}} {{{name}}} <message role=\"wizard\">", "t.hbs:1:90"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tpl, err := set.Parse("", tc.name, "---\nengine: "+map[string]string{"t.hbs": "handlebars", "t.j2": "jinja", "t.pongo2": "pongo2", "t.tmpl": "gotmpl"}[tc.name]+"\n---\n"+tc.src)
			require.NoError(t, err)
			_, err = tpl.Messages(context.Background(), vars)
			require.Error(t, err)
			var pe *roleparse.Error
			require.True(t, errors.As(err, &pe))
			var ee *engine.Error
			require.ErrorAs(t, err, &ee)
			// the front matter is three lines
			assert.Equal(t, tc.want, fmt.Sprintf("%s:%d:%d", ee.Template, ee.Line-3, ee.Col), err.Error())
		})
	}
}
