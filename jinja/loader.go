package jinja

import (
	"errors"

	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/jinja2"
)

// loader reads the partials of one compiled template: every include,
// import and extends name is resolved by driver.Config.ReadPartial from
// the template's directory (Config.Dir) up to Config.Root, whichever file
// names it, as Handlebars partials and text/template templates are.
type loader struct {
	cfg  driver.Config
	exts []string
	c    *compiled
}

// load is the jinja2.Loader: the source of the partial called name.
func (l *loader) load(name string) (string, error) {
	file, src, err := l.cfg.ReadPartial(name, l.exts...)
	if err != nil {
		return "", err
	}
	l.c.mu.Lock()
	l.c.files[name] = file
	l.c.mu.Unlock()
	return string(src), nil
}

// preload reads and compiles, through the Env's loader and cache, every
// partial that t (and, in turn, each of them) names with a string literal,
// so that a missing, refused or broken partial is an error of Compile, at
// the place that names it. Partials named by an expression are read when
// a render reaches them.
func (c *compiled) preload(t *jinja2.Template) error {
	c.partials = map[string]*jinja2.Template{}
	return c.preloadTree(t.Tree())
}

func (c *compiled) preloadTree(tree *jinja2.Tree) error {
	var err error
	walkStmts(tree.Body, func(s jinja2.Stmt) bool {
		if err != nil {
			return false
		}
		x, ignore := partialName(s)
		k, ok := x.(*jinja2.Const)
		if !ok || k.Value.Kind() != jinja2.KindStr {
			return true
		}
		name := k.Value.Str()
		if _, done := c.partials[name]; done {
			return true
		}
		pt, lerr := c.env.Load(name)
		if lerr != nil {
			if ignore {
				return true
			}
			err = c.partialErr(lerr, tree.Name, k.Position())
			return false
		}
		c.partials[name] = pt
		err = c.preloadTree(pt.Tree())
		return err == nil
	})
	return err
}

// partialErr places an error of loading a partial: a file that cannot be
// read at the name that names it, a broken file at its own place.
func (c *compiled) partialErr(err error, by string, at jinja2.Pos) error {
	var je *jinja2.Error
	if errors.As(err, &je) && je.Line == 0 {
		cp := *je
		cp.Name, cp.Line, cp.Col = by, at.Line, at.Col
		return c.convert(&cp)
	}
	return c.convert(err)
}

// partialName returns the template expression of an include, import,
// from-import or extends, and whether a missing file is ignored.
func partialName(s jinja2.Stmt) (jinja2.Expr, bool) {
	switch s := s.(type) {
	case *jinja2.Include:
		return s.Template, s.IgnoreMissing
	case *jinja2.Import:
		return s.Template, false
	case *jinja2.FromImport:
		return s.Template, false
	case *jinja2.Extends:
		return s.Template, false
	}
	return nil, false
}
