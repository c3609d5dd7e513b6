package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/rolemark/rolemark/chat"
	"github.com/rolemark/rolemark/engine"
	"github.com/rolemark/rolemark/engine/cases"
	"github.com/rolemark/rolemark/internal/caserun"
	"github.com/rolemark/rolemark/internal/linediff"
)

const testArgs = "[--update] [--tools FILE] DIR..."

const testAbout = `Renders every test case under each DIR (the cases of NAME.prompt, NAME.hbs … are in
NAME.cases.yaml beside it) and compares the result with the one recorded there: the messages as
their OpenAI JSON, or the output of the case's format. Prints a unified diff for each case that
differs, and a last line with the counts. With --update it records the result of every case that
differs or has none, keeping the rest of the file as written. Exit status: 0 when every case
passes (or is recorded), 1 when one differs, 2 for a usage error or a file that cannot be loaded.
`

// testRun counts what rolemark test found.
type testRun struct {
	cases, files, failed, updated, loadErrs int
}

func cmdTest(ctx context.Context, sio stdio, args []string) error {
	fl := newFlags("test")
	update := fl.Bool("update", false, "record the result of every case that differs or has none")
	tools := toolsOfFrontMatter(fl)
	operands, err := parseOperands(fl, args, 1, -1, "test takes one or more directories")
	if err != nil {
		return err
	}
	for _, dir := range operands {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			return usageErr("%s is not a directory", dir)
		}
	}
	set := newSet()
	if err := tools(set); err != nil {
		return err
	}
	var r testRun
	for _, dir := range operands {
		if err := r.dir(ctx, sio, set, dir, *update); err != nil {
			return err
		}
	}
	switch {
	case r.loadErrs > 0:
		fmt.Fprintf(sio.out, "FAIL\t%d of %d cases differ; %d load errors (on standard error)\n", r.failed, r.cases, r.loadErrs)
		return errUsageSilent{}
	case r.failed > 0:
		fmt.Fprintf(sio.out, "FAIL\t%d of %d cases differ; rolemark test --update records what they render now\n", r.failed, r.cases)
		return errSilent{}
	case r.updated > 0:
		fmt.Fprintf(sio.out, "ok\t%d cases in %d files; recorded %d\n", r.cases, r.files, r.updated)
	case r.files == 0:
		fmt.Fprintf(sio.out, "ok\tno test cases (NAME%s beside a prompt)\n", cases.Ext)
	default:
		fmt.Fprintf(sio.out, "ok\t%d cases in %d files\n", r.cases, r.files)
	}
	return nil
}

// errUsageSilent is exit status 2 after the command has said why (main.go's
// exec).
type errUsageSilent struct{}

func (errUsageSilent) Error() string { return "usage" }

// dir runs the cases files under dir.
func (r *testRun) dir(ctx context.Context, sio stdio, set *engine.Set, dir string, update bool) error {
	fsys := os.DirFS(dir)
	files, err := caserun.Files(fsys)
	if err != nil {
		return err
	}
	for _, p := range files {
		if err := ctx.Err(); err != nil {
			return context.Cause(ctx)
		}
		r.file(ctx, sio, set, fsys, dir, p, update)
	}
	return nil
}

// file runs the cases of one file.
func (r *testRun) file(ctx context.Context, sio stdio, set *engine.Set, fsys fs.FS, dir, p string, update bool) {
	shown := filepath.Join(dir, filepath.FromSlash(p))
	loadErr := func(err error) {
		r.loadErrs++
		fmt.Fprintln(sio.err, renameInDir(err, dir))
	}
	runner := caserun.Runner{Set: set, FS: fsys, Dir: dir, Format: writeCaseFormat, CheckFormat: checkCaseFormat}
	f, outcomes, err := runner.File(ctx, p)
	if f != nil {
		r.files++
	}
	if err != nil {
		loadErr(err)
		return
	}
	var recorded []string
	for i, o := range outcomes {
		r.cases++
		if o.Passed() {
			continue
		}
		c := o.Case
		if update {
			if err := f.Record(i, o.Got); err != nil {
				loadErr(fmt.Errorf("%s: case %q: %v", shown, c.Name, err))
				return
			}
			recorded = append(recorded, c.Name)
			continue
		}
		r.failed++
		want, have := o.Texts()
		what := "differs"
		if c.Want == nil {
			what = "has no recorded result"
		}
		fmt.Fprintf(sio.out, "FAIL %s: %s %s\n", shown, c.Name, what)
		shownPrompt := filepath.Join(dir, filepath.FromSlash(engine.VariantFile(f.Prompt, c.Variant)))
		sio.out.Write(linediff.Unified(shown+": "+c.Name+" (recorded)", shownPrompt+" (rendered)", want, have))
	}
	if len(recorded) == 0 {
		return
	}
	// A case is recorded once the file is written, and said so then.
	if _, err := f.Save(dir); err != nil {
		loadErr(err)
		return
	}
	for _, name := range recorded {
		r.updated++
		fmt.Fprintf(sio.out, "recorded %s: %s\n", shown, name)
	}
}

// checkCaseFormat refuses a case's format that writeCaseFormat cannot
// write.
func checkCaseFormat(format string) error { return checkFormat(format, false) }

// writeCaseFormat writes a case's format as rolemark render prints it.
func writeCaseFormat(ctx context.Context, w io.Writer, msgs []chat.Message, format string, tools []chat.Tool) error {
	return writeMessages(ctx, w, msgs, format, tools, nil)
}

// renameInDir makes an error that names a file of the directory's file
// system name it as the user can open it, inside dir.
func renameInDir(err error, dir string) error {
	var ee *engine.Error
	if errors.As(err, &ee) && ee.Template != "" && !filepath.IsAbs(ee.Template) {
		ee.Template = filepath.Join(dir, filepath.FromSlash(ee.Template))
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && !filepath.IsAbs(pe.Path) {
		pe.Path = filepath.Join(dir, filepath.FromSlash(pe.Path))
	}
	return err
}
