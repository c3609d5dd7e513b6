package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/rolemark/rolemark/engine"
)

// cmdCheck parses every template under the paths, renders those whose
// inputs allow it (see tryRender), and prints each problem as
// FILE:LINE:COL: message. It reports whether all was well.
func cmdCheck(ctx context.Context, sio stdio, args []string) error {
	stdout := sio.out
	operands, err := parseArgs(newFlags("check"), args)
	if err != nil {
		return err
	}
	if len(operands) == 0 {
		return usageErr("check takes one or more files or directories")
	}
	set := newSet()
	problems := 0
	report := func(err error) {
		for _, e := range flatten(err) {
			fmt.Fprintln(stdout, e)
			problems++
		}
	}
	for _, root := range operands {
		info, err := os.Stat(root)
		if err != nil {
			report(err)
			continue
		}
		var base, partialRoot string
		var files []string
		if info.IsDir() {
			// The directory is the prompt directory: partials are looked
			// for up to its top, as LoadDir does.
			base, partialRoot = root, "."
			err = fs.WalkDir(os.DirFS(root), ".", func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if !d.IsDir() && set.IsTemplate(p) {
					files = append(files, p)
				}
				return nil
			})
			if err != nil {
				report(err)
				continue
			}
		} else {
			base, files = filepath.Dir(root), []string{filepath.Base(root)}
		}
		fsys := os.DirFS(base)
		for _, f := range files {
			shown := filepath.Join(base, filepath.FromSlash(f))
			rename := func(err error) error { return renameAll(err, f, shown) }
			tpl, err := set.ParseFS(fsys, f, engine.PartialRoot(partialRoot))
			if err != nil {
				report(rename(err))
				continue
			}
			if err := tryRender(ctx, tpl, path.Base(f)); err != nil {
				report(rename(err))
			}
		}
	}
	if problems > 0 {
		return errSilent{}
	}
	return nil
}

// tryRender renders a template with its declared defaults where its inputs
// allow, and returns the problem it finds. A partial (a file named _NAME.*)
// is only parsed: it is rendered by the templates that use it. A template
// that declares an input schema is rendered when every required input has a
// default, and then a variable it uses but does not declare is a problem. A
// template without a schema is rendered too, and a variable it needs is taken
// as an input it did not declare, not as a problem.
func tryRender(ctx context.Context, tpl *engine.Template, base string) error {
	if strings.HasPrefix(base, "_") {
		return nil
	}
	fm := tpl.FrontMatter()
	declared := fm != nil && fm.Input != nil
	if declared && !defaultsSuffice(fm) {
		return nil
	}
	_, err := tpl.Messages(ctx, nil)
	var me *engine.MissingError
	if errors.As(err, &me) {
		if !declared {
			return nil
		}
		var ee *engine.Error
		if _, ok := fm.Input.Properties[me.Name]; !ok && errors.As(err, &ee) && ee.Err == error(me) {
			ee.Err = fmt.Errorf("%w: the template uses it but input.schema does not declare it", me)
		}
	}
	return err
}

// defaultsSuffice reports whether every required input has a default.
func defaultsSuffice(fm *engine.FrontMatter) bool {
	for _, name := range fm.Input.Required {
		if _, ok := fm.Defaults[name]; !ok {
			return false
		}
	}
	return true
}

// flatten splits an errors.Join into its errors.
func flatten(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}

// renameAll makes every *engine.Error in err that names template from name
// it as to.
func renameAll(err error, from, to string) error {
	for _, e := range flatten(err) {
		var ee *engine.Error
		if errors.As(e, &ee) && (ee.Template == from || strings.HasSuffix(ee.Template, "/"+from)) {
			ee.Template = to
		}
	}
	return err
}

// errSilent is a failure already reported on standard output.
type errSilent struct{}

func (errSilent) Error() string { return "" }
