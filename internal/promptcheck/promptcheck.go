// Package promptcheck checks one prompt file as `rolemark check` does, so
// that the command line and the language server report the same problems.
package promptcheck

import (
	"context"
	"errors"
	"io/fs"
	"testing/fstest"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
	"github.com/rolemark/rolemark/internal/textpos"
	"github.com/rolemark/rolemark/internal/unclosed"
)

// File parses the template name of fsys with set, partials looked for up to
// partialRoot (engine.PartialRoot), and checks it without data
// (engine.Template.Check). A partial (a file named _NAME.*) is only
// parsed: the templates that use it check what it renders. It returns the
// template when it parsed (nil otherwise) and each problem found, errors
// joined with errors.Join taken apart. A syntax error that the engine
// reports at the end of the file for a block left open is placed at the
// block's start (unclosed.Locate).
func File(ctx context.Context, set *engine.Set, fsys fs.FS, name, partialRoot string) (*engine.Template, []error) {
	tpl, err := set.ParseFS(fsys, name, engine.PartialRoot(partialRoot))
	if err != nil {
		return nil, atOpenBlock(set, fsys, name, Flatten(err))
	}
	if driver.IsPartialFile(name) {
		return tpl, nil
	}
	if err := tpl.Check(ctx); err != nil {
		return tpl, Flatten(err)
	}
	return tpl, nil
}

// Flatten splits an errors.Join into its errors; any other error is a list
// of one.
func Flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, Flatten(e)...)
		}
		return out
	}
	return []error{err}
}

// atOpenBlock moves each error of errs that the engine of the file name
// reports at the end of the file for a block left open (Jinja's and
// pongo2's "Unexpected end of template") to the start of that block.
func atOpenBlock(set *engine.Set, fsys fs.FS, name string, errs []error) []error {
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return errs
	}
	engineName := ""
	if end := textpos.FrontMatterEnd(string(src)); end > 0 {
		head := fstest.MapFS{name: &fstest.MapFile{Data: src[:end]}}
		if tpl, err := set.ParseFS(head, name); err == nil {
			engineName = tpl.EngineName()
		}
	}
	if engineName == "" {
		e, err := set.EngineFor(name)
		if err != nil {
			return errs
		}
		engineName = e.Name()
	}
	for i, e := range errs {
		var ee *engine.Error
		if !errors.As(e, &ee) || ee.Template != name || ee.Line < 1 {
			continue
		}
		if l, c, m, ok := unclosed.Locate(engineName, string(src), ee.Err.Error(), ee.Line, ee.Col); ok {
			moved := *ee
			moved.Line, moved.Col = l, c
			if m != ee.Err.Error() {
				moved.Err = errors.New(m)
			}
			errs[i] = &moved
		}
	}
	return errs
}
