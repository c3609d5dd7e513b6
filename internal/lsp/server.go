// Package lsp is rolemark's language server: it speaks the Language Server
// Protocol over a pair of streams (the editor's pipes to `rolemark lsp`) and
// shows, in the editor, what `rolemark check` reports as the author types,
// the declared type and description of an input under the cursor, the
// names that can be written at the cursor (declared inputs, partials, the
// engine's helpers, filters and functions), and the file of a partial.
//
// It is written for the editors' built-in clients and generic client
// extensions: full-text document sync, positions in UTF-16 code units,
// diagnostics pushed with textDocument/publishDiagnostics.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/textpos"
)

// Func is a name an engine provides to templates: a helper, a function or
// a filter, offered by completion.
type Func struct {
	Name string
	// Kind is "helper", "function" or "filter". Filters are offered after a
	// pipe (|), the others elsewhere.
	Kind string
	// Doc is a one-line description; may be empty.
	Doc string
}

// Options configure a Server.
type Options struct {
	// Set holds the engines prompt files are parsed with; its file
	// extensions decide which engine a document is written in.
	Set *engine.Set
	// Funcs lists, by engine name, what the engine provides to templates.
	Funcs map[string][]Func
	// Version is reported to the client as the server's version.
	Version string
	// CheckTimeout bounds the check of one document (default 10 s): a
	// template that renders forever is reported, not waited for.
	CheckTimeout time.Duration
}

// Server is a language server for one client connection.
type Server struct {
	opt  Options
	conn *conn
	// root is the workspace folder the client named: partials are looked
	// for up to it, as `rolemark check DIR` looks up to DIR.
	root        string
	initialized bool
	shutdown    bool
	docs        map[string]*document
}

// document is an open text document.
type document struct {
	uri     string
	version int
	text    string
	// file is the document's absolute file path ("" for a URI that is not
	// a file).
	file string
	// analysis is what the last check of text found.
	analysis *analysis
}

// ErrExitWithoutShutdown is what Serve returns when the client sends exit
// before shutdown; LSP asks the server to exit with status 1 then.
var ErrExitWithoutShutdown = errors.New("lsp: exit without shutdown")

// Serve runs the server until the client sends exit, closes in, or ctx is
// done. It reads messages from in and writes to out.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opt Options) error {
	if opt.CheckTimeout <= 0 {
		opt.CheckTimeout = 10 * time.Second
	}
	s := &Server{opt: opt, conn: newConn(in, out), docs: map[string]*document{}}
	type read struct {
		body []byte
		err  error
	}
	msgs := make(chan read)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			body, err := s.conn.read()
			select {
			case msgs <- read{body, err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	for {
		var r read
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		case r = <-msgs:
		}
		if errors.Is(r.err, io.EOF) {
			return nil
		}
		if r.err != nil {
			return r.err
		}
		done, err := s.handle(ctx, r.body)
		if done || err != nil {
			return err
		}
	}
}

// handle handles one message; done reports the exit notification.
func (s *Server) handle(ctx context.Context, body []byte) (done bool, err error) {
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		if !json.Valid(body) {
			return false, s.conn.write(&message{ID: json.RawMessage("null"), Error: &respError{codeParseError, err.Error()}})
		}
		// JSON, but not a message (an array, a method that is not a
		// string): an invalid request, answered with its id if it has
		// a readable one.
		var idOnly struct {
			ID json.RawMessage `json:"id"`
		}
		id := json.RawMessage("null")
		if json.Unmarshal(body, &idOnly) == nil && validID(idOnly.ID) {
			id = idOnly.ID
		}
		// (encoding/json's error names the server's Go types)
		return false, s.conn.write(&message{ID: id, Error: &respError{codeInvalidRequest, "a message is a JSON object whose method, if any, is a string"}})
	}
	isRequest := len(m.ID) > 0 && string(m.ID) != "null"
	if isRequest && !validID(m.ID) {
		// JSON-RPC: an id is a string, a number or null; the reply to
		// any other cannot name it.
		return false, s.conn.write(&message{ID: json.RawMessage("null"), Error: &respError{codeInvalidRequest, "the id of a request is a string or a number"}})
	}
	if m.Method == "" {
		if m.Result != nil || m.Error != nil {
			return false, nil // a response to a request the server never sends
		}
		// neither a request, a notification nor a response ({}, null)
		id := m.ID
		if !isRequest {
			id = json.RawMessage("null")
		}
		return false, s.conn.write(&message{ID: id, Error: &respError{codeInvalidRequest, "a message needs a method, or a result or error"}})
	}
	if m.Method == "exit" {
		if !s.shutdown {
			return true, ErrExitWithoutShutdown
		}
		return true, nil
	}
	if !isRequest {
		s.notify(ctx, m.Method, m.Params)
		return false, nil
	}
	result, rerr := s.request(ctx, m.Method, m.Params)
	reply := &message{ID: m.ID, Error: rerr}
	if rerr == nil {
		b, err := json.Marshal(result)
		if err != nil {
			return false, err
		}
		reply.Result = b
	}
	return false, s.conn.write(reply)
}

// validID reports whether id, a JSON value, is a string or a number.
func validID(id json.RawMessage) bool {
	return len(id) > 0 && (id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9')
}

// request answers a request.
func (s *Server) request(ctx context.Context, method string, params json.RawMessage) (any, *respError) {
	if method == "initialize" {
		return s.initialize(params)
	}
	if !s.initialized {
		return nil, &respError{codeServerNotInitialized, "the server is not initialized"}
	}
	if s.shutdown {
		return nil, &respError{codeInvalidRequest, "the server is shut down"}
	}
	switch method {
	case "shutdown":
		s.shutdown = true
		return nil, nil
	case "textDocument/hover":
		var p positionParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, paramsError(err)
		}
		return s.hover(ctx, p), nil
	case "textDocument/completion":
		var p positionParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, paramsError(err)
		}
		return s.completion(ctx, p), nil
	case "textDocument/definition":
		var p positionParams
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, paramsError(err)
		}
		return s.definition(ctx, p), nil
	}
	return nil, &respError{codeMethodNotFound, fmt.Sprintf("method %q is not supported", method)}
}

// paramsError is the -32602 reply to params that do not decode: a field
// of the wrong JSON type is named by its path in the params, as the
// client wrote it (encoding/json's message names the server's Go types).
func paramsError(err error) *respError {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		return &respError{codeInvalidParams, fmt.Sprintf("params: %s cannot be a JSON %s", te.Field, te.Value)}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &respError{codeInvalidParams, "params: " + err.Error()}
	}
	return &respError{codeInvalidParams, "params: not the object this method takes"}
}

type initializeParams struct {
	RootURI          string `json:"rootUri"`
	RootPath         string `json:"rootPath"`
	WorkspaceFolders []struct {
		URI string `json:"uri"`
	} `json:"workspaceFolders"`
}

func (s *Server) initialize(params json.RawMessage) (any, *respError) {
	if s.initialized {
		return nil, &respError{codeInvalidRequest, "initialize was already sent"}
	}
	var p initializeParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, paramsError(err)
	}
	switch {
	case len(p.WorkspaceFolders) > 0:
		s.root = uriToPath(p.WorkspaceFolders[0].URI)
	case p.RootURI != "":
		s.root = uriToPath(p.RootURI)
	case p.RootPath != "":
		s.root = filepath.Clean(p.RootPath)
	}
	s.initialized = true
	version := s.opt.Version
	if version == "" {
		version = "(devel)"
	}
	return map[string]any{
		"capabilities": map[string]any{
			// Full text on every change: prompt files are small.
			"textDocumentSync": map[string]any{"openClose": true, "change": 1},
			"hoverProvider":    true,
			"completionProvider": map[string]any{
				"triggerCharacters": []string{".", ">", "|", "\"", "'"},
			},
			"definitionProvider": true,
		},
		"serverInfo": map[string]any{"name": "rolemark", "version": version},
	}, nil
}

type textDocumentItem struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
	Text    string `json:"text"`
}

type positionParams struct {
	TextDocument struct {
		URI string `json:"uri"`
	} `json:"textDocument"`
	Position position `json:"position"`
}

// notify handles a notification. Unknown ones, and malformed ones, are
// ignored, as LSP asks.
func (s *Server) notify(ctx context.Context, method string, params json.RawMessage) {
	if !s.initialized || s.shutdown {
		return
	}
	switch method {
	case "textDocument/didOpen":
		var p struct {
			TextDocument textDocumentItem `json:"textDocument"`
		}
		if json.Unmarshal(params, &p) != nil {
			return
		}
		d := &document{uri: p.TextDocument.URI, version: p.TextDocument.Version, text: p.TextDocument.Text, file: uriToPath(p.TextDocument.URI)}
		s.docs[d.uri] = d
		s.changed(ctx, d)
	case "textDocument/didChange":
		var p struct {
			TextDocument struct {
				URI     string `json:"uri"`
				Version int    `json:"version"`
			} `json:"textDocument"`
			ContentChanges []struct {
				Range *lspRange `json:"range"`
				Text  string    `json:"text"`
			} `json:"contentChanges"`
		}
		if json.Unmarshal(params, &p) != nil {
			return
		}
		d := s.docs[p.TextDocument.URI]
		if d == nil {
			return
		}
		for _, c := range p.ContentChanges {
			if c.Range == nil {
				d.text = c.Text
			} else {
				d.text = applyEdit(d.text, *c.Range, c.Text)
			}
		}
		d.version = p.TextDocument.Version
		s.changed(ctx, d)
	case "textDocument/didClose":
		var p positionParams
		if json.Unmarshal(params, &p) != nil {
			return
		}
		d := s.docs[p.TextDocument.URI]
		if d == nil {
			return
		}
		delete(s.docs, d.uri)
		s.publish(d, []diagnostic{})
		if driver.IsPartialFile(d.file) {
			s.recheckOthers(ctx, d) // back to the file on disk
		}
	}
}

// changed checks d and publishes its diagnostics; a change to a partial
// rechecks every other open document, which may include it.
func (s *Server) changed(ctx context.Context, d *document) {
	s.publish(d, s.diagnostics(ctx, d))
	if driver.IsPartialFile(d.file) {
		s.recheckOthers(ctx, d)
	}
}

func (s *Server) recheckOthers(ctx context.Context, d *document) {
	var uris []string
	for u := range s.docs {
		if u != d.uri {
			uris = append(uris, u)
		}
	}
	slices.Sort(uris)
	for _, u := range uris {
		o := s.docs[u]
		s.publish(o, s.diagnostics(ctx, o))
	}
}

func (s *Server) publish(d *document, diags []diagnostic) {
	params, _ := json.Marshal(map[string]any{"uri": d.uri, "version": d.version, "diagnostics": diags})
	_ = s.conn.write(&message{Method: "textDocument/publishDiagnostics", Params: params})
}

// applyEdit replaces the range r of text with repl (incremental sync, which
// the server does not ask for but accepts).
func applyEdit(text string, r lspRange, repl string) string {
	start, end := offsetOf(text, r.Start), offsetOf(text, r.End)
	if end < start {
		start, end = end, start
	}
	return text[:start] + repl + text[end:]
}

// offsetOf converts an LSP position to a byte offset in text.
func offsetOf(text string, p position) int {
	off := 0
	for i := 0; i < p.Line; i++ {
		_, next, ok := textpos.LineBreak(text[off:])
		if !ok {
			return len(text)
		}
		off += next
	}
	line, _ := lineText(text[off:], 0)
	return off + byteOffset(line, p.Character)
}

// uriToPath returns the file path of a file: URI, "" for any other.
func uriToPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	p := u.Path
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // file:///C:/x on Windows
	}
	return filepath.Clean(filepath.FromSlash(p))
}

// pathToURI returns the file: URI of an absolute path.
func pathToURI(p string) string {
	p = filepath.ToSlash(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// isPartialFile reports whether a file is a partial (_NAME.*).

// place returns the directory whose files the document's template sees
// (the workspace folder when the document is in it, else the document's
// own directory) and the document's slash-separated name below it.
func (s *Server) place(d *document) (dir, name string) {
	if d.file == "" {
		return "", ""
	}
	if s.root != "" {
		if rel, err := filepath.Rel(s.root, d.file); err == nil && filepath.IsLocal(rel) {
			return s.root, filepath.ToSlash(rel)
		}
	}
	return filepath.Dir(d.file), filepath.Base(d.file)
}

// overlayFS reads the open documents' text in place of their files.
func (s *Server) overlayFS(dir string) *overlay {
	o := &overlay{base: os.DirFS(dir), files: map[string]string{}}
	for _, d := range s.docs {
		if d.file == "" {
			continue
		}
		if rel, err := filepath.Rel(dir, d.file); err == nil && filepath.IsLocal(rel) {
			o.files[path.Clean(filepath.ToSlash(rel))] = d.text
		}
	}
	return o
}
