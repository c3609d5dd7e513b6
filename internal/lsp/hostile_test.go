package lsp_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileDocs are documents of every engine with every kind of mistake a
// template can hold: syntax, unknown helpers and filters, partials that do
// not exist or leave the directory, broken front matter, bad markup, and
// bytes that are not text.
var hostileDocs = map[string]string{
	"a.hbs":    "{{#if}}x{{/if}}{{#each}}{{/each}}{{> missing}}{{role}}{{#user}}open\n{{",
	"b.hbs":    "---\ninput: [\n---\n<message role=\"nope\">{{x}}</mess",
	"c.hbs":    "\xff\xfe{{\x00}}\r\n😀{{nmae}}\r{{#with}}",
	"d.prompt": "---\nengine: nosuch\n---\nhi",
	"a.j2":     "{% for %}{{ x | nofilter }}{% include \"missing\" %}\n{{ 1/0 }}{% endfor %}{{",
	"b.j2":     "{% extends \"../../etc/passwd\" %}{% block %}{{ x. }}",
	"c.jinja":  "{{ range(10**9)|list }}{% macro m( %}\xff",
	"a.tmpl":   "{{.x\n{{template \"nope\"}}{{end}}{{nofunc}}",
	"b.gotmpl": "{{define \"a\"}}{{template \"a\"}}{{end}}{{template \"a\"}}{{range}}",
	"a.pongo2": "{% for %}{{ x|nofilter }}{% include \"../../etc/passwd\" %}{% ssi \"/etc/passwd\" %}",
	"b.pongo2": "{% macro m(%}{{ m() }}{% endmacro %}{%",
	"x.txt":    "not a template",
}

// TestHostileClient drives the server over a pipe as a careless or hostile
// client would: documents of every engine with every mistake, hover,
// completion and definition at every place and far outside the text,
// changes whose ranges are out of bounds, reversed or inside a surrogate
// pair, params of the wrong shape, and bodies that are not JSON or not
// UTF-8. The server must answer each request, publish diagnostics for
// each change, and still shut down cleanly; a panic would end the test
// binary, a hang the watchdog.
func TestHostileClient(t *testing.T) {
	dir := writeFiles(t, map[string]string{"_p.hbs": "{{#if}}"})
	c := start(t)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		c.initialize(dir)
		raw := func(body string) {
			_, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body)
			require.NoError(t, err)
		}
		alive := func(what string) {
			resp := c.call("textDocument/hover", at("file:///not/open.hbs", 0, 0))
			require.Equal(t, "null", string(resp["result"]), "after %s", what)
		}
		// bodies that are not what a request should be
		// bodies that are not what a request should be; reply says whether
		// the server answers (with an error): a response (to nothing) and a
		// bad notification are ignored, and a message that is neither a
		// request, a notification nor a response is an invalid request
		for _, tc := range []struct {
			body  string
			reply bool
		}{
			{`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":"x"}`, true},
			{`{"jsonrpc":"2.0","id":{"a":1},"method":"textDocument/hover","params":null}`, true},
			{`{"jsonrpc":"2.0","id":[1],"method":"shutdown"}`, true},
			{`{"jsonrpc":"2.0","id":"s","method":"textDocument/completion","params":[1,2]}`, true},
			{`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":1}}}`, false},
			{`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///nope.hbs"},"contentChanges":[{"text":"x"}]}}`, false},
			{`{"jsonrpc":"2.0","method":"textDocument/didClose","params":null}`, false},
			{"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"\xff\xfe\",\"params\":{}}", true},
			{"\xff\xfe\xfd", true},
			{`[]`, true}, {`null`, true}, {`{}`, true}, {`{"id":4}`, true},
			{`{"jsonrpc":"2.0","id":9,"result":null}`, false}, // a response
		} {
			raw(tc.body)
			if tc.reply {
				m, err := c.r.read()
				require.NoError(t, err, "reply to %q", tc.body)
				require.Contains(t, m, "error", "reply to %q", tc.body)
			}
			alive(tc.body)
		}
		lines := func(s string) int { return strings.Count(s, "\n") + 1 }
		for name, text := range hostileDocs {
			uri, diags := c.open(dir, name, text)
			assert.Contains(t, diags, `"uri":"`+uri+`"`, name)
			for line := -1; line <= lines(text)+1; line++ {
				for char := -2; char <= len(text)+2; char++ {
					for _, m := range []string{"textDocument/hover", "textDocument/completion", "textDocument/definition"} {
						resp := c.call(m, at(uri, line, char))
						require.NotContains(t, resp, "error", "%s %s %d:%d", m, name, line, char)
					}
				}
			}
			for _, r := range [][4]int{{0, 0, 0, 0}, {5, 3, 0, 1}, {1 << 30, 1 << 30, 1 << 31, 0}, {-1, -1, -5, -5}, {0, 1, 0, 2}, {0, 1 << 30, 0, 0}} {
				c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
					"contentChanges": []any{map[string]any{"range": map[string]any{
						"start": map[string]any{"line": r[0], "character": r[1]},
						"end":   map[string]any{"line": r[2], "character": r[3]}}, "text": "{{😀"}}})
				assert.Contains(t, c.diagnostics(), `"uri":"`+uri+`"`, "%s %v", name, r)
			}
			alive(name)
		}
		c.shutdown()
	}()
	select {
	case <-finished:
	case <-time.After(3 * time.Minute):
		t.Fatal("the server stopped answering")
	}
}

// TestHostileFraming: a length that is not a number, negative, past the
// largest message the server reads, or a body shorter than its length at
// the end of the stream ends Serve with a framing error; it neither
// allocates the length nor waits for bytes that will not come.
func TestHostileFraming(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"huge", "Content-Length: 99999999999999999999999\r\n\r\n{}"},
		{"over the limit", "Content-Length: 67108865\r\n\r\n{}"},
		{"negative", "Content-Length: -5\r\n\r\n{}"},
		{"not a number", "Content-Length: 1e3\r\n\r\n{}"},
		{"no blank line", "Content-Length: 2\r\n{}"},
		{"short body", "Content-Length: 200\r\n\r\n{}"},
		{"length too small", "Content-Length: 3\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}"},
		{"header not utf-8", "Content-Length\xff: 2\r\n\r\n{}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := start(t)
			_, err := c.w.Write([]byte(tc.in))
			require.NoError(t, err)
			c.w.Close()
			go func() { // drain replies (a parse error) so that the server never blocks on them
				for {
					if _, err := c.r.read(); err != nil {
						return
					}
				}
			}()
			select {
			case err := <-c.done:
				if err != nil {
					assert.ErrorContains(t, err, "lsp: bad message framing")
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the server did not stop")
			}
		})
	}
}
