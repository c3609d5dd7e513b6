package engine_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/gotmpl"
	"github.com/rolemark/rolemark/handlebars"
	"github.com/rolemark/rolemark/jinja"
	"github.com/rolemark/rolemark/pongo2"
)

// TestPartialFileFirst: when both _x and x exist, every engine takes the
// partial file _x (issue 11, defect 2: text/template took x.tmpl, the
// prompt, and Jinja's include "x.j2" took x.j2).
func TestPartialFileFirst(t *testing.T) {
	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	tests := []struct{ file, src string }{
		{"main.hbs", `{{#system}}{{> x}}{{/system}}`},
		{"main.j2", `{% system %}{% include "x.j2" %}{% endsystem %}`},
		{"main.pongo2", `{% system %}{% include "x.pongo2" %}{% endsystem %}`},
		{"main.tmpl", `{{role "system"}}{{template "x" .}}`},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			ext := path.Ext(tc.file)
			fsys := fstest.MapFS{
				"prompts/" + tc.file: {Data: []byte(tc.src)},
				"prompts/x" + ext:    {Data: []byte("the prompt")},
				"prompts/_x" + ext:   {Data: []byte("the partial")},
			}
			tpl, err := set.ParseFS(fsys, "prompts/"+tc.file)
			require.NoError(t, err)
			msgs, err := tpl.Messages(context.Background(), nil)
			require.NoError(t, err)
			assert.Equal(t, []chat.Message{chat.Text(chat.RoleSystem, "the partial")}, msgs)
		})
	}
}

// recordFS records every file it opens.
type recordFS struct {
	fsys   fs.FS
	mu     sync.Mutex
	opened []string
}

func (r *recordFS) Open(name string) (fs.File, error) {
	r.mu.Lock()
	r.opened = append(r.opened, name)
	r.mu.Unlock()
	return r.fsys.Open(name)
}

// Lstat passes os.DirFS's Lstat through: it reads no file.
func (r *recordFS) Lstat(name string) (fs.FileInfo, error) {
	if l, ok := r.fsys.(interface {
		Lstat(string) (fs.FileInfo, error)
	}); ok {
		return l.Lstat(name)
	}
	return nil, errors.ErrUnsupported
}

// TestNoFileOutsideThePromptDirectory: no engine reads a file outside the
// prompt directory through any partial, include, import, extends or
// template name: names with .., absolute names, and symbolic links in an
// os.DirFS that point outside (to a file, to a directory, relative or
// absolute) are all refused, before the file is opened.
func TestNoFileOutsideThePromptDirectory(t *testing.T) {
	tmp := t.TempDir()
	secretDir := filepath.Join(tmp, "secret")
	prompts := filepath.Join(tmp, "prompts")
	require.NoError(t, os.MkdirAll(secretDir, 0o755))
	require.NoError(t, os.MkdirAll(prompts, 0o755))
	for _, ext := range []string{".hbs", ".j2", ".pongo2", ".tmpl"} {
		for _, f := range []string{filepath.Join(secretDir, "_s"+ext), filepath.Join(secretDir, "s"+ext), filepath.Join(tmp, "_up"+ext), filepath.Join(tmp, "up"+ext)} {
			require.NoError(t, os.WriteFile(f, []byte("SECRET"), 0o644))
		}
		require.NoError(t, os.Symlink(filepath.Join("..", "secret", "_s"+ext), filepath.Join(prompts, "_rel"+ext)))
		require.NoError(t, os.Symlink(filepath.Join(secretDir, "_s"+ext), filepath.Join(prompts, "_abs"+ext)))
	}
	require.NoError(t, os.Symlink(filepath.Join("..", "secret"), filepath.Join(prompts, "reldir")))
	require.NoError(t, os.Symlink(secretDir, filepath.Join(prompts, "absdir")))
	absSecret := strings.TrimPrefix(filepath.ToSlash(secretDir), "/")

	// Every name, for an engine whose extension is ext, that points
	// outside prompts/.
	names := func(ext string, withExt bool) []string {
		e := ""
		if withExt {
			e = ext
		}
		return []string{
			"../up" + e, "../secret/_s" + e, "../../" + absSecret + "/_s" + e, // ..
			"/" + absSecret + "/_s" + e,                      // absolute
			"rel" + e, "abs" + e, "_rel" + ext, "_abs" + ext, // links to files
			"reldir/_s" + e, "absdir/_s" + e, "reldir/s" + e, // links to directories
		}
	}
	var cases []struct{ file, src string }
	add := func(file, src string) { cases = append(cases, struct{ file, src string }{file, src}) }
	for _, n := range names(".hbs", false) {
		add("t.hbs", fmt.Sprintf(`{{#system}}{{> %s}}{{/system}}`, n))
	}
	for _, n := range names(".tmpl", false) {
		add("t.tmpl", fmt.Sprintf(`{{role "system"}}{{template %q .}}`, n))
	}
	for _, ext := range []string{".j2", ".pongo2"} {
		as := " "
		if ext == ".j2" {
			as = " as " // Jinja2's import names its target with as
		}
		for _, n := range names(ext, true) {
			add("t"+ext, fmt.Sprintf(`{%% system %%}{%% include %q %%}{%% endsystem %%}`, n))
			add("t"+ext, fmt.Sprintf(`{%% import %q`+as+`s %%}{%% system %%}x{%% endsystem %%}`, n))
			add("t"+ext, fmt.Sprintf(`{%% extends %q %%}`, n))
		}
	}

	set := engine.NewSet(handlebars.New(), jinja.New(), pongo2.New(), gotmpl.New())
	for i, tc := range cases {
		t.Run(fmt.Sprintf("%d %s", i, tc.src), func(t *testing.T) {
			dir := filepath.Join(prompts, fmt.Sprint(i))
			require.NoError(t, os.MkdirAll(dir, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.src), 0o644))
			rec := &recordFS{fsys: os.DirFS(tmp)}
			// The template sits in prompts/N/, the prompt directory is
			// prompts/: partials may come from both, and from nowhere else.
			_, err := set.ParseFS(rec, "prompts/"+fmt.Sprint(i)+"/"+tc.file, engine.PartialRoot("prompts"))
			require.Error(t, err)
			assert.NotContains(t, err.Error(), "SECRET")
			var pe *driver.PartialError
			if tc.file != "t.hbs" || !strings.Contains(err.Error(), "expected a name") { // Handlebars' grammar refuses some names itself
				require.ErrorAs(t, err, &pe, err.Error())
			}
			assert.False(t, errors.Is(err, fs.ErrNotExist), "refused, not missing: %v", err)
			assert.Equal(t, []string{"prompts/" + fmt.Sprint(i) + "/" + tc.file}, rec.opened, "only the template itself is opened")
		})
	}
	assert.Len(t, cases, 8*len(names("", false)), "one name each in handlebars and text/template, three in jinja and pongo2")

	// LoadDir refuses a template that is a symbolic link.
	_, err := set.LoadDir(os.DirFS(tmp), "prompts")
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "SECRET")
	assert.Contains(t, err.Error(), "prompts/_abs.hbs: a symbolic link; a prompt directory holds regular files only")
}
