// Package promptcheck checks one prompt file as `rolemark check` does, so
// that the command line and the language server report the same problems.
package promptcheck

import (
	"context"
	"io/fs"

	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/driver"
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
