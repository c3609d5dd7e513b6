package jinja

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/rolemark/rolemark/engine/driver"
)

// maxLoads bounds the template files one compile may load (the template
// itself, includes, extends, imports). pongo2 parses a static include while
// parsing the including template and has no cycle check, so a template that
// includes itself would recurse until the stack overflows.
const maxLoads = 500

// loader is the pongo2.TemplateLoader of one compiled template. It serves
// the template's own (rewritten) source under its name, then files of the
// caller's fs.FS only: a name that is absolute or climbs out of the file
// system's root is refused. Every file is rewritten as the template is.
//
// A relative name without . or .. elements that is not in the directory of
// the file naming it is looked for in each parent directory up to topDir
// (Config.Root), nearest first; a name with them is read where it points.
type loader struct {
	fsys    fs.FS
	root    string // the template's name
	rootDir string // directory relative names in the template resolve in
	topDir  string // directory the search for a relative name climbs to
	// expandRole is rewrite's flag for included files.
	expandRole bool

	mu         sync.Mutex
	rootServed bool
	loads      int
	sources    map[string]*source  // by name, including the root
	errs       map[string]error    // why a name could not be loaded
	asked      map[string]request  // who asked for a resolved name first
	climbed    map[string][]string // files of parent directories searched in vain, quoted
	refused    *refusal            // a construct the rewriter refused
}

// request is a file name as a template wrote it.
type request struct{ base, name string }

type refusal struct {
	name string
	src  string
	err  *rewriteError
}

func newLoader(fsys fs.FS, root, dir, top string, src *source, expandRole bool) *loader {
	if dir == "" {
		dir = "."
	}
	return &loader{
		fsys: fsys, root: root, rootDir: dir, topDir: top, expandRole: expandRole,
		sources: map[string]*source{root: src},
		errs:    map[string]error{},
		asked:   map[string]request{},
		climbed: map[string][]string{},
	}
}

// Abs resolves name relative to the directory of the template base that
// names it; the template itself resolves in Config.Dir.
func (l *loader) Abs(base, name string) string {
	if base == "" && name == l.root {
		return name
	}
	p := l.abs(base, name)
	l.mu.Lock()
	if _, ok := l.asked[p]; !ok {
		l.asked[p] = request{base: base, name: name}
	}
	l.mu.Unlock()
	return p
}

func (l *loader) abs(base, name string) string {
	if name == "" || strings.HasPrefix(name, "/") || strings.Contains(name, `\`) {
		return name // Get refuses it
	}
	dir := path.Dir(base)
	if base == l.root {
		dir = l.rootDir
	}
	p := path.Join(dir, name)
	if !fs.ValidPath(p) {
		return name
	}
	if l.fsys == nil || !fs.ValidPath(name) {
		return p
	}
	dirs := driver.PartialDirs(dir, l.topDir)
	for _, d := range dirs {
		q := path.Join(d, name)
		if _, err := fs.Stat(l.fsys, q); !errors.Is(err, fs.ErrNotExist) {
			return q
		}
	}
	if len(dirs) > 1 {
		l.mu.Lock()
		for _, d := range dirs[1:] {
			l.climbed[p] = append(l.climbed[p], strconv.Quote(path.Join(d, name)))
		}
		l.mu.Unlock()
	}
	return p
}

// Get returns the rewritten source of the template file at p.
func (l *loader) Get(p string) (io.Reader, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s, err := l.get(p)
	if err != nil {
		l.errs[p] = err
		return nil, err
	}
	return strings.NewReader(s.out), nil
}

func (l *loader) get(p string) (*source, error) {
	l.loads++
	if l.loads > maxLoads {
		return nil, fmt.Errorf("more than %d template files loaded (does a template include itself?)", maxLoads)
	}
	if p == l.root && !l.rootServed {
		l.rootServed = true
		return l.sources[p], nil
	}
	if l.fsys == nil {
		return nil, fmt.Errorf("cannot read %q: the template was not loaded from a file system", p)
	}
	if !fs.ValidPath(p) || p == "." {
		return nil, fmt.Errorf("cannot read %q: only files inside the template file system can be read", p)
	}
	b, err := fs.ReadFile(l.fsys, p)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		if up := l.climbed[p]; len(up) > 0 && errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("cannot read %q: %w (also looked for %s)", p, err, strings.Join(up, ", "))
		}
		return nil, fmt.Errorf("cannot read %q: %w", p, err)
	}
	s, rerr := rewrite(p, string(b), l.expandRole)
	if rerr != nil {
		if l.refused == nil {
			l.refused = &refusal{name: p, src: string(b), err: rerr}
		}
		return nil, rerr
	}
	l.sources[p] = s
	return s, nil
}

// uses reports whether any file loaded so far names ident in its code.
func (l *loader) uses(ident string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.sources {
		if s.idents[ident] {
			return true
		}
	}
	return false
}

func (l *loader) source(name string) *source {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sources[name]
}

func (l *loader) loadErr(name string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.errs[name]
}

// askedAt returns where the template that first asked for the resolved name
// p wrote its name: the opening quote of the first string literal holding it.
func (l *loader) askedAt(p string) (file string, line, col int, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r, found := l.asked[p]
	if !found {
		return "", 0, 0, false
	}
	s := l.sources[r.base]
	if s == nil {
		return r.base, 0, 0, true
	}
	for _, q := range []string{`"`, `'`} {
		if i := strings.Index(s.orig, q+r.name+q); i >= 0 {
			line, col = position(s.orig, i)
			return r.base, line, col, true
		}
	}
	return r.base, 0, 0, true
}
