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
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLSPDiagnosticsAreCheck opens every file of testdata/check/broken in
// `rolemark lsp`, driven over a pipe as an editor drives it, and requires
// its diagnostics to be `rolemark check`'s problems of that directory at the
// same places: LSP's 0-based line and UTF-16 character converted back to
// check's 1-based line and column in runes, with the same message. A
// problem of a partial the file includes is shown at the file's start,
// naming the partial's place, which must be one of check's lines too.
func TestLSPDiagnosticsAreCheck(t *testing.T) {
	const dir = "../../testdata/check/broken"
	var out, errOut bytes.Buffer
	require.Equal(t, 1, run(context.Background(), []string{"check", dir}, nil, &out, &errOut), errOut.String())
	want := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	sort.Strings(want)

	abs, err := filepath.Abs(dir)
	require.NoError(t, err)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		code := run(context.Background(), []string{"lsp"}, inR, outW, io.Discard)
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
	send("initialize", map[string]any{"processId": nil, "rootUri": uri(abs), "capabilities": map[string]any{}}, true)
	_, ok := br.next(t)["result"]
	require.True(t, ok)
	send("initialized", map[string]any{}, false)

	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	place := regexp.MustCompile(`^(\S+?):(\d+):(\d+): `)
	var got, fromPartials []string
	for _, e := range entries {
		text, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		send("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": uri(filepath.Join(abs, e.Name())), "languageId": "", "version": 1, "text": string(text)}}, false)
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
		for _, d := range p.Diagnostics {
			if place.MatchString(d.Message) {
				fromPartials = append(fromPartials, dir+"/"+d.Message)
				continue
			}
			lines := strings.Split(string(text), "\n")
			require.Less(t, d.Range.Start.Line, len(lines), "%s: %s", e.Name(), d.Message)
			col := runeCol(strings.TrimSuffix(lines[d.Range.Start.Line], "\r"), d.Range.Start.Character)
			got = append(got, fmt.Sprintf("%s/%s:%d:%d: %s", dir, e.Name(), d.Range.Start.Line+1, col, d.Message))
		}
		send("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri(filepath.Join(abs, e.Name()))}}, false)
		br.next(t) // the cleared diagnostics
	}
	sort.Strings(got)
	assert.Equal(t, want, got)
	for _, p := range fromPartials {
		assert.Contains(t, want, p, "a partial's problem is check's")
	}
	assert.NotEmpty(t, fromPartials)

	send("shutdown", nil, true)
	br.next(t)
	send("exit", nil, false)
	select {
	case code := <-done:
		assert.Equal(t, 0, code)
	case <-time.After(10 * time.Second):
		t.Fatal("rolemark lsp did not exit")
	}
}

// runeCol converts an LSP character offset (UTF-16 code units, from 0) on
// line to a 1-based column in runes.
func runeCol(line string, char int) int {
	col, n := 1, 0
	for _, r := range line {
		if n >= char {
			break
		}
		n += utf16.RuneLen(r)
		col++
	}
	return col
}

type lspReader struct{ r io.Reader }

func (l *lspReader) next(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	var header []byte
	b := make([]byte, 1)
	for !bytes.HasSuffix(header, []byte("\r\n\r\n")) {
		_, err := io.ReadFull(l.r, b)
		require.NoError(t, err)
		header = append(header, b[0])
	}
	var n int
	_, err := fmt.Sscanf(string(header), "Content-Length: %d\r\n", &n)
	require.NoError(t, err)
	body := make([]byte, n)
	_, err = io.ReadFull(l.r, body)
	require.NoError(t, err)
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(body, &m))
	return m
}
