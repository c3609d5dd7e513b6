package jinja2

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocMapsEveryFile checks the map of the files in the package doc
// (doc.go) against the directory: every non-test Go file is on the map,
// and every file the map names exists. A new file goes on the map in its
// group.
func TestDocMapsEveryFile(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	require.NoError(t, err)
	named := map[string]bool{}
	for _, m := range regexp.MustCompile(`\b[a-z0-9_]+\.go\b`).FindAllString(string(doc), -1) {
		named[m] = true
	}
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	files := map[string]bool{}
	for _, e := range entries {
		n := e.Name()
		if strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			files[n] = true
			assert.True(t, named[n], "doc.go's map of the files does not name %s: add it to its group", n)
		}
	}
	for n := range named {
		assert.True(t, files[n], "doc.go's map names %s, which is not a file of the package", n)
	}
}
