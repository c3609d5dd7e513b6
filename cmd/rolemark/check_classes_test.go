package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// classHeader is the front matter of every case of TestCheckClasses: five
// lines, so that the template's first line is the file's sixth.
const classHeader = "---\ninput:\n  schema:\n    name: string\n---\n"

// checkClasses holds one template per mistake class and engine, each with
// its mistake on line 7 after an emoji (one rune, two UTF-16 code units)
// and a space, and the one line rolemark check prints for it: the place
// is the mistake's own, in the file's lines and 1-based rune columns.
var checkClasses = []struct{ file, body, want string }{
	// a block left open: at the block's start, not at the end of the file
	{"unclosed.hbs", "{{role \"user\"}}héllo\n{{#if name}}x", "7:1: {{#if}} is not closed: expected {{/if}} before the end of the template"},
	{"unclosed.j2", "{{ role(\"user\") }}héllo\n{% if name %}x", "7:1: TemplateSyntaxError: Unexpected end of template. Jinja was looking for the following tags: 'elif' or 'else' or 'endif'. The innermost block that needs to be closed is 'if'."},
	{"unclosed.pongo2", "{{ role(\"user\") }}héllo\n{% if name %}x", "7:1: Unexpected EOF, expected tag elif or else or endif."},
	{"unclosed.tmpl", "{{role \"user\"}}héllo\n{{if .name}}x", "7:1: {{if}} is not closed: expected {{end}} before the end of the template (text/template: unexpected EOF)"},
	{"unclosed_inner.tmpl", "{{role \"user\"}}\n😀 {{if .name}}{{end}}{{with .name}}x", "7:22: {{with}} is not closed: expected {{end}} before the end of the template (text/template: unexpected EOF)"},
	// an unknown helper, filter or function: at its name
	{"unknown.hbs", "{{role \"user\"}}\n😀 {{shout name}}", "7:3: unknown helper \"shout\" (known: assistant, each, equal, history, if, ifEquals, json, lookup, media, message, role, section, system, unless, unlessEquals, user, with)"},
	{"unknown.j2", "{{ role(\"user\") }}\n😀 {{ name|shout }}", "7:11: TemplateAssertionError: No filter named 'shout'."},
	{"unknown.pongo2", "{{ role(\"user\") }}\n😀 {{ name|shout }}", "7:11: Filter 'shout' does not exist."},
	{"unknown.tmpl", "{{role \"user\"}}\n😀 {{shout .name}}", "7:5: function \"shout\" not defined"},
	{"unknown_call.j2", "{{ role(\"user\") }}\n😀 {{ shout(name) }}", "7:6: unknown function \"shout\""},
	// a pongo2 filter that needs its argument, called without: at its name
	{"filterarg.pongo2", "{{ role(\"user\") }}\n😀 {{ name|truncatechars }}", "7:11: filter \"truncatechars\" needs its argument, as in |truncatechars:100"},
	// the wrong number of arguments: at the call
	{"arity.hbs", "{{role \"user\"}}\n😀 {{#if}}x{{/if}}", "7:3: #if takes 1 argument(s), found 0"},
	{"arity.j2", "{{ role(\"user\") }}\n😀 {{ role() }}", "7:6: TypeError: role() missing required argument: 'role'"},
	{"arity.pongo2", "{{ role(\"user\") }}\n😀 {{ role() }}", "7:6: role takes a role and optionally a name and a tool call id, not 0 arguments"},
	{"arity.tmpl", "{{role \"user\"}}\n😀 {{role}}", "7:5: executing \"arity.tmpl\" at <role>: wrong number of args for role: want at least 1 got 0"},
	// a method's or a call block's call: at the name called too
	{"method.j2", "{{ role(\"user\") }}\n😀 {{ \"x\".upper(1) }}", "7:10: TypeError: str.upper() takes no arguments (1 given)"},
	{"method_get.j2", "{{ role(\"user\") }}\n😀 {{ {}.get() }}", "7:9: TypeError: get expected at least 1 argument, got 0"},
	{"callblock.j2", "{{ role(\"user\") }}\n😀 {% call role() %}x{% endcall %}", "7:11: TypeError: role() got an unexpected keyword argument 'caller'"},
	// ... also in a branch the synthetic render does not take
	{"arity_else.j2", "{{ role(\"user\") }}{{ name }}\n😀 {% if name %}x{% else %}{{ media() }}{% endif %}", "7:30: TypeError: media() missing required argument: 'url'"},
	{"arity_else.tmpl", "{{role \"user\"}}{{.name}}\n😀 {{if .name}}x{{else}}{{history 1}}{{end}}", "7:26: executing \"arity_else.tmpl\" at <history>: wrong number of args for history: want 0 got 1"},
	// a misspelled closing tag: at its <
	{"mesage.hbs", "<message role=\"user\">\n😀 {{name}}</mesage>", "7:11: \"</mesage\" is not a markup tag and would stay in the message's text; did you mean \"</message\"?"},
	{"mesage.j2", "<message role=\"user\">\n😀 {{ name }}</mesage>", "7:13: \"</mesage\" is not a markup tag and would stay in the message's text; did you mean \"</message\"?"},
	{"mesage.pongo2", "<message role=\"user\">\n😀 {{ name }}</mesage>", "7:13: \"</mesage\" is not a markup tag and would stay in the message's text; did you mean \"</message\"?"},
	{"mesage.tmpl", "<message role=\"user\">\n😀 {{.name}}</mesage>", "7:12: \"</mesage\" is not a markup tag and would stay in the message's text; did you mean \"</message\"?"},
	// an unknown role: at the marker that writes it
	{"role.hbs", "{{role \"user\"}}{{name}}\n😀 {{role \"wizard\"}}x", "7:3: rendered markup: " + unknownWizard},
	{"role.j2", "{{ role(\"user\") }}{{ name }}\n😀 {{ role(\"wizard\") }}x", "7:3: rendered markup: " + unknownWizard},
	{"role.pongo2", "{{ role(\"user\") }}{{ name }}\n😀 {{ role(\"wizard\") }}x", "7:3: rendered markup: " + unknownWizard},
	{"role.tmpl", "{{role \"user\"}}{{.name}}\n😀 {{role \"wizard\"}}x", "7:3: rendered markup: " + unknownWizard},
	// an unknown role in a literal tag: at the value's opening quote, as
	// docs/markup.md says roleparse places a value's errors
	{"roletag.hbs", "<message role=\"user\">{{name}}\n😀 </message><message role=\"wizard\">x</message>", "7:27: rendered markup: " + unknownWizard},
	{"roletag.j2", "<message role=\"user\">{{ name }}\n😀 </message><message role=\"wizard\">x</message>", "7:27: rendered markup: " + unknownWizard},
	{"roletag.pongo2", "<message role=\"user\">{{ name }}\n😀 </message><message role=\"wizard\">x</message>", "7:27: rendered markup: " + unknownWizard},
	{"roletag.tmpl", "<message role=\"user\">{{.name}}\n😀 </message><message role=\"wizard\">x</message>", "7:27: rendered markup: " + unknownWizard},
	// a variable the input schema does not declare: at its name
	{"var.hbs", "{{role \"user\"}}\n😀 {{nmae}}", "7:5: variable \"nmae\" is not declared in the input schema (declared: name)"},
	{"var.j2", "{{ role(\"user\") }}\n😀 {{ nmae }}", "7:6: variable \"nmae\" is not declared in the input schema (declared: name)"},
	{"var.pongo2", "{{ role(\"user\") }}\n😀 {{ nmae }}", "7:6: variable \"nmae\" is not declared in the input schema (declared: name)"},
	{"var.tmpl", "{{role \"user\"}}\n😀 {{.nmae}}", "7:5: variable \"nmae\" is not declared in the input schema (declared: name)"},
	// a partial that does not exist: at its name
	{"partial.hbs", "{{role \"user\"}}{{name}}\n😀 {{> nope}}", "7:3: partial \"nope\" not found: looked for _nope.hbs, nope.hbs, _nope.prompt, nope.prompt, _nope.handlebars, nope.handlebars"},
	{"partial.j2", "{{ role(\"user\") }}{{ name }}\n😀 {% include \"nope.j2\" %}", "7:14: partial \"nope.j2\" not found: looked for _nope.j2, nope.j2"},
	{"partial.pongo2", "{{ role(\"user\") }}{{ name }}\n😀 {% include \"nope.pongo2\" %}", "7:14: partial \"nope.pongo2\" not found: looked for _nope.pongo2, nope.pongo2"},
	{"partial.tmpl", "{{role \"user\"}}{{.name}}\n😀 {{template \"nope\"}}", "7:14: partial \"nope\" not found: looked for _nope.tmpl, nope.tmpl, _nope.gotmpl, nope.gotmpl"},
	// {{ inside a role name: the engine's syntax error, at the quote
	// where the action it opened breaks
	{"rolebrace.hbs", "{{name}}\n😀 <message role=\"{{user\">x</message>", "7:24: unterminated string"},
	{"rolebrace.j2", "{{ name }}\n😀 <message role=\"{{user\">x</message>", "7:24: TemplateSyntaxError: unexpected char '\"' at 34"},
	{"rolebrace.pongo2", "{{ name }}\n😀 <message role=\"{{user\">x</message>", "7:24: Unexpected EOF, string not closed."},
	{"rolebrace.tmpl", "{{.name}}\n😀 <message role=\"{{user\">x</message>", "7:24: bad character U+0022 '\"'"},
}

const unknownWizard = `unknown role "wizard"; expected system, user, assistant, tool or developer (allow others with roleparse.Roles or roleparse.AnyRole)`

// badYAML is front matter with a flow sequence never closed, on its third
// line, in a file of each engine: the problem is placed at its [.
var badYAML = []struct{ file, want string }{
	{"yaml.hbs", "3:17: front matter: did not find expected ',' or ']'"},
	{"yaml.j2", "3:17: front matter: did not find expected ',' or ']'"},
	{"yaml.pongo2", "3:17: front matter: did not find expected ',' or ']'"},
	{"yaml.tmpl", "3:17: front matter: did not find expected ',' or ']'"},
	{"yaml.prompt", "3:17: front matter: did not find expected ',' or ']'"},
}

// TestCheckClasses runs rolemark check on one file per mistake class and
// engine and requires exactly the expected line for each; then it opens
// each file in rolemark lsp and requires the same problem at the same
// place, LSP's UTF-16 character converted back to check's rune column.
func TestCheckClasses(t *testing.T) {
	dir := t.TempDir()
	want := map[string]string{}
	for _, tc := range checkClasses {
		require.NoError(t, os.WriteFile(filepath.Join(dir, tc.file), []byte(classHeader+tc.body), 0o644))
		want[tc.file] = tc.want
	}
	for _, tc := range badYAML {
		src := "---\nmodel: gpt\ninput: {schema: [name\n---\nhello"
		require.NoError(t, os.WriteFile(filepath.Join(dir, tc.file), []byte(src), 0o644))
		want[tc.file] = tc.want
	}
	for file, w := range want {
		t.Run(file, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), []string{"check", filepath.Join(dir, file)}, nil, &out, &errOut)
			assert.Equal(t, 1, code)
			assert.Empty(t, errOut.String())
			assert.Equal(t, filepath.Join(dir, file)+":"+w+"\n", out.String())
		})
	}

	got := lspProblems(t, dir)
	for file, w := range want {
		assert.Equal(t, []string{w}, got[file], "rolemark lsp on %s", file)
	}
}

// lspProblems opens each file of dir (an absolute path, the workspace
// folder) in rolemark lsp (with args), driven over a pipe as an editor drives it, and
// returns, by file name, its diagnostics as check prints them without the
// file name: "LINE:COL: message", LSP's 0-based line and UTF-16 character
// converted back to check's 1-based line and column in runes. Each file is
// closed again, which must clear its diagnostics, and the server must exit
// cleanly.
func lspProblems(t *testing.T, dir string, args ...string) map[string][]string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := run(context.Background(), append([]string{"lsp"}, args...), inR, outW, io.Discard)
		outW.Close()
		done <- code
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	br := &lspReader{r: outR}
	id := 0
	send := func(method string, params any, request bool) {
		m := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
		if request {
			id++
			m["id"] = id
		}
		body, err := json.Marshal(m)
		require.NoError(t, err)
		_, err = fmt.Fprintf(inW, "Content-Length: %d\r\n\r\n%s", len(body), body)
		require.NoError(t, err)
	}
	uri := func(p string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String() }
	send("initialize", map[string]any{"processId": nil, "rootUri": uri(dir), "capabilities": map[string]any{}}, true)
	_, ok := br.next(t)["result"]
	require.True(t, ok)
	send("initialized", map[string]any{}, false)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	got := map[string][]string{}
	for _, e := range entries {
		text, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": uri(filepath.Join(dir, e.Name())), "languageId": "", "version": 1, "text": string(text)}}, false)
		m := br.next(t)
		require.JSONEq(t, `"textDocument/publishDiagnostics"`, string(m["method"]))
		var p struct {
			Diagnostics []struct {
				Range struct {
					Start struct{ Line, Character int }
				}
				Message string
			}
		}
		require.NoError(t, json.Unmarshal(m["params"], &p))
		lines := strings.Split(string(text), "\n")
		for _, d := range p.Diagnostics {
			require.Less(t, d.Range.Start.Line, len(lines), "%s: %s", e.Name(), d.Message)
			col := runeCol(lines[d.Range.Start.Line], d.Range.Start.Character)
			got[e.Name()] = append(got[e.Name()], fmt.Sprintf("%d:%d: %s", d.Range.Start.Line+1, col, d.Message))
		}
		sort.Strings(got[e.Name()])
		send("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri(filepath.Join(dir, e.Name()))}}, false)
		m = br.next(t)
		require.JSONEq(t, `"textDocument/publishDiagnostics"`, string(m["method"]))
		require.Contains(t, string(m["params"]), `"diagnostics":[]`)
	}
	send("shutdown", nil, true)
	br.next(t)
	send("exit", nil, false)
	select {
	case code := <-done:
		assert.Equal(t, 0, code)
	case <-time.After(10 * time.Second):
		t.Fatal("rolemark lsp did not exit")
	}
	return got
}

// TestRenderPlacesCalls: rolemark render places a call's own error where
// check does, at the name called (a method's, a call block's callee),
// counting columns in runes after an emoji.
func TestRenderPlacesCalls(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range checkClasses {
		switch tc.file {
		case "arity.j2", "method.j2", "method_get.j2", "callblock.j2":
		default:
			continue
		}
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			require.NoError(t, os.WriteFile(path, []byte(classHeader+tc.body), 0o644))
			var out, errOut bytes.Buffer
			code := run(context.Background(), []string{"render", "--var", "name=ada", path}, nil, &out, &errOut)
			assert.Equal(t, 1, code)
			assert.Equal(t, path+":"+tc.want+"\n", errOut.String())
		})
	}
}
