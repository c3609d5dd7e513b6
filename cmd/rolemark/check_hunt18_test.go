package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hunt18Cases are check18's hunt: prompts in every engine and role style,
// broken and tricky-but-valid, each in a file of its own (after huntHeader
// when header is set), and every line rolemark check prints for it (none
// for a valid one). They hold what the hunt fixed: a <message> opened
// inside another message (a role block in a role block) placed at its
// opening; each later mistake of the markup reported past the first (a
// bad role does not hide bad tool-call JSON); markup mistakes in .prompt
// files placed in the file; a custom output.format accepted, a misspelled
// one named; keys of an object whose schema has a (*) wildcard read
// without a report; a history placed inside a message reported at its
// call.
var hunt18Cases = []struct {
	file   string
	header bool
	body   string
	want   []string
}{
	{"d01_custom_format.prompt", false, "---\nmodel: googleai/gemini-2.0-flash\noutput:\n  format: csv\n---\n{{role \"user\"}}List three colours.\n", nil},
	{"d02_format_upper.prompt", false, "---\noutput:\n  format: JSON\n---\n{{role \"user\"}}List three colours.\n", []string{"3:11: front matter: output.format \"JSON\" is none of json, text, media, array, enum, jsonl; did you mean \"json\"?"}},
	{"d03_wildcard.prompt", false, "---\ninput:\n  schema:\n    (*): string\n---\n{{role \"user\"}}{{foo}} {{bar}}\n", nil},
	{"d04_nested_wildcard.prompt", false, "---\ninput:\n  schema:\n    profile(object):\n      (*): string\n---\n{{role \"user\"}}{{profile.city}}\n", nil},
	{"d05_media_input.prompt", false, "---\ninput:\n  schema:\n    photo: string\n---\n{{role \"user\"}}Describe {{media url=photo}}\n", nil},
	{"d06_enum.prompt", false, "---\ninput:\n  schema:\n    mood(enum, the mood): [HAPPY, SAD]\n    n?: integer\n---\n{{role \"user\"}}{{mood}} {{#if n}}{{n}}{{/if}}\n", nil},
	{"d07_each_blockparam.prompt", false, "---\ninput:\n  schema:\n    items(array): string\n    meta(object):\n      k: string\n---\n{{role \"user\"}}{{#each items as |it i|}}{{i}}:{{it}}{{/each}}{{#each meta}}{{@key}}={{this}}{{/each}}{{json items}}{{section \"x\"}}\n", nil},
	{"d08_default_typed.prompt", false, "---\ninput:\n  schema:\n    n: integer\n  default:\n    n: 3\n---\n{{role \"user\"}}{{n}}\n", nil},
	{"d09_any_wildcard_default.prompt", false, "---\ninput:\n  schema:\n    name: string\n    (*): any\n  default:\n    extra: 1\n---\n{{role \"user\"}}{{name}}{{extra}}\n", nil},
	{"d10_media_outside_nested.prompt", false, "---\ninput:\n  schema:\n    pic: string\n---\n{{#user}}look {{media url=pic}}{{/user}}{{#system}}{{#user}}x{{/user}}{{/system}}\n", []string{"6:52: rendered markup: <message role=\"user\"> opens inside another message and closes it, so the </message> meant for that one closes no message; messages do not nest: close the one before first, or move this one out"}},
	{"d11_role_history.prompt", false, "---\ninput:\n  schema:\n    q: string\n---\n{{role \"system\"}}Rules\n{{history}}\n{{role \"user\"}}{{q}}\n", nil},
	{"d12_jsonschema.prompt", false, "---\ninput:\n  schema:\n    type: object\n    properties:\n      q: {type: string}\n    additionalProperties: true\n---\n{{role \"user\"}}{{q}} {{other}}\n", nil},
	{"d13_json_format_valid.prompt", false, "---\noutput:\n  format: json\n  schema:\n    title: string\n---\n{{role \"user\"}}Go\n", nil},
	{"d14_optional_obj.prompt", false, "---\ninput:\n  schema:\n    user?(object):\n      first: string\n---\n{{role \"user\"}}{{user.first}}\n", nil},
	{"d15_nested_wildcard.hbs", false, "---\ninput:\n  schema:\n    items(array):\n      (*): string\n    profile(object):\n      (*): string\n---\n{{role \"user\"}}{{profile.city}} {{#each items}}{{this.x}}{{/each}}\n", nil},
	{"d15_nested_wildcard.j2", false, "---\ninput:\n  schema:\n    items(array):\n      (*): string\n    profile(object):\n      (*): string\n---\n{{ role(\"user\") }}{{ profile.city }}\n", nil},
	{"d15_nested_wildcard.pongo2", false, "---\ninput:\n  schema:\n    items(array):\n      (*): string\n    profile(object):\n      (*): string\n---\n{{ role(\"user\") }}{{ profile.city }}\n", nil},
	{"d15_nested_wildcard.tmpl", false, "---\ninput:\n  schema:\n    items(array):\n      (*): string\n    profile(object):\n      (*): string\n---\n{{role \"user\"}}{{.profile.city}}\n", nil},
	{"d16_closed_nested.hbs", false, "---\ninput:\n  schema:\n    profile(object):\n      city: string\n---\n{{role \"user\"}}{{profile.ctiy}}\n", []string{"7:18: variable \"profile.ctiy\" is not supplied"}},
	{"g01_valid.tmpl", true, "{{$x := .name}}{{define \"line\"}}- {{.}}{{end}}{{role \"system\"}}Rules\n{{range .items}}{{role \"user\"}}{{template \"line\" .}}{{end}}{{$x}}{{with .name}}{{message \"assistant\" .}}{{end}}\n", nil},
	{"g02_message_arity.tmpl", true, "{{message \"user\"}}\n", nil},
	{"g03_role_then_json.tmpl", true, "<message role=\"wizard\">{{.name}}</message>\n<message role=\"assistant\"><tool_call id=\"1\" name=\"f\">{bad}</tool_call></message>\n", []string{"7:15: rendered markup: unknown role \"wizard\"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)", "8:55: rendered markup: <tool_call name=\"f\"> arguments \"{bad}\" are not valid JSON: invalid character 'b' looking for beginning of object key string"}},
	{"g04_multi_message.tmpl", true, "{{message \"wizard\" .name}}\n{{message \"user\" .nmae}}\n", []string{"7:1: rendered markup: unknown role \"wizard\"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)", "8:18: variable \"nmae\" is not declared in the input schema (declared: name, items)"}},
	{"g06_nested_literal.tmpl", true, "<message role=\"system\">rules\n<message role=\"user\">{{.name}}</message>\n</message>\n", []string{"8:1: rendered markup: <message role=\"user\"> opens inside another message and closes it, so the </message> meant for that one closes no message; messages do not nest: close the one before first, or move this one out"}},
	{"h01_nested_user_in_system.hbs", true, "{{#system}}Be kind.\n{{#user}}{{name}}{{/user}}\n{{/system}}\n", []string{"8:1: rendered markup: <message role=\"user\"> opens inside another message and closes it, so the </message> meant for that one closes no message; messages do not nest: close the one before first, or move this one out"}},
	{"h02_role_then_json.hbs", true, "<message role=\"wizard\">{{name}}</message>\n<message role=\"assistant\"><tool_call id=\"1\" name=\"f\">{bad}</tool_call></message>\n", []string{"7:15: rendered markup: unknown role \"wizard\"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)", "8:55: rendered markup: <tool_call name=\"f\"> arguments \"{bad}\" are not valid JSON: invalid character 'b' looking for beginning of object key string"}},
	{"h05_media_var.hbs", true, "{{#user}}{{name}}{{media url=name mimetype=\"image/png\"}}{{/user}}\n", nil},
	{"h06_role_name.hbs", true, "{{role \"user\" name=\"bob\"}}{{name}}\n", nil},
	{"h07_user_name_hash.hbs", true, "{{#user name=\"alice\"}}{{name}}{{/user}}\n", nil},
	{"h08_each_user_valid.hbs", true, "{{#system}}Be kind.{{/system}}\n{{#each items}}{{#user}}{{this}}{{/user}}{{/each}}\n{{#if name}}{{#user}}a{{/user}}{{else}}{{#assistant}}b{{/assistant}}{{/if}}\n", nil},
	{"h09_extra_close.hbs", true, "{{role \"user\"}}hi {{name}}</message></message>\n", []string{"7:37: rendered markup: </message> closes no message; expected <message role=\"…\"> before it"}},
	{"h10_tool_no_id.hbs", true, "{{#user}}{{name}}{{/user}}\n<message role=\"tool\">42</message>\n", nil},
	{"h11_comments_valid.hbs", true, "{{!-- a comment --}}\n<!-- markup comment -->\n{{#user}}{{name}}{{/user}}\n{{! another }}\n", nil},
	{"h12_message_bad_hash.hbs", true, "{{#message role=\"user\" nme=\"x\"}}{{name}}{{/message}}\n", []string{"7:24: message does not take nme= (it takes role=, name=, tool_call_id=)"}},
	{"h13_role_then_attr.hbs", true, "<message role=\"wizard\">{{name}}</message>\n<message role=\"user\" nmae=\"x\">hi</message>\n", []string{"7:15: rendered markup: unknown role \"wizard\"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)", "8:22: rendered markup: <message> has no attribute nmae; expected role, name or tool_call_id"}},
	{"h14_nested_message_block.hbs", true, "{{#message role=\"system\"}}rules\n{{#message role=\"user\"}}{{name}}{{/message}}\n{{/message}}\n", []string{"8:1: rendered markup: <message role=\"user\"> opens inside another message and closes it, so the </message> meant for that one closes no message; messages do not nest: close the one before first, or move this one out"}},
	{"h15_lookalike_and_role.hbs", true, "<message role=\"wizard\">{{name}}</mesage>\n", []string{"7:15: rendered markup: unknown role \"wizard\"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)", "7:32: \"</mesage\" is not a markup tag and would stay in the message's text; did you mean \"</message\"?"}},
	{"j01_nested_user_in_system.j2", true, "{% system %}Be kind.\n{% user %}{{ name }}{% enduser %}\n{% endsystem %}\n", []string{"8:1: rendered markup: <message role=\"user\"> opens inside another message and closes it, so the </message> meant for that one closes no message; messages do not nest: close the one before first, or move this one out"}},
	{"j02_role_then_json.j2", true, "{% message \"wizard\" %}{{ name }}{% endmessage %}\n<message role=\"assistant\"><tool_call id=\"1\" name=\"f\">{bad}</tool_call></message>\n", []string{"7:1: rendered markup: unknown role \"wizard\"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)", "8:55: rendered markup: <tool_call name=\"f\"> arguments \"{bad}\" are not valid JSON: invalid character 'b' looking for beginning of object key string"}},
	{"j04_media_outside.j2", true, "{{ media(\"https://x/a.png\") }}\n{% user %}{{ name }}{% enduser %}\n", []string{"7:1: rendered markup: text outside a message: \"<image url=\\\"https://x/a.png\\\"/>\\n\"; expected <message role=\"…\">, whitespace or a comment (or parse with roleparse.Loose)"}},
	{"j05_valid_set_macro.j2", true, "{% set greeting = \"Hi \" ~ name %}{% macro line(a) %}- {{ a }}{% endmacro %}\n{% system %}{{ greeting }}{% endsystem %}\n{% user %}{% for x in items %}{{ line(x) }} {{ loop.index }}{% endfor %}{{ name|default(\"x\") }}{{ items[0] }}{% enduser %}\n", nil},
	{"j06_endmessage_mismatch.j2", true, "{% message \"user\" %}{{ name }}{% enduser %}\n", []string{"7:34: TemplateSyntaxError: Encountered unknown tag 'enduser'. Jinja was looking for the following tags: 'endmessage'. The innermost block that needs to be closed is 'message'."}},
	{"j07_message_no_role.j2", true, "{% message %}{{ name }}{% endmessage %}\n", []string{"7:4: TypeError: message() missing required argument: 'role'"}},
	{"j08_raw_valid.j2", true, "{% user %}{% raw %}{{ not_a_var }}{% endraw %}{{ name }}{% enduser %}\n", nil},
	{"j09_wscontrol_valid.j2", true, "{%- system -%}\n  Rules.\n{%- endsystem -%}\n{%- user -%}\n{{ name }}\n{%- enduser -%}\n", nil},
	{"j10_role_undeclared_json.j2", true, "{{ role(\"wizard\") }}{{ nmae }}\n{{ role(\"assistant\") }}<tool_call id=\"1\" name=\"f\">{bad}</tool_call>\n", []string{"7:1: rendered markup: unknown role \"wizard\"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)", "7:24: variable \"nmae\" is not declared in the input schema (declared: name, items)", "8:52: rendered markup: <tool_call name=\"f\"> arguments \"{bad}\" are not valid JSON: invalid character 'b' looking for beginning of object key string"}},
	{"j11_if_role_valid.j2", true, "{% if name == \"x\" %}{{ role(\"assistant\") }}ok{% else %}{{ role(\"user\") }}{{ name }}{% endif %}\n", nil},
	{"j12_extra_endmessage_text.j2", true, "{{ role(\"user\") }}{{ name }}</message>\nthanks\n", []string{"8:1: rendered markup: text outside a message: \"thanks\"; expected <message role=\"…\">, whitespace or a comment (or parse with roleparse.Loose)"}},
	{"j13_nested_message_block.j2", true, "{% message \"system\" %}x{% message \"user\" %}{{ name }}{% endmessage %}{% endmessage %}\n", []string{"7:24: rendered markup: <message role=\"user\"> opens inside another message and closes it, so the </message> meant for that one closes no message; messages do not nest: close the one before first, or move this one out"}},
	{"j14_dict_loop_valid.j2", true, "{% user %}{% for k, v in {'a': 1}.items() %}{{ k }}={{ v }}{% endfor %}{{ name }}{% enduser %}\n", nil},
	{"p01_nested_user_in_system.pongo2", true, "{% system %}Be kind.\n{% user %}{{ name }}{% enduser %}\n{% endsystem %}\n", []string{"8:1: rendered markup: <message role=\"user\"> opens inside another message and closes it, so the </message> meant for that one closes no message; messages do not nest: close the one before first, or move this one out"}},
	{"p02_valid.pongo2", true, "{% system %}Rules{% endsystem %}\n{% for x in items %}{% user %}{{ x }}{{ name|default:\"y\" }}{% enduser %}{% endfor %}\n{{ role(\"assistant\", \"bob\") }}ok\n", nil},
	{"p03_role_then_json.pongo2", true, "<message role=\"wizard\">{{ name }}</message>\n<message role=\"assistant\"><tool_call id=\"1\" name=\"f\">{bad}</tool_call></message>\n", []string{"7:15: rendered markup: unknown role \"wizard\"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)", "8:55: rendered markup: <tool_call name=\"f\"> arguments \"{bad}\" are not valid JSON: invalid character 'b' looking for beginning of object key string"}},
	{"p05_endmessage_mismatch.pongo2", true, "{% message \"user\" %}{{ name }}{% enduser %}\n", []string{"7:34: Tag 'enduser' not found (or beginning tag not provided)"}},
	{"h03_history_in_user.hbs", true, "{{#system}}Hi{{/system}}\n{{#user}}{{history}}{{name}}{{/user}}\n", []string{"8:10: {{history}}: the history is placed inside a message: it is whole messages, the first of which closes that one; place it between messages"}},
	{"h16_history_between_valid.hbs", true, "{{#system}}Rules{{/system}}\n{{history}}\n{{#user}}{{name}}{{/user}}\n", nil},
	{"j03_history_in_user.j2", true, "{% user %}{{ history() }}{{ name }}{% enduser %}\n", []string{"7:11: {{ history() }}: the history is placed inside a message: it is whole messages, the first of which closes that one; place it between messages"}},
	{"j15_history_marker_valid.j2", true, "{{ role(\"system\") }}Rules\n{{ history() }}\n{{ role(\"user\") }}{{ name }}\n", nil},
	{"p04_history_in_user.pongo2", true, "{% user %}{{ history() }}{{ name }}{% enduser %}\n", []string{"7:11: {{ history() }}: the history is placed inside a message: it is whole messages, the first of which closes that one; place it between messages"}},
	{"g05_history_in_message.tmpl", true, "<message role=\"user\">{{history}}{{.name}}</message>\n", []string{"7:22: {{history}}: the history is placed inside a message: it is whole messages, the first of which closes that one; place it between messages"}},
	{"a01_tool_block.j2", true, "{% message \"assistant\" %}<tool_call id=\"c1\" name=\"f\">{\"q\": 1}</tool_call>{% endmessage %}\n{% message \"tool\", tool_call_id=\"c1\" %}42{% endmessage %}\n{% user %}{{ name }}{% enduser %}\n", nil},
	{"a02_tool_marker.pongo2", true, "{{ role(\"assistant\") }}<tool_call id=\"c1\" name=\"f\">{\"q\": 1}</tool_call>\n{{ role(\"tool\", \"\", \"c1\") }}42\n{{ role(\"user\") }}{{ name }}\n", nil},
	{"a03_cdata_valid.hbs", true, "{{#user}}<![CDATA[<message role=\"x\">]]>{{name}}{{/user}}\n", nil},
	{"a06_three_kinds.tmpl", true, "<message role=\"sytem\">{{.name}}</message>\n<message role=\"user\">{{.nmae}}</mesage>\n", []string{"7:15: rendered markup: unknown role \"sytem\" (did you mean \"system\"?); expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)", "8:24: variable \"nmae\" is not declared in the input schema (declared: name, items)", "8:31: \"</mesage\" is not a markup tag and would stay in the message's text; did you mean \"</message\"?"}},
	{"a07_tool_call_outside_assistant.hbs", true, "{{#user}}<tool_call id=\"1\" name=\"f\">{}</tool_call>{{name}}{{/user}}\n{{#assistant}}<tool_call id=\"2\" name=\"g\">{x}</tool_call>{{/assistant}}\n", []string{"7:10: rendered markup: <tool_call> in a user message; only an assistant message makes tool calls (a tool's answer is a tool message with tool_call_id)", "8:43: rendered markup: <tool_call name=\"g\"> arguments \"{x}\" are not valid JSON: invalid character 'x' looking for beginning of object key string"}},
	{"a08_media_gotmpl.tmpl", true, "{{role \"user\"}}{{.name}}{{media \"https://x/a.png\" \"image/png\"}}\n{{role \"assistant\"}}ok\n", nil},
	{"a10_if_around_roles.prompt", false, "---\ninput:\n  schema:\n    vip?: boolean\n    q: string\n---\n{{#if vip}}{{role \"system\"}}Be extra kind.{{/if}}\n{{role \"user\"}}{{q}}\n", nil},
	{"a11_part_unclosed.hbs", true, "{{#user}}<text>{{name}}{{/user}}\n{{#user}}<image url=\"x\">{{/user}}\n", []string{"7:24: rendered markup: </message> closes <text> opened at line 7, col 22; expected </text>", "8:25: rendered markup: </message> closes <image> opened at line 8, col 22; expected </image>"}},
	{"a12_whitespace_roles.j2", true, "  {{ role(\"system\") }}Rules\n\n  {{ role(\"user\") }}{{ name }}\n", nil},
	{"a13_loop_markers_json.j2", true, "{% for x in items %}{{ role(\"assistant\") }}<tool_call id=\"{{ loop.index }}\" name=\"f\">{\"x\": \"{{ x }}\"}</tool_call>{% endfor %}{{ role(\"user\") }}{{ name }}\n", nil},
	{"a14_nested_three.hbs", true, "{{#system}}a{{#user}}b{{#assistant}}c{{/assistant}}{{/user}}{{/system}}\n", []string{"7:23: rendered markup: <message role=\"assistant\"> opens inside another message and closes it, so the </message> meant for that one closes no message; messages do not nest: close the one before first, or move this one out"}},
	{"a15_stray_close_then_role.hbs", true, "{{#user}}{{name}}{{/user}}</message>\n{{role \"wizard\"}}x\n", []string{"7:27: rendered markup: </message> closes no message; expected <message role=\"…\"> before it", "8:1: rendered markup: unknown role \"wizard\"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)"}},
	{"a16_message_name_attr.j2", true, "{% message \"user\", name=\"alice\" %}{{ name }}{% endmessage %}\n", nil},
	{"a17_role_case.hbs", true, "<message role=\"User\">{{name}}</message>\n<MESSAGE role=\"Assistant\">ok</MESSAGE>\n", nil},
	{"a18_json_injected.tmpl", true, "{{role \"assistant\"}}<tool_call id=\"1\" name=\"f\">{\"q\": \"{{.name}}\"}</tool_call>\n", nil},
	{"h04_media_no_url.hbs", true, "{{#user}}{{name}}{{media}}{{/user}}\n", []string{"7:20: variable \"media\" is not declared in the input schema (declared: name, items); written so, media reads a variable, not the markup's media, which takes a url"}},
	{"j16_media_bare.j2", false, "---\ninput:\n  schema:\n    name: string\n---\n{{ role(\"user\") }}{{ name }}{{ media }}\n", []string{"6:32: variable \"media\" is not declared in the input schema (declared: name); written so, media reads a variable, not the markup's media, which takes a url"}},
	{"h17_user_bare.hbs", false, "---\ninput:\n  schema:\n    name: string\n---\n{{user}}{{name}}\n", []string{"6:3: variable \"user\" is not declared in the input schema (declared: name); written so, user reads a variable, not the markup's user block"}},
	{"g07_media_field.tmpl", false, "---\ninput:\n  schema:\n    name: string\n---\n{{role \"user\"}}{{.media}}\n", []string{"6:18: variable \"media\" is not declared in the input schema (declared: name)"}},
	{"a04_partial_nested.hbs", true, "{{#system}}Rules\n{{> _userpart}}\n{{/system}}\n", []string{"8:1: rendered markup: <message role=\"user\"> opens inside another message and closes it, so the </message> meant for that one closes no message; messages do not nest: close the one before first, or move this one out"}},
	{"_userpart.hbs", false, "{{#user}}{{name}}{{/user}}", nil},
	{"a05_include_in_block.j2", true, "{% system %}Rules{% include \"_inc.j2\" %}{% endsystem %}\n", []string{"7:18: rendered markup: <message role=\"user\"> opens inside another message and closes it, so the </message> meant for that one closes no message; messages do not nest: close the one before first, or move this one out"}},
	{"_inc.j2", false, "{% user %}{{ name }}{% enduser %}", nil},
}

// TestCheckHunt18 runs rolemark check on each of hunt18Cases and requires
// exactly its lines and exit code, and the language server the same
// problems.
func TestCheckHunt18(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range hunt18Cases {
		src := tc.body
		if tc.header {
			src = huntHeader + src
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, tc.file), []byte(src), 0o644))
	}
	// every file first: a template and the partial it includes
	for _, tc := range hunt18Cases {
		name := filepath.Join(dir, tc.file)
		t.Run(tc.file, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), []string{"check", name}, nil, &out, &errOut)
			assert.Empty(t, errOut.String())
			want := ""
			for _, w := range tc.want {
				want += name + ":" + w + "\n"
			}
			assert.Equal(t, want, out.String())
			if len(tc.want) > 0 {
				assert.Equal(t, 1, code)
			} else {
				assert.Equal(t, 0, code)
			}
		})
	}
	got := lspProblems(t, dir)
	for _, tc := range hunt18Cases {
		assert.Equal(t, tc.want, got[tc.file], "rolemark lsp on %s", tc.file)
	}
}
