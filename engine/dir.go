package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/rolemark/rolemark/engine/driver"
)

// Dir is a directory of compiled prompt templates, keyed by their path
// below the directory without the extension ("support/refund" for
// support/refund.hbs). It is safe for concurrent use.
//
// A Dotprompt file named NAME.VARIANT.prompt (one dot before .prompt, as
// Dotprompt's DirStore names variants) is variant VARIANT of prompt NAME:
// Variant finds it, Template does not.
type Dir struct {
	prompts  map[string]*Template
	variants map[string]map[string]*Template
	names    []string
}

// LoadDir compiles every template under dir in fsys: every file whose
// extension an engine of the set claims, or .prompt. A dir that is not a
// directory is an error (ParseFS reads one file). Files whose name starts
// with an underscore are partials, read by the templates that include them
// and not listed themselves; other files are ignored. Every problem is
// reported, joined in one error (errors.As finds each *Error).
//
// A template or partial file that is a symbolic link is an error: with
// os.DirFS it could point anywhere on the disk.
//
// To build a prompt directory into the program, embed it with all:, which
// keeps the partials (//go:embed leaves out files whose names start with _
// unless the pattern says all:; a partial missing from an embed.FS is an
// error that says so):
//
//	//go:embed all:prompts
//	var prompts embed.FS
//
//	dir, err := set.LoadDir(prompts, "prompts")
//
// A template finds a partial in its own directory or, failing that, in the
// nearest parent directory up to dir, never above it (driver.Config.Root is dir):
// a partial at the top of the prompt directory serves every subdirectory,
// and a subdirectory's own partial of the same name shadows it.
func (s *Set) LoadDir(fsys fs.FS, dir string) (*Dir, error) {
	d := &Dir{prompts: map[string]*Template{}, variants: map[string]map[string]*Template{}}
	files := map[string]string{}
	listed := map[string]bool{}
	var errs []error
	err := fs.WalkDir(fsys, dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir && !de.IsDir() {
			return fmt.Errorf("%s: not a directory (LoadDir reads a directory of templates; ParseFS reads one file)", p)
		}
		if de.Type()&fs.ModeSymlink != 0 && s.IsTemplate(p) {
			// With os.DirFS, a link could point anywhere on the disk.
			errs = append(errs, fmt.Errorf("%s: a symbolic link; a prompt directory holds regular files only", p))
			return nil
		}
		if de.IsDir() || !s.IsTemplate(p) || driver.IsPartialFile(de.Name()) {
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
		t, err := s.ParseFS(fsys, p, PartialRoot(dir))
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		name, variant := SplitVariant(key + path.Ext(rel))
		if variant == "" {
			d.prompts[key] = t
		} else {
			if d.variants[name] == nil {
				d.variants[name] = map[string]*Template{}
			}
			d.variants[name][variant] = t
		}
		if !listed[name] {
			listed[name] = true
			d.names = append(d.names, name)
		}
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
	_, ok := s.byExt[strings.ToLower(path.Ext(name))]
	return ok || isDotpromptFile(name)
}

// Template returns the template with the given name.
func (d *Dir) Template(name string) (*Template, bool) {
	t, ok := d.prompts[name]
	return t, ok
}

// Variant returns variant v of the named prompt (the file NAME.v.prompt);
// an empty v is the prompt itself, as Template returns it.
func (d *Dir) Variant(name, v string) (*Template, bool) {
	if v == "" {
		return d.Template(name)
	}
	t, ok := d.variants[name][v]
	return t, ok
}

// Variants returns the names of the named prompt's variants, sorted.
func (d *Dir) Variants(name string) []string {
	var out []string
	for v := range d.variants[name] {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// Names returns the names of the prompts, sorted: each once, whether it has
// a file of its own, variants, or both.
func (d *Dir) Names() []string { return append([]string(nil), d.names...) }

// FileOption configures how Set.ParseFS compiles one file.
type FileOption func(*fileSettings)

type fileSettings struct {
	engine, root, variant string
}

// UseEngine compiles the file with the named engine, whatever its front
// matter or extension say. An empty name chooses as usual.
func UseEngine(name string) FileOption { return func(f *fileSettings) { f.engine = name } }

// PartialRoot sets the directory of the file system that partial lookup
// climbs to from the file's directory (see driver.Config.Root): a partial that is
// not beside the file is looked for in each parent up to dir, nearest
// first. By default it is the file's own directory; Set.LoadDir uses the
// directory it loads.
func PartialRoot(dir string) FileOption { return func(f *fileSettings) { f.root = dir } }

func (s *Set) parseFile(fsys fs.FS, name string, opts []FileOption) (*Template, error) {
	var o fileSettings
	for _, opt := range opts {
		opt(&o)
	}
	if o.variant != "" {
		if strings.ContainsAny(o.variant, "./\\") {
			return nil, &Error{Template: name, Err: fmt.Errorf("variant %q: a variant's name has no dot or slash", o.variant)}
		}
		name = VariantFile(name, o.variant)
	}
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	fm, body, err := s.frontMatter(name, string(src))
	if err != nil {
		return nil, err
	}
	var e driver.Engine
	if o.engine != "" {
		var ok bool
		if e, ok = s.byName[o.engine]; !ok {
			return nil, &Error{Template: name, Err: fmt.Errorf("unknown engine %q; known: %s", o.engine, strings.Join(s.engineNames(), ", "))}
		}
	} else if e, err = s.engineForFile(name, fm); err != nil {
		return nil, err
	}
	return s.compile(e, name, body, fm, driver.Config{FS: fsys, Dir: path.Dir(name), Root: o.root, AllowMissing: s.cfg.allowMissing})
}
