package cases_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine/cases"
)

// TestAddCase: AddCase saves a new case as SaveCase does, and refuses a
// name the file already holds, leaving the file as it was.
func TestAddCase(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bank.prompt"), []byte("{{input}}"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bank.formal.prompt"), []byte("Dear {{input}}"), 0o644))
	set := casesSet()
	tests := []struct {
		name, prompt, cased string
		err                 string
		is                  error
		file                string // the file after the call
	}{
		{name: "a new file", prompt: "bank.prompt", cased: "one",
			file: "template: bank.prompt\ncases:\n  - name: one\n    inputs:\n      input: x\n"},
		{name: "a second case", prompt: "bank.prompt", cased: "two",
			file: "template: bank.prompt\ncases:\n  - name: one\n    inputs:\n      input: x\n  - name: two\n    inputs:\n      input: x\n"},
		{name: "a name already there", prompt: "bank.prompt", cased: "one",
			err: `bank.cases.yaml: case "one": the cases file already has a case of this name`, is: cases.ErrExists,
			file: "template: bank.prompt\ncases:\n  - name: one\n    inputs:\n      input: x\n  - name: two\n    inputs:\n      input: x\n"},
		{name: "a variant's case of that name", prompt: "bank.formal.prompt", cased: "two",
			err: `bank.cases.yaml: case "two": the cases file already has a case of this name`, is: cases.ErrExists,
			file: "template: bank.prompt\ncases:\n  - name: one\n    inputs:\n      input: x\n  - name: two\n    inputs:\n      input: x\n"},
		{name: "no name", prompt: "bank.prompt", err: "a case needs a name",
			file: "template: bank.prompt\ncases:\n  - name: one\n    inputs:\n      input: x\n  - name: two\n    inputs:\n      input: x\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file, err := cases.Add(set, dir, tc.prompt, cases.Case{Name: tc.cased, Inputs: map[string]any{"input": "x"}})
			if tc.err != "" {
				assert.EqualError(t, err, tc.err)
				if tc.is != nil {
					assert.ErrorIs(t, err, tc.is)
				}
			} else {
				require.NoError(t, err)
				assert.Equal(t, filepath.Join(dir, "bank.cases.yaml"), file)
			}
			b, err := os.ReadFile(filepath.Join(dir, "bank.cases.yaml"))
			require.NoError(t, err)
			assert.Equal(t, tc.file, string(b))
		})
	}
	// SaveCase replaces it.
	_, err := cases.Save(set, dir, "bank.prompt", cases.Case{Name: "one", Inputs: map[string]any{"input": "z"}})
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(dir, "bank.cases.yaml"))
	require.NoError(t, err)
	assert.Equal(t, "template: bank.prompt\ncases:\n  - name: one\n    inputs:\n      input: z\n  - name: two\n    inputs:\n      input: x\n", string(b))
}

// TestSaveWritesInsideDir: CaseFile.Save, the one writer of cases files,
// refuses a path out of the directory, a directory reached through a
// link out of it, and a file that is a link (wherever it points); it
// writes nothing in each case.
func TestSaveWritesInsideDir(t *testing.T) {
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "x.cases.yaml"), []byte("kept\n"), 0o644))
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "in"), 0o755))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "out")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "x.cases.yaml"), filepath.Join(dir, "link.cases.yaml")))
	require.NoError(t, os.Symlink("in", filepath.Join(dir, "inlink")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "in", "y.cases.yaml"), []byte("kept\n"), 0o644))
	require.NoError(t, os.Symlink("y.cases.yaml", filepath.Join(dir, "in", "near.cases.yaml")))
	for _, tc := range []struct {
		name, path, err string
	}{
		{"dot dot", "../x.cases.yaml", "../x.cases.yaml: not a file under " + dir},
		{"absolute", "/x.cases.yaml", "/x.cases.yaml: not a file under " + dir},
		{"a directory linked out", "out/x.cases.yaml", "out/x.cases.yaml: its directory leads out of " + dir + " through a symbolic link"},
		{"a file linked out", "link.cases.yaml", "link.cases.yaml: a symbolic link; cases are written to regular files only"},
		{"a file linked in", "in/near.cases.yaml", "in/near.cases.yaml: a symbolic link; cases are written to regular files only"},
		{"a missing directory", "nowhere/x.cases.yaml", "lstat " + filepath.Join(dir, "nowhere") + ": no such file or directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := cases.New(tc.path, "x.prompt")
			_, err := f.Save(dir)
			assert.EqualError(t, err, tc.err)
		})
	}
	// A directory linked inside the directory is inside.
	file, err := cases.New("inlink/z.cases.yaml", "inlink/z.prompt").Save(dir)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "inlink", "z.cases.yaml"), file)
	b, err := os.ReadFile(filepath.Join(dir, "in", "z.cases.yaml"))
	require.NoError(t, err)
	assert.Equal(t, "template: z.prompt\ncases: []\n", string(b))

	for _, p := range []string{filepath.Join(outside, "x.cases.yaml"), filepath.Join(dir, "in", "y.cases.yaml")} {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, "kept\n", string(b))
	}
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Len(t, entries, 1)
	_, err = os.Lstat(filepath.Join(dir, "x.cases.yaml"))
	assert.True(t, errors.Is(err, os.ErrNotExist))
}

// TestAddCaseConcurrent: writers that add cases to one cases file at once
// each keep theirs; each read the file, added its case and wrote it back,
// so the last write lost the others' cases. (Run with -race.)
func TestAddCaseConcurrent(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bank.prompt"), []byte("{{input}}"), 0o644))
	set := casesSet()
	const writers, each = 2, 20
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				_, err := cases.Add(set, dir, "bank.prompt", cases.Case{Name: fmt.Sprintf("w%d-%d", w, i), Inputs: map[string]any{"input": "x"}})
				assert.NoError(t, err)
			}
		}()
	}
	wg.Wait()
	f, err := cases.Read(set, os.DirFS(dir), "bank.cases.yaml")
	require.NoError(t, err)
	assert.Len(t, f.Cases, writers*each)
}
