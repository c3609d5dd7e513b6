package caserun

import (
	"io/fs"
	"strings"

	"github.com/rolemark/rolemark/engine/cases"
)

// SkipDir reports whether a walk of a prompt directory passes over the
// directory named name (any but the root): a hidden one (.git, .venv) or
// node_modules. rolemark test and the studio page (its listing, its cases
// and the fingerprint it polls) skip the same directories, so that the page
// shows the cases the command runs.
func SkipDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "node_modules"
}

// Walk calls fn, as fs.WalkDir does, for each file under the root of fsys
// outside the directories SkipDir names, and for each path it cannot read
// with the error (fn's answer is fs.WalkDir's). Directories themselves are
// not passed to fn.
func Walk(fsys fs.FS, fn fs.WalkDirFunc) error {
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			if p != "." && SkipDir(d.Name()) {
				return fs.SkipDir
			}
			return nil
		}
		return fn(p, d, err)
	})
}

// Files returns the cases files (NAME.cases.yaml) under the root of fsys
// that rolemark test runs, in the order of the walk, and the first error
// met on the way; the walk goes on past it.
func Files(fsys fs.FS) ([]string, error) {
	var out []string
	var first error
	err := Walk(fsys, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if first == nil {
				first = err
			}
			return nil
		}
		if strings.HasSuffix(p, cases.Ext) {
			out = append(out, p)
		}
		return nil
	})
	if first == nil {
		first = err
	}
	return out, first
}
