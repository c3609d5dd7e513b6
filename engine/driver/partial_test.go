package driver_test

import (
	"embed"
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rolemark/rolemark/engine/driver"
)

// brokenFS fails to open one file with a permission error.
type brokenFS struct {
	fstest.MapFS
	bad string
}

func (b brokenFS) Open(name string) (fs.File, error) {
	if name == b.bad {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return b.MapFS.Open(name)
}

func (b brokenFS) ReadFile(name string) ([]byte, error) {
	if name == b.bad {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return b.MapFS.ReadFile(name)
}

func TestReadPartial(t *testing.T) {
	fsys := fstest.MapFS{
		"p/sub/x.hbs":     {Data: []byte("sub x")},
		"p/_x.hbs":        {Data: []byte("root _x")},
		"p/x.hbs":         {Data: []byte("root x")},
		"p/_y.prompt":     {Data: []byte("root _y.prompt")},
		"p/sub/y.hbs":     {Data: []byte("sub y")},
		"p/parts/_z.hbs":  {Data: []byte("parts z")},
		"p/z.txt":         {Data: []byte("z.txt")},
		"p/_dir.hbs/file": {Data: []byte("a directory named like a partial")},
		"p/link.hbs":      {Data: []byte("_x.hbs"), Mode: fs.ModeSymlink},
		"p/ldir":          {Data: []byte("parts"), Mode: fs.ModeSymlink},
		"up.hbs":          {Data: []byte("above the root")},
	}
	cfg := driver.Config{FS: fsys, Dir: "p/sub", Root: "p"}
	bad := `a partial name is a relative slash-separated path without "." or ".." elements`
	tests := []struct {
		name     string
		cfg      driver.Config
		partial  string
		exts     []string
		file     string // found, or
		err      string
		notExist bool
	}{
		{name: "nearest directory first", cfg: cfg, partial: "x", exts: []string{".hbs"}, file: "p/sub/x.hbs"},
		{name: "partial file first", cfg: driver.Config{FS: fsys, Dir: "p"}, partial: "x", exts: []string{".hbs"}, file: "p/_x.hbs"},
		{name: "extensions in the order given, in each directory", cfg: cfg, partial: "y", exts: []string{".prompt", ".hbs"}, file: "p/sub/y.hbs"},
		{name: "a name with slashes, climbing", cfg: cfg, partial: "parts/z", exts: []string{".hbs"}, file: "p/parts/_z.hbs"},
		{name: "a name with an extension", cfg: cfg, partial: "z.txt", exts: []string{".hbs"}, file: "p/z.txt"},
		{name: "a name with an underscore is taken as written", cfg: cfg, partial: "_x.hbs", file: "p/_x.hbs"},
		{name: "a name with an underscore and no extension takes the engine's", cfg: cfg, partial: "_x", exts: []string{".hbs"}, file: "p/_x.hbs"},
		{name: "a name with an underscore, not doubled", cfg: cfg, partial: "_up", exts: []string{".hbs"}, notExist: true,
			err: `partial "_up" not found: looked for p/sub/_up, p/sub/_up.hbs, p/_up, p/_up.hbs`},
		{name: "a directory is not a partial", cfg: cfg, partial: "dir", exts: []string{".hbs"}, notExist: true,
			err: `partial "dir" not found: looked for p/sub/_dir.hbs, p/sub/dir.hbs, p/_dir.hbs, p/dir.hbs`},
		{name: "not found", cfg: cfg, partial: "up", exts: []string{".hbs"}, notExist: true,
			err: `partial "up" not found: looked for p/sub/_up.hbs, p/sub/up.hbs, p/_up.hbs, p/up.hbs`},
		{name: "no root: the template's directory only", cfg: driver.Config{FS: fsys, Dir: "p/sub"}, partial: "_x.hbs", notExist: true,
			err: `partial "_x.hbs" not found: looked for p/sub/_x.hbs`},
		{name: "..", cfg: cfg, partial: "../up", exts: []string{".hbs"}, err: `partial "../up": ` + bad},
		{name: "absolute", cfg: cfg, partial: "/up", exts: []string{".hbs"}, err: `partial "/up": ` + bad},
		{name: "backslash", cfg: cfg, partial: `..\up`, exts: []string{".hbs"}, err: `partial "..\\up": ` + bad},
		{name: "link to a file", cfg: cfg, partial: "link", exts: []string{".hbs"},
			err: `partial "link": p/link.hbs is a symbolic link; a partial must be a regular file in the prompt directory`},
		{name: "link to a directory", cfg: cfg, partial: "ldir/_z.hbs",
			err: `partial "ldir/_z.hbs": p/ldir is a symbolic link; a partial must be a regular file in the prompt directory`},
		{name: "read error", cfg: driver.Config{FS: brokenFS{fsys, "p/_x.hbs"}, Dir: "p"}, partial: "x", exts: []string{".hbs"},
			err: `partial "x": open p/_x.hbs: permission denied`},
		{name: "no file system", cfg: driver.Config{Dir: "p"}, partial: "x", exts: []string{".hbs"},
			err: `partial "x": the template was not loaded from a file system (use engine.Set.ParseFS or LoadDir)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file, src, err := tc.cfg.ReadPartial(tc.partial, tc.exts...)
			if tc.err != "" {
				require.EqualError(t, err, tc.err)
				var pe *driver.PartialError
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, tc.partial, pe.Name)
				assert.Equal(t, tc.notExist, errors.Is(err, fs.ErrNotExist), "not found is told apart from other errors")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.file, file)
			assert.Equal(t, string(fsys[tc.file].Data), string(src))
		})
	}
}

func TestPartialErrorEmbedHint(t *testing.T) {
	notFound := func(fsys fs.FS) string {
		_, _, err := driver.Config{FS: fsys, Dir: "."}.ReadPartial("persona", ".hbs")
		return err.Error()
	}
	var emb embed.FS
	assert.Equal(t, `partial "persona" not found: looked for _persona.hbs, persona.hbs; //go:embed leaves out files whose names start with _ or . unless the pattern says all:, as in //go:embed all:prompts`, notFound(emb))
	assert.Equal(t, `partial "persona" not found: looked for _persona.hbs, persona.hbs`, notFound(fstest.MapFS{}))
}

func TestIsPartialFile(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"_header.hbs", true},
		{"prompts/_header.hbs", true},
		{"_dir/header.hbs", false},
		{"header.hbs", false},
		{"a_b.hbs", false},
		{"_", true},
		{"", false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, driver.IsPartialFile(tc.name), tc.name)
	}
}

func TestPartialExts(t *testing.T) {
	jinja := []string{".jinja", ".j2", ".jinja2"}
	tests := []struct {
		root string
		exts []string
		want []string
	}{
		{"chat.jinja", jinja, []string{".jinja", ".j2", ".jinja2"}},
		{"chat.jinja2", jinja, []string{".jinja2", ".j2", ".jinja"}},
		{"chat.J2", jinja, []string{".j2", ".jinja", ".jinja2"}},
		{"chat.txt", jinja, []string{".j2", ".jinja", ".jinja2"}},
		{"chat", jinja, []string{".j2", ".jinja", ".jinja2"}},
		{"dir.jinja2/chat", jinja, []string{".j2", ".jinja", ".jinja2"}},
		{"chat.j2", nil, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.root, func(t *testing.T) {
			got := driver.PartialExts(tt.root, tt.exts)
			if len(tt.want) == 0 {
				assert.Empty(t, got)
			} else {
				assert.Equal(t, tt.want, got)
			}
		})
	}
	assert.Equal(t, []string{".jinja", ".j2", ".jinja2"}, jinja, "the engine's list is not changed")
}
