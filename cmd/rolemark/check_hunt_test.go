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

// huntHeader is the front matter of the hunt's files that have one: the
// template's first line is the file's seventh.
const huntHeader = "---\ninput:\n  schema:\n    name: string\n    items(array): string\n---\n"

// huntCases are mistakes a prompt author plausibly makes (check17's hunt),
// each in a file of its own (after huntHeader when header is set), and the
// one line rolemark check prints for it: the place an author would fix.
var huntCases = []struct {
	file   string
	header bool
	body   string
	want   string
}{
	{"01_eahc.hbs", true, "{{role \"user\"}}{{name}}\n{{#each items}}- {{this}}\n{{/eahc}}\n", "9:4: {{/eahc}} does not close {{#each}}"},
	{"02_unclosed_each.hbs", true, "{{role \"user\"}}{{name}}\n{{#each items}}- {{this}}\ndone\n", "8:1: {{#each}} is not closed: expected {{/each}} before the end of the template"},
	{"03_misplaced_each.hbs", true, "{{role \"user\"}}{{name}}\n{{#if name}}{{#each items}}- {{this}}\n{{/if}}{{/each}}\n", "9:4: {{/if}} does not close {{#each}}"},
	{"04_stray_end.hbs", true, "{{role \"user\"}}{{name}}\n{{/each}}\n", "8:1: syntax error: unexpected \"{{/\""},
	{"05_fro.j2", true, "{{ role(\"user\") }}{{ name }}\n{% fro x in items %}{{ x }}{% endfor %}\n", "8:4: TemplateSyntaxError: Encountered unknown tag 'fro'."},
	{"06_unclosed_for.j2", true, "{{ role(\"user\") }}{{ name }}\n{% for x in items %}{{ x }}\ndone\n", "8:1: TemplateSyntaxError: Unexpected end of template. Jinja was looking for the following tags: 'endfor' or 'else'. The innermost block that needs to be closed is 'for'."},
	{"07_stray_endif.j2", true, "{{ role(\"user\") }}{{ name }}\n{% endif %}\n", "8:4: TemplateSyntaxError: Encountered unknown tag 'endif'."},
	{"08_endfo.pongo2", true, "{{ role(\"user\") }}{{ name }}\n{% for x in items %}{{ x }}{% endfo %}\n", "8:31: Tag 'endfo' not found (or beginning tag not provided)"},
	{"09_unclosed_for.pongo2", true, "{{ role(\"user\") }}{{ name }}\n{% for x in items %}{{ x }}\ndone\n", "8:1: Unexpected EOF, expected tag empty or endfor."},
	{"10_ned.tmpl", true, "{{role \"user\"}}{{.name}}\n{{ned}}\n", "8:3: function \"ned\" not defined"},
	{"11_unclosed_range.tmpl", true, "{{role \"user\"}}{{.name}}\n{{range .items}}{{.}}\ndone\n", "8:1: {{range}} is not closed: expected {{end}} before the end of the template (text/template: unexpected EOF)"},
	{"12_extra_end.tmpl", true, "{{role \"user\"}}{{.name}}\n{{end}}\n", "8:1: unexpected {{end}}"},
	{"13_sytem.hbs", true, "<message role=\"sytem\">{{name}}</message>\n", "7:15: rendered markup: unknown role \"sytem\" (did you mean \"system\"?); expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)"},
	{"13_sytem.j2", true, "<message role=\"sytem\">{{ name }}</message>\n", "7:15: rendered markup: unknown role \"sytem\" (did you mean \"system\"?); expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)"},
	{"13_sytem.pongo2", true, "<message role=\"sytem\">{{ name }}</message>\n", "7:15: rendered markup: unknown role \"sytem\" (did you mean \"system\"?); expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)"},
	{"13_sytem.tmpl", true, "<message role=\"sytem\">{{.name}}</message>\n", "7:15: rendered markup: unknown role \"sytem\" (did you mean \"system\"?); expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)"},
	{"14_asistant.hbs", true, "{{role \"user\"}}{{name}}\n{{role \"asistant\"}}ok\n", "8:1: rendered markup: unknown role \"asistant\" (did you mean \"assistant\"?); expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)"},
	{"15_blockrole.hbs", true, "{{#message role=\"bot2\"}}{{name}}{{/message}}\n", "7:1: rendered markup: unknown role \"bot2\" (did you mean \"bot\"?); expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)"},
	{"16_blockrole.j2", true, "{% message \"wizard\" %}{{ name }}{% endmessage %}\n", "7:1: rendered markup: unknown role \"wizard\"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)"},
	{"17_blockrole.pongo2", true, "{% message \"wizard\" %}{{ name }}{% endmessage %}\n", "7:1: rendered markup: unknown role \"wizard\"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)"},
	{"18_messagerole.tmpl", true, "{{message \"wizard\" .name}}\n", "7:1: rendered markup: unknown role \"wizard\"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)"},
	{"19_undef.hbs", true, "{{role \"user\"}}{{name}} {{nmae}}\n", "7:27: variable \"nmae\" is not declared in the input schema (declared: name, items)"},
	{"19_undef.j2", true, "{{ role(\"user\") }}{{ name }} {{ nmae }}\n", "7:33: variable \"nmae\" is not declared in the input schema (declared: name, items)"},
	{"19_undef.pongo2", true, "{{ role(\"user\") }}{{ name }} {{ nmae }}\n", "7:33: variable \"nmae\" is not declared in the input schema (declared: name, items)"},
	{"19_undef.tmpl", true, "{{role \"user\"}}{{.name}} {{.nmae}}\n", "7:28: variable \"nmae\" is not declared in the input schema (declared: name, items)"},
	{"20_partial.prompt", true, "{{role \"user\"}}{{name}}\n{{> missing_partial}}\n", "8:1: partial \"missing_partial\" not found: looked for _missing_partial.prompt, missing_partial.prompt, _missing_partial.hbs, missing_partial.hbs, _missing_partial.handlebars, missing_partial.handlebars"},
	{"21_after.hbs", true, "<message role=\"user\">{{name}}</message>\nthanks\n", "8:1: rendered markup: text outside a message: \"thanks\\n\"; expected <message role=\"…\">, whitespace or a comment (or parse with roleparse.Loose)"},
	{"21_after.j2", true, "<message role=\"user\">{{ name }}</message>\nthanks\n", "8:1: rendered markup: text outside a message: \"thanks\"; expected <message role=\"…\">, whitespace or a comment (or parse with roleparse.Loose)"},
	{"21_after.pongo2", true, "<message role=\"user\">{{ name }}</message>\nthanks\n", "8:1: rendered markup: text outside a message: \"thanks\\n\"; expected <message role=\"…\">, whitespace or a comment (or parse with roleparse.Loose)"},
	{"21_after.tmpl", true, "<message role=\"user\">{{.name}}</message>\nthanks\n", "8:1: rendered markup: text outside a message: \"thanks\\n\"; expected <message role=\"…\">, whitespace or a comment (or parse with roleparse.Loose)"},
	{"22_mesage_open.hbs", true, "<mesage role=\"user\">{{name}}</message>\n", "7:1: \"<mesage\" is not a markup tag and would stay in the message's text; did you mean \"<message\"?"},
	{"23_rol_attr.hbs", true, "<message rol=\"user\">{{name}}</message>\n", "7:10: rendered markup: <message> has no attribute rol; expected role, name or tool_call_id"},
	{"24_badjson.hbs", true, "<message role=\"user\">{{name}}</message>\n<message role=\"assistant\"><tool_call id=\"1\" name=\"f\">{bad}</tool_call></message>\n", "8:55: rendered markup: <tool_call name=\"f\"> arguments \"{bad}\" are not valid JSON: invalid character 'b' looking for beginning of object key string"},
	{"25_else_outside.hbs", true, "{{role \"user\"}}{{name}}\n{{else}}\n", "8:1: syntax error: unexpected \"{{else}}\""},
	{"26_upperr.j2", true, "{{ role(\"user\") }}{{ name|upperr }}\n", "7:27: TemplateAssertionError: No filter named 'upperr'."},
	{"27_uper.tmpl", true, "{{role \"user\"}}{{.name | uper}}\n", "7:26: function \"uper\" not defined"},
	{"28_include.j2", true, "{{ role(\"user\") }}{{ name }}\n{% include \"missing.j2\" %}\n", "8:12: partial \"missing.j2\" not found: looked for _missing.j2, missing.j2"},
	{"29_unclosed_user.hbs", true, "{{#user}}{{name}}\nmore\n", "7:1: {{#user}} is not closed: expected {{/user}} before the end of the template"},
	{"30_unclosed_user.j2", true, "{% user %}{{ name }}\nmore\n", "7:1: TemplateSyntaxError: Unexpected end of template. Jinja was looking for the following tags: 'enduser'. The innermost block that needs to be closed is 'user'."},
	{"31_unclosed_user.pongo2", true, "{% user %}{{ name }}\nmore\n", "7:1: Unexpected EOF, expected tag enduser."},
	{"32_engine.prompt", false, "---\nengine: jinja3\n---\n{{ name }}\n", "2:9: front matter: unknown engine \"jinja3\"; known: gotmpl, handlebars, jinja, pongo2"},
	{"33_type.hbs", false, "---\ninput:\n  schema:\n    name: strnig\n---\n{{ name }}\n", "4:11: front matter: unknown type \"strnig\"; expected string, number, integer, boolean, object, array, null or any"},
	{"34_tab.hbs", false, "---\ninput:\n  schema:\n\tname: string\n---\n{{ name }}\n", "4:1: front matter: found character that cannot start any token"},
	{"35_unclosed_fm.hbs", false, "---\ninput:\n  schema:\n    name: string\n{{ name }}\n", "1:1: front matter is not closed: no --- line follows this one, so the whole file is read as the template"},
	{"36_indent.hbs", false, "---\nmodel: gpt\n  config: 1\n---\n{{ name }}\n", "3:9: front matter: mapping values are not allowed in this context"},
	{"37_default.hbs", false, "---\ninput:\n  schema:\n    name: string\n  default:\n    nmae: x\n---\n{{ name }}\n", "6:5: front matter: input.default \"nmae\" is not an input of the schema (declared: name)"},
	{"37b_format.hbs", false, "---\noutput:\n  format: jsn\n---\n{{name}}\n", "3:11: front matter: output.format \"jsn\" is none of json, text, media, array, enum, jsonl; did you mean \"json\"?"},
	{"38_nested.hbs", true, "{{#user}}{{name}}{{#user}}x{{/user}}{{/user}}\n", "7:18: rendered markup: <message role=\"user\"> opens inside another message and closes it, so the </message> meant for that one closes no message; messages do not nest: close the one before first, or move this one out"},
	{"39_role_block_j2.j2", true, "{% user %}{{ name }}{% enduser %}\n{% sytem %}x{% endsytem %}\n", "8:4: TemplateSyntaxError: Encountered unknown tag 'sytem'."},
	{"41_sytem_block.hbs", true, "{{#sytem}}You help.{{/sytem}}\n{{#user}}{{name}}{{/user}}\n", "7:4: variable \"sytem\" is not declared in the input schema (declared: name, items)"},
	{"42_unclosed_var.j2", true, "{{ role(\"user\") }}{{ name }\n", "7:27: TemplateSyntaxError: unexpected '}'"},
	{"43_unclosed_var.tmpl", true, "{{role \"user\"}}{{.name}\n", "7:23: bad character U+007D '}'"},
	{"44_unclosed_var.hbs", true, "{{role \"user\"}}{{name}\n", "7:22: unexpected character in expression: '}'"},
	{"45_unclosed_var.pongo2", true, "{{ role(\"user\") }}{{ name }\n", "7:19: '}}' expected"},
	{"46_messages.hbs", true, "<message role=\"user\">{{name}}</messages>\n", "7:30: \"</messages\" is not a markup tag and would stay in the message's text; did you mean \"</message\"?"},
	{"47_double_endfor.j2", true, "{{ role(\"user\") }}{% for x in items %}{{ x }}{% endfor %}{% endfor %}\n", "7:61: TemplateSyntaxError: Encountered unknown tag 'endfor'."},
	{"48_other_partial.prompt", true, "{{role \"user\"}}{{name}}\n{{>_missing_partial}}\n", "8:1: partial \"_missing_partial\" not found: looked for _missing_partial, _missing_partial.prompt, _missing_partial.hbs, _missing_partial.handlebars"},
}

// TestCheckHunt runs rolemark check on each of huntCases and requires
// exactly its line, and the language server the same problem.
func TestCheckHunt(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range huntCases {
		src := tc.body
		if tc.header {
			src = huntHeader + src
		}
		name := filepath.Join(dir, tc.file)
		require.NoError(t, os.WriteFile(name, []byte(src), 0o644))
		t.Run(tc.file, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), []string{"check", name}, nil, &out, &errOut)
			assert.Equal(t, 1, code)
			assert.Empty(t, errOut.String())
			assert.Equal(t, name+":"+tc.want+"\n", out.String())
		})
	}
	got := lspProblems(t, dir)
	for _, tc := range huntCases {
		assert.Equal(t, []string{tc.want}, got[tc.file], "rolemark lsp on %s", tc.file)
	}
}
