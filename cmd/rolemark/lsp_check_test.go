package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
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
	place := regexp.MustCompile(`^(\S+?):(\d+):(\d+): `)
	var got, fromPartials []string
	for file, problems := range lspProblems(t, abs) {
		for _, p := range problems {
			// "LINE:COL: message"; a partial's problem is at 1:1
			msg := strings.SplitN(p, ": ", 2)[1]
			if place.MatchString(msg) {
				fromPartials = append(fromPartials, dir+"/"+msg)
				continue
			}
			got = append(got, dir+"/"+file+":"+p)
		}
	}
	sort.Strings(got)
	assert.Equal(t, want, got)
	for _, p := range fromPartials {
		assert.Contains(t, want, p, "a partial's problem is check's")
	}
	assert.NotEmpty(t, fromPartials)
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

// TestLSPTools: rolemark lsp --tools registers the tools front matter may
// name, as check --tools does; without it a named tool is the front
// matter's error.
func TestLSPTools(t *testing.T) {
	dir, tools := namedToolDir(t)
	assert.Equal(t, []string{`3:9: front matter: unknown tool "get_weather": no tools are registered (engine.Tools; rolemark --tools FILE)`},
		lspProblems(t, dir)["w.hbs"])
	assert.Empty(t, lspProblems(t, dir, "--tools", tools)["w.hbs"])
}
