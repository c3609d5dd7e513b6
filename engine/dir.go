package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Dir is a directory of compiled prompt templates, keyed by their path
// below the directory without the extension ("support/refund" for
// support/refund.hbs). It is safe for concurrent use.
type Dir struct {
	prompts map[string]*Template
	names   []string
}

// LoadDir compiles every template under dir in fsys: every file whose
// extension an engine of the set claims, or .prompt. Files whose name starts
// with an underscore are partials, read by the templates that include them
// and not listed themselves; other files are ignored. Every problem is
// reported, joined in one error (errors.As finds each *Error).
func (s *Set) LoadDir(fsys fs.FS, dir string) (*Dir, error) {
	d := &Dir{prompts: map[string]*Template{}}
	files := map[string]string{}
	var errs []error
	err := fs.WalkDir(fsys, dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if de.IsDir() || !s.IsTemplate(p) || strings.HasPrefix(de.Name(), "_") {
			return nil
		}
		rel := strings.TrimPrefix(p, dir+"/")
		if dir == "." {
			rel = p
		}
		key := strings.TrimSuffix(rel, path.Ext(rel))
		if other, dup := files[key]; dup {
			errs = append(errs, &Error{Template: p, Err: fmt.Errorf("prompt %q is also defined by %s", key, other)})
			return nil
		}
		files[key] = p
		t, err := s.ParseFSWith(fsys, p, FileOptions{Root: dir})
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		d.prompts[key] = t
		d.names = append(d.names, key)
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sort.Strings(d.names)
	return d, nil
}

// IsTemplate reports whether the file name has an extension an engine of
// the set claims, or .prompt.
func (s *Set) IsTemplate(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	_, ok := s.byExt[ext]
	return ok || ext == ".prompt"
}

// Template returns the template with the given name.
func (d *Dir) Template(name string) (*Template, bool) {
	t, ok := d.prompts[name]
	return t, ok
}

// Names returns the names of the templates, sorted.
func (d *Dir) Names() []string { return append([]string(nil), d.names...) }

// FileOptions are the choices of Set.ParseFSWith.
type FileOptions struct {
	// Engine names the engine to compile the file with, whatever its front
	// matter or extension say; empty chooses as ParseFS does.
	Engine string
	// Root is the directory of the file system that partial lookup climbs
	// to from the file's directory (see Config.Root); empty means the
	// file's own directory.
	Root string
}

// ParseFSWith reads the named file from fsys and compiles it as ParseFS
// does, with the engine and the partial root of o.
func (s *Set) ParseFSWith(fsys fs.FS, name string, o FileOptions) (*Template, error) {
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	fm, body, err := frontMatter(name, string(src))
	if err != nil {
		return nil, err
	}
	var e Engine
	if o.Engine != "" {
		var ok bool
		if e, ok = s.byName[o.Engine]; !ok {
			return nil, &Error{Template: name, Err: fmt.Errorf("unknown engine %q; known: %s", o.Engine, strings.Join(s.engineNames(), ", "))}
		}
	} else if e, err = s.engineForFile(name, fm); err != nil {
		return nil, err
	}
	return s.compile(e, name, body, fm, Config{FS: fsys, Dir: path.Dir(name), Root: o.Root, AllowMissing: s.cfg.allowMissing})
}
