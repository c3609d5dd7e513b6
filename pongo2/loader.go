package pongo2

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/textpos"
)

// maxLoads bounds the template files one compile may load (the template
// itself, includes, extends, imports). pongo2 parses a static include while
// parsing the including template and has no cycle check, so a template that
// includes itself would recurse until the stack overflows.
const maxLoads = 500

// loader is the p2.TemplateLoader of one compiled template. It serves
// the template's own (rewritten) source under its name, then files that
// driver.Config.ReadPartial finds: every include, import and extends name
// is resolved from the template's directory (Config.Dir) up to
// Config.Root, whichever file names it, as Handlebars partials and
// text/template templates are. Every file is rewritten as the template is.
type loader struct {
	cfg  driver.Config
	root string // the template's name
	exts []string
	// expandRole is rewrite's flag for included files.
	expandRole bool

	mu         sync.Mutex
	rootServed bool
	loads      int
	sources    map[string]*source // by name, including the root
	errs       map[string]error   // why a name could not be loaded
	read       map[string][]byte  // files read, by path, not yet rewritten
	asked      map[string]request // who asked for a resolved name first
	refused    *refusal           // a construct the rewriter refused
}

// request is a file name as a template wrote it.
type request struct{ base, name string }

type refusal struct {
	name string
	src  string
	err  *rewriteError
}

func newLoader(cfg driver.Config, root string, src *source, expandRole bool, engineExts []string) *loader {
	return &loader{
		cfg: cfg, root: root, exts: driver.PartialExts(root, engineExts), expandRole: expandRole,
		sources: map[string]*source{root: src},
		errs:    map[string]error{},
		read:    map[string][]byte{},
		asked:   map[string]request{},
	}
}

// Abs resolves name, named by the template base, to the file that
// ReadPartial finds, and reads it. A name that cannot be read resolves to
// itself prefixed with "?", which is no file's path, and Get returns why.
func (l *loader) Abs(base, name string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if base == "" {
		// pongo2's FromFile resolves again the path a tag resolved.
		_, read := l.read[name]
		_, failed := l.errs[name]
		if _, ok := l.sources[name]; ok || read || failed || name == l.root {
			return name
		}
	}
	p := "?" + name
	file, src, err := l.cfg.ReadPartial(name, l.exts...)
	if err != nil {
		l.errs[p] = err
	} else {
		p = file
		if _, ok := l.sources[p]; !ok {
			l.read[p] = src
		}
	}
	if _, ok := l.asked[p]; !ok {
		l.asked[p] = request{base: base, name: name}
	}
	return p
}

// Get returns the rewritten source of the template file at p.
func (l *loader) Get(p string) (io.Reader, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s, err := l.get(p)
	if err != nil {
		if _, ok := l.errs[p]; !ok {
			l.errs[p] = err
		}
		return nil, err
	}
	return strings.NewReader(s.out), nil
}

func (l *loader) get(p string) (*source, error) {
	l.loads++
	if l.loads > maxLoads {
		return nil, fmt.Errorf("more than %d template files loaded (does a template include itself?)", maxLoads)
	}
	if p == l.root {
		if l.rootServed {
			// pongo2 reads an include as it parses, so a template that
			// includes itself could never finish.
			return nil, &driver.PartialError{Name: p, Err: errors.New("the template includes itself; recursive includes are not supported")}
		}
		l.rootServed = true
		return l.sources[p], nil
	}
	if err := l.errs[p]; err != nil {
		return nil, err
	}
	b, ok := l.read[p]
	if !ok {
		return nil, &driver.PartialError{Name: p, Err: errors.New("not resolved by the loader")}
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
			line, col = textpos.LineCol(s.orig, i)
			return r.base, line, col, true
		}
	}
	return r.base, 0, 0, true
}
