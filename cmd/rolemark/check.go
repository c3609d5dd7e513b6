package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rolemark/rolemark/engine"
)

// cmdCheck parses every template under the paths, renders those whose
// declared inputs all have defaults, and prints each problem as
// FILE:LINE:COL: message. It reports whether all was well.
func cmdCheck(ctx context.Context, args []string, stdout io.Writer) error {
	fl := newFlags("check")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() == 0 {
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
	for _, root := range fl.Args() {
		info, err := os.Stat(root)
		if err != nil {
			report(err)
			continue
		}
		var base string
		var files []string
		if info.IsDir() {
			base = root
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
			tpl, err := set.ParseFS(fsys, f)
			if err != nil {
				report(rename(err))
				continue
			}
			if fm := tpl.FrontMatter(); fm != nil && fm.Input != nil && defaultsSuffice(fm) {
				if _, err := tpl.Messages(ctx, nil); err != nil {
					report(rename(err))
				}
			}
		}
	}
	if problems > 0 {
		return errSilent{}
	}
	return nil
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
