package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/internal/promptcheck"
)

// toolsOfFrontMatter declares --tools on fl, the tools that front matter
// may name; the function it returns gives them to set. check, test, serve
// and lsp take it.
func toolsOfFrontMatter(fl *flag.FlagSet) func(set *engine.Set) error {
	file := fl.String("tools", "", "tools that front matter may name (tools: [get_weather]), a JSON array of OpenAI function tools in `FILE`")
	return func(set *engine.Set) error {
		if *file == "" {
			return nil
		}
		var tools []chat.Tool
		if err := readJSONFile(*file, &tools); err != nil {
			return usageErr("--tools: %v", err)
		}
		set.Option(engine.Tools(tools...))
		return nil
	}
}

// cmdCheck parses every template under the paths, checks it without data
// (engine.Template.Check), and prints each problem once as
// FILE:LINE:COL: message. A partial (a file named _NAME.*) is only parsed:
// the templates that use it check what it renders. It reports whether all
// was well.
func cmdCheck(ctx context.Context, sio stdio, args []string) error {
	stdout := sio.out
	fl := newFlags("check")
	tools := toolsOfFrontMatter(fl)
	operands, err := parseOperands(fl, args, 1, -1, "check takes one or more files or directories")
	if err != nil {
		return err
	}
	set := newSet()
	if err := tools(set); err != nil {
		return err
	}
	problems := 0
	printed := map[string]bool{}
	report := func(err error) {
		for _, e := range promptcheck.Flatten(err) {
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
			_, problems := promptcheck.File(ctx, set, fsys, f, partialRoot)
			for _, err := range problems {
				report(rename(err))
			}
		}
	}
	if problems > 0 {
		return errSilent{}
	}
	return nil
}

// renameAll makes every *engine.Error in err that names the template f, or
// another file of fsys (a partial), name it by its path below base, as the
// user wrote base.
func renameAll(err error, fsys fs.FS, base, f string) error {
	for _, e := range promptcheck.Flatten(err) {
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
