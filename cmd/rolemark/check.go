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

// cmdCheck parses every template under the paths, checks it without data
// (engine.Template.Check), and prints each problem once as
// FILE:LINE:COL: message. A partial (a file named _NAME.*) is only parsed:
// the templates that use it check what it renders. It reports whether all
// was well.
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
	printed := map[string]bool{}
	report := func(err error) {
		for _, e := range flatten(err) {
			line := e.Error()
			if printed[line] {
				continue // a broken partial is found by each template that uses it
			}
			printed[line] = true
			fmt.Fprintln(stdout, line)
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
			rename := func(err error) error { return renameAll(err, fsys, base, f) }
			tpl, err := set.ParseFS(fsys, f, engine.PartialRoot(partialRoot))
			if err != nil {
				report(rename(err))
				continue
			}
			if strings.HasPrefix(path.Base(f), "_") {
				continue
			}
			if err := tpl.Check(ctx); err != nil {
				report(rename(err))
			}
		}
	}
	if problems > 0 {
		return errSilent{}
	}
	return nil
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

// renameAll makes every *engine.Error in err that names the template f, or
// another file of fsys (a partial), name it by its path below base, as the
// user wrote base.
func renameAll(err error, fsys fs.FS, base, f string) error {
	for _, e := range flatten(err) {
		var ee *engine.Error
		if !errors.As(e, &ee) {
			continue
		}
		switch {
		case ee.Template == f || strings.HasSuffix(ee.Template, "/"+f):
			ee.Template = filepath.Join(base, filepath.FromSlash(f))
		case fs.ValidPath(ee.Template):
			if _, serr := fs.Stat(fsys, ee.Template); serr == nil {
				ee.Template = filepath.Join(base, filepath.FromSlash(ee.Template))
			}
		}
	}
	return err
}

// errSilent is a failure already reported on standard output.
type errSilent struct{}

func (errSilent) Error() string { return "" }
