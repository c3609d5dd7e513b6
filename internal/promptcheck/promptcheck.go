// Package promptcheck checks one prompt file as `rolemark check` does, so
// that the command line and the language server report the same problems.
package promptcheck

import (
	"context"
	"io/fs"
	"path"
	"strings"

	"github.com/rolemark/rolemark/engine"
)

// File parses the template name of fsys with set, partials looked for up to
// partialRoot (engine.PartialRoot), and checks it without data
// (engine.Template.Check). A partial (a file named _NAME.*) is only
// parsed: the templates that use it check what it renders. It returns the
// template when it parsed (nil otherwise) and each problem found, errors
// joined with errors.Join taken apart.
func File(ctx context.Context, set *engine.Set, fsys fs.FS, name, partialRoot string) (*engine.Template, []error) {
	tpl, err := set.ParseFS(fsys, name, engine.PartialRoot(partialRoot))
	if err != nil {
		return nil, Flatten(err)
	}
	if IsPartial(name) {
		return tpl, nil
	}
	if err := tpl.Check(ctx); err != nil {
		return tpl, Flatten(err)
	}
	return tpl, nil
}

// IsPartial reports whether the file name is a partial's: its base name
// starts with _.
func IsPartial(name string) bool { return strings.HasPrefix(path.Base(name), "_") }

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
