package lsp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// open opens a document and returns its URI and first diagnostics.
func (c *client) open(dir, name, text string) (string, string) {
	uri := fileURI(filepath.Join(dir, filepath.FromSlash(name)))
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "", "version": 1, "text": text}})
	return uri, c.diagnostics()
}

func at(uri string, line, char int) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": line, "character": char}}
}

// labels returns the labels of a completion result.
func labels(t *testing.T, result json.RawMessage) []string {
	var list struct {
		Items []struct {
			Label string `json:"label"`
		} `json:"items"`
	}
	require.NoError(t, json.Unmarshal(result, &list))
	out := []string{}
	for _, it := range list.Items {
		out = append(out, it.Label)
	}
	return out
}

func TestHover(t *testing.T) {
	dir := writeFiles(t, nil)
	c := start(t)
	c.initialize(dir)
	front := "---\ninput:\n  schema:\n    name: string, the customer's name\n    plan?(enum, the plan they pay for): [free, pro]\n" +
		"    items(array): string\n    address(object, where to write):\n      city: string, the city\n---\n"
	body := "{{role \"user\"}}😀 {{name}} {{plan}} {{address.city}} {{#each items}}{{this}}{{/each}} {{@root.name}}"
	uri, diags := c.open(dir, "h.hbs", front+body+"\n")
	assert.Contains(t, diags, `"diagnostics":[]`)
	const line = 9
	tests := []struct {
		name, needle string
		// cursor, from and to are offsets in needle, in runes: the cursor,
		// and the range of the hover.
		cursor, from, to int
		want             string // the hover's text; "" for none
	}{
		{"input", "{{name}}", 3, 2, 6, "`name`: string\n\nthe customer's name"},
		{"input's end", "{{name}}", 6, 2, 6, "`name`: string\n\nthe customer's name"},
		{"optional enum", "{{plan}}", 2, 2, 6, "`plan`: enum, optional\n\nthe plan they pay for\n\nOne of `free`, `pro`"},
		{"object", "{{address.city", 4, 2, 9, "`address`: object\n\nwhere to write"},
		{"property", "address.city}}", 9, 8, 12, "`address.city`: string\n\nthe city"},
		{"array", "each items", 6, 5, 10, "`items`: array of string"},
		{"@root", "@root.name", 7, 6, 10, "`name`: string\n\nthe customer's name"},
		{"helper", "{{role", 3, 0, 0, ""},
		{"text", "😀", 0, 0, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i := strings.Index(body, tc.needle)
			require.GreaterOrEqual(t, i, 0)
			resp := c.call("textDocument/hover", at(uri, line, utf16At(body, i, tc.cursor)))
			if tc.want == "" {
				assert.Equal(t, "null", string(resp["result"]))
				return
			}
			want, err := json.Marshal(map[string]any{
				"contents": map[string]any{"kind": "markdown", "value": tc.want},
				"range": map[string]any{"start": map[string]any{"line": line, "character": utf16At(body, i, tc.from)},
					"end": map[string]any{"line": line, "character": utf16At(body, i, tc.to)}},
			})
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(resp["result"]))
		})
	}
	resp := c.call("textDocument/hover", at(uri, 3, 5))
	assert.Equal(t, "null", string(resp["result"]), "no hover in the front matter")
	c.shutdown()
}

// utf16At is the UTF-16 character offset of the rune n runes after byte
// offset i of s, counted with unicode/utf16.
func utf16At(s string, i, n int) int {
	runes := []rune(s[:i])
	runes = append(runes, []rune(s[i:])[:n]...)
	return len(utf16.Encode(runes))
}

// TestCompletion asks for completions where an input or a helper, a
// partial's name, and a filter is written, in Handlebars, Jinja and
// text/template.
func TestCompletion(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"_header.hbs": "hi", "_footer.hbs": "bye", "sub/_near.hbs": "x", "_other.j2": "x", "_inc.j2": "x",
		"_gohead.tmpl": "x", "notpartial.hbs": "x",
	})
	c := start(t)
	c.initialize(dir)
	front := "---\ninput:\n  schema:\n    name: string, the customer's name\n    plan?: string\n---\n"
	hbs, _ := c.open(dir, "sub/c.hbs", front+"{{role \"user\"}}Hi {{na}} {{> }}\n")
	j2, _ := c.open(dir, "c.j2", front+"{{ role(\"user\") }}Hi {{ name|up }} {% include \"\" %}\n")
	tmpl, _ := c.open(dir, "c.tmpl", front+"{{role \"user\"}}Hi {{.na}} {{template \"\"}}\n")
	const line = 6
	tests := []struct {
		name string
		uri  string
		char int
		want []string
	}{
		{"handlebars inputs and helpers", hbs, 22, []string{"name", "plan", "role", "each"}},
		{"handlebars partials", hbs, 29, []string{"footer", "header", "near"}},
		{"jinja filters", j2, 31, []string{"upper", "trim"}},
		{"jinja inputs and functions", j2, 25, []string{"name", "plan", "role"}},
		{"jinja partials", j2, 47, []string{"inc", "other"}},
		{"text/template inputs", tmpl, 23, []string{"name", "plan"}},
		{"text/template partials", tmpl, 38, []string{"gohead"}},
		{"front matter", hbs, -1, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := line
			if tc.char < 0 {
				l, tc.char = 3, 4
			}
			resp := c.call("textDocument/completion", at(tc.uri, l, tc.char))
			assert.Equal(t, tc.want, labels(t, resp["result"]))
		})
	}
	resp := c.call("textDocument/completion", at(hbs, line, 22))
	var list struct {
		Items []map[string]any `json:"items"`
	}
	require.NoError(t, json.Unmarshal(resp["result"], &list))
	assert.Equal(t, []map[string]any{
		{"label": "name", "kind": 6.0, "detail": "string", "documentation": map[string]any{"kind": "markdown", "value": "the customer's name"}, "sortText": "0name"},
		{"label": "plan", "kind": 6.0, "detail": "string", "sortText": "0plan"},
		{"label": "role", "kind": 3.0, "detail": "helper", "documentation": map[string]any{"kind": "markdown", "value": "starts a message"}, "sortText": "2role"},
		{"label": "each", "kind": 3.0, "detail": "helper", "sortText": "2each"},
	}, list.Items)
	c.shutdown()
}

// TestDefinition goes to the file of a partial, found as the engines find
// it: the nearest directory first, the partial file _NAME before NAME.
func TestDefinition(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"_header.hbs": "top", "sub/_header.hbs": "near", "_inc.j2": "x", "_gohead.tmpl": "x",
	})
	c := start(t)
	c.initialize(dir)
	hbs, _ := c.open(dir, "sub/d.hbs", "{{role \"user\"}}{{> header}} {{> missing}}\n")
	j2, _ := c.open(dir, "d.j2", "{{ role(\"user\") }}{% include \"inc\" %}\n")
	tmpl, _ := c.open(dir, "d.tmpl", "{{role \"user\"}}{{template \"_gohead.tmpl\"}}\n")
	tests := []struct {
		name string
		uri  string
		char int
		want string // the file below dir; "" for none
	}{
		{"handlebars, nearest", hbs, 20, "sub/_header.hbs"},
		{"handlebars, at the name's start", hbs, 19, "sub/_header.hbs"},
		{"handlebars, missing", hbs, 33, ""},
		{"handlebars, not a partial", hbs, 3, ""},
		{"jinja", j2, 31, "_inc.j2"},
		{"text/template", tmpl, 28, "_gohead.tmpl"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			resp := c.call("textDocument/definition", at(tc.uri, 0, tc.char))
			if tc.want == "" {
				assert.Equal(t, "null", string(resp["result"]))
				return
			}
			assert.JSONEq(t, `{"uri":"`+fileURI(filepath.Join(dir, tc.want))+`","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}`, string(resp["result"]))
		})
	}
	c.shutdown()
}

// TestDefinitionIsTheEnginesFile: for a template of every extension of
// every engine, naming a partial that exists under each of the engine's
// extensions, or each but the template's own, the definition is the file
// the engine reads (the order of driver.PartialExts), not one of the LSP's
// own.
func TestDefinitionIsTheEnginesFile(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	refs := map[string]string{ // a template naming the partial x, and where x starts
		"handlebars": "{{> x}}", "jinja": `{% include "x" %}`, "pongo2": `{% include "x" %}`, "gotmpl": `{{template "x"}}`,
	}
	files := map[string]string{}
	type doc struct{ engine, name string }
	var docs []doc
	for _, e := range set.Engines() {
		for _, ext := range e.Extensions() {
			for _, withOwn := range []string{"all", "others"} {
				if withOwn == "others" && len(e.Extensions()) == 1 {
					continue
				}
				d := e.Name() + "/" + strings.TrimPrefix(ext, ".") + "/" + withOwn
				files[d+"/m"+ext] = refs[e.Name()]
				for _, px := range e.Extensions() {
					if px != ext || withOwn == "all" {
						files[d+"/x"+px] = d + "/x" + px
					}
				}
				docs = append(docs, doc{e.Name(), d + "/m" + ext})
			}
		}
	}
	dir := writeFiles(t, files)
	c := start(t)
	c.initialize(dir)
	for _, d := range docs {
		t.Run(d.name, func(t *testing.T) {
			tpl, err := set.ParseFS(os.DirFS(dir), d.name)
			require.NoError(t, err)
			read, err := tpl.Render(context.Background(), nil)
			require.NoError(t, err)
			text := files[d.name]
			uri, _ := c.open(dir, d.name, text)
			resp := c.call("textDocument/definition", at(uri, 0, strings.Index(text, "x")))
			assert.JSONEq(t, `{"uri":"`+fileURI(filepath.Join(dir, filepath.FromSlash(read)))+`","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}}}`, string(resp["result"]))
		})
	}
	c.shutdown()
}
