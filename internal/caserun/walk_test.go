package caserun

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSkipDir(t *testing.T) {
	for _, tc := range []struct {
		name string
		skip bool
	}{
		{".git", true},
		{".venv", true},
		{"node_modules", true},
		{"node_modules2", false},
		{"modules", false},
		{"prompts", false},
		{"Node_Modules", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.skip, SkipDir(tc.name))
		})
	}
}

// TestFiles: the cases files rolemark test runs and the studio page lists,
// in the walk's order, none under a skipped directory at any depth.
func TestFiles(t *testing.T) {
	file := &fstest.MapFile{Data: []byte("cases: []\n")}
	fsys := fstest.MapFS{
		"a.cases.yaml":                          file,
		"a/x.cases.yaml":                        file,
		"a/node_modules/pkg/y.cases.yaml":       file,
		"node_modules/z.cases.yaml":             file,
		".git/w.cases.yaml":                     file,
		"b/.cache/v.cases.yaml":                 file,
		"node_modules2/u.cases.yaml":            file,
		"b/prompt.hbs":                          file,
		"b/prompt.cases.yaml.orig":              file,
		".hidden.cases.yaml":                    file, // a file, not a directory: kept
		"b/deep/er/t.cases.yaml":                file,
		"b/deep/node_modules/er/t.cases.yaml":   file,
		"b/deep/.node_modules/er/t.cases.yaml":  file,
		"b/deep/node_modules.cases.yaml":        file,
		"b/deep/node_modules.d/er/t.cases.yaml": file,
	}
	got, err := Files(fsys)
	require.NoError(t, err)
	assert.Equal(t, []string{".hidden.cases.yaml", "a/x.cases.yaml", "a.cases.yaml", "b/deep/er/t.cases.yaml",
		"b/deep/node_modules.cases.yaml", "b/deep/node_modules.d/er/t.cases.yaml", "node_modules2/u.cases.yaml"}, got)

	var walked []string
	require.NoError(t, Walk(fsys, func(p string, d fs.DirEntry, err error) error {
		require.NoError(t, err)
		require.False(t, d.IsDir(), p)
		walked = append(walked, p)
		return nil
	}))
	assert.Len(t, walked, 9)
}
