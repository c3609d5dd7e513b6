package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/internal/lsp"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// client is an in-process LSP client: it frames messages as an editor
// does and collects the server's notifications.
type client struct {
	t      *testing.T
	w      io.WriteCloser
	r      *clientReader
	nextID int
	done   chan error
	notes  []json.RawMessage // publishDiagnostics params, in order
}

type clientReader struct{ r io.Reader }

func (c *clientReader) read() (map[string]json.RawMessage, error) {
	var header strings.Builder
	b := make([]byte, 1)
	for !strings.HasSuffix(header.String(), "\r\n\r\n") {
		if _, err := io.ReadFull(c.r, b); err != nil {
			return nil, err
		}
		header.WriteByte(b[0])
	}
	var n int
	if _, err := fmt.Sscanf(header.String(), "Content-Length: %d\r\n", &n); err != nil {
		return nil, err
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(c.r, body); err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	return m, json.Unmarshal(body, &m)
}

// start runs a server with rolemark's engines on a pipe.
func start(t *testing.T) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	funcs := map[string][]lsp.Func{
		"handlebars": {{Name: "role", Kind: "helper", Doc: "starts a message"}, {Name: "each", Kind: "helper"}},
		"jinja":      {{Name: "role", Kind: "function"}, {Name: "upper", Kind: "filter"}, {Name: "trim", Kind: "filter"}},
	}
	c := &client{t: t, w: inW, r: &clientReader{outR}, done: make(chan error, 1)}
	go func() {
		err := lsp.Serve(context.Background(), inR, outW, lsp.Options{Set: set, Funcs: funcs, Version: "test"})
		outW.Close()
		c.done <- err
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return c
}

func (c *client) send(m map[string]any) {
	m["jsonrpc"] = "2.0"
	body, err := json.Marshal(m)
	require.NoError(c.t, err)
	_, err = fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(body), body)
	require.NoError(c.t, err)
}

// call sends a request and returns its response, keeping the
// notifications that came before it.
func (c *client) call(method string, params any) map[string]json.RawMessage {
	c.nextID++
	c.send(map[string]any{"id": c.nextID, "method": method, "params": params})
	for {
		m, err := c.r.read()
		require.NoError(c.t, err)
		if _, ok := m["id"]; ok {
			assert.JSONEq(c.t, fmt.Sprint(c.nextID), string(m["id"]))
			return m
		}
		c.notes = append(c.notes, m["params"])
	}
}

func (c *client) notify(method string, params any) {
	c.send(map[string]any{"method": method, "params": params})
}

// diagnostics waits for the next publishDiagnostics and returns its params.
func (c *client) diagnostics() string {
	if len(c.notes) > 0 {
		n := c.notes[0]
		c.notes = c.notes[1:]
		return string(n)
	}
	m, err := c.r.read()
	require.NoError(c.t, err)
	require.JSONEq(c.t, `"textDocument/publishDiagnostics"`, string(m["method"]))
	return string(m["params"])
}

func fileURI(p string) string { return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String() }

func writeFiles(t *testing.T, files map[string]string) string {
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return dir
}

func (c *client) initialize(root string) {
	resp := c.call("initialize", map[string]any{"processId": nil, "rootUri": fileURI(root), "capabilities": map[string]any{}})
	assert.JSONEq(c.t, `{"capabilities":{"textDocumentSync":{"openClose":true,"change":1},"hoverProvider":true,`+
		`"completionProvider":{"triggerCharacters":[".",">","|","\"","'"]},"definitionProvider":true},`+
		`"serverInfo":{"name":"rolemark","version":"test"}}`, string(resp["result"]))
	c.notify("initialized", map[string]any{})
}

func (c *client) shutdown() {
	resp := c.call("shutdown", nil)
	assert.Equal(c.t, "null", string(resp["result"]))
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		assert.NoError(c.t, err)
	case <-time.After(10 * time.Second):
		c.t.Fatal("the server did not exit")
	}
}

const hbsFront = "---\ninput:\n  schema:\n    name: string, the customer's name\n    plan?(enum, the plan they pay for): [free, pro]\n    items(array): string\n---\n"

// TestDiagnosticsAsTyped opens a Handlebars prompt whose line holds
// non-ASCII text (two characters of UTF-16 for the emoji, one for é)
// before a misspelled variable: rolemark's column 23 (in runes, from 1) is
// LSP's character 23 (in UTF-16 code units, from 0), since the emoji is two
// code units. Then it fixes the mistake and closes the file.
func TestDiagnosticsAsTyped(t *testing.T) {
	dir := writeFiles(t, map[string]string{})
	c := start(t)
	c.initialize(dir)
	uri := fileURI(filepath.Join(dir, "greet.hbs"))
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "handlebars", "version": 1,
		"text": hbsFront + "{{role \"user\"}}Hé 😀 {{nmae}}\n"}})
	assert.JSONEq(t, `{"uri":"`+uri+`","version":1,"diagnostics":[{"range":{"start":{"line":7,"character":23},"end":{"line":7,"character":27}},`+
		`"severity":1,"source":"rolemark","message":"variable \"nmae\" is not declared in the input schema (declared: name, plan, items)"}]}`, c.diagnostics())

	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": hbsFront + "{{role \"user\"}}Hé 😀 {{name}}\n"}}})
	assert.JSONEq(t, `{"uri":"`+uri+`","version":2,"diagnostics":[]}`, c.diagnostics())

	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	assert.JSONEq(t, `{"uri":"`+uri+`","version":2,"diagnostics":[]}`, c.diagnostics())
	c.shutdown()
}

// TestLifecycle: requests before initialize are refused with LSP's code,
// unknown methods with JSON-RPC's, a notification nobody knows is ignored,
// and exit without shutdown ends Serve with ErrExitWithoutShutdown.
func TestLifecycle(t *testing.T) {
	c := start(t)
	resp := c.call("textDocument/hover", at("file:///x.hbs", 0, 0))
	assert.JSONEq(t, `{"code":-32002,"message":"the server is not initialized"}`, string(resp["error"]))
	c.initialize(t.TempDir())
	c.notify("$/cancelRequest", map[string]any{"id": 1})
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	resp = c.call("workspace/symbol", map[string]any{"query": ""})
	assert.JSONEq(t, `{"code":-32601,"message":"method \"workspace/symbol\" is not supported"}`, string(resp["error"]))
	resp = c.call("textDocument/hover", at("file:///not/open.hbs", 0, 0))
	assert.Equal(t, "null", string(resp["result"]), "a document that is not open has no hover")
	resp = c.call("initialize", map[string]any{})
	assert.JSONEq(t, `{"code":-32600,"message":"initialize was already sent"}`, string(resp["error"]))
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		assert.ErrorIs(t, err, lsp.ErrExitWithoutShutdown)
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not exit")
	}
}

// TestFraming: a body that is not JSON gets a parse error and the server
// goes on; a header without a length ends it.
func TestFraming(t *testing.T) {
	c := start(t)
	_, err := fmt.Fprintf(c.w, "Content-Length: 5\r\n\r\n{oops")
	require.NoError(t, err)
	m, err := c.r.read()
	require.NoError(t, err)
	assert.Equal(t, "null", string(m["id"]))
	assert.Contains(t, string(m["error"]), `"code":-32700`)
	c.initialize(t.TempDir())
	_, err = fmt.Fprintf(c.w, "Content-Type: x\r\n\r\n{}")
	require.NoError(t, err)
	select {
	case err := <-c.done:
		assert.ErrorContains(t, err, `lsp: bad message framing: Content-Length ""`)
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop")
	}
}

// TestPartialChangeRechecks: an unsaved change to a partial is what the
// templates that include it see, and they are checked again.
func TestPartialChangeRechecks(t *testing.T) {
	dir := writeFiles(t, map[string]string{"_p.hbs": "fine"})
	c := start(t)
	c.initialize(dir)
	uri, diags := c.open(dir, "main.hbs", "{{role \"user\"}}{{> p}}\n")
	assert.JSONEq(t, `{"uri":"`+uri+`","version":1,"diagnostics":[]}`, diags)
	puri, diags := c.open(dir, "_p.hbs", "{{#if}}x{{/if}}\n")
	assert.JSONEq(t, `{"uri":"`+puri+`","version":1,"diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"severity":1,"source":"rolemark","message":"#if takes 1 argument(s), found 0"}]}`, diags)
	assert.JSONEq(t, `{"uri":"`+uri+`","version":1,"diagnostics":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"severity":1,"source":"rolemark","message":"_p.hbs:1:1: #if takes 1 argument(s), found 0"}]}`, c.diagnostics())
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": puri}})
	assert.JSONEq(t, `{"uri":"`+puri+`","version":1,"diagnostics":[]}`, c.diagnostics())
	assert.JSONEq(t, `{"uri":"`+uri+`","version":1,"diagnostics":[]}`, c.diagnostics(), "the file on disk is fine")
	c.shutdown()
}

// TestErrorCodes: each malformed message gets the JSON-RPC 2.0 error code
// the specification gives it: -32700 only for a body that is not JSON,
// -32600 for JSON that is not a request (an array, a method that is not a
// string), with the request's id when the id itself is readable; their
// messages are prose, not encoding/json's, which named lsp.message.
func TestErrorCodes(t *testing.T) {
	c := start(t)
	c.initialize(t.TempDir())
	for _, tc := range []struct{ body, id, code string }{
		{`{"jsonrpc":"2.0","id":1,"method":`, "null", "-32700"},
		{"\xff", "null", "-32700"},
		{`[1,2]`, "null", "-32600"},
		{`"shutdown"`, "null", "-32600"},
		{`{"jsonrpc":"2.0","id":7,"method":5}`, "7", "-32600"},
		{`{"jsonrpc":"2.0","id":"x","method":"textDocument/hover","params":{"position":"here"}}`, `"x"`, "-32602"},
		{`{"jsonrpc":"2.0","id":8,"method":"nosuch/method"}`, "8", "-32601"},
	} {
		_, err := fmt.Fprintf(c.w, "Content-Length: %d\r\n\r\n%s", len(tc.body), tc.body)
		require.NoError(t, err)
		m, err := c.r.read()
		require.NoError(t, err)
		assert.JSONEq(t, tc.id, string(m["id"]), "id of the reply to %q", tc.body)
		var e struct{ Code json.RawMessage }
		require.NoError(t, json.Unmarshal(m["error"], &e), "reply to %q", tc.body)
		assert.Equal(t, tc.code, string(e.Code), "code of the reply to %q", tc.body)
		// the messages name the client's fields, not the server's Go types
		assert.NotContains(t, string(m["error"]), "Go ", "message of the reply to %q", tc.body)
		if tc.code == "-32602" {
			assert.Contains(t, string(m["error"]), "params: position cannot be a JSON string")
		}
	}
	c.shutdown()
}
