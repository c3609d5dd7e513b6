package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runTest runs rolemark with args and returns its exit status, standard
// output and standard error.
func runTest(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// golden compares got with the file testdata/cases/NAME.golden.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenFile(t, filepath.Join("testdata", "cases", name+".golden"), got)
}

// goldenFile compares got with the file at path, which go test -update
// rewrites.
func goldenFile(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), got)
}

// TestTestCommand runs rolemark test on directories of cases that pass,
// that differ, and that cannot be loaded, and checks the output against
// golden files and the exit statuses.
func TestTestCommand(t *testing.T) {
	const tools = "testdata/cases/tools.json"
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"pass", []string{"test", "--tools", tools, "testdata/cases/pass"}, 0},
		{"fail", []string{"test", "--tools", tools, "testdata/cases/fail"}, 1},
		{"bad", []string{"test", "testdata/cases/bad"}, 2},
		// Without --tools, bank.prompt's tools: [get_balance] is unknown.
		{"fail-no-tools", []string{"test", "testdata/cases/fail"}, 2},
		{"pass-and-fail", []string{"test", "--tools", tools, "testdata/cases/pass", "testdata/cases/fail"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runTest(t, tc.args...)
			assert.Equal(t, tc.code, code)
			got := out
			if errOut != "" {
				got += "-- stderr --\n" + errOut
			}
			golden(t, "test-"+tc.name, got)
		})
	}
}

// TestTestUpdate runs rolemark test --update on a copy of the failing
// directory: it records the two cases that differ, keeps the rest of the
// file as written (comments included), and the next run passes.
func TestTestUpdate(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"bank.prompt", "bank.cases.yaml"} {
		b, err := os.ReadFile(filepath.Join("testdata", "cases", "fail", f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
	}
	code, out, errOut := runTest(t, "test", "--update", "--tools", "testdata/cases/tools.json", dir)
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "recorded "+filepath.Join(dir, "bank.cases.yaml")+": the greeting changed\n"+
		"recorded "+filepath.Join(dir, "bank.cases.yaml")+": not recorded yet\n"+
		"ok\t3 cases in 1 files; recorded 2\n", out)
	b, err := os.ReadFile(filepath.Join(dir, "bank.cases.yaml"))
	require.NoError(t, err)
	golden(t, "fail-updated.cases.yaml", string(b))

	code, out, errOut = runTest(t, "test", "--tools", "testdata/cases/tools.json", dir)
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "ok\t3 cases in 1 files\n", out)
}

// TestTestExamples runs the cases committed beside the prompts of examples/.
func TestTestExamples(t *testing.T) {
	code, out, errOut := runTest(t, "test", "../../examples")
	assert.Equal(t, 0, code, out+errOut)
	assert.Equal(t, "ok\t9 cases in 3 files\n", out)
	assert.Empty(t, errOut)
}

func TestTestUsage(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no directory", []string{"test"}, "rolemark test: test takes one or more directories\n"},
		{"a file", []string{"test", "testdata/cases/tools.json"}, "rolemark test: testdata/cases/tools.json is not a directory\n"},
		{"missing", []string{"test", "testdata/cases/none"}, "rolemark test: testdata/cases/none is not a directory\n"},
		{"bad flag", []string{"test", "--updat", "testdata/cases/pass"}, "rolemark test: flag provided but not defined: -updat\n"},
		{"bad tools", []string{"test", "--tools", "testdata/cases/none.json", "testdata/cases/pass"}, "rolemark test: --tools: open testdata/cases/none.json: no such file or directory\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runTest(t, tc.args...)
			assert.Equal(t, 2, code)
			assert.Empty(t, out)
			assert.True(t, strings.HasPrefix(errOut, tc.wantErr), errOut)
		})
	}
}

// TestTestHFFormatPath: a case's format hf:FILE named its chat template
// relative to the directory rolemark test ran in, so that a case passed
// from one directory and failed from another, and it read any file of the
// machine (hf:/etc/passwd printed it in the diff), where the case's
// template is confined to DIR. FILE is relative to the cases file and
// inside DIR, like the template.
func TestTestHFFormatPath(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	write("sub/p.hbs", `<message role="user">{{q}}</message>`)
	write("chat.jinja", `{% for m in messages %}[{{ m.role }}] {{ m.content }}{% endfor %}`)
	write("sub/p.cases.yaml", "template: p.hbs\ncases:\n  - name: hf\n    format: hf:../chat.jinja\n    inputs: {q: hi}\n    prompt: '[user] hi'\n")
	code, out, errOut := runTest(t, "test", dir)
	assert.Equal(t, 0, code, "%s%s", out, errOut)

	for _, name := range []string{"/etc/passwd", "../../etc/passwd"} {
		write("sub/p.cases.yaml", "template: p.hbs\ncases:\n  - name: hf\n    format: hf:"+name+"\n    inputs: {q: hi}\n    prompt: x\n")
		code, out, errOut = runTest(t, "test", dir)
		assert.Equal(t, 2, code, "%s%s", out, errOut)
		assert.NotContains(t, out, "root:")
		assert.Contains(t, errOut, `case "hf": format hf:`+name+`: the chat template must be a file under `+dir)
	}
}

// TestTestUpdateWritesAsSaveCase: --update writes with cases.File.Save, the
// writer the studio's Save as case uses: a cases file that is a symbolic
// link is refused and left as it is (and the file it points to), a
// regular file keeps its permissions.
func TestTestUpdateWritesAsSaveCase(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "cases", "fail", "bank.cases.yaml"))
	require.NoError(t, err)
	prompt, err := os.ReadFile(filepath.Join("testdata", "cases", "fail", "bank.prompt"))
	require.NoError(t, err)
	outside := filepath.Join(t.TempDir(), "bank.cases.yaml")
	require.NoError(t, os.WriteFile(outside, src, 0o644))
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bank.prompt"), prompt, 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "bank.cases.yaml")))
	code, out, errOut := runTest(t, "test", "--update", "--tools", "testdata/cases/tools.json", dir)
	assert.Equal(t, 2, code)
	assert.Equal(t, filepath.Join(dir, "bank.cases.yaml")+": a symbolic link; cases are written to regular files only\n", errOut)
	// Nothing was written, so nothing is said to be recorded.
	assert.NotContains(t, out, "recorded")
	b, err := os.ReadFile(outside)
	require.NoError(t, err)
	assert.Equal(t, string(src), string(b))
	info, err := os.Lstat(filepath.Join(dir, "bank.cases.yaml"))
	require.NoError(t, err)
	assert.NotZero(t, info.Mode()&os.ModeSymlink)

	require.NoError(t, os.Remove(filepath.Join(dir, "bank.cases.yaml")))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bank.cases.yaml"), src, 0o600))
	code, _, errOut = runTest(t, "test", "--update", "--tools", "testdata/cases/tools.json", dir)
	assert.Equal(t, 0, code, errOut)
	info, err = os.Stat(filepath.Join(dir, "bank.cases.yaml"))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "a temporary file is left")
}
